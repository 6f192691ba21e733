"""Issue 22, the window: hidden suggestions count as pending everywhere (status bar, workspace list) and
*Export all* shows ONE summary of every document (pending, hidden, partial, unreadable) before writing;
a document whose only undecided suggestions hide below the threshold is exported only with the counted
below-threshold tick. Real window, tiny real model, real files written and re-read."""
from __future__ import annotations

import json

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.fixtures.tiny_model import build_tiny_model
from tests.ui_helpers import show_window
from veil_desktop.review.state import Status
from veil_desktop.review.workspace import SUMMARY_NAME, DocStatus
from veil_desktop.ui.status_line import reviewed_text

ENTITIES = {"홍길동": "PERSON", "이영희": "PERSON"}


@pytest.fixture()
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("m") / "tiny", entities=ENTITIES, score=0.9)


def settled(w):
    return all(e.status not in (DocStatus.QUEUED, DocStatus.DETECTING) for e in w.tools.ws.entries) \
        and not w.tools.background_running and not w.detection.running


def close_boxes(w):
    for box in w.findChildren(QMessageBox):
        box.done(0)


def test_reviewed_text_counts_hidden_as_pending():
    from veil_desktop.detect.span import Span
    from veil_desktop.review.state import ReviewState

    st = ReviewState("홍길동 이영희 김철수 박영수", threshold=0.5)
    st.add_detected([Span(0, 3, "PERSON", 0.9, "model"), Span(4, 7, "PERSON", 0.9, "model"),
                     Span(8, 11, "PERSON", 0.3, "model"), Span(12, 15, "PERSON", 0.2, "model")])
    first = next(iter(st.in_text_order()))
    st.set_status([first.id], Status.ACCEPTED)
    assert reviewed_text(st, st.counts(), "ko") == "검토 25% · 남은 항목 3 (숨김 2)"
    assert reviewed_text(st, st.counts(), "en") == "Reviewed 25% · 3 pending (2 hidden)"
    st.set_threshold(1.0)            # every suggestion hidden: never "100% · 0"
    assert reviewed_text(st, st.counts(), "ko") == "검토 25% · 남은 항목 3 (숨김 3)"
    st.set_status([it.id for it in st if it.status is Status.PENDING], Status.REJECTED)
    assert reviewed_text(st, st.counts(), "ko") == "검토 100% · 남은 항목 0"


def test_threshold_one_then_export_all_needs_the_counted_tick(qtbot, model, tmp_path):
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "a.txt").write_text("담당자 홍길동 과장\n", encoding="utf-8")
    (folder / "b.txt").write_text("수신 이영희 님\n", encoding="utf-8")
    w = show_window(qtbot, model)
    tools = w.tools
    with qtbot.waitSignal(w.detectionFinished, timeout=30000):
        tools.open_paths([folder])
    qtbot.waitUntil(lambda: settled(w), timeout=60000)
    ws = tools.ws
    assert w.path == folder / "a.txt"
    n_a = len(w.state)
    assert n_a >= 1
    # path 1 of the issue: threshold 1.00 hides every suggestion; nothing says "reviewed"
    w.state.set_threshold(1.0)
    w.refresh_status()
    assert w.reviewed_label.text() == f"검토 0% · 남은 항목 {n_a} (숨김 {n_a})"
    tools._update_current_status()
    assert ws[0].status is DocStatus.PENDING and ws[0].pending == n_a
    assert tools.panel.row_texts()[0] == f"a.txt  —  미검토 {n_a}"
    # document b: every suggestion decided
    with qtbot.waitSignal(w.documentLoaded, timeout=10000):
        tools.goto(1)
    w.state.set_status([it.id for it in w.state], Status.ACCEPTED)
    qtbot.waitUntil(lambda: ws[1].status is DocStatus.REVIEWED, timeout=5000)

    out = tmp_path / "out"
    # ONE summary before writing: per-document counts, nothing written yet
    with qtbot.waitSignal(tools.exportAllChecked, timeout=30000) as sig:
        tools.check_export_all(out)
    dlg = sig.args[0]
    assert not out.exists() or not any(out.iterdir())
    rows = dlg.row_texts()
    assert rows[0] == ("a.txt", "내보내지 않음: 숨김 제안 미결정", "—", str(n_a), "—", "—")
    assert rows[1] == ("b.txt", "내보냄", "—", "—", "—", "—")
    assert dlg.below_box.text() == f"기준 점수 미만이라 숨겨진 제안 {n_a}개(문서 1개)를 마스킹하지 않고 내보냅니다"
    assert dlg.count_label.text() == "내보낼 문서 1개, 내보내지 않을 문서 1개"
    # without the tick: a.txt is not exported
    with qtbot.waitSignal(tools.exportAllFinished, timeout=30000) as done:
        dlg.export_button.click()
    summary = done.args[0]
    assert [(r.source.name, r.status) for r in summary.rows] == [("a.txt", "not_reviewed"), ("b.txt", "exported")]
    assert not (out / "a.txt").exists()
    assert (out / "b.txt").read_text("utf-8") == "수신 [인명] 님\n"
    close_boxes(w)

    # with the counted tick: exported, the hidden suggestion left unmasked and recorded
    out2 = tmp_path / "out2"
    with qtbot.waitSignal(tools.exportAllChecked, timeout=30000) as sig:
        tools.check_export_all(out2)
    dlg = sig.args[0]
    dlg.below_box.setChecked(True)
    assert dlg.row_texts()[0][1] == "내보냄"
    assert dlg.count_label.text() == "내보낼 문서 2개, 내보내지 않을 문서 0개"
    with qtbot.waitSignal(tools.exportAllFinished, timeout=30000) as done:
        dlg.export_button.click()
    assert [r.status for r in done.args[0].rows] == ["exported", "exported"]
    assert "홍길동" in (out2 / "a.txt").read_text("utf-8")
    data = json.loads((out2 / SUMMARY_NAME).read_text("utf-8"))
    assert data["documents"][0]["pending_below_threshold"] == n_a
    close_boxes(w)


def test_export_all_copies_failure_is_named_in_korean_and_fixed_from_the_list(qtbot, model, tmp_path):
    from veil_desktop.ui.export_all_dialog import ExportAllResultDialog
    from veil_desktop.ui.hit_list import HitListDialog
    from veil_desktop.ui.i18n import tr

    folder = tmp_path / "inbox"
    folder.mkdir()
    src = folder / "memo.txt"
    src.write_text("수신: 홍길동 귀하.\n담당자 홍길동 주무관\n", encoding="utf-8")
    w = show_window(qtbot, model)
    tools = w.tools
    with qtbot.waitSignal(w.detectionFinished, timeout=30000):
        tools.open_paths([folder])
    qtbot.waitUntil(lambda: settled(w), timeout=60000)
    names = sorted((it for it in w.state if w.state.value(it) == "홍길동"), key=lambda it: it.start)
    assert len(names) == 2
    w.state.set_status([it.id for it in w.state if it.id != names[1].id], Status.ACCEPTED)
    w.state.set_status([names[1].id], Status.REJECTED)     # a copy of an accepted name left in clear
    qtbot.waitUntil(lambda: tools.ws[0].status is DocStatus.REVIEWED, timeout=5000)
    out = tmp_path / "out"
    with qtbot.waitSignal(tools.exportAllFinished, timeout=30000) as done:
        tools.export_all_to(out)
    row = done.args[0].rows[0]
    assert (row.status, row.code, row.copies) == ("failed", "copies", 1) and not (out / "memo.txt").exists()
    dlg = tools.export_all_result
    assert isinstance(dlg, ExportAllResultDialog) and dlg.isVisible()
    # named in the UI language, no English offsets; localised Close button
    assert dlg.row_texts() == [("memo.txt", "내보내지 않음: 마스킹한 값의 사본 1개가 가려지지 않은 채 남아 있습니다")]
    assert [b.text() for b in dlg.buttons.buttons()] == [tr("close", "ko")]
    # fix it from there: the single export's copies list, then written to the same output
    with qtbot.waitSignal(w.copiesFound, timeout=20000):
        dlg.fix_buttons[0].click()
    box = w.findChild(HitListDialog, "copiesList")
    assert box is not None and box.isVisible() and not (out / "memo.txt").exists()
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as fin:
        box.apply_button.click()
    assert fin.args == [str(out / "memo.txt")]
    assert (out / "memo.txt").read_text("utf-8") == "수신: [인명] 귀하.\n담당자 [인명] 주무관\n"
    for d in w.findChildren(type(w.exporter.result_dialog or dlg)):
        d.done(0)
    # a folder scan never queues the tool's own outputs (output + report beside it) nor its summary
    n = len(tools.ws)
    tools.open_paths([out])
    assert len(tools.ws) == n
    close_boxes(w)
