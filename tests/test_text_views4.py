"""Issue 26 class 5, fourth batch: text the detector did not read, read as a reader reads it.

Compatibility-jamo spelling (``ㅇㅠㄴㅊㅐㅇㅝㄴ``, letter-spaced, half-width), Hanja numerals (``零一零``, ``〇``),
super/subscript digits, HTML tags in CSV cells (a tag per syllable / digit, ``<wbr>``, ``<bdo dir=rtl>``),
keycap digits, text stored reversed inside a bidi override or isolate, and box-drawing / ASCII tables whose
cells run over several lines (a name written downwards, an address wrapped). Each file is redacted through
the product's export path (``veil-redact redact``, embedded default detector) and the output is read by a
reader of its own below (tags stripped, jamo composed, Hanja digits and keycaps read, override runs shown
reversed, table rules and spaces dropped): no value may survive by the leak rule of KOREAN_MASKING.md
(two syllables of a name, four digits of a number, three characters of an address's street part, four of
an e-mail's local part). Ordinary text with Hanja words, footnote marks, tables and markup is left alone.
"""
from __future__ import annotations

import re
import time
import unicodedata

import pytest

from veil_desktop import cli
from veil_desktop.detect.layout import bidi_edits, box_table_edits, markup_edits
from veil_desktop.detect.normalize import detection_view
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.documents.second_opinion import View, second_opinion

NAME, NAME2 = "윤채원", "백도현"
PHONE = "010-4172-8835"
RRN = "870605-2148373"
PASSPORT = "M48120936"
EMAIL = "chaewon.yoon@example.org"
ADDR_STREET = "센텀중앙로79"            # street part of 부산광역시 해운대구 센텀중앙로 79
ACCOUNT = "356-0912-4471-83"

LEAD = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
VOWEL = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
TAIL = ["", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ",
        "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"]


def jamo(s: str) -> str:
    """``s`` spelt in compatibility jamo (윤 -> ㅇㅠㄴ)."""
    out = []
    for ch in s:
        o = ord(ch) - 0xAC00
        out.append(LEAD[o // 588] + VOWEL[(o % 588) // 28] + TAIL[o % 28] if 0 <= o < 11172 else ch)
    return "".join(out)


def tr(s: str, digits: str) -> str:
    return "".join(digits[int(c)] if c.isdigit() else c for c in s)


HANJA = "零一二三四五六七八九"
SUPER = "⁰¹²³⁴⁵⁶⁷⁸⁹"
SUB = "₀₁₂₃₄₅₆₇₈₉"


def keycap(s: str, fe0f: bool = True) -> str:
    return "".join(c + ("\ufe0f" if fe0f else "") + "\u20e3" if c.isdigit() else c for c in s)


# ------------------------------------------------------------------------------ a reader of the output
def _compose(t: str) -> str:
    out, i = [], 0
    while i < len(t):
        c = t[i]
        if c in LEAD and i + 1 < len(t) and t[i + 1] in VOWEL:
            j, tail = i + 2, 0
            if j < len(t) and t[j] in TAIL[1:] and not (j + 1 < len(t) and t[j + 1] in VOWEL):
                tail, j = TAIL.index(t[j]), j + 1
            out.append(chr(0xAC00 + (LEAD.index(c) * 21 + VOWEL.index(t[i + 1])) * 28 + tail))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def shown(text: str) -> str:
    """What a reader of ``text`` reads, glued: tags stripped, override runs reversed, jamo composed, Hanja,
    super/subscript and keycap digits read as digits, table rules, spaces and separators dropped."""
    t = re.sub(r"<[^>]*>", "", text)
    t = re.sub("\u202e([^\u202c\n]*)\u202c?", lambda m: m.group(1)[::-1], t)
    t = _compose(re.sub(r"[\s\u2500-\u257f|+\-.,:()\"']", "", t))
    t = unicodedata.normalize("NFKC", t).translate(str.maketrans(HANJA + "〇", "01234567890"))
    return "".join(c for c in t if unicodedata.category(c) not in ("Me", "Mn", "Cf"))


def leaks(text: str) -> list[str]:
    """The planted values that survive in ``text`` by the leak rule."""
    t = shown(text)
    found = []
    for name in (NAME, NAME2):
        if any(name[i:i + 2] in t for i in range(len(name) - 1)):
            found.append(name)
    runs = re.findall(r"\d{4,}", t)
    for value in (PHONE, RRN, PASSPORT, ACCOUNT):
        digits = re.sub(r"\D", "", value)
        if any(r in digits for r in runs):
            found.append(value)
    local = EMAIL.split("@")[0].replace(".", "")
    if any(local[i:i + 4] in t.lower() for i in range(len(local) - 3)):
        found.append(EMAIL)
    if any(ADDR_STREET[i:i + 3] in t for i in range(len(ADDR_STREET) - 2) if not ADDR_STREET[i:i + 3].isdigit()):
        found.append("ADDRESS")
    return found


# ---------------------------------------------------------------------------------------- the files
FILES = {
    "jamo_hanja_scripts.txt": (
        "상담 기록입니다.\n"
        f"고객: {jamo(NAME)} 님\n"
        f"보호자: {' '.join(jamo(NAME2))}\n"                                  # ㅂ ㅐ ㄱ ㄷ ㅗ ㅎ ㅕ ㄴ
        f"휴대폰 {tr('010 4172 8835', HANJA)}\n"
        f"주민등록번호 {tr(RRN, '〇一二三四五六七八九')}\n"
        f"여권번호 M{tr(PASSPORT[1:], SUB)}\n"
        f"비상연락 {tr(PHONE, SUPER).replace('-', '⁻')}\n"),
    "markup_cells.csv": (
        "순번,성명,연락처,이메일,주소\r\n"
        '1,"<b>백</b><i>도</i><b>현</b>","'
        + "".join(f"<span style='color:red'>{c}</span>" for c in PHONE)
        + '","<span>chaewon</span>.<span>yoon</span><wbr>@example<wbr>.org",'
          '"<u>부산광역시</u> 해운대구 <u>센텀</u><u>중앙로</u> <b>79</b>"\r\n'
        + '2,"<bdo dir=""rtl"">' + PHONE[::-1] + '</bdo>",,,\r\n'),
    "ascii_table.txt": (
        "회원 카드\n"
        "+--------+--------------------------+\n"
        "| 이  름 | 윤                       |\n"
        "|        | 채                       |\n"
        "|        | 원                       |\n"
        "+--------+--------------------------+\n"
        f"| 계  좌 | {keycap(ACCOUNT, fe0f=False)} |\n"
        "+--------+--------------------------+\n"
        f"| 메  일 | \u202e{EMAIL[::-1]}\u202c |\n"
        "+--------+--------------------------+\n"
        "| 주  소 | 부산광역시 해운대구      |\n"
        "|        | 센텀중앙로 79            |\n"
        "+--------+--------------------------+\n"
        f"전화: \u2067{PHONE.replace('-', ' ')}\u2069\n"),
    "box_table.txt": (
        "신청서\n\n"
        "╔══════╦════════════════════╗\n"
        "║ 성명 ║ 백                 ║\n"
        "║      ║ 도                 ║\n"
        "║      ║ 현                 ║\n"
        "╠══════╬════════════════════╣\n"
        f"║ 전화 ║ {keycap(PHONE)} ║\n"
        "╠══════╬════════════════════╣\n"
        "║ 주소 ║ 부산광역시 해운대구 센텀 ║\n"
        "║      ║ 중앙로 79          ║\n"
        "╚══════╩════════════════════╝\n"),
    # controls: no personal data at all
    "control_prose.txt": (
        "一般 행정 업무와 三國史記 연구를 검토했다.\n"
        "연구 결과¹²³는 면적 35m² 당 CO₂ 배출을 줄였다⁴.\n"
        "ㅋㅋㅋ ㅎㅎ ㅠㅠ 알겠음\n"
        "<b>공지</b> 회의는 <i>화요일</i> 오후 3시입니다.\n"),
    "control_table.txt": (
        "┌──────────┬──────────────────────┐\n"
        "│ 항  목   │ 내  용               │\n"
        "├──────────┼──────────────────────┤\n"
        "│ 시설     │ 본관 3층 회의실 보수 │\n"
        "│          │ 및 냉난방기 교체     │\n"
        "├──────────┼──────────────────────┤\n"
        "│ 일정     │ 하반기 집행 예정     │\n"
        "└──────────┴──────────────────────┘\n"),
}


@pytest.fixture(scope="module")
def redacted(tmp_path_factory):
    """Every file of FILES redacted by ``veil-redact redact`` (embedded default detector): name -> output text."""
    root = tmp_path_factory.mktemp("views4")
    src, out = root / "in", root / "out"
    src.mkdir()
    for name, text in FILES.items():
        (src / name).write_bytes(text.encode("utf-8"))
    rc = cli.main(["redact", str(src), "--out", str(out), "--quiet", "--threads", "1"])
    assert rc == 0
    return {name: (out / name).read_bytes().decode("utf-8") for name in FILES}


def test_the_reader_sees_every_planted_value_in_the_inputs():
    # the oracle below must not be blind: every value is readable in the unredacted files
    assert sorted(leaks(FILES["jamo_hanja_scripts.txt"])) == sorted([NAME, NAME2, PHONE, RRN, PASSPORT])
    assert sorted(leaks(FILES["markup_cells.csv"])) == sorted([NAME2, PHONE, EMAIL, "ADDRESS"])
    assert sorted(leaks(FILES["ascii_table.txt"])) == sorted([NAME, ACCOUNT, EMAIL, "ADDRESS", PHONE])
    assert sorted(leaks(FILES["box_table.txt"])) == sorted([NAME2, PHONE, "ADDRESS"])


@pytest.mark.parametrize("name", ["jamo_hanja_scripts.txt", "markup_cells.csv", "ascii_table.txt", "box_table.txt"])
def test_nothing_survives_the_export(redacted, name):
    assert leaks(redacted[name]) == [], redacted[name]


def test_csv_markup_output_keeps_its_rows_and_the_bdo_phone_is_masked(redacted):
    out = redacted["markup_cells.csv"]
    assert out.count("\r\n") == 3 and out.startswith("순번,성명,연락처,이메일,주소\r\n")
    row2 = out.split("\r\n")[2]
    assert not re.search(r"\d{4}", row2), row2          # 5388-2714-010 stored, 010-4172-8835 shown


RULES = "|║╔╗╚╝╠╣╦╩╬═+"


@pytest.mark.parametrize("name", ["ascii_table.txt", "box_table.txt"])
def test_table_output_keeps_its_lines_and_rules(redacted, name):
    src, out = FILES[name].split("\n"), redacted[name].split("\n")
    assert len(out) == len(src)
    for a, b in zip(src, out):   # each cell piece is masked on its own line: the rules stay where they were
        assert [c for c in a if c in RULES] == [c for c in b if c in RULES], (a, b)


@pytest.mark.parametrize("name", ["control_prose.txt", "control_table.txt"])
def test_controls_are_published_unchanged(redacted, name):
    assert redacted[name] == FILES[name]


# ------------------------------------------------------------------------------------------ the views
#: half-width Hangul letters (U+FFA1-FFDC) by the compatibility jamo they stand for
HALF = {unicodedata.lookup(unicodedata.name(chr(c))[len("HALFWIDTH "):]): chr(c) for c in range(0xFFA1, 0xFFDD)
        if unicodedata.name(chr(c), "").startswith("HALFWIDTH HANGUL LETTER")}


@pytest.mark.parametrize("written", [jamo(NAME), " ".join(jamo(NAME)), " ".join(jamo(c) for c in NAME),
                                     "".join(HALF[c] for c in jamo(NAME))])
def test_jamo_spellings_compose_and_map_to_every_jamo(written):
    text = f"고객 {written} 님"
    view = detection_view(text)
    assert view.text == f"고객 {NAME} 님"
    assert view.to_original(3, 3 + len(NAME)) == (3, 3 + len(written))


def test_compound_vowels_and_tails_typed_in_two_keys():
    view = detection_view("ㄱㅗㅏㄴ ㄷㅏㄹㄱ ㅇㅜㅣ")           # 관 닭 위: ㅗ+ㅏ, ㄹ+ㄱ, ㅜ+ㅣ
    assert view.text == "관닭위"


def test_keycap_digits_map_to_every_code_point():
    written = keycap(PHONE)
    text = f"연락처 {written} 끝"
    view = detection_view(text, spaced_digits=True)
    assert view.text == f"연락처 {PHONE} 끝"
    assert view.to_original(4, 4 + len(PHONE)) == (4, 4 + len(written))


def test_hanja_and_script_digits_read_in_the_rule_view_only():
    text = f"전화 {tr(PHONE, '〇一二三四五六七八九')} 여권 M{tr(PASSPORT[1:], SUPER)}"
    assert detection_view(text, spaced_digits=True).text == f"전화 {PHONE} 여권 {PASSPORT}"
    assert detection_view(text).text == text          # the model reads the text as written
    spans = RuleDetector().detect(detection_view(text, spaced_digits=True).text)
    assert sorted(s.label for s in spans) == ["PASSPORT", "PHONE"]


def test_bidi_override_shown_order_and_its_controls_are_covered():
    text = f"연락처 \u202e{PHONE[::-1]}\u202c 로"
    view = detection_view(text, spaced_digits=True)
    assert view.text == f"연락처 {PHONE} 로" and not view.monotone and view.reordered
    assert view.to_original(4, 4 + len(PHONE)) == (4, 4 + len(PHONE) + 2)   # RLO ... PDF included
    # brackets mirror, runs of a right-to-left paragraph swap (UAX #9)
    assert bidi_edits("x \u202e(20) 3\u202c")[0][2] == "x 3 (02)"
    assert bidi_edits("\u200f010 4172 8835")[0][2] == "8835 4172 010\u200f"
    assert bidi_edits("a \u202b010-4172-8835\u202c b")[0][2] == "a 010-4172-8835 b"
    assert bidi_edits("이름 \u202e원채윤\u202c 님")[0][2] == "이름 윤채원 님"


def test_rules_read_the_stored_order_of_a_reordered_line_too():
    from veil_desktop.detect.default import CombinedDetector

    class NoModel:
        id, labels = "none", ()

        def detect(self, text):
            return []

    det = CombinedDetector(NoModel(), RuleDetector())
    text = f"\u200f전화 {PHONE.replace('-', ' ')}"     # shown 8835 4172 010 …, stored as the phone
    assert [(text[s.start:s.end], s.label) for s in det.rule_spans(text)] == [(PHONE.replace("-", " "), "PHONE")]


def test_markup_reads_as_a_browser_shows_it():
    text = '1,"<span class=""c"">윤</span><span class=""c"">채</span><span class=""c"">원</span>",x'
    view = detection_view(text)
    assert view.text == '1,"윤채원",x'
    a, b = view.to_original(3, 6)
    assert text[a:b] == '윤</span><span class=""c"">채</span><span class=""c"">원'
    assert detection_view("haram<wbr>.jung<wbr>@example<wbr>.com").text == "haram.jung@example.com"
    assert detection_view("<td>김</td><td>철수</td>").text.split() == ["김", "철수"]   # cells stay apart
    # an attribute that could hold personal data is read, never hidden
    assert "kim@example.com" in detection_view('<a href="mailto:kim@example.com">연락</a>').text
    assert [e[2] for e in markup_edits("<bdo dir=rtl>x</bdo>")] == ["\u202e", "\u202c"]
    assert markup_edits("<홍길동전> 과 <file> 그리고 a<b 비교") == []     # not HTML elements


def test_box_table_row_over_three_lines_maps_back_per_line():
    text = FILES["box_table.txt"]
    view = detection_view(text)
    assert "║ 성명 ║ 백도현" in view.text and "║ 주소 ║ 부산광역시 해운대구 센텀중앙로 79" in view.text
    i = view.text.index("백도현")
    pieces = view.pieces(i, i + 3)
    assert [text[a:b] for a, b in pieces] == ["백", "도", "현"]
    assert len({text.count("\n", 0, a) for a, _ in pieces}) == 3      # three lines


def test_ditto_rows_of_a_markdown_table_stay_rows():
    md = "| 부서 | 이름 |\n|---|---|\n| 총무 | 김철수 |\n|  | 이영희 |\n| 기획 | 박민수 |\n"
    assert box_table_edits(md) == []          # under a header rule only, a filled cell is a row of its own
    vertical = "| 성명 | 윤 |\n|  | 채 |\n|  | 원 |\n"
    assert detection_view(vertical).text == "| 성명 | 윤채원 |\n"


@pytest.mark.parametrize("text", [
    "一般 행정 업무와 三國史記 연구, 第一 조항. 一石二鳥.",
    "연구 결과¹²³는 35m² 당 CO₂ 배출을 줄였다⁴. H₂O",
    "ㅋㅋㅋ ㅎㅎ ㅠㅠ ㅇㅇ",
    "조건 a < b 이고 c > d 일 때",
    "이 세 개의 사과",
])
def test_ordinary_text_keeps_its_view(text):
    assert detection_view(text, spaced_digits=True).text == text


def test_footnote_marks_and_hanja_words_are_no_identifiers():
    from veil_desktop.detect.default import build_default_detector

    text = ("보고서¹²³에 따르면 一般 가구의 면적은 85m²이고 三國 시대 자료²³⁴는 별도다.\n"
            "각주 ¹ ² ³ 참조. 二〇二五年 계획.\n")
    spans = build_default_detector(threads=1).detect(text)
    structured = [s for s in spans if s.label not in ("PERSON", "ORGANIZATION", "ADDRESS")]
    assert structured == [], [(text[s.start:s.end], s.label) for s in structured]


# --------------------------------------------------------------------------------- the second opinion
def test_second_opinion_reads_hidden_text_as_shown():
    rules = RuleDetector().detect
    hidden = [View("docProps/custom.xml", f"연락처 {keycap(PHONE)}", False),
              View("word/settings.xml", f"주민등록번호 {tr(RRN, '〇一二三四五六七八九')}", False),
              View("customXml/item1.xml", f"\u202e{PHONE[::-1]}\u202c", False)]
    blocking, _ = second_opinion(hidden, lambda t: [], rules)
    assert sorted((f.place, f.label) for f in blocking if f.how == "rule") == [
        ("customXml/item1.xml", "PHONE"), ("docProps/custom.xml", "PHONE"), ("word/settings.xml", "RRN")]
    plain = [View("word/settings.xml", "一般 三國 각주¹²³ 85m² 二〇二五年", False)]
    assert second_opinion(plain, lambda t: [], rules) == ([], [])


# ------------------------------------------------------------------------------------------ linear
@pytest.mark.parametrize("unit", ["ㅈㅓ", "ㅈ ", "<b>x</b>", "\u202e1 ", "\u202b" * 70 + "x" * 200, "\u2068a",
                                  "│ a │\n", "| a | b |\n|  | c |\n", "一二 ", "¹²³⁴ ", "1\ufe0f\u20e3"])
def test_hostile_repetition_stays_fast(unit):
    text = unit * (100_000 // len(unit))
    t0 = time.perf_counter()
    view = detection_view(text, spaced_digits=True)
    elapsed = time.perf_counter() - t0
    assert view.text and (not view.changed or len(view.starts) == len(view.text))
    assert elapsed < 8.0, elapsed


# -- red team 5 (fresh batch, 3 December): Suzhou numerals and Braille digits ---------------------------------
def test_suzhou_numerals_and_braille_digits_are_read_as_digits(tmp_path):
    from veil_desktop.detect import normalize

    text = ("신청인 주민등록번호 ⠼⠊⠑⠚⠓⠃⠃⠤⠃⠙⠁⠊⠚⠛⠑ 입니다.\n"
            "연락처: 〇〡〇-〤〥〦〧-〨〩〡〢 로 연락 바랍니다.\n")
    edits = normalize._braille_digit_edits(text) + normalize._hanja_digit_edits(text)
    assert [e[2].strip() for e in edits] == ["950822-2419075", "010-4567-8912"]
    # Braille letters without the number sign, a lone Suzhou numeral: words, not numbers
    assert normalize._braille_digit_edits("점자 ⠁⠃⠉⠙⠑ 안내") == []
    assert normalize._hanja_digit_edits("〡 번 출구") == []


def test_a_name_split_by_escaped_csv_quotes_is_read_whole():
    """RFC 4180 §2.7: ``""`` inside a quoted cell is one quote; ``"백""승""현"`` shows as 백"승"현 (red team 5)."""
    from veil_desktop.detect import normalize

    text = '1;"백""승""현";완료\n그는 "예"라고 했다.'
    for spaced in (False, True):
        view = normalize.detection_view(text, spaced_digits=spaced)
        assert '"백승현"' in view.text and '"예"라고' in view.text
