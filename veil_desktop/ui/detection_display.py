"""Detection in the main window: start, cancel, and show it (progress, banner, status line).

``DetectionDisplay`` is a mixin of ``MainWindow`` (``ui/main_window.py``): the ``DetectionController``
(``ui/detection.py``) runs the jobs; the ``ReviewSession`` (``review/review_session.py``) records the
status (running, cancelled, failed, complete) and the detector's id; this shows them. The window
attributes it uses are declared below. Threading: GUI thread only.
"""
from __future__ import annotations

import time

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QProgressBar, QPushButton

from ..review.review_session import ReviewSession
from ..review.settings import AppSettings
from ..review.summary import DetectionStatus
from .banner import StatusBanner
from .detection import DetectionController, detector_key
from .document_view import DocumentView
from .i18n import model_error_text, tr
from .jobs import Jobs
from .settings_store import SettingsStore
from .span_panel import SpanPanel
from .table_model import SpanTableModel


class DetectionDisplay:
    """Mixin for ``MainWindow``; see the module docstring."""

    review: ReviewSession
    detection: DetectionController
    jobs: Jobs
    settings: AppSettings
    _store: SettingsStore
    lang: str
    view: DocumentView
    panel: SpanPanel
    banner: StatusBanner
    progress: QProgressBar
    cancel_button: QPushButton
    detectionFinished: Signal
    first_highlight_s: float | None
    _open_started: float
    table_model: SpanTableModel | None

    def run_detection(self) -> int | None:
        """(Re)run detection on the open document; results merge into the state (decisions are kept)."""
        if self.review.state is None:
            return None
        self._cancel_detection(silent=True)
        self.review.detection_started()
        self.progress.setRange(0, 0)
        self.progress.setVisible(True)
        self.cancel_button.setVisible(True)
        self.statusBar().showMessage(tr("status.detecting", self.lang))
        job = self.detection.start(self.review.state, self.settings, self.view.visible_range())
        self.update_actions()
        self.refresh_status()
        return job

    def cancel_detection(self) -> None:
        """The reviewer's Cancel: stop detection (or a scan being read), say so, save what was found."""
        self._cancel_detection(silent=False)

    def stop_detection(self) -> None:
        """Stop detection (or a scan being read) quietly: no message, no ``detectionFinished``."""
        self._cancel_detection(silent=True)

    def _cancel_detection(self, *, silent: bool) -> None:
        self.jobs.cancel("open")               # a scan being read by OCR stops at the next page
        if self.detection.running:
            self.review.detection_progress(*self.detection.last_progress)
        was_running = self.detection.cancel()  # from now on every late result of that job is dropped
        if was_running:
            self.review.detection_cancelled()
            self.banner.set_incomplete(DetectionStatus.CANCELLED.value, self.review.item_count())
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        self.refresh_status()                  # never "detecting…" after Cancel
        if was_running and not silent:
            self.statusBar().showMessage(tr("status.cancelled", self.lang), 5000)
            self._schedule_autosave()
            self.detectionFinished.emit(True)
        self.update_actions()

    def _on_detect_started(self, detector_id: str) -> None:
        self.review.detector_loaded(detector_id)
        self.refresh_status()

    def _on_detect_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)
        self.review.detection_progress(done, total)
        self.refresh_status()

    def _on_first_spans(self) -> None:
        if self.first_highlight_s is None:
            self.first_highlight_s = time.perf_counter() - self._open_started

    def _on_detection_ended(self, cancelled: bool, error: str) -> None:
        if self.table_model is not None:
            self.table_model.catch_up(self.table_model.CATCH_UP_ROWS)  # the rest follows in batches
        self.panel.fit_columns(self.lang)  # the labels found may need a wider label column
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        review = self.review
        review.detection_ended(cancelled, error)
        self.banner.set_incomplete(review.detection_incomplete, review.item_count())
        self.statusBar().showMessage(tr("status.cancelled" if cancelled else "status.detected", self.lang)
                                     .format(n=review.item_count()), 5000)
        self._schedule_autosave()
        self.update_actions()
        self.refresh_status()
        self.detectionFinished.emit(cancelled)
        if error:
            from ..detect.model_folder import ModelFolderError

            failure = getattr(self.detection, "failure", None)
            if isinstance(failure, ModelFolderError):     # e.g. no embedded model: say it in the UI language
                error = model_error_text(failure, self.lang)
            self.show_error(tr("error.detect", self.lang).format(message=error))

    # -- settings: a new detector means a new detection -------------------------------------------------
    def apply_settings(self, new: AppSettings) -> None:
        new = new.normalised()
        model_changed = detector_key(new) != detector_key(self.settings)  # folder, threads, skip_ids
        lang_changed = new.language != self.settings.language
        self.settings = new
        self._store.save(new)
        if lang_changed:
            self.lang = new.language
            self.retranslate()
        if model_changed and self.review.state is not None:
            self.run_detection()  # the detector cache rebuilds for the new settings on the pool
