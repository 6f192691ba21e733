"""Exporting when a masked value also occurs unmasked elsewhere: the window asks (mask the copies too, or
cancel) instead of only showing the writer's refusal. Offscreen, real tiny ONNX model, real files.

Also: the export dialog offers only the formats the documents package can write (HWP -> .txt)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QThreadPool, Qt
from PySide6.QtWidgets import QPushButton

from tests.ui_helpers import open_and_detect, show_window, tiny_detector
from veil_desktop.detect.events import SpansFound
from veil_desktop.detect.span import Span
from veil_desktop.documents import EXPORTS, open_document
from veil_desktop.review import ReviewState, Status
from veil_desktop.review.export import PendingPolicy
from veil_desktop.review.settings import AppSettings
from veil_desktop.review.export_job import COPIES_SHOWN, CopiesFound, ExportRequest, export_review
from veil_desktop.ui.dialogs import ExportDialog, export_formats, suggest_output
from veil_desktop.ui.i18n import tr
from veil_desktop.ui.hit_list import HitListDialog

TEXT = "수신: 김민준 귀하.\n담당자 김민준 주무관이 강남구청 민원실에서 처리합니다.\n"
FIRST = TEXT.index("김민준")
SECOND = TEXT.index("김민준", FIRST + 1)


@pytest.fixture
def doc(tmp_path):
    p = tmp_path / "src" / "민원.txt"
    p.parent.mkdir()
    p.write_text(TEXT, encoding="utf-8")
    return p


class MissingDetector:
    """The real tiny-model detector, except that it misses the spans starting at ``miss`` (a detector
    that did not recognise one occurrence)."""

    def __init__(self, inner, miss: set[int]) -> None:
        self.inner, self.id, self.labels, self.miss = inner, inner.id, inner.labels, miss

    def stream(self, text, *, cancelled, first=None):
        for ev in self.inner.stream(text, cancelled=cancelled, first=first):
            if isinstance(ev, SpansFound):
                ev = SpansFound(tuple(s for s in ev.spans if s.start not in self.miss))
            yield ev

    def detect(self, text):
        return [s for s in self.inner.detect(text) if s.start not in self.miss]


@pytest.fixture
def make_window(qtbot, model_dir):
    windows = []

    def make(miss: set[int] | None = None):
        det = tiny_detector(model_dir)
        if miss:
            det = MissingDetector(det, miss)
        w = show_window(qtbot, det)
        windows.append(w)
        return w

    yield make
    for w in windows:
        w.stop_detection()
    QThreadPool.globalInstance().waitForDone(10000)


def person_items(w):
    return sorted((it for it in w.state if w.state.value(it) == "김민준"), key=lambda it: it.start)


def export_until_question(qtbot, w, out) -> HitListDialog:
    """Start an export; it must stop at the copies hit list (nothing written yet)."""
    with qtbot.waitSignal(w.copiesFound, timeout=20000) as blocker:
        w.export_to(out, styles={"PERSON": "tag", "ORGANIZATION": "tag"}, policy="block", tag_lang="en")
    assert blocker.args == [1]
    box = w.findChild(HitListDialog, "copiesList")
    assert box is not None and box.isVisible()
    assert not out.exists()
    return box


def click(qtbot, box, name: str) -> None:
    button = box.findChild(QPushButton, name)
    assert button is not None
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_rejected_copy_mask_too_accepts_it_and_exports_both_masked(qtbot, make_window, doc, tmp_path):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    first, second = person_items(w)
    assert (first.start, second.start) == (FIRST, SECOND)
    w.state.set_status([it.id for it in w.state if it.id != second.id], Status.ACCEPTED)
    w.state.set_status([second.id], Status.REJECTED)  # the reviewer rejected one copy of an accepted name

    out = tmp_path / "masked.txt"
    box = export_until_question(qtbot, w, out)
    # the list names the count and shows the copy in context (Korean UI by default), checked
    assert "1곳" in box.head.text()
    assert [h.context for h in box.hits] == [h.context for h in box.checked_hits()]
    assert "담당자 [김민준] 주무관이" in box.hits[0].context
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        click(qtbot, box, "hitsApply")
    assert blocker.args == [str(out)]
    masked = out.read_text(encoding="utf-8")
    assert masked == TEXT.replace("김민준", "[PERSON]").replace("강남구청", "[ORGANIZATION]")
    assert doc.read_text(encoding="utf-8") == TEXT
    # the review now says what was masked: the rejected copy is accepted, as one undo step
    assert w.state.item(second.id).status is Status.ACCEPTED
    assert w.state.pending_count() == 0
    w.state.undo()
    assert w.state.item(second.id).status is Status.REJECTED
    assert w.state.item(first.id).status is Status.ACCEPTED


def test_missed_copy_becomes_accepted_item_in_table(qtbot, make_window, doc, tmp_path):
    w = make_window(miss={SECOND})  # the detector did not find the second 김민준
    open_and_detect(qtbot, w, doc)
    assert [it.start for it in person_items(w)] == [FIRST]
    w.state.set_status([it.id for it in w.state], Status.ACCEPTED)
    n_before = len(w.state)
    qtbot.waitUntil(lambda: w.proxy.rowCount() == n_before, timeout=3000)

    out = tmp_path / "masked.txt"
    box = export_until_question(qtbot, w, out)
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        click(qtbot, box, "hitsApply")
    assert blocker.args == [str(out)]
    assert out.read_text(encoding="utf-8").count("[PERSON]") == 2
    assert "김민준" not in out.read_text(encoding="utf-8")
    report = json.loads(Path(str(out) + ".report.json").read_text(encoding="utf-8"))
    assert "김민준" not in json.dumps(report, ensure_ascii=False)

    copy = w.state.find(SECOND, SECOND + 3, "PERSON")
    assert copy is not None and copy.status is Status.ACCEPTED
    assert copy.source == "model"  # the source of the masked item whose value it repeats
    assert len(w.state) == n_before + 1
    qtbot.waitUntil(lambda: w.proxy.rowCount() == n_before + 1, timeout=3000)  # the table shows it
    w.state.undo()
    assert w.state.find(SECOND, SECOND + 3, "PERSON") is None and len(w.state) == n_before


def test_cancel_writes_nothing_and_keeps_the_review(qtbot, make_window, doc, tmp_path):
    w = make_window()
    open_and_detect(qtbot, w, doc)
    first, second = person_items(w)
    w.state.set_status([it.id for it in w.state if it.id != second.id], Status.ACCEPTED)
    w.state.set_status([second.id], Status.REJECTED)
    before = {it.id: it for it in w.state}

    out = tmp_path / "masked.txt"
    box = export_until_question(qtbot, w, out)
    with qtbot.waitSignal(w.exportFinished, timeout=5000) as blocker:
        click(qtbot, box, "hitsCancel")
    assert blocker.args == [""]
    assert w.last_error == tr("copies.cancelled", w.lang)
    assert not out.exists() and not Path(str(out) + ".report.json").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]  # no temp file either
    assert {it.id: it for it in w.state} == before


def test_export_review_reports_copies_on_the_pool_side_and_caps_examples(tmp_path):
    text = "".join(f"{i}번 김민준 님.\n" for i in range(7))
    src = tmp_path / "a.txt"
    src.write_text(text, encoding="utf-8")
    doc = open_document(src)
    st = ReviewState(doc.text)
    st.add_detected([Span(text.index("김민준"), text.index("김민준") + 3, "PERSON", 0.9, "rule")],
                    status=Status.ACCEPTED)
    out = tmp_path / "out.txt"
    res = export_review(doc, st, ExportRequest(out, {}, "tag", PendingPolicy.BLOCK))
    assert isinstance(res, CopiesFound) and res.count == 6
    assert [(s.label, s.source, s.score) for s in res.spans] == [("PERSON", "rule", 0.9)] * 6
    assert [text[s.start:s.end] for s in res.spans] == ["김민준"] * 6
    assert len(res.examples) == COPIES_SHOWN
    assert all("\n" not in ctx and "[김민준]" in ctx for _part, ctx in res.examples)
    assert not out.exists()


def test_suggest_output_for_hwp_is_hwp_and_dialog_offers_documents_formats(qtbot, tmp_path):
    assert suggest_output(tmp_path / "공문.hwp", "hwp") == tmp_path / "공문.masked.hwp"
    assert suggest_output(tmp_path / "공문.HWPX", "hwpx") == tmp_path / "공문.masked.HWPX"
    assert suggest_output(tmp_path / "a.pdf", "pdf") == tmp_path / "a.masked.pdf"
    assert export_formats("hwp") == EXPORTS["hwp"] == ("hwp", "txt")

    st = ReviewState("김민준")
    st.add_detected([Span(0, 3, "PERSON", 0.9)], status=Status.ACCEPTED)
    src = tmp_path / "공문.hwp"
    dlg = ExportDialog(None, st, AppSettings(), src, None, "en")
    qtbot.addWidget(dlg)
    assert dlg.out_path() == tmp_path / "공문.masked.hwp"
    assert dlg.ok_button.isEnabled() and dlg.message.text() == ""
    dlg.set_out_path(tmp_path / "공문.masked.hwpx")  # the writer would refuse it: so does the dialog
    assert not dlg.ok_button.isEnabled() and ".txt" in dlg.message.text()
    dlg.set_out_path(tmp_path / "other.txt")
    assert dlg.ok_button.isEnabled() and dlg.message.text() == ""


def test_copy_inside_a_word_is_listed_unchecked_and_masked_as_the_whole_word(qtbot, make_window, tmp_path):
    """강남구청 masked; its copy inside the signature 강남구청장 must not become "[기관]장" or "****장"
    by default: it is listed unchecked; checked, the whole word is masked; unchecked, nothing is written."""
    text = "강남구청 민원실에서 처리합니다.\n\n강남구청장\n"
    src = tmp_path / "src" / "서명.txt"
    src.parent.mkdir()
    src.write_text(text, encoding="utf-8")
    sig = text.index("강남구청장")
    w = make_window(miss={sig})
    open_and_detect(qtbot, w, src)
    assert [w.state.value(it) for it in w.state] == ["강남구청"]
    w.state.set_status([it.id for it in w.state], Status.ACCEPTED)
    out = tmp_path / "서명.masked.txt"
    box = export_until_question(qtbot, w, out)
    assert len(box.hits) == 1 and not box.hits[0].whole_word
    assert "[강남구청]장" in box.hits[0].context
    assert box.is_shown(0) and box.checked_hits() == []      # listed, unchecked
    assert not box.apply_button.isEnabled()
    # going back writes nothing
    with qtbot.waitSignal(w.exportFinished, timeout=5000) as blocker:
        click(qtbot, box, "hitsCancel")
    assert blocker.args == [""] and not out.exists()
    # checked: the whole word is masked, as one accepted item
    box = export_until_question(qtbot, w, out)
    box.set_checked(0, True)
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        click(qtbot, box, "hitsApply")
    assert blocker.args == [str(out)]
    assert out.read_text(encoding="utf-8") == "[ORGANIZATION] 민원실에서 처리합니다.\n\n[ORGANIZATION]\n"
    assert w.state.find(sig, sig + 5, "ORGANIZATION").status is Status.ACCEPTED
