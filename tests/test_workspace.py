"""Workspace core (review/workspace.py): a folder of three real documents (TXT, DOCX, PDF), background
detection into sessions with the real default detector over a tiny real ONNX model, term lists applied,
per-document states, and "export all reviewed" (reviewed exported with the per-file checks, pending listed)."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from tests.fixtures.tiny_model import build_tiny_model
from tests.test_documents_pdf import REPO_FONT, make_pdf
from veil_desktop.detect.default import build_default_detector
from veil_desktop.documents import open_document
from veil_desktop.review.session import load_session, session_path, document_hash, take_snapshot, write_atomic
from veil_desktop.review.session import SessionInfo
from veil_desktop.review.state import ReviewState, Status
from veil_desktop.review.terms import Term, TermList
from veil_desktop.detect.driver import DetectionCancelled
from veil_desktop.review.workspace import (
    SUMMARY_NAME, DocStatus, Workspace, detect_document, export_reviewed,
)

ENTITIES = {"홍길동": "PERSON", "이영희": "PERSON", "안중근": "PERSON"}


@pytest.fixture(scope="module")
def detector(tmp_path_factory):
    folder = build_tiny_model(tmp_path_factory.mktemp("m") / "tiny", entities=ENTITIES, score=0.9)
    return build_default_detector(model_dir=folder, threads=1)


def build_docx_text(path: Path, lines: list[str]) -> Path:
    import docx

    d = docx.Document()
    for line in lines:
        d.add_paragraph(line)
    d.save(str(path))
    return path


def build_folder(root: Path) -> Path:
    folder = root / "inbox"
    (folder / "sub").mkdir(parents=True)
    (folder / "a_memo.txt").write_text("담당자 홍길동 과장, 박서연 주무관\n", encoding="utf-8")
    build_docx_text(folder / "b_letter.docx", ["수신: 이영희 님", "발신: 서울시청 안중근"])
    make_pdf(folder / "sub" / "c_scan.pdf", [["담당 홍길동 연락처 010-2222-3333"]], font=REPO_FONT, meta=False)
    (folder / "notes.xyz").write_text("not a document")
    (folder / ".hidden.txt").write_text("홍길동")
    return folder


def decide_all(path: Path, status: Status) -> None:
    """What a reviewer does in the window: decide every pending item, autosave the session."""
    doc = open_document(path)
    st = ReviewState(doc.text)
    info = load_session(st)
    st.set_status([it.id for it in st if it.status is Status.PENDING], status)
    snap = take_snapshot(st, info)
    write_atomic(snap.path, snap.to_bytes())


def test_folder_queue_detect_and_export_all(tmp_path, detector):
    folder = build_folder(tmp_path)
    ws = Workspace()
    changed: list[int] = []
    ws.add_listener(changed.append)
    new, problems = ws.add([folder])
    assert [str(ws[i].rel) for i in new] == ["a_memo.txt", "b_letter.docx", "sub/c_scan.pdf"]
    assert problems == [] and changed == [-1]
    assert ws.add([folder / "a_memo.txt"])[0] == []          # already listed
    assert ws.add([tmp_path / "nope.txt"])[1] == [f"{tmp_path / 'nope.txt'}: no such file or folder"]

    ws.set_current(1)                                       # the document on screen goes first
    terms = TermList([Term("박서연", "mask", "PERSON"), Term("안중근", "keep")])
    order = []
    while (i := ws.next_to_detect()) is not None:
        order.append(i)
        ws.update(i, DocStatus.DETECTING)
        out = detect_document(ws[i].path, detector, threshold=0.5, terms=terms)
        ws.update(i, out.status, pending=out.pending, message=out.message)
    assert order == [1, 0, 2]
    assert [(e.status, e.pending) for e in ws.entries] == [
        (DocStatus.PENDING, 1), (DocStatus.PENDING, 1), (DocStatus.PENDING, 2)]

    memo = open_document(folder / "a_memo.txt")
    st = ReviewState(memo.text)
    info = load_session(st)
    assert info.detection_complete
    assert sorted((st.value(it), it.source, it.status) for it in st) == [
        ("박서연", "list", Status.ACCEPTED), ("홍길동", "model", Status.PENDING)]
    letter = ReviewState(open_document(folder / "b_letter.docx").text)
    load_session(letter)
    assert [letter.value(it) for it in letter] == ["이영희"]   # 안중근 kept by the allow list

    # detecting again finds the finished session and does not run the detector
    again = detect_document(folder / "a_memo.txt", None)
    assert again.from_session and again.status is DocStatus.PENDING and again.pending == 1

    # the reviewer finishes two documents; the PDF stays pending
    decide_all(folder / "a_memo.txt", Status.ACCEPTED)
    decide_all(folder / "b_letter.docx", Status.ACCEPTED)
    for i in (0, 1):
        out = detect_document(ws[i].path, None)
        ws.update(i, out.status, pending=out.pending)
    assert [e.status for e in ws.entries] == [DocStatus.REVIEWED, DocStatus.REVIEWED, DocStatus.PENDING]
    assert ws.reviewed() == [0, 1] and ws.not_reviewed() == [2]

    out_dir = tmp_path / "out"
    summary = export_reviewed(ws.entries, out_dir)
    assert [r.status for r in summary.rows] == ["exported", "exported", "not_reviewed"]
    assert (out_dir / "a_memo.txt").read_text("utf-8") == "담당자 [인명] 과장, [인명] 주무관\n"
    with zipfile.ZipFile(out_dir / "b_letter.docx") as z:
        body = z.read("word/document.xml").decode("utf-8")
    assert "이영희" not in body and "안중근" in body
    assert not (out_dir / "sub" / "c_scan.pdf").exists()
    data = json.loads((out_dir / SUMMARY_NAME).read_text("utf-8"))
    assert (data["exported"], data["failed"], data["not_exported"]) == (2, 0, 1)
    assert data["documents"][2] == {"source": "c_scan.pdf", "output": None, "status": "not_reviewed",
                                    "message": "2 suggestion(s) are still pending; review them or choose how "
                                               "to treat them", "counts": {}, "leak_check": "",
                                    "pending_below_threshold": 0}
    report = json.loads((out_dir / "a_memo.txt.report.json").read_text("utf-8"))
    assert report["review"]["export_all"] is True and report["review"]["pending"] == 0
    assert report["review"]["accepted"] == 2 and report["review"]["detection"] == "complete"
    assert data["documents"][0]["leak_check"] == "clean" and data["documents"][0]["counts"] == {"PERSON": 2}
    text = (out_dir / SUMMARY_NAME).read_text("utf-8")
    assert "홍길동" not in text and "박서연" not in text

    # a second export does not replace existing outputs silently
    again = export_reviewed(ws.entries, out_dir)
    assert [r.status for r in again.rows] == ["failed", "failed", "not_reviewed"]
    assert "already exists" in again.rows[0].message


def test_unreadable_document_fails_with_message_and_cancel_saves_nothing(tmp_path, detector):
    bad = tmp_path / "broken.docx"
    bad.write_bytes(b"PK\x03\x04 not a zip")
    out = detect_document(bad, detector)
    assert out.status is DocStatus.FAILED and "damaged" in out.message
    good = tmp_path / "memo.txt"
    good.write_text("담당자 홍길동\n", encoding="utf-8")
    with pytest.raises(DetectionCancelled):
        detect_document(good, detector, cancelled=lambda: True)
    assert not session_path(document_hash(open_document(good).text)).exists()


def test_a_listed_value_the_detector_also_finds_is_accepted(tmp_path, detector):
    from veil_desktop.review.workspace import accept_list_hits

    doc = tmp_path / "memo.txt"
    doc.write_text("담당 홍길동 과장, 이영희 대리\n", encoding="utf-8")
    terms = TermList([Term("홍길동", "mask", "PERSON")])
    out = detect_document(doc, detector, terms=terms)
    st = ReviewState(open_document(doc).text)
    load_session(st)
    assert sorted((st.value(it), it.source, it.status) for it in st) == [
        ("이영희", "model", Status.PENDING), ("홍길동", "list", Status.ACCEPTED)]
    assert out.pending == 1
    # a review saved before the list existed: the pending suggestion on the listed value gets accepted
    doc2 = tmp_path / "memo2.txt"
    doc2.write_text("담당 홍길동 과장\n", encoding="utf-8")
    detect_document(doc2, detector)
    st2 = ReviewState(open_document(doc2).text)
    load_session(st2)
    assert [(it.source, it.status) for it in st2] == [("model", Status.PENDING)]
    assert accept_list_hits(st2, terms.mask_spans(st2.text), undoable=True) == 1
    assert [(it.source, it.status) for it in st2] == [("model", Status.ACCEPTED)]
    assert st2.undo_text() == "term list: mask"


def test_export_all_refuses_changed_files_own_folder_and_name_clashes(tmp_path, detector):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    for folder in (a, b):
        (folder / "memo.txt").write_text(f"담당자 홍길동 ({folder.name})\n", encoding="utf-8")
    (a / "other.txt").write_text("담당자 이영희\n", encoding="utf-8")
    ws = Workspace()
    ws.add([a, b])
    assert [str(e.rel) for e in ws.entries] == ["memo.txt", "other.txt", "memo.txt"]
    for i, e in enumerate(ws.entries):
        detect_document(e.path, detector)
        decide_all(e.path, Status.ACCEPTED)
        out = detect_document(e.path, None)
        ws.update(i, out.status, pending=out.pending)
    assert all(e.status is DocStatus.REVIEWED for e in ws.entries)
    # a reviewed file edited afterwards: its review does not fit the new content -> not exported
    (a / "other.txt").write_text("담당자 이영희, 박서연\n", encoding="utf-8")
    summary = export_reviewed(ws.entries, tmp_path / "out")
    assert [(r.source.parent.name, r.source.name, r.status) for r in summary.rows] == [
        ("a", "memo.txt", "exported"), ("a", "other.txt", "not_reviewed"), ("b", "memo.txt", "failed")]
    assert "changed since it was reviewed" in summary.rows[1].message
    assert "same output name" in summary.rows[2].message
    assert (tmp_path / "out" / "memo.txt").read_text("utf-8") == "담당자 [인명] (a)\n"
    # exporting into the documents' own folder never overwrites an original
    before = (a / "memo.txt").read_bytes()
    summary = export_reviewed([ws[0]], a)
    assert summary.rows[0].status == "failed" and "overwrite the original" in summary.rows[0].message
    assert (a / "memo.txt").read_bytes() == before


def test_a_document_with_nothing_found_is_reviewed_and_exported_as_is(tmp_path, detector):
    (tmp_path / "in").mkdir()
    plain = tmp_path / "in" / "plain.txt"
    plain.write_text("회의는 다음 주 화요일에 열립니다.\n", encoding="utf-8")
    ws = Workspace()
    ws.add([plain])
    out = detect_document(plain, detector)
    assert (out.status, out.pending, out.items) == (DocStatus.REVIEWED, 0, 0)
    ws.update(0, out.status)
    summary = export_reviewed(ws.entries, tmp_path / "out")
    assert summary.rows[0].status == "exported" and summary.rows[0].counts == {}
    assert (tmp_path / "out" / "plain.txt").read_bytes() == plain.read_bytes()


def test_export_all_counts_suggestions_left_below_the_threshold(tmp_path, detector):
    doc = tmp_path / "memo.txt"
    doc.write_text("담당자 홍길동 과장\n", encoding="utf-8")
    out = detect_document(doc, detector, threshold=0.95)     # the tiny model scores 0.9: hidden
    # hidden is not decided: the document is pending, not reviewed (issue 22)
    assert (out.status, out.pending, out.items) == (DocStatus.PENDING, 1, 1)
    ws = Workspace()
    ws.add([doc])
    ws.update(0, out.status)
    # not confirmed: refused (the hidden suggestion would stay unmasked)
    refused = export_reviewed(ws.entries, tmp_path / "out")
    assert refused.rows[0].status == "not_reviewed" and "under 0.95 would stay unmasked" in refused.rows[0].message
    assert not (tmp_path / "out" / "memo.txt").exists()
    summary = export_reviewed(ws.entries, tmp_path / "out", allow_below_threshold=True)   # confirmed once
    row = summary.rows[0]
    assert row.status == "exported" and row.below_threshold == 1
    assert (tmp_path / "out" / "memo.txt").read_text("utf-8") == "담당자 홍길동 과장\n"
    report = json.loads((tmp_path / "out" / "memo.txt.report.json").read_text("utf-8"))
    assert report["review"]["pending_below_threshold"] == 1
    data = json.loads((tmp_path / "out" / SUMMARY_NAME).read_text("utf-8"))
    assert data["documents"][0]["pending_below_threshold"] == 1


def test_export_all_writes_reasons_and_the_redaction_log_like_a_single_export(tmp_path, detector):
    doc = tmp_path / "memo.txt"
    doc.write_text("담당자 홍길동 과장, 수신 이영희\n", encoding="utf-8")
    out = detect_document(doc, detector)
    decide_all(doc, Status.ACCEPTED)
    ws = Workspace()
    ws.add([doc])
    ws.update(0, DocStatus.REVIEWED)
    summary = export_reviewed(ws.entries, tmp_path / "out", disclosure={
        "reasons": {"PERSON": "6"}, "reason_in_output": "short", "redaction_log": True, "reviewer": "김검토"})
    assert out.items == 2 and summary.rows[0].status == "exported", summary.rows[0].message
    text = (tmp_path / "out" / "memo.txt").read_text("utf-8")
    assert "홍길동" not in text and "이영희" not in text and text.count("(6호)") == 2
    report = json.loads((tmp_path / "out" / "memo.txt.report.json").read_text("utf-8"))
    assert [d["reason"] for d in report["decisions"]] == ["6", "6"]
    log = (tmp_path / "out" / "memo.txt.redaction-log.csv").read_text("utf-8-sig")
    assert log.count("6호") >= 2 and "홍길동" not in log
    pdf = (tmp_path / "out" / "memo.txt.redaction-log.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and "김검토" in json.dumps(report, ensure_ascii=False)
