"""The dialogs around an export and bulk actions, built standalone: styles per label with honest
examples, tag language, the summary before writing (blockers need explicit ticks), the result after
writing, the question before replacing a file, and the checkable hit list (whole words by default)."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QThreadPool, Qt
from PySide6.QtWidgets import QDialogButtonBox

from veil_desktop.detect.span import Span
from veil_desktop.documents import export_document, open_document
from veil_desktop.review import AppSettings, PendingPolicy, ReviewState, Status, build_plan
from veil_desktop.review.hits import accept_above_hits, copy_spans, hits_for_spans, occurrence_hits
from veil_desktop.review.summary import DetectionStatus, build_summary
from veil_desktop.ui.dialogs import ExportDialog, SettingsDialog, translate_buttons
from veil_desktop.ui.export_summary import ExportResultDialog, ExportSummaryDialog, overwrite_box
from veil_desktop.ui.hit_list import HitListDialog

TEXT = "검토자 김민준이 작성. 주민번호 900101-1234567. 마포구청장 직인. 마포구청에 제출. 김민준 확인."


@pytest.fixture(autouse=True)
def _drain_pool():
    yield
    QThreadPool.globalInstance().waitForDone(10000)


def at(value, nth=0):
    i = -1
    for _ in range(nth + 1):
        i = TEXT.index(value, i + 1)
    return i, i + len(value)


def make_state():
    st = ReviewState(TEXT)
    spans = [Span(*at("토자"), "PERSON", 0.55), Span(*at("김민준"), "PERSON", 0.95),
             Span(*at("900101-1234567"), "RRN", 0.85, "rule"), Span(*at("마포구청", 1), "ORGANIZATION", 0.9),
             Span(*at("김민준", 1), "PERSON", 0.93)]
    st.add_detected(spans)
    return st


def test_style_dropdowns_offer_per_label_styles_with_examples_and_korean_tags(qtbot, tmp_path):
    st = make_state()
    dlg = ExportDialog(None, st, AppSettings(styles={"ORGANIZATION": "partial"}), tmp_path / "a.txt", None, "ko")
    qtbot.addWidget(dlg)
    assert dlg.tag_lang() == "ko"                      # a Korean document: Korean tags by default
    rrn = dlg.style_texts("RRN")
    assert rrn == ["태그 → [주민등록번호]", "별표 → **************", "일부 유지 → 900101-*******", "가명 → 주민번호1"]
    assert not any("김**" in t for t in rrn)          # no "keep surname" for an RRN
    assert dlg.style_texts("PERSON")[2] == "일부 유지 → 김**"
    # partial makes no sense for an organisation: not offered; the old setting falls back to the tag
    assert [t.split(" → ")[0] for t in dlg.style_texts("ORGANIZATION")] == ["태그", "별표", "가명"]
    assert dlg.styles()["ORGANIZATION"] == "tag"
    with pytest.raises(ValueError):
        dlg.set_style("ORGANIZATION", "partial")
    dlg.set_policy(PendingPolicy.ACCEPT)
    dlg.update_preview()
    assert "[주민등록번호]" in dlg.preview.toPlainText() and "[기관]에 제출" in dlg.preview.toPlainText()
    dlg.set_tag_lang("en")                             # English as an option
    dlg.update_preview()
    assert dlg.style_texts("RRN")[0] == "태그 → [RRN]"
    assert "[RRN]" in dlg.preview.toPlainText() and "[ORGANIZATION]에 제출" in dlg.preview.toPlainText()


def test_export_dialog_always_starts_from_block(qtbot, tmp_path):
    st = make_state()
    # an earlier export chose "treat pending as accepted": it must not carry over
    dlg = ExportDialog(None, st, AppSettings(pending_policy="accept"), tmp_path / "a.txt", None, "en")
    qtbot.addWidget(dlg)
    assert dlg.policy() is PendingPolicy.BLOCK and not dlg.ok_button.isEnabled()


def test_summary_dialog_needs_explicit_choices_for_partial_and_below_threshold(qtbot, tmp_path):
    st = make_state()
    st.set_status([it.id for it in st if it.score >= 0.9], Status.ACCEPTED)
    st.set_threshold(0.9)                              # hides 토자 (0.55) and the RRN (0.85)
    summary = build_summary(st, PendingPolicy.BLOCK, DetectionStatus.CANCELLED)
    dlg = ExportSummaryDialog(None, summary, tmp_path / "a.masked.txt", "en")
    qtbot.addWidget(dlg)
    assert not dlg.export_button.isEnabled()
    assert "Detection has not finished" in dlg.findChild(type(dlg.message), "detectionWarning").text()
    below = dlg.findChild(type(dlg.message), "belowWarning").text()
    assert below == "2 suggestions under 0.90 will stay unmasked."
    table = dlg.table
    header = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert header == ["Label", "Accepted (masked)", "Rejected (kept)", "Pending", "Below threshold", "Manual"]
    rows = {table.item(r, 0).text(): [table.item(r, c).text() for c in range(1, 6)]
            for r in range(table.rowCount())}
    assert rows["Person"] == ["2", "0", "0", "1", "0"]
    assert rows["Resident reg. no."] == ["0", "0", "0", "1", "0"]
    assert rows["Total"] == ["3", "0", "0", "2", "0"]
    dlg.partial_box.setChecked(True)
    assert not dlg.export_button.isEnabled()           # still the threshold question
    dlg.below_box.setChecked(True)
    assert dlg.export_button.isEnabled() and dlg.blockers() == []
    assert summary.report_fields(partial_ok=dlg.partial_ok())["partial_export"] is True
    # the Back button is the default: Enter never writes
    back = dlg.findChild(type(dlg.export_button), "summaryBack")
    assert back.isDefault() and not dlg.export_button.isDefault()


def test_summary_dialog_blocks_on_pending_under_block_policy(qtbot, tmp_path):
    st = make_state()
    summary = build_summary(st, PendingPolicy.BLOCK, DetectionStatus.COMPLETE)
    dlg = ExportSummaryDialog(None, summary, tmp_path / "a.masked.txt", "ko")
    qtbot.addWidget(dlg)
    assert dlg.partial_box is None and dlg.below_box is None
    assert not dlg.export_button.isEnabled() and "미검토 항목 5개" in dlg.message.text()


def test_result_dialog_shows_path_leak_check_and_opens_the_folder(qtbot, tmp_path):
    src = tmp_path / "in.txt"
    src.write_text(TEXT, encoding="utf-8")
    doc = open_document(src)
    st = ReviewState(doc.text)
    st.add_detected([Span(*at("김민준"), "PERSON", 0.95), Span(*at("김민준", 1), "PERSON", 0.95)])
    st.set_status([it.id for it in st], Status.ACCEPTED)
    res = export_document(doc, build_plan(st, None, "block", lang="ko"), tmp_path / "in.masked.txt")
    dlg = ExportResultDialog(None, res, "ko", review={"partial_export": True, "detection": "cancelled",
                                                      "pending_below_threshold": 2, "text_chars": 300028,
                                                      "unchecked_chars": 296099, "coverage": 0.0131})
    qtbot.addWidget(dlg)
    assert dlg.findChild(type(dlg.leak_label), "outputPath").text() == str(tmp_path / "in.masked.txt")
    # a partial export: never a green "clean"; the part never checked said in words (issue 22, path 2)
    assert dlg.leak_label.text() == ("누출 검사: 마스킹한 값 1개는 결과 파일에 남아 있지 않습니다. "
                                     "그러나 탐지하지 않은 부분은 검사하지 않았습니다.")
    assert "#106010" not in dlg.leak_label.styleSheet()
    assert dlg.findChild(type(dlg.leak_label), "uncheckedNote").text() == (
        "문서의 1.3%만 탐지했습니다. 나머지 296,099자(전체 300,028자 중)는 개인정보를 검사하지 않았으므로 "
        "그대로 남아 있을 수 있습니다.")
    full = ExportResultDialog(None, res, "en", review={})
    qtbot.addWidget(full)
    assert full.leak_label.text().startswith("Leak check: clean") and "#106010" in full.leak_label.styleSheet()
    assert full.findChild(type(dlg.leak_label), "uncheckedNote") is None
    assert "취소됨" in dlg.findChild(type(dlg.leak_label), "partialNote").text()
    assert dlg.folder_url().toLocalFile() == str(tmp_path)
    assert dlg.open_button.text() == "폴더 열기"
    dlg.show()
    qtbot.wait(50)
    assert dlg.isVisible()                             # stays until dismissed (no timer closes it)


def test_overwrite_box_defaults_to_cancel_and_is_translated(qtbot, tmp_path):
    box = overwrite_box(None, tmp_path / "a.masked.docx", "ko")
    qtbot.addWidget(box)
    assert box.defaultButton() is box.escapeButton()
    assert box.defaultButton().text() == "취소" and box.replace_button.text() == "바꾸기"
    assert "a.masked.docx" in box.text()


def test_standard_buttons_are_translated(qtbot):
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    qtbot.addWidget(buttons)
    translate_buttons(buttons, "ko")
    assert buttons.button(QDialogButtonBox.StandardButton.Ok).text() == "확인"
    assert buttons.button(QDialogButtonBox.StandardButton.Cancel).text() == "취소"
    dlg = SettingsDialog(None, AppSettings(), "ko")
    qtbot.addWidget(dlg)
    assert dlg.ok_button.text() == "확인"


def test_hit_list_checks_whole_words_and_lists_fragments_unchecked(qtbot):
    st = make_state()
    hits = accept_above_hits(st, 0.5)
    assert [h.context.split("[")[1].split("]")[0] for h in hits] == ["토자", "김민준", "900101-1234567", "마포구청", "김민준"]
    assert [h.whole_word for h in hits] == [False, True, True, True, True]   # 검[토자] is inside a word
    dlg = HitListDialog(None, "t", hits, "accept", "en")
    qtbot.addWidget(dlg)
    assert not dlg.is_shown(0) and len(dlg.checked_hits()) == 4
    assert dlg.apply_button.text() == "Accept 4 checked"
    dlg.include_partial.setChecked(True)
    assert dlg.is_shown(0) and len(dlg.checked_hits()) == 4     # shown, still unchecked
    dlg.set_checked(2, False)
    assert [h.item_id for h in dlg.checked_hits()] == [hits[1].item_id, hits[3].item_id, hits[4].item_id]
    dlg.set_all(False)
    assert not dlg.apply_button.isEnabled()
    assert dlg.findChild(type(dlg.apply_button), "hitsCancel").isDefault()


def test_copies_inside_words_mask_the_whole_word_not_a_fragment(qtbot):
    st = ReviewState(TEXT)
    a, b = at("마포구청", 1)
    st.add_detected([Span(a, b, "ORGANIZATION", 0.9)])
    st.set_status([st.item_at_row(0).id], Status.ACCEPTED)
    copy = Span(*at("마포구청"), "ORGANIZATION", 0.9)   # inside 마포구청장
    hits = hits_for_spans(st, [copy])
    assert hits[0].context.startswith("…") and "[마포구청]장" in hits[0].context and not hits[0].whole_word
    dlg = HitListDialog(None, "t", hits, "mask", "ko", copies=True)
    qtbot.addWidget(dlg)
    assert dlg.is_shown(0) and dlg.checked_hits() == []       # listed, unchecked
    assert "단어 전체" in dlg.where_text(0)
    dlg.set_checked(0, True)
    spans = copy_spans(dlg.checked_hits())
    assert TEXT[spans[0].start:spans[0].end] == "마포구청장"              # never "****장"


def test_occurrence_hits_list_every_occurrence_with_context():
    st = make_state()
    kim = st.find(*at("김민준"), "PERSON")
    hits = occurrence_hits(st, [kim])
    assert [h.item_id for h in hits] == [kim.id, st.find(*at("김민준", 1), "PERSON").id]
    assert hits[0].context.startswith("검토자 [김민준]이")


def test_settings_dialog_sets_the_default_threshold_for_new_documents(qtbot):
    dlg = SettingsDialog(None, AppSettings(threshold=0.5), "ko")
    qtbot.addWidget(dlg)
    box = dlg.findChild(type(dlg.default_threshold), "defaultThreshold")
    assert box.value() == pytest.approx(0.5)
    box.setValue(0.7)
    assert dlg.result_settings().threshold == pytest.approx(0.7)


def test_banner_shows_incomplete_detection_and_unreadable_pages(qtbot):
    from types import SimpleNamespace

    from veil_desktop.documents.model import Unreadable
    from veil_desktop.ui.banner import StatusBanner, unreadable_captions

    banner = StatusBanner()
    qtbot.addWidget(banner)
    assert banner.isHidden()                          # nothing to say: hidden
    banner.set_incomplete("cancelled", 12)
    assert not banner.isHidden() and "취소됨" in banner.incomplete_text and "12개" in banner.incomplete_text
    banner.set_language("en")
    assert "cancelled" in banner.incomplete_text and banner.rerun_button.text() == "Run again (F5)"
    with qtbot.waitSignal(banner.rerunRequested, timeout=1000):
        banner.rerun_button.click()
    banner.set_incomplete(None)
    assert banner.isHidden()
    doc = SimpleNamespace(unreadable=(Unreadable("page 2", "no_text_layer", "2쪽: 텍스트 층 없음 (스캔)",
                                                 "page 2: no text layer (scan)", 2),), extra={})
    banner.set_unreadable(unreadable_captions(doc, "en"))
    assert not banner.isHidden() and "page 2: no text layer" in banner.unreadable_label.text()
    assert unreadable_captions(doc, "ko") == "2쪽: 텍스트 층 없음 (스캔)"
    assert unreadable_captions(SimpleNamespace(extra={"unreadable_pages": [3]}), "ko") == "3"


def test_hit_list_model_toggles_like_a_click_and_passes_the_model_checker(qtbot, qtmodeltester):
    st = make_state()
    dlg = HitListDialog(None, "t", accept_above_hits(st, 0.0), "accept", "en", min_score=0.9)
    qtbot.addWidget(dlg)
    qtmodeltester.check(dlg.model)
    # 0.9 and up: 김민준 ×2, 마포구청 (the RRN is 0.85, 토자 is inside a word)
    assert dlg.model.rowCount() == 3 and len(dlg.checked_hits()) == 3
    idx = dlg.model.index(0, 0)
    assert dlg.model.setData(idx, Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole)
    assert len(dlg.checked_hits()) == 2 and dlg.apply_button.text() == "Accept 2 checked"
    assert dlg.model.data(idx, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    dlg.set_min_score(0.8)
    assert dlg.model.rowCount() == 4 and dlg.head.text().startswith("4 places")
