"""A checkable hit list shown before every bulk action (Acrobat's *Search & Redact*).

Rows come from ``review.hits`` (``Hit``: context ``…before[value]after…``, label, score, part, whole-word
flag). Whole-word hits start checked; hits inside a word start unchecked and are hidden until *Include
matches inside words* is ticked (for unmasked copies they are listed at once: each one left unmasked
keeps the export blocked). Only the checked hits are applied, by the caller, as one undo step.

Threading: GUI thread.
"""
from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QHBoxLayout, QHeaderView, QLabel,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from ..labels import display_name
from ..review.hits import Hit
from .i18n import tr
from .table_model import part_caption


class HitListDialog(QDialog):
    """``kind``: ``accept`` / ``reject`` / ``mask`` (the verb on the apply button)."""

    def __init__(self, parent: QWidget | None, title: str, hits: Sequence[Hit], kind: str = "accept",
                 lang: str = "ko", intro: str | None = None, *, copies: bool = False,
                 min_score: float | None = None) -> None:
        """``min_score``: show a score box; only hits scoring at least its value are listed (and applied)."""
        super().__init__(parent)
        self.lang = lang
        self.kind = kind
        self.hits = list(hits)
        self._copies = copies
        self._min_score = min_score
        self.setObjectName("hitList")
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        self.score_box: QDoubleSpinBox | None = None
        if min_score is not None:
            row0 = QHBoxLayout()
            row0.addWidget(QLabel(tr("dialog.accept_above", lang)))
            self.score_box = QDoubleSpinBox()
            self.score_box.setObjectName("hitsMinScore")
            self.score_box.setRange(0.0, 1.0)
            self.score_box.setSingleStep(0.05)
            self.score_box.setDecimals(2)
            self.score_box.setValue(min_score)
            self.score_box.valueChanged.connect(self.set_min_score)
            row0.addWidget(self.score_box)
            row0.addStretch(1)
            layout.addLayout(row0)
        text = intro if intro is not None else tr("hits.intro", lang).format(n=len(self.hits))
        self.head = QLabel(text if self.hits else tr("hits.none", lang))
        self.head.setWordWrap(True)
        self.head.setObjectName("hitsIntro")
        layout.addWidget(self.head)

        self.table = QTableWidget(len(self.hits), 5)
        self.table.setObjectName("hitTable")
        self.table.setHorizontalHeaderLabels([tr(f"hits.col.{c}", lang)
                                              for c in ("use", "context", "label", "score", "where")])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        in_word = tr("hits.in_word_whole" if copies else "hits.in_word", lang)
        for r, h in enumerate(self.hits):
            check = QTableWidgetItem()
            check.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            check.setCheckState(Qt.CheckState.Checked if h.default_checked else Qt.CheckState.Unchecked)
            self.table.setItem(r, 0, check)
            ctx = QTableWidgetItem(h.context)
            ctx.setToolTip(h.context)
            self.table.setItem(r, 1, ctx)
            self.table.setItem(r, 2, QTableWidgetItem(display_name(h.label, lang)))
            score = QTableWidgetItem(f"{h.score:.2f}")
            score.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(r, 3, score)
            where = part_caption(h.part_obj, lang) if h.part_obj is not None else (h.part or "")
            if not h.whole_word:
                where = f"{where} · {in_word}" if where else in_word
            self.table.setItem(r, 4, QTableWidgetItem(where))
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.itemChanged.connect(self._update)
        layout.addWidget(self.table, 1)

        row = QHBoxLayout()
        self.include_partial = QCheckBox(tr("hits.include_partial", lang))
        self.include_partial.setObjectName("includePartial")
        self.include_partial.toggled.connect(self._on_include_partial)
        all_btn = QPushButton(tr("hits.check_all", lang))
        all_btn.clicked.connect(lambda: self.set_all(True))
        none_btn = QPushButton(tr("hits.check_none", lang))
        none_btn.clicked.connect(lambda: self.set_all(False))
        self.count_label = QLabel()
        row.addWidget(self.include_partial)
        row.addStretch(1)
        row.addWidget(self.count_label)
        row.addWidget(all_btn)
        row.addWidget(none_btn)
        layout.addLayout(row)

        self.buttons = QDialogButtonBox()
        self.apply_button = self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        self.apply_button.setObjectName("hitsApply")
        cancel = self.buttons.addButton(tr("hits.cancel", lang), QDialogButtonBox.ButtonRole.RejectRole)
        cancel.setObjectName("hitsCancel")
        cancel.setDefault(True)  # Enter does not apply a bulk change by accident
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        # copies inside words are listed (unchecked) at once: each one left keeps the export blocked
        with_partial = copies and any(not h.whole_word for h in self.hits)
        self.include_partial.blockSignals(True)
        self.include_partial.setChecked(with_partial)
        self.include_partial.blockSignals(False)
        self._on_include_partial(with_partial)
        self.resize(860, 520)

    # -- values ------------------------------------------------------------------------------------
    def checked_rows(self) -> list[int]:
        return [r for r in range(self.table.rowCount())
                if not self.table.isRowHidden(r)
                and self.table.item(r, 0).checkState() == Qt.CheckState.Checked]

    def checked_hits(self) -> list[Hit]:
        return [self.hits[r] for r in self.checked_rows()]

    def set_checked(self, row: int, checked: bool) -> None:
        self.table.item(row, 0).setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def set_all(self, checked: bool) -> None:
        self.table.blockSignals(True)
        for r in range(self.table.rowCount()):
            if not self.table.isRowHidden(r):
                self.set_checked(r, checked)
        self.table.blockSignals(False)
        self._update()

    # -- behaviour -----------------------------------------------------------------------------------
    def set_min_score(self, value: float) -> None:
        self._min_score = value
        if self.score_box is not None and abs(self.score_box.value() - value) > 1e-9:
            self.score_box.setValue(value)   # re-enters through valueChanged
            return
        self._apply_visibility()

    def _on_include_partial(self, on: bool) -> None:
        self.table.blockSignals(True)
        for r, h in enumerate(self.hits):
            if not h.whole_word and not on:
                self.set_checked(r, False)
        self.table.blockSignals(False)
        self._apply_visibility()

    def _apply_visibility(self) -> None:
        on = self.include_partial.isChecked()
        for r, h in enumerate(self.hits):
            hidden = (not h.whole_word and not on) or (self._min_score is not None and h.score < self._min_score - 1e-9)
            self.table.setRowHidden(r, hidden)
        if self._min_score is not None:
            shown = sum(1 for r in range(self.table.rowCount()) if not self.table.isRowHidden(r))
            self.head.setText(tr("hits.intro", self.lang).format(n=shown) if shown else tr("hits.none", self.lang))
        self._update()

    def _update(self, *_args) -> None:
        n = len(self.checked_rows())
        shown = sum(1 for r in range(self.table.rowCount()) if not self.table.isRowHidden(r))
        self.count_label.setText(tr("hits.checked", self.lang).format(n=n, total=shown))
        self.apply_button.setText(tr(f"hits.apply.{self.kind}", self.lang).format(n=n))
        self.apply_button.setEnabled(n > 0)
