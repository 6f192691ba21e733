"""The span panel: filters, the table of review items, the threshold slider and the bulk buttons.

A plain widget over a ``SpanTableModel``; it knows nothing of documents or detection. The window connects
its buttons to actions and listens to two signals:

- ``thresholdChanged(float)``: the reviewer moved the slider (not emitted by ``show_threshold``);
- ``currentItemChanged(int)``: the reviewer made another table row current (item id).

Threading: GUI thread only.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QPushButton,
                               QSlider, QTableView, QVBoxLayout, QWidget)

from ..labels import MODEL_LABELS, UI_ORDER, display_name
from ..review.state import Status
from .i18n import tr
from .table_model import SpanDelegate, SpanFilterProxy, SpanTableModel

#: the label catalogue's order (``labels.UI_ORDER``)
LABEL_CHOICES = UI_ORDER
#: table column widths (0 = the stretching text column)
COLUMN_WIDTHS = (52, 0, 92, 48, 58, 48, 84)  # the last: section/page (table_model "where")


class SpanPanel(QWidget):
    thresholdChanged = Signal(float)
    currentItemChanged = Signal(int)

    def __init__(self, threshold: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.proxy = SpanFilterProxy(self)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setItemDelegate(SpanDelegate(self.table))
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row)
        self._echo_id: int | None = None  # the row select_item() is making current (not a user change)

        self.label_filter = QComboBox()
        self.label_filter.currentIndexChanged.connect(
            lambda _i: self.proxy.set_label_filter(self.label_filter.currentData()))
        self.status_filter = QComboBox()
        self.status_filter.currentIndexChanged.connect(self._on_status_filter)
        self.threshold_slider = QSlider(Qt.Orientation.Horizontal)
        self.threshold_slider.setRange(0, 100)
        self.threshold_slider.setValue(round(threshold * 100))
        self.threshold_slider.valueChanged.connect(self._on_slider)
        self.threshold_value = QLabel(f"{threshold:.2f}")
        self.threshold_caption = QLabel()
        self.filter_caption = QLabel()
        self.btn_accept = QPushButton()
        self.btn_reject = QPushButton()
        self.btn_accept_above = QPushButton()

        filters = QHBoxLayout()
        filters.addWidget(self.filter_caption)
        filters.addWidget(self.label_filter, 1)
        filters.addWidget(self.status_filter, 1)
        thresh = QHBoxLayout()
        thresh.addWidget(self.threshold_caption)
        thresh.addWidget(self.threshold_slider, 1)
        thresh.addWidget(self.threshold_value)
        buttons = QHBoxLayout()
        buttons.addWidget(self.btn_accept)
        buttons.addWidget(self.btn_reject)
        buttons.addWidget(self.btn_accept_above)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 0, 0)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addLayout(thresh)
        layout.addLayout(buttons)

    # -- model ------------------------------------------------------------------------------------------
    def set_model(self, model: SpanTableModel) -> None:
        self.proxy.setSourceModel(model)
        header = self.table.horizontalHeader()  # per-section modes need the columns to exist
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # the text column takes the rest
        for col, width in enumerate(COLUMN_WIDTHS):
            if width:
                self.table.setColumnWidth(col, width)
        self.fit_columns()

    def fit_columns(self, lang: str | None = None) -> None:
        """Widen the label / status / source columns to their longest text in the UI language (no clipped
        "Resident re…"); the label column fits the labels this document has (plus the three main ones)."""
        lang = lang or getattr(self, "_lang", "ko")
        model = self.proxy.sourceModel()
        state = getattr(model, "state", None)
        labels = set(MODEL_LABELS) | ({it.label for it in state} if state is not None else set())
        fm = self.table.fontMetrics()
        hfm = self.table.horizontalHeader().fontMetrics()
        texts = {2: [display_name(l, lang) for l in labels], 4: [tr(f"status.{s.value}", lang) for s in Status],
                 5: [tr(f"source.{s}", lang) for s in ("model", "rule", "manual")]}
        for col, items in texts.items():
            if col >= self.proxy.columnCount():
                continue
            header = self.proxy.headerData(col, Qt.Orientation.Horizontal) or ""
            need = max([fm.horizontalAdvance(t) for t in items] + [hfm.horizontalAdvance(str(header))]) + 16
            self.table.setColumnWidth(col, max(COLUMN_WIDTHS[col], need))

    # -- threshold --------------------------------------------------------------------------------------
    def threshold(self) -> float:
        return self.threshold_slider.value() / 100

    def show_threshold(self, value: float) -> None:
        """Move the slider to ``value`` without emitting ``thresholdChanged``."""
        old = self.threshold_slider.blockSignals(True)
        try:
            self.threshold_slider.setValue(round(value * 100))
        finally:
            self.threshold_slider.blockSignals(old)
        self.threshold_value.setText(f"{self.threshold():.2f}")

    def _on_slider(self, value: int) -> None:
        self.threshold_value.setText(f"{value / 100:.2f}")
        self.thresholdChanged.emit(value / 100)

    # -- rows -------------------------------------------------------------------------------------------
    def select_item(self, item_id: int | None) -> None:
        """Select ``item_id``'s row (if it passes the filters) and scroll to it; clear the selection if not."""
        sm = self.table.selectionModel()
        row = self.proxy.proxy_row_of(item_id) if item_id is not None else -1
        if row < 0:
            sm.clearSelection()
            return
        idx = self.proxy.index(row, 0)
        self._echo_id = item_id
        try:
            sm.setCurrentIndex(idx, sm.SelectionFlag.ClearAndSelect | sm.SelectionFlag.Rows)
        finally:
            self._echo_id = None
        self.table.scrollTo(idx)

    def selected_ids(self) -> list[int]:
        rows = {i.row() for i in self.table.selectionModel().selectedRows()}
        ids = [self.proxy.item_id(r) for r in sorted(rows)]
        return [i for i in ids if i is not None]

    def _on_current_row(self, current, _previous) -> None:
        if not current.isValid():
            return
        item_id = self.proxy.item_id(current.row())
        if item_id is not None and item_id != self._echo_id:
            self.currentItemChanged.emit(item_id)

    def _on_status_filter(self, _index: int) -> None:
        value = self.status_filter.currentData()
        self.proxy.set_status_filter(Status(value) if value else None)

    # -- text -------------------------------------------------------------------------------------------
    def retranslate(self, lang: str) -> None:
        self._lang = lang
        self.fit_columns(lang)
        self.filter_caption.setText(tr("panel.filter", lang))
        self.threshold_caption.setText(tr("panel.threshold", lang))
        self.btn_accept.setText(tr("action.accept", lang) + " (A)")
        self.btn_reject.setText(tr("action.reject", lang) + " (R)")
        self.btn_accept_above.setText(tr("panel.accept_above", lang))
        _refill(self.label_filter, tr("filter.all_labels", lang),
                [(display_name(label, lang), label) for label in LABEL_CHOICES])
        _refill(self.status_filter, tr("filter.all_status", lang),
                [(tr(f"status.{st.value}", lang), st.value) for st in Status])


def _refill(combo: QComboBox, all_text: str, entries: list[tuple[str, str]]) -> None:
    """Replace a filter combo's entries (texts in a new language), keeping the chosen one, silently."""
    old = combo.blockSignals(True)
    try:
        keep = combo.currentData()
        combo.clear()
        combo.addItem(all_text, None)
        for text, data in entries:
            combo.addItem(text, data)
        combo.setCurrentIndex(max(0, combo.findData(keep)))
    finally:
        combo.blockSignals(old)
