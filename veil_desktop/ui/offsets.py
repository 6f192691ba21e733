"""Python string offsets <-> Qt (UTF-16) document positions. No widgets.

Qt counts positions in UTF-16 code units; Python counts code points. They differ only after a character
outside the Basic Multilingual Plane (emoji, rare CJK), each of which takes two UTF-16 units. Korean text is
almost always pure BMP, in which case both maps are the identity and cost nothing.
"""
from __future__ import annotations

import bisect
import re

_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


class Utf16Map:
    def __init__(self, text: str) -> None:
        # code-point offsets of astral characters (sorted)
        # a regex scan runs at C speed (a Python loop over 1M characters takes ~0.2 s on the GUI thread)
        self._astral = [m.start() for m in _ASTRAL.finditer(text)] if not text.isascii() else []
        # their UTF-16 positions (each earlier astral char shifts later ones by one)
        self._astral_q = [p + k for k, p in enumerate(self._astral)]

    @property
    def identity(self) -> bool:
        return not self._astral

    def to_qt(self, pos: int) -> int:
        if not self._astral:
            return pos
        return pos + bisect.bisect_left(self._astral, pos)

    def from_qt(self, qpos: int) -> int:
        if not self._astral:
            return qpos
        # number of astral chars that end at or before qpos
        k = bisect.bisect_right(self._astral_q, qpos - 2) if qpos >= 2 else 0
        return qpos - k


def display_text(text: str) -> str:
    """The text as shown: same length, but a lone/paired ``\\r`` becomes a space so Qt does not split or
    merge blocks differently from the offsets (``\\r\\n`` would otherwise shift every later position)."""
    return text.replace("\r", " ") if "\r" in text else text
