"""A second opinion on every export (issue 26): detection run again over every text view of the OUTPUT,
so a value the reviewer's detector missed — and the fail-closed leak check therefore never looked for —
can still be caught. No Qt.

The views are read here from the output bytes by a path of their own (not the readers'): a text output as
text; every XML member of a DOCX/HWPX package as the text of its elements and, separately, the values of
its attributes and what its markup holds (unknown namespace URIs, comments, PIs, declarations, names);
plain-text members (``Preview/PrvText.txt``); the paragraph-text records of every HWP section and the other
HWP streams' UTF-16 text; a mail output (``.eml``) through the standard library's mail parser (shown
headers and text bodies decoded, visible; other headers and non-text parts hidden). Rasterised outputs (PDF, images) carry no text: their
scanned pages are read again by OCR in the leak check.

Each view is *visible* (a reader of the output sees it as the document's text: body, headers, footers,
notes, comments) or *hidden* (metadata, settings, custom XML, attribute values, previews). Findings:

- **blocking** (the export fails closed, *needs review*, naming the place): in a hidden view, a validated
  personal identifier (``RuleDetector``; ``BLOCKING_RULE_LABELS``: phone, RRN, card, account, e-mail, …), a digit run that reads
  as an RRN (13 digits), a mobile number (01x + 8 digits) or a card (16 digits) with or without
  separators, or a model finding of PERSON / ADDRESS / ORGANIZATION at or above ``HIDDEN_MIN_SCORE``
  — in element text; in attribute values only an e-mail or a phone/RRN written with separators (a
  package's attributes are full of numeric codes, and font and style names are too often read as names);
- **possible misses** (listed in the export summary and the report, not blocking): findings in visible
  views at or above ``VISIBLE_MIN_SCORE`` (a low threshold) — the reviewer saw that text and decided.

A finding that is one of the output's own replacement texts (``[인명]``, ``인물1``) is ignored. Places are
named (member / stream and label), never the value.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Callable, Iterable

from .errors import DocumentError

HIDDEN_MIN_SCORE = 0.5
VISIBLE_MIN_SCORE = 0.3
MAX_VIEW_CHARS = 2_000_000
MODEL_LABELS = frozenset({"PERSON", "ADDRESS", "ORGANIZATION"})
#: structured identifiers that block in a hidden view: personal numbers and addresses of a person. URLs,
#: postal codes, document/case numbers and the like are left out: a package's own structure is full of
#: schema URLs and numbers (the false alarms of issue 26 class 6)
BLOCKING_RULE_LABELS = frozenset({"PHONE", "RRN", "FOREIGNER_RN", "EMAIL", "CARD", "ACCOUNT", "PASSPORT",
                                  "DRIVER_LICENSE", "HEALTH_INSURANCE", "MEDICAL_ID"})

_RUN_TEXT = frozenset({"t", "delText", "instrText", "char"})
_ATTRIBUTE_LABELS = frozenset({"EMAIL", "PHONE", "RRN", "FOREIGNER_RN"})
#: digit runs that need no separator or check digit
_DIGITS = re.compile(r"(?<![0-9])(?:[0-9][ .\-]?){9,19}[0-9](?![0-9])")
_VISIBLE_MEMBERS = re.compile(
    r"^(?:word/(?:document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml"
    r"|Contents/(?:section\d+|header\d*|footer\d*)\.xml)$")


@dataclass(frozen=True)
class View:
    place: str
    text: str
    visible: bool
    attributes: bool = False


@dataclass(frozen=True)
class Finding:
    place: str
    label: str
    visible: bool
    score: float
    how: str          # "rule", "model" or "digits"


def _digit_kind(run: str) -> str | None:
    d = re.sub(r"[^0-9]", "", run)
    if len(d) == 13 and d[6] in "12345678":
        return "RRN"
    if len(d) in (10, 11) and d.startswith("01"):
        return "PHONE"
    if len(d) == 16:
        return "CARD"
    return None


def _xml_views(name: str, data: bytes) -> list[View]:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, recover=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return [View(name, data.decode("utf-8", "replace")[:MAX_VIEW_CHARS], False)]
    if root is None:
        return []
    texts, attrs = [], []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        local = el.tag.rsplit("}", 1)[-1]
        if el.text:
            # runs of one paragraph (w:t, a:t, hp:t) join as written; any other element's text is a value
            # of its own (a chart cache point, a formula reference): kept apart, never glued to its neighbour
            texts.append(el.text if local in _RUN_TEXT else f"\n{el.text}\n")
        if local in ("p", "tc", "br", "tab", "cr", "t") and texts and not texts[-1].endswith("\n"):
            texts.append("\n" if local != "t" else "")
        for v in el.attrib.values():
            if v.strip():
                attrs.append(v)
        if el.tail and el.getparent() is not None:
            texts.append(el.tail)
    visible = bool(_VISIBLE_MEMBERS.match(name))
    return [View(name, "".join(texts)[:MAX_VIEW_CHARS], visible),
            View(name + " (attributes)", "\n".join(attrs)[:MAX_VIEW_CHARS], False, attributes=True),
            _markup_view(name, data.decode("utf-8", "replace"))]


_NS_DECL = re.compile(r"""\sxmlns(?::[^\s=]+)?\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_HIDDEN_MARKUP = re.compile(r"<!--(.*?)-->|<\?(?!xml[\s?])(.*?)\?>|<!(?!--|\[CDATA\[)([^<>]*)", re.S)


def _markup_view(name: str, text: str) -> View:
    """What the markup itself holds (issue 26, class 2), a hidden view: namespace URIs the formats do not
    define, comments, processing instructions, DOCTYPE/ENTITY declarations, names that could be text
    (``<acct:정하람/>``). The writers leave none of these in an output, so anything here is a miss."""
    from .leakcheck import _personal_names
    from .namespaces import known_namespace

    found = [a or b for a, b in _NS_DECL.findall(text) if not known_namespace(a or b)]
    found += [x or y or z for x, y, z in _HIDDEN_MARKUP.findall(text)]
    found.append(_personal_names(text))
    return View(name + " (markup)", "\n".join(f for f in found if f.strip())[:MAX_VIEW_CHARS], False)


def _zip_views(data: bytes) -> list[View]:
    from .safezip import iter_members

    out: list[View] = []
    for name, payload in iter_members(data, "output", nested=True):
        head = payload[:64].lstrip()
        if name.lower().endswith((".xml", ".rels", ".hpf")) or head.startswith(b"<"):
            out += _xml_views(name, payload)
        elif name.lower().endswith(".txt"):
            out.append(View(name, _decode_text(payload)[:MAX_VIEW_CHARS], _is_preview_text(name)))
    return out


def _hwp_views(data: bytes) -> list[View]:
    import olefile

    from .leakcheck_hwp import _inflate, _para_text, _records

    out: list[View] = []
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except (OSError, ValueError) as e:
        raise DocumentError(f"the HWP output cannot be re-read ({e})") from None
    with ole:
        for parts in ole.listdir(streams=True, storages=False):
            name = "/".join(parts)
            raw = ole.openstream(parts).read()
            content = _inflate(raw)
            stream = content if isinstance(content, bytes) else raw
            recs = _records(stream)
            if recs is not None and name.startswith(("BodyText/", "DocInfo")):
                text = "\n".join(_para_text(p) for tag, p in recs if tag == 0x43)
                out.append(View(name, text[:MAX_VIEW_CHARS], name.startswith("BodyText/")))
            else:
                out.append(View(name, _hwp_stream_text(name, stream)[:MAX_VIEW_CHARS], _is_preview_text(name)))
    return out


#: an HWP 5 FileHeader (HWP 5.0 spec, "FileHeader"): a 32-byte signature, then version and property words
_HWP_SIGNATURE = b"HWP Document File".ljust(32, b"\0")
_PICTURE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"II*\x00", b"MM\x00*")


def _hwp_stream_text(name: str, stream: bytes) -> str:
    """The text an HWP stream can hold, read by its own format where the format is known — its bytes as
    UTF-16 would turn format bytes into CJK 'words' the model takes for names (red team 8: the FileHeader's
    signature and a PNG's compressed pixels as PERSON, holding every HWP file): the FileHeader after its
    signature and version/property words; a picture (by its magic bytes, any stream) its metadata text
    only (its pixels are read again by OCR in the leak check); a property set (``HwpSummaryInformation``)
    its string values. Anything else, or a known format that does not parse, as UTF-16 (default deny)."""
    if name == "FileHeader" and stream.startswith(_HWP_SIGNATURE):
        return stream[40:].decode("utf-16-le", "ignore").replace("\0", "")
    if stream.startswith(_PICTURE_MAGIC) or (stream[:2] == b"BM" and len(stream) > 26):
        text = _picture_metadata_text(stream)
        if text is not None:
            return text
    if stream[:4] == b"\xfe\xff\x00\x00":           # MS-OLEPS PropertySetStream (byte order 0xFFFE)
        text = _property_set_strings(stream)
        if text is not None:
            return text
    return stream.decode("utf-16-le", "ignore")


def _printable_runs(data: bytes) -> str:
    """Text runs of a metadata payload: UTF-8 where it decodes; runs of 4+ printable characters kept, or of
    2+ holding Hangul (a name is 2-3 syllables)."""
    text = data.decode("utf-8", "replace")
    return "\n".join(m.group(0) for m in re.finditer(r"[^\x00-\x1f\ufffd]{2,}", text)
                     if len(m.group(0)) >= 4 or re.search("[\uac00-\ud7a3]", m.group(0)))


def _picture_metadata_text(data: bytes) -> str | None:
    """Every byte of a PNG / JPEG / GIF / TIFF / BMP that is not pixels, as text: PNG chunks other than
    IHDR/PLTE/IDAT/IEND/tRNS (zTXt/iTXt inflated), JPEG APPn/COM segments and bytes after EOI, GIF
    extensions other than graphic control, and anything after a BMP's pixel array; TIFF: None (the whole
    file is read as UTF-16, as before). None when the structure does not parse."""
    import zlib

    parts: list[bytes] = []
    try:
        if data.startswith(b"\x89PNG"):
            i = 8
            while i + 8 <= len(data):
                n = int.from_bytes(data[i:i + 4], "big")
                kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
                i += 12 + n
                if kind in (b"IHDR", b"PLTE", b"IDAT", b"tRNS"):
                    continue
                if kind == b"IEND":
                    parts.append(data[i:])
                    break
                if kind == b"zTXt" and b"\0" in body:
                    key, rest = body.split(b"\0", 1)
                    body = key + b" " + zlib.decompressobj().decompress(rest[1:], 1 << 20)
                elif kind == b"iTXt" and body.count(b"\0") >= 3 and body.split(b"\0", 2)[1][:1] == b"\x01":
                    key, _flags, rest = body.split(b"\0", 2)
                    lang, tkey, txt = rest[1:].split(b"\0", 2)
                    body = b" ".join((key, lang, tkey, zlib.decompressobj().decompress(txt, 1 << 20)))
                parts.append(body)
            else:
                return None
        elif data.startswith(b"\xff\xd8"):
            i = 2
            while i + 2 <= len(data):
                if data[i] != 0xFF:
                    return None
                marker = data[i + 1]
                if marker == 0xD9:
                    parts.append(data[i + 2:])
                    break
                if marker in (0x01, *range(0xD0, 0xD8)):
                    i += 2
                    continue
                n = int.from_bytes(data[i + 2:i + 4], "big")
                seg = data[i + 4:i + 2 + n]
                if (0xE0 <= marker <= 0xEF or marker == 0xFE) and not (marker == 0xE0 and seg[:5] == b"JFIF\0"
                                                                   and len(seg) <= 16):
                    parts.append(seg)      # a bare JFIF header (version, density, no thumbnail) holds no text
                i += 2 + n
                if marker == 0xDA:                 # scan data: to the next marker that is not RST/stuffing
                    m = re.compile(rb"\xff[^\x00\xd0-\xd7]").search(data, i)
                    if m is None:
                        return None
                    i = m.start()
            else:
                return None
        elif data.startswith(b"GIF8"):
            return _printable_runs(data[13:].replace(b"\x00", b" ")) if len(data) > 13 else ""
        elif data[:2] == b"BM":
            off = int.from_bytes(data[10:14], "little")
            w, h = int.from_bytes(data[18:22], "little", signed=True), int.from_bytes(data[22:26], "little", signed=True)
            bpp = int.from_bytes(data[28:30], "little")
            row = ((abs(w) * max(bpp, 1) + 31) // 32) * 4
            parts.append(data[14:min(off, len(data))][40:])    # palette etc. past the info header
            parts.append(data[off + row * abs(h):])
        else:
            return None
    except (ValueError, IndexError, zlib.error):
        return None
    return "\n".join(_printable_runs(p) for p in parts if p)


def _property_set_strings(data: bytes) -> str | None:
    """The string values (VT_LPSTR as CP949/UTF-8, VT_LPWSTR as UTF-16) of an MS-OLEPS property set's
    first section, and its dictionary's names; None when it does not parse."""
    try:
        if int.from_bytes(data[24:28], "little") < 1:
            return None
        sec = int.from_bytes(data[44:48], "little")
        count = int.from_bytes(data[sec + 4:sec + 8], "little")
        if count > 10_000:
            return None
        out = []
        for k in range(count):
            pid = int.from_bytes(data[sec + 8 + 8 * k:sec + 12 + 8 * k], "little")
            at = sec + int.from_bytes(data[sec + 12 + 8 * k:sec + 16 + 8 * k], "little")
            vt = int.from_bytes(data[at:at + 2], "little")
            n = int.from_bytes(data[at + 4:at + 8], "little")
            if pid == 0:                                      # dictionary: (id, length, name) entries
                j = at + 4
                for _ in range(min(int.from_bytes(data[at:at + 4], "little"), 10_000)):
                    ln = int.from_bytes(data[j + 4:j + 8], "little")
                    out.append(data[j + 8:j + 8 + 2 * ln].decode("utf-16-le", "ignore"))
                    out.append(data[j + 8:j + 8 + ln].decode("cp949", "ignore"))
                    j += 8 + 2 * ln
            elif vt == 0x1F:
                out.append(data[at + 8:at + 8 + 2 * n].decode("utf-16-le", "ignore"))
            elif vt == 0x1E:
                raw = data[at + 8:at + 8 + n]
                out.append(raw.decode("cp949", "ignore"))
            elif vt not in (0x02, 0x03, 0x0B, 0x12, 0x13, 0x40, 0x48):   # ints, bool, FILETIME, CLSID
                return None
        return "\n".join(t.replace("\0", "") for t in out)
    except (ValueError, IndexError):
        return None


def _is_preview_text(name: str) -> bool:
    """The preview text (HWPX ``Preview/PrvText.txt``, HWP ``PrvText``) is the body's text again, rebuilt
    from the masked body by the writer: it counts as visible, like the body it repeats."""
    return name.rsplit("/", 1)[-1].lower() in ("prvtext.txt", "prvtext")


def _decode_text(data: bytes) -> str:
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", "replace")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp949", "replace")


def text_views(data: bytes, kind: str) -> list[View]:
    """The output's text views for a leak-check ``kind`` ("text", "zip", "hwp", "eml"; others: none)."""
    if kind == "text":
        for codec in ("utf-8-sig", "utf-16", "cp949"):
            try:
                return [View("text", data.decode(codec)[:MAX_VIEW_CHARS], True)]
            except UnicodeDecodeError:
                continue
        return [View("text", data.decode("utf-8", "replace")[:MAX_VIEW_CHARS], True)]
    if kind == "zip":
        return _zip_views(data)
    if kind == "hwp":
        return _hwp_views(data)
    if kind == "eml":
        return _eml_views(data)
    return []


#: the headers a mail program shows (the others of an output are the MIME headers the writer adds)
_SHOWN_MAIL_HEADERS = frozenset({"from", "sender", "reply-to", "to", "cc", "bcc", "date", "subject"})


def _eml_views(data: bytes) -> list[View]:
    """A mail output read through the standard library's parser (not the tool's mail reader): the shown
    headers (decoded) and every text part's decoded body are visible; any other header and the bytes of
    a part that is not text are hidden views."""
    import email
    import email.policy

    try:
        msg = email.message_from_bytes(data, policy=email.policy.default)
        shown, other = [], []
        for name, value in msg.items():
            (shown if name.lower() in _SHOWN_MAIL_HEADERS else other).append(f"{name}: {value}")
        views = [View("mail headers", "\n".join(shown)[:MAX_VIEW_CHARS], True),
                 View("mail headers (other)", "\n".join(other)[:MAX_VIEW_CHARS], False)]
        for i, part in enumerate(msg.walk()):
            if part.is_multipart():
                continue
            place = f"mail part {i} ({part.get_content_type()})"
            if part.get_content_maintype() == "text":
                views.append(View(place, part.get_content()[:MAX_VIEW_CHARS], True))
            else:
                views.append(View(place, _decode_text(part.get_payload(decode=True) or b"")[:MAX_VIEW_CHARS],
                                  False))
        return views
    except Exception:  # noqa: BLE001 - the leak check already failed closed on an unparsable mail
        return [View("mail (raw)", _decode_text(data)[:MAX_VIEW_CHARS], False)]


def _read_as_shown(rules: Callable[[str], list]) -> Callable[[str], list]:
    """``rules`` over the text as written and over its detection view (what a reader sees: keycap, Hanja and
    superscript digits, compatibility jamo, markup, bidi display order, box-table rows …), the view's spans
    mapped back to the text. The default detector (``detect``) reads the view itself; the bare rule stage
    handed in here does not."""
    from ..detect.normalize import detection_view

    def run(text: str) -> list:
        spans = list(rules(text))
        view = detection_view(text, spaced_digits=True)
        if view.changed:
            spans += view.spans_to_original(rules(view.text))
        return spans

    return run


def _digit_runs(text: str) -> list[str]:
    """Digit runs of ``text`` and of its detection view (``٠١٠``, ``〇一〇``, ``⁰¹⁰``, ``0️⃣1️⃣0️⃣`` read as digits)."""
    from ..detect.normalize import detection_view

    runs = [m.group(0) for m in _DIGITS.finditer(text)]
    view = detection_view(text, spaced_digits=True)
    if view.text != text:
        runs += [m.group(0) for m in _DIGITS.finditer(view.text)]
    return runs


def second_opinion(views: Iterable[View], detect: Callable[[str], list], rules: Callable[[str], list],
                   masks: Iterable[str] = ()) -> tuple[list[Finding], list[Finding]]:
    """``(blocking, possible_misses)`` over ``views``; ``detect(text)`` = the default detector's spans,
    ``rules(text)`` = the structured rule stage's (read here over each view's text and its detection view);
    ``masks``: the output's replacement texts."""
    masks = {m.strip() for m in masks if m and m.strip()}
    rules = _read_as_shown(rules)
    blocking: list[Finding] = []
    possible: list[Finding] = []
    for v in views:
        if not v.text.strip():
            continue

        def own(s) -> bool:
            value = v.text[s.start:s.end].strip()
            return not value or value in masks or any(value in m for m in masks)

        if not v.visible and v.attributes:
            # attribute values: a package is full of numeric codes (font signatures, panose, ids), so only
            # identifiers written the way people write them count: an e-mail, or a number with separators
            for s in rules(v.text):
                value = v.text[s.start:s.end]
                if s.label in _ATTRIBUTE_LABELS and ("@" in value or "-" in value) and not own(s):
                    blocking.append(Finding(v.place, s.label, False, float(s.score), "rule"))
        elif not v.visible:
            for s in rules(v.text):
                if s.label in BLOCKING_RULE_LABELS and not own(s):
                    blocking.append(Finding(v.place, s.label, False, float(s.score), "rule"))
            for run in _digit_runs(v.text):
                kind = _digit_kind(run)
                if kind:
                    blocking.append(Finding(v.place, kind, False, 1.0, "digits"))
            if True:  # element text of a hidden part: the model too
                for s in detect(v.text):     # the model's own finding, not the rule grammar's
                    if (s.label in MODEL_LABELS and s.source == "model" and s.score >= HIDDEN_MIN_SCORE
                            and not own(s)):
                        blocking.append(Finding(v.place, s.label, False, float(s.score), "model"))
        else:
            for s in detect(v.text):
                if s.score >= VISIBLE_MIN_SCORE and not own(s):
                    possible.append(Finding(v.place, s.label, True, float(s.score), s.source))
    return _dedupe(blocking), _dedupe(possible)


def _dedupe(found: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in found:
        key = (f.place, f.label, f.how)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def summary(blocking: list[Finding], possible: list[Finding]) -> dict:
    """The report's ``second_opinion`` section: places and labels only."""
    return {"blocking": [{"place": f.place, "label": f.label, "how": f.how} for f in blocking],
            "possible_misses": [{"place": f.place, "label": f.label, "score": round(f.score, 3)}
                                for f in possible],
            "result": "hit" if blocking else ("possible_misses" if possible else "clean")}
