"""``veil-desktop`` entry point: the application object, fonts, command line, ``--screenshot``.

    veil-desktop [FILE] [--lang ko|en] [--model DIR] [--threads N]
    veil-desktop --screenshot OUT.png FILE [--size 1280x800] [--timeout 120]

``--screenshot`` opens FILE, waits for detection to finish, selects the first pending suggestion, renders the
main window to OUT.png and exits (0 on success). It runs offscreen when no platform is set.
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

# onnxruntime's telemetry client is switched off only by this variable, set before its first import (see
# packaging/entry.py); an offline PII tool sends nothing.
os.environ["ORT_DISABLE_TELEMETRY"] = "1"

try:  # Windows: onnxruntime's DLLs must initialise before Qt's (onnxruntime#26127)
    import onnxruntime  # noqa: F401,E402
except ImportError:  # pragma: no cover - a broken install is reported when the detector loads
    pass

from .fonts import korean_font_family  # noqa: E402,F401  (re-exported: older callers import it here)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="veil-desktop", description="Review and redact personal information "
                                "in Korean documents (offline).")
    p.add_argument("file", nargs="?", help="document (or folder of documents) to open")
    p.add_argument("more", nargs="*", metavar="FILE", help="more documents or folders: a workspace")
    p.add_argument("--screenshot", metavar="OUT.png", help="render the window reviewing FILE to OUT.png and exit")
    p.add_argument("--size", default="1280x800", help="window size for --screenshot (default 1280x800)")
    p.add_argument("--timeout", type=float, default=180.0, help="--screenshot: seconds to wait for detection")
    p.add_argument("--lang", choices=("ko", "en"), help="UI language (saved in the settings)")
    p.add_argument("--model", metavar="DIR", help="model folder to use instead of the embedded default")
    p.add_argument("--threads", type=int, help="inference threads (0 = automatic)")
    p.add_argument("--self-test", action="store_true",
                   help="run the built-in self-test and exit (see veil-desktop --self-test --help)")
    return p


def main(argv: list[str] | None = None) -> int:
    """The window (``--self-test`` is dispatched before this by ``veil_desktop.launcher``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    if args.screenshot:
        if not args.file:
            print("veil-desktop: --screenshot needs a FILE to open", file=sys.stderr)
            return 2
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from .system_libs import startup_message

    missing = startup_message("ko")        # Qt's own abort names the wrong library (issue 22)
    if missing:
        print(missing + "\n\n" + startup_message("en"), file=sys.stderr)
        return 1

    from PySide6.QtGui import QFont, QIcon
    from PySide6.QtWidgets import QApplication

    from ..paths import resources_dir
    from .main_window import MainWindow
    from .settings_store import SettingsStore

    from .qt_compat import ensure_safe_bindings

    ensure_safe_bindings()
    app = QApplication.instance() or QApplication(["veil-desktop"])
    app.setApplicationName("veil-desktop")
    icon = resources_dir() / "icons" / "veil-desktop.png"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))
    app.setFont(QFont(korean_font_family(), 10))

    store = SettingsStore()
    if args.screenshot:
        # a throwaway settings file: a screenshot run must not change the user's settings or recent files
        import tempfile

        store = SettingsStore(Path(tempfile.mkdtemp(prefix="veil-shot-")) / "settings.ini")
    window = MainWindow(store)
    overrides = {}
    if args.lang:
        overrides["language"] = args.lang
    if args.model:
        overrides["model_dir"] = str(Path(args.model).resolve())
    if args.threads is not None:
        overrides["threads"] = args.threads
    if overrides:
        window.apply_settings(replace(window.settings, **overrides))

    if args.screenshot:
        return _screenshot(app, window, Path(args.file), Path(args.screenshot), args.size, args.timeout)

    window.show()
    if args.file and (args.more or Path(args.file).is_dir()):
        window.tools.open_paths([args.file, *args.more])  # several documents: the workspace list
    elif args.file:
        window.open_path(args.file)
    return app.exec()


def _screenshot(app, window, file: Path, out: Path, size: str, timeout: float) -> int:
    from PySide6.QtCore import QEventLoop, QTimer

    try:
        w, h = (int(v) for v in size.lower().split("x"))
    except ValueError:
        print(f"veil-desktop: bad --size {size!r}; use e.g. 1280x800", file=sys.stderr)
        return 2
    window.resize(max(w, 1000), max(h, 650))
    window.show()
    outcome: dict[str, object] = {}
    loop = QEventLoop()

    def done(cancelled: bool = False) -> None:
        outcome.setdefault("cancelled", cancelled)
        loop.quit()

    def failed(message: str) -> None:
        outcome["error"] = message
        loop.quit()

    def loaded(_path: str) -> None:
        # a fully restored session runs no detection: nothing more to wait for
        if not window.detection.running:
            done(False)

    window.detectionFinished.connect(done)
    window.errorShown.connect(failed)
    window.documentLoaded.connect(loaded)
    QTimer.singleShot(int(timeout * 1000), lambda: failed(f"timed out after {timeout:.0f} s"))
    window.open_path(file)
    loop.exec()
    if "error" in outcome:
        print(f"veil-desktop: {outcome['error']}", file=sys.stderr)
        window.close()
        return 1
    # show the current-item outline and its table row on the first pending suggestion of the design card's
    # labels (a name, an address, an organisation), else on the first pending one
    st = window.review.state
    pending = [it for it in (st.in_text_order() if st else []) if it.status.value == "pending"]
    main = [it for it in pending if it.label in ("PERSON", "ADDRESS", "ORGANIZATION")]
    if main or pending:
        window.select_item((main or pending)[0].id)
    for _ in range(5):
        app.processEvents()
    image = window.grab()
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = image.save(str(out), "PNG")
    window.close()
    if not ok:
        print(f"veil-desktop: could not write {out}", file=sys.stderr)
        return 1
    print(f"{out}: {image.width()}x{image.height()}, {len(window.review.state or [])} items")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
