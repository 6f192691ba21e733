"""The main window end to end, offscreen, detecting the way the app does: the settings point at a real tiny
ONNX model folder built in tmp, the window builds ``build_default_detector`` over it (model + rule stage)
and runs it on QThreadPool. open -> detect -> keyboard review -> export; cancel; stale jobs; errors;
undo/redo; reopen."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QThreadPool, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.ui_helpers import HoldingDetector, open_and_detect, production_detector, sample_text
from veil_desktop.masking import tag_language, tag_text
from veil_desktop.review import Status, document_hash, session_path
from veil_desktop.ui.settings_store import SettingsStore

SAMPLE = sample_text()


def values(w, status=None):
    return [(w.state.value(it), it.label) for it in w.state.in_text_order(visible_only=False)
            if status is None or it.status is status]


def close_message_boxes(qtbot, w):
    for box in w.findChildren(QMessageBox):
        box.done(0)
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=2000)


def key(qtbot, w, k, mod=Qt.KeyboardModifier.NoModifier):
    qtbot.keyClick(w.view, k, mod)


def test_open_detect_keyboard_review_export(qtbot, make_window, doc, tmp_path):
    w = make_window()
    assert open_and_detect(qtbot, w, doc) is False
    found = values(w)
    assert found.count(("김민준", "PERSON")) == 2 and found.count(("강남구청", "ORGANIZATION")) == 3
    assert found.count(("이서연", "PERSON")) == 2
    # the rule stage ran too (production detector): structured values from rules, names from the model
    assert ("010-2345-6789", "PHONE") in found and ("880412-1234567", "RRN") in found
    assert {it.source for it in w.state if it.label == "PERSON"} == {"model"}
    assert all(it.status is Status.PENDING for it in w.state)
    assert w.detector_id == "model+veil-rules-1" and "model+veil-rules-1" in w.model_label.text()

    # keyboard only: J to the first pending, then A/R; each decision moves to the next pending
    key(qtbot, w, Qt.Key.Key_J)
    first = w.current_item()
    order = w.state.in_text_order()
    assert first.id == order[0].id and first.start == min(it.start for it in w.state)
    assert first.start < SAMPLE.index("김민준") + 3  # the first suggestion of the document, not a later one
    rejected_value = "010-2345-6789"  # the reviewer keeps the phone number (e.g. an office line)
    plan = {}
    for it in order:
        plan[it.id] = Status.REJECTED if w.state.value(it) == rejected_value else Status.ACCEPTED
    for _ in order:
        cur = w.current_item()
        key(qtbot, w, Qt.Key.Key_R if plan[cur.id] is Status.REJECTED else Qt.Key.Key_A)
    assert {it.id: it.status for it in w.state} == plan
    assert w.state.pending_count() == 0
    qtbot.waitUntil(lambda: "100%" in w.reviewed_label.text(), timeout=2000)  # status bar is throttled

    out = tmp_path / "out" / "masked.txt"
    out.parent.mkdir()
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        w.export_to(out, styles={"PERSON": "partial", "ORGANIZATION": "tag"}, policy="block")
    assert blocker.args == [str(out)]
    tag_lang = tag_language(SAMPLE)  # tags read in the document's language ([인명] / [PERSON])
    expected = SAMPLE
    for it in sorted(w.state, key=lambda it: -it.start):  # by hand: PERSON partial, the rest as tags
        if it.status is Status.ACCEPTED:
            value = w.state.value(it)
            repl = value[0] + "*" * (len(value) - 1) if it.label == "PERSON" else tag_text(it.label, tag_lang)
            expected = expected[:it.start] + repl + expected[it.end:]
    assert "김**" in expected and tag_text("RRN", tag_lang) in expected and rejected_value in expected
    assert out.read_text(encoding="utf-8") == expected
    assert doc.read_text(encoding="utf-8") == SAMPLE  # source untouched
    report = json.loads(Path(str(out) + ".report.json").read_text(encoding="utf-8"))
    assert "김민준" not in json.dumps(report, ensure_ascii=False)


def test_pending_policy_block_refuses_and_accept_masks(qtbot, make_window, doc, tmp_path):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        w.export_to(tmp_path / "a.txt", policy="block")
    assert blocker.args == [""] and f"{w.state.pending_count()}" in w.last_error  # "N pending" message
    assert not (tmp_path / "a.txt").exists()
    close_message_boxes(qtbot, w)  # the window-modal message blocks the window's shortcuts until dismissed
    # rejecting one suggestion with the keyboard; the rest is treated as accepted
    account = next(it for it in w.state if it.label == "ACCOUNT")
    w.select_item(account.id)
    key(qtbot, w, Qt.Key.Key_Delete)
    assert w.state.item(account.id).status is Status.REJECTED
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        w.export_to(tmp_path / "b.txt", styles={"PERSON": "pseudonym"}, default_style="stars", policy="accept")
    text = (tmp_path / "b.txt").read_text(encoding="utf-8")
    assert text.count("인물1") == 2 and text.count("인물2") == 2 and "****장" in text
    assert "김민준" not in text and "이서연" not in text
    assert "123456-01-234567" in text and "880412-1234567" not in text  # rejected stays, the rest masked


def test_export_never_overwrites_source(qtbot, make_window, doc):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    with qtbot.waitSignal(w.exportFinished, timeout=5000) as blocker:
        w.export_to(doc, policy="accept")
    assert blocker.args == [""]
    assert doc.read_text(encoding="utf-8") == SAMPLE


def test_undo_redo_with_keyboard(qtbot, make_window, doc):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    key(qtbot, w, Qt.Key.Key_J)
    target = w.current_item().id
    key(qtbot, w, Qt.Key.Key_R)
    assert w.state.item(target).status is Status.REJECTED
    key(qtbot, w, Qt.Key.Key_A)  # accepts the next one
    key(qtbot, w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    key(qtbot, w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.state.item(target).status is Status.PENDING
    assert sum(it.status is not Status.PENDING for it in w.state) == 0
    assert w.current_item().id == target
    key(qtbot, w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert w.state.item(target).status is Status.REJECTED
    assert w.actions_by_id["redo"].isEnabled()
    # propagate with Shift+A: every 강남구청 at once, one undo step
    org = next(it for it in w.state if w.state.value(it) == "강남구청")
    w.select_item(org.id)
    key(qtbot, w, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)
    # the hit list comes first (issue 16): nothing changed yet; applying it is one step
    assert [it.status for it in w.state if w.state.value(it) == "강남구청"] == [Status.PENDING] * 3
    # the third is the signature 강남구청장: inside a word, so listed only on request and unchecked
    assert len(w.bulk.dialog.hits) == 3 and len(w.bulk.dialog.checked_hits()) == 2
    w.bulk.dialog.include_partial.setChecked(True)
    w.bulk.dialog.set_all(True)
    w.bulk.dialog.accept()
    assert [it.status for it in w.state if w.state.value(it) == "강남구청"] == [Status.ACCEPTED] * 3
    key(qtbot, w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert [it.status for it in w.state if w.state.value(it) == "강남구청"] == [Status.PENDING] * 3


def long_text(copies=60):
    return "\n\n".join(f"[{i}]\n{SAMPLE}" for i in range(copies))


def test_cancel_mid_run(qtbot, make_window, model_dir, tmp_path):
    text = long_text()
    path = tmp_path / "long.txt"
    path.write_text(text, encoding="utf-8")
    full = len(production_detector(model_dir).detect(text))
    det = HoldingDetector(production_detector(model_dir), hold_from_batch=1)
    w = make_window(det)
    with qtbot.waitSignal(w.documentLoaded, timeout=10000):
        w.open_path(path)
    qtbot.waitUntil(det.holding.is_set, timeout=20000)
    qtbot.waitUntil(lambda: len(w.state) > 0, timeout=5000)
    assert w.progress.isVisible() and w.cancel_button.isVisible()
    with qtbot.waitSignal(w.detectionFinished, timeout=5000) as blocker:
        qtbot.mouseClick(w.cancel_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [True]
    det.release.set()
    w.detection.pool.waitForDone(10000)  # the detection pool (ui/detection.py)
    QThreadPool.globalInstance().waitForDone(10000)
    QApplication.processEvents()
    n = len(w.state)
    assert 0 < n < full
    assert det.batches_delivered == 1
    assert not w.progress.isVisible() and w.session.detection_complete is False
    # detection can be run again and completes, keeping what was found
    det.hold_from_batch = 10**9
    with qtbot.waitSignal(w.detectionFinished, timeout=60000) as blocker:
        w.run_detection()
    assert blocker.args == [False] and len(w.state) == full


def test_stale_job_results_are_dropped(qtbot, make_window, model_dir, tmp_path):
    a_text = long_text(30)
    a = tmp_path / "a.txt"
    a.write_text(a_text, encoding="utf-8")
    b_text = "담당: 이서연 주무관\n"
    b = tmp_path / "b.txt"
    b.write_text(b_text, encoding="utf-8")
    # A's first batch is computed, then held "in flight" and delivered even after A is cancelled
    det = HoldingDetector(production_detector(model_dir), hold_text=a_text, deliver_late=True)
    w = make_window(det)
    w.open_path(a)
    qtbot.waitUntil(det.holding.is_set, timeout=20000)
    assert len(w.state) == 0
    with qtbot.waitSignal(w.detectionFinished, timeout=20000):
        w.open_path(b)
    assert w.state.text == b_text
    dropped_before = w.dropped_batches
    det.release.set()
    qtbot.waitUntil(lambda: w.dropped_batches > dropped_before, timeout=10000)
    w.detection.pool.waitForDone(10000)  # the detection pool (ui/detection.py)
    QThreadPool.globalInstance().waitForDone(10000)
    QApplication.processEvents()
    assert values(w) == [("이서연", "PERSON")]
    assert all(it.end <= len(b_text) for it in w.state)


def test_engine_error_becomes_message_and_keeps_results(qtbot, make_window, model_dir, tmp_path):
    path = tmp_path / "long.txt"
    path.write_text(long_text(20), encoding="utf-8")
    w = make_window(HoldingDetector(production_detector(model_dir), hold_from_batch=10**9, fail_after=1))
    with qtbot.waitSignal(w.errorShown, timeout=30000) as blocker:
        w.open_path(path)
    assert "session lost" in blocker.args[0]
    assert isinstance(w.findChild(QMessageBox), QMessageBox)
    qtbot.waitUntil(lambda: not w.progress.isVisible(), timeout=5000)
    assert len(w.state) > 0 and w.actions_by_id["run_detection"].isEnabled()


def test_click_highlight_selects_row_and_row_selects_highlight(qtbot, make_window, doc):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    target = next(it for it in w.state.in_text_order() if w.state.value(it) == "강남구청")
    c = QTextCursor(w.view.document())
    c.setPosition(target.start + 1)
    rect = w.view.cursorRect(c)
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.x() + 2, rect.center().y()))
    assert w.current_item().id == target.id
    row = w.table.currentIndex().row()
    assert w.proxy.item_id(row) == target.id
    # and the other way: selecting a table row outlines that span in the document
    other = next(it for it in w.state.in_text_order() if w.state.value(it) == "이서연")
    w.table.setCurrentIndex(w.proxy.index(w.proxy.proxy_row_of(other.id), 0))
    assert w.current_item().id == other.id
    sel = w.view.extraSelections()
    assert len(sel) == 1 and (sel[0].cursor.selectionStart(), sel[0].cursor.selectionEnd()) == (other.start, other.end)


def test_threshold_slider_hides_low_scores_live(qtbot, make_window, doc):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    weak = min(w.state, key=lambda it: it.score)
    assert w.proxy.proxy_row_of(weak.id) >= 0
    rows = w.proxy.rowCount()
    cut = int(weak.score * 100) + 1  # the next slider step above the weakest score
    below = sum(1 for it in w.state if it.score < cut / 100)
    assert 0 < below < rows
    w.threshold_slider.setValue(cut)
    assert w.state.threshold == pytest.approx(cut / 100)
    assert w.proxy.proxy_row_of(weak.id) == -1 and w.proxy.rowCount() == rows - below
    assert w.state.items_at(weak.start) == []  # not highlighted either
    w.threshold_slider.setValue(10)
    assert w.proxy.rowCount() == rows


def test_manual_span_and_boundary_adjustment(qtbot, make_window, doc):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    i = SAMPLE.index("박지훈")
    c = QTextCursor(w.view.document())
    c.setPosition(i - 1)  # include the leading space: it is trimmed
    c.setPosition(i + 3, QTextCursor.MoveMode.KeepAnchor)
    w.view.setTextCursor(c)
    assert w.actions_by_id["mark_person"].isEnabled()
    key(qtbot, w, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
    item = w.current_item()
    assert (item.start, item.end, item.label, item.source, item.status) == (i, i + 3, "PERSON", "manual",
                                                                           Status.ACCEPTED)
    key(qtbot, w, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)  # grow the end by one
    assert w.state.value(w.current_item()) == "박지훈 "
    key(qtbot, w, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert w.state.value(w.current_item()) == "박지훈"
    # boundaries from a selection: shrink 강남구청 to 강남구
    org = next(it for it in w.state if w.state.value(it) == "강남구청")
    w.select_item(org.id)
    c = QTextCursor(w.view.document())
    c.setPosition(org.start)
    c.setPosition(org.start + 3, QTextCursor.MoveMode.KeepAnchor)
    w.view.setTextCursor(c)
    w.select_item(org.id, scroll_view=False)
    w.view.setTextCursor(c)
    key(qtbot, w, Qt.Key.Key_B)
    assert w.state.value(w.state.item(org.id)) == "강남구"
    key(qtbot, w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.state.value(w.state.item(org.id)) == "강남구청"


def test_reopen_restores_decisions(qtbot, make_window, doc, model_dir):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    items = w.state.in_text_order()
    w.select_item(items[0].id)
    key(qtbot, w, Qt.Key.Key_A)
    key(qtbot, w, Qt.Key.Key_R)
    manual_at = SAMPLE.index("한빛파킹")
    manual = w.state.add_manual(manual_at, manual_at + 4, "ORGANIZATION")
    # the autosave lands within the debounce delay without closing anything
    with qtbot.waitSignal(w.autosaved, timeout=3000):
        pass
    saved = json.loads(session_path(document_hash(SAMPLE)).read_text(encoding="utf-8"))
    assert {d["status"] for d in saved["items"]} == {"accepted", "rejected", "pending"}
    expected = {(it.start, it.end, it.label): it.status for it in w.state}
    w.close()

    w2 = make_window()
    with qtbot.waitSignal(w2.documentLoaded, timeout=10000):
        w2.open_path(doc)
    assert not w2.detection.running  # detection had completed: nothing to redo
    assert {(it.start, it.end, it.label): it.status for it in w2.state} == expected
    assert w2.state.item(manual.id).source == "manual"

    # a copy of the same content elsewhere is the same document
    copy = doc.with_name("copy.txt")
    shutil.copy(doc, copy)
    w3 = make_window()
    with qtbot.waitSignal(w3.documentLoaded, timeout=10000):
        w3.open_path(copy)
    assert {(it.start, it.end, it.label): it.status for it in w3.state} == expected


def test_open_error_is_a_message(qtbot, make_window, tmp_path):
    w = make_window()
    with qtbot.waitSignal(w.errorShown, timeout=10000) as blocker:
        w.open_path(tmp_path / "missing.txt")
    assert "missing.txt" in blocker.args[0]
    assert w.state is None


def test_language_switch_retranslates(qtbot, make_window, doc):
    from dataclasses import replace

    w = make_window()
    open_and_detect(qtbot, w, doc)
    assert w.menus["file"].title() == "파일(&F)"
    w.apply_settings(replace(w.settings, language="en"))
    assert w.menus["file"].title() == "&File"
    assert w.actions_by_id["accept"].text() == "Accept"
    assert w.table_model.headerData(2, Qt.Orientation.Horizontal) == "Label"
    assert SettingsStore().load().language == "en"
