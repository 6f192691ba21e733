"""Issue 16 in the real window (offscreen, production detection path over a tiny model folder):

- a cancelled / failed / running detection never exports without an explicit partial-export choice, which
  the report records; a lasting banner shows it until detection is run again;
- a second document starts from the safe defaults (BLOCK, the configured default threshold);
- every bulk action shows its hit list first (whole words checked) and applies as one undo step;
- pending suggestions hidden below the threshold block the export until the reviewer confirms them;
- an existing output is replaced only after asking; the result dialog stays until dismissed;
- single-key shortcuts act only in the document or the table; an item's label can be changed.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QThreadPool, Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.ui_helpers import HoldingDetector, open_and_detect, production_detector, sample_text
from veil_desktop.review import Status
from veil_desktop.review.export import PendingPolicy
from veil_desktop.review.summary import DetectionStatus
from veil_desktop.ui.dialogs import ExportDialog
from veil_desktop.ui.export_summary import ExportResultDialog, ExportSummaryDialog
from veil_desktop.ui.hit_list import HitListDialog

SAMPLE = sample_text()


def dismiss_boxes(qtbot, w):
    for box in w.findChildren(QMessageBox):
        box.done(0)
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=2000)


def export(qtbot, w, out, **kw):
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        w.export_to(out, **kw)
    return blocker.args[0]


def decide_all(w, status=Status.ACCEPTED):
    w.state.set_status([it.id for it in w.state], status)


# -- blocker 1: an incomplete detection -------------------------------------------------------------------
def test_cancelled_detection_never_exports_without_an_explicit_partial_choice(qtbot, make_window, model_dir,
                                                                             tmp_path):
    text = "\n\n".join(f"[{i}]\n{SAMPLE}" for i in range(40))
    path = tmp_path / "long.txt"
    path.write_text(text, encoding="utf-8")
    det = HoldingDetector(production_detector(model_dir), hold_from_batch=1)
    w = make_window(det)
    with qtbot.waitSignal(w.documentLoaded, timeout=10000):
        w.open_path(path)
    qtbot.waitUntil(det.holding.is_set, timeout=20000)
    qtbot.waitUntil(lambda: len(w.state) > 0, timeout=5000)
    # while running: honest status, and no export
    assert w.detection_status is DetectionStatus.RUNNING
    w.refresh_status()
    assert "100%" not in w.reviewed_label.text() and "탐지 중" in w.reviewed_label.text()
    decide_all(w)
    assert export(qtbot, w, tmp_path / "running.txt", policy="accept") == ""
    assert "끝나지 않았습니다" in w.last_error and not (tmp_path / "running.txt").exists()
    dismiss_boxes(qtbot, w)

    with qtbot.waitSignal(w.detectionFinished, timeout=5000):
        w.cancel_detection()
    det.release.set()
    QThreadPool.globalInstance().waitForDone(10000)
    QApplication.processEvents()
    assert w.detection_status is DetectionStatus.CANCELLED
    # a lasting banner, not a status message: still there after the status bar has moved on
    assert w.banner.isVisible() and "취소됨" in w.banner.incomplete_text
    # issue 22: after Cancel the status bar no longer says "detecting"; the coverage is known
    assert "탐지 중" not in w.reviewed_label.text()
    # (held inside the first slice: no slice finished, so nothing counts as covered yet)
    assert w.review.coverage < 1 and w.review.unchecked_chars == len(text) - w.review.checked_chars > 0
    w.statusBar().clearMessage()
    qtbot.wait(50)
    assert w.banner.isVisible()
    decide_all(w)

    out = tmp_path / "long.masked.txt"
    assert export(qtbot, w, out, policy="block") == ""          # Export from a cancelled run: refused
    assert "취소됨" in w.last_error and not out.exists()
    dismiss_boxes(qtbot, w)

    # the reviewer's path: the summary says it and Export stays disabled until the partial box is ticked
    dlg = w.exporter.review_and_export(out, styles={}, default_style="tag", policy=PendingPolicy.BLOCK,
                                       tag_lang="ko")
    assert isinstance(dlg, ExportSummaryDialog) and dlg.isVisible()
    assert dlg.partial_box is not None and not dlg.export_button.isEnabled()
    cov = dlg.findChild(type(dlg.message), "coverage")
    left = w.review.unchecked_chars
    assert cov is not None and f"나머지 {left:,}자는 검사하지 않았습니다" in cov.text()
    dlg.partial_box.setChecked(True)
    assert dlg.export_button.isEnabled()
    finished = []
    w.exportFinished.connect(finished.append)
    qtbot.mouseClick(dlg.export_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: finished or w.exporter.copies_dialog is not None, timeout=20000)
    if not finished:
        # copies of masked values in the part detection never reached: listed before anything is written
        copies = w.exporter.copies_dialog
        assert copies.hits and not out.exists()
        copies.include_partial.setChecked(True)
        copies.set_all(True)
        qtbot.mouseClick(copies.apply_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: bool(finished), timeout=20000)
    assert finished == [str(out)]
    report = json.loads(Path(str(out) + ".report.json").read_text(encoding="utf-8"))
    assert report["review"]["partial_export"] is True and report["review"]["detection"] == "cancelled"
    assert report["review"]["coverage"] == round(w.review.coverage, 4) < 1
    assert report["review"]["text_chars"] == len(text)
    assert report["review"]["unchecked_chars"] == left
    # the result stays on screen, with the path and the leak check, and says it was partial
    result = w.exporter.result_dialog
    assert isinstance(result, ExportResultDialog) and result.isVisible()
    # never a green "clean" for a partial export: it says in words what was never checked
    assert "깨끗함" not in result.leak_label.text() and "검사하지 않았습니다" in result.leak_label.text()
    assert "#106010" not in result.leak_label.styleSheet()
    assert result.findChild(type(result.leak_label), "partialNote") is not None
    note = result.findChild(type(result.leak_label), "uncheckedNote")
    assert note is not None and f"나머지 {left:,}자(전체 {len(text):,}자 중)" in note.text()
    qtbot.wait(100)
    assert result.isVisible()
    result.done(0)

    # run again to the end: the banner goes away, export needs no partial choice
    det.hold_from_batch = 10**9
    with qtbot.waitSignal(w.detectionFinished, timeout=60000) as blocker:
        w.run_detection()
    assert blocker.args == [False] and w.detection_status is DetectionStatus.COMPLETE
    assert not w.banner.isVisible()


def test_failed_detection_shows_banner_and_blocks(qtbot, make_window, model_dir, tmp_path):
    path = tmp_path / "long.txt"
    path.write_text("\n\n".join(f"[{i}]\n{SAMPLE}" for i in range(20)), encoding="utf-8")
    w = make_window(HoldingDetector(production_detector(model_dir), hold_from_batch=10**9, fail_after=1))
    w.lang = "en"
    w.retranslate()
    open_and_detect(qtbot, w, path)
    dismiss_boxes(qtbot, w)
    assert w.detection_status is DetectionStatus.FAILED
    assert w.banner.isVisible() and "failed" in w.banner.incomplete_text
    decide_all(w)
    assert export(qtbot, w, tmp_path / "x.txt", policy="block") == ""
    assert "Detection has not finished" in w.last_error and not (tmp_path / "x.txt").exists()


# -- blocker 2: nothing carries over to the next document ---------------------------------------------------
def test_second_document_starts_from_safe_defaults(qtbot, make_window, doc, tmp_path):
    w = make_window()
    default = w.settings.threshold
    open_and_detect(qtbot, w, doc)
    w.threshold_slider.setValue(30)                             # the reviewer lowers it for this document
    assert w.state.threshold == pytest.approx(0.30)
    assert w.settings.threshold == pytest.approx(default)       # the configured default is untouched
    # export this one with "treat pending as accepted"
    assert export(qtbot, w, tmp_path / "one.txt", policy="accept", below_threshold_ok=True) == str(tmp_path / "one.txt")
    w.exporter.result_dialog.done(0)

    second = tmp_path / "second.txt"
    second.write_text("담당: 이서연 주무관, 김민준 과장\n", encoding="utf-8")
    open_and_detect(qtbot, w, second)
    assert w.state.threshold == pytest.approx(default) and w.threshold_slider.value() == round(default * 100)
    assert w.detection_status is DetectionStatus.COMPLETE and not w.banner.isVisible()
    # the export dialog starts at BLOCK, and an export without an explicit policy blocks
    dlg = ExportDialog(w, w.state, w.settings, w.path, w.document, w.lang)
    qtbot.addWidget(dlg)
    assert dlg.policy() is PendingPolicy.BLOCK and not dlg.ok_button.isEnabled()
    assert export(qtbot, w, tmp_path / "two.txt") == ""
    assert not (tmp_path / "two.txt").exists()
    # and reopening the first restores *its* threshold (per document, saved with its review)
    dismiss_boxes(qtbot, w)
    with qtbot.waitSignal(w.documentLoaded, timeout=10000):
        w.open_path(doc)
    assert w.state.threshold == pytest.approx(0.30)


# -- blocker 3: bulk actions show what they touch first -------------------------------------------------------
def test_bulk_actions_show_hit_list_first_and_apply_as_one_step(qtbot, make_window, doc):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    dlg = w.bulk.dialog
    assert isinstance(dlg, HitListDialog) and dlg.isVisible() and dlg.objectName() == "acceptAboveList"
    assert all(it.status is Status.PENDING for it in w.state)    # nothing accepted blind
    dlg.set_min_score(0.0)
    shown = [h for r, h in enumerate(dlg.hits) if dlg.is_shown(r)]
    checked = dlg.checked_hits()
    assert checked and all(h.whole_word for h in checked) and len(checked) <= len(shown)
    assert all("[" in h.context and "]" in h.context for h in checked)    # context around the value
    dlg.set_checked(dlg.hits.index(checked[0]), False)
    with qtbot.waitSignal(w.bulk.applied, timeout=2000) as blocker:
        qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [len(checked) - 1]
    accepted = {it.id for it in w.state if it.status is Status.ACCEPTED}
    assert accepted == {h.item_id for h in checked[1:]}
    w.state.undo()                                               # one undo step
    assert all(it.status is Status.PENDING for it in w.state)

    # Shift+R: every occurrence, listed first; Cancel changes nothing
    kim = next(it for it in w.state if w.state.value(it) == "김민준")
    w.select_item(kim.id)
    qtbot.keyClick(w.view, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)
    dlg = w.bulk.dialog
    assert dlg.objectName() == "rejectAllSameList" and len(dlg.hits) == 2
    assert dlg.apply_button.text() == "체크한 2개 거부"
    dlg.reject()
    assert all(it.status is Status.PENDING for it in w.state)


# -- threshold honesty (issue 10 item 6) ----------------------------------------------------------------------
def test_suggestions_hidden_below_threshold_block_until_confirmed(qtbot, make_window, doc, tmp_path):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    weak = min(w.state, key=lambda it: it.score)
    cut = int(weak.score * 100) + 1
    w.threshold_slider.setValue(cut)
    hidden = w.state.hidden_pending_count()
    assert hidden >= 1
    visible = [it.id for it in w.state if w.state.is_visible(it)]
    w.state.set_status(visible, Status.ACCEPTED)                 # everything on screen decided
    out = tmp_path / "t.txt"
    assert export(qtbot, w, out, policy="block") == ""
    assert f"{cut / 100:.2f}" in w.last_error and not out.exists()
    dismiss_boxes(qtbot, w)
    summary = w.exporter.summary()
    assert summary.hidden == hidden and summary.blockers() == ["below_threshold"]
    assert export(qtbot, w, out, policy="block", below_threshold_ok=True) == str(out)
    report = json.loads(Path(str(out) + ".report.json").read_text(encoding="utf-8"))
    assert report["review"]["pending_below_threshold"] == hidden
    assert weak.label in report["review"]["pending_below_threshold_per_label"]


# -- replacing an existing file --------------------------------------------------------------------------------
def test_existing_output_is_replaced_only_after_asking(qtbot, make_window, doc, tmp_path):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    decide_all(w)
    out = tmp_path / "민원.masked.txt"
    out.write_text("someone else's file", encoding="utf-8")
    w.export_to(out, policy="block")
    box = w.exporter.overwrite_dialog
    assert box is not None and box.isVisible() and box.defaultButton().text() == "취소"
    with qtbot.waitSignal(w.exportFinished, timeout=5000) as blocker:
        qtbot.mouseClick(box.defaultButton(), Qt.MouseButton.LeftButton)
    assert blocker.args == [""] and out.read_text(encoding="utf-8") == "someone else's file"
    w.export_to(out, policy="block")
    box = w.exporter.overwrite_dialog
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        qtbot.mouseClick(box.replace_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [str(out)] and "김민준" not in out.read_text(encoding="utf-8")


# -- shortcuts and commands ------------------------------------------------------------------------------------
def test_single_key_shortcuts_only_in_document_or_table(qtbot, make_window, doc):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    rrn = next(it for it in w.state if it.label == "RRN")
    w.select_item(rrn.id)
    w.label_filter.setFocus()
    qtbot.keyClick(w.label_filter, Qt.Key.Key_R)                # typed into the label filter
    assert w.state.item(rrn.id).status is Status.PENDING
    w.table.setFocus()
    w.select_item(rrn.id)
    qtbot.keyClick(w.table, Qt.Key.Key_R)
    assert w.state.item(rrn.id).status is Status.REJECTED


def test_change_label_and_translated_undo_text(qtbot, make_window, doc):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    org = next(it for it in w.state if it.label == "ORGANIZATION")
    w.select_item(org.id)
    qtbot.keyClick(w.view, Qt.Key.Key_L)
    dlg = w.change_label_dialog
    assert dlg.isVisible()
    dlg.setTextValue(next(t for t in dlg.comboBoxItems() if t.endswith("(PERSON)")))
    dlg.accept()
    item = w.state.item(org.id)
    assert item.label == "PERSON" and item.status is Status.ACCEPTED
    assert w.actions_by_id["undo"].text() == "실행 취소: 유형 변경: 인명"


def test_next_pending_tells_when_it_wraps(qtbot, make_window, doc):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    last = max((it for it in w.state if it.status is Status.PENDING), key=lambda it: it.start)
    w.select_item(last.id)
    qtbot.keyClick(w.view, Qt.Key.Key_J)
    assert w.current_item().start < last.start
    assert w.statusBar().currentMessage() == "문서 끝에서 처음으로 돌아왔습니다"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_no_clipped_texts_at_1280x800(qtbot, make_window, doc, lang):
    w = make_window()
    from dataclasses import replace

    w.apply_settings(replace(w.settings, language=lang))
    w.resize(1280, 800)
    open_and_detect(qtbot, w, doc)
    qtbot.wait(50)
    fm = w.table.fontMetrics()
    from veil_desktop.labels import display_name

    for label in {it.label for it in w.state}:                  # "Resident re…" no more
        assert w.table.columnWidth(2) >= fm.horizontalAdvance(display_name(label, lang)) + 8
    for col in (2, 4, 5, 6):
        header = w.proxy.headerData(col, Qt.Orientation.Horizontal)
        assert w.table.columnWidth(col) >= w.table.horizontalHeader().fontMetrics().horizontalAdvance(header)
    # status bar: the permanent labels get the room they ask for, and leave room for the message
    for label in (w.model_label, w.counts_label, w.reviewed_label):
        assert label.width() >= label.sizeHint().width()
    used = sum(l.width() for l in (w.model_label, w.counts_label, w.reviewed_label))
    assert w.statusBar().width() - used >= 200
    # buttons show their whole text
    for b in (w.btn_accept, w.btn_reject, w.btn_accept_above):
        assert b.width() >= b.fontMetrics().horizontalAdvance(b.text())


def test_summary_answered_after_switching_documents_writes_nothing(qtbot, make_window, doc, tmp_path):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    decide_all(w)
    out = tmp_path / "stale.txt"
    dlg = w.exporter.review_and_export(out, styles={}, default_style="tag", policy=PendingPolicy.BLOCK,
                                       tag_lang="ko")
    assert dlg.export_button.isEnabled()
    second = tmp_path / "second.txt"
    second.write_text("담당: 이서연 주무관\n", encoding="utf-8")
    open_and_detect(qtbot, w, second)             # another document while the summary is open
    with qtbot.waitSignal(w.exportFinished, timeout=5000) as blocker:
        qtbot.mouseClick(dlg.export_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [""] and not out.exists()


def test_state_errors_are_shown_in_the_ui_language(qtbot, make_window, doc):
    from veil_desktop.ui.commands import _message
    from veil_desktop.review.state import EmptySelectionError, SpanExistsError

    assert _message(SpanExistsError("x"), "ko") == "같은 범위에 같은 유형의 항목이 이미 있습니다."
    assert _message(EmptySelectionError("x"), "en") == "The selection holds no text to mark."
    w = make_window()
    open_and_detect(qtbot, w, doc)
    a, b = (it for it in w.state if w.state.value(it) == "김민준")
    w.select_item(b.id)
    w.adjust_current(a.start, a.end)                # would duplicate the first 김민준
    assert w.statusBar().currentMessage() == "같은 범위에 같은 유형의 항목이 이미 있습니다."
