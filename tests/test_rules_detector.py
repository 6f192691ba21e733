"""RuleDetector as a Detector: switchable families, stream contract, invariants on a realistic document."""
import pytest

from veil_desktop.detect.events import Progress, SpansFound
from veil_desktop.detect.rules import RULE_DETECTOR_LABELS, RuleDetector
from veil_desktop.detect.span import RULE_LABELS

DOC = (
    "[민원 처리 결과 통지서]\n"
    "민원인: 김서윤 (주민등록번호 880412-2145678)\n"
    "연락처: 010-4829-1053 / 이메일: sy.kim@gov.kr\n"
    "주소: 서울특별시 강남구 테헤란로 42길 15-3, 102동 405호 (우편번호 06234)\n"
    "환급 계좌: 신한은행 110-452-987654 (예금주: 김서윤)\n"
    "결제카드: 4512-8801-3342-1097, 사업자등록번호 214-86-12345, 법인등록번호 110111-1234567\n"
    "여권번호 M12345678, 운전면허번호 11-20-123456-12, 차량번호 12가 3456, 접속 IP 192.168.0.114\n"
    "외국인등록번호 951112-5012345\n"
)
EXPECTED = {
    "880412-2145678": "RRN", "010-4829-1053": "PHONE", "sy.kim@gov.kr": "EMAIL",
    "서울특별시 강남구 테헤란로 42길 15-3, 102동 405호": "ADDRESS", "06234": "POSTAL_CODE",
    "110-452-987654": "ACCOUNT", "4512-8801-3342-1097": "CARD", "214-86-12345": "BUSINESS_REG",
    "110111-1234567": "CORP_REG", "M12345678": "PASSPORT", "11-20-123456-12": "DRIVER_LICENSE",
    "12가 3456": "VEHICLE", "192.168.0.114": "IP", "951112-5012345": "FOREIGNER_RN",
}


def test_labels_cover_the_rule_labels_and_address():
    assert set(RULE_DETECTOR_LABELS) == set(RULE_LABELS) | {"ADDRESS"}
    assert RuleDetector().labels == RULE_DETECTOR_LABELS
    assert RuleDetector().id == "veil-rules-1"


def test_realistic_document_every_family_found_exactly():
    spans = RuleDetector().detect(DOC)
    assert {DOC[s.start:s.end]: s.label for s in spans} == EXPECTED
    assert all(s.source == "rule" and 0.0 < s.score <= 1.0 for s in spans)
    assert spans == sorted(spans, key=lambda s: s.start)
    assert all(a.end <= b.start for a, b in zip(spans, spans[1:]))


@pytest.mark.parametrize("label", RULE_DETECTOR_LABELS)
def test_each_family_is_switchable(label):
    without = RuleDetector(set(RULE_DETECTOR_LABELS) - {label})
    got = {DOC[s.start:s.end]: s.label for s in without.detect(DOC)}
    assert label not in got.values()
    assert label not in without.labels
    only = RuleDetector({label})
    assert {DOC[s.start:s.end]: s.label for s in only.detect(DOC)} == {
        t: lab for t, lab in EXPECTED.items() if lab == label}


def test_unknown_label_is_refused():
    with pytest.raises(ValueError, match="unknown rule labels"):
        RuleDetector({"PHONE", "SHOE_SIZE"})


def test_min_score_drops_format_only_matches():
    text = "김서윤(880412-2145679) 님"  # no context word, no valid check digit: format-only (0.85)
    assert [s.label for s in RuleDetector().detect(text)] == ["RRN"]
    assert RuleDetector(min_score=0.9).detect(text) == []


def test_stream_union_equals_detect_and_reports_progress():
    det = RuleDetector()
    events = list(det.stream(DOC))
    spans = [s for e in events if isinstance(e, SpansFound) for s in e.spans]
    assert spans == det.detect(DOC)
    progress = [e for e in events if isinstance(e, Progress)]
    assert progress[0] == Progress(0, 1) and progress[-1] == Progress(1, 1)


def test_stream_honours_cancel():
    events = list(RuleDetector().stream(DOC, cancelled=lambda: True))
    assert not any(isinstance(e, SpansFound) for e in events)


def test_stt_transcript_with_broken_spacing():
    text = ("상담원: 네 고객님 주소 말씀해 주세요. 고객: 서울 시 강남 구 테헤란 로 42길 15-3 이요. "
            "상담원: 연락처는요? 고객: 공일공 아니 010 4829 1053 이에요. 계좌는 신한 은행 110 452 987654 요.")
    got = {text[s.start:s.end]: s.label for s in RuleDetector().detect(text)}
    assert got["서울 시 강남 구 테헤란 로 42길 15-3"] == "ADDRESS"
    assert got["010 4829 1053"] == "PHONE"
    assert got["110 452 987654"] == "ACCOUNT"


def test_empty_and_plain_text():
    assert RuleDetector().detect("") == []
    assert RuleDetector().detect("오늘은 날씨가 좋습니다. 회의는 3시에 합니다.") == []
