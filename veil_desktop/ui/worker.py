"""Background work on ``QThreadPool``: detection (streamed, throttled) and one-shot tasks (file IO).

Threading contract:
- a ``QRunnable`` is not a ``QObject``; each job's signals live on a separate ``*Signals`` object created
  in the GUI thread, so emissions from the pool thread are queued into the GUI thread;
- ``run()`` never touches a widget and catches every exception, which it emits as ``failed`` (an
  exception escaping a pool thread would otherwise vanish, and the window would wait forever);
- every emission carries the job id; the receiver drops results whose id is not the current job (a
  cancelled job may still deliver a batch that was in flight);
- cancelling sets a ``threading.Event`` that the detector polls between batches.

Why hand-written and not superqt's ``thread_worker``: see docs/UI.md ("Worker plumbing").
"""
from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from threading import Event
from typing import Any, Callable, Iterable

from PySide6.QtCore import QObject, QRunnable, QThread, QThreadPool, Signal

from ..detect.events import Detector, Progress, SpansFound
from ..detect.driver import SLICE_CHARS, drive


def forward_stream(events: Iterable, on_spans: Callable[[list], None],
                   on_progress: Callable[[int, int], None], throttle_s: float = 0.05,
                   is_cancelled: Callable[[], bool] = lambda: False) -> None:
    """Consume a detector stream, forwarding spans and progress at most once per ``throttle_s``
    (the first spans at once: they decide the time to first highlight). Spans found before an exception
    are forwarded before it propagates. A batch already computed when a cancel comes may still be forwarded:
    the receiver drops results of jobs that are no longer current (that is the guarantee, not this)."""
    buffer: list = []
    last_emit = 0.0
    sent_spans = False
    sent_progress = False
    progress: Progress | None = None
    try:
        for event in events:
            if isinstance(event, SpansFound):
                buffer.extend(event.spans)
            elif isinstance(event, Progress):
                progress = event
            now = time.monotonic()
            # the first spans at once, and the progress right after them (the coverage of a run cancelled
            # while the next batch is computed)
            first_progress = progress is not None and sent_spans and not sent_progress
            if now - last_emit >= throttle_s or (buffer and not sent_spans) or first_progress:
                if buffer:
                    on_spans(buffer)
                    buffer = []
                    sent_spans = True
                if progress is not None:
                    on_progress(progress.done, progress.total)
                    progress = None
                    sent_progress = sent_spans
                last_emit = now
    finally:
        if buffer and not is_cancelled():
            on_spans(buffer)
        if progress is not None and not is_cancelled():
            on_progress(progress.done, progress.total)


#: how much lower than normal the detection thread runs (Linux nice increment). Detection keeps every core
#: busy (onnxruntime's intra-op threads plus this one); at a lower priority it yields a core to the GUI thread
#: whenever the GUI thread has work, instead of sharing it equally. On an otherwise idle machine it costs
#: nothing (priority only matters when threads compete for a CPU).
DETECT_NICE = 5


def lower_thread_priority() -> None:
    """Lower the calling thread's CPU priority (before it creates onnxruntime's or the tokenizer's
    threads, which inherit it). Linux: ``setpriority`` on the thread id (per thread there); elsewhere Qt's
    ``QThread.LowPriority``. The thread keeps it afterwards (an unprivileged thread cannot raise its
    priority again): call it only on threads that do nothing else (the detection pool's)."""
    try:
        if sys.platform.startswith("linux"):
            tid = threading.get_native_id()
            target = min(19, os.getpriority(os.PRIO_PROCESS, os.getpid()) + DETECT_NICE)  # main thread + N
            if os.getpriority(os.PRIO_PROCESS, tid) < target:  # a reused pool thread is lowered already
                os.setpriority(os.PRIO_PROCESS, tid, target)
        else:
            QThread.currentThread().setPriority(QThread.Priority.LowPriority)
    except (OSError, AttributeError):  # not permitted / not supported: run at normal priority
        pass


class DetectSignals(QObject):
    started = Signal(int, str)              # job id, detector id
    progress = Signal(int, int, int)        # job id, done, total
    spans = Signal(int, object)             # job id, list[Span]
    finished = Signal(int, bool)            # job id, cancelled
    failed = Signal(int, str)               # job id, message
    result = Signal(int, object)            # job id, result (a background document job: ``finish``'s value)


class DetectWorker(QRunnable):
    """Runs the detector over ``text`` slice by slice (``detect.driver.drive``: paragraphs of about
    ``slice_chars``, the visible one first) and forwards batches, at most one per ``throttle_s``.

    ``detector_provider`` is called on the pool thread (loading an ONNX session takes a while). Cancel is
    checked between slices and, inside the detector, between batches.
    """

    def __init__(self, job_id: int, detector_provider: Callable[[], Detector], text: str,
                 first: tuple[int, int] | None, signals: DetectSignals, throttle_s: float = 0.05,
                 slice_chars: int = SLICE_CHARS) -> None:
        super().__init__()
        self.job_id = job_id
        self._provider = detector_provider
        self._text = text
        self._first = first
        self.signals = signals
        self._throttle = throttle_s
        self._slice_chars = slice_chars
        self.lower_priority = True  # see DETECT_NICE
        self.pool: QThreadPool | None = None  # the pool it runs on (set by the controller; for pool_busy)
        self._cancel = Event()
        self.ended = Event()  # set when run() has returned (tests, benchmarks: how fast a cancel stops it)
        # where it ran (self-test, tests, benchmark): thread id, Qt's thread name ("Thread (pooled)" for a
        # QThreadPool thread), and the pool's busy thread count seen from inside the job
        self.thread_id: int | None = None
        self.thread_name = ""
        self.pool_busy = 0
        self.nice: int | None = None  # the thread's nice value while detecting (Unix)

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def run(self) -> None:  # pool thread
        job, sig = self.job_id, self.signals
        self.thread_id = threading.get_ident()
        self.thread_name = QThread.currentThread().objectName()
        self.pool_busy = (self.pool or QThreadPool.globalInstance()).activeThreadCount()
        if self.lower_priority:
            lower_thread_priority()
        if hasattr(os, "getpriority"):
            self.nice = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        try:
            self._work()
        except Exception as exc:  # noqa: BLE001 - every failure must reach the GUI as a message
            sig.error = exc            # the exception itself, for a message in the UI language (read after `failed`)
            sig.failed.emit(job, describe(exc))
        finally:
            self.ended.set()

    def _work(self) -> None:
        """The document on screen: spans are forwarded in throttled batches as they are found."""
        job, sig = self.job_id, self.signals
        detector = self._provider()
        if self._cancel.is_set():
            sig.finished.emit(job, True)
            return
        sig.started.emit(job, detector_id(detector))
        self._detect(detector, self._text, lambda spans: sig.spans.emit(job, spans))
        sig.finished.emit(job, self._cancel.is_set())

    def _detect(self, detector: Detector, text: str, on_spans: Callable[[list], None]) -> None:
        """``drive`` over ``text`` (cancel checked between slices and, in the detector, between
        batches); spans to ``on_spans``, progress to the ``progress`` signal."""
        job, sig = self.job_id, self.signals
        events = drive(detector, text, cancelled=self._cancel.is_set, first=self._first,
                               size=self._slice_chars)
        forward_stream(events, on_spans, lambda done, total: sig.progress.emit(job, done, total),
                       self._throttle, is_cancelled=self._cancel.is_set)


def detector_id(detector: Detector) -> str:
    return getattr(detector, "id", type(detector).__name__)


#: ``prepare()`` of a background document job: ``(text, finish)`` to detect ``text`` and then call
#: ``finish(spans, detector_id)`` (both on the pool thread), or ``(None, result)`` when there is nothing to
#: detect (unreadable file, session already complete)
Prepare = Callable[[], "tuple[str | None, Any]"]


class DocumentDetectWorker(DetectWorker):
    """A document that is not on screen (the workspace queue), on the same detection pool and the same
    lowered-priority thread as ``DetectWorker``, through the same ``drive`` and cancel checks.

    On the pool thread: ``prepare()`` (read the file and its session), the detector, then ``finish(spans,
    detector_id)`` (merge into that document's own state, write its session); its value is emitted as
    ``result``. Spans are collected on the pool thread, never sent to the GUI thread. A cancel (checked
    after ``prepare``, between slices and batches, and before ``finish``) emits ``finished(job, True)``
    and saves nothing."""

    def __init__(self, job_id: int, detector_provider: Callable[[], Detector], prepare: Prepare,
                 signals: DetectSignals, slice_chars: int = SLICE_CHARS) -> None:
        super().__init__(job_id, detector_provider, "", None, signals, throttle_s=0.25, slice_chars=slice_chars)
        self._prepare = prepare

    def _work(self) -> None:
        job, sig = self.job_id, self.signals
        text, then = self._prepare()
        if self._cancel.is_set():
            sig.finished.emit(job, True)
            return
        if text is None:
            sig.result.emit(job, then)
            return
        detector = self._provider()
        if self._cancel.is_set():
            sig.finished.emit(job, True)
            return
        sig.started.emit(job, detector_id(detector))
        spans: list = []
        if text.strip():
            self._detect(detector, text, spans.extend)
        if self._cancel.is_set():
            sig.finished.emit(job, True)
            return
        sig.result.emit(job, then(spans, detector_id(detector)))


class TaskSignals(QObject):
    done = Signal(int, object)      # job id, result
    failed = Signal(int, str)       # job id, message


class TaskWorker(QRunnable):
    """Runs ``fn()`` once on the pool and emits its result (file open, export, autosave)."""

    def __init__(self, job_id: int, fn: Callable[[], Any], signals: TaskSignals) -> None:
        super().__init__()
        self.job_id = job_id
        self._fn = fn
        self.signals = signals

    def run(self) -> None:  # pool thread
        try:
            result = self._fn()
        except Exception as exc:  # noqa: BLE001
            self.signals.failed.emit(self.job_id, describe(exc))
            return
        self.signals.done.emit(self.job_id, result)


def describe(exc: BaseException) -> str:
    msg = str(exc) or type(exc).__name__
    # our own errors carry a user-facing message; anything else is a bug: keep its traceback in the log
    if not type(exc).__module__.startswith("veil_desktop."):
        traceback.print_exception(exc)
    return msg


_describe = describe  # older name
