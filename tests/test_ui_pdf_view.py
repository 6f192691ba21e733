"""PDF pages as pages: character boxes (documents.pdf.char_boxes/span_rects) checked against where fpdf2
placed the text, and the window's page view (ui/pdf_view.py): each item drawn at its characters' boxes,
clicking a box selects the item, selecting an item outlines its box."""
from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF
from PySide6.QtCore import QPointF, Qt

from tests.fixtures.tiny_model import build_tiny_model
from tests.test_documents_pdf import REPO_FONT
from tests.ui_helpers import open_and_detect, show_window
from veil_desktop.documents import open_document
from veil_desktop.documents.pdf import char_boxes, span_rects

SIZE = 20.0
LINES = [(72.0, 100.0, "담당 홍길동 주무관"), (150.0, 300.0, "참석 이영희"), (72.0, 500.0, "plain text line")]


def build(path: Path) -> tuple[Path, dict[str, tuple[float, float, float]]]:
    """Text at known positions (points); returns per value its expected (x0, x1, baseline)."""
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_font("K", "", str(REPO_FONT))
    pdf.set_font("K", size=SIZE)
    pdf.add_page()
    expected = {}
    for x, baseline, line in LINES:
        pdf.text(x, baseline, line)
        for value in ("홍길동", "이영희"):
            i = line.find(value)
            if i >= 0:
                x0 = x + pdf.get_string_width(line[:i])
                expected[value] = (x0, x0 + pdf.get_string_width(value), baseline)
    pdf.output(str(path))
    return path, expected


def inside_advance(rx0, rx1, x0, x1) -> bool:
    """Glyph boxes (tight) lie inside the text's advance extent, short of it by the side bearings only
    (< 0.2 em; one character off would be a whole em, 20 pt)."""
    slack = 0.2 * SIZE
    return x0 - 0.5 <= rx0 <= x0 + slack and x1 - slack <= rx1 <= x1 + 0.5


def test_char_boxes_are_where_fpdf_put_the_text(tmp_path):
    path, expected = build(tmp_path / "known.pdf")
    doc = open_document(path)
    pages = char_boxes(doc, path.read_bytes())
    assert len(pages) == 1 and abs(pages[0].width - 595.28) < 0.01 and abs(pages[0].height - 841.89) < 0.01
    for value, (x0, x1, baseline) in expected.items():
        i = doc.text.index(value)
        rects = span_rects(pages, i, i + len(value))
        assert len(rects) == 1, value
        page, (rx0, ry0, rx1, ry1) = rects[0]
        assert page == 0
        assert inside_advance(rx0, rx1, x0, x1), (value, rects, x0, x1)
        # glyphs sit on the baseline: the box spans most of the font size above it
        assert ry0 < baseline - 0.6 * SIZE and baseline - 2 < ry1 < baseline + 0.3 * SIZE, (value, ry0, ry1)
    # a value over two lines gives one rectangle per line
    a, b = doc.text.index("홍길동"), doc.text.index("이영희") + 3
    assert [r[0] for r in span_rects(pages, a, b)] == [0, 0]


@pytest.fixture()
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("m") / "tiny",
                            entities={"홍길동": "PERSON", "이영희": "PERSON"}, score=0.9)


def test_page_view_boxes_click_and_select(qtbot, model, tmp_path):
    path, expected = build(tmp_path / "known.pdf")
    w = show_window(qtbot, model)
    assert open_and_detect(qtbot, w, path) is False
    values = {w.state.value(it): it for it in w.state}
    assert set(values) == {"홍길동", "이영희"}
    with qtbot.waitSignal(w.tools.pagesReady, timeout=10000):
        qtbot.keyClick(w.view, Qt.Key.Key_F6)
    view = w.tools.pages
    assert w.tools.stack.currentWidget() is view and view.page_count == 1
    # each item is drawn at its characters' boxes (page points, top-left origin)
    for value, (x0, x1, _baseline) in expected.items():
        (page, rect), = view.boxes_of(values[value].id)
        assert page == 0 and inside_advance(rect.left(), rect.right(), x0, x1)
    # the page is rendered on the pool; the item's box lies over the glyphs' dark pixels, the margin is white
    qtbot.waitUntil(lambda: (0, round(view._scale, 4)) in view._images, timeout=10000)
    scale = view._scale
    image = view._images[(0, round(scale, 4))]

    def dark(rect) -> float:
        xs = range(int(rect.left() * scale), int(rect.right() * scale))
        ys = range(int(rect.top() * scale), int(rect.bottom() * scale))
        px = [image.pixelColor(x, y).lightness() for x in xs for y in ys]
        return sum(v < 128 for v in px) / len(px)

    (page, rect), = view.boxes_of(values["홍길동"].id)
    assert dark(rect) > 0.15
    assert dark(rect.translated(0, 3 * SIZE)) == 0.0     # three lines lower: blank page
    # clicking a box selects the item (table row too)
    target = values["이영희"]
    (page, rect), = view.boxes_of(target.id)
    center = view.to_widget(page, rect).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=center.toPoint())
    assert w.current_item() is not None and w.current_item().id == target.id
    assert w.panel.selected_ids() == [target.id]
    assert view.item_at(QPointF(2, 2)) is None          # the page margin holds no item
    # selecting an item elsewhere (the table, J/K) outlines its box in the page view
    other = values["홍길동"]
    w.select_item(other.id)
    qtbot.waitUntil(lambda: view.current_id == other.id, timeout=2000)
    # and back to the text view
    qtbot.keyClick(view, Qt.Key.Key_F6)
    assert w.tools.stack.currentWidget() is w.view
