"""The reviewer's main window.

Layout: document view (left) | span panel (filters, table, threshold, bulk buttons) (right); status bar
with model id, counts per label, reviewed %, a progress bar and Cancel.

Threading contract:
- the window, the ``ReviewState`` and every widget live on the GUI thread;
- opening, detection, export and autosave run on ``QThreadPool.globalInstance()`` via ``TaskWorker`` /
  ``DetectWorker``; they receive immutable inputs (paths, text, snapshots) and report through signals;
- every job gets a fresh id; a result whose id is not the current job's is dropped, so a cancelled or
  superseded job can never leak spans into the document now on screen;
- spans from the detector are queued and fed to the state in chunks from a zero-delay timer, so a burst of
  thousands of spans never blocks the event loop for long.

Autosave: any change to the state starts a 1 s single-shot timer (not restarted by later changes, so the
delay is bounded); the snapshot is taken on the GUI thread and written atomically on the pool.
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QPoint, QSize, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QInputDialog, QLabel,
                               QMainWindow, QMenu, QMessageBox, QProgressBar, QPushButton, QSlider,
                               QSplitter, QTableView, QVBoxLayout, QWidget, QFileDialog)

from ..detect.events import Detector
from ..detect.span import ALL_LABELS, Span
from ..labels import display_name
from ..review.export import PendingPolicy, accept_copies
from ..review.session import Autosaver, SessionInfo, document_hash
from ..review.settings import AppSettings
from ..review.state import ReviewItem, ReviewState, StateListener, Status
from .actions import ACTIONS, MENUS
from .backends import (CopiesFound, DetectorCache, ExportRequest, Loaded, export_review, load_for_review,
                       snapshot_state)
from .document_view import DocumentView
from .highlighter import SpanHighlighter
from .i18n import tr
from .settings_store import SettingsStore
from .table_model import SpanDelegate, SpanFilterProxy, SpanTableModel
from .worker import DetectProcess, DetectSignals, DetectWorker, TaskSignals, TaskWorker

#: GUI time spent feeding detector spans to the state per event-loop turn (the rest of the turn is left
#: for input and painting); the chunk size adapts to the measured cost per span
DRAIN_BUDGET_S = 0.008
DRAIN_FIRST_CHUNK = 50
AUTOSAVE_DELAY_MS = 1000
LABEL_CHOICES = ("PERSON", "ADDRESS", "ORGANIZATION") + tuple(l for l in ALL_LABELS
                                                              if l not in ("PERSON", "ADDRESS", "ORGANIZATION")) + ("OTHER",)

DetectorFactory = Callable[[Path | None, int | None], Detector]


class _StateWatcher(StateListener):
    """Forwards "something changed" from the state to the window (autosave, status bar, actions)."""

    def __init__(self, on_change: Callable[[bool], None]) -> None:
        self._on_change = on_change

    def rows_inserted(self, first, last): self._on_change(False)
    def row_removed(self, row, item): self._on_change(True)
    def items_changed(self, before, after): self._on_change(True)
    def reset(self): self._on_change(False)
    def threshold_changed(self, threshold): self._on_change(True)
    def history_changed(self): self._on_change(True)  # every decision ends with this


class MainWindow(QMainWindow):
    #: emitted (GUI thread) when the current document is shown and its review restored
    documentLoaded = Signal(str)
    #: emitted when the current detection job has ended and all its spans are in the state (bool: cancelled)
    detectionFinished = Signal(bool)
    #: emitted when an export finished: output path, or "" with the error message in ``last_error``
    exportFinished = Signal(str)
    #: emitted when an export stopped at unmasked copies and the reviewer is asked (number of copies)
    copiesFound = Signal(int)
    #: emitted whenever an error message box is shown
    errorShown = Signal(str)
    #: emitted after an autosave write completed
    autosaved = Signal(str)

    def __init__(self, settings_store: SettingsStore | None = None,
                 detector_factory: DetectorFactory | None = None) -> None:
        super().__init__()
        self._store = settings_store or SettingsStore()
        self.settings: AppSettings = self._store.load()
        self.lang = self.settings.language
        # The default detector runs in a child process (its long C calls hold the GIL, which would stall
        # this thread); an injected factory (tests, embedding) runs in a pool thread instead.
        self._detectors = DetectorCache(detector_factory)
        self._process: DetectProcess | None = None
        if detector_factory is None:
            self._process = self._new_process()
        self._pool = QThreadPool.globalInstance()
        # detection holds one pool thread for a long time; opening, export and autosave must not queue
        # behind it, even on a one-core machine (idealThreadCount() == 1)
        if self._pool.maxThreadCount() < 4:
            self._pool.setMaxThreadCount(4)
        self._job_seq = 0
        self._open_job: int | None = None
        self._detect_job: int | None = None
        self._detect_worker: DetectWorker | None = None
        self._detect_done_pending = False     # finished/failed arrived, waiting for the queue to drain
        self._detect_error: str | None = None  # failure message to show once the queue is drained
        self._detect_cancelled = False
        self._live_signals: dict[int, object] = {}  # keeps signal objects alive until their job ends
        self._incoming: deque[Span] = deque()
        self._drain_chunk = DRAIN_FIRST_CHUNK
        self._progress_shown_at = 0.0
        self._drain_timer = QTimer(self, singleShot=True, interval=0, timeout=self._drain)
        self._status_timer = QTimer(self, singleShot=True, interval=150, timeout=self._refresh_status)
        self._autosave_timer = QTimer(self, singleShot=True, interval=AUTOSAVE_DELAY_MS, timeout=self._autosave)
        self._autosaver = Autosaver()
        self.dropped_batches = 0              # late batches from superseded jobs (for tests/diagnostics)
        self.last_error = ""
        self.detector_id = ""
        self.first_highlight_s: float | None = None  # open -> first highlighted span (benchmark)
        self._open_started = 0.0

        self.document = None                  # veil_desktop.documents.Document
        self.path: Path | None = None
        self.state: ReviewState | None = None
        self.session: SessionInfo | None = None
        self._highlighter: SpanHighlighter | None = None
        self._model: SpanTableModel | None = None
        self._watcher = _StateWatcher(self._on_state_changed)
        self._current_id: int | None = None

        self._build_ui()
        self._build_actions()
        self.setAcceptDrops(True)
        self.retranslate()
        self.update_actions()
        self.resize(1280, 800)

    # ================================================================================================
    # construction
    # ================================================================================================
    def _new_process(self) -> "DetectProcess":
        proc = DetectProcess(self.settings.model_dir or None, self.settings.engine_threads(), self)
        proc.started.connect(self._on_detect_started)
        proc.progress.connect(self._on_detect_progress)
        proc.spans.connect(self._on_detect_spans)
        proc.finished.connect(self._on_detect_finished)
        proc.failed.connect(self._on_detect_failed)
        return proc

    def _build_ui(self) -> None:
        self.view = DocumentView()
        self.view.itemClicked.connect(self.select_item)
        self.view.contextRequested.connect(self._on_view_context)
        self.view.selectionChanged.connect(self.update_actions)
        self.view.setFont(self._document_font())
        # blocks whose highlight changed while off screen are re-highlighted as they scroll into view
        self.view.updateRequest.connect(self._on_view_update)

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
        self.table.selectionModel().currentRowChanged.connect(self._on_table_current)

        self.label_filter = QComboBox()
        self.label_filter.currentIndexChanged.connect(self._on_label_filter)
        self.status_filter = QComboBox()
        self.status_filter.currentIndexChanged.connect(self._on_status_filter)
        self.threshold_slider = QSlider(Qt.Orientation.Horizontal)
        self.threshold_slider.setRange(0, 100)
        self.threshold_slider.setValue(round(self.settings.threshold * 100))
        self.threshold_slider.valueChanged.connect(self._on_threshold)
        self.threshold_value = QLabel()
        self.threshold_caption = QLabel()
        self.filter_caption = QLabel()

        self.btn_accept = QPushButton()
        self.btn_reject = QPushButton()
        self.btn_accept_above = QPushButton()
        self.btn_accept.clicked.connect(self._on_accept)
        self.btn_reject.clicked.connect(self._on_reject)
        self.btn_accept_above.clicked.connect(self._on_accept_above)

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
        panel = QWidget()
        pl = QVBoxLayout(panel)
        pl.setContentsMargins(4, 0, 0, 0)
        pl.addLayout(filters)
        pl.addWidget(self.table, 1)
        pl.addLayout(thresh)
        pl.addLayout(buttons)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.view)
        splitter.addWidget(panel)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([720, 520])
        self.setCentralWidget(splitter)

        sb = self.statusBar()
        self.model_label = QLabel()
        self.counts_label = QLabel()
        self.reviewed_label = QLabel()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(180)
        self.progress.setVisible(False)
        self.cancel_button = QPushButton()
        self.cancel_button.setVisible(False)
        self.cancel_button.clicked.connect(self._on_cancel_detection)
        # permanent widgets stay visible while showMessage() shows transient messages on the left
        sb.addPermanentWidget(self.model_label)
        sb.addPermanentWidget(self.counts_label)
        sb.addPermanentWidget(self.reviewed_label)
        sb.addPermanentWidget(self.progress)
        sb.addPermanentWidget(self.cancel_button)

    def _build_actions(self) -> None:
        self.actions_by_id: dict[str, QAction] = {}
        self.menus: dict[str, QMenu] = {}
        for name in MENUS:
            self.menus[name] = self.menuBar().addMenu("")
        self.recent_menu = QMenu(self)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        for spec in ACTIONS:
            act = QAction(self)
            act.setShortcuts([QKeySequence(s) for s in spec.shortcuts])
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            act.triggered.connect(getattr(self, f"_on_{spec.id}"))
            menu = self.menus[spec.menu]
            if spec.separator_before:
                menu.addSeparator()
            menu.addAction(act)
            if spec.id == "open":
                self.recent_action = menu.addMenu(self.recent_menu)
            self.addAction(act)  # shortcuts work even when the menu bar is hidden
            self.actions_by_id[spec.id] = act

    def retranslate(self) -> None:
        """(Re)apply every user-visible string in the current language."""
        lang = self.lang
        for name, menu in self.menus.items():
            menu.setTitle(tr(f"menu.{name}", lang))
        self.recent_menu.setTitle(tr("menu.recent", lang))
        for spec in ACTIONS:
            act = self.actions_by_id[spec.id]
            act.setText(tr(f"action.{spec.id}", lang))
            if spec.shortcuts:
                act.setToolTip(f"{tr(f'action.{spec.id}', lang)} ({spec.shortcuts[0]})")
        self.filter_caption.setText(tr("panel.filter", lang))
        self.threshold_caption.setText(tr("panel.threshold", lang))
        self.btn_accept.setText(tr("action.accept", lang) + " (A)")
        self.btn_reject.setText(tr("action.reject", lang) + " (R)")
        self.btn_accept_above.setText(tr("panel.accept_above", lang))
        self.cancel_button.setText(tr("detect.cancel", lang))
        self.view.lang = lang
        with _blocked(self.label_filter):
            keep = self.label_filter.currentData()
            self.label_filter.clear()
            self.label_filter.addItem(tr("filter.all_labels", lang), None)
            for label in LABEL_CHOICES:
                self.label_filter.addItem(display_name(label, lang), label)
            self.label_filter.setCurrentIndex(max(0, self.label_filter.findData(keep)))
        with _blocked(self.status_filter):
            keep = self.status_filter.currentData()
            self.status_filter.clear()
            self.status_filter.addItem(tr("filter.all_status", lang), None)
            for st in Status:
                self.status_filter.addItem(tr(f"status.{st.value}", lang), st.value)
            self.status_filter.setCurrentIndex(max(0, self.status_filter.findData(keep)))
        if self._model is not None:
            self._model.set_language(lang)
        self._update_title()
        self._on_threshold(self.threshold_slider.value(), apply=False)
        self._refresh_status()

    def _document_font(self) -> QFont:
        from .app import korean_font_family

        font = QFont(korean_font_family())
        font.setPointSize(11)
        return font

    # ================================================================================================
    # actions: enabled state
    # ================================================================================================
    def update_actions(self) -> None:
        st = self.state
        has_doc = st is not None
        conditions = {
            "": True,
            "doc": has_doc,
            "item": has_doc and self.current_item() is not None,
            "selection": has_doc and self.view.selection_range() is not None,
            "undo": has_doc and st.can_undo,
            "redo": has_doc and st.can_redo,
            "detecting": self._detect_job is not None,
        }
        for spec in ACTIONS:
            self.actions_by_id[spec.id].setEnabled(conditions[spec.enabled_when])
        if has_doc:
            self.actions_by_id["undo"].setText(tr("action.undo", self.lang)
                                               + (f": {st.undo_text()}" if st.can_undo else ""))
            self.actions_by_id["redo"].setText(tr("action.redo", self.lang)
                                               + (f": {st.redo_text()}" if st.can_redo else ""))
        self.btn_accept.setEnabled(conditions["item"])
        self.btn_reject.setEnabled(conditions["item"])
        self.btn_accept_above.setEnabled(has_doc)

    # ================================================================================================
    # opening
    # ================================================================================================
    def open_path(self, path: str | Path) -> int:
        """Start opening ``path`` in the background; returns the job id. Cancels any running detection."""
        path = Path(path)
        self._cancel_detection(silent=True)
        self._flush_autosave()
        job = self._next_job()
        self._open_job = job
        self._open_started = time.perf_counter()
        self.first_highlight_s = None
        self.statusBar().showMessage(tr("status.opening", self.lang).format(name=path.name))
        threshold = self.settings.threshold
        self._start_task(job, lambda: load_for_review(path, threshold), self._on_loaded, self._on_open_failed)
        return job

    def _on_loaded(self, job: int, loaded: Loaded) -> None:
        if job != self._open_job:
            return
        self._open_job = None
        self._install(loaded)
        self.settings = self.settings.with_recent(str(loaded.path))
        self._store.save(self.settings)
        if loaded.note:
            self._error(loaded.note)
        restored = loaded.session is not None
        if restored:
            n = sum(1 for it in loaded.state if it.status is not Status.PENDING)
            self.statusBar().showMessage(tr("status.restored", self.lang).format(n=n), 8000)
        if not restored or not loaded.session.detection_complete:
            self.run_detection()
        else:
            self.detector_id = loaded.session.model_id
            self._refresh_status()
        self.documentLoaded.emit(str(loaded.path))  # after detection started: listeners may check for it

    def _on_open_failed(self, job: int, message: str) -> None:
        if job != self._open_job:
            return
        self._open_job = None
        self.statusBar().clearMessage()
        self._error(tr("error.open", self.lang).format(message=message))

    def _install(self, loaded: Loaded) -> None:
        """Show a freshly loaded document (GUI thread). Old adapters are detached first."""
        if self._highlighter is not None:
            self._highlighter.detach()
            self._highlighter = None
        if self._model is not None:
            self._model.detach()
        if self.state is not None:
            self.state.remove_listener(self._watcher)
        self._incoming.clear()
        self._current_id = None
        self.document, self.path, self.state = loaded.document, loaded.path, loaded.state
        self.session = loaded.session or SessionInfo(document_hash(loaded.state.text), str(loaded.path))
        state = self.state
        if loaded.session is not None:
            with _blocked(self.threshold_slider):
                self.threshold_slider.setValue(round(state.threshold * 100))
            self._on_threshold(self.threshold_slider.value(), apply=False)
        else:
            state.set_threshold(self.threshold_slider.value() / 100)
        self._model = SpanTableModel(state, self.lang, self)
        self.proxy.setSourceModel(self._model)
        header = self.table.horizontalHeader()  # per-section modes need the columns to exist
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # the text column takes the rest
        for col, width in enumerate((52, 0, 92, 48, 58, 48)):
            if width:
                self.table.setColumnWidth(col, width)
        self.view.set_text(state.text, state)
        # attach after the text is in, so Qt highlights the (already restored) items in one pass
        self._highlighter = SpanHighlighter(self.view.document(), state, self.view.offsets,
                                            self.view.visible_block_range)
        state.add_listener(self._watcher)
        self._update_title()
        self.update_actions()
        self._refresh_status()

    # ================================================================================================
    # detection
    # ================================================================================================
    def run_detection(self) -> int | None:
        """(Re)run detection on the open document; results merge into the state (decisions are kept)."""
        if self.state is None:
            return None
        self._cancel_detection(silent=True)
        job = self._next_job()
        self._detect_job = job
        self._detect_done_pending = False
        self._detect_error = None
        self._incoming.clear()
        self.session.detection_complete = False
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self.cancel_button.setVisible(True)
        self.statusBar().showMessage(tr("status.detecting", self.lang))
        if self._process is not None:
            try:
                self._process.start_job(job, self.state.text, self.view.visible_range())
            except (OSError, RuntimeError) as exc:  # the child could not be started
                self._detect_error = str(exc)
                self._finish_detection(cancelled=True)
                return None
            self.update_actions()
            return job
        signals = DetectSignals()  # created here, on the GUI thread
        signals.started.connect(self._on_detect_started)
        signals.progress.connect(self._on_detect_progress)
        signals.spans.connect(self._on_detect_spans)
        signals.finished.connect(self._on_detect_finished)
        signals.failed.connect(self._on_detect_failed)
        settings = self.settings
        worker = DetectWorker(job, lambda: self._detectors.get(settings), self.state.text,
                              self.view.visible_range(), signals)
        self._detect_worker = worker
        self._live_signals[job] = signals
        self._pool.start(worker)
        self.update_actions()
        return job

    def cancel_detection(self) -> None:
        self._cancel_detection(silent=False)

    def _cancel_detection(self, *, silent: bool) -> None:
        if self._detect_worker is not None:
            self._detect_worker.cancel()
        if self._process is not None and self._detect_job is not None:
            self._process.cancel(self._detect_job)
        was_running = self._detect_job is not None
        self._detect_job = None  # from now on every late result of that job is dropped
        self._detect_worker = None
        self._incoming.clear()
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        if was_running and not silent:
            self.statusBar().showMessage(tr("status.cancelled", self.lang), 5000)
            self._schedule_autosave()
            self.detectionFinished.emit(True)
        self.update_actions()

    def _on_detect_started(self, job: int, detector_id: str) -> None:
        if job == self._detect_job:
            self.detector_id = detector_id
            self.session.model_id = detector_id
            self._refresh_status()

    def _on_detect_progress(self, job: int, done: int, total: int) -> None:
        if job != self._detect_job:
            return
        # QProgressBar.setValue repaints synchronously: at most a few updates per second
        now = time.perf_counter()
        if done < total and now - self._progress_shown_at < 0.25:
            return
        self._progress_shown_at = now
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)

    def _on_detect_spans(self, job: int, spans: list) -> None:
        if job != self._detect_job:
            self.dropped_batches += 1
            return
        self._incoming.extend(spans)
        if not self._drain_timer.isActive():
            self._drain_timer.start()

    def _drain(self) -> None:
        """Feed queued spans to the state, ``DRAIN_CHUNK`` per event-loop turn."""
        state = self.state
        if state is None or self._detect_job is None and not self._detect_done_pending:
            self._incoming.clear()
            return
        t0 = time.perf_counter()
        deadline = t0 + DRAIN_BUDGET_S
        while self._incoming:
            n = min(self._drain_chunk, len(self._incoming))
            chunk = [self._incoming.popleft() for _ in range(n)]
            t = time.perf_counter()
            try:
                added = state.add_detected(chunk)
            except ValueError as exc:  # a span outside the text: a detector bug; report, do not crash
                self._incoming.clear()
                self._detect_error = str(exc)
                self._finish_detection(cancelled=True)
                return
            now = time.perf_counter()
            if added and self.first_highlight_s is None:
                self.first_highlight_s = now - self._open_started
            # size the next chunk to what fits in the budget at the cost just measured
            per_span = max((now - t) / n, 1e-6)
            self._drain_chunk = max(10, min(1000, int(DRAIN_BUDGET_S / 2 / per_span)))
            if now >= deadline:
                break
        if self._incoming:
            self._drain_timer.start()
        elif self._detect_done_pending:
            self._finish_detection(cancelled=self._detect_error is not None)

    def _on_detect_finished(self, job: int, cancelled: bool) -> None:
        self._live_signals.pop(job, None)
        if job != self._detect_job:
            return
        if cancelled:
            self._finish_detection(cancelled=True)
            return
        self._detect_done_pending = True
        if not self._incoming and not self._drain_timer.isActive():
            self._finish_detection(cancelled=False)

    def _finish_detection(self, *, cancelled: bool) -> None:
        error, self._detect_error = self._detect_error, None
        if self._model is not None:
            self._model.catch_up(self._model.CATCH_UP_ROWS)  # the rest follows in batches
        self._detect_job = None
        self._detect_worker = None
        self._detect_done_pending = False
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        if self.session is not None:
            self.session.detection_complete = not cancelled
        self.statusBar().showMessage(tr("status.cancelled" if cancelled else "status.detected", self.lang)
                                     .format(n=len(self.state) if self.state else 0), 5000)
        self._schedule_autosave()
        self.update_actions()
        self._refresh_status()
        self.detectionFinished.emit(cancelled)
        if error is not None:
            self._error(tr("error.detect", self.lang).format(message=error))

    def _on_detect_failed(self, job: int, message: str) -> None:
        self._live_signals.pop(job, None)
        if job != self._detect_job:
            return
        # spans that arrived before the failure are valid: let the queue drain, then report
        self._detect_error = message
        self._detect_done_pending = True
        if not self._incoming and not self._drain_timer.isActive():
            self._finish_detection(cancelled=True)

    # ================================================================================================
    # current item, navigation
    # ================================================================================================
    def current_item(self) -> ReviewItem | None:
        if self.state is None or self._current_id is None or self._current_id not in self.state:
            return None
        return self.state.item(self._current_id)

    def select_item(self, item_id: int | None, *, scroll_view: bool = True) -> None:
        """Make ``item_id`` current: select its table row and outline it in the document."""
        self._current_id = item_id
        item = self.current_item()
        if item is not None:
            row = self.proxy.proxy_row_of(item.id)
            sm = self.table.selectionModel()
            if row >= 0:
                idx = self.proxy.index(row, 0)
                # _current_id is already set, so _on_table_current ignores this echo
                sm.setCurrentIndex(idx, sm.SelectionFlag.ClearAndSelect | sm.SelectionFlag.Rows)
                self.table.scrollTo(idx)
            else:
                sm.clearSelection()
        self.view.show_current(item, scroll=scroll_view)
        self.update_actions()

    def _on_table_current(self, current, previous) -> None:
        if not current.isValid():
            return
        item_id = self.proxy.item_id(current.row())
        if item_id is not None and item_id != self._current_id:
            self._current_id = item_id
            self.view.show_current(self.current_item())
            self.update_actions()

    def selected_ids(self) -> list[int]:
        """Items selected in the table, or the current item."""
        rows = {i.row() for i in self.table.selectionModel().selectedRows()}
        ids = [self.proxy.item_id(r) for r in sorted(rows)]
        ids = [i for i in ids if i is not None]
        if self._current_id is not None and self._current_id not in ids and self.current_item() is not None:
            ids = [self._current_id] if not ids else ids
        return ids

    def _go_pending(self, forward: bool) -> None:
        if self.state is None:
            return
        cur = self.current_item()
        pos = cur.start if cur else (self.view.cursor_offset() if forward else self.view.cursor_offset() + 1)
        if cur is None and forward:
            pos -= 1
        nxt = self.state.next_pending(pos, forward=forward, exclude=cur.id if cur else None)
        if nxt is not None:
            self.select_item(nxt.id)
        elif cur is not None:
            self.statusBar().showMessage(tr("status.all_reviewed", self.lang), 4000)

    # ================================================================================================
    # decisions
    # ================================================================================================
    def decide(self, status: Status, *, propagate: bool = False, advance: bool = True) -> None:
        if self.state is None:
            return
        ids = self.selected_ids()
        if not ids:
            return
        anchor = self.current_item()
        self.state.set_status(ids, status, propagate=propagate)
        if advance and anchor is not None:
            nxt = self.state.next_pending(anchor.start, exclude=anchor.id)
            self.select_item(nxt.id if nxt else anchor.id)
        else:
            self.select_item(self._current_id, scroll_view=False)

    def accept_above(self, score: float) -> int:
        if self.state is None:
            return 0
        cmd = self.state.accept_above(score)
        return len(cmd.changes) if cmd else 0

    def mark_selection(self, label: str) -> ReviewItem | None:
        if self.state is None:
            return None
        rng = self.view.selection_range()
        if rng is None:
            return None
        try:
            item = self.state.add_manual(rng[0], rng[1], label)
        except ValueError as exc:
            self._error(str(exc))
            return None
        self.select_item(item.id, scroll_view=False)
        return item

    def adjust_current(self, start: int, end: int) -> None:
        item = self.current_item()
        if item is None or self.state is None:
            return
        try:
            self.state.adjust(item.id, start, end)
        except ValueError as exc:
            self.statusBar().showMessage(str(exc), 5000)
            return
        self.select_item(item.id, scroll_view=False)

    def _nudge(self, d_start: int, d_end: int) -> None:
        item = self.current_item()
        if item is not None:
            self.adjust_current(item.start + d_start, item.end + d_end)

    # ================================================================================================
    # export
    # ================================================================================================
    def export_to(self, out_path: str | Path, *, styles: dict[str, str] | None = None,
                  default_style: str | None = None, policy: PendingPolicy | str | None = None) -> int | None:
        """Export the masked document to ``out_path`` in the background (``exportFinished`` reports)."""
        if self.state is None or self.document is None:
            return None
        out = Path(out_path)
        if self.path is not None and _same_path(out, self.path):
            self._error(tr("error.overwrite", self.lang))
            self.exportFinished.emit("")
            return None
        req = ExportRequest(out, dict(self.settings.styles if styles is None else styles),
                            default_style or self.settings.default_style,
                            PendingPolicy(policy or self.settings.pending_policy), self.detector_id)
        return self._start_export(req)

    def _start_export(self, req: ExportRequest) -> int:
        """Plan, copy check and writing all run on the pool, over a snapshot of the state."""
        snap = snapshot_state(self.state)
        document = self.document
        job = self._next_job()
        self.statusBar().showMessage(tr("status.exporting", self.lang))
        self._start_task(job, lambda: export_review(document, snap, req),
                         lambda j, result: self._on_exported(j, result, document), self._on_export_failed)
        return job

    def _on_exported(self, job: int, result, document=None) -> None:
        if isinstance(result, CopiesFound):
            self._ask_copies(result, document)
            return
        out = str(getattr(result, "output", result))
        self.statusBar().showMessage(tr("status.exported", self.lang).format(path=out), 8000)
        self.exportFinished.emit(out)

    def _on_export_failed(self, job: int, message: str) -> None:
        self.statusBar().clearMessage()
        self._error(tr("error.export", self.lang).format(message=message))
        self.exportFinished.emit("")

    def _ask_copies(self, found: CopiesFound, document) -> None:
        """Values the export masks also occur unmasked elsewhere: mask those copies too, or go back.

        Window-modal and opened asynchronously (like ``_error``); nothing has been written yet, and
        nothing is unless the reviewer chooses to mask the copies.
        """
        lang = self.lang
        self.statusBar().clearMessage()
        lines = [f"{part}: {ctx}" if part else ctx for part, ctx in found.examples]
        if found.count > len(found.examples):
            lines.append(tr("copies.more", lang).format(n=found.count - len(found.examples)))
        box = QMessageBox(QMessageBox.Icon.Question, tr("copies.title", lang),
                          tr("copies.found", lang).format(n=found.count), QMessageBox.StandardButton.NoButton,
                          self)
        box.setObjectName("copiesBox")
        box.setInformativeText("\n".join(lines) + "\n\n" + tr("copies.question", lang))
        mask = box.addButton(tr("copies.mask", lang), QMessageBox.ButtonRole.AcceptRole)
        mask.setObjectName("maskCopies")
        cancel = box.addButton(tr("copies.cancel", lang), QMessageBox.ButtonRole.RejectRole)
        cancel.setObjectName("cancelCopies")
        box.setDefaultButton(cancel)   # Enter must not write anything by accident
        box.setEscapeButton(cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        # ``finished`` also covers closing the box without a button: that counts as Cancel
        box.finished.connect(lambda _r: self._on_copies_answer(box.clickedButton() is mask, found, document))
        box.open()
        self.copiesFound.emit(found.count)

    def _on_copies_answer(self, mask: bool, found: CopiesFound, document) -> None:
        if document is not self.document or self.state is None:
            mask = False  # another document was opened meanwhile: its review must not get these spans
        if not mask:
            self.last_error = tr("copies.cancelled", self.lang)
            self.statusBar().showMessage(self.last_error, 8000)
            self.exportFinished.emit("")
            return
        # one undo step; the table, highlights and session follow through the state's listeners
        accept_copies(self.state, found.spans, description=tr("copies.mask", "en"))
        self._start_export(replace(found.request, mask_copies=True))

    # ================================================================================================
    # autosave
    # ================================================================================================
    def _on_state_changed(self, decision: bool) -> None:
        # detector output alone is saved when the job ends (it can be recomputed); decisions at once
        if decision or self._detect_job is None:
            self._schedule_autosave()
        if not self._status_timer.isActive():
            self._status_timer.start()
        self.update_actions()

    def _schedule_autosave(self) -> None:
        if self.state is not None and not self._autosave_timer.isActive():
            self._autosave_timer.start()  # not restarted by later changes: the delay stays bounded

    def _autosave(self) -> None:
        if self.state is None or self.session is None:
            return
        self.session.threshold = self.state.threshold
        snap = self._autosaver.snapshot(self.state, self.session)  # cheap; serialised on the pool
        job = self._next_job()
        saver = self._autosaver
        self._start_task(job, lambda: (saver.write(snap), str(snap.path))[1],
                         lambda j, p: self.autosaved.emit(p),
                         lambda j, m: self.statusBar().showMessage(tr("error.autosave", self.lang)
                                                                   .format(message=m), 8000))

    def _flush_autosave(self) -> None:
        """Write the session now, on this thread (closing, switching documents)."""
        if self._autosave_timer.isActive():
            self._autosave_timer.stop()
        if self.state is None or self.session is None or not len(self.state):
            return
        self.session.threshold = self.state.threshold
        try:
            self._autosaver.write(self._autosaver.snapshot(self.state, self.session))
        except OSError as exc:
            self._error(tr("error.autosave", self.lang).format(message=str(exc)))

    # ================================================================================================
    # settings
    # ================================================================================================
    def apply_settings(self, new: AppSettings) -> None:
        new = new.normalised()
        model_changed = (new.model_dir, new.threads) != (self.settings.model_dir, self.settings.threads)
        lang_changed = new.language != self.settings.language
        self.settings = new
        self._store.save(new)
        if model_changed and self._process is not None:
            self._cancel_detection(silent=True)
            self._process.close()
            self._process = self._new_process()
        if lang_changed:
            self.lang = new.language
            self.retranslate()
        if model_changed and self.state is not None:
            self.run_detection()

    # ================================================================================================
    # status bar, title
    # ================================================================================================
    def _refresh_status(self) -> None:
        lang = self.lang
        self.model_label.setText(tr("status.model", lang).format(model=self.detector_id or "—"))
        st = self.state
        if st is None:
            self.counts_label.setText(tr("status.no_document", lang))
            self.reviewed_label.setText("")
            return
        counts = st.counts()
        parts = []
        for label in sorted(counts, key=lambda l: (LABEL_CHOICES.index(l) if l in LABEL_CHOICES else 99, l)):
            c = counts[label]
            total = sum(c.values())
            parts.append(f"{display_name(label, lang)} {c[Status.ACCEPTED]}/{total}")
        self.counts_label.setText("  ·  ".join(parts))
        self.reviewed_label.setText(tr("status.reviewed", lang).format(
            pct=round(100 * st.reviewed_fraction(counts)), pending=st.pending_count(counts)))

    def _update_title(self) -> None:
        name = self.path.name if self.path else tr("title.no_document", self.lang)
        self.setWindowTitle(f"{name} — veil-desktop")

    # ================================================================================================
    # slots for actions (names: _on_<action id>)
    # ================================================================================================
    def _on_open(self) -> None:
        from ..documents.formats import supported_suffixes

        pattern = " ".join("*" + s for s in supported_suffixes())
        path, _ = QFileDialog.getOpenFileName(self, tr("action.open", self.lang), str(self.path.parent if self.path else ""),
                                              f"{tr('dialog.documents', self.lang)} ({pattern})")
        if path:
            self.open_path(path)

    def _on_export(self) -> None:
        from .dialogs import ExportDialog

        if self.state is None:
            return
        dlg = ExportDialog(self, self.state, self.settings, self.path, self.document, self.lang)
        if dlg.exec():
            self.settings = replace(self.settings, styles=dlg.styles(), default_style=dlg.default_style(),
                                    pending_policy=dlg.policy().value)
            self._store.save(self.settings)
            self.export_to(dlg.out_path(), styles=dlg.styles(), default_style=dlg.default_style(),
                           policy=dlg.policy())

    def _on_settings(self) -> None:
        from .dialogs import SettingsDialog

        dlg = SettingsDialog(self, self.settings, self.lang)
        if dlg.exec():
            self.apply_settings(dlg.result_settings())

    def _on_quit(self) -> None:
        self.close()

    def _on_undo(self) -> None:
        if self.state is not None:
            cmd = self.state.undo()
            if cmd:
                self._select_after_history(cmd, undo=True)

    def _on_redo(self) -> None:
        if self.state is not None:
            cmd = self.state.redo()
            if cmd:
                self._select_after_history(cmd, undo=False)

    def _select_after_history(self, cmd, *, undo: bool) -> None:
        target = next((b if undo else a) for b, a in cmd.changes) if cmd.changes else None
        if target is None:
            target = next((a if undo else b) for b, a in cmd.changes)
        if target is not None and target.id in self.state:
            self.select_item(target.id)
        else:
            self.select_item(None)

    def _on_next_pending(self) -> None:
        self._go_pending(True)

    def _on_prev_pending(self) -> None:
        self._go_pending(False)

    def _on_accept(self) -> None:
        self.decide(Status.ACCEPTED)

    def _on_reject(self) -> None:
        self.decide(Status.REJECTED)

    def _on_reset_pending(self) -> None:
        self.decide(Status.PENDING, advance=False)

    def _on_accept_all_same(self) -> None:
        self.decide(Status.ACCEPTED, propagate=True)

    def _on_reject_all_same(self) -> None:
        self.decide(Status.REJECTED, propagate=True)

    def _on_accept_above(self) -> None:
        score, ok = QInputDialog.getDouble(self, tr("action.accept_above", self.lang),
                                           tr("dialog.accept_above", self.lang),
                                           max(0.5, self.state.threshold if self.state else 0.5), 0.0, 1.0, 2)
        if ok:
            n = self.accept_above(score)
            self.statusBar().showMessage(tr("status.accepted_n", self.lang).format(n=n), 5000)

    def _on_mark(self) -> None:
        rect = self.view.cursorRect()
        self._label_menu(self.view.viewport().mapToGlobal(rect.bottomLeft())).popup(
            self.view.viewport().mapToGlobal(rect.bottomLeft()))

    def _on_mark_person(self) -> None:
        self.mark_selection("PERSON")

    def _on_mark_address(self) -> None:
        self.mark_selection("ADDRESS")

    def _on_mark_organization(self) -> None:
        self.mark_selection("ORGANIZATION")

    def _on_adjust_to_selection(self) -> None:
        rng = self.view.selection_range()
        if rng is not None:
            self.adjust_current(*rng)

    def _on_grow_end(self) -> None:
        self._nudge(0, +1)

    def _on_shrink_end(self) -> None:
        self._nudge(0, -1)

    def _on_grow_start(self) -> None:
        self._nudge(-1, 0)

    def _on_shrink_start(self) -> None:
        self._nudge(+1, 0)

    def _on_run_detection(self) -> None:
        self.run_detection()

    def _on_cancel_detection(self) -> None:
        self.cancel_detection()

    def _on_shortcuts(self) -> None:
        from .dialogs import ShortcutsDialog

        ShortcutsDialog(self, self.lang).exec()

    def _on_view_update(self, _rect, _dy) -> None:
        if self._highlighter is not None and self._highlighter.dirty_blocks:
            self._highlighter.flush_visible()

    # -- other slots -----------------------------------------------------------------------------------
    def _on_label_filter(self, _index: int) -> None:
        self.proxy.set_label_filter(self.label_filter.currentData())

    def _on_status_filter(self, _index: int) -> None:
        value = self.status_filter.currentData()
        self.proxy.set_status_filter(Status(value) if value else None)

    def _on_threshold(self, value: int, apply: bool = True) -> None:
        self.threshold_value.setText(f"{value / 100:.2f}")
        if apply and self.state is not None:
            self.state.set_threshold(value / 100)
            self.settings = replace(self.settings, threshold=value / 100)

    def _label_menu(self, _pos: QPoint) -> QMenu:
        menu = QMenu(self)
        menu.setTitle(tr("menu.mark_as", self.lang))
        for label in LABEL_CHOICES:
            act = menu.addAction(f"{display_name(label, self.lang)} ({label})")
            act.triggered.connect(lambda _=False, l=label: self.mark_selection(l))
        return menu

    def _on_view_context(self, global_pos: QPoint, item_id: int | None) -> None:
        menu = QMenu(self)
        if item_id is not None:
            self.select_item(item_id, scroll_view=False)
            for aid in ("accept", "reject", "reset_pending", "accept_all_same", "reject_all_same",
                        "adjust_to_selection"):
                menu.addAction(self.actions_by_id[aid])
            menu.addSeparator()
        if self.view.selection_range() is not None:
            menu.addMenu(self._label_menu(global_pos))
        copy = menu.addAction(tr("action.copy", self.lang))
        copy.triggered.connect(self.view.copy)
        copy.setEnabled(self.view.selection_range() is not None)
        menu.popup(global_pos)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        for p in self.settings.recent_files:
            act = self.recent_menu.addAction(p)
            act.triggered.connect(lambda _=False, path=p: self.open_path(path))
        if not self.settings.recent_files:
            self.recent_menu.addAction(tr("menu.recent_empty", self.lang)).setEnabled(False)

    # ================================================================================================
    # plumbing
    # ================================================================================================
    def _next_job(self) -> int:
        self._job_seq += 1
        return self._job_seq

    def _start_task(self, job: int, fn, on_done, on_failed) -> None:
        signals = TaskSignals()
        signals.done.connect(on_done)
        signals.failed.connect(on_failed)
        signals.done.connect(lambda j, _r: self._live_signals.pop(j, None))
        signals.failed.connect(lambda j, _m: self._live_signals.pop(j, None))
        self._live_signals[job] = signals
        self._pool.start(TaskWorker(job, fn, signals))

    def _error(self, message: str) -> None:
        """Show an error without blocking the event loop (window-modal, opened asynchronously)."""
        self.last_error = message
        box = QMessageBox(QMessageBox.Icon.Warning, "veil-desktop", message, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.errorShown.emit(message)

    # -- Qt events -----------------------------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                event.acceptProposedAction()
                return

    def closeEvent(self, event) -> None:  # noqa: N802
        self._cancel_detection(silent=True)
        self._flush_autosave()
        self._store.save(self.settings)
        if self._process is not None:
            self._process.close()
        self._pool.waitForDone(3000)
        super().closeEvent(event)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(1280, 800)


class _blocked:
    """``with _blocked(obj):`` — block a QObject's signals for the duration."""

    def __init__(self, obj) -> None:
        self._obj = obj

    def __enter__(self):
        self._old = self._obj.blockSignals(True)
        return self._obj

    def __exit__(self, *exc) -> None:
        self._obj.blockSignals(self._old)


def _same_path(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False
