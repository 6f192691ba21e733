"""Identifiers typed in an odd grouping (red team 5, measured fresh at b35412b: a CSV under ``sep=;`` keeps
``830,719,1628545`` and ``010,3947,2816`` in its cells, published unmasked). Own cases; amounts, dates and
serials stay unmasked."""
from __future__ import annotations

import pytest

from veil_desktop.detect.rules import RuleDetector

RRN = "830719-1628545"          # valid birth date and check digit


def found(text: str) -> list[tuple[str, str]]:
    return [(text[s.start:s.end], s.label) for s in RuleDetector().detect(text)]


@pytest.mark.parametrize("typed", ["830,719,1628545", "830-719-1628545", "830 719 1628545", "8307,191,628545",
                                   "83.07.19.1628545"])
def test_an_rrn_in_any_grouping_is_found(typed):
    assert (typed, "RRN") in found(f"신청인 주민등록번호 {typed} 입니다.")
    assert (typed, "RRN") in found(f"비고: {typed}")                 # its own check digit is enough


def test_a_mobile_number_with_commas_is_found():
    assert ("010,3947,2816", "PHONE") in found("1;백승현;010,3947,2816;완료")
    assert ("011,394,2816", "PHONE") in found("연락처 011,394,2816")


@pytest.mark.parametrize("text", ["총액 1,234,567,890,123원", "예산 12,500,000원과 3,400,000원", "일련번호 123 456 7890123",
                                  "2019.03.15 10:30 회의", "좌표 127,0276,37,4979", "부품 010,394,28 개"])
def test_amounts_dates_and_serials_are_not(text):
    assert [lab for _, lab in found(text) if lab in ("RRN", "FOREIGNER_RN", "PHONE")] == []
