"""Mark all in the real window (issue 22): the hit list first, whole-word hits checked and in-word hits
(``홍길동`` inside ``홍길동전``) listed unchecked; applying marks the checked ones in one undo step and
hands the focus to the document, so Ctrl+Z right after undoes the marks, not the query text."""
from __future__ import annotations

from PySide6.QtCore import Qt

from tests.fixtures.tiny_model import build_tiny_model
from tests.ui_helpers import open_and_detect, show_window

import pytest


@pytest.fixture()
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("m") / "tiny", entities={"김철수": "PERSON"}, score=0.9)


def test_mark_all_lists_in_word_hits_unchecked_and_ctrl_z_undoes_the_marks(qtbot, model, tmp_path):
    text = "홍길동 님께. 소설 홍길동전을 읽은 홍길동 과장\n"
    doc = tmp_path / "memo.txt"
    doc.write_text(text, encoding="utf-8")
    w = show_window(qtbot, model)
    assert open_and_detect(qtbot, w, doc) is False
    before = len(w.state)
    tools = w.tools
    tools._on_find()
    bar = tools.find_bar
    bar.query.setText("홍길동")
    qtbot.waitUntil(lambda: not bar.scanning and len(bar.matches) == 3, timeout=5000)
    bar.mark_btn.click()
    dlg = tools.mark_dialog
    assert dlg is not None and dlg.objectName() == "markAllList" and dlg.isVisible()
    listed = [(h.start, h.whole_word) for h in dlg.hits]
    starts = [text.index("홍길동"), text.index("홍길동전"), text.rindex("홍길동")]
    assert listed == [(starts[0], True), (starts[1], False), (starts[2], True)]
    assert [dlg.is_shown(i) for i in range(3)] == [True, True, True]      # the in-word hit is listed
    assert [h.start for h in dlg.checked_hits()] == [starts[0], starts[2]]  # ... and unchecked
    assert len(w.state) == before                                          # nothing marked yet
    dlg.apply_button.click()
    qtbot.waitUntil(lambda: tools.mark_dialog is None, timeout=2000)
    def accepted():     # 홍길동 at each start accepted (a new manual item, or a detection accepted)
        return sorted(it.start for it in w.state if w.state.value(it) == "홍길동" and it.status.value == "accepted")

    assert accepted() == [starts[0], starts[2]]
    assert not any(it.start == starts[1] for it in w.state)                 # 홍길동전 left alone
    # focus-aware undo: Ctrl+Z right after Mark all undoes the marks; the query text stays
    assert w.focusWidget() is w.view
    qtbot.keyClick(w.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert accepted() == []
    assert bar.query.text() == "홍길동"
