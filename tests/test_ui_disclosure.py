"""The disclosure workflow in the real window (issue 24, ui/tools/disclosure.py): keys and menus drive it,
real files are written and read back.

- ``G`` opens the reason chooser; ``7`` gives the selection 7호, shown in the table's reason column; the
  export prints the code in the output and the report's decisions carry it; the redaction log is written;
- a review file round trip reproduces the same export byte for byte; another document's file is refused;
- merging a second review lists the conflicts side by side; A / B per row, applied as one undo step;
- an XFDF of a PDF has one redact annotation per masked item, and imports back;
- the same page in three PDFs of a workspace: decided once, applied to the two other copies from the list.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.test_documents_pdf import REPO_FONT, make_pdf
from tests.ui_helpers import open_and_detect
from veil_desktop.review.state import Status
from veil_desktop.ui.table_model import COLUMNS


def _export(qtbot, w, out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    with qtbot.waitSignal(w.exportFinished, timeout=30000) as blocker:
        w.export_to(out, styles={}, default_style="tag", policy="block", overwrite=True)
    assert blocker.args == [str(out)], w.last_error
    for d in list(w.exporter.result_dialog and [w.exporter.result_dialog] or []):
        d.done(0)
    return out


def _accept_all(w) -> None:
    w.state.set_status([it.id for it in w.state], Status.ACCEPTED)


def _reason_cell(w, item_id: int) -> str:
    m = w.table_model
    return m.data(m.index(m.row_of(item_id), COLUMNS.index("reason")))


def _choose_reason(qtbot, w, key: str) -> None:
    with qtbot.waitSignal(w.tools.disclosure.chooserShown, timeout=3000) as blocker:
        qtbot.keyClick(w.view, Qt.Key.Key_G)
    menu = blocker.args[0]
    qtbot.waitExposed(menu)
    qtbot.keyClick(menu, key)


def test_reason_key_table_column_output_report_and_log(qtbot, make_window, doc, tmp_path):
    w = make_window()
    assert open_and_detect(qtbot, w, doc) is False
    assert len(w.state) >= 3
    _accept_all(w)
    items = w.state.in_text_order()
    person = next(it for it in items if it.label == "PERSON")
    org = next(it for it in items if it.label == "ORGANIZATION")
    # defaults: a person is 6호 (marked as the default), an organisation has none
    assert _reason_cell(w, person.id) == "6호 (기본)"
    assert _reason_cell(w, org.id) == ""
    # one item from the keyboard: select it, G, 7
    w.select_item(org.id)
    w.view.setFocus()
    _choose_reason(qtbot, w, "7")
    assert w.state.item(org.id).reason == "7"
    assert _reason_cell(w, org.id) == "7호"
    # in bulk: select every row of the table, G, 6 -> every item 6 (the organisation included), one undo step
    w.table.setFocus()
    w.table.selectAll()
    _choose_reason(qtbot, w, "6")
    assert {w.state.item(it.id).reason for it in items} == {"6"}
    w.state.undo()
    assert w.state.item(org.id).reason == "7" and w.state.item(person.id).reason is None

    # the export dialog chooses the short form and the log (saved in the settings the request reads)
    from veil_desktop.ui.dialogs import ExportDialog

    dlg = ExportDialog(w, w.state, w.settings, w.path, w.document, w.lang)
    qtbot.addWidget(dlg)
    dlg.disclosure.reason_output.setCurrentIndex(dlg.disclosure.reason_output.findData("short"))
    dlg.disclosure.log.setChecked(True)
    w.settings = replace(w.settings, **dlg.disclosure.values())
    assert (w.settings.reason_in_output, w.settings.redaction_log) == ("short", True)
    out = _export(qtbot, w, tmp_path / "out" / "masked.txt")
    text = out.read_text(encoding="utf-8")
    assert "(7호)" in text and "(6호)" in text
    assert w.state.value(person) not in text
    report = json.loads(Path(str(out) + ".report.json").read_text(encoding="utf-8"))
    by_key = {(d["start"], d["end"], d["label"]): d for d in report["decisions"]}
    assert by_key[org.key]["reason"] == "7" and by_key[person.key]["reason"] == "6"
    assert all(d["reason"] for d in report["decisions"] if d["decision"] == "accepted"
               and d["label"] != "ORGANIZATION")
    assert report["review"]["reasons"]["7"] >= 1 and report["review"]["reason_in_output"] == "short"
    log = Path(str(out) + ".redaction-log.csv").read_bytes().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(log)))
    assert rows[0][5] == "비공개 사유" and len(rows) - 1 == sum(report["review"]["reasons"].values())
    assert "7호" in {r[5] for r in rows[1:]}
    assert w.state.value(person) not in log


def test_reviewer_and_default_reasons_from_the_settings_dialog(qtbot, make_window, doc, tmp_path):
    from veil_desktop.ui.dialogs import SettingsDialog

    w = make_window()
    assert open_and_detect(qtbot, w, doc) is False
    dlg = SettingsDialog(w, w.settings, w.lang)
    qtbot.addWidget(dlg)
    dlg.disclosure.reviewer.setText("  박 검토  ")
    box = dlg.disclosure.boxes["ORGANIZATION"]
    box.setCurrentIndex(box.findData("7"))
    new = dlg.result_settings()
    assert new.reviewer == "박 검토" and new.reasons == {"ORGANIZATION": "7"}
    w.apply_settings(new)
    w.tools.disclosure.apply_settings()
    org = next(it for it in w.state if it.label == "ORGANIZATION")
    assert _reason_cell(w, org.id) == "7호 (기본)"
    # the decision is stamped with the reviewer's name
    w.select_item(org.id)
    qtbot.keyClick(w.view, Qt.Key.Key_A)
    assert w.state.item(org.id).by == "박 검토"
    # the settings survive a reload (JSON store)
    assert w._store.load().reasons == {"ORGANIZATION": "7"}


def test_review_file_round_trip_same_bytes_and_other_document_refused(qtbot, make_window, doc, tmp_path):
    w = make_window()
    assert open_and_detect(qtbot, w, doc) is False
    items = w.state.in_text_order()
    w.state.set_status([it.id for it in items[1:]], Status.ACCEPTED)
    w.state.set_status([items[0].id], Status.REJECTED)
    w.state.set_reason([items[1].id], "7")
    first = _export(qtbot, w, tmp_path / "a" / "masked.txt").read_bytes()
    review = w.tools.disclosure.export_review(tmp_path / "review")
    assert review.name == "review.veil-review.json"
    raw = review.read_text(encoding="utf-8")
    assert all(w.state.value(it) not in raw for it in items)          # values only as salted hashes
    decided = {it.key: (it.status, it.reason) for it in w.state}
    # back to nothing decided, then import: the same decisions, the same output bytes
    w.state.set_status([it.id for it in w.state], Status.PENDING)
    w.state.set_reason([it.id for it in w.state], None)
    assert w.tools.disclosure.import_review(review) >= len(items)
    assert {it.key: (it.status, it.reason) for it in w.state} == decided
    assert _export(qtbot, w, tmp_path / "b" / "masked.txt").read_bytes() == first
    report = json.loads((tmp_path / "b" / "masked.txt.report.json").read_text("utf-8"))
    import hashlib
    assert report["review"]["review_file_sha256"] == hashlib.sha256(review.read_bytes()).hexdigest()

    other = tmp_path / "other.txt"
    other.write_text("다른 문서입니다. 김민준 010-1111-2222\n", encoding="utf-8")
    assert open_and_detect(qtbot, w, other) is False
    before = {it.key: it.status for it in w.state}
    with qtbot.waitSignal(w.errorShown, timeout=3000) as err:
        assert w.tools.disclosure.import_review(review) is None
    assert "다른 문서" in err.args[0]
    assert {it.key: it.status for it in w.state} == before


def test_merge_dialog_lists_conflicts_and_applies_choices_as_one_undo_step(qtbot, make_window, doc, tmp_path):
    w = make_window()
    assert open_and_detect(qtbot, w, doc) is False
    items = w.state.in_text_order()
    assert len(items) >= 3
    _accept_all(w)
    a_state = {it.key: (it.status, it.reason) for it in w.state}
    # the second reviewer rejects item 0 and gives item 1 reason 7
    w.state.set_status([items[0].id], Status.REJECTED)
    w.state.set_reason([items[1].id], "7")
    w.settings = replace(w.settings, reviewer="두번째")
    second = w.tools.disclosure.export_review(tmp_path / "second")
    w.settings = replace(w.settings, reviewer="첫번째")
    w.state.undo()
    w.state.undo()
    assert {it.key: (it.status, it.reason) for it in w.state} == a_state
    with qtbot.waitSignal(w.tools.disclosure.mergeShown, timeout=3000) as shown:
        w.tools.disclosure.merge_with(second)
    dlg = shown.args[0]
    assert dlg.table.rowCount() == 2
    assert "두번째" in dlg.table.horizontalHeaderItem(dlg.COL_B).text()
    assert dlg.table.item(0, dlg.COL_B).text().endswith("거부") or "거부" in dlg.table.item(0, dlg.COL_B).text()
    assert not dlg.apply_button.isEnabled()
    # row 0: take B (rejected); row 1: keep A (no reason)
    dlg.table.setFocus()
    qtbot.keyClick(dlg, Qt.Key.Key_B)
    qtbot.keyClick(dlg, Qt.Key.Key_A)
    assert dlg.choices() == ["b", "a"] and dlg.apply_button.isEnabled()
    dlg.apply_button.click()
    qtbot.waitUntil(lambda: w.tools.disclosure.merge_dialog is None, timeout=3000)
    assert w.state.item(items[0].id).status is Status.REJECTED
    assert w.state.item(items[1].id).reason is None
    w.state.undo()                                   # the merge is one step
    assert {it.key: (it.status, it.reason) for it in w.state} == a_state


def test_xfdf_one_redact_per_masked_item_and_import(qtbot, make_window, tmp_path):
    pdf = make_pdf(tmp_path / "notice.pdf", [["담당자 김민준 주무관 안내문", "강남구청 민원실 이서연"]],
                   font=REPO_FONT, meta=False)
    w = make_window()
    assert open_and_detect(qtbot, w, pdf) is False
    assert w.tools.disclosure.actions["export_xfdf"].isEnabled()
    _accept_all(w)
    accepted = [it for it in w.state if it.status is Status.ACCEPTED]
    assert len(accepted) >= 2
    out = tmp_path / "notice.xfdf"
    assert w.tools.disclosure.export_xfdf(out) == len(accepted)
    from lxml import etree

    root = etree.fromstring(out.read_bytes())
    assert len(root.findall(".//{*}redact")) == len(accepted)
    keys = {it.key for it in accepted}
    w.state.set_status([it.id for it in w.state], Status.PENDING)
    assert w.tools.disclosure.import_xfdf(out) >= 1
    now = {it.key for it in w.state if it.status is Status.ACCEPTED}
    assert now and all(any(k[0] <= a < k[1] or a <= k[0] < b for a, b, _ in now) for k in keys)


def test_text_document_refuses_xfdf_with_a_message(qtbot, make_window, doc, tmp_path):
    w = make_window()
    assert open_and_detect(qtbot, w, doc) is False
    assert not w.tools.disclosure.actions["export_xfdf"].isEnabled()
    with qtbot.waitSignal(w.errorShown, timeout=3000) as err:
        assert w.tools.disclosure.export_xfdf(tmp_path / "x.xfdf") is None
    assert "PDF" in err.args[0] and not (tmp_path / "x.xfdf").exists()


PAGE = ["민원 처리 결과 통지서 (공통 첨부)", "담당자 김민준 주무관 연락처 010-2222-3333",
        "처리 기한은 접수일로부터 10일 이내입니다."]


def test_same_page_in_three_pdfs_decided_once_applied_to_every_copy(qtbot, make_window, tmp_path):
    from veil_desktop.review.loading import load_for_review
    from veil_desktop.review.workspace import DocStatus

    pdfs = [make_pdf(tmp_path / f"d{i}.pdf", [[f"표지 {i}번 문서 고유 내용입니다 - 문서 {i}", "다른 문장 " * 6], PAGE],
                     font=REPO_FONT, meta=False) for i in range(3)]
    w = make_window()
    with qtbot.waitSignal(w.detectionFinished, timeout=30000):
        w.tools.open_paths([str(p) for p in pdfs])
    # wait for the background detection of the two others (their sessions are written)
    qtbot.waitUntil(lambda: all(e.status not in (DocStatus.QUEUED, DocStatus.DETECTING)
                                for e in w.tools.ws.entries), timeout=60000)
    on_screen = str(w.path)
    page_items = [it for it in w.state if it.label == "PERSON"]
    assert page_items
    w.state.set_status([it.id for it in page_items], Status.ACCEPTED)
    w.state.set_reason([it.id for it in page_items], "6")
    with qtbot.waitSignal(w.tools.disclosure.duplicatesShown, timeout=30000) as shown:
        w.tools.disclosure.actions["duplicates"].trigger()
    dlg = shown.args[0]
    assert len(dlg.groups) == 1 and len(dlg.groups[0].units) == 3
    row = next(r for r, (_g, u) in enumerate(dlg.rows) if u.doc == on_screen)
    dlg.table.selectRow(row)
    dlg.apply_button.click()
    assert "2" in dlg.message.text()
    value = "김민준"
    for p in pdfs:
        if str(p) == on_screen:
            continue
        ld = load_for_review(p, 0.5)
        hits = [it for it in ld.state if ld.state.value(it) == value and it.label == "PERSON"]
        assert hits and all(it.status is Status.ACCEPTED and it.reason == "6" and it.via == "duplicate"
                            for it in hits)
    dlg.done(0)
    QApplication.processEvents()


def test_g_typed_into_the_label_filter_sets_no_reason(qtbot, make_window, doc):
    w = make_window()
    assert open_and_detect(qtbot, w, doc) is False
    first = w.state.in_text_order()[0]
    w.select_item(first.id)
    shown = []
    w.tools.disclosure.chooserShown.connect(shown.append)
    w.label_filter.setFocus()
    qtbot.keyClick(w.label_filter, Qt.Key.Key_G)
    QApplication.processEvents()
    assert shown == [] and w.state.item(first.id).reason is None


def test_disclosure_settings_from_a_hand_edited_file_are_checked():
    from veil_desktop.review.settings import AppSettings

    s, problems = AppSettings.from_json({"reviewer": "  a  b ", "reasons": {"ORGANIZATION": "7호", "PHONE": "x"},
                                         "reason_in_output": "huge", "redaction_log": "yes"})
    assert (s.reviewer, s.reasons, s.reason_in_output, s.redaction_log) == ("a b", {"ORGANIZATION": "7"}, "", False)
    assert len(problems) == 3
    assert s.reason_defaults()["ORGANIZATION"] == "7" and s.reason_defaults()["PERSON"] == "6"
    s2, _ = AppSettings.from_json({"reasons": {"PERSON": "none"}})
    assert s2.reason_defaults()["PERSON"] is None
