"""The window's workspace (ui/review_tools.py + ui/workspace_panel.py) with the production detection path
over a tiny real model: a folder of TXT/DOCX/HWPX/PDF queued and detected in the background one at a time
(the document on screen first), next/previous document from the keyboard with each review kept in its
session, term lists applied in the window (source ``list``), and "Export all reviewed" with one summary."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.fixtures.tiny_model import build_tiny_model
from tests.test_documents_pdf import REPO_FONT, make_pdf
from tests.test_workspace import build_docx_text
from tests.ui_helpers import open_and_detect, show_window
from veil_desktop.review.state import Status
from veil_desktop.review.terms import Term, TermList, save_user_terms
from veil_desktop.review.workspace import SUMMARY_NAME, DocStatus

ENTITIES = {"홍길동": "PERSON", "이영희": "PERSON", "안중근": "PERSON"}


@pytest.fixture()
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("m") / "tiny", entities=ENTITIES, score=0.9)


def build_folder(root: Path) -> Path:
    from tests.test_documents_hwpx import build_hwpx

    folder = root / "inbox"
    folder.mkdir()
    (folder / "1_memo.txt").write_text("담당자 홍길동 과장\n", encoding="utf-8")
    build_docx_text(folder / "2_letter.docx", ["수신: 이영희 님", "발신: 안중근"])
    build_hwpx(folder / "3_form.hwpx")
    make_pdf(folder / "4_scan.pdf", [["담당 홍길동 연락처 010-2222-3333"]], font=REPO_FONT, meta=False)
    return folder


def close_boxes(qtbot, w):
    for box in w.findChildren(QMessageBox):
        box.done(0)
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=2000)


def settled(w):
    return all(e.status not in (DocStatus.QUEUED, DocStatus.DETECTING) for e in w.tools.ws.entries) \
        and not w.tools.background_running and not w.detection.running


def accept_all_pending(w):
    ids = [it.id for it in w.state if it.status is Status.PENDING]
    if ids:
        w.state.set_status(ids, Status.ACCEPTED)


def press(qtbot, w, k, mod=Qt.KeyboardModifier.NoModifier):
    qtbot.keyClick(w.view, k, mod)


def review_from_keyboard(qtbot, w, keys):
    """J to the first pending suggestion, then one key (A/R) per suggestion, as a reviewer does."""
    press(qtbot, w, Qt.Key.Key_J)
    for k in keys:
        assert w.current_item() is not None and w.current_item().status is Status.PENDING
        press(qtbot, w, k)


def test_folder_of_mixed_documents_reviewed_from_the_keyboard_and_exported(qtbot, model, tmp_path):
    folder = build_folder(tmp_path)
    w = show_window(qtbot, model)
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=2000)
    tools = w.tools
    started = []
    tools.backgroundStarted.connect(started.append)
    with qtbot.waitSignal(w.detectionFinished, timeout=30000):
        tools.open_paths([folder])
    assert tools.dock.isVisible()
    assert w.path == folder / "1_memo.txt" and tools.ws.current == 0
    qtbot.waitUntil(lambda: settled(w), timeout=90000)
    # the document on screen was detected by the window; the others in the background, in list order
    assert started == [1, 2, 3]
    ws = tools.ws
    assert [e.status for e in ws.entries] == [DocStatus.PENDING] * 4
    assert [e.pending for e in ws.entries][:2] == [1, 2] and ws[2].pending > 2 and ws[3].pending == 2
    assert tools.panel.row_texts()[:2] == ["1_memo.txt  —  미검토 1", "2_letter.docx  —  미검토 2"]

    # document 1: J, A
    review_from_keyboard(qtbot, w, [Qt.Key.Key_A])
    qtbot.waitUntil(lambda: ws[0].status is DocStatus.REVIEWED, timeout=5000)
    # Ctrl+PgDown: document 2, restored from its background session (no detection runs)
    with qtbot.waitSignal(w.documentLoaded, timeout=10000):
        press(qtbot, w, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert w.path == folder / "2_letter.docx" and ws.current == 1 and not w.detection.running
    assert [w.state.value(it) for it in w.state.in_text_order()] == ["이영희", "안중근"]
    review_from_keyboard(qtbot, w, [Qt.Key.Key_A, Qt.Key.Key_R])     # accept 이영희, reject 안중근
    qtbot.waitUntil(lambda: ws[1].status is DocStatus.REVIEWED, timeout=5000)
    # document 3 (HWPX): accept everything from the keyboard
    with qtbot.waitSignal(w.documentLoaded, timeout=10000):
        press(qtbot, w, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert w.path == folder / "3_form.hwpx"
    review_from_keyboard(qtbot, w, [Qt.Key.Key_A] * ws[2].pending)
    qtbot.waitUntil(lambda: ws[2].status is DocStatus.REVIEWED, timeout=5000)

    # back: document 2's decisions are still there (its session)
    with qtbot.waitSignal(w.documentLoaded, timeout=10000):
        press(qtbot, w, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert w.path == folder / "2_letter.docx"
    assert [it.status for it in w.state.in_text_order()] == [Status.ACCEPTED, Status.REJECTED]

    # export all reviewed: three written with their reports, the PDF (still pending) listed, not exported
    out = tmp_path / "out"
    with qtbot.waitSignal(tools.exportAllFinished, timeout=30000) as sig:
        tools.export_all_to(out)
    summary = sig.args[0]
    assert [(r.source.name, r.status) for r in summary.rows] == [
        ("1_memo.txt", "exported"), ("2_letter.docx", "exported"), ("3_form.hwpx", "exported"),
        ("4_scan.pdf", "not_reviewed")]
    assert (out / "1_memo.txt").read_text("utf-8") == "담당자 [인명] 과장\n"
    for name in ("1_memo.txt", "2_letter.docx", "3_form.hwpx"):
        assert (out / (name + ".report.json")).is_file()
    with zipfile.ZipFile(out / "2_letter.docx") as z:
        body = z.read("word/document.xml").decode("utf-8")
    assert "이영희" not in body and "안중근" in body
    with zipfile.ZipFile(out / "3_form.hwpx") as z:
        blob = "".join(z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.endswith((".xml", ".txt")))
    assert "이영희" not in blob and "홍길동" not in blob and "1234-5678" not in blob
    assert not (out / "4_scan.pdf").exists()
    data = json.loads((out / SUMMARY_NAME).read_text("utf-8"))
    assert (data["exported"], data["failed"], data["not_exported"]) == (3, 0, 1)
    assert data["documents"][3]["message"] .startswith("2 suggestion(s) are still pending")
    assert [e.status for e in ws.entries] == [DocStatus.EXPORTED] * 3 + [DocStatus.PENDING]
    assert tools.panel.row_texts()[0] == "1_memo.txt  —  내보냄"
    close_boxes(qtbot, w)


def test_terms_in_the_window(qtbot, model, tmp_path):
    save_user_terms(TermList([Term("박서연", "mask", "PERSON"), Term("안중근", "keep")]))
    doc = tmp_path / "memo.txt"
    doc.write_text("담당 홍길동, 박 서 연 주무관, 안중근 의사\n", encoding="utf-8")
    w = show_window(qtbot, model)
    assert open_and_detect(qtbot, w, doc) is False
    items = sorted((w.state.value(it), it.source, it.status.value) for it in w.state)
    # keep term: never suggested; mask term (spacing variant too): accepted item with source "list"
    assert items == [("박 서 연", "list", "accepted"), ("홍길동", "model", "pending")]
    # the table shows the source in the UI language
    w.tools.set_terms(TermList([Term("홍길동", "keep"), Term("주무관", "mask", "OTHER")]))
    items = sorted((w.state.value(it), it.source, it.status.value) for it in w.state)
    assert items == [("박 서 연", "list", "accepted"), ("주무관", "list", "accepted"), ("홍길동", "model", "rejected")]
    assert w.state.undo_text() == "term list: keep"


def test_terms_dialog_import_errors_edit_and_export(qtbot, tmp_path):
    from veil_desktop.ui.terms_dialog import TermsDialog

    dlg = TermsDialog(None, TermList([Term("서울시청", "keep")]), lang="en")
    qtbot.addWidget(dlg)
    assert dlg.table.rowCount() == 1
    bad = tmp_path / "bad.csv"
    bad.write_text("term,action,label\n박서연,mask,\n가람,erase,OTHER\n", encoding="utf-8")
    assert dlg.import_file(bad) is False
    assert "line 2: a mask term needs a label" in dlg.last_error and "line 3: action must be" in dlg.last_error
    assert dlg.table.rowCount() == 1                        # a bad file changes nothing
    for box in dlg.findChildren(QMessageBox):
        box.done(0)
    good = tmp_path / "good.csv"
    good.write_text("term,action,label\n박서연,mask,PERSON\n서울시청,keep,\n", encoding="utf-8")
    assert dlg.import_file(good) is True and dlg.table.rowCount() == 2
    r = dlg.add_row("프로젝트 가람", "mask", "OTHER")
    assert dlg.table.cellWidget(r, 2).isEnabled()
    dlg.table.cellWidget(r, 1).setCurrentIndex(1)           # keep: no label
    assert not dlg.table.cellWidget(r, 2).isEnabled()
    out = tmp_path / "out.csv"
    assert dlg.export_file(out)
    assert out.read_text("utf-8") == "term,action,label\n박서연,mask,PERSON\n서울시청,keep,\n프로젝트 가람,keep,\n"
    dlg.save_btn.click()
    assert dlg.result_terms() == TermList.load(out)


def test_opening_a_document_cancels_its_background_detection(qtbot, model, tmp_path):
    from tests.ui_helpers import HoldingDetector, production_detector

    folder = tmp_path / "two"
    folder.mkdir()
    (folder / "a.txt").write_text("담당자 홍길동\n", encoding="utf-8")
    held_text = "수신 이영희 님\n"
    (folder / "b.txt").write_text(held_text, encoding="utf-8")
    det = HoldingDetector(production_detector(model), hold_text=held_text)
    w = show_window(qtbot, det)
    tools = w.tools
    with qtbot.waitSignal(tools.backgroundStarted, timeout=30000):
        tools.open_paths([folder])
    assert det.holding.wait(20)                             # b.txt: a batch computed, not delivered
    assert tools.ws[1].status is DocStatus.DETECTING and tools.background_running
    # the reviewer opens b.txt: its background job is cancelled (saves nothing), the window detects it
    with qtbot.waitSignal(w.documentLoaded, timeout=10000):
        tools.goto(1)
    assert not tools.background_running
    det.release.set()
    qtbot.waitUntil(lambda: not w.detection.running and tools.ws[1].status is DocStatus.PENDING, timeout=30000)
    assert [w.state.value(it) for it in w.state] == ["이영희"]
    assert tools.ws[1].pending == 1 and tools.ws[0].status is DocStatus.PENDING


def test_dropping_several_files_opens_a_workspace(qtbot, model, tmp_path):
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDropEvent

    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("담당자 홍길동\n", encoding="utf-8")
    b.write_text("수신 이영희 님\n", encoding="utf-8")
    (tmp_path / "c.xyz").write_text("not a document")
    w = show_window(qtbot, model)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in (a, b, tmp_path / "c.xyz")])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(w.detectionFinished, timeout=30000):
        w.dropEvent(event)
    assert [e.path for e in w.tools.ws.entries] == [a, b] and w.path == a
    assert "c.xyz: unsupported file type .xyz" in w.last_error       # told, not silently dropped
    qtbot.waitUntil(lambda: settled(w), timeout=30000)
    assert [(e.status, e.pending) for e in w.tools.ws.entries] == [(DocStatus.PENDING, 1), (DocStatus.PENDING, 1)]
    close_boxes(qtbot, w)
