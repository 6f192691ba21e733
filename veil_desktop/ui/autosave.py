"""Autosave of the review on screen: when to write (a bounded timer), on which thread (the pool).

``Autosave(parent, review, jobs)``: ``schedule()`` after any change starts a 1 s single-shot timer (not
restarted by later changes, so the delay is bounded); the snapshot is taken on the GUI thread by the
``ReviewSession`` and written atomically on the pool (``review/session.py``'s ``Autosaver``). ``flush()``
writes now, on this thread (closing, switching documents, export all). ``saved(path)`` reports a write;
``failed(message, now)`` a failed one (``now``: from ``flush``, the reviewer must see it).
Threading: GUI thread.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from ..review.review_session import ReviewSession
from .jobs import Jobs

AUTOSAVE_DELAY_MS = 1000


class Autosave(QObject):
    saved = Signal(str)
    failed = Signal(str, bool)

    def __init__(self, parent: QObject | None, review: ReviewSession, jobs: Jobs,
                 delay_ms: int = AUTOSAVE_DELAY_MS) -> None:
        super().__init__(parent)
        self.review = review
        self.jobs = jobs
        self.timer = QTimer(self, singleShot=True, interval=delay_ms, timeout=self._write)

    def schedule(self) -> None:
        if self.review.state is not None and not self.timer.isActive():
            self.timer.start()  # not restarted by later changes: the delay stays bounded

    def _write(self) -> None:
        snap = self.review.snapshot()  # cheap; serialised on the pool
        if snap is None:
            return
        saver = self.review.autosaver
        self.jobs.start(lambda: (saver.write(snap), str(snap.path))[1], self.saved.emit,
                        lambda m: self.failed.emit(m, False))

    def flush(self, *, even_empty: bool = False) -> None:
        """Write the session now, on this thread; an empty review only with ``even_empty``."""
        if self.timer.isActive():
            self.timer.stop()
        try:
            self.review.save_now(even_empty=even_empty)
        except OSError as exc:
            self.failed.emit(str(exc), True)
