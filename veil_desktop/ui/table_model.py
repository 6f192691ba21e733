"""Qt adapter over ``ReviewState``: a table model (no copy of the data) and a filter/sort proxy.

``SpanTableModel`` is a ``StateListener``: the state tells it which items were appended, removed or
changed, and it forwards that to views (``beginInsertRows``/``beginRemoveRows``/``dataChanged``). It holds
no data of its own, only the *order* of rows: item ids sorted by position in the text ``(start, id)``, the
order a reviewer reads in. So the default view needs no sorting by the proxy — sorting thousands of
streamed rows in the proxy costs a Python ``lessThan`` per comparison — and ``SpanFilterProxy`` only sorts
when the user asks for another column.

Throttled inserts: while a detector streams thousands of spans, announcing every chunk to the proxy and
view would cost more GUI time than everything else together. Appended items wait in a *backlog*;
``catch_up()`` moves them into the rows, at most ``CATCH_UP_ROWS`` per call and, from the timer, for at most
``CATCH_UP_BUDGET_S`` (the rest stays in the backlog), lowest text positions first, grouping items that land
next to each other into one ``beginInsertRows``: each insertion costs the proxy, the header and the view an
O(rows) update in C++, and every catch-up is followed by a full table repaint (~15-20 ms), so the number of
insertions is what matters (taking the earliest positions first, not the earliest arrivals, cut it 4.6x on a
1M-character document). It runs from a timer at most every ``CATCH_UP_MS`` (every ``BACKLOG_MS`` while a
backlog remains) and at once, in full, when the app needs a row (``ensure_shown``).
Invariant: every state item is either in the rows or in the backlog, never both; items in the backlog
need no Qt notification when they change or disappear.

Threading: GUI thread only.
"""
from __future__ import annotations

import bisect
import time
from typing import Any, Sequence

from PySide6.QtCore import (QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel,
                            Qt, QTimer, Signal)
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from ..labels import display_name
from ..review.state import ReviewItem, ReviewState, StateListener, Status
from .colors import label_color, tinted
from .i18n import tr

#: custom roles
ItemIdRole = Qt.ItemDataRole.UserRole + 1
SortRole = Qt.ItemDataRole.UserRole + 2
#: everything a cell needs for painting in one call: (text, alignment|None, fg|None, bg|None, struck)
CellRole = Qt.ItemDataRole.UserRole + 3

COLUMNS = ("pos", "text", "label", "score", "status", "source", "where", "reason")
_COLUMN_IDS = COLUMNS
_NCOLS = len(COLUMNS)
_MAX_TEXT = 60

_DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole.value)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole.value)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole.value)
_FONT = int(Qt.ItemDataRole.FontRole.value)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole.value)
_SORT = int(SortRole.value) if hasattr(SortRole, "value") else int(SortRole)
_ITEM_ID = int(ItemIdRole.value) if hasattr(ItemIdRole, "value") else int(ItemIdRole)
_CELL = int(CellRole.value) if hasattr(CellRole, "value") else int(CellRole)
_RIGHT = int((Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter).value)
_GREY = QBrush(QColor("#8a8a8a"))
_STRUCK = QFont()
_STRUCK.setStrikeOut(True)


class SpanTableModel(QAbstractTableModel, StateListener):
    visibilityChanged = Signal()

    # every catch-up repaints the table (~20-60 ms of Python data() calls and text rendering), so
    # catch-ups are rare and large; rows arrive mostly in text order, so a batch is a few insertions
    CATCH_UP_MS = 500
    CATCH_UP_ROWS = 200
    BACKLOG_MS = 80
    CATCH_UP_BUDGET_S = 0.008

    def __init__(self, state: ReviewState, lang: str = "ko", parent=None) -> None:
        QAbstractTableModel.__init__(self, parent)
        self._state = state
        self.lang = lang
        self._ids: list[int] = []                 # row -> item id, sorted by key
        self._keys: list[tuple[int, int]] = []    # row -> (start, id), for bisect
        self._key_of: dict[int, tuple[int, int]] = {}
        self._backlog: dict[int, None] = {}       # appended but not yet shown (insertion-ordered set)
        self._timer = QTimer(self, singleShot=True, timeout=self._on_timer)
        self._part_starts: list[int] = []
        self._parts: list = []
        self._part_names: list[str] = []
        #: label -> default disclosure reason (settings; ui/tools/disclosure.py sets it) for the reason column
        self.reason_defaults: dict[str, str | None] = {}
        self._rebuild()
        state.add_listener(self)

    # -- rows -------------------------------------------------------------------------------------
    def _rebuild(self) -> None:
        keyed = sorted((it.start, it.id) for it in self._state)
        self._keys = keyed
        self._ids = [i for _, i in keyed]
        self._key_of = {i: k for k, i in zip(keyed, self._ids)}
        self._backlog.clear()

    @property
    def shown(self) -> int:
        return len(self._ids)

    def row_of(self, item_id: int) -> int:
        """Model row of ``item_id`` (-1 while it waits in the backlog)."""
        key = self._key_of.get(item_id)
        if key is None:
            return -1
        return bisect.bisect_left(self._keys, key)

    def item_id_at(self, row: int) -> int:
        return self._ids[row]

    def catch_up(self, limit: int | None = None, budget_s: float | None = None) -> None:
        """Show backlog items: all of them, or (timer) at most ``limit`` of them, lowest positions first,
        stopping after ``budget_s`` seconds; what is left stays in the backlog and the timer re-arms."""
        self._timer.stop()
        if self._backlog:
            state = self._state
            new = sorted((state.item(i).start, i) for i in self._backlog)
            if limit is not None:
                new = new[:limit]
            deadline = None if budget_s is None else time.perf_counter() + budget_s
            # group new keys that land at the same place among the existing rows: one insertion each
            # (each insertion costs the proxy, the header and the view an O(rows) update in C++)
            j = 0
            while j < len(new):
                pos = bisect.bisect_left(self._keys, new[j])
                k = j + 1
                limit_key = self._keys[pos] if pos < len(self._keys) else None
                while k < len(new) and (limit_key is None or new[k] < limit_key):
                    k += 1
                group = new[j:k]
                self.beginInsertRows(QModelIndex(), pos, pos + len(group) - 1)
                self._keys[pos:pos] = group
                self._ids[pos:pos] = [i for _, i in group]
                for key in group:
                    self._key_of[key[1]] = key
                    del self._backlog[key[1]]
                self.endInsertRows()
                j = k
                if deadline is not None and time.perf_counter() >= deadline:
                    break
        if self._backlog:
            self._timer.start(self.BACKLOG_MS)

    def _on_timer(self) -> None:
        self.catch_up(self.CATCH_UP_ROWS, self.CATCH_UP_BUDGET_S)

    def ensure_shown(self, item_id: int) -> None:
        if item_id in self._backlog:
            self.catch_up()

    def _remove_row_of(self, item_id: int) -> None:
        row = self.row_of(item_id)
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._keys[row]
        del self._ids[row]
        del self._key_of[item_id]
        self.endRemoveRows()

    @property
    def state(self) -> ReviewState:
        return self._state

    def detach(self) -> None:
        self._state.remove_listener(self)

    def set_parts(self, parts) -> None:
        """The document's parts (``documents.Part``): the *where* column names the one an item is in
        (body, header, footnote, comment, page …), in the UI language."""
        self._parts = sorted(parts or (), key=lambda p: p.start)
        self._part_starts = [p.start for p in self._parts]
        self._name_parts()
        if self._ids:
            col = COLUMNS.index("where")
            self.dataChanged.emit(self.index(0, col), self.index(len(self._ids) - 1, col))

    def _name_parts(self) -> None:
        self._part_names = [part_caption(p, self.lang) for p in self._parts]

    def part_name(self, offset: int) -> str:
        i = bisect.bisect_right(self._part_starts, offset) - 1
        if i < 0 or offset >= self._parts[i].end:
            return ""
        return self._part_names[i]

    def set_language(self, lang: str) -> None:
        self.lang = lang
        self._name_parts()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        if self._ids:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._ids) - 1, len(COLUMNS) - 1))

    # -- Qt model API -------------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:
        # one Python call instead of the base class's hasIndex -> rowCount + columnCount (proxies create
        # source indexes for every comparison while sorting inserted rows)
        if 0 <= row < len(self._ids) and 0 <= column < _NCOLS and not parent.isValid():
            return self.createIndex(row, column)
        return QModelIndex()

    def sort_key(self, row: int, column: int) -> Any:
        return self._sort_key(self._state.item(self._ids[row]), _COLUMN_IDS[column])

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return tr(f"col.{COLUMNS[section]}", self.lang)
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY) -> Any:
        # hot path: proxies call this thousands of times while sorting inserted rows, so roles are
        # compared as plain ints and the sort role is answered first
        row = index.row()
        if row < 0 or row >= len(self._ids):
            return None
        it = self._state.item(self._ids[row])
        col = _COLUMN_IDS[index.column()]
        if role == _SORT:
            return self._sort_key(it, col)
        if role == _CELL:
            return self._cell(it, col)
        if role == _DISPLAY:
            return self._display(it, col)
        if role == _ITEM_ID:
            return it.id
        if role == _TOOLTIP:
            return item_tooltip(self._state, it, self.lang)
        if role == _FOREGROUND:
            return _GREY if it.status is Status.REJECTED else None
        if role == _BACKGROUND:
            if col == "label":
                alpha = 170 if it.status is Status.ACCEPTED else 45
                return QBrush(tinted(label_color(it.label), alpha))
            return None
        if role == _FONT:
            return _STRUCK if it.status is Status.REJECTED and col == "text" else None
        if role == _ALIGN and col in ("pos", "score"):
            return _RIGHT
        return None

    def _cell(self, it: ReviewItem, col: str) -> tuple:
        rejected = it.status is Status.REJECTED
        bg = None
        if col == "label":
            bg = QBrush(tinted(label_color(it.label), 170 if it.status is Status.ACCEPTED else 45))
        return (self._display(it, col), _RIGHT if col in ("pos", "score") else None,
                _GREY if rejected else None, bg, rejected and col == "text")

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
        if col == "where":
            return self.part_name(it.start)
        if col == "reason":
            from .tools.disclosure import reason_cell

            return reason_cell(it, self.reason_defaults, self.lang)
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
        if col == "where":
            return (bisect.bisect_right(self._part_starts, it.start), it.start)
        if col == "reason":
            return (it.reason or self.reason_defaults.get(it.label) or "", it.start)
        return it.source

    # -- StateListener -> Qt -------------------------------------------------------------------------
    def rows_inserted(self, first: int, last: int) -> None:
        state = self._state
        for r in range(first, last + 1):
            self._backlog[state.item_at_row(r).id] = None
        if not self._timer.isActive():
            self._timer.start(self.CATCH_UP_MS)

    def row_removed(self, row: int, item: ReviewItem) -> None:
        if item.id in self._backlog:
            del self._backlog[item.id]
        elif item.id in self._key_of:
            self._remove_row_of(item.id)

    def items_changed(self, before: Sequence[ReviewItem], after: Sequence[ReviewItem]) -> None:
        rows = []
        for it in after:
            key = self._key_of.get(it.id)
            if key is None:
                continue  # in the backlog: nothing shown yet
            if key[0] != it.start:  # boundaries moved: the row moves to its new place
                self._remove_row_of(it.id)
                self._backlog[it.id] = None
                self.catch_up()
                continue
            rows.append(self.row_of(it.id))
        rows.sort()
        # one dataChanged per contiguous run keeps proxies from re-checking untouched rows
        i = 0
        while i < len(rows):
            j = i
            while j + 1 < len(rows) and rows[j + 1] == rows[j] + 1:
                j += 1
            self.dataChanged.emit(self.index(rows[i], 0), self.index(rows[j], len(COLUMNS) - 1))
            i = j + 1

    def about_to_reset(self) -> None:
        self.beginResetModel()

    def reset(self) -> None:
        self._timer.stop()
        self._rebuild()
        self.endResetModel()

    def threshold_changed(self, threshold: float) -> None:
        self.visibilityChanged.emit()


class SpanDelegate(QStyledItemDelegate):
    """Paints a cell from one ``CellRole`` lookup instead of the base class's seven ``data()`` calls (one
    Python call each): a table repaint drops from ~1,300 Python calls to ~360."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex) -> None:  # noqa: N802
        cell = index.data(CellRole)
        if cell is None:
            super().initStyleOption(option, index)
            return
        text, align, fg, bg, font = cell
        option.index = index
        option.features |= QStyleOptionViewItem.ViewItemFeature.HasDisplay
        option.text = text
        if align is not None:
            option.displayAlignment = Qt.AlignmentFlag(align)
        if fg is not None:
            option.palette.setBrush(QPalette.ColorRole.Text, fg)
        if bg is not None:
            option.backgroundBrush = bg
        if font:  # strike the text of a rejected item, in the view's own font
            f = QFont(option.font)
            f.setStrikeOut(True)
            option.font = f
            option.fontMetrics = QFontMetrics(f)


def part_caption(part, lang: str) -> str:
    """A document part's caption in the UI language: by its caption key (``Part.kind``/``detail``) when
    the reader gave one (``Header 1`` / ``머리글 1``), else its name."""
    kind = getattr(part, "kind", "")
    if kind:
        from . import i18n

        caption = getattr(i18n, "caption", None)
        if caption is not None:
            return caption(kind, getattr(part, "detail", ""), lang)
    name = getattr(part, "name", "")
    if name == "본문":              # the text/HWP readers' body part has a Korean name and no caption key
        return tr("caption.body", lang)
    if name.startswith("구역 ") and name[3:].isdigit():       # HWP sections
        return tr("caption.section", lang).format(detail=name[3:])
    return name


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

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        # the source rows are already in text order: "by position, ascending" is no sorting at all
        if column == 0 and order == Qt.SortOrder.AscendingOrder:
            column = -1
        super().sort(column, order)

    def lessThan(self, left: QModelIndex, right: QModelIndex) -> bool:  # noqa: N802
        # compare raw keys straight from the state: the default goes through data() twice per comparison
        model = self.sourceModel()
        if isinstance(model, SpanTableModel):
            col = left.column()
            a, b = model.sort_key(left.row(), col), model.sort_key(right.row(), col)
            if a != b:
                return a < b
            return model.sort_key(left.row(), 0) < model.sort_key(right.row(), 0)  # then by position
        return super().lessThan(left, right)

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        model = self.sourceModel()
        if not isinstance(model, SpanTableModel):
            return True
        state = model.state
        it = state.item(model.item_id_at(row))
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
        model.ensure_shown(item_id)
        src = model.index(model.row_of(item_id), 0)
        return self.mapFromSource(src).row()
