"""The Qt half of ``veil-desktop --self-test`` (``veil_desktop/selftest.py`` stays Qt-free).

:func:`check_main_window` builds the real main window offscreen, shows it, opens a document through the
normal background path (open -> detect -> spans into the review state) and checks the result: the window
was exposed, the document loaded without an error, detection finished with items, and the document font
(bundled OFL font unless the system has a Korean one) really has Hangul glyphs. Without ``detector`` the
window runs detection exactly as in production — the default detector in a ``QRunnable`` on
``QThreadPool`` (``ui/detection.py``); the check confirms it ran on a pool thread and that no child
process was started.

Threading: call on the main thread; it runs nested event loops until each stage ends or times out.
Settings are written to ``settings_path`` (a throw-away file), never to the user's profile.
"""
from __future__ import annotations

import os
from pathlib import Path


class WindowCheckFailed(Exception):
    """The main window did not come up / load / detect as expected; the message says which stage."""


def check_main_window(document: Path, settings_path: Path, detector=None, *, timeout_s: float = 120.0) -> str:
    """Run the window check; return a one-line summary or raise :class:`WindowCheckFailed`."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import multiprocessing
    import threading

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtGui import QFont, QFontMetrics
    from PySide6.QtWidgets import QApplication

    from .fonts import korean_font_family
    from .main_window import MainWindow
    from .settings_store import SettingsStore

    app = QApplication.instance() or QApplication(["veil-desktop"])
    family = korean_font_family()
    font = QFont(family, 11)
    missing = [ch for ch in "가한글민원처리" if not QFontMetrics(font).inFontUcs4(ord(ch))]
    if missing:
        raise WindowCheckFailed(f"font {family!r} has no glyph for {''.join(missing)!r}")

    factory = None if detector is None else (lambda _folder, _threads: detector)
    window = MainWindow(SettingsStore(settings_path), detector_factory=factory)
    try:
        window.show()
        outcome: dict[str, object] = {}
        loop = QEventLoop()

        def run_until(stage: str, done) -> None:
            """Spin the event loop until ``done()`` is true, an error box was shown, or the timeout."""
            timer = QTimer(interval=10)

            def poll() -> None:
                if done() or "error" in outcome:
                    loop.quit()

            timer.timeout.connect(poll)
            deadline = QTimer(singleShot=True, interval=int(timeout_s * 1000))
            deadline.timeout.connect(lambda: (outcome.setdefault("error", f"{stage}: timed out after "
                                                                           f"{timeout_s:.0f} s"), loop.quit()))
            timer.start()
            deadline.start()
            loop.exec()
            timer.stop()
            deadline.stop()
            if "error" in outcome:
                raise WindowCheckFailed(str(outcome["error"]))

        window.errorShown.connect(lambda msg: outcome.setdefault("error", f"error shown: {msg}"))
        # where the detection job runs: a pool thread, never this thread or a child process
        window.detection.started.connect(lambda _id: outcome.setdefault("worker", window.detection.worker))
        window.detectionFinished.connect(lambda cancelled: outcome.setdefault("finished", not cancelled))
        run_until("window exposed", lambda: window.windowHandle() is not None
                  and window.windowHandle().isExposed())
        window.open_path(document)
        run_until("document loaded + detection", lambda: "finished" in outcome)
        if not outcome["finished"]:
            raise WindowCheckFailed("detection was cancelled")
        items = len(window.review.state or [])
        if items == 0:
            raise WindowCheckFailed("detection finished but the review list is empty")
        worker = outcome.get("worker")
        if (worker is None or worker.thread_id in (None, threading.get_ident()) or worker.pool_busy < 1
                or worker.thread_name != "Thread (pooled)"):
            raise WindowCheckFailed("detection did not run on a QThreadPool worker")
        if multiprocessing.active_children():
            raise WindowCheckFailed("a child process was started during detection")
        where = "pool thread" if detector is None else "pool thread, injected detector"
        return (f"window {window.width()}x{window.height()} on {app.platformName()}; {items} review items "
                f"({where}: {window.review.detector_id or '?'}); font {family}")
    finally:
        window.close()
        window.deleteLater()
        app.processEvents()
