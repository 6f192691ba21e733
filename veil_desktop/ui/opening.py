"""Opening a document in the main window: read it on the pool (``review/loading.py``: document, review
state, restored session), show it (``show_loaded``: table model, document view, highlighter, threshold,
banner), then start detection unless its session says detection finished.

``DocumentOpening`` is a mixin of ``MainWindow`` (``ui/main_window.py``); the window attributes it uses are
declared below; the document and its review go to the window's ``ReviewSession``. Threading: GUI thread; the
reading runs on the window's ``Jobs`` (channel ``"open"``: a superseded open is dropped; the OCR pages of a
scan report progress and stop on Cancel).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QProgressBar, QPushButton, QTableView

from ..review.loading import Loaded, load_for_review
from ..review.review_session import ReviewSession
from ..review.settings import AppSettings
from ..review.state import StateListener
from .banner import StatusBanner, unreadable_captions
from .document_view import DocumentView
from .highlighter import SpanHighlighter
from .i18n import document_error_text, tr
from .jobs import Jobs
from .settings_store import SettingsStore
from .span_panel import SpanPanel
from .table_model import SpanTableModel

if TYPE_CHECKING:
    ReviewTools = object  # ``ui.review_tools.ReviewTools`` (not imported: review_tools imports this module)


class DocumentOpening:
    """Open → install → detect, for ``MainWindow`` (see the module docstring)."""

    review: ReviewSession
    jobs: Jobs
    settings: AppSettings
    _store: SettingsStore
    lang: str
    view: DocumentView
    panel: SpanPanel
    table: QTableView
    banner: StatusBanner
    progress: QProgressBar
    cancel_button: QPushButton
    documentLoaded: Signal
    openProgress: Signal
    first_highlight_s: float | None
    _open_started: float
    highlighter: SpanHighlighter | None
    table_model: SpanTableModel | None
    _watcher: StateListener
    _current_id: int | None
    tools: "ReviewTools"   # ui/review_tools.py (created last by the window)

    @property
    def opening(self) -> bool:
        """A document is being read (on the pool)."""
        return self.jobs.current("open") is not None

    def open_path(self, path: str | Path) -> int:
        """Start opening ``path`` in the background; returns the job id. Cancels any running detection."""
        path = Path(path)
        self._cancel_detection(silent=True)
        self.flush_autosave()
        self._open_started = time.perf_counter()
        self.first_highlight_s = None
        self.statusBar().showMessage(tr("status.opening", self.lang).format(name=path.name))
        threshold = self.settings.threshold
        job_ref = []
        job = self.jobs.start(lambda: load_for_review(path, threshold), self._on_loaded, self._on_open_failed,
                              on_progress=lambda d, t: self.openProgress.emit(job_ref[0], d, t),
                              channel="open", ocr_pages=True)
        job_ref.append(job.id)
        return job.id

    # -- drag and drop: one file opens, several files or a folder go to the workspace --------------------
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

    def _on_open_progress(self, job: int, done: int, total: int) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)
        self.progress.setVisible(done < total)
        self.cancel_button.setVisible(done < total)
        self.update_actions()
        if done < total:
            self.statusBar().showMessage(tr("status.ocr", self.lang).format(page=done + 1, total=total))

    def _on_loaded(self, loaded: Loaded) -> None:
        self.show_loaded(loaded)
        self.settings = self.settings.with_recent(str(loaded.path))
        self._store.save(self.settings)
        if loaded.note:
            self.show_error(loaded.note)
        if self.review.restored:
            self.statusBar().showMessage(tr("status.restored", self.lang).format(n=self.review.decided_count()),
                                         8000)
        if self.review.needs_detection:
            self.run_detection()
        else:
            self.refresh_status()
        self.documentLoaded.emit(str(loaded.path))  # after detection started: listeners may check for it

    def _on_open_failed(self, message: str) -> None:
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        self.statusBar().clearMessage()
        self.update_actions()
        self.show_error(tr("error.open", self.lang).format(message=document_error_text(message, self.lang)))

    def show_loaded(self, loaded: Loaded) -> None:
        """Show a freshly loaded document (GUI thread). Old adapters are detached first."""
        if self.highlighter is not None:
            self.highlighter.detach()
            self.highlighter = None
        if self.table_model is not None:
            self.table_model.detach()
        if self.review.state is not None:
            self.review.state.remove_listener(self._watcher)
        self._current_id = None
        # every document starts from the safe defaults: its own saved threshold, or the configured default
        # (never the previous document's slider position); detection status and banner start afresh
        state = self.review.install(loaded, self.settings.threshold)
        self.panel.show_threshold(state.threshold)
        self.banner.set_incomplete(None)
        self.banner.set_unreadable(unreadable_captions(loaded.document, self.lang))
        self.banner.set_ocr(self.review.ocr_summary())
        self.table_model = SpanTableModel(state, self.lang, self)
        self.table_model.set_parts(getattr(loaded.document, "parts", ()))  # the section/page column
        self.panel.set_model(self.table_model)
        self.view.set_text(state.text, state, getattr(loaded.document, "captions", ()))
        # attach after the text is in, so Qt highlights the (already restored) items in one pass
        self.highlighter = SpanHighlighter(self.view.document(), state, self.view.offsets,
                                            self.view.visible_block_range)
        state.add_listener(self._watcher)
        if not self.table.hasFocus():
            self.view.setFocus()  # single-key review shortcuts work in the document or the table
        self._update_title()
        self.update_actions()
        self.refresh_status()
