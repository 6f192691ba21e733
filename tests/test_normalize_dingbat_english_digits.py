"""Red team 8, 5b: an account written in dingbat digits with U+1F10C (DINGBAT NEGATIVE CIRCLED SANS-SERIF
DIGIT ZERO, outside the circled ranges read before) and a phone read out in English number words were
published. Both are read as digits in the rule view now; masks cover the whole words."""
from __future__ import annotations

import pytest

from veil_desktop.detect.normalize import CIRCLED_DIGITS, _english_digit_edits
from veil_desktop.detect.default import build_default_detector


@pytest.fixture(scope="module")
def rules():
    return build_default_detector(threads=1)       # its rule stage reads the rule view


def _found(det, text):
    return {(s.label, text[s.start:s.end]) for s in det.rule_spans(text)}


def test_dingbat_zero_and_digit_comma_forms_are_digits():
    assert CIRCLED_DIGITS["\U0001F10C"] == "0" and CIRCLED_DIGITS["\U0001F10B"] == "0"
    assert CIRCLED_DIGITS["\U0001F102"] == "1" and CIRCLED_DIGITS["\U0001F10A"] == "9"


def test_an_account_in_dingbat_digits_with_the_new_zero_is_found(rules):
    text = "환급 계좌: ➌🄌➋➊➎➑-➐➐-➌➒🄌➍➊➑"
    labels = {lab for lab, _ in _found(rules, text)}
    assert "ACCOUNT" in labels
    span = [v for lab, v in _found(rules, text) if lab == "ACCOUNT"][0]
    assert span == "➌🄌➋➊➎➑-➐➐-➌➒🄌➍➊➑"


def test_a_phone_read_out_in_english_words_is_found_word_for_word(rules):
    text = "연락처 (영어로 불러 주심): zero one zero dash three eight six one dash two nine four seven\n"
    got = _found(rules, text)
    assert ("PHONE", "zero one zero dash three eight six one dash two nine four seven") in got


def test_double_and_triple_and_capitals():
    text = "Tel: Zero One Zero, double five triple two, three four"
    (a, b, rep, where, ends), = _english_digit_edits(text)
    assert rep == "0105522234" and text[a:b] == "Zero One Zero, double five triple two, three four"
    assert (where[3], ends[4]) == (text.index("double"), text.index(" triple"))   # both 5s: "double five"


@pytest.mark.parametrize("text", [
    "one or two of the three options",
    "I counted one two three four five six",            # six words: no number here
    "someone gave seven apples to nine people",
    "zero-day one-off",
])
def test_english_prose_is_not_a_number(text):
    assert _english_digit_edits(text) == []


@pytest.mark.parametrize("text, name", [
    ("신청인: 탁\u3000지\u3000안\n", "탁\u3000지\u3000안"),     # red team 8 5b: ideographic spaces
    ("성명 김 민 준 (주민번호 별지)", "김 민 준"),
    ("신청인: 탁 지 안 님께", "탁 지 안"),                        # the honorific stays outside
])
def test_a_letter_spaced_name_in_a_name_field_is_found_whole(rules, text, name):
    a = text.index(name)
    covered = {i for s in rules.detect(text) if s.label == "PERSON" for i in range(s.start, s.end)}
    assert all(i in covered for i in range(a, a + len(name)) if not text[i].isspace())   # every syllable


@pytest.mark.parametrize("text", ["이름 김 은 서류를 제출", "성명: 김민준 님"])
def test_no_spaced_reading_of_ordinary_words(text):
    from veil_desktop.detect.rules.refine import _FIELD_NAME_SPACED

    assert not _FIELD_NAME_SPACED.search(text)
