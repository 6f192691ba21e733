"""Shared set-up of the screenshot scripts (``ui_*_screenshots.py``): a private data/config folder, the
QApplication with the window's Korean font, fresh settings, and ``wait`` / ``settle`` / ``shot`` helpers.

Import it *before* anything from ``veil_desktop.ui``: it sets ``VEIL_DATA_DIR`` / ``VEIL_CONFIG_DIR`` so a
run never touches the user's settings, sessions or term lists. Run the scripts under ``xvfb-run -a`` (a
real X server: fonts and window frames as a reviewer sees them) or with ``QT_QPA_PLATFORM=offscreen``.
PNGs are palette-quantised and optimised with Pillow to stay small."""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


class Shots:
    """One screenshot session: ``Shots(lang, out, prefix="veil-shots-", **settings)``."""

    def __init__(self, lang: str, out: str | Path, prefix: str = "veil-shots-", **settings) -> None:
        self.lang = lang
        self.suffix = "" if lang == "ko" else "_en"
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.tmp = Path(tempfile.mkdtemp(prefix=prefix))
        os.environ["VEIL_DATA_DIR"] = str(self.tmp / "data")
        os.environ["VEIL_CONFIG_DIR"] = str(self.tmp / "config")
        if "DISPLAY" not in os.environ:
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

        from PySide6.QtGui import QFont
        from PySide6.QtWidgets import QApplication

        from veil_desktop.review.settings import AppSettings
        from veil_desktop.ui.fonts import korean_font_family
        from veil_desktop.ui.settings_store import SettingsStore

        self.app = QApplication.instance() or QApplication([])
        self.app.setFont(QFont(korean_font_family(), 10))   # as ui/app.py does
        SettingsStore().save(AppSettings(language=lang, **settings))
        self.written: list[Path] = []

    def window(self, size: tuple[int, int] = (1024, 768)):
        """A shown main window over the saved settings, moved to the screen's corner."""
        from veil_desktop.ui.main_window import MainWindow
        from veil_desktop.ui.settings_store import SettingsStore

        w = MainWindow(SettingsStore())
        w.resize(*size)
        w.move(0, 0)
        w.show()
        self.settle()
        return w

    def wait(self, cond, timeout: float = 600.0) -> None:
        t0 = time.monotonic()
        while not cond():
            self.app.processEvents()
            time.sleep(0.01)
            if time.monotonic() - t0 > timeout:
                raise SystemExit("timed out")

    def settle(self, n: int = 30) -> None:
        for _ in range(n):
            self.app.processEvents()
            time.sleep(0.005)

    def shot(self, widget, name: str, *, lang_suffix: bool = True) -> Path:
        """``widget.grab()`` to ``<out>/<name>[_en].png``, quantised and optimised."""
        from PIL import Image

        self.settle()
        path = self.out / f"{name}{self.suffix if lang_suffix else ''}.png"
        widget.grab().save(str(path))
        self._small(path)
        print("wrote", path, f"{widget.width()}x{widget.height()}", path.stat().st_size, "bytes")
        self.written.append(path)
        return path

    def screen(self, name: str, size: tuple[int, int] | None = None) -> Path:
        """The whole screen (menus and pop-ups included), cut to ``size`` from the top-left."""
        self.settle()
        path = self.out / f"{name}{self.suffix}.png"
        pix = self.app.primaryScreen().grabWindow(0)
        if size is not None:
            pix = pix.copy(0, 0, *size)
        pix.save(str(path))
        self._small(path)
        print("wrote", path, path.stat().st_size, "bytes")
        self.written.append(path)
        return path

    @staticmethod
    def _small(path: Path) -> None:
        from PIL import Image

        Image.open(path).convert("RGB").quantize(colors=128).save(path, optimize=True)
