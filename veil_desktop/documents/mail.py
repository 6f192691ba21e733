"""An e-mail saved as a text file (issue 26, red team 6 class 5a/6c): RFC 5322 headers with RFC 2047
encoded-words, bodies in quoted-printable or base64, attachments.

Read as text, such a file hides its content from the detectors: ``=?ks_c_5601-1987?B?wNO1tcCx?=`` is a
name, ``010-98=`` + ``99-4962`` a phone number split by a quoted-printable soft line break, a base64 part a
whole attachment. :func:`read_mail` decodes it into reviewable text (headers decoded, bodies decoded into
Unicode) and the export is **that text, masked** (default deny: what is published is rebuilt from what
was reviewed, never the original encoded bytes):

- headers: only :data:`SHOWN_HEADERS` (From, To, Cc, Subject, Date, ...) are shown and written; the others
  (Received, Message-ID, X-Mailer, ...) are left out (a reader note says how many);
- text parts (``text/*``; inline or attached) are decoded with their charset and shown; an attachment's
  file name is shown on the line under its caption; an HTML part is shown (and written) as its text
  (character references resolved, so ``&#48;`` hides no digit); ``format=flowed`` lines are joined as a
  mail client joins them;
- other parts (pictures, PDF, ZIP, ...) are left out: a caption ``Attachment N (removed)`` and the file
  name with the type remain; in ``multipart/alternative`` only the plain text version is kept;
- a forwarded message (``message/rfc822``) is shown like the outer one.

Charsets: Korean mailers label CP949 text ``ks_c_5601-1987`` or ``euc-kr``; Python maps both to the strict
``euc_kr`` codec, which fails on CP949's extra syllables, so :data:`KOREAN_CHARSETS` map to ``cp949``. A
declared charset that does not decode the bytes strictly, a base64 body that is not base64, a parser
defect, an unknown transfer encoding or an mbox file of several messages raise :class:`MailError`: the
caller reads the file as plain text and holds it for review. No Qt.
"""
from __future__ import annotations

import base64
import binascii
import codecs
import email
import email.errors
import email.header
import email.message
import quopri
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from .model import Caption, Part, Segment, TextBuilder

#: charset labels of Korean text that are CP949 in practice (Python maps several to strict ``euc_kr``)
KOREAN_CHARSETS = frozenset({
    "ks_c_5601-1987", "ks_c_5601_1987", "ks_c_5601", "ks_c_5601-1989", "ksc5601", "ksc_5601", "ks_x_1001",
    "ks-c-5601", "ks-c-5601-1987", "euc-kr", "euc_kr", "euckr", "x-euc-kr", "korean", "cp949", "ms949",
    "uhc", "windows-949", "x-windows-949", "ms_kanji-kr"})

#: headers shown and written (lower case); every other header is left out of the export
SHOWN_HEADERS = ("from", "sender", "reply-to", "to", "cc", "bcc", "date", "subject")
#: header names that make a file look like a mail (with From and MIME or an encoded-word)
_MAIL_FIELDS = frozenset({"to", "cc", "subject", "date", "message-id", "mime-version", "content-type",
                          "content-transfer-encoding", "received", "return-path", "sender", "reply-to",
                          "x-mailer", "user-agent", "in-reply-to", "references"})
_FIELD = re.compile(r"[!-9;-~]+:")
_ENCODED_WORD = re.compile(r"=\?[^?\s]+\?[qQbB]\?[^?\s]*\?=")
MAX_HEADER_BLOCK = 256 * 1024
MAX_PARTS = 2000
MAX_DEPTH = 12


class MailError(Exception):
    """The file looks like a mail but cannot be decoded exactly (the caller holds it for review)."""


@dataclass(frozen=True)
class MailText:
    text: str
    parts: tuple[Part, ...]
    segments: tuple[Segment, ...]
    captions: tuple[Caption, ...]
    notes: tuple[str, ...]


def codec_for(charset: str | None) -> str | None:
    """The Python codec of a MIME charset label (Korean labels -> ``cp949``), ``None`` if unknown."""
    if not charset:
        return None
    c = charset.strip().strip('"').lower()
    c = c.split("*", 1)[0]   # RFC 2231 language suffix: "euc-kr*ko"
    if c in KOREAN_CHARSETS:
        return "cp949"
    try:
        return codecs.lookup(c).name
    except LookupError:
        return None


def looks_like_mail(text: str, declared: bool = False) -> bool:
    """True if ``text`` starts with an RFC 5322 header block (every line a field or a continuation, up to
    a blank line) with From and two more mail fields, *and* something to decode: a MIME header or an
    RFC 2047 encoded-word. Ordinary text (a memo with ``이름: ...`` lines) is not a mail.

    ``declared``: the file says it is a mail (``.eml``): the header block with two mail fields is enough
    (a plain RFC 5322 message needs no MIME header; a draft may have no From)."""
    head = text[:MAX_HEADER_BLOCK]
    m = re.search(r"\r?\n\r?\n|\r\r", head)
    if not m:
        return False
    lines = re.split(r"\r\n|\n|\r", head[:m.start()])
    if lines and lines[0].startswith("From ") and not lines[0].startswith("From :"):
        lines = lines[1:]    # an mbox envelope line ("From sender date")
    names = []
    for i, line in enumerate(lines):
        if line[:1] in (" ", "\t"):
            if i == 0:
                return False
            continue
        f = _FIELD.match(line)
        if not f:
            return False
        names.append(line[:f.end() - 1].lower())
    fields = sum(1 for n in set(names) if n in _MAIL_FIELDS or n == "from")
    if declared:
        return fields >= 2
    if "from" not in names or fields - 1 < 2:
        return False
    mime = {"mime-version", "content-type", "content-transfer-encoding"} & set(names)
    return bool(mime) or bool(_ENCODED_WORD.search(head[:m.start()]))


def _decode_bytes(raw: bytes, declared: str | None, fallback: tuple[str, ...]) -> str:
    """Bytes of a header or a text part in Unicode: with the declared charset (strict), else ASCII, else
    the ``fallback`` codecs in order (undeclared 8-bit text). ``MailError`` if none decodes it."""
    if declared is not None:
        codec = codec_for(declared)
        if codec is None:
            if declared.strip().lower() in ("unknown-8bit", "x-unknown", "8bit", "default"):
                codec = None
            else:
                raise MailError(f"unknown charset {declared!r}")
        if codec is not None:
            try:
                return raw.decode(codec)
            except UnicodeDecodeError:
                raise MailError(f"text is not valid {declared}") from None
    try:
        return raw.decode("ascii")
    except UnicodeDecodeError:
        pass
    for codec in fallback:
        try:
            return raw.decode(codec)
        except (UnicodeDecodeError, LookupError):
            continue
    raise MailError("8-bit text in no known encoding")


def _raw(s: str) -> bytes:
    """A value the compat32 parser read from bytes (ASCII + surrogate escapes) as those bytes."""
    try:
        return s.encode("ascii", "surrogateescape")
    except UnicodeEncodeError:
        return s.encode("utf-8", "surrogateescape")


def decode_header_value(raw: bytes, fallback: tuple[str, ...] = ("utf-8", "cp949")) -> str:
    """An unfolded header value: 8-bit text decoded by ``fallback``, each RFC 2047 encoded-word decoded
    exactly (``email.header.decode_header`` on the word, then its charset: Korean labels as CP949);
    white space between two adjacent encoded-words dropped (RFC 2047 section 6.2)."""
    raw = re.sub(rb"\r?\n(?=[ \t])|\r(?=[ \t])", b"", raw).strip(b" \t\r\n")
    text = _decode_bytes(raw, None, fallback)
    out, pos, last_word = [], 0, False
    for m in _ENCODED_WORD.finditer(text):
        between = text[pos:m.start()]
        if not (last_word and between.strip(" \t") == ""):
            out.append(between)
        try:
            pieces = email.header.decode_header(m.group())
        except email.errors.HeaderParseError:
            raise MailError("an encoded-word is not valid base64") from None
        for b, cs in pieces:
            if isinstance(b, str):
                b = b.encode("latin-1", "replace")
            out.append(_decode_bytes(b, cs or None, fallback))
        pos, last_word = m.end(), True
    out.append(text[pos:])
    return re.sub(r"[\r\n]+", " ", "".join(out))


def _param(part: email.message.Message, name: str, header: str, fallback: tuple[str, ...]) -> str:
    v = part.get_param(name, None, header)
    if v is None:
        return ""
    if isinstance(v, tuple):           # RFC 2231: (charset, language, %-decoded latin-1 value)
        charset, _lang, value = v
        b = value.encode("latin-1", "surrogateescape")
        return _decode_bytes(b, charset or None, fallback)
    return decode_header_value(_raw(v), fallback)


def _filename(part: email.message.Message, fallback: tuple[str, ...]) -> str:
    name = (_param(part, "filename", "content-disposition", fallback)
            or _param(part, "name", "content-type", fallback))
    return re.sub(r"[\r\n\t]+", " ", name).strip()


def _payload(part: email.message.Message) -> bytes:
    """The body bytes of a leaf part after its transfer encoding (strict base64; unknown encodings fail).

    The body is taken as the parser stored it (``_payload``: the bytes as ASCII + surrogate escapes):
    ``get_payload(decode=False)`` decodes an 8-bit body with the declared charset (ASCII when none) and
    *replaces* what does not decode, so an undeclared UTF-8 body or a CP949 syllable in an ``euc-kr``
    8bit body would come out as U+FFFD."""
    body = getattr(part, "_payload", None)
    if not isinstance(body, str):
        body = part.get_payload(decode=False)
    if not isinstance(body, str):
        raise MailError("a leaf part has no text payload")
    raw = _raw(body)
    cte = str(part.get("content-transfer-encoding", "7bit")).strip().lower()
    if cte in ("", "7bit", "8bit", "binary"):
        return raw
    if cte == "quoted-printable":
        return quopri.decodestring(raw)
    if cte == "base64":
        s = re.sub(rb"\s+", b"", raw)
        try:
            return base64.b64decode(s, validate=True)
        except (binascii.Error, ValueError):
            raise MailError("a base64 part is not valid base64") from None
    raise MailError(f"unknown transfer encoding {cte!r}")


def _unflow(text: str, delsp: bool) -> str:
    """RFC 3676 ``format=flowed``: a line ending in a space continues on the next line (as a mail client
    shows it), so a number broken there is read whole."""
    out = []
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]               # space-stuffing
        if out and out[-1].endswith(" ") and out[-1] != "-- ":
            out[-1] = (out[-1][:-1] if delsp else out[-1]) + line
        else:
            out.append(line)
    return "\n".join(out)


class _HtmlText(HTMLParser):
    _BREAK = {"br", "p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "blockquote", "pre",
              "hr", "dt", "dd", "ul", "ol", "section", "article", "header", "footer"}
    _SKIP = {"style", "script", "head", "title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in self._SKIP:
            self.skip += 1
        elif tag in self._BREAK:
            self.out.append("\n")
        elif tag in ("td", "th"):
            self.out.append(" ")
        for k, v in attrs:                # text a reader can see or hover: alt, title
            if k in ("alt", "title") and v and not self.skip:
                self.out.append(f" {v} ")

    def handle_endtag(self, tag):
        if tag in self._SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in self._BREAK:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(re.sub(r"[ \t\r\n]+", " ", data))


def html_text(source: str) -> str:
    """The text of an HTML part (tags dropped, character references resolved, alt/title kept; style and
    script left out): published as text, so no entity hides a digit from the detectors."""
    p = _HtmlText()
    p.feed(source)
    p.close()
    text = "".join(p.out)
    text = re.sub(r"[ \t]*\n[ \t]*", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def _size(n: int) -> str:
    return f"{n:,} bytes" if n < 10 * 1024 else f"{n // 1024:,} KB"


class _Reader:
    def __init__(self, fallback: tuple[str, ...]) -> None:
        self.b = TextBuilder()
        self.fallback = fallback
        self.slot = 0
        self.attachments = 0
        self.removed = 0
        self.hidden_headers = 0
        self.leaves = 0
        self.in_body = False

    def content(self, s: str) -> None:
        if s:
            self.b.slot("mail", self.slot, s)
            self.slot += 1

    def headers(self, msg: email.message.Message, kind: str) -> None:
        shown = []
        for name, value in msg.raw_items():
            if name.strip().lower() in SHOWN_HEADERS:
                shown.append((name.strip(), decode_header_value(_raw(value), self.fallback)))
            else:
                self.hidden_headers += 1
        if not shown:
            return
        self.b.begin_part(kind, kind=kind)
        self.in_body = False
        for name, value in shown:
            self.b.boilerplate(f"{name}: ")
            self.content(value)
            self.b.boilerplate("\n")

    def message(self, msg: email.message.Message, depth: int, kind: str = "mail_headers") -> None:
        if depth > MAX_DEPTH:
            raise MailError("messages nested too deeply")
        self.headers(msg, kind)
        self.part(msg, depth)

    def part(self, part: email.message.Message, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise MailError("parts nested too deeply")
        self.leaves += 1
        if self.leaves > MAX_PARTS:
            raise MailError("too many parts")
        if part.defects:
            raise MailError(f"the mail is damaged ({type(part.defects[0]).__name__})")
        ctype = part.get_content_type()
        if ctype == "message/rfc822":
            subs = part.get_payload()
            for sub in subs if isinstance(subs, list) else ():
                self.message(sub, depth + 1, kind="mail_forwarded")
            return
        if part.is_multipart():
            if not ctype.startswith("multipart/"):
                self.drop(part, ctype)          # message/delivery-status and the like
                return
            subs = [s for s in part.get_payload() if isinstance(s, email.message.Message)]
            if ctype == "multipart/alternative":
                plain = [s for s in subs if s.get_content_type() == "text/plain"]
                if plain:
                    for s in subs:
                        if s in plain:
                            self.part(s, depth + 1)
                        else:
                            self.drop(s, s.get_content_type(), alternative=True)
                    return
            for s in subs:
                self.part(s, depth + 1)
            return
        if part.get_content_maintype() != "text":
            self.drop(part, ctype)
            return
        charset = part.get_param("charset")
        if isinstance(charset, tuple):
            charset = charset[2]
        text = _decode_bytes(_payload(part), str(charset) if charset else None, self.fallback)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        if ctype == "text/plain" and str(part.get_param("format", "")).lower() == "flowed":
            text = _unflow(text, str(part.get_param("delsp", "")).lower() == "yes")
        elif ctype == "text/html":
            text = html_text(text)
        name = _filename(part, self.fallback)
        attached = part.get_content_disposition() == "attachment" or bool(name)
        if not attached:
            if not text.strip():
                return
            if not self.in_body:
                self.b.begin_part("body", kind="body")
                self.in_body = True
            elif not self.b.ends_with_newline():
                self.b.boilerplate("\n")
            self.content(text)
            return
        self.attachments += 1
        self.b.begin_part("attachment", kind="attachment", detail=str(self.attachments))
        self.in_body = False
        if name:
            self.content(name)
            self.b.boilerplate("\n")
        self.content(text)

    def drop(self, part: email.message.Message, ctype: str, alternative: bool = False) -> None:
        """A part that is not text: left out; its caption, file name and type remain."""
        if part.defects:
            raise MailError(f"the mail is damaged ({type(part.defects[0]).__name__})")
        self.attachments += 1
        self.removed += 1
        self.b.begin_part("attachment_removed", kind="attachment_removed", detail=str(self.attachments))
        self.in_body = False
        name = _filename(part, self.fallback)
        if name:
            self.content(name)
            self.b.boilerplate(" ")
        body = part.get_payload(decode=False)
        n = len(_payload(part)) if isinstance(body, str) else 0
        self.b.boilerplate(f"({ctype}, {_size(n)})\n" if not alternative else f"({ctype})\n")


def read_mail(data: bytes, fallback: tuple[str, ...] = ("utf-8", "cp949")) -> MailText:
    """The reviewable text of a mail saved as ``data`` (see the module docstring). ``MailError`` when it
    cannot be decoded exactly."""
    if re.search(rb"(?:\r?\n){2}From \S+ +\S", data[:MAX_HEADER_BLOCK * 64]) and data.startswith(b"From "):
        raise MailError("an mbox file with several messages")
    msg = email.message_from_bytes(data)     # compat32: raw header values are kept for exact decoding
    r = _Reader(fallback)
    r.message(msg, 0)
    text = r.b.text()
    if not text.strip():
        raise MailError("the mail has no text")
    notes = ["Read as an e-mail: headers and bodies are decoded (RFC 2047, quoted-printable, base64); "
             "the export is the decoded, masked text, not the original message."]
    if r.hidden_headers:
        notes.append(f"{r.hidden_headers} mail header(s) other than From/To/Cc/Subject/Date "
                     "(Received, Message-ID, ...) are left out of the export.")
    if r.removed:
        notes.append(f"{r.removed} attachment(s) that are not text are left out of the export.")
    return MailText(text, tuple(r.b.parts), tuple(r.b.segments), tuple(r.b.captions), tuple(notes))
