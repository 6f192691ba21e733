"""Fail-closed leak check: re-read an output file by a path independent of the writers.

The writers edit a parsed model of the file (XML text nodes, PDF pages). This module never uses that
model: it looks at the output's *bytes*, the way a recipient's tools could.

- every byte sequence is decoded as UTF-8 (always, errors replaced) and as UTF-16LE (both byte
  alignments), UTF-16BE and CP949 where that decoding is clean and plausible text;
- XML (any member that looks like markup, whatever its name) is searched as
  * its character data with the tags stripped (a value split across runs is found), *including* the
    content of comments, processing instructions, CDATA sections and markup declarations (``<!DOCTYPE``,
    ``<!ENTITY e "…">``; their delimiters are dropped, their content kept),
  * the list of every attribute value (also inside comments), namespace declarations included,
  * the raw content of every comment / PI / CDATA section / declaration on its own,
  * element, attribute and prefix names that could be text (non-ASCII, five digits in a row);
- every view is also searched after the escapes a reader undoes: XML/HTML entities (repeatedly, so
  ``&amp;#54861;`` counts), URL ``%xx`` escapes (UTF-8 and CP949), RTF ``\\'hh`` / ``\\uN`` escapes;
- the matcher (``matching.ValueMatcher``) itself normalises both sides: NFKC per cluster (NFC/NFD Hangul,
  full-width forms, compatibility characters), separators and invisible characters (zero-width space and
  joiners, soft hyphen, BOM, directional marks) removed, Latin case ignored;
- ZIP outputs (DOCX, HWPX): every member whatever its name or type — referenced or not — plus member
  names, per-member comments and extra fields, the archive comment, and ZIP members inside members
  (nested, bounded by ``limits.MAX_NESTING``), all inflated through ``safezip.iter_members`` with one
  running budget; binary members are searched for UTF-16/CP949 text runs; picture metadata (PNG text
  chunks, JPEG comment/APPn segments) is decoded too;
- PDF outputs: the object structure, every inflatable stream (bounded), the text pypdfium2 extracts from
  each page, and the document metadata.

A file's own format bytes are never a found value (issue 26, class 6: a masked ``PDF`` or ``HWP`` must not
be "found" in ``%PDF-1.7`` or ``application/hwp+zip``): the PDF header, keywords, operators, numbers and
plain dictionary keys/names (``pdf_syntax_view`` keeps strings, comments, escaped names and anything
unknown), XML element/attribute names of ASCII letters, the namespace URIs the formats define
(``namespaces.known_namespace``; any other namespace URI is searched), MIME types and schema URIs
without long digit runs (``namespaces.schema_uri``) as attribute values or element text, the
``mimetype`` member, ZIP member names made of standard part names
(``standard_part_name``), enumeration values of known enumerated attributes (``w:type="even"``) and the
tool's own part headers and captions in text outputs (``strip_captions``).

Bounded: text is searched in windows (``WINDOW_CHARS``), inflation is bounded by the budget and by
``MAX_STREAM``; anything that cannot be re-read or exceeds a bound is a *hit* (fail closed), never a pass.
Any hit is a leak; the caller deletes the output.
"""
from __future__ import annotations

import html
import re
import struct
import zlib
from dataclasses import dataclass, field
from urllib.parse import unquote, unquote_to_bytes

from .errors import DocumentError
from .matching import ValueMatcher
from .namespaces import schema_uri

_TAG = re.compile(r"<[^<>]*>")
_PARA_END = re.compile(r"</(?:[\w.-]+:)?p>")
_BETWEEN_TAGS_WS = re.compile(r">\s+<")
#: comments, PIs, CDATA sections and markup declarations (``<!DOCTYPE``, ``<!ENTITY e "…">``)
_SPECIAL = re.compile(r"<!--(.*?)-->|<\?(.*?)\?>|<!\[CDATA\[(.*?)\]\]>|<!(?!--|\[CDATA\[)([^<>]*)>?", re.S)
_PCT = re.compile(r"%[0-9A-Fa-f]{2}")
_RTF_HEX = re.compile(r"(?:\\'[0-9a-fA-F]{2})+")
_RTF_U = re.compile(r"\\u(-?\d{1,5})\??")
_STREAM = re.compile(rb"stream\r?\n")
_STREAM_BODY = re.compile(rb"stream\r?\n.*?endstream", re.S)

MAX_SCAN_BYTES = 2 * 1024**3          # an output larger than this is not verified: refused
MAX_STREAM = 64 * 1024 * 1024         # one inflated PDF stream / PNG text chunk
MAX_PDF_INFLATED = 512 * 1024 * 1024  # all PDF streams together
WINDOW_CHARS = 8 * 1024 * 1024        # text is searched in windows of this many characters ...
WINDOW_OVERLAP = 64 * 1024            # ... overlapping by this many (a value is far shorter)
MAX_UNESCAPE_ROUNDS = 3


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
                         "\u3000-\u303f\u3130-\u318f\u1100-\u11ff\uac00-\ud7a3\uff00-\uffef\ufeff]")
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
    and the result looks like text (see ``plausible_text``). A UTF-16 byte-order mark selects that
    decoding even when the rest is unusual."""
    views = [("utf-8", data.decode("utf-8", "replace"))]
    for name, enc, skip in (("utf-16le", "utf-16-le", 0), ("utf-16le+1", "utf-16-le", 1),
                            ("utf-16be", "utf-16-be", 0), ("cp949", "cp949", 0)):
        chunk = data[skip:]
        if enc.startswith("utf-16") and len(chunk) % 2:
            chunk = chunk[:-1]
        if not chunk:
            continue
        bom = (enc == "utf-16-le" and skip == 0 and chunk[:2] == b"\xff\xfe") or \
              (enc == "utf-16-be" and chunk[:2] == b"\xfe\xff")
        try:
            text = chunk.decode(enc, "replace" if bom else "strict")
        except UnicodeDecodeError:
            continue
        if bom or plausible_text(text):
            views.append((name, text))
    return views


# -- text runs inside binary data -------------------------------------------------------------------
_U16LE_RUN = re.compile(rb"(?:[\x09\x0a\x0d\x20-\x7e]\x00|[\x00-\xff][\xac-\xd7]|[\x31-\x8e]\x31){3,}")
_U16BE_RUN = re.compile(rb"(?:\x00[\x09\x0a\x0d\x20-\x7e]|[\xac-\xd7][\x00-\xff]){3,}")
_CP949_RUN = re.compile(rb"(?:[\xb0-\xc8][\xa1-\xfe]|[\x20-\x7e]){3,}")


def binary_text_runs(data: bytes) -> list[tuple[str, str]]:
    """UTF-16 and CP949 text runs inside binary data (what ``strings -el`` would show), as views."""
    out = []
    for skip in (0, 1):
        runs = [m.group().decode("utf-16-le", "replace") for m in _U16LE_RUN.finditer(data, skip)
                if (m.start() - skip) % 2 == 0]
        if runs:
            out.append((f"utf-16le runs+{skip}", "\n".join(runs)))
    runs = [m.group().decode("utf-16-be", "replace") for m in _U16BE_RUN.finditer(data)
            if m.start() % 2 == 0]
    if runs:
        out.append(("utf-16be runs", "\n".join(runs)))
    runs = [r for r in (m.group().decode("cp949", "replace") for m in _CP949_RUN.finditer(data))
            if not r.isascii()]
    if runs:
        out.append(("cp949 runs", "\n".join(runs)))
    return out


def _image_metadata(data: bytes) -> list[bytes]:
    """Text-bearing metadata of a PNG (tEXt/zTXt/iTXt/eXIf) or JPEG (COM, APPn) picture."""
    out: list[bytes] = []
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        pos = 8
        while pos + 8 <= len(data):
            n, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + n]
            if kind in (b"tEXt", b"iTXt", b"eXIf"):
                out.append(body)
            if kind in (b"zTXt", b"iTXt"):
                z = body.find(b"\x78")
                if z >= 0:
                    try:
                        out.append(zlib.decompressobj().decompress(body[z:], MAX_STREAM))
                    except zlib.error:
                        pass
            pos += 12 + n
    elif data[:2] == b"\xff\xd8":
        pos = 2
        while pos + 4 <= len(data) and data[pos] == 0xFF:
            marker = data[pos + 1]
            if marker in (0xD9, 0xDA):  # end of image / start of scan: no more metadata
                break
            n = struct.unpack(">H", data[pos + 2:pos + 4])[0]
            if marker == 0xFE or 0xE1 <= marker <= 0xEF:
                out.append(data[pos + 4:pos + 2 + n])
            pos += 2 + n
    return out


def _is_image(data: bytes) -> bool:
    return data[:8] == b"\x89PNG\r\n\x1a\n" or data[:2] == b"\xff\xd8" or data[:6] in (b"GIF87a", b"GIF89a")


# -- views of one decoded text ----------------------------------------------------------------------
def _unescaped(text: str) -> list[tuple[str, str]]:
    """Further readings of an (already entity-unescaped) text: entities again (double escaping), URL
    escapes, RTF escapes."""
    out = []
    t = text
    for i in range(1, MAX_UNESCAPE_ROUNDS):
        if "&" not in t:
            break
        u = html.unescape(t)
        if u == t:
            break
        out.append((f"entities x{i + 1}", u))
        t = u
    if "%" in text and _PCT.search(text):
        base = out[-1][1] if out else text
        out.append(("url", unquote(base, errors="replace")))
        try:
            out.append(("url-cp949", unquote_to_bytes(base).decode("cp949", "replace")))
        except Exception:  # noqa: BLE001 - only a further view
            pass
    if "\\'" in text or "\\u" in text:
        def hexrun(m: re.Match) -> str:
            raw = bytes(int(m.group()[i + 2:i + 4], 16) for i in range(0, len(m.group()), 4))
            return raw.decode("cp949", "replace")

        r = _RTF_HEX.sub(hexrun, text)
        r = _RTF_U.sub(lambda m: chr(int(m.group(1)) % 65536), r)
        if r != text:
            out.append(("rtf", r))
    return out


# -- a file's own format bytes --------------------------------------------------------------------
_MIME_VALUE = re.compile(r"^\s*(?:application|image|text|audio|video|font|model|multipart|message)/"
                         r"[A-Za-z0-9.+\-]+(?:\s*;\s*[a-z\-]+=[\w.\-\"]+)*\s*$")
#: attributes whose values are enumerations of the format (never document text): a single ASCII word
#: there is a format token (``w:type="even"``, ``w:fldCharType="begin"``, HWPX ``type="DIGIT"``)
_ENUM_ATTRS = {"type", "fldCharType", "hint", "lineRule", "vAlign", "textAlignment", "textDirection",
               "hAnchor", "vAnchor", "wrap", "relativeFrom", "algn", "anchor", "prst", "cap", "cmpd",
               "numberType", "numFormat", "textWrap", "textFlow", "horzRelTo", "vertRelTo", "horzAlign",
               "vertAlign", "lineWrap", "breakSetting", "align", "vertical", "horizontal", "shape",
               "stroke", "fillType", "connecttype", "extrusionOk", "insetmode", "joinstyle", "headerType",
               "pageStartsOn", "gutterType", "kind", "mode", "script", "lang", "styleType", "dirty",
               "underline", "strikeout", "outline", "shadow", "emboss", "engrave", "symMark",
               "compatibleFont", "fontFamily", "eastAsiaTheme", "asciiTheme", "hAnsiTheme",
               "cstheme", "themeColor", "themeFill", "themeShade", "themeTint", "vertAnchor", "horzAnchor",
               "tblpXSpec", "tblpYSpec", "xAlign", "yAlign", "dropCap", "hRule", "tabs", "leader", "pos",
               "Extension", "TargetMode", "space", "Ignorable", "Requires", "ProcessContent"}
_ENUM_TOKEN = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]{0,40}$")


def _format_value(name: str, value: str) -> bool:
    """An attribute value that is the format's own syntax: a MIME type, a schema URI, or a single word
    of an enumerated attribute."""
    local = name.rsplit(":", 1)[-1]
    if _MIME_VALUE.match(value) or schema_uri(value):
        return True    # a namespace URI the formats define, or a schema URI without long digit runs
    if name == "xmlns" or name.startswith("xmlns:"):
        return False   # any other namespace URI (urn:x-bank:1002-…) is searched like any value
    if "/" in value and re.fullmatch(r"[\w./\-\[\]]{1,200}", value, re.A) \
            and standard_part_name(value.lstrip("/")):
        return True    # a reference to a standard part (href="BinData/image1.png", Target="media/image1.png")
    return local in _ENUM_ATTRS and bool(_ENUM_TOKEN.match(value.strip()))


#: every attribute, namespace declarations included (their URIs are text a hostile author controls)
_ATTR_NV = re.compile(r"""\s([^\s<>="'/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_ELEMENT_FORMAT_TEXT = re.compile(r">(\s*(?:application|image|text)/[A-Za-z0-9.+\-]+\s*)<")

#: path components of ZIP members that every DOCX/HWPX/ODF package has (trailing digits, extension off)
_STANDARD_PARTS = {p.lower() for p in (
    "[Content_Types]", "_rels", "", "word", "docProps", "customXml", "media", "theme", "document",
    "styles", "stylesWithEffects", "settings", "webSettings", "fontTable", "numbering", "header",
    "footer", "footnotes", "endnotes", "comments", "commentsExtended", "commentsIds", "commentsExtensible",
    "people", "core", "app", "custom", "item", "itemProps", "image", "glossary", "charts", "chart",
    "colors", "style", "embeddings", "diagrams", "data", "layout", "quickStyle", "drawing",
    "thumbnail", "fonts", "font", "part", "Contents", "content", "section", "BinData", "bin",
    "Preview", "PrvText", "PrvImage", "META-INF", "container", "manifest", "mimetype", "version",
    "Scripts", "DefaultJScript", "JScriptVersion", "head", "masterpage", "history", "settings",
    "Pictures", "meta", "Thumbnails", "Configurations2", "rels", "vbaData", "vbaProject",
    "customizations", "printerSettings", "activeX", "ink", "links", "userShapes", "Chart",
    "Data", "Object", "Ole10Native", "CompObj")}


def standard_part_name(path: str) -> bool:
    """A ZIP member name made only of standard part names (``word/_rels/document.xml.rels``,
    ``Contents/section0.xml``, ``BinData/image1.png``): the format's own name, never a found value."""
    for comp in path.replace("!/", "/").split("/"):
        base = comp
        while "." in base:
            head, ext = base.rsplit(".", 1)
            if not re.fullmatch(r"[A-Za-z0-9]{1,5}", ext):
                break
            base = head
        if base.startswith(".") or base == "":
            base = base.lstrip(".")
        if re.sub(r"\d+$", "", base).lower() not in _STANDARD_PARTS:
            return False
    return True


# the tool's own part headers (``── Header 1 ──``, ``── 3쪽 ──``) and inline captions (``[Alt text] ``):
# their fixed words are format text; a caption's detail (a comment's author) is still searched
def _caption_patterns() -> re.Pattern:
    from .model import CAPTIONS_EN   # the caption words (data), not a reader

    def words(prefix: str) -> str:
        alts = []
        for t in sorted(set(CAPTIONS_EN.values()), key=len, reverse=True):
            alts.append(re.escape(t).replace(re.escape("{detail}"),
                                             r"(?P<%s%d>[^\n\]]*?)" % (prefix, len(alts))))
        return "|".join(alts)

    return re.compile(r"(?m)^── (?:\d+쪽|(?:%s))(?: \([^\n]*\))? ──$|\[(?:%s)\] ?"
                      % (words("h"), words("c")))


_CAPTIONS: re.Pattern | None = None
_PAGE_CAPTION = re.compile(r"(?m)^\d+쪽: 글자를 읽지 못했습니다\(OCR 신뢰도 낮음\) — 직접 확인하세요")


def strip_captions(text: str) -> str:
    """``text`` with the tool's own part headers and caption words replaced by line breaks (a caption's
    detail, such as a comment author, is kept)."""
    global _CAPTIONS
    if _CAPTIONS is None:
        _CAPTIONS = _caption_patterns()
    if "──" not in text and "[" not in text and "쪽" not in text:
        return text

    def keep(m: re.Match) -> str:
        d = [v for k, v in m.groupdict().items() if v]
        return "\n" + " ".join(d) + "\n"

    return _PAGE_CAPTION.sub("\n", _CAPTIONS.sub(keep, text))


# PDF syntax: what a PDF file is made of besides its content
_PDF_KEYWORDS = {
    "obj", "endobj", "stream", "endstream", "xref", "trailer", "startxref", "true", "false", "null",
    "R", "n", "f", "BT", "ET", "Tf", "Tj", "TJ", "Td", "TD", "Tm", "T*", "'", '"', "Tc", "Tw", "Tz",
    "TL", "Tr", "Ts", "cm", "q", "Q", "re", "S", "s", "B", "B*", "b", "b*", "W", "W*", "m", "l", "c",
    "v", "y", "h", "gs", "Do", "BI", "ID", "EI", "BDC", "BMC", "EMC", "MP", "DP", "sc", "scn", "SC",
    "SCN", "g", "G", "rg", "RG", "k", "K", "cs", "CS", "d", "w", "J", "j", "M", "i", "ri", "sh",
    "d0", "d1", "BX", "EX", "f*", "F", "begin", "end", "def", "dict", "findresource", "defineresource",
    "pop", "currentdict", "begincmap", "endcmap", "begincodespacerange", "endcodespacerange",
    "beginbfchar", "endbfchar", "beginbfrange", "endbfrange", "begincidrange", "endcidrange",
    "usecmap", "CMapName", "exch", "known", "not", "ifelse", "if"}
_PDF_TOKEN = re.compile(rb"""
    (?P<comment>%[^\r\n]*)
  | (?P<str>\((?:[^()\\]|\\.|\((?:[^()\\]|\\.)*\))*\))
  | (?P<hex><[0-9A-Fa-f\s]*>)
  | (?P<dict><<|>>)
  | (?P<name>/[^\s/\[\]()<>{}%]*)
  | (?P<num>[-+]?(?:\d+\.?\d*|\.\d+))(?![\w.])
  | (?P<word>[^\s/\[\]()<>{}%]+)
  | (?P<other>[\[\]{}\s]+|[()<>])
""", re.X | re.S)
_PDF_ESC = re.compile(rb"\\(?:([0-7]{1,3})|(.))", re.S)
_PDF_ESC_MAP = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f", b"\n": b"", b"\r": b""}


def _pdf_string(raw: bytes) -> list[str]:
    """Readings of a PDF string's bytes: UTF-16BE (with its BOM), else Latin-1 / PDFDoc, UTF-8, CP949."""
    if raw[:2] == b"\xfe\xff":
        return [raw[2:].decode("utf-16-be", "replace")]
    if raw[:3] == b"\xef\xbb\xbf":
        return [raw[3:].decode("utf-8", "replace")]
    out = [raw.decode("latin-1")]
    if not raw.isascii():
        for enc in ("utf-8", "cp949"):
            try:
                out.append(raw.decode(enc))
            except UnicodeDecodeError:
                pass
    return out


def pdf_syntax_view(data: bytes) -> str:
    """What a PDF body holds besides its syntax: every string (unescaped, decoded), comments other than
    the header/EOF markers, names holding ``#xx`` escapes or a 5-digit run, numbers of 7+ digits, and
    any word that is not a PDF keyword or operator. Each on its own line; tokens of syntax between
    them break a match (``\x00``), so coordinates or offsets next to each other never join into a
    found value."""
    out: list[str] = []
    for m in _PDF_TOKEN.finditer(data):
        kind = m.lastgroup
        tok = m.group()
        if kind == "str":
            body = _PDF_ESC.sub(lambda e: bytes([int(e.group(1), 8) & 0xFF]) if e.group(1)
                                else _PDF_ESC_MAP.get(e.group(2), e.group(2)), tok[1:-1])
            out.extend(_pdf_string(body))
        elif kind == "hex":
            h = re.sub(rb"\s", b"", tok[1:-1])
            try:
                out.extend(_pdf_string(bytes.fromhex((h + b"0" * (len(h) % 2)).decode())))
            except ValueError:
                out.append(tok.decode("latin-1"))
        elif kind == "comment":
            t = tok.decode("latin-1")
            header = re.match(r"^%(?:PDF-\d\.\d|%EOF|FDF-\d\.\d)?\s*$", t)
            if not header and not (len(t) <= 8 and not t[1:].isascii()):   # nor the binary marker
                out.append(t[1:])
        elif kind == "name":
            if b"#" in tok:
                name = re.sub(rb"#([0-9A-Fa-f]{2})", lambda e: bytes([int(e.group(1), 16)]), tok[1:])
                out.extend(_pdf_string(name))
            elif re.search(rb"\d{5,}", tok) or not tok.isascii():
                out.append(tok[1:].decode("latin-1"))
            else:
                out.append("\x00")
        elif kind == "num":
            if len(re.sub(rb"\D", b"", tok)) >= 7:
                out.append(tok.decode("latin-1"))
            out.append("\x00")
        elif kind == "word":
            t = tok.decode("latin-1")
            if t not in _PDF_KEYWORDS:
                out.append(t)
            out.append("\x00")
        else:
            out.append("\x00")
    return "\n".join(x for x in out if x)


def _xml_views(text: str) -> list[tuple[str, str]]:
    text = _ELEMENT_FORMAT_TEXT.sub("><", text) if "/" in text else text
    t = _BETWEEN_TAGS_WS.sub("><", text)
    t = _SPECIAL.sub(lambda m: "\n" + _special(m) + "\n", t)
    t = _PARA_END.sub("\n", t)
    views = [("text", _TAG.sub("", t)),
             ("attributes", "\n".join(a or b for n, a, b in _ATTR_NV.findall(text)
                                       if not _format_value(n, a or b)))]
    specials = [_special(m) for m in _SPECIAL.finditer(text)]
    if any(s.strip() for s in specials):
        views.append(("comments/PI/CDATA", "\n".join(specials)))
    names = _personal_names(text)
    if names:
        views.append(("names", names))
    if "sym" in text and _SYM.search(text):
        # Word draws a w:sym's character code: the text with each symbol as the character it shows
        views.append(("symbols", _TAG.sub("", _SYM.sub(lambda m: _sym_char(m.group(1)), t))))
    return views


def _special(m: re.Match) -> str:
    return m.group(1) or m.group(2) or m.group(3) or m.group(4) or ""


_NAME_IN_TAG = re.compile(r"""<[/?]?([^\s<>/="'!?]+)|\s([^\s<>/="']+)\s*=\s*["']""")


def _personal_names(text: str) -> str:
    """Element, attribute and prefix names that could be text (``<acct:정하람/>``, ``x950822-2419075=``):
    non-ASCII, or five digits in a row once ``-._`` are dropped. The formats' own names never are."""
    out = []
    for m in _NAME_IN_TAG.finditer(text):
        n = m.group(1) or m.group(2)
        if not n.isascii() or re.search(r"\d{5,}", re.sub(r"[-._]", "", n)):
            out.append(n)
    return "\n".join(out)


_SYM = re.compile(r"<(?:[A-Za-z_][\w.-]*:)?sym\b[^>]*?\bchar=[\"']([0-9A-Fa-f]{1,6})[\"'][^>]*>")


def _sym_char(code: str) -> str:
    cp = int(code, 16)
    return chr(cp) if 0x20 <= cp < 0x110000 and not 0xD800 <= cp <= 0xDFFF else ""


def _search(matcher: ValueMatcher, text: str) -> int | None:
    """Offset of the first match in ``text``, searched in overlapping windows (bounded memory)."""
    if len(text) <= WINDOW_CHARS:
        hit = matcher.search(text)
        return None if hit is None else hit[0]
    step = WINDOW_CHARS - WINDOW_OVERLAP
    for a in range(0, len(text), step):
        hit = matcher.search(text[a:a + WINDOW_CHARS])
        if hit is not None:
            return a + hit[0]
    return None


def _scan_text(name: str, text: str, matcher: ValueMatcher, rep: LeakReport, xml: bool) -> None:
    """Search ``text``; XML is searched as its character data (tags stripped, comment/PI/CDATA content
    kept), its attribute values (namespace URIs but those the formats define), its comments/PIs/CDATA/
    declarations and the names that could be text (not the rest of the markup: the formats' own tag
    names and namespace URIs would only give false alarms); every view also with its escapes undone."""
    if xml and text.lstrip("\ufeff \r\n\t").startswith("<"):
        views = _xml_views(text)
    else:
        views = [("raw", text)]
    for vname, v in views:
        v = html.unescape(v) if "&" in v else v
        for sub, s in [("", v)] + [(f" {k}", u) for k, u in _unescaped(v)]:
            rep.scanned.append(f"{name} {vname}{sub}")
            hit = _search(matcher, s)
            if hit is not None:
                rep.hits.append(f"{name} ({vname}{sub}, character {hit})")
                return


_UTF8_RUN = re.compile(rb"(?:[\t\n\r\x20-\x7e]|[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}"
                       rb"|[\xf0-\xf4][\x80-\xbf]{3}){3,}")


def scan_bytes(name: str, data: bytes, matcher: ValueMatcher, rep: LeakReport,
               xml: bool = False, captions: bool = False) -> None:
    """Search ``data`` in every plausible decoding; binary data (not text in any decoding) is searched
    through the text runs inside it (UTF-8, UTF-16, CP949) — or, for a picture, its metadata — so that
    megabytes of compressed pixels are not normalised and searched as if they were text."""
    before = len(rep.hits)
    views = _decodings(data)
    binary = len(views) == 1 and not plausible_text(views[0][1][:200_000])
    if not binary:
        for enc, text in views:
            if captions:   # the tool's own part headers and caption words (text outputs)
                text = strip_captions(text)
            _scan_text(f"{name} [{enc}]", text, matcher, rep, xml)
            if len(rep.hits) > before:
                return
        return
    del views
    if _is_image(data):
        for i, meta in enumerate(_image_metadata(data)):
            scan_bytes(f"{name} (picture metadata {i})", meta, matcher, rep)
            if len(rep.hits) > before:
                return
        return
    runs = [("utf-8 runs", "\n".join(m.group().decode("utf-8", "replace")
                                     for m in _UTF8_RUN.finditer(data)))] + binary_text_runs(data)
    for enc, text in runs:
        _scan_text(f"{name} [{enc}]", text, matcher, rep, False)
        if len(rep.hits) > before:
            return


def check_text_bytes(data: bytes, matcher: ValueMatcher) -> LeakReport:
    rep = LeakReport()
    if len(data) > MAX_SCAN_BYTES:
        rep.hits.append("output: too large to verify")
        return rep
    scan_bytes("text", data, matcher, rep, captions=True)
    if rep.clean and b"<" in data:  # markup in a text file: also read as HTML/XML (tags split values)
        scan_bytes("text as markup", data, matcher, rep, xml=True, captions=True)
    return rep


def check_zip_bytes(data: bytes, matcher: ValueMatcher) -> LeakReport:
    """Every member (nested ZIPs too), its name, comment and extra field, and the archive comment."""
    import io
    import zipfile

    from . import safezip

    rep = LeakReport()
    if len(data) > MAX_SCAN_BYTES:
        rep.hits.append("output: too large to verify")
        return rep
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        rep.hits.append(f"output: cannot be re-read as ZIP ({e})")
        return rep
    if zf.comment:
        scan_bytes("(zip comment)", zf.comment, matcher, rep)
    for info in infos:
        if info.comment:
            scan_bytes(info.filename + " (member comment)", info.comment, matcher, rep)
        if info.extra:
            scan_bytes(info.filename + " (extra field)", info.extra, matcher, rep)
    # what a ZIP tool shows besides the central directory: local header names and extra fields (they
    # may differ from the directory's), and any bytes between members or before the directory
    covered = []
    for info in infos:
        h = info.header_offset
        if data[h:h + 4] != b"PK\x03\x04" or h + 30 > len(data):
            rep.hits.append(f"{info.filename}: local header cannot be re-read")
            continue
        n, e = struct.unpack("<HH", data[h + 26:h + 30])
        local = data[h + 30:h + 30 + n + e]
        if local and local[:n] == info.filename.encode("utf-8", "replace") and standard_part_name(
                info.filename):
            local = local[n:]   # the standard name as in the directory: the format's own
        if local:
            scan_bytes(info.filename + " (local header)", local, matcher, rep)
        covered.append((h, h + 30 + n + e + info.compress_size))
    covered.sort()
    pos, gaps = 0, []
    for a, b in covered:
        if a > pos:
            gaps.append(data[pos:a])
        pos = max(pos, b)
    if pos < len(data):
        gaps.append(data[pos:])   # data descriptors, the central directory, anything appended
    gap = b"\n".join(gaps)
    for info in infos:   # the central directory's copies of standard part names: the format's own
        if gap and standard_part_name(info.filename):
            gap = gap.replace(info.filename.encode("utf-8", "replace"), b"\n")
    if gap:
        scan_bytes("(between members / directory)", gap, matcher, rep)
    try:
        for path, member in _members(data, safezip):
            if not standard_part_name(path):
                scan_bytes(path + " (name)", path.encode("utf-8"), matcher, rep)
            if path.rsplit("!/", 1)[-1] == "mimetype" and _MIME_VALUE.match(
                    member[:200].decode("latin-1")) and len(member) < 200:
                rep.scanned.append(f"{path} (a MIME type: the format's own)")
                continue
            scan_bytes(path, member, matcher, rep, xml=True)
    except DocumentError as e:  # over a limit, damaged, encrypted: not verified = not clean
        rep.hits.append(f"output: cannot be verified ({e})")
    except MemoryError:
        rep.hits.append("output: cannot be verified (out of memory)")
    return rep


def _members(data: bytes, safezip):
    """``safezip.iter_members`` (streamed, budgeted, nested); a plain bounded loop if it is missing."""
    if hasattr(safezip, "iter_members"):
        yield from safezip.iter_members(data, "output", nested=True)
        return
    import io
    import zipfile

    def walk(d: bytes, prefix: str, depth: int):
        zf = zipfile.ZipFile(io.BytesIO(d))
        if sum(i.file_size for i in zf.infolist()) > MAX_SCAN_BYTES:
            raise DocumentError("too large to verify")
        for i in zf.infolist():
            m = zf.read(i)
            yield prefix + i.filename, m
            if m[:4] == b"PK\x03\x04" and depth < 2:
                yield from walk(m, prefix + i.filename + "!/", depth + 1)

    try:
        yield from walk(data, "", 0)
    except (zipfile.BadZipFile, zlib.error, OSError, ValueError, EOFError, NotImplementedError) as e:
        raise DocumentError(f"cannot be re-read ({e})") from None


def _pdf_streams(data: bytes) -> list[bytes]:
    out = []
    total = 0
    for m in _STREAM.finditer(data):
        if b"/DCTDecode" in data[max(0, m.start() - 512):m.start()]:
            continue  # JPEG image data
        d = zlib.decompressobj()
        try:
            s = d.decompress(data[m.end():m.end() + MAX_STREAM], MAX_STREAM)
        except zlib.error:
            continue
        total += len(s)
        if total > MAX_PDF_INFLATED:
            raise DocumentError("the PDF streams inflate to more than the verification limit")
        out.append(s)
    return out


def _scan_pdf_stream(name: str, s: bytes, matcher: ValueMatcher, rep: LeakReport) -> None:
    """An inflated PDF stream: XML (XMP metadata) as XML; PDF syntax (page content, CMaps, object
    streams) without its operators/keywords/names/numbers; anything else as binary."""
    head = s[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:1] == b"<" and head[:2] != b"<<" and (head[:5] == b"<?xpa" or head[:5] == b"<?xml"
                                                  or re.match(rb"<[A-Za-z_]", head)):
        scan_bytes(name, s, matcher, rep, xml=True)
        return
    sample = s[:200_000].decode("latin-1")
    if _UNEXPECTED.subn("", sample)[1] <= 0.05 * max(1, len(sample)):   # PDF syntax is ASCII
        _scan_text(name, pdf_syntax_view(s), matcher, rep, xml=False)
        for enc, text in binary_text_runs(s):
            _scan_text(f"{name} [{enc}]", text, matcher, rep, xml=False)
        return
    scan_bytes(name, s, matcher, rep)


def check_image_bytes(data: bytes, matcher: ValueMatcher) -> LeakReport:
    """Images (PNG/JPEG/TIFF written by ``image.write_image``): the bytes as any binary (metadata, text
    chunks), and what OCR reads on every page of the written file — a masked value still recognisable
    there is a leak (compared separator-tolerantly, and squashed: without spaces and punctuation)."""
    from . import ocr
    from .image import _open_frames

    rep = LeakReport()
    if len(data) > MAX_SCAN_BYTES:
        rep.hits.append("output: too large to verify")
        return rep
    scan_bytes("image", data, matcher, rep)
    try:
        frames = _open_frames(data, "output")
    except DocumentError as e:
        rep.hits.append(f"output: cannot be verified ({e})")
        return rep
    for i, frame in enumerate(frames):
        text = ocr.ocr_image(frame).text
        _scan_text(f"page {i + 1} (OCR)", text, matcher, rep, xml=False)
        if ocr.recognisable(matcher.cores, text):
            rep.hits.append(f"page {i + 1} (OCR): a masked value is still readable")
    return rep


def check_package_pictures(data: bytes, matcher: ValueMatcher) -> LeakReport:
    """OCR of every raster picture of a written DOCX/HWPX (ZIP) or HWP 5 (compound file) — for documents
    whose pictures' text was reviewed and burned (``pictures.publish_picture``): members/streams found by
    their magic bytes (not by the writer's bookkeeping, which may rename them; HWP ``BinData`` inflated as
    the HWP check does), every frame decoded and read again at every size the reader reads it; a masked
    value still recognisable there is a leak."""
    rep = LeakReport()
    try:
        blobs = list(_package_blobs(data))
    except Exception as e:  # noqa: BLE001 - an output we cannot re-read is not verified: fail closed
        rep.hits.append(f"output: pictures cannot be re-read ({type(e).__name__})")
        return rep
    k = 0
    for name, raw in blobs:
        if raw is None:
            rep.hits.append(f"{name}: too large to verify")
            continue
        if not (raw.startswith((b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"II*\x00", b"MM\x00*"))
                or (raw[:2] == b"BM" and len(raw) > 26) or (raw[:4] == b"RIFF" and raw[8:12] == b"WEBP")):
            continue
        k += 1
        _ocr_picture(f"picture {k}", raw, matcher, rep)
    return rep


def _package_blobs(data: bytes):
    """``(name, bytes)`` of every ZIP member, or of every stream of a compound file (inflated when it
    inflates); bytes None for one over the scan bound."""
    import io
    import zipfile

    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        import olefile

        from .leakcheck_hwp import _inflate

        ole = olefile.OleFileIO(io.BytesIO(data))
        try:
            for entry in ole.listdir(streams=True, storages=False):
                raw = ole.openstream(entry).read()
                inflated = _inflate(raw)
                yield "/".join(entry), (raw if inflated is None else inflated or None)
        finally:
            ole.close()
        return
    zf = zipfile.ZipFile(io.BytesIO(data))
    for info in zf.infolist():
        yield info.filename, (None if info.file_size > MAX_SCAN_BYTES else zf.read(info))


def _ocr_picture(place: str, raw: bytes, matcher: ValueMatcher, rep: LeakReport) -> None:
    import io

    from PIL import Image, ImageSequence

    from . import ocr
    from .pictures import ocr_readings

    try:
        im = Image.open(io.BytesIO(raw))
        frames = [f.copy() for f in ImageSequence.Iterator(im)]
    except Exception as e:  # noqa: BLE001 - a picture we wrote that does not decode: cannot verify
        rep.hits.append(f"{place}: cannot be verified ({type(e).__name__})")
        return
    for i, frame in enumerate(frames):
        text = "\n".join(page.text for page in ocr_readings(frame))   # every size the reader reads
        where = place + (f" frame {i + 1}" if len(frames) > 1 else "") + " (OCR)"
        rep.scanned.append(where)
        _scan_text(where, text, matcher, rep, xml=False)
        if ocr.recognisable(matcher.cores, text):
            rep.hits.append(f"{where}: a masked value is still readable")


def check_pdf_ocr(data: bytes, matcher: ValueMatcher, pages: list[int]) -> LeakReport:
    """OCR of the given (0-based) pages of a written PDF, rendered at the resolution they were written at:
    for pages that were OCR'd when read (scans), whose masked values only OCR can look for."""
    from . import ocr
    from .pdf import OCR_DPI, OCR_MAX_PIXELS, PDFIUM_LOCK, _open, _render_scale

    rep = LeakReport()
    with PDFIUM_LOCK:
        pdf = _open(data)
        try:
            images = []
            for i in pages:
                if i >= len(pdf):
                    rep.hits.append(f"page {i + 1}: missing in the output")
                    continue
                page = pdf[i]
                try:
                    w, h = page.get_size()
                    bitmap = page.render(scale=_render_scale(w, h, OCR_DPI, OCR_MAX_PIXELS))
                    images.append((i, bitmap.to_pil().convert("RGB")))   # colour views (seals) as read
                    bitmap.close()
                finally:
                    page.close()
        finally:
            pdf.close()
    for i, img in images:
        text = ocr.ocr_image(img).text
        rep.scanned.append(f"page {i + 1} (OCR)")
        _scan_text(f"page {i + 1} (OCR)", text, matcher, rep, xml=False)
        if ocr.recognisable(matcher.cores, text):
            rep.hits.append(f"page {i + 1} (OCR): a masked value is still readable")
    return rep


def check_pdf_bytes(data: bytes, matcher: ValueMatcher) -> LeakReport:
    rep = LeakReport()
    if len(data) > MAX_SCAN_BYTES:
        rep.hits.append("output: too large to verify")
        return rep
    # the PDF structure (objects, strings, metadata) without stream payloads (image data is binary),
    # read without its syntax (header, keywords, plain names, numbers: ``pdf_syntax_view``)
    structure = _STREAM_BODY.sub(b"stream endstream", data)
    _scan_text("pdf objects", pdf_syntax_view(structure), matcher, rep, xml=False)
    for enc, text in binary_text_runs(structure):   # UTF-16/CP949 text outside strings
        _scan_text(f"pdf objects [{enc}]", text, matcher, rep, xml=False)
    try:
        for i, s in enumerate(_pdf_streams(data)):
            _scan_pdf_stream(f"pdf stream {i}", s, matcher, rep)
    except DocumentError as e:
        rep.hits.append(f"output: cannot be verified ({e})")
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
                _scan_text(f"page {i + 1} text layer", strip_captions(tp.get_text_range(0, n)), matcher,
                           rep, False)
            tp.close()
            page.close()
    finally:
        pdf.close()


def check_eml_bytes(data: bytes, matcher: ValueMatcher) -> LeakReport:
    """A mail output (``.eml``), read as a recipient's mail program reads it — through the standard
    library's parser (``email``, not the tool's own mail reader): the raw bytes as text, every header
    decoded (RFC 2047, by ``email.header`` and by ``policy.default``), every part's body after its
    transfer encoding (quoted-printable, base64) in its charset and as bytes. A message the parser finds
    damaged, or one that holds a part that is not text (an attachment), fails closed."""
    import email
    import email.header
    import email.policy

    rep = LeakReport()
    if len(data) > MAX_SCAN_BYTES:
        rep.hits.append("output: too large to verify")
        return rep
    scan_bytes("mail (raw)", data, matcher, rep, captions=True)
    if not rep.clean:
        return rep
    try:
        msg = email.message_from_bytes(data, policy=email.policy.default)
        old = email.message_from_bytes(data, policy=email.policy.compat32)
    except Exception as e:  # noqa: BLE001 - anything the parser cannot read is not verified: fail closed
        rep.hits.append(f"mail: cannot be parsed ({type(e).__name__})")
        return rep
    headers = []
    for name, raw in old.raw_items():
        try:
            headers.append((name, str(email.header.make_header(email.header.decode_header(raw)))))
        except Exception:  # noqa: BLE001 - an undecodable header: fail closed
            rep.hits.append(f"mail header {name}: cannot be decoded")
            return rep
    try:
        headers += [(name, str(value)) for name, value in msg.items()]
    except Exception as e:  # noqa: BLE001
        rep.hits.append(f"mail headers: cannot be decoded ({type(e).__name__})")
        return rep
    for name, value in headers:
        _scan_text(f"mail header {name}", value, matcher, rep, False)
        if not rep.clean:
            return rep
    for i, part in enumerate(msg.walk()):
        where = f"mail part {i} ({part.get_content_type()})"
        if part.defects:
            rep.hits.append(f"{where}: damaged ({type(part.defects[0]).__name__})")
            return rep
        if part.is_multipart():
            continue
        body = part.get_payload(decode=True) or b""
        scan_bytes(f"{where} bytes", body, matcher, rep, captions=True)
        if not rep.clean:
            return rep
        if part.get_content_maintype() != "text":
            rep.hits.append(f"{where}: a part that is not text (an attachment) is in the output")
            return rep
        try:
            text = part.get_content()
        except Exception as e:  # noqa: BLE001 - a charset the parser cannot decode: fail closed
            rep.hits.append(f"{where}: cannot be decoded ({type(e).__name__})")
            return rep
        _scan_text(f"{where} text", strip_captions(text), matcher, rep, False)
        if not rep.clean:
            return rep
        if "<" in text:
            _scan_text(f"{where} as markup", strip_captions(text), matcher, rep, True)
            if not rep.clean:
                return rep
    return rep
