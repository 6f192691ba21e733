"""Issue 26 class 5 (red team 5, file 5c): identifiers dictated as Korean number words, and Korean
addresses written in the Latin alphabet.

Number words (``detect/spoken_digits.py``): native (하나 둘 셋 …) and Sino-Korean (공 일 이 …) words, apart
or glued, the dash said as 다시 / 대시 / 빼기 / 에 / 의 / 하고, are read as digits in the rule view when the
run is long enough (>= 9 digits, >= 6 after a number word) and its digits have an identifier's shape; the
identifier rules then decide, and the span covers the whole word run. Ordinary prose with the same words
(a drill call, dates, page numbers) is left as written.

Romanised addresses (``rules/address_romanised.py``): ``284 Uchi-ro, Buk-gu, Gwangju`` and its kin are
ADDRESS; ``Gangnam Style``, the ``Busan International Film Festival`` and a list of districts are not.
Values below are made up for these tests.
"""
from __future__ import annotations

import pytest

from veil_desktop.detect.normalize import detection_view
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.detect.rules.address_romanised import find_romanised_addresses
from veil_desktop.detect.rules.numbers import frn_check_ok, luhn_ok

RULES = RuleDetector(entities=True)


def rule_spans(text: str) -> list[tuple[str, str]]:
    """(original substring, label) of what the rule stage finds on the rule view of ``text``."""
    view = detection_view(text, spaced_digits=True)
    return [(text[s.start:s.end], s.label) for s in view.spans_to_original(RULES.detect(view.text))]


def masked(text: str) -> str:
    view = detection_view(text, spaced_digits=True)
    out, pos = [], 0
    for s in view.spans_to_original(RULES.detect(view.text)):
        out.append(text[pos:s.start] + f"[{s.label}]")
        pos = s.end
    return "".join(out) + text[pos:]


# -- number words: found -----------------------------------------------------------------------------
def test_foreigner_number_in_native_words_from_voice_guidance():
    text = "외국인등록번호(음성 안내 받아쓰기): 아홉 하나 공 둘 둘 넷 다시 여섯 공 일곱 셋 하나 넷 둘\n"
    assert frn_check_ok("9102246073142")   # the check digit holds: the rule is sure of it
    assert detection_view(text, spaced_digits=True).text == "외국인등록번호(음성 안내 받아쓰기): 910224-6073142\n"
    assert rule_spans(text) == [("아홉 하나 공 둘 둘 넷 다시 여섯 공 일곱 셋 하나 넷 둘", "FOREIGNER_RN")]


def test_phone_letter_spaced_in_native_words_without_a_label():
    text = "네 그럼 공 하나 공 일곱 일곱 여덟 여덟 하나 아홉 둘 셋 으로 다시 걸게요"
    assert masked(text) == "네 그럼 [PHONE] 으로 다시 걸게요"


def test_phone_in_glued_native_groups_with_dasi():
    text = "전화번호 공일공 다시 하나둘셋넷 다시 다섯여섯일곱여덟 맞으시죠?"
    assert rule_spans(text) == [("공일공 다시 하나둘셋넷 다시 다섯여섯일곱여덟", "PHONE")]


def test_seoul_number_in_native_groups_with_e_between_them():
    assert rule_spans("전화 공둘 에 셋넷다섯 에 여섯일곱여덟아홉 로 주세요") == [("공둘 에 셋넷다섯 에 여섯일곱여덟아홉", "PHONE")]


def test_rrn_with_daesi_and_an_ending_after_it():
    text = "주민등록번호는 팔 공 영 일 이 일 대시 이 삼 사 오 육 칠 팔 이에요"
    # 14 digits with the ending's 이; the RRN is the run without that word
    assert masked(text) == "주민등록번호는 [RRN] 이에요"


def test_rrn_glued_with_an_ending_glued_to_it():
    text = "주민등록번호는 팔공영일이일 대시 이삼사오육칠팔이에요"
    assert rule_spans(text) == [("팔공영일이일 대시 이삼사오육칠팔", "RRN")]


def test_rrn_first_half_in_words_after_an_rrn_word():
    assert rule_spans("주민번호 앞자리 칠 구 공 하나 하나 다섯") == [("칠 구 공 하나 하나 다섯", "RRN")]


def test_account_with_ppaegi_after_account_word():
    text = "환불 계좌 일일공 빼기 사오이 빼기 구팔칠육오사 로 보내주세요"
    assert detection_view(text, spaced_digits=True).text == "환불 계좌 110-452-987654 로 보내주세요"
    assert rule_spans(text) == [("일일공 빼기 사오이 빼기 구팔칠육오사", "ACCOUNT")]


def test_card_dictated_digit_by_digit():
    assert luhn_ok("4518123456789012")
    text = "결제하신 건 사 오 하나 팔 일 이 삼 사 오 육 칠 팔 구 공 일 이 로 확인됩니다"
    assert rule_spans(text) == [("사 오 하나 팔 일 이 삼 사 오 육 칠 팔 구 공 일 이", "CARD")]


def test_a_word_before_the_number_is_left_out():
    text = "이 공하나공 하나둘셋넷 다섯여섯일곱여덟로 연락 주세요"   # 이 = "this": 201012345678 is no phone
    assert masked(text) == "이 [PHONE]로 연락 주세요"


def test_two_numbers_said_in_a_row_are_two_spans():
    text = "연락처 공일공 일이삼사 오육칠팔 공일공 구팔칠육 오사삼이 두 개 있어요"
    assert rule_spans(text) == [("공일공 일이삼사 오육칠팔", "PHONE"), ("공일공 구팔칠육 오사삼이", "PHONE")]


def test_in_a_long_run_the_window_that_agrees_with_the_spoken_groups_wins():
    # "공 공 공일공 칠칠팔팔 일구이삼" also reads 000107-7881923 (a birth date and a sex digit): the phone's
    # groups are the ones said
    text = "공 " * 80 + "공일공 칠칠팔팔 일구이삼 이요"
    assert rule_spans(text) == [("공일공 칠칠팔팔 일구이삼", "PHONE")]


def test_view_maps_each_digit_to_its_word():
    text = "연락처 공일공 하나둘셋넷 다섯여섯일곱여덟"
    view = detection_view(text, spaced_digits=True)
    assert view.text == "연락처 010-1234-5678"
    assert view.to_original(4, 5) == (4, 5)                      # 0 <- 공
    assert view.to_original(8, 9) == (8, 10)                     # 1 <- 하나
    assert view.to_original(4, len(view.text)) == (4, len(text))


# -- number words: prose left alone ------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "하나 둘 셋 넷 하나 둘 셋 넷 구령에 맞춰 걸었다.",
    "하나 둘 셋 넷 다섯 여섯 일곱 여덟 아홉 열 세고 출발",          # 123456789: no identifier
    "열 아홉 여덟 일곱 여섯 다섯 넷 셋 둘 하나 공 발사!",            # a countdown
    "교재 일이삼 쪽을 펴세요.",
    "오늘 사 월 이 일 이 사람이 왔다.",
    "일 이 삼 사 오 육 칠 팔 구 층까지 걸어 올라갔다",               # 123456789
    "오 육 칠 팔 구 공 일 이 명이 줄을 섰다",                       # 8 digits, no number word
    "일 이 삼 사 오 육 칠 팔 구 공 일 이 순서로 부른다",               # 12 digits, no shape, no number word
    "송장번호 팔 공 영 일 이 일 이 삼 사 오 육 칠 팔",                 # a waybill number (RRN-shaped)
    "이 일 저 일 사 오 년 이 사람 저 사람 구 공 하나",
    "하나 둘 하나 둘 하나 둘 하나 둘 하나 둘 하나 둘 하나 구령",      # 121212-1212121: a drill call
])
def test_prose_with_number_words_is_left_as_written(text):
    assert detection_view(text, spaced_digits=True).text == text
    assert rule_spans(text) == []


# -- romanised addresses: found ------------------------------------------------------------------------
@pytest.mark.parametrize("text, address", [
    ("Mailing address: 284 Uchi-ro, Buk-gu, Gwangju, Republic of Korea", "284 Uchi-ro, Buk-gu, Gwangju"),
    ("Office: 12, Sejong-daero 209beon-gil, Jung-gu, Seoul", "12, Sejong-daero 209beon-gil, Jung-gu, Seoul"),
    ("Apt 101-1203, 45 Banpo-daero 23-gil, Seocho-gu", "Apt 101-1203, 45 Banpo-daero 23-gil, Seocho-gu"),
    ("123-45 Yeoksam-dong, Gangnam-gu, Seoul", "123-45 Yeoksam-dong, Gangnam-gu, Seoul"),
    ("주소(영문): Seoul, Gangnam-gu, Teheran-ro 152", "Seoul, Gangnam-gu, Teheran-ro 152"),
    ("HOME 101-DONG 1203-HO, 77 JEONGNEUNG-RO 77-GIL, SEONGBUK-GU, SEOUL",
     "101-DONG 1203-HO, 77 JEONGNEUNG-RO 77-GIL, SEONGBUK-GU, SEOUL"),
    ("Address: Gangnam-gu, Seoul", "Gangnam-gu, Seoul"),
])
def test_romanised_address_is_one_span(text, address):
    assert rule_spans(text) == [(address, "ADDRESS")]


def test_district_and_city_with_postal_code():
    assert rule_spans("Haeundae-gu, Busan 48094") == [("Haeundae-gu, Busan", "ADDRESS"), ("48094", "POSTAL_CODE")]


def test_company_letterhead_line_is_an_address():
    text = "ACME Korea Co., Ltd. | 129 Samsung-ro, Yeongtong-gu, Suwon-si, Gyeonggi-do 16677, Korea | Tel"
    assert [s for s in rule_spans(text) if s[1] in ("ADDRESS", "POSTAL_CODE")] == [
        ("129 Samsung-ro, Yeongtong-gu, Suwon-si, Gyeonggi-do", "ADDRESS"), ("16677", "POSTAL_CODE")]


def test_address_over_two_lines_is_cut_per_line():
    text = "Ship to:\n284 Uchi-ro\nBuk-gu, Gwangju 61000\n"
    assert [text[s.start:s.end] for s in find_romanised_addresses(text)] == ["284 Uchi-ro", "Buk-gu, Gwangju"]


# -- romanised addresses: prose left alone -------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Gangnam Style was the first video to reach a billion views.",
    "The Busan International Film Festival opens in October.",
    "We visited Seoul, Busan and Daegu last year.",
    "The company has offices in Gangnam-gu and Seocho-gu.",
    "Gangnam-gu, Seoul is known for its shopping streets.",     # two districts, nothing more specific
    "She practises Taekwon-do in Seoul, Korea, since 2019.",
    "The Seoul Metropolitan City government and Busan Metropolitan City signed 3 agreements.",
    "Top-Gun, Seoul premiere; a to-do list of 12 items.",
])
def test_english_prose_with_korean_place_names_is_no_address(text):
    assert [lab for _, lab in rule_spans(text) if lab in ("ADDRESS", "POSTAL_CODE")] == []


# -- the red-team file through the default detector ---------------------------------------------------------
def test_red_team_5c_text_through_the_default_detector():
    from veil_desktop.detect.default import build_default_detector

    text = ("점자 병기 민원 회신\n"
            "외국인등록번호(음성 안내 받아쓰기): 아홉 하나 공 둘 둘 넷 다시 여섯 공 일곱 셋 하나 넷 둘\n"
            "Mailing address: 284 Uchi-ro, Buk-gu, Gwangju, Republic of Korea\n")
    found = {(text[s.start:s.end], s.label) for s in build_default_detector().detect(text)}
    assert ("아홉 하나 공 둘 둘 넷 다시 여섯 공 일곱 셋 하나 넷 둘", "FOREIGNER_RN") in found
    assert any(label == "ADDRESS" and "284 Uchi-ro, Buk-gu, Gwangju" in value for value, label in found)
