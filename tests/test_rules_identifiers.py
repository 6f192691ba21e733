"""Other identifiers (rules/identifiers.py): URL, insurance, medical, employee/student, court-case, document
numbers and dates of birth — positives with their context words, negatives and veto cases, masking."""
import pytest

from veil_desktop.detect.rules import RULE_DETECTOR_LABELS, RuleDetector
from veil_desktop.detect.rules.identifiers import IDENTIFIER_LABELS
from veil_desktop.labels import LABELS, display_name
from veil_desktop.masking import MaskStyle, mask_text

RULES = RuleDetector()


def found(text: str) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.label) for s in RULES.detect(text)]


def test_every_identifier_label_is_registered_named_in_both_languages_and_switchable():
    for lab in IDENTIFIER_LABELS:
        assert lab in RULE_DETECTOR_LABELS
        assert lab in LABELS
        assert display_name(lab, "ko") != lab and display_name(lab, "en") != lab
    text = "학번: 201710452, 사번: EMP-2024-0012"
    assert found(text) == [("201710452", "STUDENT_ID"), ("EMP-2024-0012", "EMPLOYEE_ID")]
    assert [t.label for t in RuleDetector(set(RULE_DETECTOR_LABELS) - {"STUDENT_ID"}).detect(text)] == ["EMPLOYEE_ID"]


# -- URLs ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, url", [
    ("자세한 내용은 홈페이지(www.seoulclinic.kr)에서 확인", "www.seoulclinic.kr"),
    ("증거 사진은 블로그(https://blog.naver.com/dykim_civil)에 올렸습니다", "https://blog.naver.com/dykim_civil"),
    ("내부망 URL http://gov-welfare.go.kr/secret/case77 내에서", "http://gov-welfare.go.kr/secret/case77"),
    ("www.mois.go.kr/safety-net 게시판을 활용하시기 바랍니다.", "www.mois.go.kr/safety-net"),
    ("약관은 kfbank.co.kr/terms/join 에서 확인.", "kfbank.co.kr/terms/join"),
    ("상세 내역은 https://www.card-service.co.kr/my.", "https://www.card-service.co.kr/my"),
    ("홈페이지 www.seoulclinic.kr로 연락 바랍니다", "www.seoulclinic.kr"),  # particle outside
])
def test_urls(text, url):
    assert found(text) == [(url, "URL")]


@pytest.mark.parametrize("text", [
    "보고서.pdf 와 config.json 파일을 첨부합니다.",
    "버전 1.2.3 배포, 점수 3.5 이상",
    "Node.js 와 ASP.NET 으로 개발",
])
def test_not_urls(text):
    assert found(text) == []


def test_email_host_is_not_a_second_url():
    assert found("문의: info@seoulclinic.kr 또는 www.seoulclinic.kr") == [
        ("info@seoulclinic.kr", "EMAIL"), ("www.seoulclinic.kr", "URL")]


# -- insurance, medical ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("건강보험공단 등록번호 102-33-8192-04로 청구 예정입니다", "102-33-8192-04"),
    ("건강보험 가입자번호 102-94-12345-67으로 접수", "102-94-12345-67"),
    ("의료보험 가입번호는 123-456789-10이며 현재", "123-456789-10"),
    ("건강보험증 번호(MED-2023-99102) 확인 후", "MED-2023-99102"),
    ("건강보험번호: 106-12-34567-89", "106-12-34567-89"),
    ("국민건강보험공단 증서(102-93-18472-01)를 제출합니다", "102-93-18472-01"),
    ("보험증권번호: MED-99283741-02", "MED-99283741-02"),
])
def test_insurance_numbers(text, value):
    assert found(text) == [(value, "HEALTH_INSURANCE")]


@pytest.mark.parametrize("text, value", [
    ("처방전 번호 RX-20231012-0045에 따라 약물 치료", "RX-20231012-0045"),
    ("처방전(ID: RX-20231115-092)을 발행하였습니다", "RX-20231115-092"),
    ("처방전번호: PRE-99201-X7", "PRE-99201-X7"),
    ("환자번호: P-20240815-99", "P-20240815-99"),
    ("의무기록번호 2024-004512 열람", "2024-004512"),
    ("차트번호는 C12345입니다", "C12345"),
    ("처방전 식별번호 PRES-99201-X8을 통해", "PRES-99201-X8"),
])
def test_medical_numbers(text, value):
    assert found(text) == [(value, "MEDICAL_ID")]


@pytest.mark.parametrize("text", [
    "처방전 발행일 2024-05-12, 3일분",   # a date after the keyword is not the number
    "처방전 2매를 받았습니다",            # a count
    "건강보험 적용 시 본인부담 3,000원",   # an amount
    "건강보험료 123,450원 납부",          # 보험료 is not a number word
    "진료 시간 09:00~18:00",
])
def test_medical_and_insurance_negatives(text):
    assert found(text) == []


# -- employee, student -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value, label", [
    ("사번: NX-20190412", "NX-20190412", "EMPLOYEE_ID"),
    ("김도윤 과장 (사번: 2018-0421)", "2018-0421", "EMPLOYEE_ID"),
    ("사원번호: TECH-20180512 / 입사일", "TECH-20180512", "EMPLOYEE_ID"),
    ("직원 번호 A102938", "A102938", "EMPLOYEE_ID"),
    ("학번: 201710452", "201710452", "STUDENT_ID"),
    ("학번 201612045의 김도윤 학생", "201612045", "STUDENT_ID"),
    ("수험번호 12345678 응시자", "12345678", "STUDENT_ID"),
    ("사번 1234 김민수", "1234", "EMPLOYEE_ID"),
])
def test_employee_and_student_ids(text, value, label):
    assert found(text) == [(value, label)]


@pytest.mark.parametrize("text", [
    "사번 없이 출입 가능",       # no value
    "학번 17학번 선배",          # 2 digits
    "사원 120명 규모의 회사",     # 사원 alone is not a number word
])
def test_employee_student_negatives(text):
    assert found(text) == []


# -- court-case numbers --------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["2024가합12345", "2023고단1234", "2024구합567", "2022노3456", "2021도12345",
                                  "2024나20123", "2023다201234", "2024드단5678", "2024타경1234", "2024형제12345"])
def test_court_case_numbers_without_context(case):
    assert found(f"관련 {case} 기록을 검토") == [(case, "CASE_NUMBER")]


def test_court_case_two_digit_year_needs_a_case_word():
    # "98다1234" has a vehicle plate's shape: a plate without a case word, a case after one
    assert found("차량 98다1234 주차") == [("98다1234", "VEHICLE")]
    assert found("대법원 98다1234 판결") == [("98다1234", "CASE_NUMBER")]
    assert found("사건번호 2024가합12345호") == [("2024가합12345", "CASE_NUMBER")]


@pytest.mark.parametrize("text", ["2024년 3월 5일", "12가 3456", "2024나 이제나", "오후 2시 30분", "2024다3개"])
def test_court_case_negatives(text):
    assert [lab for _, lab in found(text)] in ([], ["VEHICLE"])
    assert "CASE_NUMBER" not in [lab for _, lab in found(text)]


# -- petition / receipt / document numbers ---------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("접수번호: 2024-ACC-9102\n사고일시", "2024-ACC-9102"),
    ("민원번호 2024-000123 처리", "2024-000123"),
    ("문서번호: 행정안전부-1234", "행정안전부-1234"),
    ("문서번호 제2024-123호", "2024-123"),
    ("발급번호: TAX-2024-0512-9931", "TAX-2024-0512-9931"),
    ("사건접수번호: 2024-경찰-0812. 신고인", "2024-경찰-0812"),
    ("보험사 접수번호는 99201-C-4421입니다", "99201-C-4421"),
    ("청원 번호 20240512-77 답변", "20240512-77"),
])
def test_document_numbers(text, value):
    assert found(text) == [(value, "DOC_NUMBER")]


@pytest.mark.parametrize("text", [
    "접수 2건, 처리 3건",
    "민원 접수: 02-2100-1234",        # a phone after 접수 stays a phone (below)
    "접수 기간 2024.05.01 ~ 2024.05.31",
    "신청 후 30일 이내",
    "사건은 1990년대로 거슬러",        # a decade
    "접수 2024 건수",                  # a bare 4-digit number
])
def test_document_number_negatives(text):
    assert "DOC_NUMBER" not in [lab for _, lab in found(text)]


def test_a_resident_number_in_an_id_slot_is_an_rrn():
    assert found("박서준 대리님(사번: 920115-1058231)께서") == [("920115-1058231", "RRN")]
    assert found("학적 관리 번호는 981124-2093812이며") == [("981124-2093812", "RRN")]
    assert found("사번: 2021-0842") == [("2021-0842", "EMPLOYEE_ID")]
    only_rrn = RuleDetector({"RRN"})
    text = "학적 관리 번호는 981124-2093812이며"
    assert [(text[s.start:s.end], s.label) for s in only_rrn.detect(text)] == [("981124-2093812", "RRN")]


def test_phone_after_receipt_word_stays_a_phone():
    assert found("민원 접수: 02-2100-1234") == [("02-2100-1234", "PHONE")]


# -- dates of birth ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("생년월일: 1982년 05월 14일\n주소", "1982년 05월 14일"),
    ("생년월일 1982.05.14", "1982.05.14"),
    ("생년월일: 82-05-14", "82-05-14"),
    ("DOB 19820514", "19820514"),
    ("제 생년월일인 1982년 5월 14일과 성함", "1982년 5월 14일"),
    ("제 생일인 1992년 5월 14일 맞춰서", "1992년 5월 14일"),
    ("1990년 3월 2일 출생", "1990년 3월 2일"),
    ("환자 김성훈(남, 42세, 1982-05-14생)님", "1982-05-14"),
    ("출생일: 2001. 1. 9.", "2001. 1. 9"),
    ("대표님 생신이 1982년 11월 15일이라", "1982년 11월 15일"),
])
def test_birth_dates(text, value):
    assert found(text) == [(value, "BIRTH_DATE")]


@pytest.mark.parametrize("text", [
    "본 계약의 효력 발생일은 2024년 5월 1일부터",  # 발생일 contains 생일
    "사고발생일: 2024년 5월 14일",
    "회의 일자 2024.05.14, 2024-05-15 마감",
    "생년월일: 1982년 13월 40일",                 # not a date
    "2024.05.14 생산 제품",                        # 생산, not 생
])
def test_dates_that_are_not_birth_dates(text):
    assert found(text) == []


def test_rrn_after_birth_word_stays_an_rrn():
    assert found("생년월일: 880412-1234567") == [("880412-1234567", "RRN")]


# -- public service numbers are not personal -------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "고객센터 1588-1234로 문의", "민원 상담 110, 정부 민원안내 콜센터", "화재 신고 119, 범죄 신고 112",
    "관광통역안내 1330", "다산콜센터 120", "접수처: 1544-7000",
])
def test_public_service_numbers_are_kept(text):
    assert found(text) == []


# -- masking ---------------------------------------------------------------------------------------------

def test_every_identifier_masks_in_every_style():
    text = ("홈페이지 www.seoulclinic.kr, 건강보험번호 106-12-34567-89, 처방전 번호 RX-20231012-0045, "
            "사번 EMP-2024-0012, 학번 201710452, 2024가합12345, 접수번호 2024-000123, 생년월일 1982년 05월 14일")
    spans = RULES.detect(text)
    assert sorted({s.label for s in spans}) == sorted(IDENTIFIER_LABELS)
    for style in MaskStyle:
        out = mask_text(text, spans, default=style)
        for s in spans:
            assert text[s.start:s.end] not in out, (style, s.label)
    tagged = mask_text(text, spans, default=MaskStyle.TAG)
    assert "[URL]" in tagged and "[CASE_NUMBER]" in tagged and "[BIRTH_DATE]" in tagged
    partial = mask_text(text, spans, default=MaskStyle.PARTIAL)
    assert "생년월일 ***** *** ***" in partial and "RX-" not in partial and "2024" not in partial


# -- hiding places and bombs ---------------------------------------------------------------------------

def test_full_width_identifiers_are_found_at_their_original_offsets():
    text = "사건번호 ２０２４가합１２３４５, 처방전 번호 ＲＸ－２０２３１０１２－００４５, 홈페이지 ｗｗｗ．ｓｅｏｕｌｃｌｉｎｉｃ．ｋｒ"
    assert found(text) == [("２０２４가합１２３４５", "CASE_NUMBER"), ("ＲＸ－２０２３１０１２－００４５", "MEDICAL_ID"),
                           ("ｗｗｗ．ｓｅｏｕｌｃｌｉｎｉｃ．ｋｒ", "URL")]


def test_url_without_a_dot():
    assert found("사내망 http://intranet/hr/records 참고") == [("http://intranet/hr/records", "URL")]


@pytest.mark.parametrize("text, n", [
    ("a." * 100_000, 0), ("1-" * 100_000, 0), ("사건번호 " * 20_000, 0), ("생년월일 " * 20_000, 0),
    ("RX-" * 60_000, 0), ("가-" * 100_000, 0), ("a.co.kr/" * 20_000, 0), ("www." * 50_000, 1),
])
def test_pathological_inputs_end_with_the_expected_spans(text, n):
    # shapes that would make a backtracking pattern explode: they must simply come back (no timing asserted)
    assert len(RULES.detect(text)) == n


def test_literal_alternation_matches_like_a_longest_first_alternation():
    import re

    from veil_desktop.detect.trie import literal_alternation

    words = ["사건", "사건번호", "사번", "사원번호", "처방전", "처방전 번호", "ID", "IDX", "가"]
    trie = re.compile(literal_alternation(words))
    flat = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))
    text = "사건번호 사건 사번 사원번 처방전 번호 처방전번호 IDX ID 가나 사원번호"
    assert [m.span() for m in trie.finditer(text)] == [m.span() for m in flat.finditer(text)]
