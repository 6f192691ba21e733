"""Plain text and CSV: read with a robust encoding cascade, write back in the source encoding.

Cascade (see docs/DOCUMENTS.md; charset-normalizer alone mis-detects short mixed ASCII+Korean CP949 as
big5hkscs): BOM → strict UTF-8 → UTF-16 by NUL pattern → strict CP949 → charset-normalizer. A user
override (``encoding=``) is decoded strictly and wins.

Line endings: when a file uses one kind only, ``Document.text`` has ``"\\n"`` and the writer restores the
original kind; a file with mixed endings is kept raw (``newline=None``) so every ending survives.
"""
from __future__ import annotations

import codecs
import hashlib
import re
from pathlib import Path

from ..masking import Replacement, apply_replacements
from .errors import DocumentError
from .limits import MAX_TEXT_FILE_BYTES, ResourceLimit, check_text_size
from .model import Document, Part, Segment, Unreadable

MAX_TEXT_BYTES = MAX_TEXT_FILE_BYTES  # a text "document" larger than this is not a document

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),   # before UTF-16 LE: it starts with the same two bytes
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _bom(data: bytes) -> tuple[str, int] | None:
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return enc, len(bom)
    return None


def _utf16_by_nuls(data: bytes) -> str | None:
    """UTF-16 without BOM: mostly-ASCII text has NULs in every other byte."""
    if len(data) < 4 or len(data) % 2:
        return None
    sample = data[:65536]
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    half = len(sample) // 2
    if odd > 0.3 * half and even < 0.05 * half:
        return "utf-16-le"
    if even > 0.3 * half and odd < 0.05 * half:
        return "utf-16-be"
    return None


#: UTF-7 (RFC 2152): its byte-order mark (``+/v8``, ``+/v9``, ``+/v+``, ``+/v/``), or ASCII text whose shifted
#: blocks (``+wuDMrcd4-``) decode to Hangul: every byte of the text is ASCII, so strict UTF-8 decodes it and the
#: detector would read base64 (red team 7 5a: a memo whose every value was in such blocks)
_UTF7_BOM = re.compile(rb"\A\+/v[89+/]")
_UTF7_BLOCK = re.compile(rb"(?<![A-Za-z0-9+/])\+[A-Za-z0-9+/]{3,}-?")


def _looks_utf7(data: bytes) -> bool:
    if _UTF7_BOM.match(data):
        return True
    head = data[:1_000_000]
    if not head.isascii() or b"+" not in head:
        return False
    blocks = _UTF7_BLOCK.findall(head)
    if len(blocks) < 3:
        return False
    hangul = other = 0
    for b in blocks[:2000]:
        try:
            t = b.decode("utf-7")
        except UnicodeDecodeError:
            return False
        for c in t:
            if "\uac00" <= c <= "\ud7a3":
                hangul += 1
            elif not c.isascii():
                other += 1
    return hangul >= 6 and hangul >= 4 * other


def decode_bytes(data: bytes, encoding: str | None = None) -> tuple[str, str, bool]:
    """Decode ``data``; returns ``(text, codec, had_bom)``. Raises ``DocumentError`` if impossible."""
    if encoding:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise DocumentError(f"Unknown text encoding {encoding!r}.") from None
        bom = _bom(data)
        skip = 0
        if bom and codecs.lookup(bom[0]).name == codecs.lookup(encoding).name.replace("-sig", ""):
            skip = bom[1]
        try:
            return data[skip:].decode(encoding), encoding, bool(skip)
        except UnicodeDecodeError as e:
            raise DocumentError(
                f"The file is not valid {encoding} (byte {e.start}); choose another encoding.") from None
    bom = _bom(data)
    if bom:
        enc, n = bom
        try:
            return data[n:].decode(enc), enc, True
        except UnicodeDecodeError:
            raise DocumentError(f"The file starts with a {enc} byte-order mark but is not valid {enc}; "
                                "open it in a text editor, save it again as UTF-8, and try again.") from None
    if _looks_utf7(data):
        try:
            text = data.decode("utf-7")
            return text[1:] if text.startswith("\ufeff") else text, "utf-7", text.startswith("\ufeff")
        except UnicodeDecodeError:
            raise DocumentError("The file looks like UTF-7 but is not valid UTF-7; open it in a text editor, "
                                "save it again as UTF-8, and try again.") from None
    try:
        return data.decode("utf-8"), "utf-8", False
    except UnicodeDecodeError:
        pass
    enc16 = _utf16_by_nuls(data)
    if enc16:
        try:
            return data.decode(enc16), enc16, False
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("cp949"), "cp949", False
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data[:1_000_000]).best()
    if best is not None and best.encoding:
        try:
            return data.decode(best.encoding), best.encoding, False
        except (UnicodeDecodeError, LookupError):
            pass
    raise DocumentError("Could not determine the text encoding of this file (it may be binary, or mix "
                        "encodings such as UTF-8 and CP949): open it in a text editor, save it again as "
                        "UTF-8, and try again.")


def _newline_kind(text: str) -> str | None:
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [k for k, n in (("\r\n", crlf), ("\r", cr), ("\n", lf)) if n]
    if not kinds:
        return "\n"
    return kinds[0] if len(kinds) == 1 else None


def read_text_file(path: Path, data: bytes, fmt: str, encoding: str | None = None) -> Document:
    if len(data) > MAX_TEXT_BYTES:
        raise ResourceLimit(f"The text file is too large ({len(data) // 2**20:,} MB; at most "
                            f"{MAX_TEXT_BYTES // 2**20} MB). Split it into smaller files and try again.")
    if b"\x00" in data[:8192] and not _bom(data) and not _utf16_by_nuls(data) and not encoding:
        raise DocumentError("This does not look like a text file (it contains binary data).")
    raw, codec, bom = decode_bytes(data, encoding)
    check_text_size(len(raw))          # before any copy is made of it (limits.MAX_DOCUMENT_CHARS)
    newline = _newline_kind(raw)
    held: tuple[Unreadable, ...] = ()
    if fmt == "txt":
        from . import mail                 # an e-mail saved as text: decoded, published decoded (red team 6)
        if mail.looks_like_mail(raw):
            try:
                return _mail_document(path, data, fmt, raw, codec, bom, newline, encoding)
            except mail.MailError:
                held = (Unreadable(where="mail", reason="encoded_text", caption=_MAIL_HELD[0],
                                   caption_en=_MAIL_HELD[1]),)
    notes: tuple[str, ...] = ()
    if codec == "utf-7":  # written back as UTF-8: UTF-7 is a hazard (RFC 2152 is obsolete; browsers dropped it)
        codec, bom = "utf-8", False
        notes = ("Read as UTF-7 (its shifted blocks decode to Hangul); the export is written as UTF-8.",)
    text = raw if newline in (None, "\n") else raw.replace(newline, "\n")
    segs = (Segment(0, len(text), "", 0),) if text else ()
    parts = (Part("본문", 0, len(text), path.name),) if text else ()
    from .encoded import encoded_text   # base64 that decodes to text: needs review (red team)
    return Document(path=path, format=fmt, text=text, parts=parts, segments=segs,
                    sha256=hashlib.sha256(data).hexdigest(), size=len(data), encoding=codec,
                    newline=newline, bom=bom, notes=notes, unreadable=held + tuple(encoded_text(text)))


_MAIL_HELD = ("메일 형식이지만 정확히 해독할 수 없습니다(손상·알 수 없는 인코딩): 직접 확인하세요",
              "looks like an e-mail but cannot be decoded exactly (damaged or unknown encoding) — review it")


def _mail_document(path: Path, data: bytes, fmt: str, raw: str, codec: str, bom: bool,
                   newline: str | None, encoding: str | None) -> Document:
    """A mail saved as text (``documents.mail``): the Document's text is the decoded mail, written as
    UTF-8 with the source's line endings. ``MailError`` when it cannot be decoded exactly."""
    from . import mail

    ascii_based = codecs.lookup(codec).name in ("utf-8", "cp949", "euc_kr", "ascii") and not bom
    source = data if ascii_based else raw.encode("utf-8")
    fallback = (encoding,) if encoding else ("utf-8", "cp949")
    m = mail.read_mail(source, fallback)
    check_text_size(len(m.text))
    from .encoded import encoded_text   # base64 left inside a decoded part still needs review
    return Document(path=path, format=fmt, text=m.text, parts=m.parts, segments=m.segments,
                    sha256=hashlib.sha256(data).hexdigest(), size=len(data), encoding="utf-8",
                    newline=newline if newline in ("\r\n", "\r") else "\n", bom=False, notes=m.notes,
                    captions=m.captions, unreadable=tuple(encoded_text(m.text, m.parts)),
                    extra={"mail": True})


def encode_text(doc: Document, text: str) -> bytes:
    """Encode ``text`` (in ``Document.text`` form) like the source: codec, BOM, line endings."""
    if doc.newline not in (None, "\n"):
        text = text.replace("\n", doc.newline)
    codec = doc.encoding or "utf-8"
    try:
        body = text.encode(codec)
    except UnicodeEncodeError as e:
        raise DocumentError(
            f"A masked value cannot be written in the file's encoding ({codec}): character "
            f"U+{ord(e.object[e.start]):04X}. Choose another masking style or export as UTF-8.") from None
    if doc.bom:
        bom = next((b for b, enc in _BOMS if codecs.lookup(enc).name == codecs.lookup(codec).name), b"")
        body = bom + body
    return body


def write_text_file(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    """The masked file's bytes. ``source`` is unused (the text file is its own model)."""
    return encode_text(doc, apply_replacements(doc.text, plan))
