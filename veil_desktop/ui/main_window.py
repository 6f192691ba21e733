"""The reviewer's main window: a thin shell that wires the pieces together.

Layout: document view (left) | span panel (``ui/span_panel.py``: filters, table, threshold, bulk buttons)
(right); status bar with model id, counts per label, reviewed %, a progress bar and Cancel.

Pieces:
- ``review/review_session.py`` ``ReviewSession`` (no Qt): the document, its review state, detection status,
  autosave snapshots and the export request; the window holds it as ``review`` and shows it (``state``,
  ``document``, ``path``, ``session``, ``detection_status``, ``detector_id``, ``last_error`` read it);
- ``ui/jobs.py``       ``Jobs``: every one-shot pool job (open, export, autosave, pages), job ids, stale
  results dropped, progress, cancel;
- ``ui/detection.py``  ``DetectionController``: detection jobs on ``QThreadPool`` (default detector from
  ``build_default_detector``), cancel, stale-job dropping, feeding spans into the state;
  ``ui/detection_display.py`` ``DetectionDisplay`` (mixin): starting, cancelling and showing it;
- ``ui/export_flow.py`` ``ExportFlow``: export on the pool, the unmasked-copies question;
- ``ui/menus.py``      ``WindowActions``: actions/menus from ``ui/actions.py``;
- ``ui/commands.py``   ``WindowCommands`` (mixin): navigation, decisions, marking; the handler of action ``x``
  is ``_on_x`` there;
- ``ui/opening.py``    ``DocumentOpening`` (mixin): open on the pool (``review/loading.py``), install, detect;
- ``ui/status_line.py`` ``StatusLine`` (mixin): status bar widgets and text, window title;
- ``ui/review_tools.py`` ``ReviewTools``: workspace, find bar, term lists, PDF pages;
- ``review/session.py`` (autosave files).

The mixins declare (class annotations) every window attribute they use; the window creates them.

Threading contract: the window, the ``ReviewState`` and every widget live on the GUI thread; detection runs
on the detection controller's own ``QThreadPool``; opening, export and autosave on
``QThreadPool.globalInstance()``; they receive immutable inputs
(paths, text, snapshots) and report through signals tagged with a job id; results of a job that is no
longer current are dropped.

Autosave (``ui/autosave.py``): any change to the state starts a 1 s single-shot timer (not restarted by
later changes, so the delay is bounded); the snapshot is taken on the GUI thread and written on the pool.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import QMainWindow, QMessageBox, QSplitter, QVBoxLayout, QWidget

from ..review.export import PendingPolicy
from ..review.review_session import ReviewSession
from ..review.settings import AppSettings
from ..review.state import StateListener
from .autosave import Autosave
from .banner import StatusBanner, unreadable_captions
from .bulk import BulkActions
from .detection import DetectionController, DetectorFactory
from .detection_display import DetectionDisplay
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
from .jobs import Jobs
from .table_model import SpanTableModel


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


def _shown(name: str, doc: str) -> property:
    return property(lambda self: getattr(self.review, name), doc=f"{doc} (``review.{name}``)")


class MainWindow(WindowCommands, DocumentOpening, DetectionDisplay, StatusLine, QMainWindow):
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

    # what the window shows of its ReviewSession (read-only; the session owns them)
    state = _shown("state", "the document's ReviewState")
    document = _shown("document", "the open Document")
    path = _shown("path", "the open document's path")
    session = _shown("info", "the saved-session record (SessionInfo)")
    detection_status = _shown("detection_status", "whether detection covered the whole document")
    detector_id = _shown("detector_id", "the detector that found the items")
    last_error = _shown("last_error", "the last message shown")

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
        self.review = ReviewSession()
        self.jobs = Jobs(self)                 # opening, export, autosave, pages (ui/jobs.py)
        self.detection = DetectionController(self, detector_factory)  # its own pool (ui/detection.py)
        self.detection.started.connect(self._on_detect_started)
        self.detection.progress.connect(self._on_detect_progress)
        self.detection.firstSpans.connect(self._on_first_spans)
        self.detection.ended.connect(self._on_detection_ended)
        self.exporter = ExportFlow(self, self.review, self.jobs)
        self.exporter.finished.connect(self.exportFinished)
        self.exporter.copiesFound.connect(self.copiesFound)
        self.openProgress.connect(self._on_open_progress)
        self._status_timer = QTimer(self, singleShot=True, interval=150, timeout=self.refresh_status)
        self.autosave = Autosave(self, self.review, self.jobs)   # ui/autosave.py
        self.autosave.saved.connect(self.autosaved)
        self.autosave.failed.connect(self._on_autosave_failed)
        self.first_highlight_s: float | None = None  # open -> first highlighted span (benchmark)
        self._open_started = 0.0
        self.highlighter: SpanHighlighter | None = None
        self.table_model: SpanTableModel | None = None
        self._watcher = _StateWatcher(self._on_state_changed)
        self._current_id: int | None = None

        self._build_ui()
        self.menu = WindowActions(self, self.open_path)
        self.actions_by_id, self.menus, self.recent_menu = self.menu.actions_by_id, self.menu.menus, self.menu.recent_menu
        self.menu.scope_to(self.view, self.table)  # single-key shortcuts only where a reviewer reads
        self.bulk = BulkActions(self, self.review)              # bulk actions show their hit list first
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
        self.view.contextRequested.connect(self.show_context_menu)
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
        if self.review.document is not None:
            self.banner.set_unreadable(unreadable_captions(self.review.document, lang))
        if self.table_model is not None:
            self.table_model.set_language(lang)
        self._update_title()
        self.refresh_status()
        if getattr(self, "tools", None) is not None:
            self.tools.retranslate(lang)

    def update_actions(self) -> None:
        st = self.review.state
        has_doc = st is not None
        conditions = {
            "": True,
            "doc": has_doc,
            "item": has_doc and self.current_item() is not None,
            "selection": has_doc and self.view.selection_range() is not None,
            "undo": has_doc and st.can_undo,
            "redo": has_doc and st.can_redo,
            "detecting": self.detection.running or self.opening,
        }
        self.menu.update(conditions, st, self.lang)
        self.btn_accept.setEnabled(conditions["item"])
        self.btn_reject.setEnabled(conditions["item"])
        self.btn_accept_above.setEnabled(has_doc)

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
        self.autosave.schedule()

    def flush_autosave(self, *, even_empty: bool = False) -> None:
        """Write the session now, on this thread (closing, switching documents, export all); an empty review
        only with ``even_empty`` (nothing found is a review too, for export all)."""
        self.autosave.flush(even_empty=even_empty)

    def _on_autosave_failed(self, message: str, now: bool) -> None:
        text = tr("error.autosave", self.lang).format(message=message)
        self.show_error(text) if now else self.statusBar().showMessage(text, 8000)

    # ================================================================================================
    # plumbing
    # ================================================================================================
    def show_error(self, message: str) -> None:
        """Show an error without blocking the event loop (window-modal, opened asynchronously)."""
        self.review.last_error = message
        box = QMessageBox(QMessageBox.Icon.Warning, "veil-desktop", message, QMessageBox.StandardButton.Ok, self)
        from .dialogs import translate_buttons

        translate_buttons(box, self.lang)  # "확인", not Qt's untranslated "OK"
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.errorShown.emit(message)

    _error = show_error

    # -- Qt events -----------------------------------------------------------------------------------------
    def closeEvent(self, event) -> None:  # noqa: N802
        self._cancel_detection(silent=True)
        self.flush_autosave()
        self._store.save(self.settings)
        self.detection.shutdown(3000)
        self.jobs.pool.waitForDone(3000)
        super().closeEvent(event)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(1280, 800)
