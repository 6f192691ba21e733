"""The find tool: Ctrl+F opens the find bar (``ui/find_bar.py``: find and mark). A mixin of ``ReviewTools``
(``ui/review_tools.py``); the attributes it uses are declared below. Threading: GUI thread.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStackedWidget, QToolBar

from ..find_bar import FindBar
from ..i18n import tr
from ...review.review_session import ReviewSession

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow as MainWindow  # the window (no import of main_window: no loop)


class FindTool:
    """Mixin for ``ReviewTools``; see the module docstring."""

    w: "MainWindow"
    review: ReviewSession
    lang: str
    stack: QStackedWidget
    find_bar: FindBar
    find_toolbar: QToolBar

    def _confirm_marks(self, matches, label: str):
        """Mark all through the hit list: every match with context, whole-word hits checked, hits inside a
        word (``홍길동`` in ``홍길동전``) listed unchecked; a checked in-word hit marks the whole word."""
        from ...detect.span import Span
        from ...review.hits import copy_spans, hits_for_spans
        from ..hit_list import HitListDialog

        w, st = self.w, self.review.state
        if st is None or not matches:
            return None
        hits = hits_for_spans(st, [Span(a, b, label, 1.0, "manual") for a, b in matches], self.review.document)
        dlg = HitListDialog(w, tr("find.mark_list.title", self.lang).format(n=len(hits)), hits, "mask", self.lang)
        dlg.setObjectName("markAllList")
        if any(not h.whole_word for h in hits):
            dlg.include_partial.setChecked(True)     # in-word hits listed at once, unchecked
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.mark_dialog = dlg
        bar = self.find_bar

        def done(result: int) -> None:
            self.mark_dialog = None
            if result and st is self.review.state:
                spans = copy_spans(dlg.checked_hits())
                bar.mark_spans(sorted({(s.start, s.end) for s in spans}), label)

        dlg.finished.connect(done)
        dlg.open()
        return dlg

    def _on_find(self) -> None:
        if self.review.state is None:
            return
        if self.stack.currentWidget() is not self.w.view:
            self.show_text()
        self.find_toolbar.show()
        self.find_bar.open_bar()

    def _on_marked(self, n: int, label: str) -> None:
        from ...labels import display_name

        self.w.statusBar().showMessage(tr("find.marked", self.lang).format(n=n, label=display_name(label, self.lang)),
                                       6000)
