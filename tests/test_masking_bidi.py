"""Partial masking of values shown in another order than they are stored (issue 26).

The detector reads a line with a bidi control (RLO, RLE, RLI, an RTL mark, ``<bdo dir=rtl>``) in the order a
reader sees it, and a span found there maps back to the characters as stored. The PARTIAL style keeps a
part of a value by stored position: a phone stored reversed inside an override would keep its last digits,
an RRN its secret back half. Such a value is masked whole, the direction marks inside its replacement either
dropped as a pair or kept so the rest of the line is shown as before; so is a value written in characters a
detection view translated (Hanja numerals). Ordinary values keep their partial form.

Each file is redacted by ``veil-redact redact`` (embedded default detector, ``--style LABEL=partial``) and the
output is read by a reader of its own below, in display order and in stored order: no value survives by the
leak rule of KOREAN_MASKING.md (four digits of a number, two syllables of a name).
"""
from __future__ import annotations

import re

import pytest

from veil_desktop import cli
from veil_desktop.detect.span import Span
from veil_desktop.masking import Masker

PHONE = "010-4172-8835"
RRN = "870605-2148373"
NAME, NAME2 = "윤채원", "백도현"
RLO, PDF, RLI, PDI, RLM = "\u202e", "\u202c", "\u2067", "\u2069", "\u200f"
CONTROLS = "\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c"

BIDI_LINES = [
    f"연락처 {RLO}{PHONE[::-1]}{PDF} 로 연락 바랍니다.",
    f"주민등록번호 {RLO}{RRN[::-1]}{PDF} 입니다.",
    f"고객 이름: {RLO}{NAME[::-1]}{PDF} 님",
    f"보호자 {RLI}{NAME2}{PDI} 님, 전화 {RLI}{PHONE.replace('-', ' ')}{PDI}",
    f'비상 <bdo dir="rtl">{PHONE[::-1]}</bdo> 입니다',
    "휴대폰 零一零 四一七二 八八三五",
]
PLAIN_LINE = f"전화 {PHONE}, 주민 {RRN}, 담당 {NAME} 님"
PARTIAL = ["--style", "PHONE=partial", "--style", "RRN=partial", "--style", "PERSON=partial"]


# ------------------------------------------------------------------------------ a reader of the output
def displayed(line: str) -> str:
    """``line`` as a reader sees it: an override (RLO or ``<bdo dir=rtl>`` up to its end) shown reversed,
    Hanja digits read as digits, other controls and tags invisible."""
    line = re.sub(r'<bdo dir="?rtl"?>(.*?)(?:</bdo>|$)', lambda m: RLO + m.group(1) + PDF, line)
    line = re.sub(f"{RLO}([^{PDF}]*){PDF}?", lambda m: m.group(1)[::-1], line)
    line = re.sub("<[^>]*>", "", line)
    return re.sub(f"[{CONTROLS}]", "", line).translate(str.maketrans("零一二三四五六七八九", "0123456789"))


def stored(line: str) -> str:
    return re.sub(f"[{CONTROLS}]", "", re.sub("<[^>]*>", "", line)).translate(
        str.maketrans("零一二三四五六七八九", "0123456789"))


def leaks(text: str) -> list[str]:
    """The planted values that survive in ``text`` read in display order or in stored order."""
    found = []
    for read in (displayed, stored):
        t = "".join(read(line) for line in text.split("\n"))
        t = re.sub(r"[\s\-.,:]", "", t)
        for value in (PHONE, RRN):
            v = re.sub(r"\D", "", value)
            for run in re.findall(r"\d{4,}", t):
                if any(run[i:i + 4] in v or run[i:i + 4] in v[::-1] for i in range(len(run) - 3)):
                    found.append((read.__name__, value))
        for name in (NAME, NAME2):
            for i in range(len(name) - 1):
                if name[i:i + 2] in t or name[i:i + 2][::-1] in t:
                    found.append((read.__name__, name))
    return sorted(set(found))


def redact(tmp_path, text: str, *style: str) -> str:
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    (src / "memo.txt").write_bytes(text.encode("utf-8"))
    rc = cli.main(["redact", str(src), "--out", str(out), "--quiet", "--threads", "1", *style])
    assert rc == 0
    return (out / "memo.txt").read_bytes().decode("utf-8")


@pytest.fixture(scope="module")
def partial_output(tmp_path_factory):
    text = "\n".join(BIDI_LINES + [PLAIN_LINE]) + "\n"
    return text, redact(tmp_path_factory.mktemp("bidi"), text, *PARTIAL)


# --------------------------------------------------------------------------------------------- tests
def test_the_reader_sees_every_value_in_the_input(partial_output):
    text, _ = partial_output
    shown = {v for _, v in leaks(text)}
    assert shown == {PHONE, RRN, NAME, NAME2}
    # displayed order is what a reader sees: the reversed phone, RRN and name read forwards
    assert displayed(BIDI_LINES[0]) == f"연락처 {PHONE} 로 연락 바랍니다."
    assert displayed(BIDI_LINES[1]) == f"주민등록번호 {RRN} 입니다."
    assert displayed(BIDI_LINES[4]) == f"비상 {PHONE} 입니다"


def test_no_value_survives_partial_masking_in_either_order(partial_output):
    _, out = partial_output
    lines = out.split("\n")
    assert len(lines) == len(BIDI_LINES) + 2 and lines[-1] == ""
    assert leaks("\n".join(lines[:len(BIDI_LINES)])) == [], lines


def test_values_shown_reversed_are_masked_whole_and_their_controls_dropped(partial_output):
    _, out = partial_output
    lines = out.split("\n")
    # the override pair held only the value: both controls are gone, every character of the value masked
    assert lines[0] == "연락처 " + "*" * len(PHONE) + " 로 연락 바랍니다."
    assert lines[1] == "주민등록번호 " + "*" * len(RRN) + " 입니다."
    assert lines[2] == "고객 이름: *** 님"
    assert lines[4] == "비상 " + "*" * len(PHONE) + " 입니다"
    # the isolates are characters of their own (not part of the spans): kept around the masks
    assert lines[3] == f"보호자 {RLI}***{PDI} 님, 전화 {RLI}*** **** ****{PDI}"
    # a number in Hanja numerals: the partial rule cannot tell its digits, so nothing of it is kept
    assert lines[5] == "휴대폰 *** **** ****"
    for line in lines[:len(BIDI_LINES)]:
        assert not re.search(r"\d", displayed(line)) and not re.search(r"\d", stored(line)), line


def test_ordinary_partial_masking_is_unchanged_beside_bidi_lines(partial_output):
    _, out = partial_output
    assert out.split("\n")[len(BIDI_LINES)] == f"전화 010-****-****, 주민 870605-*******, 담당 윤** 님"


def test_ordinary_partial_masking_alone(tmp_path):
    out = redact(tmp_path, PLAIN_LINE + "\n", *PARTIAL)
    assert out == "전화 010-****-****, 주민 870605-*******, 담당 윤** 님\n"


def test_default_style_on_a_reversed_line_keeps_the_line_intact(tmp_path):
    # the default TAG style: the tags replace the value and its override pair; the line reads as before
    out = redact(tmp_path, BIDI_LINES[0] + "\n" + BIDI_LINES[1] + "\n")
    assert out == "연락처 [전화번호] 로 연락 바랍니다.\n주민등록번호 [주민등록번호] 입니다.\n"


# ------------------------------------------------------------------ the masker's plan over such lines
def _plan(text: str, spans: list[Span], style: str = "partial") -> str:
    from veil_desktop.masking import apply_replacements

    m = Masker({s.label: style for s in spans})
    return apply_replacements(text, m.plan(text, spans))


def test_an_override_the_span_opens_but_does_not_close_stays_open():
    # 메모 [RLO]원채윤 님객고[PDF] 끝 is shown 메모 고객님 윤채원 끝; the name's span covers the RLO (the
    # control is covered by the character stored after it) but not the PDF: dropping the RLO would show
    # the rest of the run in stored order, so it stays, after the mask
    text = f"메모 {RLO}원채윤 님객고{PDF} 끝"
    span = Span(3, 7, "PERSON")
    assert text[span.start:span.end] == RLO + "원채윤"
    assert _plan(text, [span]) == f"메모 ***{RLO} 님객고{PDF} 끝"
    assert _plan(text, [span], "tag") == f"메모 [PERSON]{RLO} 님객고{PDF} 끝"
    # a span closing an override opened before it: the PDF is kept before the mask
    text = f"메모 {RLO}님 원채윤{PDF} 끝"
    span = Span(6, 10, "PERSON")
    assert text[span.start:span.end] == "원채윤" + PDF
    assert _plan(text, [span]) == f"메모 {RLO}님 {PDF}*** 끝"


@pytest.mark.parametrize("line, value", [
    (f"{RLM}{PHONE.replace('-', ' ')}", PHONE.replace("-", " ")),       # an RTL mark: groups shown swapped
    (f"טלפון {PHONE}", PHONE),                                         # a right-to-left paragraph
    (f"전화 \u202b{PHONE}\u202c", PHONE),                                # an RLE embedding
    (f"전화 &#x202E;{PHONE[::-1]}&#x202C;", PHONE[::-1]),               # a reference to an override
])
def test_partial_is_whole_on_any_line_shown_right_to_left(line, value):
    a = line.index(value)
    out = _plan(line, [Span(a, a + len(value), "PHONE")])
    assert out == line[:a] + "".join(c if c == " " else "*" for c in value) + line[a + len(value):], ascii(out)


def test_partial_over_a_multi_line_bdo_cell_is_whole():
    text = f'"<bdo dir=rtl>메모\n{PHONE[::-1]}</bdo>"\n전화 {PHONE}'
    a = text.index(PHONE[::-1])
    b = text.rindex(PHONE)
    out = _plan(text, [Span(a, a + len(PHONE), "PHONE"), Span(b, b + len(PHONE), "PHONE")])
    assert out == '"<bdo dir=rtl>메모\n' + "*" * len(PHONE) + '</bdo>"\n전화 010-****-****'


@pytest.mark.parametrize("value, label", [
    ("〇一〇-四一七二-八八三五", "PHONE"),       # Hanja numerals
    ("⁰¹⁰⁻⁴¹⁷²⁻⁸⁸³⁵", "PHONE"),                 # superscript digits
    ("O1O-l234-5678", "PHONE"),                 # letters for digits
    ("870605-2148373\u200b", "RRN"),            # an invisible character
    ("870605-\n2148373", "RRN"),                # broken over a line
    ("ㅇㅠㄴㅊㅐㅇㅝㄴ", "PERSON"),              # compatibility jamo
    ("<b>윤</b>채원", "PERSON"),                 # markup
])
def test_partial_keeps_nothing_of_a_translated_spelling(value, label):
    out = _plan(f"값 {value} 끝", [Span(2, 2 + len(value), label)])
    assert out == "값 " + "".join(c if c.isspace() else "*" for c in value) + " 끝"


@pytest.mark.parametrize("value, label, masked", [
    (PHONE, "PHONE", "010-****-****"),
    ("010 4172 8835", "PHONE", "010 **** ****"),
    ("０１０－４１７２－８８３５", "PHONE", "０１０－****－****"),
    (RRN, "RRN", "870605-*******"),
    (NAME, "PERSON", "윤**"),
    ("chaewon.yoon@example.org", "EMAIL", "ch**********@example.org"),
    ("부산광역시 해운대구 센텀중앙로 79", "ADDRESS", "부산광역시 해운대구 ***** **"),
])
def test_plain_values_keep_their_partial_form(value, label, masked):
    assert _plan(f"값 {value} 끝", [Span(2, 2 + len(value), label)]) == f"값 {masked} 끝"
