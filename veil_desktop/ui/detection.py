"""The window's detection controller: one path for the app, the self-test and the tests.

``DetectionController`` runs the detector — built by ``detect.default.build_default_detector`` for the
current settings and cached (``detect/detector_cache.py``, no Qt) — in a ``DetectWorker`` (``QRunnable``) on a ``QThreadPool`` of its own
(``self.pool``; its threads run below the GUI thread's priority, see ``__init__``).
It owns the job ids, cancelling, and feeding the detector's spans into the ``ReviewState``; it reports
through one set of signals:

- ``started(detector_id)``  the detector is loaded and the job runs;
- ``progress(done, total)`` work units done (throttled to a few per second);
- ``firstSpans()``          the job's first spans are in the state (first highlight);
- ``ended(cancelled, error)`` the job is over *and* every span it delivered is in the state; ``error`` is
  a user-facing message ("" when none). A cancel through ``cancel()`` does not emit ``ended``: the caller
  knows.

Background jobs (the workspace queue: a document that is not on screen) run on the same pool, in the same
lowered-priority worker (``DocumentDetectWorker``), with the same cached detector and slicing and cancel
checks: ``start_background(prepare, settings)``; ``backgroundEnded(job, result, error)`` reports (``result``
None and ``error`` "" = cancelled). One document at a time, the one on screen first: ``start()`` cancels a
background job (and reports it), ``start_background`` refuses while the document on screen is detected.
A cancel through ``cancel_background()`` emits nothing.

The detector is built by the factory from the settings that matter to it (``detector_key``: model folder,
threads, ``skip_ids``); a change of any of them builds a new one.

Threading contract: create and call on the GUI thread. The worker gets immutable inputs (the text, the
visible range) and reports through queued signals tagged with the job id; results of a job that is not the
current one are dropped (``dropped_batches`` counts them), so a cancelled or superseded job never leaks
spans into the document now on screen. Spans are queued and fed to the state from a zero-delay timer in
time-boxed chunks, so a burst of thousands of spans never blocks the event loop for long.
"""
from __future__ import annotations

import time
from collections import deque

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal

from ..detect.detector_cache import (  # noqa: F401 - Qt-free; re-exported for callers of ui.detection
    WINDOW_BATCH, DetectorCache, DetectorFactory, default_factory, detector_key, detector_options,
    validate_model_folder,
)
from ..detect.span import Span
from ..review.settings import AppSettings
from ..review.state import ReviewState
from .worker import DetectSignals, DetectWorker, DocumentDetectWorker, Prepare

#: GUI time spent feeding detector spans to the state per event-loop turn (the rest of the turn is left
#: for input and painting); the chunk size adapts to the measured cost per span
DRAIN_BUDGET_S = 0.008
DRAIN_FIRST_CHUNK = 50
#: threads of the global pool (opening, export, autosave, the workspace queue), even on a one-core machine
MIN_POOL_THREADS = 4
#: threads of the detection pool
DETECT_POOL_THREADS = 2

class DetectionController(QObject):
    """Detection jobs on the pool for one window (see the module docstring)."""

    started = Signal(str)
    progress = Signal(int, int)
    firstSpans = Signal()
    ended = Signal(bool, str)
    backgroundEnded = Signal(int, object, str)

    def __init__(self, parent: QObject | None = None, factory: DetectorFactory | None = None,
                 pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self.detectors = DetectorCache(factory)
        # Detection has a QThreadPool of its own: its worker lowers its thread's CPU priority (ui/worker.py
        # DETECT_NICE), which an unprivileged thread cannot undo, so a detection thread must never be
        # reused for opening, export or autosave (those stay on QThreadPool.globalInstance() at normal
        # priority). Two threads: a new job can start while a cancelled one finishes its batch.
        self.pool = pool or QThreadPool(self)
        if pool is None:
            self.pool.setMaxThreadCount(DETECT_POOL_THREADS)
        io_pool = QThreadPool.globalInstance()
        if io_pool.maxThreadCount() < MIN_POOL_THREADS:  # even on a one-core machine
            io_pool.setMaxThreadCount(MIN_POOL_THREADS)
        self._seq = 0
        self.job: int | None = None
        self.worker: DetectWorker | None = None  # the current job's runnable (tests/benchmarks look at it)
        self._state: ReviewState | None = None
        self._incoming: deque[Span] = deque()
        self._done_pending = False        # finished/failed arrived, waiting for the queue to drain
        self._error: str | None = None    # failure message to report once the queue is drained
        self.failure: BaseException | None = None   # the exception behind the last failure, if any
        self._first_sent = False
        self._drain_chunk = DRAIN_FIRST_CHUNK
        self._progress_at = 0.0
        self.last_progress = (0, 0)             # the latest (done, total) of the job on screen
        self._live: dict[int, DetectSignals] = {}  # keeps signal objects alive until their job ends
        self._drain_timer = QTimer(self, singleShot=True, interval=0, timeout=self._drain)
        self.dropped_batches = 0          # late batches from superseded jobs (tests, diagnostics)
        self.background_job: int | None = None
        self.background_worker: DocumentDetectWorker | None = None

    @property
    def running(self) -> bool:
        return self.job is not None

    def start(self, state: ReviewState, settings: AppSettings, first: tuple[int, int] | None = None) -> int:
        """Cancel any running job and detect over ``state.text``; spans merge into ``state``. A background
        job is cancelled first (the document on screen comes first) and reported by ``backgroundEnded``."""
        self.cancel()
        stopped = self.cancel_background()
        if stopped is not None:
            self.backgroundEnded.emit(stopped, None, "")
        self._state = state
        self.last_progress = (0, len(state.text))
        self._done_pending, self._error, self._first_sent = False, None, False
        self.failure = None
        self._incoming.clear()
        provider = self._provider(settings)
        self.job, self.worker = self._launch(
            lambda job, sig: DetectWorker(job, provider, state.text, first, sig),
            started=self._on_started, progress=self._on_progress, spans=self._on_spans,
            finished=self._on_finished, failed=self._on_failed)
        return self.job

    def _provider(self, settings: AppSettings):
        cache = self.detectors
        return lambda: cache.get(settings)   # called on the pool thread (building a session takes a while)

    def _launch(self, make_worker, **slots):
        """The one set-up of a detection job (on screen or background): a new job id, its signals (created
        here, on the GUI thread, so the worker's emissions are queued to it) connected to ``slots`` (signal
        name -> slot), the worker ``make_worker(job, signals)`` started on this pool; the signals are kept
        alive until the job ends (``_live``). Returns ``(job, worker)``."""
        self._seq += 1
        job = self._seq
        signals = DetectSignals()
        for name, slot in slots.items():
            getattr(signals, name).connect(slot)
        worker = make_worker(job, signals)
        worker.pool = self.pool
        self._live[job] = signals
        self.pool.start(worker)
        return job, worker

    def shutdown(self, msecs: int = 3000) -> None:
        """Cancel and wait (at most ``msecs``) for the detection pool to be idle (closing the window)."""
        self.cancel()
        self.cancel_background()
        self.pool.waitForDone(msecs)

    # -- background jobs: a document that is not on screen ----------------------------------------------
    @property
    def background_running(self) -> bool:
        return self.background_job is not None

    def start_background(self, prepare: Prepare, settings: AppSettings) -> int | None:
        """Detect a document that is not on screen (``worker.DocumentDetectWorker``: ``prepare`` and its
        ``finish`` run on the pool thread). Returns the job id, or None while the document on screen is
        being detected. A running background job is cancelled first (silently)."""
        if self.running:
            return None
        self.cancel_background()
        provider = self._provider(settings)
        self.background_job, self.background_worker = self._launch(
            lambda job, sig: DocumentDetectWorker(job, provider, prepare, sig),
            result=self._on_bg_result, finished=self._on_bg_finished, failed=self._on_bg_failed)
        return self.background_job

    def cancel_background(self) -> int | None:
        """Stop the background job (it stops at its next cancel check and saves nothing); its late result
        is dropped. Returns the cancelled job's id (None if none ran). Emits nothing."""
        job = self.background_job
        if self.background_worker is not None:
            self.background_worker.cancel()
        self.background_job, self.background_worker = None, None
        return job

    def _bg_end(self, job: int, result, error: str) -> None:
        self._live.pop(job, None)
        if job != self.background_job:
            return
        self.background_job, self.background_worker = None, None
        self.backgroundEnded.emit(job, result, error)

    def _on_bg_result(self, job: int, result) -> None:
        self._bg_end(job, result, "")

    def _on_bg_finished(self, job: int, cancelled: bool) -> None:
        self._bg_end(job, None, "")

    def _on_bg_failed(self, job: int, message: str) -> None:
        self._bg_end(job, None, message or "?")

    def cancel(self) -> bool:
        """Stop the current job (the worker stops at its next cancel check); drops its pending and late
        spans. Returns whether a job was running. Emits nothing."""
        was_running = self.job is not None
        if self.worker is not None:
            self.worker.cancel()
        self.job = None
        self.worker = None
        self._incoming.clear()
        self._done_pending = False
        return was_running

    # -- worker signals (GUI thread) -------------------------------------------------------------------
    def _on_started(self, job: int, detector_id: str) -> None:
        if job == self.job:
            self.started.emit(detector_id)

    def _on_progress(self, job: int, done: int, total: int) -> None:
        if job != self.job:
            return
        self.last_progress = (done, total)     # unthrottled: the coverage of a cancelled run
        now = time.perf_counter()  # a progress bar repaints synchronously: a few updates per second
        if done < total and now - self._progress_at < 0.25:
            return
        self._progress_at = now
        self.progress.emit(done, total)

    def _on_spans(self, job: int, spans: list) -> None:
        if job != self.job:
            self.dropped_batches += 1
            return
        self._incoming.extend(spans)
        if not self._drain_timer.isActive():
            self._drain_timer.start()

    def _on_finished(self, job: int, cancelled: bool) -> None:
        self._live.pop(job, None)
        if job != self.job:
            return
        if cancelled:
            self._end(cancelled=True)
            return
        self._done_pending = True
        if not self._incoming and not self._drain_timer.isActive():
            self._end(cancelled=False)

    def _on_failed(self, job: int, message: str) -> None:
        sig = self._live.pop(job, None)
        if job != self.job:
            return
        self.failure = getattr(sig, "error", None)   # the worker's exception (its code names it in any language)
        # spans that arrived before the failure are valid: let the queue drain, then report
        self._error = message
        self._done_pending = True
        if not self._incoming and not self._drain_timer.isActive():
            self._end(cancelled=True)

    def _drain(self) -> None:
        """Feed queued spans to the state for at most ``DRAIN_BUDGET_S`` per event-loop turn."""
        state = self._state
        if state is None or self.job is None:
            self._incoming.clear()
            return
        deadline = time.perf_counter() + DRAIN_BUDGET_S
        while self._incoming:
            n = min(self._drain_chunk, len(self._incoming))
            chunk = [self._incoming.popleft() for _ in range(n)]
            t = time.perf_counter()
            try:
                added = state.add_detected(chunk)
            except ValueError as exc:  # a span outside the text: a detector bug; report, do not crash
                self._incoming.clear()
                self._error = str(exc)
                self._end(cancelled=True)
                return
            now = time.perf_counter()
            if added and not self._first_sent:
                self._first_sent = True
                self.firstSpans.emit()
            # size the next chunk to what fits in the budget at the cost just measured
            per_span = max((now - t) / n, 1e-6)
            self._drain_chunk = max(10, min(1000, int(DRAIN_BUDGET_S / 2 / per_span)))
            if now >= deadline:
                break
        if self._incoming:
            self._drain_timer.start()
        elif self._done_pending:
            self._end(cancelled=self._error is not None)

    def _end(self, *, cancelled: bool) -> None:
        error, self._error = self._error, None
        self.job = None
        self.worker = None
        self._done_pending = False
        self.ended.emit(cancelled, error or "")
