"""Text hidden in base64 inside a text file (red team): a recipient can decode it, the detectors cannot
read it. A base64 run (in any format's reviewable text: a text file, an XML text node or attribute value of
a DOCX/HWPX, a PDF's or an HWP's text) that decodes to plausible text with Hangul, an ``@`` or 6+ digits makes the file
**needs review** (``Document.unreadable``, reason ``"encoded_text"``): the batch CLI holds it back unless
``--allow-unreadable``; the window shows the banner. (In DOCX, base64 payloads are emptied on export.)"""
from __future__ import annotations

import base64
import binascii
import re

from . import limits as _limits
from .model import Unreadable

#: a base64 run, possibly broken into lines (MIME writes 76-column lines; an XML value may too): the lines
#: are joined before decoding. 24+ characters once joined.
_B64 = re.compile(r"(?<![A-Za-z0-9+/=])(?:[A-Za-z0-9+/]+={0,2}[ \t]*\r?\n[ \t]*)*[A-Za-z0-9+/]+={0,2}")
MIN_CHARS = 24
_PERSONAL = re.compile(r"[가-힣]{2}|@|\d{6}")
MAX_RUNS = _limits.MAX_ENCODED_RUNS


def _plausible(t: str) -> bool:
    good = sum(1 for c in t if c.isprintable() or c in "\r\n\t")
    return good >= 0.9 * len(t) and bool(_PERSONAL.search(t.replace("-", "").replace(" ", "")))


def encoded_text(text: str, parts=()) -> list[Unreadable]:
    """``[Unreadable]`` if ``text`` holds a base64 run that decodes to plausible text with Hangul, an ``@``
    or 6+ digits (UTF-8, UTF-16LE or CP949), else ``[]``. ``parts`` (``Document.parts``) name the part it
    is in: ``"encoded text (Styles and numbering)"``."""
    n = 0
    for m in _B64.finditer(text):
        s = re.sub(r"\s+", "", m.group())
        if len(s) < MIN_CHARS:
            continue
        n += 1
        if n > MAX_RUNS:
            break
        try:
            raw = base64.b64decode(s + "=" * (-len(s) % 4))
        except (binascii.Error, ValueError):
            continue
        for enc in ("utf-8", "utf-16-le", "cp949"):
            try:
                t = raw.decode(enc)
            except UnicodeDecodeError:
                continue
            if _plausible(t):
                part = next((p.name for p in parts if p.start <= m.start() < p.end), "")
                return [Unreadable(where=f"encoded text ({part})" if part else "encoded text",
                                   reason="encoded_text",
                                   caption="base64로 인코딩된 글이 있습니다: 검사할 수 없으니 직접 확인하세요",
                                   caption_en="holds base64-encoded text that cannot be checked — review it")]
    return []
