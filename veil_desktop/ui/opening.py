"""Opening a document in the main window: read it on the pool (``review/loading.py``: document, review
state, restored session), show it (``_install``: table model, document view, highlighter, threshold,
banner), then start detection unless its session says detection finished.

``DocumentOpening`` is a mixin of ``MainWindow`` (``ui/main_window.py``); it uses the window's widgets,
``start_task``, ``run_detection`` and signals. Threading: GUI thread; the reading runs on
``QThreadPool.globalInstance()`` and reports with a job id (a superseded open is dropped).
"""
from __future__ import annotations

import threading
import time
from pathlib import Path

from ..review.loading import Loaded, load_for_review
from ..review.session import SessionInfo, document_hash
from ..review.state import Status
from ..review.summary import DetectionStatus
from .banner import unreadable_captions
from .highlighter import SpanHighlighter
from .i18n import tr
from .table_model import SpanTableModel


class DocumentOpening:
    """Open → install → detect, for ``MainWindow`` (see the module docstring)."""

    def open_path(self, path: str | Path) -> int:
        """Start opening ``path`` in the background; returns the job id. Cancels any running detection."""
        path = Path(path)
        self._cancel_detection(silent=True)
        self._flush_autosave()
        self._open_started = time.perf_counter()
        self.first_highlight_s = None
        self.statusBar().showMessage(tr("status.opening", self.lang).format(name=path.name))
        threshold = self.settings.threshold
        cancel, job_ref = threading.Event(), []

        def progress(done: int, total: int) -> bool:    # pool thread: OCR pages of a scan
            if done >= 0 and job_ref:
                self.openProgress.emit(job_ref[0], done, total)
            return cancel.is_set()

        def load() -> Loaded:
            from ..documents.ocr import pages_progress

            with pages_progress(progress):
                return load_for_review(path, threshold)

        self._open_cancel = cancel
        self._open_job = self.start_task(load, self._on_loaded, self._on_open_failed)
        job_ref.append(self._open_job)
        return self._open_job

    def _on_open_progress(self, job: int, done: int, total: int) -> None:
        if job != self._open_job:
            return
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)
        self.progress.setVisible(done < total)
        self.cancel_button.setVisible(done < total)
        self.update_actions()
        if done < total:
            self.statusBar().showMessage(tr("status.ocr", self.lang).format(page=done + 1, total=total))

    def _on_loaded(self, job: int, loaded: Loaded) -> None:
        if job != self._open_job:
            return
        self._open_job = None
        self._install(loaded)
        self.settings = self.settings.with_recent(str(loaded.path))
        self._store.save(self.settings)
        if loaded.note:
            self.show_error(loaded.note)
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
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        self.statusBar().clearMessage()
        self.update_actions()
        self.show_error(tr("error.open", self.lang).format(message=message))

    def _install(self, loaded: Loaded) -> None:
        """Show a freshly loaded document (GUI thread). Old adapters are detached first."""
        if self._highlighter is not None:
            self._highlighter.detach()
            self._highlighter = None
        if self._model is not None:
            self._model.detach()
        if self.state is not None:
            self.state.remove_listener(self._watcher)
        self._current_id = None
        self.document, self.path, self.state = loaded.document, loaded.path, loaded.state
        self.session = loaded.session or SessionInfo(document_hash(loaded.state.text), str(loaded.path))
        state = self.state
        # every document starts from the safe defaults: its own saved threshold, or the configured default
        # (never the previous document's slider position); detection status and banner start afresh
        if loaded.session is None:
            state.set_threshold(self.settings.threshold)
        self.panel.show_threshold(state.threshold)
        self.detection_status = (DetectionStatus.COMPLETE if loaded.session is not None
                                 and loaded.session.detection_complete else DetectionStatus.NOT_RUN)
        self.banner.set_incomplete(None)
        self.banner.set_unreadable(unreadable_captions(loaded.document, self.lang))
        self._model = SpanTableModel(state, self.lang, self)
        self._model.set_parts(getattr(loaded.document, "parts", ()))  # the section/page column
        self.panel.set_model(self._model)
        self.view.set_text(state.text, state, getattr(loaded.document, "captions", ()))
        # attach after the text is in, so Qt highlights the (already restored) items in one pass
        self._highlighter = SpanHighlighter(self.view.document(), state, self.view.offsets,
                                            self.view.visible_block_range)
        state.add_listener(self._watcher)
        if not self.table.hasFocus():
            self.view.setFocus()  # single-key review shortcuts work in the document or the table
        self._update_title()
        self.update_actions()
        self._refresh_status()
