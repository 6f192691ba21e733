"""The workspace tool: several files or a folder in a list docked beside the view, the background detection
queue (``DetectionController.start_background``: one document at a time, only while the window is not
detecting); *Export all reviewed* is its sibling ``tools/export_all.py``. A mixin of ``ReviewTools`` (``ui/review_tools.py``); the attributes
it uses are declared below. Threading: GUI thread; background work on the window's pools.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QDockWidget, QFileDialog

from ...review.terms import TermList
from ...review.workspace import DetectOutcome, DocStatus, Workspace, finish_document, prepare_document
from ..find_bar import FindBar
from ..i18n import tr
from ..pdf_view import has_pages
from ..workspace_panel import WorkspacePanel
from ...review.review_session import ReviewSession

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow as MainWindow  # the window (no import of main_window: no loop)


class WorkspaceTool:
    """Mixin for ``ReviewTools``; see the module docstring."""

    w: "MainWindow"
    review: ReviewSession
    lang: str
    ws: Workspace
    panel: WorkspacePanel
    dock: QDockWidget
    find_bar: FindBar
    terms: TermList
    last_export: object
    backgroundStarted: Signal
    backgroundFinished: Signal
    exportAllFinished: Signal
    exportAllChecked: Signal
    export_all_dialog: object
    export_all_result: object
    _below_ok_last: bool
    _bg_job: int | None
    _bg_index: int
    _state: object
    _changes: object
    _status_timer: QTimer
    _queue_timer: QTimer

    def open_paths(self, paths) -> list[int]:
        """Add files/folders to the workspace; shows the first new document if none is on screen."""
        new, problems = self.ws.add(paths)
        if len(self.ws) > 1 or any(Path(p).is_dir() for p in paths):
            self.show_dock()
        self.panel.refresh()
        if problems:
            self.w.show_error(tr("ws.problems", self.lang) + "\n" + "\n".join(problems[:20]))
        if new and self.review.path is None and not self.w.opening:
            self.goto(new[0])
        else:
            self._schedule_queue()
        return new

    def show_dock(self) -> None:
        if not self.dock.isVisible():
            self.dock.show()
            self.w.resizeDocks([self.dock], [230], Qt.Orientation.Horizontal)

    def goto(self, index: int) -> None:
        if not 0 <= index < len(self.ws):
            return
        if self._bg_index == index:
            self._cancel_background()
        self.ws.set_current(index)
        self.panel.set_current(index)
        if self.review.path is None or _key(self.review.path) != _key(self.ws[index].path):
            self.w.open_path(self.ws[index].path)

    def _on_next_doc(self) -> None:
        i = self.ws.step(+1)
        if i is not None:
            self.goto(i)

    def _on_prev_doc(self) -> None:
        i = self.ws.step(-1)
        if i is not None:
            self.goto(i)

    def _on_open_files(self) -> None:
        from ..dialogs import open_filters

        paths, _ = QFileDialog.getOpenFileNames(self.w, tr("action.open_files", self.lang), "",
                                                open_filters(self.lang))
        if paths:
            self.open_paths(paths)

    def _on_open_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.w, tr("action.open_folder", self.lang))
        if folder:
            self.open_paths([folder])

    def _on_document_loaded(self, path: str) -> None:
        w = self.w
        i = self.ws.index_of(path)
        if i < 0:
            self.ws.add([path])
            i = self.ws.index_of(path)
            if len(self.ws) > 1:
                self.show_dock()
        if self._bg_index == i or w.detection.running:
            self._cancel_background()          # one document detected at a time: the one on screen
        if i >= 0:
            self.ws.set_current(i)
            self.panel.set_current(i)
        if self._state is not None:
            self._state.remove_listener(self._changes)
        self._state = self.review.state
        if self.review.state is not None:
            self.review.state.add_listener(self._changes)
            self._apply_mask_terms()
        self.find_bar.set_document(w.view, self.review.state)
        self._update_current_status()
        if self.stack.currentWidget() is self.pages:
            if has_pages(self.review.document):
                self.show_pages()
            else:
                self.show_text()
        self._schedule_queue()

    def _on_detection_finished(self, cancelled: bool) -> None:
        self._update_current_status()
        self._schedule_queue()

    def _schedule_status(self) -> None:
        if not self._status_timer.isActive():
            self._status_timer.start()

    def _update_current_status(self) -> None:
        w = self.w
        i = self.ws.current
        rv = self.review
        if not 0 <= i < len(self.ws) or rv.state is None or rv.path is None or _key(rv.path) != _key(self.ws[i].path):
            return
        if w.detection.running:
            st = self.review.state
            self.ws.update(i, DocStatus.DETECTING, pending=st.pending_count() + st.hidden_pending_count())
        else:
            complete = bool(self.review.info is not None and self.review.info.detection_complete)
            self.ws.update_from_state(i, self.review.state, complete)

    # -- background queue ---------------------------------------------------------------------------------
    def _schedule_queue(self) -> None:
        if not self._queue_timer.isActive():
            self._queue_timer.start()

    def _pump_queue(self) -> None:
        w = self.w
        if self._bg_job is not None or w.detection.running or w.opening:
            return
        index = next((i for i, e in enumerate(self.ws.entries)
                      if e.status is DocStatus.QUEUED and i != self.ws.current), None)
        if index is None:
            return
        entry = self.ws[index]
        threshold, terms = w.settings.threshold, self.terms

        def prepare():  # detection pool thread: read the file and its session
            prep = prepare_document(entry.path, threshold=threshold)
            if isinstance(prep, DetectOutcome):
                return None, prep
            return prep.text, lambda spans, did: finish_document(prep, spans, detector_id=did, terms=terms)

        job = w.detection.start_background(prepare, w.settings)
        if job is None:
            return
        self._bg_job, self._bg_index = job, index
        self.ws.update(index, DocStatus.DETECTING)
        self.backgroundStarted.emit(index)

    def _cancel_background(self) -> None:
        if self._bg_job is not None:
            self.w.detection.cancel_background()
            if 0 <= self._bg_index < len(self.ws):
                self.ws.update(self._bg_index, DocStatus.QUEUED)
        self._bg_job, self._bg_index = None, -1

    def _on_bg_ended(self, job: int, outcome, error: str) -> None:
        """The controller's background job ended: ``outcome`` (``DetectOutcome``), cancelled (None, ""),
        or failed (None, message)."""
        if job != self._bg_job:
            return
        index = self._bg_index
        self._bg_job, self._bg_index = None, -1
        if error:
            self.ws.update(index, DocStatus.FAILED, message=error)
        elif outcome is None:
            self.ws.update(index, DocStatus.QUEUED)
        else:
            self.ws.update(index, outcome.status, pending=outcome.pending, message=outcome.message)
        self.backgroundFinished.emit(index)
        self._schedule_queue()

    @property
    def background_running(self) -> bool:
        return self._bg_job is not None

    # -- export all reviewed ----------------------------------------------------------------------------


def _key(p) -> str:
    try:
        return str(Path(p).resolve())
    except OSError:
        return str(p)
