"""Qt adapter over ``ReviewState``: a table model (no copy of the data) and a filter/sort proxy.

``SpanTableModel`` is a ``StateListener``: the state tells it before/after rows are inserted or removed
and which items changed, and it forwards exactly that to views (``beginInsertRows``/``dataChanged``).
Row ``r`` of the model is row ``r`` of the state (append order); sorting and filtering live in
``SpanFilterProxy``.

Threading: GUI thread only.
"""
from __future__ import annotations

from typing import Any, Sequence

from PySide6.QtCore import (QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel,
                            Qt, Signal)
from PySide6.QtGui import QBrush, QColor

from ..labels import display_name
from ..review.state import ReviewItem, ReviewState, StateListener, Status
from .colors import label_color, tinted
from .i18n import tr

#: custom roles
ItemIdRole = Qt.ItemDataRole.UserRole + 1
SortRole = Qt.ItemDataRole.UserRole + 2

COLUMNS = ("pos", "text", "label", "score", "status", "source")
_MAX_TEXT = 60


class SpanTableModel(QAbstractTableModel, StateListener):
    visibilityChanged = Signal()

    def __init__(self, state: ReviewState, lang: str = "ko", parent=None) -> None:
        QAbstractTableModel.__init__(self, parent)
        self._state = state
        self.lang = lang
        state.add_listener(self)

    @property
    def state(self) -> ReviewState:
        return self._state

    def detach(self) -> None:
        self._state.remove_listener(self)

    def set_language(self, lang: str) -> None:
        self.lang = lang
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        if len(self._state):
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._state) - 1, len(COLUMNS) - 1))

    # -- Qt model API -------------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self._state)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return tr(f"col.{COLUMNS[section]}", self.lang)
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._state):
            return None
        it = self._state.item_at_row(index.row())
        col = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(it, col)
        if role == SortRole:
            return self._sort_key(it, col)
        if role == ItemIdRole:
            return it.id
        if role == Qt.ItemDataRole.ToolTipRole:
            return item_tooltip(self._state, it, self.lang)
        if role == Qt.ItemDataRole.ForegroundRole and it.status is Status.REJECTED:
            return QBrush(QColor("#8a8a8a"))
        if role == Qt.ItemDataRole.BackgroundRole and col == "label":
            alpha = 170 if it.status is Status.ACCEPTED else 45
            return QBrush(tinted(label_color(it.label), alpha))
        if role == Qt.ItemDataRole.FontRole and it.status is Status.REJECTED and col == "text":
            from PySide6.QtGui import QFont
            f = QFont()
            f.setStrikeOut(True)
            return f
        if role == Qt.ItemDataRole.TextAlignmentRole and col in ("pos", "score"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, it: ReviewItem, col: str) -> str:
        if col == "pos":
            return str(it.start)
        if col == "text":
            value = self._state.value(it).replace("\n", " ⏎ ")
            return value if len(value) <= _MAX_TEXT else value[:_MAX_TEXT - 1] + "…"
        if col == "label":
            return display_name(it.label, self.lang)
        if col == "score":
            return f"{it.score:.2f}"
        if col == "status":
            return tr(f"status.{it.status.value}", self.lang)
        return tr(f"source.{it.source}", self.lang)

    def _sort_key(self, it: ReviewItem, col: str) -> Any:
        if col == "pos":
            return it.start
        if col == "text":
            return self._state.value(it)
        if col == "label":
            return it.label
        if col == "score":
            return float(it.score)
        if col == "status":
            return it.status.value
        return it.source

    # -- StateListener -> Qt -------------------------------------------------------------------------
    def rows_about_to_be_inserted(self, first: int, last: int) -> None:
        self.beginInsertRows(QModelIndex(), first, last)

    def rows_inserted(self, first: int, last: int) -> None:
        self.endInsertRows()

    def row_about_to_be_removed(self, row: int) -> None:
        self.beginRemoveRows(QModelIndex(), row, row)

    def row_removed(self, row: int, item: ReviewItem) -> None:
        self.endRemoveRows()

    def items_changed(self, before: Sequence[ReviewItem], after: Sequence[ReviewItem]) -> None:
        rows = sorted(self._state.row_of(it.id) for it in after)
        # one dataChanged per contiguous run keeps proxies from re-checking untouched rows
        run_start = prev = rows[0]
        for r in rows[1:] + [None]:
            if r is None or r != prev + 1:
                self.dataChanged.emit(self.index(run_start, 0), self.index(prev, len(COLUMNS) - 1))
                if r is not None:
                    run_start = r
            if r is not None:
                prev = r

    def about_to_reset(self) -> None:
        self.beginResetModel()

    def reset(self) -> None:
        self.endResetModel()

    def threshold_changed(self, threshold: float) -> None:
        self.visibilityChanged.emit()


def item_tooltip(state: ReviewState, it: ReviewItem, lang: str) -> str:
    value = state.value(it)
    if len(value) > 80:
        value = value[:79] + "…"
    return (f"{value}\n{display_name(it.label, lang)} ({it.label}) · {tr('col.score', lang)} {it.score:.2f}\n"
            f"{tr('status.' + it.status.value, lang)} · {tr('source.' + it.source, lang)}")


class SpanFilterProxy(QSortFilterProxyModel):
    """Filters by label, status and the state's threshold; sorts on raw values (``SortRole``)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._label: str | None = None
        self._status: Status | None = None
        self.setSortRole(SortRole)
        self.setDynamicSortFilter(True)

    def setSourceModel(self, model: SpanTableModel) -> None:  # noqa: N802
        old = self.sourceModel()
        if isinstance(old, SpanTableModel):
            old.visibilityChanged.disconnect(self._on_visibility)
        super().setSourceModel(model)
        if model is not None:
            model.visibilityChanged.connect(self._on_visibility)

    def _on_visibility(self) -> None:
        self._refilter()

    def _refilter(self, change=lambda: None) -> None:
        # Qt >= 6.10: begin/endFilterChange (invalidateFilter is deprecated there); older: invalidateFilter
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            change()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:  # pragma: no cover - depends on the Qt version
            change()
            self.invalidateFilter()

    def set_label_filter(self, label: str | None) -> None:
        self._refilter(lambda: setattr(self, "_label", label or None))

    def set_status_filter(self, status: Status | None) -> None:
        self._refilter(lambda: setattr(self, "_status", status))

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        model = self.sourceModel()
        if not isinstance(model, SpanTableModel):
            return True
        state = model.state
        it = state.item_at_row(row)
        if not state.is_visible(it):
            return False
        if self._label is not None and it.label != self._label:
            return False
        if self._status is not None and it.status is not self._status:
            return False
        return True

    def item_id(self, proxy_row: int) -> int | None:
        idx = self.index(proxy_row, 0)
        return self.data(idx, ItemIdRole) if idx.isValid() else None

    def proxy_row_of(self, item_id: int) -> int:
        model = self.sourceModel()
        if not isinstance(model, SpanTableModel) or item_id not in model.state:
            return -1
        src = model.index(model.state.row_of(item_id), 0)
        return self.mapFromSource(src).row()
