"""The document list of a workspace: one row per document with its state (queued, detecting, N pending,
reviewed, exported, failed). Adapter over ``review/workspace.py``; activating a row asks to show it.

Threading: GUI thread only.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from ..review.workspace import DocEntry, DocStatus, Workspace
from .i18n import tr

_COLORS = {
    DocStatus.QUEUED: "#808080", DocStatus.DETECTING: "#1f6fd1", DocStatus.PENDING: "#b36b00",
    DocStatus.REVIEWED: "#2e7d32", DocStatus.EXPORTED: "#1b5e20", DocStatus.FAILED: "#c62828",
}


def status_text(entry: DocEntry, lang: str) -> str:
    if entry.status is DocStatus.PENDING:
        return tr("ws.pending", lang).format(n=entry.pending)
    return tr(f"ws.{entry.status.value}", lang)


class WorkspacePanel(QWidget):
    documentActivated = Signal(int)

    def __init__(self, workspace: Workspace, parent=None, lang: str = "ko") -> None:
        super().__init__(parent)
        self.ws = workspace
        self.lang = lang
        self.list = QListWidget(self)
        self.list.setAlternatingRowColors(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.list)
        self.list.itemActivated.connect(lambda it: self.documentActivated.emit(self.list.row(it)))
        self.list.itemClicked.connect(lambda it: self.documentActivated.emit(self.list.row(it)))
        workspace.add_listener(self._on_changed)
        self.refresh()

    def _on_changed(self, index: int) -> None:
        if index < 0 or self.list.count() != len(self.ws):
            self.refresh()
        else:
            self._fill(index)

    def refresh(self) -> None:
        while self.list.count() < len(self.ws):
            self.list.addItem(QListWidgetItem())
        while self.list.count() > len(self.ws):
            self.list.takeItem(self.list.count() - 1)
        for i in range(len(self.ws)):
            self._fill(i)

    def _fill(self, i: int) -> None:
        e = self.ws[i]
        item = self.list.item(i)
        state = status_text(e, self.lang)
        marker = "▶ " if i == self.ws.current else "   "
        item.setText(f"{marker}{e.rel}  —  {state}")
        item.setForeground(QBrush(QColor(_COLORS[e.status])))
        item.setToolTip(f"{e.path}\n{state}" + (f"\n{e.message}" if e.message else ""))
        item.setData(Qt.ItemDataRole.UserRole, e.status.value)
        font = item.font()
        font.setBold(i == self.ws.current)
        item.setFont(font)

    def set_current(self, i: int) -> None:
        self.refresh()
        if 0 <= i < self.list.count():
            self.list.setCurrentRow(i)

    def retranslate(self, lang: str) -> None:
        self.lang = lang
        self.refresh()

    def row_texts(self) -> list[str]:
        return [self.list.item(i).text().strip(" ▶") for i in range(self.list.count())]
