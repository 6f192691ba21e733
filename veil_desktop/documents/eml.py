"""A mail saved as ``.eml`` (Outlook, Thunderbird, Hancom mail, a webmail's "save as"): read as the decoded
mail (``documents.mail``, the reader ``.txt`` mail uses) and exported as a **new** mail rebuilt from what
was reviewed (default deny: only bytes written here, never the original's).

Reading. The extension is not trusted: the content must start with an RFC 5322 header block
(``mail.looks_like_mail(declared=True)``: two mail fields, no MIME header needed). A ``.eml`` that is not a
mail is **refused** with a message (it is not read as text: what would its export be — a "mail" made of
arbitrary text, or a text file named ``.eml``?); a mail that cannot be decoded exactly (damaged, bad
base64, unknown charset or transfer encoding, an mbox of several messages) is refused too, naming the
way to review its raw text (a copy saved as ``.txt`` is read as text and held for review). Nothing half
read is ever published as a mail.

Writing (:func:`write_eml`). A new RFC 5322 message built with the standard library (``email.message.
EmailMessage``, ``policy.SMTP`` with 7-bit transfer: CRLF lines, RFC 2047 UTF-8 encoded-words where a
header needs them, the body in quoted-printable or base64 as the library chooses):

- headers: the shown ones (``mail.SHOWN_HEADERS``: From, To, Cc, Date, Subject, ...), each with its
  reviewed, masked value. An address or date header whose masked value is still a valid address list /
  date is written structured; otherwise (``[이메일]`` is no address) it is written as unstructured text, so
  a reader shows exactly the masked text. A header written once already (a second Subject) or one that
  does not read back as written goes into the body's first lines instead, as ``Name: value``;
- no other header of the original (Received, Message-ID, X-*, ...): the message gets only
  MIME-Version / Content-Type / Content-Transfer-Encoding from the library;
- one ``text/plain; charset=utf-8`` body: the masked decoded text after the headers — bodies, text
  attachments, forwarded messages and the captions of the attachments left out
  (``── Attachment 2 (removed) ──``, file name and type). No original attachment is written.

No Qt.
"""
from __future__ import annotations

import dataclasses
import email
import email.errors
import email.header
import email.policy
import email.utils
import re
from email.headerregistry import HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from pathlib import Path

from ..masking import Replacement, apply_replacements
from .errors import DocumentError
from .model import Document

#: the writer's policy: RFC 5322 lines (CRLF, folded at 78), 7-bit transfer (non-ASCII -> QP/base64, RFC 2047)
POLICY = email.policy.SMTP.clone(cte_type="7bit")
_ADDRESS = frozenset({"from", "sender", "reply-to", "to", "cc", "bcc"})
_UNSTRUCTURED = HeaderRegistry(default_class=UnstructuredHeader, use_default_map=False)
_LINE = re.compile(r"([A-Za-z][A-Za-z-]*): (.*)")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_BODY_CAPTION = "── Body ──\n"

NOT_A_MAIL = ("{name} is not an e-mail: it does not start with mail headers (From:, To:, Subject:, ...). "
              "Nothing was read. If it is plain text, save it as .txt and open that.")
UNDECODABLE = ("{name} looks like an e-mail but cannot be decoded exactly ({reason}); it was not read. "
               "To review its raw text, save a copy as .txt and open that (it is held for review).")


def read_eml(path: Path, data: bytes, encoding: str | None = None) -> Document:
    """The decoded mail of ``data`` (``documents.mail`` through ``textfile``'s mail document, format
    ``eml``); ``DocumentError`` for a file that is not a mail or cannot be decoded exactly."""
    from . import mail, textfile
    from .textfile import decode_bytes

    if len(data) > textfile.MAX_TEXT_BYTES:
        raise textfile.ResourceLimit(f"The mail is too large ({len(data) // 2**20:,} MB; at most "
                                     f"{textfile.MAX_TEXT_BYTES // 2**20} MB).")
    if b"\x00" in data[:8192] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DocumentError(NOT_A_MAIL.format(name=path.name))     # binary (an Outlook .msg renamed, ...)
    try:
        raw, codec, bom = decode_bytes(data, encoding)
    except DocumentError:
        raise DocumentError(NOT_A_MAIL.format(name=path.name)) from None
    if not mail.looks_like_mail(raw, declared=True):
        raise DocumentError(NOT_A_MAIL.format(name=path.name))
    textfile.check_text_size(len(raw))
    try:
        return textfile._mail_document(path, data, "eml", raw, codec, bom, textfile._newline_kind(raw),
                                       encoding)
    except mail.MailError as e:
        raise DocumentError(UNDECODABLE.format(name=path.name, reason=str(e))) from None


def _masked(doc: Document, plan: list[Replacement], a: int, b: int) -> str:
    local = [Replacement(max(r.start, a) - a, min(r.end, b) - a, r.text, r.label)
             for r in plan if r.start < b and r.end > a]
    return apply_replacements(doc.text[a:b], local)


def _header_lines(doc: Document, plan: list[Replacement]) -> tuple[list[tuple[str, str]], list[str], int]:
    """``(headers, other_lines, end)``: the shown headers of the top-level header part as masked
    ``(name, value)``, the lines of that part that are not one, and where the part ends (0: none)."""
    from .mail import SHOWN_HEADERS
    from .model import caption_text

    part = doc.parts[0] if doc.parts and doc.parts[0].kind == "mail_headers" else None
    if part is None:
        return [], [], 0
    lines = _masked(doc, plan, part.start, part.end).split("\n")
    if lines and lines[0] == f"── {caption_text('mail_headers', '')} ──":
        lines = lines[1:]
    headers, other = [], []
    for line in lines:
        m = _LINE.fullmatch(line)
        if m and m.group(1).lower() in SHOWN_HEADERS:
            headers.append((m.group(1), _CONTROL.sub(" ", m.group(2)).strip()))
        elif line.strip():
            other.append(line)
    return headers, other, part.end


def _set_header(msg: EmailMessage, name: str, value: str) -> None:
    """Add ``name: value`` to ``msg``: structured when the masked value still is a valid address list /
    date; an address or date header that no longer is one (``[이메일]`` is no address) as RFC 2047 UTF-8
    encoded-words of the whole value (an address parser then shows it whole, as a name, instead of
    dropping the part that is no address); any other header as unstructured text (RFC 2047 where needed)."""
    low = name.lower()
    if low in _ADDRESS or low == "date":
        h = POLICY.header_factory(name, value)
        if not h.defects and str(h).strip():
            msg[name] = h
            return
        encoded = email.header.Header(value, "utf-8", header_name=name).encode(linesep="\r\n")
        msg.set_raw(name, encoded)
        return
    msg[name] = _UNSTRUCTURED(name, value)


def _reads_back(name: str, value: str, written: bytes) -> bool:
    """True when a reader of ``written`` (a header block) reads ``name`` as ``value``: the same addresses /
    date for a structured header, else the same text once RFC 2047 words are decoded."""
    back = email.message_from_bytes(written + b"\r\n", policy=email.policy.compat32)
    raws = back.get_all(name) or []
    if len(raws) != 1:
        return False
    try:
        text = str(email.header.make_header(email.header.decode_header(raws[0])))
    except (email.errors.HeaderParseError, LookupError, UnicodeError, ValueError):
        return False
    low = name.lower()
    norm = " ".join(value.split())
    if " ".join(text.split()) == norm:
        return True
    if low in _ADDRESS:
        return email.utils.getaddresses([text]) == email.utils.getaddresses([value]) and \
            POLICY.header_factory(name, value).defects == ()
    if low == "date":
        try:
            return email.utils.parsedate_to_datetime(text) == email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return False
    return False


def write_eml(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    """A new mail of the reviewed, masked content (see the module docstring); ``source`` is not used."""
    if not doc.extra.get("mail"):
        raise DocumentError(f"{doc.path.name} was not read as an e-mail; it cannot be exported as .eml.")
    from .formats.plain import plain_text_export

    headers, other, end = _header_lines(doc, plan)
    msg = EmailMessage(policy=POLICY)
    prelude: list[str] = list(other)
    for name, value in headers:
        if not value or msg.get(name) is not None:
            prelude.append(f"{name}: {value}")        # empty, or a second Subject / To: kept as text
            continue
        try:
            one = EmailMessage(policy=POLICY)
            _set_header(one, name, value)
            ok = _reads_back(name, value, one.as_bytes())
        except (ValueError, TypeError, IndexError, email.errors.HeaderParseError):
            ok = False
        if ok:
            _set_header(msg, name, value)
        else:
            prelude.append(f"{name}: {value}")
    # the body: every part after the top-level headers, masked (the headers part taken out as "removed")
    parts = tuple(dataclasses.replace(p, removed=True) if p.start < end else p for p in doc.parts)
    body = plain_text_export(dataclasses.replace(doc, parts=parts, newline="\n"), plan, source).decode("utf-8")
    if body.startswith(_BODY_CAPTION):
        body = body[len(_BODY_CAPTION):]
    if prelude:
        body = "\n".join(prelude) + "\n\n" + body
    if not body.endswith("\n"):
        body += "\n"
    msg.set_content(body, charset="utf-8")
    return msg.as_bytes()
