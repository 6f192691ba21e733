"""The PDF pages tool (``ui/pdf_view.py``): F6 switches a PDF between text and rendered pages with item
boxes; Ctrl+= / Ctrl+- / Ctrl+0 zoom the pages (fit width = 100 %); boxes and pages are computed on the window's ``Jobs`` (channel ``"pages"``: a superseded load is
dropped). A mixin of ``ReviewTools``; attributes declared below. Threading: GUI thread.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QStackedWidget

from ..i18n import tr
from ..pdf_view import PdfPageView, has_pages, load_boxes
from ...review.review_session import ReviewSession

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow as MainWindow  # the window (no import of main_window: no loop)


class PagesTool:
    """Mixin for ``ReviewTools``; see the module docstring."""

    w: "MainWindow"
    review: ReviewSession
    lang: str
    stack: QStackedWidget
    pages: PdfPageView
    pagesReady: Signal

    def _on_pdf_pages(self) -> None:
        if self.stack.currentWidget() is self.pages:
            self.show_text()
        else:
            self.show_pages()

    def show_text(self) -> None:
        self.stack.setCurrentWidget(self.w.view)

    def show_pages(self) -> int | None:
        w = self.w
        if not has_pages(self.review.document):
            w.statusBar().showMessage(tr("pdf.not_pdf", self.lang), 5000)
            return None
        doc, state = self.review.document, self.review.state
        self.stack.setCurrentWidget(self.pages)

        def done(result):
            if self.review.state is not state:
                return
            data, boxes = result
            self.pages.set_document(data, boxes, state)
            self._sync_pages_current()
            self.pagesReady.emit()

        return w.jobs.start(lambda: load_boxes(doc), done, w.show_error, channel="pages").id

    def _on_zoom_in(self) -> None:
        self._zoom(self.pages.zoom_in)

    def _on_zoom_out(self) -> None:
        self._zoom(self.pages.zoom_out)

    def _on_zoom_fit(self) -> None:
        self._zoom(self.pages.fit_width)

    def _zoom(self, fn) -> None:
        """Zoom the page view when it is on screen; otherwise say where zoom works."""
        if self.stack.currentWidget() is not self.pages:
            self.w.statusBar().showMessage(tr("pdf.zoom_pages_only", self.lang), 5000)
            return
        fn()
        self.w.statusBar().showMessage(tr("pdf.zoom", self.lang).format(pct=round(self.pages.zoom * 100)), 3000)

    def _render_page(self, data: bytes, index: int, scale: float, done) -> None:
        from ..pdf_view import render_page

        self.w.jobs.start(lambda: render_page(data, index, scale), lambda img: done(index, scale, img, data),
                          lambda _m: done(index, scale, None, data))

    def _on_current_item(self, item_id) -> None:
        if self.stack.currentWidget() is self.pages and self.review.state is not None:
            st = self.review.state
            item = st.item(item_id) if item_id is not None and item_id in st else None
            self.pages.show_current(item)

    def _sync_pages_current(self) -> None:
        if self.stack.currentWidget() is self.pages:
            item = self.w.current_item()
            self._on_current_item(item.id if item is not None else None)
