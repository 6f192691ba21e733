"""Fail-closed leak check of an HWP 5 output, by a path of its own (not the writer's model).

The output is opened with olefile (the writer uses ``documents.cfb``), and for every stream:

- its name, and its raw bytes in every plausible decoding / text runs (``leakcheck.scan_bytes``);
- its content inflated (raw deflate, as HWP compresses sections, DocInfo and BinData), whether or not
  the FileHeader says so, then searched the same way (a picture: its metadata);
- where the inflated (or raw) content parses as a complete HWP record stream: the text of every
  ``PARA_TEXT`` record decoded here (UTF-16LE, control characters dropped: a value split by a tab or a
  field control is still found), all paragraphs of the stream joined, and every other record's payload
  on its own.

Bounded: an output larger than ``leakcheck.MAX_SCAN_BYTES``, a stream inflating past
:data:`MAX_STREAM_INFLATED`, or more than :data:`MAX_TOTAL_INFLATED` inflated in all is a hit (never a
pass), as is an output olefile cannot open.
"""
from __future__ import annotations

import io
import struct
import zlib

from .leakcheck import MAX_SCAN_BYTES, LeakReport, _scan_text, scan_bytes
from .matching import ValueMatcher

MAX_STREAM_INFLATED = 256 * 1024 * 1024
MAX_TOTAL_INFLATED = 1024 * 1024 * 1024
_PARA_TEXT = 0x43
_EIGHT = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}


def _inflate(data: bytes) -> bytes | None | bool:
    """Raw-deflate content; None if it is not deflate data, False if it is too large."""
    d = zlib.decompressobj(-15)
    try:
        out = d.decompress(data, MAX_STREAM_INFLATED + 1)
    except zlib.error:
        return None
    if len(out) > MAX_STREAM_INFLATED:
        return False
    if not d.eof or not out:
        return None
    return out


def _records(stream: bytes) -> list[tuple[int, bytes]] | None:
    """``(tag, payload)`` of a complete record stream, None if the bytes are not one."""
    out, pos, n = [], 0, len(stream)
    while pos < n:
        if pos + 4 > n:
            return None
        (hdr,) = struct.unpack_from("<I", stream, pos)
        pos += 4
        size = hdr >> 20
        if size == 0xFFF:
            if pos + 4 > n:
                return None
            (size,) = struct.unpack_from("<I", stream, pos)
            pos += 4
        if pos + size > n:
            return None
        out.append((hdr & 0x3FF, stream[pos:pos + size]))
        pos += size
    return out if out else None


def _para_text(payload: bytes) -> str:
    units = struct.unpack_from(f"<{len(payload) // 2}H", payload)
    out, i = [], 0
    while i < len(units):
        c = units[i]
        if c < 32:
            if c in _EIGHT:
                i += 8
                continue
            out.append("\n" if c == 10 else " " if c in (25, 26, 27, 28, 29, 30, 31) else "")
            i += 1
            continue
        out.append(chr(c))
        i += 1
    return "".join(out).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _scan_records(name: str, stream: bytes, matcher: ValueMatcher, rep: LeakReport) -> None:
    recs = _records(stream)
    if recs is None:
        return
    paras = [_para_text(p) for tag, p in recs if tag == _PARA_TEXT]
    if paras:
        _scan_text(f"{name} (paragraph text)", "\n".join(paras), matcher, rep, False)
        if rep.hits:
            return
    for k, (tag, p) in enumerate(recs):
        if tag != _PARA_TEXT and len(p) >= 4:
            scan_bytes(f"{name} (record {k}, tag {tag})", p, matcher, rep)
            if rep.hits:
                return


def check_hwp_bytes(data: bytes, matcher: ValueMatcher) -> LeakReport:
    import olefile

    rep = LeakReport()
    if len(data) > MAX_SCAN_BYTES:
        rep.hits.append("output: too large to verify")
        return rep
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - an output we cannot re-read is not verified: fail closed
        rep.hits.append("output: not a readable compound file")
        return rep
    total = 0
    try:
        names = ole.listdir(streams=True, storages=True)
        _scan_text("stream names", "\n".join("/".join(p) for p in names), matcher, rep, False)
        if rep.hits:
            return rep
        for entry in ole.listdir(streams=True, storages=False):
            name = "/".join(entry)
            raw = ole.openstream(entry).read()
            scan_bytes(name, raw, matcher, rep)
            if rep.hits:
                return rep
            inflated = _inflate(raw)
            if inflated is False:
                rep.hits.append(f"{name}: inflates past the bound, not verified")
                return rep
            if inflated is not None:
                total += len(inflated)
                if total > MAX_TOTAL_INFLATED:
                    rep.hits.append("output: inflates past the bound, not verified")
                    return rep
                scan_bytes(f"{name} (inflated)", inflated, matcher, rep)
                if rep.hits:
                    return rep
            _scan_records(name, inflated if inflated else raw, matcher, rep)
            if rep.hits:
                return rep
    except Exception:  # noqa: BLE001 - damaged output: fail closed
        rep.hits.append("output: a stream could not be read")
    finally:
        ole.close()
    return rep
