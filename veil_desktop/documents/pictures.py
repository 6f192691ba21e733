"""Pictures inside DOCX/HWPX packages: does one hold text?

A picture copied into the output is published as it is; if it shows a name or a number (a scanned ID card
pasted into a letter), that value leaves unseen. The masked text cannot reach into its pixels, so a picture
that OCR reads as text makes the document **needs review** (``Document.unreadable``, reason ``"image"``):
the batch CLI holds it back unless ``--allow-unreadable``; the window shows the banner. Pictures too
small to hold a line of text are skipped; a picture that cannot be decoded or checked (no OCR available,
too large, more pictures than :data:`MAX_PICTURES`) counts as holding text — fail closed.

Where: ``picture N`` (the N-th picture in package order) — never the member name, which can carry a name.
"""
from __future__ import annotations

import io
import posixpath
import re
from typing import Iterable

from .model import Unreadable

PICTURE_EXTS = {".png", ".jpg", ".jpeg", ".jpe", ".gif", ".bmp", ".tif", ".tiff", ".webp"}
#: vector pictures (Windows metafiles) hold text as text records: read their records instead of OCR
METAFILE_EXTS = {".emf", ".wmf", ".emz", ".wmz"}
_EMF_TEXT = {83, 84, 96, 97, 108}          # EMR_EXTTEXTOUTA/W, EMR_POLYTEXTOUTA/W, EMR_SMALLTEXTOUT
_EMF_COMMENT = 70
_WMF_TEXT = {0x0521, 0x0A32}               # META_TEXTOUT, META_EXTTEXTOUT
MAX_METAFILE = 32 * 1024 * 1024
#: pictures smaller than this (either side, pixels) cannot hold a readable line: not checked
MIN_SIDE = 24
MIN_AREA = 6_000
#: at most this many distinct pictures are OCR'd per document (a picture repeated, e.g. a logo on every
#: page, is read once); the rest count as unchecked (needs review)
MAX_PICTURES = 64
MAX_PIXELS = 40_000_000
_TEXTY = re.compile(r"[가-힣0-9A-Za-z@]")


def _unreadable(k: int, why_ko: str, why_en: str) -> Unreadable:
    return Unreadable(where=f"picture {k}", reason="image",
                      caption=f"그림 {k}: {why_ko} — 직접 확인하세요",
                      caption_en=f"picture {k}: {why_en} — review it yourself")


def pictures_with_text(members: Iterable, removed: Iterable[str] = ()) -> list[Unreadable]:
    """``Unreadable`` entries for the pictures among ``members`` (objects with ``name``/``data``) that hold
    text or could not be checked; members in ``removed`` (dropped from the output) are ignored."""
    from PIL import Image

    from . import ocr

    gone = set(removed)
    out: list[Unreadable] = []
    k = 0
    checked = 0
    have_ocr = None
    seen: dict[bytes, bool] = {}      # digest -> holds text (identical pictures are read once)
    for m in members:
        ext = posixpath.splitext(m.name)[1].lower()
        if m.name in gone or ext not in PICTURE_EXTS | METAFILE_EXTS:
            continue
        k += 1
        if ext in METAFILE_EXTS:
            verdict = metafile_text(m.data)
            if verdict is None:
                out.append(_unreadable(k, "그림을 열 수 없어 글자를 확인하지 못했습니다", "could not be decoded to check for text"))
            elif verdict:
                out.append(_unreadable(k, "그림 속 글자는 가려지지 않습니다", "holds text that masking cannot reach"))
            continue
        try:
            img = Image.open(io.BytesIO(m.data))
            w, h = img.size
        except Exception:  # noqa: BLE001 - not decodable: a recipient's viewer might still show it
            out.append(_unreadable(k, "그림을 열 수 없어 글자를 확인하지 못했습니다", "could not be decoded to check for text"))
            continue
        if w < MIN_SIDE or h < MIN_SIDE or w * h < MIN_AREA:
            continue
        import hashlib
        digest = hashlib.sha256(m.data).digest()
        if digest in seen:
            if seen[digest]:
                out.append(_unreadable(k, "그림 속 글자는 가려지지 않습니다", "holds text that masking cannot reach"))
            continue
        if have_ocr is None:
            have_ocr = ocr.available()
        if not have_ocr or w * h > MAX_PIXELS or checked >= MAX_PICTURES:
            out.append(_unreadable(k, "글자가 있는지 확인하지 못했습니다", "not checked for text"))
            continue
        checked += 1
        try:
            img.seek(0)
            frame = img.convert("RGB")
            page = ocr.ocr_image(frame)
        except ocr.OcrCancelled:
            raise
        except Exception:  # noqa: BLE001 - a picture OCR cannot process: fail closed
            out.append(_unreadable(k, "글자가 있는지 확인하지 못했습니다", "not checked for text"))
            continue
        seen[digest] = page.words > 0 and len(_TEXTY.findall(page.text)) >= 3 and page.confidence >= 30
        if seen[digest]:
            out.append(_unreadable(k, "그림 속 글자는 가려지지 않습니다", "holds text that masking cannot reach"))
    return out


def metafile_text(data: bytes) -> bool | None:
    """Whether an EMF/WMF (or gzip-compressed EMZ/WMZ) draws text: True/False, None if it does not parse
    (then it cannot be checked). EMF: text-out records, or an EMF+ comment (``EMF+`` records may draw
    strings); WMF: TEXTOUT/EXTTEXTOUT records."""
    import struct
    import zlib

    if data[:2] == b"\x1f\x8b":
        try:
            d = zlib.decompressobj(31)
            data = d.decompress(data, MAX_METAFILE)
            if d.unconsumed_tail:
                return None
        except zlib.error:
            return None
    n = len(data)
    if n >= 44 and struct.unpack_from("<I", data, 0)[0] == 1 and data[40:44] == b" EMF":
        pos = 0
        while pos + 8 <= n:
            typ, size = struct.unpack_from("<II", data, pos)
            if size < 8 or size % 4 or pos + size > n:
                return None
            if typ in _EMF_TEXT:
                return True
            if typ == _EMF_COMMENT and b"EMF+" in data[pos + 8:pos + min(size, 24)]:
                return True
            if typ == 14:        # EMR_EOF
                return False
            pos += size
        return None
    pos = 22 if data[:4] == b"\xd7\xcd\xc6\x9a" else 0      # placeable header
    if n < pos + 18:
        return None
    hdr_words = struct.unpack_from("<H", data, pos + 2)[0]
    if hdr_words != 9:
        return None
    pos += 18
    while pos + 6 <= n:
        size_words, func = struct.unpack_from("<IH", data, pos)
        if size_words < 3 or pos + 2 * size_words > n:
            return None
        if func in _WMF_TEXT:
            return True
        if func == 0:            # META_EOF
            return False
        pos += 2 * size_words
    return None
