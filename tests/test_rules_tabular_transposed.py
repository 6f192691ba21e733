"""Red team 8 5a: a record sheet laid out downwards (rules/tabular.py ``find_labelled_rows``).

Labels in the first column, one record per column, values split over consecutive rows (주민번호 앞/뒤, 연락처
국번/앞/뒤, 성/이름, 주소 시도/시군구/도로명). Every piece must be found with its label at its exact offsets;
ordinary transposed tables (amounts under 합계/수량, dates) and row-wise CSVs must not change.
"""
from __future__ import annotations

import pytest

from veil_desktop.detect.rules import RuleDetector
from veil_desktop.detect.rules.tabular import find_labelled_columns, find_labelled_rows

RECORDS = [  # (성, 이름, 주민 앞, 주민 뒤, 국번, 앞, 뒤, 시도, 시군구, 도로명)
    ("탁", "지안", "970204", "2516834", "010", "3861", "2947", "충청북도", "청주시 상당구", "상당로 155"),
    ("남궁", "민", "880512", "1234567", "02", "778", "2914", "서울", "종로구", "세종대로 209"),
    ("이", "서준", "010101", "3456789", "031", "4821", "7395", "경기도", "수원시 팔달구", "효원로 1"),
]
LABELS = ["성", "이름", "주민등록번호(앞)", "주민등록번호(뒤)", "연락처(국번)", "연락처(앞)", "연락처(뒤)",
          "주소(시도)", "주소(시군구)", "주소(도로명)"]
KINDS = ["PERSON", "PERSON", "RRN", "RRN", "PHONE", "PHONE", "PHONE", "ADDRESS", "ADDRESS", "ADDRESS"]


def sheet(labels: list[str], delim: str = ",", eol: str = "\r\n", bom: bool = True) -> str:
    rows = [["항목"] + [f"신청 {i + 1}" for i in range(len(RECORDS))],
            ["접수번호"] + [f"2025-1204-0{i + 1}" for i in range(len(RECORDS))]]
    rows += [[lab] + [r[k] for r in RECORDS] for k, lab in enumerate(labels)]
    rows.append(["처리 상태", "접수", "반려", "보류"])
    return ("\ufeff" if bom else "") + eol.join(delim.join(r) for r in rows) + eol


def expected() -> list[tuple[str, str]]:
    return sorted((r[k], KINDS[k]) for r in RECORDS for k in range(len(KINDS)))


def found(text: str, spans) -> list[tuple[str, str]]:
    return sorted((text[s.start:s.end], s.label) for s in spans)


@pytest.mark.parametrize("delim,eol", [(",", "\r\n"), ("\t", "\n"), (";", "\n")])
def test_record_sheet_every_piece(delim, eol):
    text = sheet(LABELS, delim, eol)
    spans = find_labelled_rows(text)
    assert found(text, spans) == expected()
    assert len(spans) == 30
    # the joined pieces are read as the whole value: the RRN and phone pieces at the join's score
    assert {s.score for s in spans if s.label in ("RRN", "PHONE")} == {0.95}


def test_english_labels():
    labels = ["Last name", "First name", "RRN (front)", "RRN (back)", "Phone (area code)", "Phone 2", "Phone 3",
              "Address line 1", "Address line 2", "Address line 3"]
    text = sheet(labels, ",", "\n", bom=False)
    assert found(text, find_labelled_rows(text)) == expected()


def test_bare_piece_labels_continue_the_row_above():
    text = "구분,고객\n주민번호,970204\n뒷자리,2516834\n휴대폰,010\n중간,3861\n끝자리,2947\n"
    assert found(text, find_labelled_rows(text)) == sorted(
        [("970204", "RRN"), ("2516834", "RRN"), ("010", "PHONE"), ("3861", "PHONE"), ("2947", "PHONE")])


def test_whole_values_in_rows_and_short_given_name():
    text = "항목,1,2\n성명,김민,Lee\n휴대전화,010-4821-7395,-\n이메일,minjun.kim@example.com,없음\n"
    assert found(text, find_labelled_rows(text)) == sorted(
        [("김민", "PERSON"), ("Lee", "PERSON"), ("010-4821-7395", "PHONE"), ("minjun.kim@example.com", "EMAIL")])


def test_rule_detector_masks_the_attack_file():
    text = sheet(LABELS)
    spans = RuleDetector(entities=True).detect(text)
    covered = [(s.start, s.end) for s in spans]
    for r in RECORDS:
        for v in r:
            at = text.index("," + v + ",") + 1 if ("," + v + ",") in text else text.index("," + v + "\r") + 1
            assert any(a <= at and at + len(v) <= b for a, b in covered), v
    # the label column stays as it was: ``처리 상태`` is a label, not an address
    assert not any(text[s.start:s.end] == "처리 상태" for s in spans)


BUDGET = ("항목,1분기,2분기,3분기,4분기\n"
          "수량,1200,3400,2210,1980\n"
          "합계,4821,7395,3861,2947\n"
          "단가,0100,0200,0300,0400\n"
          "일자,2025-01-02,2025-04-01,2025-07-01,2025-10-01\n"
          "전화 횟수,1234,5678,9012,3456\n"
          "통장 잔액,1234567,2345678,3456789,4567890\n"
          "전화 요금,0104,8217,3950,0102\n"
          "카드 사용액,4563,1789,5521,0932\n")


def test_transposed_budget_table_gives_nothing():
    assert find_labelled_rows(BUDGET) == []
    assert RuleDetector(entities=True).detect(BUDGET) == []


ROWWISE = "이름,나이,전화,주소\n김민준,34,010-4821-7395,서울 종로구 세종대로 209\n이서연,29,02-778-2914,부산 해운대구 센텀로 1\n"


def test_rowwise_csv_unchanged():
    assert find_labelled_rows(ROWWISE) == []
    assert found(ROWWISE, find_labelled_columns(ROWWISE)) == sorted(
        [("김민준", "PERSON"), ("이서연", "PERSON"), ("010-4821-7395", "PHONE"), ("02-778-2914", "PHONE"),
         ("서울 종로구 세종대로 209", "ADDRESS"), ("부산 해운대구 센텀로 1", "ADDRESS")])


def test_rowwise_header_with_one_named_column_is_no_sheet():
    text = "이름,나이,부서\n김민준,34,영업\n이서연,29,개발\n"
    assert find_labelled_rows(text) == []
    assert found(text, find_labelled_columns(text)) == [("김민준", "PERSON"), ("이서연", "PERSON")]


def test_row_number_before_the_label_and_excel_text_mark():
    text = "No,항목,1\n1,성,탁\n2,이름,지안\n3,주민번호(앞),970204\n4,주민번호(뒤),2516834\n"
    assert found(text, find_labelled_rows(text)) == sorted(
        [("탁", "PERSON"), ("지안", "PERSON"), ("970204", "RRN"), ("2516834", "RRN")])
    text = "항목,1\n이름,지안\n전화(앞),'010\n전화(중간),'3861\n전화(끝),'2947\n"
    spans = find_labelled_rows(text)
    assert found(text, spans) == sorted([("지안", "PERSON"), ("'010", "PHONE"), ("'3861", "PHONE"), ("'2947", "PHONE")])
    assert {s.score for s in spans if s.label == "PHONE"} == {0.95}  # joined: 010 + 3861 + 2947
    # a row-wise table numbered in its first column is no record sheet
    assert find_labelled_rows("번호,이름,나이\n1,김민준,34\n2,이서연,29\n") == []
