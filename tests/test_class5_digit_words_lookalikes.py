"""Issue 26 class 5, third round: text the detectors did not read.

Sino-Korean digit words (``팔일공삼이오 다시 …``), Cyrillic/Greek letters that look Latin inside an e-mail
address, a name split over a surname column and a given-name column, a surname glossed in its Hanja. The
rule stage reads them through the detection view (``normalize.detection_view(spaced_digits=True)``), its
spans mapped back to the original characters; ordinary prose with the same syllables, Russian and Greek
text, product codes stay as they are. Values below are made up for these tests.
"""
from __future__ import annotations

import pytest

from veil_desktop.detect.normalize import detection_view
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.detect.rules.context import ContextIndex
from veil_desktop.detect.rules.names import find_glossed_surname_names, find_split_column_names

RULES = RuleDetector(entities=True)


def rule_spans(text: str) -> list[tuple[str, str]]:
    """(original substring, label) of what the rule stage finds on the rule view of ``text``."""
    view = detection_view(text, spaced_digits=True)
    out = []
    for s in RULES.detect(view.text):
        a, b = view.to_original(s.start, s.end)
        out.append((text[a:b], s.label))
    return out


def masked(text: str) -> str:
    """``text`` with every rule span replaced by ``[LABEL]`` (original offsets)."""
    view = detection_view(text, spaced_digits=True)
    spans = sorted(view.to_original(s.start, s.end) + (s.label,) for s in RULES.detect(view.text))
    out, pos = [], 0
    for a, b, label in spans:
        out.append(text[pos:a] + f"[{label}]")
        pos = b
    return "".join(out) + text[pos:]


# -- digit words ------------------------------------------------------------------------------------
def test_rrn_in_digit_words_with_dasi_for_the_dash():
    text = "주민번호는 팔일공삼이오 다시 일이삼사오육칠 입니다."
    assert rule_spans(text) == [("팔일공삼이오 다시 일이삼사오육칠", "RRN")]
    assert masked(text) == "주민번호는 [RRN] 입니다."


def test_rrn_first_half_alone_in_digit_words():
    assert rule_spans("주민등록번호 앞자리 칠구공일일오") == [("칠구공일일오", "RRN")]


def test_account_in_digit_words_after_account_word():
    text = "환불 계좌: 국민 일일공 이삼사 오륙칠팔구공"
    assert rule_spans(text) == [("일일공 이삼사 오륙칠팔구공", "ACCOUNT")]


def test_phone_in_digit_words_with_e_as_separator():
    text = "연락처 공일공에 칠칠팔팔에 일구이삼"
    assert masked(text) == "연락처 [PHONE]"


def test_one_group_that_is_also_a_word_still_reads_as_digits():
    assert rule_spans("계좌 일일이 삼사오 육칠팔구공") == [("일일이 삼사오 육칠팔구공", "ACCOUNT")]


def test_digit_words_mixed_with_ascii_digits():
    assert rule_spans("전화번호 010 사오육칠 팔구공일") == [("010 사오육칠 팔구공일", "PHONE")]


def test_digit_word_view_keeps_offsets():
    text = "주민번호 팔일공삼이오 다시 일이삼사오육칠"
    view = detection_view(text, spaced_digits=True)
    assert view.text == "주민번호 810325-1234567"
    a = view.text.index("8")
    assert view.to_original(a, len(view.text)) == (5, len(text))


@pytest.mark.parametrize("text", [
    "일이 삼일 만에 끝났다.",                      # one or two days
    "번호표를 받고 이사 오일 구이 집에 갔다",          # short words after a number word
    "번호를 일일이 확인했다",                      # one by one
    "전화로 사이사이 일이삼 해 주세요",               # glued / too short
    "오늘 메모: 삼오이 공구일칠 사팔이육 일삼",          # digit words, but no number word before them
    "계좌 개설은 이사일 이후 가능",                  # one short group
    "우리 삼삼오오 일일이 사이사이 모였다",            # 우리 is not a bank here; words of digit syllables
    "연락처 목록은 삼삼오오 일일이 구구단 외우듯",        # a number word, then such words
    "일사천리로 진행된 오구오구 프로젝트의 번호 삼",      # ordinary words
])
def test_prose_with_digit_syllables_is_not_read_as_a_number(text):
    view = detection_view(text, spaced_digits=True)
    assert view.text == text
    assert [lab for _, lab in rule_spans(text) if lab in ("RRN", "ACCOUNT", "PHONE")] == []


# -- look-alike letters ------------------------------------------------------------------------------
def test_cyrillic_lookalikes_in_email_local_part_masked_whole():
    text = "문의: рак.jіwоо@example.org 로 보내 주세요"   # р а к і о are Cyrillic
    assert masked(text) == "문의: [EMAIL] 로 보내 주세요"


def test_greek_lookalikes_and_fullwidth_at():
    text = "메일 kοο.minsu＠mail.example.com"   # Greek omicron twice, full-width @
    assert rule_spans(text) == [("kοο.minsu＠mail.example.com", "EMAIL")]


def test_lookalike_view_is_one_to_one():
    text = "id сео@example.net"
    view = detection_view(text, spaced_digits=True)
    assert view.text == "id ceo@example.net" and len(view.text) == len(text)


@pytest.mark.parametrize("text", [
    "Москва — столица России, а Санкт-Петербург — северная столица.",
    "Ελληνικά: ο καιρός είναι καλός σήμερα.",
    "제품 코드 AX-4410-B, SKU 88213 (모델 KR-20)",
    "Привет, Mark! Это тест.",
])
def test_real_cyrillic_greek_and_codes_unchanged(text):
    view = detection_view(text, spaced_digits=True)
    assert view.text == text
    assert [lab for _, lab in rule_spans(text) if lab == "EMAIL"] == []


def test_zero_width_and_math_digits_still_read():
    text = "휴대폰: \U0001d7ce\U0001d7cf\U0001d7ce-\u200b٤٥٦٧-٨\u200d٩٠١"   # math-bold 010, Arabic-Indic digits
    assert masked(text) == "휴대폰: [PHONE]"


# -- split name columns, glossed surnames --------------------------------------------------------------
def _names(finder, text):
    return [text[s.start:s.end] for s in finder(text, ContextIndex(text))]


def test_given_name_column_beside_surname_column():
    text = "번호,성,이름,부서\n1,한,서윤,총무\n2,제갈,다온,인사\n3,,,\n"
    assert _names(find_split_column_names, text) == ["한", "서윤", "제갈", "다온"]


def test_split_name_columns_tsv_given_first_and_english_headers():
    text = "ID\tFirst name\tLast name\n7\tMinho\tChoi\n"
    assert _names(find_split_column_names, text) == ["Choi", "Minho"]
    text2 = "구분;이름;성씨\n가;지아;문\n"
    assert _names(find_split_column_names, text2) == ["문", "지아"]


def test_split_name_columns_need_both_headers_and_name_shapes():
    assert _names(find_split_column_names, "품목,성,이름표\n1,김,가나다\n") == []          # no given-name header
    assert _names(find_split_column_names, "구분,성,이름\n1,사과,배\n2,남,여자아이들\n") == []  # not a surname / too long


def test_split_name_columns_masked_in_a_roster():
    text = "연번,성,이름,메모\n1,오,하람,신규\n"
    assert masked(text) == "연번,성,이름,메모\n1,[PERSON],[PERSON],신규\n"


def test_surname_glossed_in_hanja():
    assert _names(find_glossed_surname_names, "담당: 정(鄭) 하늘 주무관") == ["정(鄭) 하늘"]
    assert _names(find_glossed_surname_names, "신청인 서문(西門)가온") == ["서문(西門)가온"]  # compound, no space
    assert _names(find_glossed_surname_names, "대표 황보(皇甫) 린") == ["황보(皇甫) 린"]


def test_glossed_surname_needs_the_matching_kind_of_hanja():
    assert _names(find_glossed_surname_names, "한국(韓國) 경제") == []   # two Hanja for one syllable
    assert _names(find_glossed_surname_names, "김(水) 하나") == []       # 水 is not a surname


def test_particle_after_ascii_digits_is_not_a_digit_word():
    text = "법인등록번호 110111-1234567이 맞습니다"   # 이 is the subject particle
    assert detection_view(text, spaced_digits=True).text == text


# -- through the shipped default detector (embedded compact model + rules) -----------------------------
@pytest.fixture(scope="module")
def default_detector():
    from veil_desktop.detect.default import build_default_detector

    return build_default_detector(threads=1)


def _mask_all(det, text: str) -> str:
    out, pos = [], 0
    for s in sorted(det.detect(text), key=lambda s: s.start):
        out.append(text[pos:s.start] + "#")
        pos = s.end
    return "".join(out) + text[pos:]


def test_default_detector_masks_the_values_written_these_ways(default_detector):
    text = ("순번,성,이름,연락처\n1,서,하율,010-3141-5926\n\n"
            "주민등록번호: 칠육공팔이일 다시 이칠일팔이팔일\n"
            "환불계좌: 신한 일일공 삼삼사 오오육칠팔구\n"
            "메일: mіnsеο.kаng@example.co.kr\n")                 # і е а Cyrillic, ο Greek
    got = _mask_all(default_detector, text)
    for value in ("하율", "칠육공팔이일", "이칠일팔이팔일", "삼삼사", "오오육칠팔구", "mіnsеο", "example.co.kr"):
        assert value not in got, (value, got)
    assert got.splitlines()[0] == "순번,성,이름,연락처"          # the header stays
    assert "주민등록번호:" in got and "환불계좌:" in got and "메일:" in got
