"""The reviewer's main window: a thin shell that wires the pieces together.

Layout: document view (left) | span panel (``ui/span_panel.py``: filters, table, threshold, bulk buttons)
(right); status bar with model id, counts per label, reviewed %, a progress bar and Cancel.

Pieces:
- ``ui/detection.py``  ``DetectionController``: detection jobs on ``QThreadPool`` (default detector from
  ``build_default_detector``), cancel, stale-job dropping, feeding spans into the state;
- ``ui/export_flow.py`` ``ExportFlow``: export on the pool, the unmasked-copies question;
- ``ui/menus.py``      ``WindowActions``: actions/menus from ``ui/actions.py``;
- ``ui/commands.py``   ``WindowCommands`` (mixin): navigation, decisions, marking; the handler of action ``x``
  is ``_on_x`` there;
- ``ui/opening.py``    ``DocumentOpening`` (mixin): open on the pool (``review/loading.py``), install, detect;
- ``ui/status_line.py`` ``StatusLine`` (mixin): status bar widgets and text, window title;
- ``ui/review_tools.py`` ``ReviewTools``: workspace, find bar, term lists, PDF pages;
- ``review/session.py`` (autosave).

Threading contract: the window, the ``ReviewState`` and every widget live on the GUI thread; detection runs
on the detection controller's own ``QThreadPool``; opening, export and autosave on
``QThreadPool.globalInstance()``; they receive immutable inputs
(paths, text, snapshots) and report through signals tagged with a job id; results of a job that is no
longer current are dropped.

Autosave: any change to the state starts a 1 s single-shot timer (not restarted by later changes, so the
delay is bounded); the snapshot is taken on the GUI thread and written atomically on the pool.
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QSize, Qt, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import QMainWindow, QMessageBox, QSplitter, QVBoxLayout, QWidget

from ..review.export import PendingPolicy
from ..review.session import Autosaver, SessionInfo
from ..review.settings import AppSettings
from ..review.state import ReviewItem, ReviewState, StateListener
from ..review.summary import DetectionStatus
from .banner import StatusBanner, unreadable_captions
from .bulk import BulkActions
from .detection import DetectionController, DetectorFactory, detector_key
from .document_view import DocumentView
from .export_flow import ExportFlow
from .fonts import document_font
from .highlighter import SpanHighlighter
from .i18n import tr
from .commands import WindowCommands
from .opening import DocumentOpening
from .status_line import StatusLine
from .menus import WindowActions
from .settings_store import SettingsStore
from .span_panel import SpanPanel
from .table_model import SpanTableModel
from .worker import TaskSignals, TaskWorker

AUTOSAVE_DELAY_MS = 1000


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


class MainWindow(WindowCommands, DocumentOpening, StatusLine, QMainWindow):
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
    #: (job, pages done, pages total) while a scan is read by OCR (emitted from the pool thread: queued)
    openProgress = Signal(int, int, int)
    #: emitted after an autosave write completed
    autosaved = Signal(str)

    def __init__(self, settings_store: SettingsStore | None = None,
                 detector_factory: DetectorFactory | None = None) -> None:
        """``detector_factory(model_dir, threads)`` replaces ``build_default_detector`` (embedding only;
        the app, the self-test and the tests use the default)."""
        super().__init__()
        self._store = settings_store or SettingsStore()
        self.settings: AppSettings = self._store.load()
        self.lang = self.settings.language
        if getattr(self._store, "load_message", None):   # corrupt settings were moved aside (issue 10)
            self.statusBar().showMessage(tr("error.settings_reset", self.lang).format(
                name=self._store.load_aside or "-"), 30000)
        self._pool = QThreadPool.globalInstance()
        self.detection = DetectionController(self, detector_factory)  # its own pool (ui/detection.py)
        self.detection.started.connect(self._on_detect_started)
        self.detection.progress.connect(self._on_detect_progress)
        self.detection.firstSpans.connect(self._on_first_spans)
        self.detection.ended.connect(self._on_detection_ended)
        self.exporter = ExportFlow(self)
        self.exporter.finished.connect(self.exportFinished)
        self.exporter.copiesFound.connect(self.copiesFound)
        self._task_seq = 0
        self._open_job: int | None = None
        self._open_cancel: threading.Event | None = None
        self.openProgress.connect(self._on_open_progress)
        self._live_signals: dict[int, TaskSignals] = {}  # keeps signal objects alive until their job ends
        self._status_timer = QTimer(self, singleShot=True, interval=150, timeout=self._refresh_status)
        self._autosave_timer = QTimer(self, singleShot=True, interval=AUTOSAVE_DELAY_MS, timeout=self._autosave)
        self._autosaver = Autosaver()
        self.last_error = ""
        self.detector_id = ""
        self.first_highlight_s: float | None = None  # open -> first highlighted span (benchmark)
        self._open_started = 0.0

        self.document = None                  # veil_desktop.documents.Document
        #: whether detection covered the whole document (export is blocked otherwise, see ui/export_flow.py)
        self.detection_status = DetectionStatus.NOT_RUN
        self.path: Path | None = None
        self.state: ReviewState | None = None
        self.session: SessionInfo | None = None
        self._highlighter: SpanHighlighter | None = None
        self._model: SpanTableModel | None = None
        self._watcher = _StateWatcher(self._on_state_changed)
        self._current_id: int | None = None

        self._build_ui()
        self.menu = WindowActions(self, self.open_path)
        self.actions_by_id, self.menus, self.recent_menu = self.menu.actions_by_id, self.menu.menus, self.menu.recent_menu
        self.menu.scope_to(self.view, self.table)  # single-key shortcuts only where a reviewer reads
        self.bulk = BulkActions(self)              # bulk actions show their hit list first
        self.setAcceptDrops(True)
        self.retranslate()
        self.update_actions()
        self.resize(1280, 800)
        from .review_tools import ReviewTools  # workspace, find bar, term lists, PDF pages (ui/review_tools.py)

        self.tools = ReviewTools(self)
        self.menu.scope_to(self.tools.pages)  # the PDF page view is a document view too (single keys)

    @property
    def dropped_batches(self) -> int:
        return self.detection.dropped_batches

    # ================================================================================================
    # construction
    # ================================================================================================
    def _build_ui(self) -> None:
        self.view = DocumentView()
        self.view.itemClicked.connect(self.select_item)
        self.view.contextRequested.connect(self._on_view_context)
        self.view.selectionChanged.connect(self.update_actions)
        self.view.setFont(document_font())
        # blocks whose highlight changed while off screen are re-highlighted as they scroll into view
        self.view.updateRequest.connect(self._on_view_update)

        self.panel = SpanPanel(self.settings.threshold)
        self.panel.thresholdChanged.connect(self._on_threshold)
        self.panel.currentItemChanged.connect(self._on_table_current)
        self.panel.btn_accept.clicked.connect(self._on_accept)
        self.panel.btn_reject.clicked.connect(self._on_reject)
        self.panel.btn_accept_above.clicked.connect(self._on_accept_above)
        p = self.panel  # the panel's widgets under their old names (tests, other modules)
        self.proxy, self.table, self.label_filter, self.status_filter = p.proxy, p.table, p.label_filter, p.status_filter
        self.threshold_slider, self.threshold_value = p.threshold_slider, p.threshold_value
        self.btn_accept, self.btn_reject, self.btn_accept_above = p.btn_accept, p.btn_reject, p.btn_accept_above

        # a lasting banner above the document: incomplete detection, unreadable pages (ui/banner.py)
        self.banner = StatusBanner()
        self.banner.rerunRequested.connect(self.run_detection)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.setSpacing(2)
        ll.addWidget(self.banner)
        ll.addWidget(self.view, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(self.panel)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([670, 610])  # the table needs room for the section/page column
        self.setCentralWidget(splitter)

        self._build_status_bar()  # ui/status_line.py

    def retranslate(self) -> None:
        """(Re)apply every user-visible string in the current language."""
        lang = self.lang
        self.menu.retranslate(lang)
        self.panel.retranslate(lang)
        self.cancel_button.setText(tr("detect.cancel", lang))
        self.view.lang = lang
        self.banner.set_language(lang)
        if self.document is not None:
            self.banner.set_unreadable(unreadable_captions(self.document, lang))
        if self._model is not None:
            self._model.set_language(lang)
        self._update_title()
        self._refresh_status()
        if getattr(self, "tools", None) is not None:
            self.tools.retranslate(lang)

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
            "detecting": self.detection.running or self._open_job is not None,
        }
        self.menu.update(conditions, st, self.lang)
        self.btn_accept.setEnabled(conditions["item"])
        self.btn_reject.setEnabled(conditions["item"])
        self.btn_accept_above.setEnabled(has_doc)

    # ================================================================================================
    # detection (the controller runs it; the window shows it)
    # ================================================================================================
    def run_detection(self) -> int | None:
        """(Re)run detection on the open document; results merge into the state (decisions are kept)."""
        if self.state is None:
            return None
        self._cancel_detection(silent=True)
        self.session.detection_complete = False
        self.detection_status = DetectionStatus.RUNNING
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self.cancel_button.setVisible(True)
        self.statusBar().showMessage(tr("status.detecting", self.lang))
        job = self.detection.start(self.state, self.settings, self.view.visible_range())
        self.update_actions()
        self._refresh_status()
        return job

    def cancel_detection(self) -> None:
        self._cancel_detection(silent=False)

    def _cancel_detection(self, *, silent: bool) -> None:
        if self._open_job is not None and self._open_cancel is not None:
            self._open_cancel.set()      # a scan being read by OCR stops at the next page
        was_running = self.detection.cancel()  # from now on every late result of that job is dropped
        if was_running:
            self.detection_status = DetectionStatus.CANCELLED
            self.banner.set_incomplete(DetectionStatus.CANCELLED.value, len(self.state) if self.state else 0)
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        if was_running and not silent:
            self.statusBar().showMessage(tr("status.cancelled", self.lang), 5000)
            self._schedule_autosave()
            self.detectionFinished.emit(True)
        self.update_actions()

    def _on_detect_started(self, detector_id: str) -> None:
        self.detector_id = detector_id
        self.session.model_id = detector_id
        self._refresh_status()

    def _on_detect_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)

    def _on_first_spans(self) -> None:
        if self.first_highlight_s is None:
            self.first_highlight_s = time.perf_counter() - self._open_started

    def _on_detection_ended(self, cancelled: bool, error: str) -> None:
        if self._model is not None:
            self._model.catch_up(self._model.CATCH_UP_ROWS)  # the rest follows in batches
        self.panel.fit_columns(self.lang)  # the labels found may need a wider label column
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        if self.session is not None:
            self.session.detection_complete = not cancelled
        self.detection_status = (DetectionStatus.FAILED if error else DetectionStatus.CANCELLED if cancelled
                                 else DetectionStatus.COMPLETE)
        self.banner.set_incomplete(None if self.detection_status is DetectionStatus.COMPLETE
                                   else self.detection_status.value, len(self.state) if self.state else 0)
        self.statusBar().showMessage(tr("status.cancelled" if cancelled else "status.detected", self.lang)
                                     .format(n=len(self.state) if self.state else 0), 5000)
        self._schedule_autosave()
        self.update_actions()
        self._refresh_status()
        self.detectionFinished.emit(cancelled)
        if error:
            self.show_error(tr("error.detect", self.lang).format(message=error))

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
            self.panel.select_item(item.id)
        self.view.show_current(item, scroll=scroll_view)
        self.update_actions()

    def _on_table_current(self, item_id: int) -> None:
        if item_id != self._current_id:
            self._current_id = item_id
            self.view.show_current(self.current_item())
            self.update_actions()

    def selected_ids(self) -> list[int]:
        """Items selected in the table, or the current item."""
        ids = self.panel.selected_ids()
        if not ids and self._current_id is not None and self.current_item() is not None:
            ids = [self._current_id]
        return ids

    # ================================================================================================
    # export (ui/export_flow.py)
    # ================================================================================================
    def export_to(self, out_path: str | Path, *, styles: dict[str, str] | None = None,
                  default_style: str | None = None, policy: PendingPolicy | str | None = None,
                  **decisions) -> int | None:
        """Export the masked document to ``out_path`` in the background (``exportFinished`` reports).
        ``decisions``: ``partial_ok``, ``below_threshold_ok``, ``tag_lang``, ``overwrite`` (ExportFlow)."""
        return self.exporter.export_to(out_path, styles=styles, default_style=default_style, policy=policy,
                                       **decisions)

    # ================================================================================================
    # autosave
    # ================================================================================================
    def _on_state_changed(self, decision: bool) -> None:
        # detector output alone is saved when the job ends (it can be recomputed); decisions at once
        if decision or not self.detection.running:
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
        saver = self._autosaver
        self.start_task(lambda: (saver.write(snap), str(snap.path))[1], lambda j, p: self.autosaved.emit(p),
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
            self.show_error(tr("error.autosave", self.lang).format(message=str(exc)))

    # ================================================================================================
    # settings (status bar and title: ui/status_line.py)
    # ================================================================================================
    def apply_settings(self, new: AppSettings) -> None:
        new = new.normalised()
        model_changed = detector_key(new) != detector_key(self.settings)  # folder, threads, skip_ids
        lang_changed = new.language != self.settings.language
        self.settings = new
        self._store.save(new)
        if lang_changed:
            self.lang = new.language
            self.retranslate()
        if model_changed and self.state is not None:
            self.run_detection()  # the detector cache rebuilds for the new settings on the pool

    # ================================================================================================
    # plumbing
    # ================================================================================================
    def start_task(self, fn, on_done, on_failed) -> int:
        """Run ``fn()`` on the pool; ``on_done(job, result)`` / ``on_failed(job, message)`` on this thread."""
        self._task_seq += 1
        job = self._task_seq
        signals = TaskSignals()
        signals.done.connect(on_done)
        signals.failed.connect(on_failed)
        signals.done.connect(lambda j, _r: self._live_signals.pop(j, None))
        signals.failed.connect(lambda j, _m: self._live_signals.pop(j, None))
        self._live_signals[job] = signals
        self._pool.start(TaskWorker(job, fn, signals))
        return job

    def show_error(self, message: str) -> None:
        """Show an error without blocking the event loop (window-modal, opened asynchronously)."""
        self.last_error = message
        box = QMessageBox(QMessageBox.Icon.Warning, "veil-desktop", message, QMessageBox.StandardButton.Ok, self)
        from .dialogs import translate_buttons

        translate_buttons(box, self.lang)  # "확인", not Qt's untranslated "OK"
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.errorShown.emit(message)

    _error = show_error

    # -- Qt events -----------------------------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:  # noqa: N802
        if any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        local = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if len(local) > 1 or any(Path(p).is_dir() for p in local):  # several files / a folder: the workspace
            self.tools.open_paths(local)
            event.acceptProposedAction()
            return
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                event.acceptProposedAction()
                return

    def closeEvent(self, event) -> None:  # noqa: N802
        self._cancel_detection(silent=True)
        self._flush_autosave()
        self._store.save(self.settings)
        self.detection.shutdown(3000)
        self._pool.waitForDone(3000)
        super().closeEvent(event)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(1280, 800)
