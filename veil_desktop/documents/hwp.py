"""HWP 5 binary (read-only): paragraph text from the ``BodyText/Section*`` streams.

An HWP 5 file is an OLE compound file (olefile). ``FileHeader`` says whether the body streams are
compressed (raw deflate), password-protected or "distribution" documents (encrypted ``ViewText``; not
supported). Each section stream is a sequence of records (32-bit header: tag 10 bits, level 10 bits,
size 12 bits, 0xFFF = a 32-bit size follows); ``HWPTAG_PARA_TEXT`` (67) holds UTF-16LE text in which
code units below 32 are controls: 1 unit (line/paragraph breaks, hyphens, fixed spaces) or 8 units
(inline controls such as tab, and extended controls that anchor tables, footnotes, text boxes — their
text follows as nested paragraphs in the same stream, so it is read too).

Export is to ``.txt`` only (the masked reviewable text); writing HWP 5 is out of scope.
"""
from __future__ import annotations

import hashlib
import io
import struct
import zlib
from pathlib import Path

from .errors import DocumentError
from .model import Document, TextBuilder

HWPTAG_PARA_TEXT = 0x43
MAX_SECTION_BYTES = 512 * 1024 * 1024
_SINGLE = {0: "", 10: "\n", 13: "", 24: "-", 25: " ", 26: " ", 27: " ", 28: " ", 29: " ",
           30: "\u00a0", 31: " "}
_INLINE = {4, 5, 6, 7, 8, 9, 19, 20}
_EXTENDED = {1, 2, 3, 11, 12, 14, 15, 16, 17, 18, 21, 22, 23}


def para_text(payload: bytes) -> str:
    """Decode one HWPTAG_PARA_TEXT payload, dropping control characters (tab -> ``\\t``)."""
    units = struct.unpack(f"<{len(payload) // 2}H", payload[: len(payload) // 2 * 2])
    out, i = [], 0
    while i < len(units):
        c = units[i]
        if c >= 32:
            out.append(chr(c))
            i += 1
        elif c in _INLINE or c in _EXTENDED:
            if c == 9:
                out.append("\t")
            i += 8
        else:
            out.append(_SINGLE.get(c, ""))
            i += 1
    text = "".join(out)
    # surrogate pairs come through as two chr()s; recombine
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def iter_records(stream: bytes):
    """``(tag, level, payload)`` for each record of a section stream."""
    pos, n = 0, len(stream)
    while pos + 4 <= n:
        (hdr,) = struct.unpack_from("<I", stream, pos)
        pos += 4
        tag, level, size = hdr & 0x3FF, (hdr >> 10) & 0x3FF, hdr >> 20
        if size == 0xFFF:
            if pos + 4 > n:
                raise DocumentError("The HWP section stream is truncated.")
            (size,) = struct.unpack_from("<I", stream, pos)
            pos += 4
        if pos + size > n:
            raise DocumentError("The HWP section stream is truncated.")
        yield tag, level, stream[pos:pos + size]
        pos += size


def section_paragraphs(stream: bytes) -> list[str]:
    return [para_text(p) for tag, _, p in iter_records(stream) if tag == HWPTAG_PARA_TEXT]


def _inflate(data: bytes, name: str) -> bytes:
    d = zlib.decompressobj(-15)
    try:
        out = d.decompress(data, MAX_SECTION_BYTES)
    except zlib.error:
        raise DocumentError(f"The HWP stream {name} is damaged (cannot be decompressed).") from None
    if d.unconsumed_tail:
        raise DocumentError(f"The HWP stream {name} unpacks to more than "
                            f"{MAX_SECTION_BYTES // 2**20} MB; refusing to open it.")
    return out


def read_hwp(path: Path, data: bytes) -> Document:
    import olefile

    if not olefile.isOleFile(io.BytesIO(data)):
        if data[:2] == b"PK":
            raise DocumentError("This .hwp file is a ZIP (probably HWPX); rename it to .hwpx.")
        raise DocumentError("This is not an HWP 5 document (not an OLE compound file). "
                            "HWP 3 and older are not supported.")
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - olefile raises assorted errors on damaged files
        raise DocumentError("The HWP file is damaged (OLE structure unreadable).") from None
    try:
        if not ole.exists("FileHeader"):
            raise DocumentError("This is not an HWP 5 document (FileHeader missing).")
        header = ole.openstream("FileHeader").read(256)
        if not header.startswith(b"HWP Document File"):
            raise DocumentError("This is not an HWP 5 document (bad signature).")
        (props,) = struct.unpack_from("<I", header, 36)
        if props & 0x2:
            raise DocumentError("The HWP document is password-protected; remove the password first.")
        if props & 0x4:
            raise DocumentError("This is an HWP distribution document (encrypted); it cannot be read.")
        compressed = bool(props & 0x1)
        sections = []
        for entry in ole.listdir(streams=True, storages=False):
            if len(entry) == 2 and entry[0] == "BodyText" and entry[1].startswith("Section"):
                try:
                    sections.append((int(entry[1][7:]), "/".join(entry)))
                except ValueError:
                    continue
        if not sections:
            raise DocumentError("The HWP document has no body text (BodyText/Section0 missing).")
        tb = TextBuilder()
        total = 0
        for k, (num, name) in enumerate(sorted(sections)):
            size = ole.get_size(name)
            total += size
            if total > MAX_SECTION_BYTES:
                raise DocumentError("The HWP document is too large to open.")
            raw = ole.openstream(name).read()
            stream = _inflate(raw, name) if compressed else raw
            tb.begin_part("본문" if k == 0 else f"구역 {k + 1}", name, header=k > 0)
            for j, text in enumerate(section_paragraphs(stream)):
                tb.slot(name, j, text)
                tb.boilerplate("\n")
            tb.end_part()
    finally:
        ole.close()
    text = tb.text()
    return Document(path=path, format="hwp", text=text, parts=tuple(tb.parts),
                    segments=tuple(tb.segments), sha256=hashlib.sha256(data).hexdigest(),
                    size=len(data), notes=("HWP 5 files are read-only: export as .txt.",))
