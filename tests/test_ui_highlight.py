"""Highlighting: per-block formats from the state, lazy re-highlighting of off-screen blocks, and the
Python <-> Qt (UTF-16) offset map."""
from PySide6.QtCore import QThreadPool
from PySide6.QtGui import QTextCursor

from veil_desktop.detect.span import Span
from veil_desktop.review import ReviewState, Status
from veil_desktop.review.loading import Loaded
from veil_desktop.ui.main_window import MainWindow
from veil_desktop.ui.offsets import Utf16Map, display_text
from veil_desktop.ui.settings_store import SettingsStore


def formats_at(view, pos):
    """(start, length, bold?, strike?, underline?) of the highlight formats in the block holding ``pos``."""
    block = view.document().findBlock(pos)
    return [(r.start + block.position(), r.length, r.format.fontWeight() > 500, r.format.fontStrikeOut(),
             r.format.fontUnderline()) for r in block.layout().formats()]


def make_window(qtbot, text):
    w = MainWindow(SettingsStore(), detector_factory=lambda d, t: None)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    state = ReviewState(text)
    w.show_loaded(Loaded(None, None, state, None))
    w.view.finish_loading()  # long texts load chunk by chunk; these tests look at the whole document
    return w, state


def test_status_looks_and_lazy_offscreen_blocks(qtbot):
    lines = [f"{i:04d} 담당자 김민준 연락" for i in range(3000)]
    text = "\n".join(lines)
    w, state = make_window(qtbot, text)
    first = text.index("김민준")
    last = text.rindex("김민준")
    a, b = state.add_detected([Span(first, first + 3, "PERSON", 0.9), Span(last, last + 3, "PERSON", 0.9)])
    # on screen: highlighted now, as a pending suggestion (underlined, not bold)
    assert formats_at(w.view, first) == [(first, 3, False, False, True)]
    # far below the viewport: not laid out yet, only remembered
    assert formats_at(w.view, last) == []
    assert w.highlighter.dirty_blocks == 1
    state.set_status([a], Status.ACCEPTED)
    assert formats_at(w.view, first) == [(first, 3, True, False, False)]
    state.set_status([a], Status.REJECTED)
    assert formats_at(w.view, first) == [(first, 3, False, True, False)]
    # scrolling there re-highlights it
    c = QTextCursor(w.view.document())
    c.setPosition(last)
    w.view.setTextCursor(c)
    w.view.ensureCursorVisible()
    qtbot.waitUntil(lambda: w.highlighter.dirty_blocks == 0, timeout=3000)
    assert formats_at(w.view, last) == [(last, 3, False, False, True)]
    # the threshold hides a pending suggestion from the view as well
    state.set_threshold(0.95)
    assert formats_at(w.view, last) == []
    w.close()
    QThreadPool.globalInstance().waitForDone(5000)


def test_long_text_loads_in_chunks_and_items_are_highlighted_on_arrival(qtbot):
    text = "\n".join(f"{i:05d} 담당자 김민준 연락" for i in range(20000))  # ~360k characters
    w = MainWindow(SettingsStore(), detector_factory=lambda d, t: None)
    qtbot.addWidget(w)
    state = ReviewState(text)
    w.show_loaded(Loaded(None, None, state, None))
    assert not w.view.fully_loaded
    assert w.view.document().characterCount() - 1 <= w.view.LOAD_CHUNK * 2
    last = text.rindex("김민준")
    state.add_detected([Span(last, last + 3, "PERSON", 0.9)])  # beyond what is loaded: nothing to do yet
    with qtbot.waitSignal(w.view.loaded, timeout=10000):
        pass
    assert w.view.toPlainText() == text
    # the block arrived after the item: highlighting happened on insertion (it may be off screen)
    assert formats_at(w.view, last) == [(last, 3, False, False, True)]
    w.close()
    QThreadPool.globalInstance().waitForDone(5000)


def test_utf16_offsets_around_astral_characters(qtbot):
    text = "😀 김민준 🙂 이서연"
    m = Utf16Map(text)
    assert not m.identity
    for i in range(len(text) + 1):
        assert m.from_qt(m.to_qt(i)) == i
    assert m.to_qt(text.index("김")) == text.index("김") + 1
    w, state = make_window(qtbot, text)
    i = text.index("이서연")
    state.add_detected([Span(i, i + 3, "PERSON", 0.9)])
    q = m.to_qt(i)
    assert formats_at(w.view, q) == [(q, 3, False, False, True)]  # on the name, not shifted by the emoji
    c = QTextCursor(w.view.document())
    c.setPosition(q)
    c.setPosition(q + 3, QTextCursor.MoveMode.KeepAnchor)
    w.view.setTextCursor(c)
    assert w.view.selection_range() == (i, i + 3)
    assert display_text("a\r\nb") == "a \nb"
    w.close()
    QThreadPool.globalInstance().waitForDone(5000)
