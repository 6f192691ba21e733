"""The merge dialog (issue 24, ui/tools/disclosure_dialogs.py) lists conflicting items by their masked form
as the export would write it with the reviewer's styles — never the value in clear (no personal data on
screen in a list of items); a pseudonym shows as its tag."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QApplication

from tests.ui_helpers import open_and_detect
from veil_desktop.masking import tag_text
from veil_desktop.review.state import Status
from veil_desktop.ui.tools.disclosure_dialogs import masked_form


def test_masked_form_follows_the_styles_and_hides_the_value():
    text = "담당자 김민준 연락처 010-2345-6789"
    a, b = text.index("김민준"), text.index("010")
    assert masked_form(text, a, a + 3, "PERSON") == "[인명]"
    assert masked_form(text, b, len(text), "PHONE", {"PHONE": "stars"}) == "*" * 13
    assert masked_form(text, a, a + 3, "PERSON", {"PERSON": "pseudonym"}) == "[인명]"
    assert masked_form(text, a, a + 3, "PERSON", None, "pseudonym") == "[인명]"
    assert masked_form(text, a, a + 3, "PERSON", {"PERSON": "partial"}) == "김**"     # as the output has it


def test_merge_dialog_shows_masked_forms_not_values(qtbot, make_window, doc, tmp_path):
    w = make_window()
    assert open_and_detect(qtbot, w, doc) is False
    items = w.state.in_text_order()
    assert len(items) >= 3
    w.state.set_status([it.id for it in items], Status.ACCEPTED)
    w.state.set_status([items[0].id], Status.REJECTED)
    w.state.set_reason([items[1].id], "7")
    w.settings = replace(w.settings, reviewer="두번째")
    second = w.tools.disclosure.export_review(tmp_path / "second")
    w.settings = replace(w.settings, reviewer="첫번째", styles={items[1].label: "stars"})
    w.state.undo()
    w.state.undo()
    with qtbot.waitSignal(w.tools.disclosure.mergeShown, timeout=3000) as shown:
        w.tools.disclosure.merge_with(second)
    dlg = shown.args[0]
    assert dlg.table.rowCount() == 2
    assert dlg.table.horizontalHeaderItem(dlg.COL_TEXT).text() == "가림 표시"
    values = [w.state.value(it) for it in items]
    everything = " ".join(dlg.table.item(r, c).text() for r in range(dlg.table.rowCount()) for c in range(5))
    assert not [v for v in values if v in everything]
    assert dlg.table.item(0, dlg.COL_TEXT).text() == tag_text(items[0].label, "ko")
    starred = dlg.table.item(1, dlg.COL_TEXT).text()
    assert starred and set(starred) - set(" -.@()") <= {"*"}, starred
    dlg.done(0)
    QApplication.processEvents()
