"""PDF pages as pages: the document's pages rendered with pypdfium2, each review item drawn as a box at its
characters' positions (``documents.pdf.char_boxes``/``span_rects``), in the label colour and status style
of the text view; the current item is outlined. Clicking a box emits ``itemClicked(id)``; ``show_current``
scrolls to an item's box.

Pages are rendered lazily (only those on screen, under ``documents.pdf.PDFIUM_LOCK``) at a fit-to-width
scale, on the pool when a ``renderer`` is set (the window sets one; a white page shows until it arrives),
and cached; item boxes are computed per item on first use and dropped when the review changes.

Threading: GUI thread only; ``load_boxes`` (pure, reads the file) may run on the pool.
"""
from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QAbstractScrollArea

from ..review.state import ReviewItem, ReviewState, StateListener, Status
from .colors import label_color

GAP = 12          # pixels between pages
MARGIN = 10
MAX_CACHED_PAGES = 12


IMAGE_FORMATS = ("png", "jpg", "jpeg", "tif", "tiff")


def has_pages(doc) -> bool:
    """Documents the page view can show: PDFs and (OCR'd) images."""
    return doc is not None and doc.format in ("pdf", *IMAGE_FORMATS)


def render_page(data: bytes, index: int, scale: float) -> QImage:
    """Page ``index`` of the PDF ``data`` rendered at ``scale`` pixels per point (any thread). An image file
    (PNG/JPEG/TIFF: its pixels count as points) is scaled the same way."""
    if not data.startswith(b"%PDF"):
        return _render_image(data, index, scale)
    from ..documents.pdf import PDFIUM_LOCK, _open

    with PDFIUM_LOCK:
        pdf = _open(data)
        try:
            page = pdf[index]
            try:
                bitmap = page.render(scale=scale, may_draw_forms=False, draw_annots=False)
                pil = bitmap.to_pil().convert("RGB")
                bitmap.close()
            finally:
                page.close()
        finally:
            pdf.close()
    raw = pil.tobytes()
    return QImage(raw, pil.width, pil.height, 3 * pil.width, QImage.Format.Format_RGB888).copy()


def _render_image(data: bytes, index: int, scale: float) -> QImage:
    from PIL import Image

    from ..documents.image import _open_frames

    frame = _open_frames(data, "image")[index].convert("RGB")
    w, h = max(1, round(frame.width * scale)), max(1, round(frame.height * scale))
    pil = frame.resize((w, h), Image.BILINEAR)
    raw = pil.tobytes()
    return QImage(raw, pil.width, pil.height, 3 * pil.width, QImage.Format.Format_RGB888).copy()


def load_boxes(doc) -> tuple[bytes, list]:
    """Read the PDF (or OCR'd image) and every text character's box (run on the pool). Raises
    ``DocumentError``."""
    import hashlib

    from ..documents.errors import DocumentError
    from ..documents.pdf import PageBoxes, char_boxes

    data = Path(doc.path).read_bytes()
    if hashlib.sha256(data).hexdigest() != doc.sha256:
        raise DocumentError(f"{Path(doc.path).name} changed on disk since it was opened; open it again.")
    if doc.format in IMAGE_FORMATS:     # OCR boxes in source pixels (pixels count as points)
        starts = {s.slot: s.start for s in doc.segments if s.member == "page"}
        return data, [PageBoxes(i, float(p.width), float(p.height), starts.get(i, -1), tuple(p.boxes))
                      for i, p in enumerate(doc.extra.get("ocr_pages") or [])]
    return data, char_boxes(doc, data)


class _Watcher(StateListener):
    def __init__(self, view: "PdfPageView") -> None:
        self.view = view

    def rows_inserted(self, first, last): self.view._invalidate()
    def row_removed(self, row, item): self.view._invalidate()
    def items_changed(self, before, after): self.view._invalidate()
    def reset(self): self.view._invalidate()
    def threshold_changed(self, threshold): self.view._invalidate()


class PdfPageView(QAbstractScrollArea):
    itemClicked = Signal(int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setStyleSheet("background: #6b6b6b;")
        self._state: ReviewState | None = None
        self._watcher = _Watcher(self)
        self._data: bytes | None = None
        self._pages: list = []            # documents.pdf.PageBoxes
        self._scale = 1.0
        self._tops: list[float] = []
        self._images: OrderedDict[tuple[int, float], QImage] = OrderedDict()
        self._boxes: list[tuple[int, QRectF, int]] | None = None   # (page, rect in points, item id)
        self._geom: dict[tuple[int, int], list[tuple[int, QRectF]]] = {}   # (start, end) -> rects
        self._by_page: tuple[list, dict] | None = None
        self.current_id: int | None = None
        #: ``renderer(data, index, scale, done)`` renders a page off the GUI thread and calls
        #: ``done(index, scale, QImage | None, data)`` on the GUI thread; None renders synchronously
        self.renderer = None
        self._rendering: set[tuple[int, float]] = set()

    # -- content ------------------------------------------------------------------------------------------
    def set_document(self, data: bytes | None, pages: list, state: ReviewState | None) -> None:
        if self._state is not None:
            self._state.remove_listener(self._watcher)
        self._data, self._pages, self._state = data, list(pages), state
        if state is not None:
            state.add_listener(self._watcher)
        self._images.clear()
        self._rendering.clear()
        self._geom = {}
        self.current_id = None
        self._invalidate()
        self._layout()

    def clear(self) -> None:
        self.set_document(None, [], None)

    @property
    def page_count(self) -> int:
        return len(self._pages)

    def _invalidate(self) -> None:
        self._boxes = None
        self.viewport().update()

    def _layout(self) -> None:
        width = max(100, self.viewport().width() - 2 * MARGIN)
        widest = max((p.width for p in self._pages), default=595.0)
        scale = width / widest
        if abs(scale - self._scale) > 1e-3:
            self._scale = scale
            self._images.clear()
        y = MARGIN
        self._tops = []
        for p in self._pages:
            self._tops.append(y)
            y += p.height * self._scale + GAP
        total = int(y)
        bar = self.verticalScrollBar()
        bar.setPageStep(self.viewport().height())
        bar.setSingleStep(40)
        bar.setRange(0, max(0, total - self.viewport().height()))
        self.viewport().update()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._layout()

    # -- geometry --------------------------------------------------------------------------------------------
    def item_boxes(self) -> list[tuple[int, QRectF, int]]:
        """``(page, rect in page points from the top-left, item id)`` for every visible item."""
        if self._boxes is None:
            from ..documents.pdf import span_rects

            out = []
            if self._state is not None and self._pages:
                geom = self._geom
                for it in self._state.in_text_order():
                    rects = geom.get((it.start, it.end))
                    if rects is None:           # geometry depends on the span only: computed once
                        rects = geom[(it.start, it.end)] = [
                            (page, QRectF(x0, y0, x1 - x0, y1 - y0))
                            for page, (x0, y0, x1, y1) in span_rects(self._pages, it.start, it.end)]
                    out.extend((page, rect, it.id) for page, rect in rects)
            self._boxes = out
        return self._boxes

    def _boxes_by_page(self) -> dict[int, list[tuple[int, QRectF, int]]]:
        boxes = self.item_boxes()
        if self._by_page is None or self._by_page[0] is not boxes:
            per: dict[int, list] = {}
            for b in boxes:
                per.setdefault(b[0], []).append(b)
            self._by_page = (boxes, per)
        return self._by_page[1]

    def boxes_of(self, item_id: int) -> list[tuple[int, QRectF]]:
        return [(p, r) for p, r, i in self.item_boxes() if i == item_id]

    def to_widget(self, page: int, rect: QRectF) -> QRectF:
        """A rect in page points -> viewport pixels (current scroll position)."""
        s = self._scale
        left = MARGIN + (self.viewport().width() - 2 * MARGIN - self._pages[page].width * s) / 2
        top = self._tops[page] - self.verticalScrollBar().value()
        return QRectF(left + rect.x() * s, top + rect.y() * s, rect.width() * s, rect.height() * s)

    def item_at(self, pos: QPointF) -> int | None:
        hits = [(r.width() * r.height(), i) for p, r, i in self.item_boxes()
                if self.to_widget(p, r).adjusted(-1, -1, 1, 1).contains(pos)]
        return min(hits)[1] if hits else None

    def show_current(self, item: ReviewItem | None, *, scroll: bool = True) -> None:
        self.current_id = item.id if item is not None else None
        if item is not None and scroll:
            boxes = self.boxes_of(item.id)
            if boxes:
                page, rect = boxes[0]
                y = self._tops[page] + rect.y() * self._scale
                bar = self.verticalScrollBar()
                if not (bar.value() + 20 <= y <= bar.value() + self.viewport().height() - 40):
                    bar.setValue(int(y - self.viewport().height() / 3))
        self.viewport().update()

    # -- painting --------------------------------------------------------------------------------------------
    def _page_image(self, i: int) -> QImage | None:
        key = (i, round(self._scale, 4))
        img = self._images.get(key)
        if img is not None:
            self._images.move_to_end(key)
            return img
        if self._data is None:
            return None
        if self.renderer is None:               # standalone: render here
            self._store(key, render_page(self._data, i, self._scale))
            return self._images[key]
        if key not in self._rendering:          # on the pool; painted when it arrives
            self._rendering.add(key)
            self.renderer(self._data, i, key[1], self._on_rendered)
        return None

    def _on_rendered(self, index: int, scale: float, image: QImage | None, data: bytes | None = None) -> None:
        key = (index, scale)
        self._rendering.discard(key)
        if image is None or (data is not None and data is not self._data) or key[1] != round(self._scale, 4):
            return                              # a failed render, another document, or another zoom
        self._store(key, image)
        self.viewport().update()

    def _store(self, key, image: QImage) -> None:
        self._images[key] = image
        while len(self._images) > MAX_CACHED_PAGES:
            self._images.popitem(last=False)

    def visible_pages(self) -> list[int]:
        top = self.verticalScrollBar().value()
        bottom = top + self.viewport().height()
        return [i for i, t in enumerate(self._tops)
                if t < bottom and t + self._pages[i].height * self._scale > top]

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self.viewport())
        p.fillRect(self.viewport().rect(), QColor("#6b6b6b"))
        if not self._pages:
            p.end()
            return
        visible = self.visible_pages()
        for i in visible:
            page_rect = self.to_widget(i, QRectF(0, 0, self._pages[i].width, self._pages[i].height))
            img = self._page_image(i)
            if img is not None:
                p.drawImage(page_rect.topLeft(), img)
            else:
                # while the page renders at this width: the same page at another width, scaled; else white
                old = next((im for (pi, _sc), im in self._images.items() if pi == i), None)
                if old is not None:
                    p.drawImage(page_rect, old)
                else:
                    p.fillRect(page_rect, QColor("white"))
        state = self._state
        by_page = self._boxes_by_page()
        for page, rect, item_id in (b for i in visible for b in by_page.get(i, ())):
            if state is None or item_id not in state:
                continue
            it = state.item(item_id)
            r = self.to_widget(page, rect).adjusted(-1, -1, 1, 1)
            color = QColor(label_color(it.label))
            if it.status is Status.ACCEPTED:
                fill = QColor(color)
                fill.setAlpha(150)
                p.fillRect(r, fill)
                p.setPen(QPen(color.darker(130), 1.5))
            elif it.status is Status.REJECTED:
                p.setPen(QPen(QColor("#888888"), 1, Qt.PenStyle.DashLine))
            else:
                fill = QColor(color)
                fill.setAlpha(60)
                p.fillRect(r, fill)
                p.setPen(QPen(color.darker(120), 1.5))
            p.drawRect(r)
            if item_id == self.current_id:
                p.setPen(QPen(QColor("#d00000"), 3))
                p.drawRect(r.adjusted(-2, -2, 2, 2))
        p.end()

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802
        self.viewport().update()

    def mousePressEvent(self, event) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton:
            item_id = self.item_at(event.position())
            if item_id is not None:
                self.current_id = item_id
                self.viewport().update()
                self.itemClicked.emit(item_id)
        super().mousePressEvent(event)
