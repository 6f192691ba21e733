"""Issue 27 name rules (rules/names.py): names after / before a job title, in the name column of a table laid
out with spaces, in brackets after an account number, romanised Korean names — each with hard negatives — and
the wiring: ``RuleDetector(entities=True)`` reports them, the plain rule stage does not."""
import pytest

from veil_desktop.detect.rules import RuleDetector
from veil_desktop.detect.rules.context import ContextIndex
from veil_desktop.detect.rules.names import (NAME_FINDERS, ROMAN_SURNAMES, SURNAMES_1, find_account_holder_names,
                                             find_role_names, find_romanised_names, find_table_names)

ENTITIES = RuleDetector(entities=True)


def names(finder, text: str) -> list[str]:
    spans = list(finder(text, ContextIndex(text)))
    assert all(s.label == "PERSON" and s.source == "rule" and 0.85 <= s.score <= 0.9 for s in spans)
    return [text[s.start:s.end] for s in spans]


@pytest.mark.parametrize("text, name", [
    ("전문의 김민수", "김민수"),
    ("원장 이영희 선생님께", "이영희"),
    ("관리소장 박철수", "박철수"),
    ("상담사 최지은입니다", "최지은"),
    ("담당 정우성 주무관", "정우성"),
    ("담당자: 김하은", "김하은"),
    ("담당 정민님께 문의", "정민"),            # two syllables before an honorific
    ("김민수 원장", "김민수"),
    ("박철수 관리소장님께서", "박철수"),
    ("문의: 남궁민수 팀장", "남궁민수"),       # a compound surname
    ("담당 심사역 박소희(010-1234-5678)", "박소희"),  # a rejected "담당 심사역" does not hide "심사역 박소희"
    ("김민수 소장은", "김민수"),
])
def test_role_names(text, name):
    assert names(find_role_names, text) == [name]


@pytest.mark.parametrize("text", [
    "담당 공무원", "원장 선생님", "담당 부서", "담당 구역 안내", "대표 정부",
    "통장 사본 1부", "법인 대표 계좌", "관련 문의는 담당 사무관", "시스템 관리자 계정의 IP",
    "IT 기업의 과장으로", "직위는 대리이며", "원장님 경력도 좋고", "수석 연구원이며",
    "신청인 성함: 김지안", "대한항공 계열사 대표이사", "담당 정민, 연락처",  # two syllables before a comma
    "과장 승진", "교수 임용\n", "회장 선거", "위원장 선출", "변호사 선임", "실장 주재",  # two-syllable words
    "업무담당 정우성",                        # the role glued to a longer word
    "청구원인을 명시한 소장을 접수",            # a verb and the legal complaint (소장)
])
def test_role_name_hard_negatives(text):
    assert names(find_role_names, text) == []


def test_table_rows_under_a_header_with_a_name_column():
    text = "번호  성명  생년월일\n1  김민준  1990-01-01\n2  이서연  1991-02-03\n\n3  박지훈  1992-03-04"
    # the blank line ends the table: the third row is no longer under the header
    assert names(find_table_names, text) == ["김민준", "이서연"]


def test_table_rows_with_tabs_and_pipes():
    assert names(find_table_names, "ID\t이름\t전화\nA01\t박지훈\t010-1234-5678") == ["박지훈"]
    assert names(find_table_names, "| 번호 | 성명 | 소속 |\n| 1 | 최수아 | 총무과 |") == ["최수아"]


@pytest.mark.parametrize("text", [
    "번호  성명  생년월일\n1  총무과  1990-01-01",         # not a name shape (no surname start … 총 is none)
    "번호  성명  생년월일\n1  김민준",                     # a row with another column count
    "번호  품명  수량\n1  김치  3",                        # no name column
    "번호  성명  비고\n1  이상  없음",                      # a common word
])
def test_table_hard_negatives(text):
    assert names(find_table_names, text) == []


@pytest.mark.parametrize("text, name", [
    ("신한은행 123-456-789012 (홍길동)", "홍길동"),
    ("110-452-987654(예금주: 박지훈)", "박지훈"),
])
def test_account_holder_names(text, name):
    assert names(find_account_holder_names, text) == [name]


@pytest.mark.parametrize("text", [
    "110-284-993012 (신한은행)로 입금",
    "123-456-789012 (예금주: 강남구청)",
    "2024-05-12 (금요일)",  # a date and a weekday
])
def test_account_holder_hard_negatives(text):
    assert names(find_account_holder_names, text) == []


@pytest.mark.parametrize("text, name", [
    ("Name: Seo Ji-woo", "Seo Ji-woo"),
    ("LEE JAEHOON (이재훈)", "LEE JAEHOON"),
    ("Dear Hwang Tae-kyung,", "Hwang Tae-kyung"),
    ("Kim Min Jun", "Kim Min Jun"),
    ("signed by Jiwoo Seo today", "Jiwoo Seo"),
    ("PARK SEOYEON", "PARK SEOYEON"),
])
def test_romanised_korean_names(text, name):
    assert names(find_romanised_names, text) == [name]


@pytest.mark.parametrize("text", [
    "Go Home now", "Park Hotel", "PARK Avenue", "Open Kim", "lee jaehoon", "Han River", "Seoul Station",
    "Song Line", "Kim Hotel Seoul", "Go To Bed", "The Kim Group", "Yang Group",
])
def test_romanised_name_hard_negatives(text):
    assert names(find_romanised_names, text) == []


def test_tables_are_typed_here():
    assert "김" in SURNAMES_1 and "lee" in ROMAN_SURNAMES and "namgung" in ROMAN_SURNAMES


def test_rule_detector_reports_names_only_with_entities():
    text = "전문의 김민수, 연락처 010-1234-5678"
    got = [(text[s.start:s.end], s.label) for s in ENTITIES.detect(text)]
    assert ("김민수", "PERSON") in got and ("010-1234-5678", "PHONE") in got
    assert [s.label for s in RuleDetector().detect(text)] == ["PHONE"]
    assert set(NAME_FINDERS) == {"role_names", "table_names", "account_holder_names", "romanised_names",
                                 "split_column_names", "glossed_surname_names"}
