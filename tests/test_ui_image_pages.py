"""An image (OCR'd) in the window: its OCR text is reviewed like any text, and the page view shows the
scan with each item's box over the pixels the value was drawn at (OCR boxes in source pixels)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.fixtures.tiny_model import build_tiny_model
from tests.test_documents_image import NAME, as_bytes, draw_page
from tests.ui_helpers import open_and_detect, show_window


@pytest.fixture()
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("m") / "tiny", entities={NAME: "PERSON"}, score=0.9)


def test_png_page_view_boxes_over_the_drawn_value(qtbot, model, tmp_path):
    page = draw_page()
    path = tmp_path / "scan.png"
    path.write_bytes(as_bytes(page, "PNG"))
    w = show_window(qtbot, model)
    assert open_and_detect(qtbot, w, path) is False
    values = {w.state.value(it): it for it in w.state}
    assert NAME in values and "900101-1234567" in values   # model span + RRN rule on the OCR text
    with qtbot.waitSignal(w.tools.pagesReady, timeout=10000):
        qtbot.keyClick(w.view, Qt.Key.Key_F6)
    view = w.tools.pages
    assert w.tools.stack.currentWidget() is view and view.page_count == 1
    (p, rect), = view.boxes_of(values[NAME].id)
    # draw_page puts the name after "성명: " on the first line, at x 80.., y 60..100 (source pixels)
    assert p == 0 and 120 <= rect.left() <= 200 and 220 <= rect.right() <= 300
    assert 50 <= rect.top() and rect.bottom() <= 110
    # the box lies over dark (ink) pixels of the source image
    crop = page.convert("L").crop((int(rect.left()), int(rect.top()), int(rect.right()), int(rect.bottom())))
    assert sum(v < 128 for v in crop.tobytes()) / len(crop.tobytes()) > 0.1
    qtbot.keyClick(view, Qt.Key.Key_F6)
    assert w.tools.stack.currentWidget() is w.view


def test_scan_opening_shows_ocr_progress_and_cancels(qtbot, model, tmp_path):
    pages = [draw_page(), draw_page(lines=["둘째 쪽"]), draw_page(lines=["셋째 쪽"])]
    path = tmp_path / "three.tif"
    path.write_bytes(as_bytes(pages[0], "TIFF", save_all=True, append_images=pages[1:]))
    w = show_window(qtbot, model)
    seen = []
    w.openProgress.connect(lambda job, done, total: seen.append((done, total)))
    # cancel as soon as the first page is reported: a clear message, no document, the progress bar gone
    errors = []
    w.errorShown.connect(errors.append)
    w.openProgress.connect(lambda job, done, total: done == 1 and w.cancel_detection())
    w.open_path(path)
    qtbot.waitUntil(lambda: bool(errors), timeout=60000)
    assert "cancelled" in errors[0].lower() or "취소" in errors[0]
    assert w.document is None and not w.progress.isVisible()
    assert seen[:2] == [(0, 3), (1, 3)] and (3, 3) not in seen
    # opened again without cancelling: every page reported, three parts
    w.openProgress.disconnect()
    seen.clear()
    w.openProgress.connect(lambda job, done, total: seen.append((done, total)))
    assert open_and_detect(qtbot, w, path) is False
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)] and len(w.document.parts) == 3
