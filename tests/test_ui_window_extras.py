"""Smaller window features: drag and drop, recent files, the mark-as menu, accept above a score, the
status bar counts, and the context menu on a highlight."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QTextCursor

from tests.ui_helpers import sample_text
from veil_desktop.review import Status
from veil_desktop.ui.settings_store import SettingsStore

SAMPLE = sample_text()


@pytest.fixture
def window(make_window):
    return make_window()  # tests/ui_helpers.py: production detector over the tiny model folder (model_dir)


def test_drop_opens_file_and_recent_menu_lists_it(qtbot, window, doc):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(doc))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.detectionFinished, timeout=30000):
        window.dropEvent(event)
    assert window.path == doc and len(window.state) > 0
    assert window.settings.recent_files[0] == str(doc)
    window.fill_recent_menu()
    assert [a.text() for a in window.recent_menu.actions()] == [str(doc)]
    assert SettingsStore().load().recent_files[0] == str(doc)


def test_mark_menu_accept_above_and_status_counts(qtbot, window, doc):
    with qtbot.waitSignal(window.detectionFinished, timeout=30000):
        window.open_path(doc)
    i = SAMPLE.index("한빛파킹")
    c = QTextCursor(window.view.document())
    c.setPosition(i)
    c.setPosition(i + 4, QTextCursor.MoveMode.KeepAnchor)
    window.view.setTextCursor(c)
    menu = window.label_menu(QPoint(0, 0))
    org = next(a for a in menu.actions() if a.text().endswith("(ORGANIZATION)"))
    org.trigger()
    item = window.current_item()
    assert (window.state.value(item), item.label, item.source) == ("한빛파킹", "ORGANIZATION", "manual")

    n = window.accept_above(0.9)
    assert n == sum(1 for it in window.state if it.source != "manual" and it.score >= 0.9)
    assert all(it.status is Status.ACCEPTED for it in window.state if it.score >= 0.9)
    weak = [it for it in window.state if it.status is Status.PENDING]
    assert weak and all(it.score < 0.9 for it in weak)  # e.g. the RRN rule span (0.85)
    window.refresh_status()
    assert "기관 4/4" in window.counts_label.text()  # 3 x 강남구청 (model) + 한빛파킹 (manual), all accepted
    assert "인명 4/4" in window.counts_label.text()
    assert f"남은 항목 {len(weak)}" in window.reviewed_label.text()


def test_context_menu_on_highlight_selects_item(qtbot, window, doc):
    with qtbot.waitSignal(window.detectionFinished, timeout=30000):
        window.open_path(doc)
    target = next(it for it in window.state.in_text_order() if window.state.value(it) == "이서연")
    window.show_context_menu(QPoint(0, 0), target.id)
    assert window.current_item().id == target.id
    menus = [m for m in window.findChildren(type(window.recent_menu)) if m.isVisible()]
    assert menus and any(a.text() == "승인" for a in menus[-1].actions())
    menus[-1].close()


def test_review_keys_work_with_focus_in_the_table(qtbot, window, doc):
    with qtbot.waitSignal(window.detectionFinished, timeout=30000):
        window.open_path(doc)
    window.activateWindow()
    window.table.setFocus()
    before = window.current_item()  # focusing the table may make its first row current
    qtbot.keyClick(window.table, Qt.Key.Key_J)
    first = window.current_item()
    expected = (window.state.next_pending(before.start, exclude=before.id) if before
                else window.state.in_text_order()[0])
    assert first is not None and first.id == expected.id
    qtbot.keyClick(window.table, Qt.Key.Key_A)
    assert window.state.item(first.id).status is Status.ACCEPTED
    nxt = window.current_item()
    qtbot.keyClick(window.table, Qt.Key.Key_R)
    assert window.state.item(nxt.id).status is Status.REJECTED
