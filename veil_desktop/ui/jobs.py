"""One way to run work on ``QThreadPool`` from the GUI thread: ``Jobs.start``.

``jobs.start(fn, on_done, on_error, on_yield=None, on_progress=None, channel=None) -> Job``

- ``fn()`` or ``fn(job)`` runs on the pool (``fn(job)`` when it takes one argument: the core then sees only
  ``job.progress(done, total)`` and ``job.cancelled()``); if it returns a generator, every yielded value
  goes to ``on_yield(value)`` and the generator's return value to ``on_done``;
- ``on_done(result)``, ``on_error(message)``, ``on_yield(value)`` and ``on_progress(done, total)`` run on the
  GUI thread (queued signals of a ``QObject`` created here, kept alive until the job ends);
- every job has an id (``job.id``); ``job.cancel()`` asks it to stop (``cancelled()`` turns True; the job
  still ends through ``on_done`` / ``on_error``, e.g. with the reader's "cancelled" message);
  ``job.discard()`` cancels it and drops whatever it still delivers;
- **stale results are dropped**: a job started on a ``channel`` (e.g. ``"open"``, ``"pages"``) supersedes
  the channel's previous job, which is discarded: nothing of it reaches the callbacks any more;
- ``ocr_pages=True`` routes the OCR readers' page hook (``documents.ocr.pages_progress``) to the job's
  ``progress`` and ``cancelled`` (opening a scan: progress and Cancel).

Exceptions in ``fn`` never escape the pool thread: they arrive as ``on_error(describe(exc))``.
Threading: create and call on the GUI thread.
"""
from __future__ import annotations

import inspect
import threading
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from .worker import describe


class _JobSignals(QObject):
    done = Signal(object)
    failed = Signal(str)
    yielded = Signal(object)
    progress = Signal(int, int)


class Job:
    """A handle on one pool job (see the module docstring)."""

    def __init__(self, job_id: int, channel: str | None) -> None:
        self.id = job_id
        self.channel = channel
        self._cancel = threading.Event()
        self.discarded = False
        self._signals: _JobSignals | None = None
        self.running = True

    def cancel(self) -> None:
        self._cancel.set()

    def discard(self) -> None:
        self.discarded = True
        self._cancel.set()

    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def progress(self, done: int, total: int) -> None:   # pool thread
        if not self.discarded and self._signals is not None:
            self._signals.progress.emit(done, total)

    def _pages_hook(self, done: int, total: int) -> bool:
        if done >= 0:
            self.progress(done, total)
        return self._cancel.is_set()


class _Runner(QRunnable):
    def __init__(self, job: Job, fn: Callable, signals: _JobSignals, ocr_pages: bool) -> None:
        super().__init__()
        self._job, self._fn, self._signals, self._ocr = job, fn, signals, ocr_pages

    def run(self) -> None:  # pool thread
        job, sig = self._job, self._signals
        try:
            if self._ocr:
                from ..documents.ocr import pages_progress

                with pages_progress(job._pages_hook):
                    result = self._call()
            else:
                result = self._call()
            if inspect.isgenerator(result):
                result = self._drain(result)
        except Exception as exc:  # noqa: BLE001 - every failure must reach the GUI as a message
            sig.failed.emit(describe(exc))
            return
        sig.done.emit(result)

    def _call(self):
        return self._fn(self._job) if _takes_job(self._fn) else self._fn()

    def _drain(self, gen):
        while True:
            try:
                value = next(gen)
            except StopIteration as stop:
                return stop.value
            if self._job.discarded:
                gen.close()
                return None
            self._signals.yielded.emit(value)


def _takes_job(fn: Callable) -> bool:
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return False
    return len(params) == 1


class Jobs(QObject):
    """The pool jobs of one window (see the module docstring)."""

    def __init__(self, parent: QObject | None = None, pool: QThreadPool | None = None) -> None:
        super().__init__(parent)
        self.pool = pool or QThreadPool.globalInstance()
        self._seq = 0
        self._live: dict[int, Job] = {}            # keeps signal objects alive until their job ends
        self._current: dict[str, Job] = {}         # channel -> its current job
        self.dropped = 0                           # deliveries of stale or cancelled jobs (tests)

    def current(self, channel: str) -> Job | None:
        """The channel's running job, if any."""
        job = self._current.get(channel)
        return job if job is not None and job.running else None

    def cancel(self, channel: str) -> bool:
        """Ask the channel's job to stop (it still reports its end); whether one was running."""
        job = self.current(channel)
        if job is not None:
            job.cancel()
        return job is not None

    def discard(self, channel: str) -> bool:
        """Cancel the channel's job and drop everything it still delivers; whether one was running."""
        job = self._current.pop(channel, None)
        if job is None or not job.running:
            return False
        job.discard()
        return True

    def start(self, fn: Callable[..., Any], on_done: Callable[[Any], None] | None = None,
              on_error: Callable[[str], None] | None = None, *, on_yield: Callable[[Any], None] | None = None,
              on_progress: Callable[[int, int], None] | None = None, channel: str | None = None,
              ocr_pages: bool = False) -> Job:
        self._seq += 1
        job = Job(self._seq, channel)
        if channel is not None:
            old = self._current.get(channel)
            if old is not None:
                old.discard()                      # superseded: its results are stale from now on
            self._current[channel] = job
        signals = _JobSignals()                    # created here, on the GUI thread
        job._signals = signals

        def live() -> bool:
            ok = not job.discarded and (channel is None or self._current.get(channel) is job)
            if not ok:
                self.dropped += 1
            return ok

        def end() -> None:
            job.running = False
            self._live.pop(job.id, None)
            if channel is not None and self._current.get(channel) is job:
                del self._current[channel]

        def done(result) -> None:
            ok = live()
            end()
            if ok and on_done is not None:
                on_done(result)

        def failed(message: str) -> None:
            ok = live()
            end()
            if ok and on_error is not None:
                on_error(message)

        signals.done.connect(done)
        signals.failed.connect(failed)
        if on_yield is not None:
            signals.yielded.connect(lambda v: live() and on_yield(v))
        if on_progress is not None:
            signals.progress.connect(lambda d, t: live() and on_progress(d, t))
        self._live[job.id] = job
        self.pool.start(_Runner(job, fn, signals, ocr_pages))
        return job
