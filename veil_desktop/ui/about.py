"""The About box: program version, then the notices and licence texts that travel with every build.

One tab per file from :func:`veil_desktop.paths.licence_files` — ``NOTICE`` (attribution of the embedded
model's training data: KLUE-NER CC BY-SA 4.0, ko-pii MIT; the font), ``LICENSE`` (Apache-2.0), the
font's ``OFL.txt`` and, in the bundle, ``THIRD-PARTY-LICENSES.txt`` (the bundled Python packages) — shown read-only and in full, from the same files in a checkout, an installed wheel
(``veil_desktop/_resources/licenses``) and the offline bundle (``_internal/resources/licenses``). A
missing file gets a tab that says so instead of an empty box (the self-test and the packaging tests
check that none is missing).

Threading: GUI thread only; the files are a few kB.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QTabWidget, QVBoxLayout, QWidget

from .. import paths
from .i18n import tr

#: the files the About box always shows (tab key = file name); present in every layout
EXPECTED = ("NOTICE", "LICENSE", "OFL.txt")
#: shown when present: the bundle's licences of the bundled Python packages (packaging/third_party.py)
OPTIONAL = (paths.THIRD_PARTY_FILE,)


def app_version() -> str:
    """``veil_desktop.__version__`` — also the wheel's version (pyproject reads it), and present in a bundle,
    which carries no package metadata."""
    from .. import __version__

    return __version__


def licence_texts() -> list[tuple[str, str | None]]:
    """``[(file name, text or None when missing)]``: :data:`EXPECTED` in order, then :data:`OPTIONAL` ones
    that exist."""
    found: dict[str, Path] = {p.name: p for p in paths.licence_files()}
    out: list[tuple[str, str | None]] = []
    for name in EXPECTED + tuple(n for n in OPTIONAL if n in found):
        p = found.get(name)
        try:
            out.append((name, p.read_text(encoding="utf-8") if p else None))
        except (OSError, UnicodeDecodeError):
            out.append((name, None))
    return out


class AboutDialog(QDialog):
    """Version line + one read-only tab per notice/licence file."""

    def __init__(self, parent: QWidget | None = None, lang: str = "ko") -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("about.title", lang))
        self.resize(760, 560)
        layout = QVBoxLayout(self)
        intro = QLabel(tr("about.intro", lang).format(version=app_version()))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.tabs = QTabWidget()
        self.texts: dict[str, QPlainTextEdit] = {}
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        for name, text in licence_texts():
            view = QPlainTextEdit()
            view.setReadOnly(True)
            view.setFont(mono)
            view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
            view.setPlainText(text if text is not None else tr("about.missing", lang).format(name=name))
            self.texts[name] = view
            self.tabs.addTab(view, tr(f"about.tab.{name}", lang))
        layout.addWidget(self.tabs, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(tr("close", lang))
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


def show_about(parent: QWidget | None = None, lang: str = "ko") -> AboutDialog:
    """Open the About box modally (the Help menu's action calls this); returns the dialog after it closed."""
    dlg = AboutDialog(parent, lang)
    dlg.exec()
    return dlg
