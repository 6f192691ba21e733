"""A checkable hit list shown before every bulk action (Acrobat's *Search & Redact*).

Rows come from ``review.hits`` (``Hit``: context ``…before[value]after…``, label, score, part, whole-word
flag). Whole-word hits start checked; hits inside a word start unchecked and are hidden until *Include
matches inside words* is ticked (for unmasked copies they are listed at once: each one left unmasked
keeps the export blocked). Only the checked hits that are shown are applied, by the caller, as one undo step.

The list is a ``QTableView`` over a small model (``_HitModel``), not a ``QTableWidget``: a bulk action can
touch 15,000 places, and one widget item per cell took 1.7 s to build on the GUI thread.

Threading: GUI thread.
"""
from __future__ import annotations

from typing import Any, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QHBoxLayout,
                               QHeaderView, QLabel, QPushButton, QTableView, QVBoxLayout, QWidget)

from ..labels import display_name
from ..review.hits import Hit
from .i18n import tr
from .table_model import part_caption

_COLS = ("use", "context", "label", "score", "where")
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class _HitModel(QAbstractTableModel):
    """Hits with a check flag each; ``rows`` are the indices of the hits shown (the filter's result)."""

    checksChanged = Signal()

    def __init__(self, hits: list[Hit], lang: str, copies: bool, parent=None) -> None:
        super().__init__(parent)
        self.hits = hits
        self.lang = lang
        self.checked = [h.default_checked for h in hits]
        self.rows = list(range(len(hits)))
        in_word = tr("hits.in_word_whole" if copies else "hits.in_word", lang)
        self._where: list[str] = []
        names: dict[int, str] = {}
        for h in hits:
            if h.part_obj is not None:
                key = id(h.part_obj)
                if key not in names:
                    names[key] = part_caption(h.part_obj, lang)
                where = names[key]
            else:
                where = h.part or ""
            if not h.whole_word:
                where = f"{where} · {in_word}" if where else in_word
            self._where.append(where)
        self._labels = {label: display_name(label, lang) for label in {h.label for h in hits}}

    # -- filter / checks -----------------------------------------------------------------------------
    def set_rows(self, rows: list[int]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()
        self.checksChanged.emit()

    def set_checked(self, i: int, on: bool) -> None:
        if self.checked[i] != on:
            self.checked[i] = on
            try:
                r = self.rows.index(i)
            except ValueError:
                r = -1
            if r >= 0:
                idx = self.index(r, 0)
                self.dataChanged.emit(idx, idx, [Qt.ItemDataRole.CheckStateRole])
            self.checksChanged.emit()

    def set_many(self, indices, on: bool) -> None:
        for i in indices:
            self.checked[i] = on
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, 0),
                                  [Qt.ItemDataRole.CheckStateRole])
        self.checksChanged.emit()

    def where(self, i: int) -> str:
        return self._where[i]

    # -- Qt model API ------------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(_COLS)

    def headerData(self, section: int, orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return tr(f"hits.col.{_COLS[section]}", self.lang)
        return None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == 0:
            f |= Qt.ItemFlag.ItemIsUserCheckable
        return f

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        i = self.rows[index.row()]
        h, col = self.hits[i], index.column()
        if role == Qt.ItemDataRole.CheckStateRole and col == 0:
            return Qt.CheckState.Checked if self.checked[i] else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 1:
                return h.context
            if col == 2:
                return self._labels[h.label]
            if col == 3:
                return f"{h.score:.2f}"
            if col == 4:
                return self._where[i]
        if role == Qt.ItemDataRole.ToolTipRole and col == 1:
            return h.context
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 3:
            return int(_RIGHT.value) if hasattr(_RIGHT, "value") else int(_RIGHT)
        return None

    def setData(self, index: QModelIndex, value, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role == Qt.ItemDataRole.CheckStateRole and index.column() == 0 and index.row() < len(self.rows):
            on = Qt.CheckState(value) == Qt.CheckState.Checked if not isinstance(value, bool) else value
            self.set_checked(self.rows[index.row()], on)
            return True
        return False


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
        self._intro = intro
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
        self.head = QLabel()
        self.head.setWordWrap(True)
        self.head.setObjectName("hitsIntro")
        layout.addWidget(self.head)

        self.model = _HitModel(self.hits, lang, copies, self)
        self.table = QTableView()
        self.table.setObjectName("hitTable")
        self.table.setModel(self.model)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        fm = self.table.fontMetrics()
        widths = {0: fm.horizontalAdvance(tr("hits.col.use", lang)) + 24,
                  2: max([fm.horizontalAdvance(n) for n in self.model._labels.values()]
                         + [fm.horizontalAdvance(tr("hits.col.label", lang))]) + 16,
                  3: fm.horizontalAdvance("0.00 ") + 16,
                  4: max([fm.horizontalAdvance(w) for w in set(self.model._where)]
                         + [fm.horizontalAdvance(tr("hits.col.where", lang))]) + 16}
        for col, w in widths.items():
            self.table.setColumnWidth(col, min(w, 260))
        self.model.checksChanged.connect(self._update)
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
        self._apply_filter()
        self.resize(860, 520)

    # -- values ------------------------------------------------------------------------------------
    def is_shown(self, i: int) -> bool:
        """Hit ``i`` is listed (not filtered out by the score box or the inside-a-word option)."""
        return i in self._shown

    def where_text(self, i: int) -> str:
        return self.model.where(i)

    def checked_indices(self) -> list[int]:
        return [i for i in self.model.rows if self.model.checked[i]]

    def checked_hits(self) -> list[Hit]:
        return [self.hits[i] for i in self.checked_indices()]

    def set_checked(self, i: int, checked: bool) -> None:
        self.model.set_checked(i, checked)

    def set_all(self, checked: bool) -> None:
        self.model.set_many(self.model.rows, checked)

    # -- behaviour -----------------------------------------------------------------------------------
    def set_min_score(self, value: float) -> None:
        self._min_score = value
        if self.score_box is not None and abs(self.score_box.value() - value) > 1e-9:
            self.score_box.setValue(value)   # re-enters through valueChanged
            return
        self._apply_filter()

    def _on_include_partial(self, on: bool) -> None:
        if not on:   # hidden again: never applied unseen
            self.model.set_many([i for i, h in enumerate(self.hits) if not h.whole_word], False)
        self._apply_filter()

    def _apply_filter(self) -> None:
        on = self.include_partial.isChecked()
        low = None if self._min_score is None else self._min_score - 1e-9
        rows = [i for i, h in enumerate(self.hits)
                if (h.whole_word or on) and (low is None or h.score >= low)]
        self._shown = set(rows)
        if self._intro is not None and self._min_score is None:
            text = self._intro
        else:
            text = tr("hits.intro", self.lang).format(n=len(rows))
        self.head.setText(text if rows else tr("hits.none", self.lang))
        self.model.set_rows(rows)

    def _update(self, *_args) -> None:
        n = len(self.checked_indices())
        self.count_label.setText(tr("hits.checked", self.lang).format(n=n, total=len(self.model.rows)))
        self.apply_button.setText(tr(f"hits.apply.{self.kind}", self.lang).format(n=n))
        self.apply_button.setEnabled(n > 0)
