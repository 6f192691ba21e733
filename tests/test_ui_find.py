"""Find bar (ui/find_bar.py) over a real DocumentView and ReviewState: options, count, next/previous,
"mark all as LABEL" in one undo step, bad regex message, and incremental search on 1M characters."""
from __future__ import annotations

from veil_desktop.review.state import ReviewState, Status
from veil_desktop.ui.document_view import DocumentView
from veil_desktop.ui.find_bar import FindBar

TEXT = "담당 김민준 과장. 김 민 준 님과 김\u200b민준, 그리고 ＫＩＭ Ｍｉｎｊｕｎ / kim minjun.\n"


def make(qtbot, text=TEXT):
    view = DocumentView()
    qtbot.addWidget(view)
    state = ReviewState(text)
    view.set_text(text, state)
    view.finish_loading()
    bar = FindBar(lang="en")
    qtbot.addWidget(bar)
    bar.set_document(view, state)
    return view, state, bar


def selected(view):
    return view.textCursor().selectedText()


def test_find_count_next_previous_and_mark_all_undo(qtbot):
    view, state, bar = make(qtbot)
    for partial in ("김", "김민", "김민준"):            # as typed, one keystroke at a time
        bar.query.setText(partial)
    qtbot.waitUntil(lambda: not bar.scanning)
    assert [TEXT[a:b] for a, b in bar.matches] == ["김민준", "김 민 준", "김\u200b민준"]
    assert bar.count.text() == "1 of 3" and selected(view) == "김민준"
    bar.find_next()
    assert selected(view) == "김 민 준" and bar.count.text() == "2 of 3"
    bar.find_next()
    bar.find_next()                                  # wraps
    assert bar.count.text() == "1 of 3"
    bar.find_previous()
    assert bar.count.text() == "3 of 3"

    bar.spacing.setChecked(False)
    qtbot.waitUntil(lambda: not bar.scanning)
    assert len(bar.matches) == 1
    bar.spacing.setChecked(True)
    qtbot.waitUntil(lambda: not bar.scanning)

    i = bar.label_box.findData("PERSON")
    bar.label_box.setCurrentIndex(i)
    with qtbot.waitSignal(bar.marked) as sig:
        bar.mark_btn.click()
    assert sig.args == [3, "PERSON"]
    assert [state.value(it) for it in state.in_text_order()] == ["김민준", "김 민 준", "김\u200b민준"]
    assert all(it.status is Status.ACCEPTED and it.source == "manual" for it in state)
    assert "find and mark" in state.undo_text()
    state.undo()
    assert len(state) == 0                           # one undo step removes all three
    state.redo()
    assert len(state) == 3


def test_width_case_and_regex_options(qtbot):
    view, state, bar = make(qtbot)
    bar.query.setText("kim minjun")
    qtbot.waitUntil(lambda: not bar.scanning)
    assert [TEXT[a:b] for a, b in bar.matches] == ["ＫＩＭ Ｍｉｎｊｕｎ", "kim minjun"]
    bar.case.setChecked(True)
    qtbot.waitUntil(lambda: not bar.scanning)
    assert [TEXT[a:b] for a, b in bar.matches] == ["kim minjun"]
    bar.case.setChecked(False)
    bar.width.setChecked(False)
    qtbot.waitUntil(lambda: not bar.scanning)
    assert [TEXT[a:b] for a, b in bar.matches] == ["kim minjun"]
    bar.regex.setChecked(True)
    bar.query.setText("김\\s*민")
    qtbot.waitUntil(lambda: not bar.scanning)
    assert [TEXT[a:b] for a, b in bar.matches] == ["김민", "김 민"]
    bar.query.setText("(김")
    assert bar.count.text().startswith("Not a valid regular expression")
    assert not bar.mark_btn.isEnabled() or bar.matches == []
    assert bar.mark_all("PERSON") == 0 and len(state) == 0


def test_typing_on_a_million_characters_searches_incrementally(qtbot, monkeypatch):
    import veil_desktop.ui.find_bar as fb

    monkeypatch.setattr(fb, "BUDGET_S", 0.0)        # one 64k window per event-loop turn (deterministic)
    text = ("가나다라마바사 아자차카 " * 90_000)[:1_000_000] + " 김민준 끝"
    view, state, bar = make(qtbot, text)
    bar.query.setText("김민준")
    # the keystroke handler returned after one window: the rest is searched on later event-loop turns
    assert bar.scanning and bar.matches == [] and bar._scanner.pos == 65_536
    assert "searching" in bar.count.text()
    qtbot.waitUntil(lambda: not bar.scanning, timeout=20_000)
    assert bar.matches == [(1_000_001, 1_000_004)]
    assert bar.count.text() == "1 of 1" and selected(view) == "김민준"
    assert bar.mark_all("PERSON") == 1 and state.value(next(iter(state))) == "김민준"


def test_find_and_mark_in_the_window_is_one_undo_step(qtbot, tmp_path, tmp_path_factory):
    from PySide6.QtCore import Qt

    from tests.fixtures.tiny_model import build_tiny_model
    from tests.ui_helpers import open_and_detect, show_window

    model = build_tiny_model(tmp_path_factory.mktemp("m") / "tiny", entities={"홍길동": "PERSON"}, score=0.9)
    doc = tmp_path / "memo.txt"
    doc.write_text("담당 홍길동. 프로젝트 가람 회의, 프로젝트가람 예산, ＰＲＯＪＥＣＴ 가람.\n", encoding="utf-8")
    w = show_window(qtbot, model)
    assert open_and_detect(qtbot, w, doc) is False
    before = sorted((w.state.value(it), it.status.value) for it in w.state)
    qtbot.keyClick(w.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    bar = w.tools.find_bar
    assert w.tools.find_toolbar.isVisible() and bar.isVisible()
    bar.query.setText("프로젝트가람")
    qtbot.waitUntil(lambda: not bar.scanning)
    assert bar.count.text() == "1 / 2"
    bar.label_box.setCurrentIndex(bar.label_box.findData("ORGANIZATION"))
    bar.mark_btn.click()
    # Mark all shows its hit list first (issue 22): both whole-word hits checked; Mask applies them
    hits = w.tools.mark_dialog
    assert hits is not None and len(hits.checked_hits()) == 2
    assert not any(it.source == "manual" for it in w.state)
    hits.apply_button.click()
    marked = sorted(w.state.value(it) for it in w.state if it.source == "manual")
    assert marked == ["프로젝트 가람", "프로젝트가람"]
    assert all(it.label == "ORGANIZATION" and it.status.value == "accepted" for it in w.state if it.source == "manual")
    qtbot.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)   # one undo: all of them
    assert sorted((w.state.value(it), it.status.value) for it in w.state) == before
    # keys in the query box: Enter next, Shift+Enter previous, Esc closes the bar (not the window's Esc)
    bar.query.setFocus()
    qtbot.keyClick(bar.query, Qt.Key.Key_Return)
    assert bar.count.text() == "2 / 2"
    qtbot.keyClick(bar.query, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert bar.count.text() == "1 / 2"
    qtbot.keyClick(bar.query, Qt.Key.Key_Escape)
    assert not bar.isVisible() and not w.tools.find_toolbar.isVisible()
