"""Detection in a child process. No Qt in this module (the child never loads Qt).

Why a process: parts of detection run long C calls that hold the GIL (tokenising a whole document,
regular expressions over it). In a thread those calls stall the GUI thread for hundreds of milliseconds;
in a child process they cannot. The child keeps the detector (ONNX session) loaded between jobs.

Protocol (two one-way pipes, so sending and receiving never share a connection between threads):
- parent -> child: ``("detect", job, text, first)``, ``("cancel", job)``, ``("quit",)``;
- child -> parent: ``("started", job, detector_id)``, ``("progress", job, done, total)``,
  ``("spans", job, [Span, ...])``, ``("finished", job, cancelled)``, ``("failed", job, message)``.
A new ``detect`` or ``quit`` arriving while a job runs cancels that job (the detector polls between
batches) and is handled next. ``forward_stream`` (the throttling) is shared with the in-thread worker.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterable

from ..detect.events import Progress, SpansFound


def forward_stream(events: Iterable, on_spans: Callable[[list], None],
                   on_progress: Callable[[int, int], None], throttle_s: float = 0.05,
                   is_cancelled: Callable[[], bool] = lambda: False) -> None:
    """Consume a detector stream, forwarding spans and progress at most once per ``throttle_s``
    (the first spans at once: they decide the time to first highlight). Spans found before an exception
    are forwarded before it propagates."""
    buffer: list = []
    last_emit = 0.0
    sent_spans = False
    progress: Progress | None = None
    try:
        for event in events:
            if isinstance(event, SpansFound):
                buffer.extend(event.spans)
            elif isinstance(event, Progress):
                progress = event
            now = time.monotonic()
            if now - last_emit >= throttle_s or (buffer and not sent_spans):
                if buffer:
                    on_spans(buffer)
                    buffer = []
                    sent_spans = True
                if progress is not None:
                    on_progress(progress.done, progress.total)
                    progress = None
                last_emit = now
    finally:
        if buffer and not is_cancelled():
            on_spans(buffer)
        if progress is not None:
            on_progress(progress.done, progress.total)


def child_main(cmd_conn, evt_conn, model_dir: str | None, threads: int | None) -> None:
    """Entry point of the detection process (spawned; see ``DetectProcess`` in ``worker.py``)."""
    from ..detect.default import build_default_detector

    detector = None
    queued = None
    while True:
        try:
            msg = queued if queued is not None else cmd_conn.recv()
        except (EOFError, OSError):
            return  # the parent went away
        queued = None
        kind = msg[0]
        if kind == "quit":
            return
        if kind != "detect":
            continue  # a cancel for a job that already ended
        _, job, text, first = msg
        state = {"cancelled": False}

        def cancelled(job=job, state=state) -> bool:
            nonlocal queued
            while not state["cancelled"] and cmd_conn.poll():
                m = cmd_conn.recv()
                if m[0] == "cancel" and m[1] == job:
                    state["cancelled"] = True
                elif m[0] in ("detect", "quit"):
                    queued = m
                    state["cancelled"] = True
            return state["cancelled"]

        try:
            if detector is None:
                detector = build_default_detector(Path(model_dir) if model_dir else None, threads)
            evt_conn.send(("started", job, detector.id))
            forward_stream(detector.stream(text, cancelled=cancelled, first=first),
                           lambda spans: evt_conn.send(("spans", job, spans)),
                           lambda done, total: evt_conn.send(("progress", job, done, total)),
                           is_cancelled=cancelled)
            evt_conn.send(("finished", job, cancelled()))
        except (BrokenPipeError, EOFError):
            return
        except Exception as exc:  # noqa: BLE001 - the parent shows it as a message
            try:
                evt_conn.send(("failed", job, str(exc) or type(exc).__name__))
            except (BrokenPipeError, OSError):
                return
