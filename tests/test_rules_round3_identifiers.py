"""Issue 27 identifier rules: passports (Korean shapes, 9-digit foreign ones with context), foreigner
registration numbers under English labels, foreign phone numbers, vehicle plates written with a space, RRNs
whose check digit fails (post-October-2020 numbers) decided by format + date + context — each with hard
negatives (order numbers, dates, prices, barcodes, public service numbers)."""
import pytest

from veil_desktop.detect.rules import RuleDetector
from veil_desktop.detect.rules.context import kind_before
from veil_desktop.detect.rules.numbers import rrn_check_ok

RULES = RuleDetector()


def found(text: str) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.label) for s in RULES.detect(text)]


def score_of(text: str, value: str) -> float:
    i = text.index(value)
    hits = [s for s in RULES.detect(text) if (s.start, s.end) == (i, i + len(value))]
    assert len(hits) == 1, found(text)
    return hits[0].score


# -- context: a generic number word names the slot of the keyword before it ---------------------------

@pytest.mark.parametrize("text, kind", [
    ("Passport No.: ", "PASSPORT"),
    ("Alien Registration No. ", "FOREIGNER_RN"),
    ("여권 #", "PASSPORT"),
    ("Order No. ", "NEG"),
    ("No. ", "NEG"),
    ("주문번호 ", "NEG"),
])
def test_generic_number_word_keeps_the_keyword_before_it(text, kind):
    assert kind_before(text, len(text)) == kind


def test_generic_number_word_far_from_the_keyword_still_vetoes():
    text = "여권 사본 제출, 접수 No. "
    assert kind_before(text, len(text)) == "NEG"


# -- passports ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value, score", [
    ("여권번호: M12345678", "M12345678", 0.95),
    ("Passport No.: M12345678", "M12345678", 0.95),
    ("여권 번호 M123A4567 (2022년 발급)", "M123A4567", 0.95),
    ("passport number 123456789", "123456789", 0.93),       # 9-digit foreign passport, with context only
    ("Passport: E12345678", "E12345678", 0.95),
    ("출국 시 M12345678 제시", "M12345678", 0.75),            # Korean shape alone: a review item
])
def test_passport_positives(text, value, score):
    assert (value, "PASSPORT") in found(text)
    assert score_of(text, value) == score


@pytest.mark.parametrize("text", [
    "주문번호 M12345678",
    "Order No. M12345678",
    "order M12345678 배송",
    "Model M12345678",
    "M12345678-01 부품",           # part of a longer code
    "SKU/M12345678",
    "고객번호 123456789",            # nine digits without a passport word
    "여권 발급 수수료 123456789원",   # an amount after a passport word
    "20240512 주문",
])
def test_passport_hard_negatives(text):
    assert not [v for v, label in found(text) if label == "PASSPORT"], found(text)


# -- foreigner registration numbers under English labels ----------------------------------------------

@pytest.mark.parametrize("text", [
    "Alien Registration No.: 900101-5234567",
    "ARC 900101-6234561",
    "Foreigner ID 900101-5234567",
    "Alien Registration Card 9001015234567",
])
def test_foreigner_rn_under_english_labels(text):
    value = text.split()[-1]
    assert (value, "FOREIGNER_RN") in found(text)
    assert score_of(text, value) >= 0.9


def test_arc_inside_a_word_is_no_label():
    assert kind_before("SEARCH ", 7) is None


# -- foreign phone numbers -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("연락처 +81-80-1234-5678", "+81-80-1234-5678"),
    ("Tel +1 (415) 555-0100", "+1 (415) 555-0100"),
    ("+86 138 1234 5678 로 연락", "+86 138 1234 5678"),
    ("London office +44 20 7946 0958.", "+44 20 7946 0958"),
    ("+33 1 42 68 53 00", "+33 1 42 68 53 00"),
    ("+8613812345678", "+8613812345678"),
])
def test_foreign_phone_positives(text, value):
    assert (value, "PHONE") in found(text)


def test_foreign_phone_scores_higher_with_a_phone_word():
    assert score_of("연락처 +81-80-1234-5678", "+81-80-1234-5678") == 0.96
    assert score_of("+81-80-1234-5678", "+81-80-1234-5678") == 0.9


@pytest.mark.parametrize("text", [
    "+1 2 3",                  # arithmetic
    "온도 +12.5도",
    "+1,000원 추가",            # a price
    "점수 +3 (15)",
    "주문번호 +81-80-1234-5678",  # NEG context
    "x+123 456",
])
def test_foreign_phone_hard_negatives(text):
    assert not [v for v, label in found(text) if label == "PHONE"], found(text)


def test_korean_international_numbers_still_found_once():
    assert found("+82-10-1234-5678") == [("+82-10-1234-5678", "PHONE")]


@pytest.mark.parametrize("text", ["문의 1588-1234", "긴급전화 112", "화재 신고 119", "관광안내 1330", "정부민원 110",
                                  "대표번호 1577-1000"])
def test_public_service_numbers_stay_unmasked(text):
    assert not [v for v, label in found(text) if label == "PHONE"], found(text)


# -- vehicle plates written with a space ----------------------------------------------------------------

@pytest.mark.parametrize("text, value, score", [
    ("차량 92차 4470", "92차 4470", 0.95),
    ("92차 4470 차주", "92차 4470", 0.8),
    ("123가 4568", "123가 4568", 0.85),
    ("서울 12가 3456", "서울 12가 3456", 0.85),
    ("차량번호: 12가3456", "12가3456", 0.95),
])
def test_vehicle_plates(text, value, score):
    assert (value, "VEHICLE") in found(text)
    assert score_of(text, value) == score


@pytest.mark.parametrize("text", [
    "제12차 1234",           # "the 12th round"
    "제 12차 1234",
    "12차 2024년도 회의",      # a year
    "12차 1234.",            # a list item
    "3차2024",
    "12가 3456개",            # a count
    "주문번호 12가 3456",
])
def test_vehicle_hard_negatives(text):
    assert not [v for v, label in found(text) if label == "VEHICLE"], found(text)


# -- RRNs without a valid check digit (issued since October 2020) ----------------------------------------

POST_2020 = "021015-3234567"


def test_post_2020_rrn_fails_the_old_checksum():
    assert not rrn_check_ok(POST_2020.replace("-", ""))


@pytest.mark.parametrize("text, value, score", [
    ("주민등록번호 " + POST_2020, POST_2020, 0.93),
    ("주민번호: 0210153234567", "0210153234567", 0.93),        # bare, with context
    ("RRN " + POST_2020, POST_2020, 0.93),
    ("Resident Registration No. " + POST_2020, POST_2020, 0.93),
    ("주민번호: 900101 - 1234567", "900101 - 1234567", 0.93),  # hyphen typed with spaces
    ("신청인 " + POST_2020, POST_2020, 0.85),                 # format + date + gender digit, no context
])
def test_rrn_without_checksum_decided_by_format_date_and_context(text, value, score):
    assert (value, "RRN") in found(text)
    assert score_of(text, value) == score


@pytest.mark.parametrize("text", [
    "바코드 8801234567890",        # a 13-digit barcode
    "0210153234567",              # bare 13 digits without context: a barcode / serial
    "주문번호 021015-3234567",      # NEG context
    "2024 - 1234567",             # not six digits
    "금액 1,234,567원",
    "991315-1234567",             # month 13: no date
])
def test_rrn_hard_negatives(text):
    assert not [v for v, label in found(text) if label in ("RRN", "FOREIGNER_RN")], found(text)
