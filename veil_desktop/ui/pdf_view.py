"""PDF pages as pages: the document's pages rendered with pypdfium2, each review item drawn as a box at its
characters' positions (``documents.pdf.char_boxes``/``span_rects``), in the label colour and status style
of the text view; the current item is outlined. Clicking a box emits ``itemClicked(id)``; ``show_current``
scrolls to an item's box.

Pages are rendered lazily (only those on screen, under ``documents.pdf.PDFIUM_LOCK``) at the view's scale,
on the pool when a ``renderer`` is set (the window sets one; a white page shows until it arrives), and
cached; item boxes are computed per item on first use and dropped when the review changes.

- **Zoom**: the scale is *fit width* x ``zoom`` (``ZOOM_MIN``..``ZOOM_MAX``, steps of ``ZOOM_STEP``):
  Ctrl+wheel zooms about the pointer, Ctrl+= / Ctrl+- / Ctrl+0 (fit width) are window actions
  (``ui/actions.py``, handled in ``ui/tools/pages.py``) that zoom about the centre; a page wider than the
  view scrolls sideways. A render never exceeds ``MAX_VIEW_PIXELS``; cached pages are bounded by
  ``MAX_CACHED_PIXELS`` as well as by count.
- **Rotation**: pdfium renders a page with its ``/Rotate`` applied, while ``documents.pdf.char_boxes``
  gives boxes in the unrotated page (its ``width``/``height`` are the *displayed* size, so for 90/270 the
  boxes' top-left flip used the wrong height). ``load_boxes`` returns :class:`ViewPage` s: the boxes
  corrected to the unrotated page's top-left, plus the rotation; lines are merged there
  (``span_rects``) and each rectangle is rotated onto the rendered page when drawn (:func:`rotate_rect`).

Threading: GUI thread only; ``load_boxes`` (pure, reads the file) may run on the pool.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QAbstractScrollArea

from ..documents.pdf import PageBoxes
from ..review.state import ReviewItem, ReviewState, StateListener, Status
from .colors import label_color

GAP = 12          # pixels between pages
MARGIN = 10
MAX_CACHED_PAGES = 12
#: zoom relative to fit width
ZOOM_MIN, ZOOM_MAX, ZOOM_STEP = 0.25, 6.0, 1.25
#: the largest page render (pixels; 3 bytes each) and the most pixels the page cache keeps
MAX_VIEW_PIXELS = 36_000_000
MAX_CACHED_PIXELS = 90_000_000


@dataclass(frozen=True)
class ViewPage(PageBoxes):
    """A page for the view: ``width``/``height`` and ``boxes`` in the *unrotated* page (top-left origin);
    ``rotation`` (0, 90, 180, 270: clockwise, the page's ``/Rotate``) turns them onto the rendered page."""

    rotation: int = 0

    @property
    def shown_size(self) -> tuple[float, float]:
        return (self.height, self.width) if self.rotation in (90, 270) else (self.width, self.height)


def rotate_rect(rect: tuple[float, float, float, float], width: float, height: float,
                rotation: int) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` in an unrotated ``width`` x ``height`` page (top-left origin) -> the same
    rectangle on the page shown turned ``rotation`` degrees clockwise."""
    x0, y0, x1, y1 = rect
    if rotation == 90:                      # (x, y) -> (height - y, x)
        return (height - y1, x0, height - y0, x1)
    if rotation == 180:
        return (width - x1, height - y1, width - x0, height - y0)
    if rotation == 270:                     # (x, y) -> (y, width - x)
        return (y0, width - x1, y1, width - x0)
    return rect


def _unrotated(pages: list, rotations: list[int]) -> list[ViewPage]:
    """``char_boxes`` pages -> :class:`ViewPage` s in the unrotated page. ``char_boxes`` reports the
    displayed size (pdfium's page size has the rotation applied) and flips y with the displayed height;
    the boxes' x and the PDF's y are those of the unrotated page."""
    out = []
    for pb, rot in zip(pages, rotations):
        rot = rot if rot in (90, 180, 270) else 0
        w, h = (pb.height, pb.width) if rot in (90, 270) else (pb.width, pb.height)
        dy = h - pb.height
        boxes = pb.boxes if not dy else tuple(
            None if b is None else (b[0], b[1] + dy, b[2], b[3] + dy) for b in pb.boxes)
        out.append(ViewPage(pb.page, w, h, pb.start, boxes, rot))
    return out


def _as_view_page(p) -> ViewPage:
    return p if isinstance(p, ViewPage) else ViewPage(p.page, p.width, p.height, p.start, p.boxes, 0)


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
                w, h = page.get_size()
                scale = min(scale, (MAX_VIEW_PIXELS / max(1.0, w * h)) ** 0.5)
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
    from ..documents.pdf import PDFIUM_LOCK, _open, char_boxes

    data = Path(doc.path).read_bytes()
    if hashlib.sha256(data).hexdigest() != doc.sha256:
        raise DocumentError(f"{Path(doc.path).name} changed on disk since it was opened; open it again.")
    if doc.format in IMAGE_FORMATS:     # OCR boxes in source pixels (pixels count as points)
        starts = {s.slot: s.start for s in doc.segments if s.member == "page"}
        return data, [ViewPage(i, float(p.width), float(p.height), starts.get(i, -1), tuple(p.boxes))
                      for i, p in enumerate(doc.extra.get("ocr_pages") or [])]
    pages = char_boxes(doc, data)
    with PDFIUM_LOCK:
        pdf = _open(data)
        try:
            rotations = []
            for i in range(len(pages)):
                page = pdf[i]
                rotations.append(page.get_rotation())
                page.close()
        finally:
            pdf.close()
    return data, _unrotated(pages, rotations)


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
    #: the zoom changed (factor over fit width)
    zoomChanged = Signal(float)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().setStyleSheet("background: #6b6b6b;")
        self._state: ReviewState | None = None
        self._watcher = _Watcher(self)
        self._data: bytes | None = None
        self._pages: list = []            # documents.pdf.PageBoxes
        self._scale = 1.0
        self._zoom = 1.0
        self._content_w = 0.0
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
        self._data, self._pages, self._state = data, [_as_view_page(p) for p in pages], state
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

    # -- zoom ----------------------------------------------------------------------------------------------
    @property
    def zoom(self) -> float:
        """The zoom over fit width (1.0: the widest page fills the view's width)."""
        return self._zoom

    @property
    def scale(self) -> float:
        """Pixels per page point on screen."""
        return self._scale

    def set_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Zoom to ``zoom`` x fit width, keeping the page point under ``anchor`` (viewport pixels; the
        centre if None) where it is."""
        zoom = min(ZOOM_MAX, max(ZOOM_MIN, float(zoom)))
        if abs(zoom - self._zoom) < 1e-6:
            return
        vp = self.viewport()
        anchor = QPointF(vp.width() / 2, vp.height() / 2) if anchor is None else QPointF(anchor)
        hit = self._page_point(anchor)
        self._zoom = zoom
        self._layout()
        if hit is not None:
            i, pt = hit
            left, top = self._page_origin(i)       # at the current scroll position
            s = self._scale
            hbar, vbar = self.horizontalScrollBar(), self.verticalScrollBar()
            hbar.setValue(round(hbar.value() + left + pt.x() * s - anchor.x()))
            vbar.setValue(round(vbar.value() + top + pt.y() * s - anchor.y()))
        self.viewport().update()
        self.zoomChanged.emit(self._zoom)

    def zoom_in(self) -> None:
        self.set_zoom(self._zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self._zoom / ZOOM_STEP)

    def fit_width(self) -> None:
        self.set_zoom(1.0)

    def _page_point(self, pos: QPointF) -> tuple[int, QPointF] | None:
        """The page under (or nearest above) viewport ``pos`` and the shown-page point there."""
        if not self._pages:
            return None
        y = pos.y() + self.verticalScrollBar().value()
        i = max(0, max((k for k, t in enumerate(self._tops) if t <= y), default=0))
        left, top = self._page_origin(i)
        return i, QPointF((pos.x() - left) / self._scale, (pos.y() - top) / self._scale)

    def wheelEvent(self, event) -> None:  # noqa: N802
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            d = event.angleDelta().y()
            if d:
                self.set_zoom(self._zoom * ZOOM_STEP ** (d / 120.0), event.position())
            event.accept()
            return
        super().wheelEvent(event)

    def _layout(self) -> None:
        vw = self.viewport().width()
        width = max(100, vw - 2 * MARGIN)
        sizes = [p.shown_size for p in self._pages]
        widest = max((w for w, _h in sizes), default=595.0)
        scale = width / widest * self._zoom
        biggest = max((w * h for w, h in sizes), default=1.0)
        scale = min(scale, (MAX_VIEW_PIXELS / max(1.0, biggest)) ** 0.5)
        if abs(scale - self._scale) > 1e-3:
            self._scale = scale
        y = MARGIN
        self._tops = []
        for _w, h in sizes:
            self._tops.append(y)
            y += h * self._scale + GAP
        total = int(y)
        self._content_w = widest * self._scale + 2 * MARGIN
        bar = self.verticalScrollBar()
        bar.setPageStep(self.viewport().height())
        bar.setSingleStep(40)
        bar.setRange(0, max(0, total - self.viewport().height()))
        hbar = self.horizontalScrollBar()
        hbar.setPageStep(vw)
        hbar.setSingleStep(40)
        hbar.setRange(0, max(0, int(self._content_w - vw + 0.999)))
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

    def _page_origin(self, page: int) -> tuple[float, float]:
        """The shown page's top-left corner in viewport pixels (current scroll position)."""
        s = self._scale
        span = max(self.viewport().width(), self._content_w) - 2 * MARGIN
        left = MARGIN + max(0.0, (span - self._pages[page].shown_size[0] * s) / 2) \
            - self.horizontalScrollBar().value()
        return left, self._tops[page] - self.verticalScrollBar().value()

    def shown_rect(self, page: int, rect: QRectF) -> QRectF:
        """A rect in the unrotated page's points -> the same rect on the shown (rotated) page, in points."""
        p = self._pages[page]
        if not p.rotation:
            return QRectF(rect)
        x0, y0, x1, y1 = rotate_rect((rect.left(), rect.top(), rect.right(), rect.bottom()), p.width, p.height,
                                     p.rotation)
        return QRectF(x0, y0, x1 - x0, y1 - y0)

    def to_widget(self, page: int, rect: QRectF) -> QRectF:
        """A rect in (unrotated) page points -> viewport pixels (rotation, zoom, current scroll position)."""
        s = self._scale
        left, top = self._page_origin(page)
        r = self.shown_rect(page, rect)
        return QRectF(left + r.x() * s, top + r.y() * s, r.width() * s, r.height() * s)

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
                r = self.to_widget(page, rect)
                bar, hbar = self.verticalScrollBar(), self.horizontalScrollBar()
                if not (20 <= r.y() <= self.viewport().height() - 40):
                    bar.setValue(int(bar.value() + r.y() - self.viewport().height() / 3))
                if not (0 <= r.x() and r.right() <= self.viewport().width()):
                    hbar.setValue(int(hbar.value() + r.x() - self.viewport().width() / 3))
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
        while len(self._images) > 1 and (len(self._images) > MAX_CACHED_PAGES or sum(
                im.width() * im.height() for im in self._images.values()) > MAX_CACHED_PIXELS):
            self._images.popitem(last=False)

    def visible_pages(self) -> list[int]:
        top = self.verticalScrollBar().value()
        bottom = top + self.viewport().height()
        return [i for i, t in enumerate(self._tops)
                if t < bottom and t + self._pages[i].shown_size[1] * self._scale > top]

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
            if img is not None and abs(img.width() - page_rect.width()) <= 2:
                p.drawImage(page_rect.topLeft(), img)
            elif img is not None:               # capped at MAX_VIEW_PIXELS: shown scaled up
                p.drawImage(page_rect, img)
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
