"""Fonts with Hangul: a system family if present, else the bundled OFL font (registered once).

Its own module so that ``ui.app``, ``ui.main_window`` and the self-test window can all use it without
importing each other.
"""
from __future__ import annotations

_FAMILY: str | None = None
_PREFERRED = ("Noto Sans KR", "Noto Sans CJK KR", "Malgun Gothic", "Apple SD Gothic Neo", "NanumGothic",
              "NanumBarunGothic")


def korean_font_family() -> str:
    """A font family that has Hangul: a system one if present, else the bundled OFL font (registered once).
    Needs a ``QGuiApplication``."""
    global _FAMILY
    if _FAMILY is not None:
        return _FAMILY
    from PySide6.QtGui import QFont, QFontDatabase

    from ..paths import resources_dir

    bundled: list[str] = []
    fonts = resources_dir() / "fonts"
    if fonts.is_dir():
        for f in sorted(fonts.iterdir()):
            if f.suffix.lower() in (".ttf", ".otf", ".ttc"):
                fid = QFontDatabase.addApplicationFont(str(f))
                if fid >= 0:
                    bundled += QFontDatabase.applicationFontFamilies(fid)
    available = set(QFontDatabase.families())
    _FAMILY = next((p for p in _PREFERRED if p in available), bundled[0] if bundled else QFont().defaultFamily())
    return _FAMILY


def document_font(point_size: int = 11):
    """The font of the document view."""
    from PySide6.QtGui import QFont

    font = QFont(korean_font_family())
    font.setPointSize(point_size)
    return font
