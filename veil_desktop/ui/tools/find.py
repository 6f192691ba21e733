"""The find tool: Ctrl+F opens the find bar (``ui/find_bar.py``: find and mark). A mixin of ``ReviewTools``
(``ui/review_tools.py``); the attributes it uses are declared below. Threading: GUI thread.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QStackedWidget, QToolBar

from ..find_bar import FindBar
from ..i18n import tr
from ...review.review_session import ReviewSession

if TYPE_CHECKING:
    from ..main_window import MainWindow


class FindTool:
    """Mixin for ``ReviewTools``; see the module docstring."""

    w: "MainWindow"
    review: ReviewSession
    lang: str
    stack: QStackedWidget
    find_bar: FindBar
    find_toolbar: QToolBar

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
