"""*Export all*: one summary of every listed document before anything is written.

One row per document: what happens to it (exported / exported only with the confirmation / not exported
and why), pending suggestions, suggestions hidden below the threshold, partial detection, unreadable
pages (``review.export_all_check.DocCheck``). Documents whose only undecided suggestions are hidden below
the threshold need the same explicit, counted tick as a single export (``belowThresholdOk``); without it
they are not exported. Export stays disabled while nothing would be written. Threading: GUI thread.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QDialog, QDialogButtonBox, QHeaderView, QLabel, QTableWidget,
    QTableWidgetItem, QVBoxLayout, QWidget,
)

from ..review.export_all_check import DocCheck
from .i18n import tr


def outcome_text(check: DocCheck, below_threshold_ok: bool, lang: str) -> str:
    if check.kind == "export":
        return tr("exportall.will_export", lang)
    if check.kind == "hidden":
        return tr("exportall.will_export" if below_threshold_ok else "exportall.skip.hidden", lang)
    return tr(f"exportall.skip.{check.reason}", lang)


class ExportAllDialog(QDialog):
    COLUMNS = ("exportall.col.doc", "exportall.col.outcome", "exportall.col.pending", "exportall.col.hidden",
               "exportall.col.partial", "exportall.col.unreadable")

    def __init__(self, parent: QWidget | None, checks: Sequence[DocCheck], folder: Path, lang: str = "ko") -> None:
        super().__init__(parent)
        self.lang = lang
        self.checks = list(checks)
        self.setObjectName("exportAllSummary")
        self.setWindowTitle(tr("ws.export_done_title", lang))
        layout = QVBoxLayout(self)
        intro = QLabel(tr("exportall.intro", lang).format(n=len(self.checks), folder=folder))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QTableWidget(len(self.checks), len(self.COLUMNS))
        self.table.setObjectName("exportAllTable")
        self.table.setHorizontalHeaderLabels([tr(k, lang) for k in self.COLUMNS])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, len(self.COLUMNS)):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.table)
        self.hidden_docs = [c for c in self.checks if c.kind == "hidden"]
        self.hidden_total = sum(c.hidden for c in self.hidden_docs)
        self.below_box: QCheckBox | None = None
        if self.hidden_docs:
            self.below_box = QCheckBox(tr("exportall.below_ok", lang).format(n=self.hidden_total,
                                                                             d=len(self.hidden_docs)))
            self.below_box.setObjectName("belowThresholdOk")
            self.below_box.toggled.connect(self._update)
            layout.addWidget(self.below_box)
        self.count_label = QLabel()
        self.count_label.setObjectName("exportAllCount")
        self.count_label.setWordWrap(True)
        layout.addWidget(self.count_label)
        self.buttons = QDialogButtonBox()
        self.export_button = self.buttons.addButton(tr("exportall.export", lang), QDialogButtonBox.ButtonRole.AcceptRole)
        self.export_button.setObjectName("exportAllGo")
        cancel = self.buttons.addButton(tr("cancel", lang), QDialogButtonBox.ButtonRole.RejectRole)
        cancel.setObjectName("exportAllCancel")
        cancel.setDefault(True)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._update()
        self.resize(900, 460)

    def below_threshold_ok(self) -> bool:
        return self.below_box is not None and self.below_box.isChecked()

    def to_export(self) -> list[DocCheck]:
        ok = self.below_threshold_ok()
        return [c for c in self.checks if c.exported(ok)]

    def _update(self, *_a) -> None:
        lang, ok = self.lang, self.below_threshold_ok()
        dash = "—"
        for r, c in enumerate(self.checks):
            partial = tr("exportall.partial_yes", lang) if c.partial else dash
            unread = ", ".join(str(p) for p in c.unreadable) if c.unreadable else dash
            cells = (c.source.name, outcome_text(c, ok, lang), str(c.pending) if c.pending else dash,
                     str(c.hidden) if c.hidden else dash, partial, unread)
            for col, text in enumerate(cells):
                self.table.setItem(r, col, QTableWidgetItem(text))
        n = len(self.to_export())
        self.count_label.setText(tr("exportall.count", lang).format(n=n, skipped=len(self.checks) - n))
        self.export_button.setEnabled(n > 0)

    def row_texts(self) -> list[tuple[str, ...]]:
        return [tuple(self.table.item(r, c).text() for c in range(self.table.columnCount()))
                for r in range(self.table.rowCount())]


def row_text(row, lang: str) -> str:
    """An *Export all* row's outcome in the UI language (``review.workspace.ExportRow.code``), never the
    core's English message."""
    if row.status == "exported":
        return tr("exportall.will_export", lang)
    code = getattr(row, "code", "") or "error"
    text = tr(f"exportall.fail.{code}", lang)
    if text == f"exportall.fail.{code}":
        text = tr("exportall.fail.error", lang)
    return text.format(n=getattr(row, "copies", 0))


class ExportAllResultDialog(QDialog):
    """After *Export all*: counts, one row per document in the UI language, and for a document stopped by
    unmasked copies of masked values a button that opens it and shows the copies list (the single export's
    fix-up flow). ``fixRequested(source)``."""

    fixRequested = Signal(object)

    def __init__(self, parent: QWidget | None, summary, lang: str = "ko") -> None:
        from PySide6.QtWidgets import QPushButton

        super().__init__(parent)
        self.lang = lang
        self.summary = summary
        self.setObjectName("exportAllResult")
        self.setWindowTitle(tr("ws.export_done_title", lang))
        layout = QVBoxLayout(self)
        msg = tr("ws.export_done", lang).format(ok=len(summary.exported), failed=len(summary.failed),
                                                pending=len(summary.not_reviewed), path=summary.summary_path)
        below = sum(r.below_threshold for r in summary.exported)
        if below:
            msg += "\n" + tr("ws.export_below", lang).format(n=below)
        head = QLabel(msg)
        head.setWordWrap(True)
        head.setObjectName("exportAllDone")
        layout.addWidget(head)
        rows = list(summary.rows)
        self.table = QTableWidget(len(rows), 3)
        self.table.setObjectName("exportAllRows")
        self.table.setHorizontalHeaderLabels([tr("exportall.col.doc", lang), tr("exportall.col.outcome", lang), ""])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.fix_buttons: dict[int, QPushButton] = {}
        for r, row in enumerate(rows):
            self.table.setItem(r, 0, QTableWidgetItem(row.source.name))
            self.table.setItem(r, 1, QTableWidgetItem(row_text(row, lang)))
            if getattr(row, "code", "") == "copies":
                b = QPushButton(tr("exportall.fix", lang))
                b.setObjectName(f"fixCopies{r}")
                b.clicked.connect(lambda _c=False, row=row: self._fix(row))
                self.table.setCellWidget(r, 2, b)
                self.fix_buttons[r] = b
        layout.addWidget(self.table)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        from .dialogs import translate_buttons

        translate_buttons(self.buttons, lang)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.resize(860, 420)

    def _fix(self, row) -> None:
        self.fixRequested.emit(row.source)
        self.accept()

    def row_texts(self) -> list[tuple[str, str]]:
        return [(self.table.item(r, 0).text(), self.table.item(r, 1).text()) for r in range(self.table.rowCount())]
