"""Background work on ``QThreadPool``: detection (streamed, throttled) and one-shot tasks (file IO).

Threading contract:
- a ``QRunnable`` is not a ``QObject``; each job's signals live on a separate ``*Signals`` object created
  in the GUI thread, so emissions from the pool thread are queued into the GUI thread;
- ``run()`` never touches a widget and catches every exception, which it emits as ``failed`` (an
  exception escaping a pool thread would otherwise vanish);
- every emission carries the job id; the receiver drops results whose id is not the current job (a
  cancelled job may still deliver a batch that was in flight);
- cancelling sets a ``threading.Event`` that the detector polls between batches.
"""
from __future__ import annotations

import threading
import time
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, Signal

from ..detect.events import Detector, Progress, SpansFound


class DetectSignals(QObject):
    started = Signal(int, str)              # job id, detector id
    progress = Signal(int, int, int)        # job id, done, total
    spans = Signal(int, object)             # job id, list[Span]
    finished = Signal(int, bool)            # job id, cancelled
    failed = Signal(int, str)               # job id, message


class DetectWorker(QRunnable):
    """Runs ``detector_provider().stream(text, ...)`` and forwards batches, at most one per ``throttle_s``.

    ``detector_provider`` is called on the pool thread (loading an ONNX session can take a while).
    """

    def __init__(self, job_id: int, detector_provider: Callable[[], Detector], text: str,
                 first: tuple[int, int] | None, signals: DetectSignals, throttle_s: float = 0.05) -> None:
        super().__init__()
        self.job_id = job_id
        self._provider = detector_provider
        self._text = text
        self._first = first
        self.signals = signals
        self._throttle = throttle_s
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def run(self) -> None:  # pool thread
        job, sig = self.job_id, self.signals
        buffer: list = []
        try:
            detector = self._provider()
            if self._cancel.is_set():
                sig.finished.emit(job, True)
                return
            sig.started.emit(job, getattr(detector, "id", type(detector).__name__))
            last_emit = 0.0
            sent_spans = False
            progress: Progress | None = None
            for event in detector.stream(self._text, cancelled=self._cancel.is_set, first=self._first):
                if isinstance(event, SpansFound):
                    buffer.extend(event.spans)
                elif isinstance(event, Progress):
                    progress = event
                now = time.monotonic()
                # the first batch goes out at once (time to first highlight), later ones are coalesced
                if now - last_emit >= self._throttle or (buffer and not sent_spans):
                    if buffer:
                        sig.spans.emit(job, buffer)
                        buffer = []
                        sent_spans = True
                    if progress is not None:
                        sig.progress.emit(job, progress.done, progress.total)
                        progress = None
                    last_emit = now
            if buffer and not self._cancel.is_set():
                sig.spans.emit(job, buffer)
            if progress is not None:
                sig.progress.emit(job, progress.done, progress.total)
            sig.finished.emit(job, self._cancel.is_set())
        except Exception as exc:  # noqa: BLE001 - every failure must reach the GUI as a message
            if buffer and not self._cancel.is_set():
                sig.spans.emit(job, buffer)  # spans yielded before the failure are final and valid
            sig.failed.emit(job, _describe(exc))


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
            self.signals.failed.emit(self.job_id, _describe(exc))
            return
        self.signals.done.emit(self.job_id, result)


def _describe(exc: BaseException) -> str:
    msg = str(exc) or type(exc).__name__
    # our own errors carry a user-facing message; anything else is a bug: keep its traceback in the log
    if not type(exc).__module__.startswith("veil_desktop."):
        traceback.print_exception(exc)
    return msg
