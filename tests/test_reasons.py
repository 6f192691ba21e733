"""Disclosure reasons (issue 24): 비공개 사유 per item and per label, recorded in every decision, counted in the
report, printed in the output on request, and listed in a redaction log that never holds the value."""
from __future__ import annotations

import csv
import io
import json

import pytest

from veil_desktop.cli import main
from veil_desktop.detect.span import Span
from veil_desktop.documents import open_document
from veil_desktop.review.export import PendingPolicy
from veil_desktop.review.export_job import ExportRequest, export_review
from veil_desktop.review.reasons import (ReasonError, default_reasons, normalize_reason, parse_reason_args,
                                         reason_text)
from veil_desktop.review.session import SessionInfo, document_hash, load_session, take_snapshot, write_atomic
from veil_desktop.review.state import ReviewState, Status

TEXT = "담당자 김민준 주무관, 연락처 010-2345-6789, 거래처 한빛상사 사업자등록번호 123-45-67890\n"


@pytest.mark.parametrize("raw, code", [("6", "6"), ("6호", "6"), ("제 7 호", "7"), (" 1 ", "1"),
                                       ("기타: 내부 검토 중", "other:내부 검토 중"), ("none", None), ("", None)])
def test_reason_codes_are_normalised(raw, code):
    assert normalize_reason(raw) == code


@pytest.mark.parametrize("raw", ["9", "0", "6호호", "기타:", "personal"])
def test_bad_reasons_are_refused_with_a_message(raw):
    with pytest.raises(ReasonError):
        normalize_reason(raw)


def test_defaults_and_printed_forms():
    d = default_reasons()
    assert d["PERSON"] == d["RRN"] == d["PHONE"] == "6" and d["ORGANIZATION"] is None and d["CORP_REG"] is None
    assert parse_reason_args(["organization=7", "PHONE=none"]) == {"ORGANIZATION": "7", "PHONE": None}
    assert reason_text("6", "long") == "[비공개 제9조제1항제6호]" and reason_text("6", "short") == "(6호)"
    assert reason_text("7", "short", "en") == "(item 7)" and reason_text(None) == ""


def _state(text):
    st = ReviewState(text, threshold=0.5)
    for value, label in (("김민준", "PERSON"), ("010-2345-6789", "PHONE"), ("한빛상사", "ORGANIZATION"),
                         ("123-45-67890", "BUSINESS_REG")):
        a = text.index(value)
        st.add_detected([Span(a, a + len(value), label, 0.9)], Status.ACCEPTED)
    return st


def test_item_reason_is_undoable_and_survives_the_session(tmp_path):
    st = _state(TEXT)
    org = next(it for it in st if it.label == "ORGANIZATION")
    st.set_reason([org.id], "7호")
    assert st.item(org.id).reason == "7"
    st.undo()
    assert st.item(org.id).reason is None
    st.redo()
    snap = take_snapshot(st, SessionInfo(document_hash(TEXT), "", "m", 0.5, True))
    write_atomic(snap.path, snap.to_bytes())
    again = ReviewState(TEXT)
    assert load_session(again) is not None
    assert {it.label: it.reason for it in again}["ORGANIZATION"] == "7"


def test_export_records_reasons_prints_them_and_writes_the_log(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    doc = open_document(src)
    st = _state(doc.text)
    org = next(it for it in st if it.label == "ORGANIZATION")
    st.set_reason([org.id], "기타: 협상 진행 중")
    out = tmp_path / "out.txt"
    export_review(doc, st, ExportRequest(out, {}, "tag", PendingPolicy.BLOCK, reasons={"BUSINESS_REG": "7"},
                                         reason_in_output="long", redaction_log=True))
    text = out.read_text("utf-8")
    assert "[인명] [비공개 제9조제1항제6호]" in text and "[사업자등록번호] [비공개 제9조제1항제7호]" in text
    assert "[기관] [비공개: 협상 진행 중]" in text and "김민준" not in text
    report = json.loads((tmp_path / "out.txt.report.json").read_text("utf-8"))
    assert {d["label"]: d["reason"] for d in report["decisions"]} == {
        "PERSON": "6", "PHONE": "6", "ORGANIZATION": "other:협상 진행 중", "BUSINESS_REG": "7"}
    assert report["review"]["reasons"] == {"6": 2, "7": 1, "other:협상 진행 중": 1}
    raw = (tmp_path / "out.txt.redaction-log.csv").read_bytes()
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0][:6] == ["번호", "위치", "시작", "끝", "항목", "비공개 사유"] and len(rows) == 5
    assert [r[5] for r in rows[1:]] == ["6호", "6호", "기타", "7호"]
    for value in ("김민준", "010-2345-6789", "한빛상사", "123-45-67890"):
        assert value not in raw.decode("utf-8-sig")


def test_cli_reason_flags_write_reasons_and_a_log(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "memo.txt").write_text("연락처 010-2345-6789, 주민등록번호 900101-1234568\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["redact", str(src / "memo.txt"), "--out", str(out), "--reason", "PERSON=6", "--reason",
                 "PHONE=6", "--quiet", "--threads", "1"]) == 0
    report = json.loads((out / "memo.txt.report.json").read_text("utf-8"))
    assert {(d["label"], d.get("reason")) for d in report["decisions"] if d["decision"] == "accepted"} == {
        ("PHONE", "6"), ("RRN", "6")}
    log = (out / "memo.txt.redaction-log.csv").read_text("utf-8-sig")
    assert "010-2345-6789" not in log and "900101-1234568" not in log and "1234568" not in log
    assert [r[5] for r in list(csv.reader(io.StringIO(log)))[1:]] == ["6호", "6호"]
    # a rerun over the output folder never takes the log or the report for a document
    assert main(["redact", str(out), "--out", str(tmp_path / "again"), "--quiet", "--threads", "1"]) in (0, 2)
    assert not (tmp_path / "again" / "memo.txt.redaction-log.csv").exists()


def test_cli_refuses_a_bad_reason(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("x\n", encoding="utf-8")
    assert main(["redact", str(tmp_path / "a.txt"), "--out", str(tmp_path / "o"), "--reason", "PERSON=12"]) == 2
    assert "unknown reason" in capsys.readouterr().err


def test_audit_trail_who_decided_what_and_when(tmp_path):
    import time

    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    doc = open_document(src)
    st = ReviewState(doc.text, threshold=0.5, reviewer="검토자 A")
    a = doc.text.index("김민준")
    st.add_detected([Span(a, a + 3, "PERSON", 0.9)])
    assert next(iter(st)).by == "" and next(iter(st)).at == 0.0       # a suggestion: nobody decided yet
    t0 = time.time()
    st.set_status([next(iter(st)).id], Status.ACCEPTED)
    it = next(iter(st))
    assert it.by == "검토자 A" and t0 <= it.at <= time.time()
    st.undo()
    assert next(iter(st)).at == 0.0                                   # undo restores the earlier stamp
    st.redo()
    snap = take_snapshot(st, SessionInfo(document_hash(doc.text), "", "m", 0.5, True))
    write_atomic(snap.path, snap.to_bytes())
    again = ReviewState(doc.text)
    load_session(again)
    assert next(iter(again)).by == "검토자 A"
    export_review(doc, again, ExportRequest(tmp_path / "o.txt", {}, "tag", PendingPolicy.BLOCK,
                                            reviewer="검토자 A", review_file_sha256="ab" * 32))
    report = json.loads((tmp_path / "o.txt.report.json").read_text("utf-8"))
    d = report["decisions"][0]
    assert d["by"] == "검토자 A" and d["at"].startswith(time.strftime("%Y-", time.gmtime()))
    assert report["review"]["reviewer"] == "검토자 A" and report["review"]["review_file_sha256"] == "ab" * 32
