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

import queue
import threading
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, Signal

from ..detect.events import Detector
from .detect_process import forward_stream


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
        try:
            detector = self._provider()
            if self._cancel.is_set():
                sig.finished.emit(job, True)
                return
            sig.started.emit(job, getattr(detector, "id", type(detector).__name__))
            forward_stream(detector.stream(self._text, cancelled=self._cancel.is_set, first=self._first),
                           lambda spans: sig.spans.emit(job, spans),
                           lambda done, total: sig.progress.emit(job, done, total),
                           self._throttle, is_cancelled=self._cancel.is_set)
            sig.finished.emit(job, self._cancel.is_set())
        except Exception as exc:  # noqa: BLE001 - every failure must reach the GUI as a message
            sig.failed.emit(job, _describe(exc))


class DetectProcess(QObject):
    """Runs detection jobs in a child process (``detect_process.child_main``) and re-emits its events as
    job-tagged Qt signals, like ``DetectWorker`` does for a thread.

    Threading: created and driven on the GUI thread, which never touches the pipes itself: a sender thread
    writes the commands (a 1M-character text does not fit a pipe buffer, and the child reads commands only
    between batches, so a direct ``send`` could block the GUI for a whole batch), and a reader thread
    receives the child's events and emits the signals (queued into the GUI thread). The child is started on
    the first job and keeps its detector loaded; ``close()`` stops it. If the child dies, the running job
    fails with a message and the next job starts a new child.
    """

    started = Signal(int, str)
    progress = Signal(int, int, int)
    spans = Signal(int, object)
    finished = Signal(int, bool)
    failed = Signal(int, str)

    def __init__(self, model_dir: str | None, threads: int | None, parent=None) -> None:
        super().__init__(parent)
        self.model_dir = model_dir
        self.threads = threads
        self._proc = None
        self._cmd = None
        self._outbox: queue.SimpleQueue | None = None
        self._sender: threading.Thread | None = None
        self._reader: threading.Thread | None = None
        self._current_job: int | None = None
        self._closing = False
        self._lock = threading.Lock()

    def _ensure(self) -> None:
        if self._proc is not None and self._proc.is_alive() and self._cmd is not None:
            return
        import multiprocessing as mp

        from .detect_process import child_main

        if self._outbox is not None:  # a previous child died: let its sender thread end
            self._outbox.put(None)

        ctx = mp.get_context("spawn")  # never fork a process that runs Qt and onnxruntime threads
        cmd_recv, cmd_send = ctx.Pipe(duplex=False)
        evt_recv, evt_send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=child_main, args=(cmd_recv, evt_send, self.model_dir, self.threads),
                           name="veil-detect", daemon=True)
        try:
            proc.start()
        finally:
            cmd_recv.close()
            evt_send.close()
        self._proc, self._cmd = proc, cmd_send
        self._closing = False
        self._outbox = queue.SimpleQueue()
        self._sender = threading.Thread(target=_send_loop, args=(cmd_send, self._outbox), name="veil-detect-sender",
                                        daemon=True)
        self._sender.start()
        self._reader = threading.Thread(target=self._read, args=(evt_recv, self._proc), name="veil-detect-reader",
                                        daemon=True)
        self._reader.start()

    def start_job(self, job: int, text: str, first: tuple[int, int] | None) -> None:
        with self._lock:
            self._ensure()
            self._current_job = job
            self._outbox.put(("detect", job, text, first))

    def cancel(self, job: int) -> None:
        with self._lock:
            if self._outbox is not None and self._proc is not None and self._proc.is_alive():
                self._outbox.put(("cancel", job))

    def close(self, timeout: float = 3.0) -> None:
        with self._lock:
            proc, outbox, sender = self._proc, self._outbox, self._sender
            self._closing = True
            self._proc = self._cmd = self._outbox = self._sender = None
        if proc is None or outbox is None:
            return
        outbox.put(("quit",))
        outbox.put(None)  # ends the sender, which closes the pipe
        proc.join(timeout)
        if proc.is_alive():
            proc.terminate()
            proc.join(1.0)
        if sender is not None:
            sender.join(timeout)
        if self._reader is not None:
            self._reader.join(timeout)

    def _read(self, conn, proc) -> None:  # reader thread
        while True:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                break
            kind, job = msg[0], msg[1]
            if kind == "spans":
                self.spans.emit(job, msg[2])
            elif kind == "progress":
                self.progress.emit(job, msg[2], msg[3])
            elif kind == "started":
                self.started.emit(job, msg[2])
            elif kind == "finished":
                self.finished.emit(job, msg[2])
            elif kind == "failed":
                self.failed.emit(job, msg[2])
        conn.close()
        if not self._closing and self._current_job is not None and proc is self._proc:
            code = proc.exitcode
            self.failed.emit(self._current_job, f"the detection process stopped unexpectedly (exit code {code})")


def _send_loop(conn, outbox: "queue.SimpleQueue") -> None:
    """Sender thread of ``DetectProcess``: writes queued commands in order; ``None`` ends it."""
    try:
        while True:
            msg = outbox.get()
            if msg is None:
                break
            try:
                conn.send(msg)
            except (OSError, ValueError):  # the child is gone; the reader reports it
                break
    finally:
        conn.close()


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
