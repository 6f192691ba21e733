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
import re
import struct
import zlib
from pathlib import Path

from .errors import DocumentError
from .limits import MAX_DOCUMENT_CHARS, ResourceLimit, budget_or_new
from .model import Document, TextBuilder

HWPTAG_PARA_TEXT = 0x43
MAX_SECTION_BYTES = 128 * 1024 * 1024   # one inflated section stream
#: a section stream holds UTF-16 text plus record headers: more than this many bytes in all sections
#: cannot be text within limits.MAX_DOCUMENT_CHARS (checked again on the text itself by TextBuilder)
MAX_TOTAL_SECTION_BYTES = 8 * MAX_DOCUMENT_CHARS
_SINGLE = {0: "", 10: "\n", 13: "", 24: "-", 25: " ", 26: " ", 27: " ", 28: " ", 29: " ",
           30: "\u00a0", 31: " "}
_INLINE = {4, 5, 6, 7, 8, 9, 19, 20}
_EXTENDED = {1, 2, 3, 11, 12, 14, 15, 16, 17, 18, 21, 22, 23}


_CONTROL = re.compile("[\x00-\x1f]")


def para_text(payload: bytes) -> str:
    """Decode one HWPTAG_PARA_TEXT payload, dropping control characters (tab -> ``\\t``).

    Decoded as one UTF-16 string and cut at the control characters (a hostile 50 MB paragraph costs
    about its own size, not a Python object per code unit)."""
    raw = payload[: len(payload) // 2 * 2].decode("utf-16-le", "surrogatepass")
    out, pos, n = [], 0, len(raw)
    while pos < n:
        m = _CONTROL.search(raw, pos)
        if m is None:
            out.append(raw[pos:])
            break
        i = m.start()
        out.append(raw[pos:i])
        c = ord(raw[i])
        if c in _INLINE or c in _EXTENDED:
            if c == 9:
                out.append("\t")
            pos = i + 8
        else:
            out.append(_SINGLE.get(c, ""))
            pos = i + 1
    text = "".join(out)
    # surrogate pairs are kept as pairs by surrogatepass; recombine (lone halves become U+FFFD)
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


def iter_paragraphs(stream: bytes):
    """Paragraph texts one at a time (the document limits are checked as they are added)."""
    return (para_text(p) for tag, _, p in iter_records(stream) if tag == HWPTAG_PARA_TEXT)


def section_paragraphs(stream: bytes) -> list[str]:
    return list(iter_paragraphs(stream))


def _inflate(data: bytes, name: str, budget=None) -> bytes:
    """Raw-deflate ``data`` in 1 MB steps with a running total (section and document limits)."""
    budget = budget if budget is not None else budget_or_new("HWP document")
    d = zlib.decompressobj(-15)
    out: list[bytes] = []
    size = 0
    buf = data
    try:
        while True:
            chunk = d.decompress(buf, 1024 * 1024)
            buf = d.unconsumed_tail
            if chunk:
                size += len(chunk)
                if size > MAX_SECTION_BYTES:
                    raise ResourceLimit(f"The HWP stream {name} unpacks to more than "
                                        f"{MAX_SECTION_BYTES // 2**20} MB; refusing to open it "
                                        "(possible compression bomb). Split the document.")
                budget.charge_inflated(len(chunk), name)
                out.append(chunk)
            if not buf or d.eof or not chunk:
                break
    except zlib.error:
        raise DocumentError(f"The HWP stream {name} is damaged (cannot be decompressed).") from None
    return b"".join(out)


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
        budget = budget_or_new("HWP document")
        for k, (num, name) in enumerate(sorted(sections)):
            size = ole.get_size(name)
            if size > MAX_SECTION_BYTES:
                raise ResourceLimit(f"The HWP stream {name} is larger than "
                                    f"{MAX_SECTION_BYTES // 2**20} MB; refusing to open it.")
            raw = ole.openstream(name).read()
            stream = _inflate(raw, name, budget) if compressed else raw
            total += len(stream)
            if total > MAX_TOTAL_SECTION_BYTES:
                raise ResourceLimit("The HWP document's text is too large to review (more than "
                                    f"{MAX_DOCUMENT_CHARS:,} characters); split it into smaller files.")
            tb.begin_part("본문" if k == 0 else f"구역 {k + 1}", name, header=k > 0)
            for j, text in enumerate(iter_paragraphs(stream)):
                tb.slot(name, j, text)
                tb.boilerplate("\n")
            tb.end_part()
    finally:
        ole.close()
    text = tb.text()
    return Document(path=path, format="hwp", text=text, parts=tuple(tb.parts),
                    segments=tuple(tb.segments), sha256=hashlib.sha256(data).hexdigest(),
                    size=len(data), notes=("HWP 5 files are read-only: export as .txt.",))
