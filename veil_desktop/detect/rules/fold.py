"""Offset-preserving text folding for the rule stage.

``fold(text)`` maps full-width ASCII (``０１０－１２３４``), the ideographic space, no-break spaces and
Unicode dashes to their ASCII equivalents **one character to one character**, so every offset found in the
folded text is an offset into the original. Never a length-changing NFKC.

Folding only happens when the text contains a character to fold (one fast regex search); plain text is
returned as is, so the common case costs one scan.
"""
from __future__ import annotations

import re

from ..normalize import FULLWIDTH_TABLE

# the model's full-width folding (！..～ -> !..~, ideographic space -> space), plus what only the rules fold
_TABLE: dict[int, int] = dict(FULLWIDTH_TABLE)
_TABLE.update({0x00A0: 0x20, 0x2007: 0x20, 0x202F: 0x20})   # other spaces
_TABLE.update({c: 0x2D for c in (0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212, 0xFE63)})  # dashes
_TABLE[0x00B7] = 0x00B7  # keep the middle dot (used in 동·호) as is

_NEEDS_FOLD = re.compile("[\uff01-\uff5e\u3000\u00a0\u2007\u202f\u2010-\u2015\u2212\ufe63]")


def fold(text: str) -> str:
    """Same-length ASCII folding (see module docstring). ``len(fold(t)) == len(t)`` always."""
    if _NEEDS_FOLD.search(text) is None:
        return text
    return text.translate(_TABLE)
