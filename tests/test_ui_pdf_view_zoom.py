"""The page view (ui/pdf_view.py) honours a page's /Rotate and zooms (issue 24): a real PDF made here (fpdf2,
then turned with pdfium's /Rotate), opened in the real window, F6; each item's box lands on its glyphs' dark
pixels in the rendered page and on screen, at fit width and after Ctrl+= / Ctrl+wheel / Ctrl+0."""
from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from tests.fixtures.tiny_model import build_tiny_model
from tests.test_documents_pdf import REPO_FONT
from tests.ui_helpers import open_and_detect, show_window
from veil_desktop.ui.pdf_view import ZOOM_STEP, rotate_rect

SIZE = 20.0
LINES = [(72.0, 100.0, "담당 홍길동 주무관"), (150.0, 300.0, "참석 이영희"), (72.0, 500.0, "plain text line")]


def build(path: Path, rotation: int) -> Path:
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_font("K", "", str(REPO_FONT))
    pdf.set_font("K", size=SIZE)
    pdf.add_page()
    for x, baseline, line in LINES:
        pdf.text(x, baseline, line)
    doc = pdfium.PdfDocument(bytes(pdf.output()))
    page = doc[0]
    page.set_rotation(rotation)
    page.close()
    buf = io.BytesIO()
    doc.save(buf)
    doc.close()
    path.write_bytes(buf.getvalue())
    return path


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("m") / "tiny",
                            entities={"홍길동": "PERSON", "이영희": "PERSON"}, score=0.9)


def _open_pages(qtbot, model, path):
    w = show_window(qtbot, model)
    w.resize(1000, 760)
    assert open_and_detect(qtbot, w, path) is False
    values = {w.state.value(it): it for it in w.state}
    assert set(values) == {"홍길동", "이영희"}
    with qtbot.waitSignal(w.tools.pagesReady, timeout=10000):
        qtbot.keyClick(w.view, Qt.Key.Key_F6)
    view = w.tools.pages
    assert w.tools.stack.currentWidget() is view and view.page_count == 1
    return w, view, values


def _rendered(qtbot, view):
    """The page as rendered at the view's scale (the scale may still change while the scroll bar appears)."""
    qtbot.waitUntil(lambda: (0, round(view.scale, 4)) in view._images, timeout=10000)
    return view._images[(0, round(view.scale, 4))]


def _dark_in_image(image, rect, scale) -> float:
    """Share of dark pixels of the rendered page under ``rect`` (shown-page points)."""
    xs = range(max(0, int(rect.left() * scale)), min(image.width(), int(rect.right() * scale)))
    ys = range(max(0, int(rect.top() * scale)), min(image.height(), int(rect.bottom() * scale)))
    px = [image.pixelColor(x, y).lightness() for x in xs for y in ys]
    return sum(v < 128 for v in px) / max(1, len(px))


def _dark_on_screen(view, rect) -> float:
    """Share of dark pixels of what the view painted inside ``rect`` (viewport pixels; the box's outline,
    drawn around it, is left out)."""
    rect = rect.adjusted(2, 2, -2, -2)
    img = view.viewport().grab().toImage()
    ratio = img.width() / view.viewport().width()
    xs = range(max(0, int(rect.left() * ratio)), min(img.width(), int(rect.right() * ratio)))
    ys = range(max(0, int(rect.top() * ratio)), min(img.height(), int(rect.bottom() * ratio)))
    px = [img.pixelColor(x, y).lightness() for x in xs for y in ys]
    return sum(v < 100 for v in px) / max(1, len(px))


#: a patch of blank paper (unrotated page points, right of and below every line of text)
BLANK = (420.0, 680.0, 60.0, 60.0)


def _on_screen_aligned(qtbot, view, item) -> None:
    """The item's box, as painted, holds its glyphs' ink; blank paper, painted through the same mapping,
    holds none."""
    from PySide6.QtCore import QRectF

    view.show_current(item)
    qtbot.waitUntil(lambda: (0, round(view.scale, 4)) in view._images, timeout=10000)
    qtbot.wait(50)
    (page, rect), = view.boxes_of(item.id)
    assert _dark_on_screen(view, view.to_widget(page, rect)) > 0.04
    blank = view.to_widget(page, QRectF(*BLANK))          # scrolled into the middle of the view
    hbar, vbar = view.horizontalScrollBar(), view.verticalScrollBar()
    hbar.setValue(int(hbar.value() + blank.center().x() - view.viewport().width() / 2))
    vbar.setValue(int(vbar.value() + blank.center().y() - view.viewport().height() / 2))
    qtbot.wait(50)
    blank = view.to_widget(page, QRectF(*BLANK))
    assert view.viewport().rect().intersects(blank.toRect())
    assert _dark_on_screen(view, blank) == 0.0
    view.show_current(item)


def test_rotate_rect_turns_the_page_clockwise():
    # a point near the unrotated top-left corner of a 100 x 200 page
    assert rotate_rect((10, 20, 30, 40), 100, 200, 90) == (160, 10, 180, 30)     # top-right when shown
    assert rotate_rect((10, 20, 30, 40), 100, 200, 180) == (70, 160, 90, 180)
    assert rotate_rect((10, 20, 30, 40), 100, 200, 270) == (20, 70, 40, 90)     # bottom-left
    assert rotate_rect((10, 20, 30, 40), 100, 200, 0) == (10, 20, 30, 40)


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_boxes_land_on_the_glyphs_of_a_rotated_page(qtbot, model, tmp_path, rotation):
    path = build(tmp_path / f"rot{rotation}.pdf", rotation)
    w, view, values = _open_pages(qtbot, model, path)
    image = _rendered(qtbot, view)
    # the page is shown turned: 90/270 make an A4 page landscape
    assert (image.width() > image.height()) == (rotation in (90, 270))
    for value, item in values.items():
        (page, rect), = view.boxes_of(item.id)
        shown = view.shown_rect(page, rect)
        # a horizontal word becomes a vertical box on a page turned a quarter
        assert (shown.height() > shown.width()) == (rotation in (90, 270)), (value, shown)
        assert _dark_in_image(image, shown, view.scale) > 0.15, (rotation, value, shown)
        # the same box where the unrotated page would have it lies on blank paper (it is not there by chance)
        assert _dark_in_image(image, rect, view.scale) < 0.02, (rotation, value, rect)
    # on screen too: the view paints the page and the box at the same place
    _on_screen_aligned(qtbot, view, values["이영희"])
    # clicking the rotated box selects its item
    other = values["홍길동"]
    (page, rect), = view.boxes_of(other.id)
    view.show_current(other)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.to_widget(page, rect).center().toPoint())
    assert w.current_item() is not None and w.current_item().id == other.id


def test_zoom_keys_and_ctrl_wheel_scale_the_page_and_keep_boxes_aligned(qtbot, model, tmp_path):
    path = build(tmp_path / "rot90.pdf", 90)
    w, view, values = _open_pages(qtbot, model, path)
    _rendered(qtbot, view)
    item = values["이영희"]
    (page, rect), = view.boxes_of(item.id)
    fit_scale, fit_w = view.scale, view.to_widget(page, rect).width()
    assert view.zoom == 1.0 and view.horizontalScrollBar().maximum() == 0
    # Ctrl+= twice: 1.25^2 of fit width; the box grows by as much and still covers the glyphs
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom == pytest.approx(ZOOM_STEP ** 2)
    assert view.scale == pytest.approx(fit_scale * ZOOM_STEP ** 2, rel=1e-3)
    assert view.to_widget(page, rect).width() == pytest.approx(fit_w * ZOOM_STEP ** 2, rel=1e-3)
    assert view.horizontalScrollBar().maximum() > 0          # wider than the view: scrolls sideways
    image = _rendered(qtbot, view)
    assert image.width() == pytest.approx(view.scale * 841.89, abs=2)
    assert _dark_in_image(image, view.shown_rect(page, rect), view.scale) > 0.15
    _on_screen_aligned(qtbot, view, item)
    assert "125" not in w.statusBar().currentMessage() and "156" in w.statusBar().currentMessage()
    # Ctrl+wheel up (two notches) zooms about the pointer: the page point under it stays under it (the page
    # is then taller and wider than the view, so the scroll bars are free to keep it there)
    at = view.to_widget(page, rect).center()
    before = view._page_point(at)[1]
    ev = QWheelEvent(at, view.viewport().mapToGlobal(at.toPoint()), QPoint(0, 0), QPoint(0, 240),
                     Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier, Qt.ScrollPhase.NoScrollPhase,
                     False)
    QApplication.sendEvent(view.viewport(), ev)
    assert view.zoom == pytest.approx(ZOOM_STEP ** 4)
    assert 0 < view.verticalScrollBar().value() < view.verticalScrollBar().maximum()
    after = view.to_widget(page, rect).center()
    assert abs(after.x() - at.x()) < 3 and abs(after.y() - at.y()) < 3, (at, after, before)
    _on_screen_aligned(qtbot, view, item)
    # Ctrl+- then Ctrl+0: back to fit width, no sideways scrolling
    qtbot.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom == pytest.approx(ZOOM_STEP ** 3)
    qtbot.keyClick(view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom == 1.0
    # (the scroll bars hide once the event loop runs; the view is then as wide as at first)
    qtbot.waitUntil(lambda: view.scale == pytest.approx(fit_scale, rel=1e-3), timeout=3000)
    assert view.horizontalScrollBar().maximum() == 0
    # in the text view the keys say where zoom works and change nothing
    qtbot.keyClick(view, Qt.Key.Key_F6)
    assert w.tools.stack.currentWidget() is w.view
    qtbot.keyClick(w.view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom == 1.0 and "F6" in w.statusBar().currentMessage()


def test_zoom_is_bounded(qtbot, model, tmp_path):
    path = build(tmp_path / "plain.pdf", 0)
    w, view, values = _open_pages(qtbot, model, path)
    for _ in range(40):
        view.zoom_in()
    assert view.zoom == 6.0
    w_pt, h_pt = 595.28, 841.89
    assert (view.scale * w_pt) * (view.scale * h_pt) <= 36_000_000 * 1.01
    for _ in range(40):
        view.zoom_out()
    assert view.zoom == 0.25
