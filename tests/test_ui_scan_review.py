"""Scans in review (issue 22): an OCR'd document shows a banner with its pages and mean OCR confidence
(both languages) while it is reviewed, and a scan the batch CLI holds back as *needs review* (a page OCR
could not read) is not exported from the window until each such page is confirmed in the summary.
Real tesseract OCR over drawn pages, the real window and tiny real model, real files written."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from PIL import Image

from tests.fixtures.tiny_model import build_tiny_model
from tests.test_documents_image import NAME, as_bytes, draw_page
from tests.ui_helpers import open_and_detect, show_window
from veil_desktop.review.export import PendingPolicy
from veil_desktop.review.state import Status


@pytest.fixture()
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("m") / "tiny", entities={NAME: "PERSON"}, score=0.9)


def noise_page() -> Image.Image:
    rnd = random.Random(1)
    return Image.frombytes("L", (800, 600), bytes(rnd.choice((0, 255)) for _ in range(800 * 600))).convert("RGB")


def test_ocr_banner_and_per_page_confirmation(qtbot, model, tmp_path):
    path = tmp_path / "scan.tif"
    path.write_bytes(as_bytes(draw_page(), "TIFF", save_all=True, append_images=[noise_page()]))
    w = show_window(qtbot, model)
    assert open_and_detect(qtbot, w, path, timeout=60000) is False
    ocr = w.document.extra["ocr"]
    conf = f"{float(ocr['mean_confidence']):.0f}"
    label = w.banner.ocr_label
    assert w.banner.isVisible() and label.isVisible()
    assert label.text().startswith(f"🔍 OCR로 읽은 문서입니다: 2쪽, 평균 신뢰도 {conf}%.")
    w.banner.set_language("en")
    assert label.text().startswith(f"🔍 This document was read by OCR: 2 page(s), mean confidence {conf}%.")
    w.banner.set_language("ko")
    assert w.review.held_items("ko") == ("2쪽: 글자를 읽지 못했습니다(OCR 신뢰도 낮음) — 직접 확인하세요",)

    w.state.set_status([it.id for it in w.state], Status.ACCEPTED)
    out = tmp_path / "scan.masked.tif"
    # without the per-page confirmation: refused, nothing written
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        w.export_to(out, policy="block")
    assert blocker.args == [""] and not out.exists() and "검토가 필요한 부분 1곳" in w.last_error
    # the summary lists the page; Export stays disabled until it is ticked
    dlg = w.exporter.review_and_export(out, styles={}, default_style="tag", policy=PendingPolicy.BLOCK,
                                       tag_lang="ko")
    assert [b.text() for b in dlg.held_boxes] == [
        "원본에서 직접 확인했습니다: 2쪽: 글자를 읽지 못했습니다(OCR 신뢰도 낮음) — 직접 확인하세요"]
    assert not dlg.export_button.isEnabled()
    dlg.held_boxes[0].setChecked(True)
    assert dlg.export_button.isEnabled()
    with qtbot.waitSignal(w.exportFinished, timeout=120000) as done:
        dlg.export_button.click()
    assert done.args == [str(out)] and out.is_file()
    report = json.loads(Path(str(out) + ".report.json").read_text("utf-8"))
    assert report["review"]["needs_review_confirmed"] == 1
    if w.exporter.result_dialog is not None:
        w.exporter.result_dialog.done(0)
