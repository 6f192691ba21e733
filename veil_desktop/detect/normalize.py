"""Offset-preserving text normalisation for the model's view of a text.

Full-width ASCII forms (U+FF01–U+FF5E: ``１２３``, ``ＡＢＣ``, ``－``, …) map one-to-one to their ASCII
counterparts and the ideographic space U+3000 to a space. Never a length-changing NFKC: the result has
exactly the same length as the input, so every offset computed on it is an offset into the original.
"""
from __future__ import annotations

import re

FULLWIDTH_TABLE: dict[int, int] = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}
FULLWIDTH_TABLE[0x3000] = 0x20

_HAS_FULLWIDTH = re.compile("[\uff01-\uff5e\u3000]")


def normalize_text(text: str) -> str:
    """``text`` with full-width ASCII forms replaced one-to-one; ``len(result) == len(text)``."""
    if not _HAS_FULLWIDTH.search(text):
        return text
    return text.translate(FULLWIDTH_TABLE)


#: ASCII identifier-like runs: 6+ characters of letters/digits (``-``/``_`` inside allowed) mixing letters
#: and digits, not glued to other ASCII letters/digits.
ID_LIKE = re.compile(
    r"(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*[A-Za-z])(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9][A-Za-z0-9_-]{4,}[A-Za-z0-9]"
    r"(?![A-Za-z0-9_-])"
)


def id_like_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges of ASCII identifier-like strings (order numbers, hashes, codes) in ``text``."""
    return [m.span() for m in ID_LIKE.finditer(text)]
