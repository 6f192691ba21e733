"""Fail-closed leak check: re-read an output file by a path independent of the writers.

The writers edit a parsed model of the file (XML text nodes, PDF pages). This module never uses that
model: it looks at the output's *bytes*.

- text outputs: the raw bytes decoded as UTF-8, UTF-16LE/BE (both byte alignments) and CP949;
- ZIP outputs (DOCX, HWPX): every member, whatever its name or type, decoded the same ways; XML is
  searched as character data with the tags stripped (so a value split across runs is found) and as the
  list of its attribute values, both with entities unescaped (``&#54861;`` counts); anything else raw;
  ZIP members inside ZIP members are opened too;
- PDF outputs: the raw bytes and every inflated stream, decoded as Latin-1/UTF-8/UTF-16BE, plus the
  text pypdfium2 extracts from each page and the document metadata.

Values are matched with ``matching.ValueMatcher`` (separator-tolerant; see its docstring for how short
values are handled). Any hit is a leak; the caller deletes the output.
"""
from __future__ import annotations

import html
import io
import re
import zipfile
import zlib
from dataclasses import dataclass, field

from .matching import ValueMatcher

_TAG = re.compile(r"<[^<>]*>")
_PARA_END = re.compile(r"</(?:[\w.-]+:)?p>")
_BETWEEN_TAGS_WS = re.compile(r">\s+<")
MAX_SCAN_BYTES = 2 * 1024**3
_STREAM = re.compile(rb"stream\r?\n")


@dataclass
class LeakReport:
    scanned: list[str] = field(default_factory=list)   # "member (decoding)" views searched
    hits: list[str] = field(default_factory=list)      # where a value was found (never the value)

    @property
    def clean(self) -> bool:
        return not self.hits


# Characters expected in real text: ASCII, Latin-1 letters, general/CJK punctuation, Hangul jamo and
# syllables, full-width forms. A decoding that yields mostly other characters (mojibake: UTF-8 bytes read
# as UTF-16 or CP949 give random ideographs) is not searched, since random Hangul in it could match a
# short name by chance and fail a clean export.
_UNEXPECTED = re.compile("[^\t\n\r\x20-\x7e\u00a0-\u024f\u2000-\u206f\u2190-\u25ff"
                         "\u3000-\u303f\u3130-\u318f\u1100-\u11ff\uac00-\ud7a3\uff00-\uffef]")
_SAMPLE = 200_000


def plausible_text(text: str) -> bool:
    if not text:
        return False
    head = text[:20_000]  # mojibake is usually obvious at once
    if _UNEXPECTED.subn("", head)[1] > 0.5 * len(head):
        return False
    if len(text) > 3 * _SAMPLE:
        mid = len(text) // 2
        text = text[:_SAMPLE] + text[mid:mid + _SAMPLE] + text[-_SAMPLE:]
    return _UNEXPECTED.subn("", text)[1] <= 0.15 * len(text)


def _decodings(data: bytes) -> list[tuple[str, str]]:
    """Views of ``data``: UTF-8 always (errors replaced: ASCII/UTF-8 text inside binary is found), and
    each of UTF-16LE (both byte alignments), UTF-16BE and CP949 where the bytes decode without error
    and the result looks like text (see ``plausible_text``)."""
    views = [("utf-8", data.decode("utf-8", "replace"))]
    for name, enc, skip in (("utf-16le", "utf-16-le", 0), ("utf-16le+1", "utf-16-le", 1),
                            ("utf-16be", "utf-16-be", 0), ("cp949", "cp949", 0)):
        chunk = data[skip:]
        if enc.startswith("utf-16") and len(chunk) % 2:
            chunk = chunk[:-1]
        if not chunk:
            continue
        try:
            text = chunk.decode(enc)
        except UnicodeDecodeError:
            continue
        if plausible_text(text):
            views.append((name, text))
    return views


_ATTR = re.compile(r"""\s(?!xmlns[:=])[\w:.-]+\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def _scan_text(name: str, text: str, matcher: ValueMatcher, rep: LeakReport, xml: bool) -> None:
    """Search ``text``; XML is searched as its character data (tags stripped, entities unescaped, so a
    value split across runs is found) and as its attribute values (not the markup itself: tag names and
    namespace URIs would only give false alarms)."""
    if xml and text.lstrip("\ufeff \r\n\t").startswith("<"):
        t = _BETWEEN_TAGS_WS.sub("><", text)
        t = _PARA_END.sub("\n", t)
        attrs = "\n".join(a or b for a, b in _ATTR.findall(text))
        views = [("text", html.unescape(_TAG.sub("", t))), ("attributes", html.unescape(attrs))]
    else:
        views = [("raw", text)]
    for vname, v in views:
        rep.scanned.append(f"{name} {vname}")
        hit = matcher.search(v)
        if hit is not None:
            rep.hits.append(f"{name} ({vname}, character {hit[0]})")
            return


def scan_bytes(name: str, data: bytes, matcher: ValueMatcher, rep: LeakReport,
               xml: bool = False) -> None:
    for enc, text in _decodings(data):
        before = len(rep.hits)
        _scan_text(f"{name} [{enc}]", text, matcher, rep, xml)
        if len(rep.hits) > before:
            return


def check_text_bytes(data: bytes, matcher: ValueMatcher) -> LeakReport:
    rep = LeakReport()
    scan_bytes("text", data, matcher, rep)
    return rep


def check_zip_bytes(data: bytes, matcher: ValueMatcher, _depth: int = 0,
                    _prefix: str = "") -> LeakReport:
    rep = LeakReport()
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, OSError) as e:
        rep.hits.append(f"{_prefix or 'output'}: cannot be re-read as ZIP ({e})")
        return rep
    if sum(i.file_size for i in infos) > MAX_SCAN_BYTES:
        rep.hits.append(f"{_prefix or 'output'}: too large to verify")
        return rep
    if zf.comment:
        scan_bytes(_prefix + "(zip comment)", zf.comment, matcher, rep)
    for info in infos:
        name = _prefix + info.filename
        scan_bytes(name + " (name)", info.filename.encode("utf-8"), matcher, rep)
        try:
            member = zf.read(info)
        except Exception as e:  # noqa: BLE001 - any failure to re-read is a failed check
            rep.hits.append(f"{name}: cannot be re-read ({e})")
            continue
        if member[:4] == b"PK\x03\x04" and _depth < 2:
            sub = check_zip_bytes(member, matcher, _depth + 1, name + "!/")
            rep.scanned += sub.scanned
            rep.hits += sub.hits
        scan_bytes(name, member, matcher, rep, xml=True)
    return rep


def _pdf_streams(data: bytes) -> list[bytes]:
    out = []
    for m in _STREAM.finditer(data):
        if b"/DCTDecode" in data[max(0, m.start() - 512):m.start()]:
            continue  # JPEG image data
        d = zlib.decompressobj()
        try:
            out.append(d.decompress(data[m.end():m.end() + 64 * 1024 * 1024], 256 * 1024 * 1024))
        except zlib.error:
            continue
    return out


_STREAM_BODY = re.compile(rb"stream\r?\n.*?endstream", re.S)


def check_pdf_bytes(data: bytes, matcher: ValueMatcher) -> LeakReport:
    rep = LeakReport()
    # the PDF structure (objects, strings, metadata) without stream payloads (image data is binary)
    structure = _STREAM_BODY.sub(b"stream endstream", data)
    for enc in ("latin-1", "utf-8"):
        _scan_text(f"pdf objects [{enc}]", structure.decode(enc, "replace"), matcher, rep, xml=False)
    scan_bytes("pdf objects", structure, matcher, rep)
    for i, s in enumerate(_pdf_streams(data)):
        scan_bytes(f"pdf stream {i}", s, matcher, rep)
    from .pdf import PDFIUM_LOCK

    with PDFIUM_LOCK:
        _check_pdf_text_layer(data, matcher, rep)
    return rep


def _check_pdf_text_layer(data: bytes, matcher: ValueMatcher, rep: LeakReport) -> None:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except Exception as e:  # noqa: BLE001
        rep.hits.append(f"output PDF cannot be re-opened ({e})")
        return
    try:
        meta = " ".join(str(v) for v in pdf.get_metadata_dict().values())
        _scan_text("pdf metadata", meta, matcher, rep, xml=False)
        for i in range(len(pdf)):
            page = pdf[i]
            tp = page.get_textpage()
            n = tp.count_chars()
            rep.scanned.append(f"page {i + 1} text layer ({n} chars)")
            if n:
                _scan_text(f"page {i + 1} text layer", tp.get_text_range(0, n), matcher, rep, False)
            tp.close()
            page.close()
    finally:
        pdf.close()
