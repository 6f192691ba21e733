"""Walking XML parts into text slots, and the shared read/write engine for ZIP+XML documents.

A *slot* is one place in an XML tree that holds document text: an element's ``.text``, an element's
``.tail`` (HWPX ``<hp:t>a<hp:tab/>b</hp:t>``) or an attribute (alt text ``descr``, a hyperlink
``Target``). A walker visits a part in a fixed order and reports slots and boilerplate (paragraph breaks,
tabs) to an *emitter*. Reading and writing run the same walker over the same bytes, so slot number *n*
is the same node both times (the export checks the slot's text is what the reviewer saw).

A ``ZipProfile`` (``docx.PROFILE``, ``hwpx.PROFILE``) tells the engine which members are text parts, in
what reading order, with which walker, and how to clean a part before slots are edited (tracked changes,
fallbacks, author attributes) and which members to scrub or drop (metadata, previews).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import quote, unquote

from lxml import etree

from ..masking import Replacement
from .errors import DocumentError
from .model import Document, TextBuilder, apply_local, split_plan
from .safezip import Member, parse_xml, read_zip, serialize_xml, write_zip


_W_T = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}t"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


_PCT_HEX = re.compile(r"%[0-9A-Fa-f]{2}")
_URL_SAFE = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) != "%")


def sym_text(code: str) -> str:
    """The character a ``w:sym/@w:char`` draws (hex code point), "" for symbol-font private-use codes
    (U+F000-F0FF: Wingdings bullets and the like) or anything unparsable."""
    try:
        cp = int(code, 16)
    except (TypeError, ValueError):
        return ""
    if cp < 0x20 or 0xF000 <= cp <= 0xF0FF or 0xD800 <= cp <= 0xDFFF or cp >= 0x110000:
        return ""
    return chr(cp)


class Slot:
    """One place holding text. ``url``: the stored value is %-encoded (a link target); the reviewer sees
    and edits the decoded text (``%EA%B9%80`` shows as ``김``), written back encoded again."""

    __slots__ = ("elem", "kind", "attr", "url")

    def __init__(self, elem: etree._Element, kind: str, attr: str | None = None, url: bool = False):
        self.elem, self.kind, self.attr, self.url = elem, kind, attr, url

    def raw(self) -> str:
        if self.kind == "text":
            return self.elem.text or ""
        if self.kind == "tail":
            return self.elem.tail or ""
        return self.elem.get(self.attr) or ""

    def get(self) -> str:
        v = self.raw()
        if self.kind == "sym":
            return sym_text(v)
        if self.url and _PCT_HEX.search(v):
            return unquote(v, errors="replace")
        return v

    def set(self, value: str) -> None:
        if self.kind == "sym":
            # a symbol holds one character: a masked replacement keeps its first character here (the
            # rest of a replacement's slots are emptied: a space), so the value never survives
            if value != self.get():
                self.elem.set(self.attr, f"{ord((value or ' ')[0]):04X}")
            return
        if self.url and _PCT_HEX.search(self.raw()):
            value = quote(value, safe=_URL_SAFE)
        if self.kind == "text":
            self.elem.text = value
            if self.elem.tag == _W_T and value != value.strip():
                # Word trims leading/trailing spaces of a w:t unless told to keep them
                self.elem.set(_XML_SPACE, "preserve")
        elif self.kind == "tail":
            self.elem.tail = value
        else:
            self.elem.set(self.attr, value)


class Emitter:
    """Receives what a walker finds. ``deleted`` slots (tracked deletions, author fields that are always
    removed) are listed after all parts in a part marked ``removed``.

    ``ops`` is what the reader shows, in order: ``("b", text)`` boilerplate, ``("s", slot)`` a slot,
    ``("c", (key, detail))`` a caption. A walker may *defer* ops (``push``/``pop``/``extend``) — e.g. a
    text box or footnote shown after the paragraph it is anchored in instead of glued into it; slot
    numbers follow the order of ``slot()`` calls, which is the same when reading and writing.
    """

    def __init__(self) -> None:
        self.slots: list[Slot] = []
        self.deleted: list[tuple[Slot, str]] = []
        self.ops: list[tuple[str, object]] = []
        self._stack: list[list[tuple[str, object]]] = []

    def boilerplate(self, s: str) -> None:
        if s:
            self.ops.append(("b", s))

    def caption(self, key: str, detail: str = "") -> None:
        self.ops.append(("c", (key, detail)))

    def slot(self, slot: Slot, prefix: str = "", suffix: str = "", caption: str | None = None,
             detail: str = "") -> None:
        if not slot.get():
            return
        if prefix:
            self.boilerplate(prefix)
        if caption:
            self.caption(caption, detail)
        self.slots.append(slot)
        self.ops.append(("s", slot))
        if suffix:
            self.boilerplate(suffix)

    def deleted_slot(self, slot: Slot, key: str = "deleted") -> None:
        if slot.get():
            self.deleted.append((slot, key))

    def push(self) -> None:
        """Collect the following ops aside (``pop`` returns them)."""
        self._stack.append(self.ops)
        self.ops = []

    def pop(self) -> list[tuple[str, object]]:
        ops, self.ops = self.ops, self._stack.pop()
        return ops

    def extend(self, ops: list[tuple[str, object]]) -> None:
        self.ops.extend(ops)

    def all_slots(self) -> list[Slot]:
        return self.slots + [s for s, _ in self.deleted]


def localname(el) -> str:
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


Walker = Callable[[etree._Element, Emitter], None]


# attributes that never hold document text (ids, revision ids, measurements, fonts, styling)
_TECH_ATTRS = {"id", "paraId", "textId", "durableId", "anchorId", "editId", "author", "initials", "date",
               "userId", "providerId", "style", "coordsize", "coordorigin", "path", "adj", "points",
               "typeface", "panose", "pitchFamily", "charset", "spt", "Requires", "Ignorable", "uri",
               "spid", "ProgID", "ShapeID", "ObjectID", "DrawAspect", "Type", "Target", "TargetMode",
               "PartName", "ContentType", "Extension", "href", "full-path", "media-type", "idref",
               "IDRef", "itemID", "fmtid", "pid", "version", "lang"}
_FONT_ELEMENTS = {"rFonts", "font", "altName", "latin", "ea", "cs", "sym", "fontRef", "panose1",
                  "fontface", "font-face"}
_WIDE = re.compile("[\u1100-\u11ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff]")
_DIGITS6 = re.compile(r"\d{6}")
_GUID = re.compile(r"^\{?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\}?$")
_HEX = re.compile(r"^[0-9A-Fa-f]{1,16}$")   # revision ids, list ids, font signatures
_DIGIT_SEPS = re.compile(r"[\s.\-/()]")


# words real font names carry (Korean, Chinese, Japanese families and vendors); a Hangul/CJK "font name"
# with none of them is shown for review: a font table can hold any text (red-team: a name + phone there)
_FONT_WORDS = re.compile(r"고딕|명조|바탕|굴림|돋움|돋음|궁서|맑은|나눔|함초롬|한컴|한양|휴먼|신명|양재|견출|헤드라인|"
                         r"그래픽|엽서|필기|체|글꼴|펜|손글씨|산스|세리프|본문|제목|굵은|가는|중간|나무|옛|"
                         r"明朝|明體|宋|黑|楷|仿|細|圓|正|ゴシック|ＭＳ|^HY|Noto|Source|Malgun|Gulim|Dotum|Batang|"
                         r"Gungsuh|Nanum|Hancom", re.I)


def _font_name_personal(value: str) -> bool:
    """A font-name attribute is technical unless it carries what font names never do: an ``@``, four
    digits in a row, or Hangul/CJK without any font-family word."""
    if "@" in value or re.search(r"\d{4}", _DIGIT_SEPS.sub("", value)):
        return True
    return bool(_WIDE.search(value)) and not _FONT_WORDS.search(value)


def textual_attribute(el, attr: str, value: str) -> bool:
    """Whether an attribute value (outside the known text attributes) could be personal text a
    recipient can read: Hangul/CJK, an e-mail ``@``, or 6+ digits in a row once separators are removed
    (a phone, RRN, account number) — but not ids, measurements, GUIDs, fonts or styling."""
    if not value or not value.strip():
        return False
    local = attr.rsplit("}", 1)[-1]
    if local == "char" and localname(el) == "sym":
        return False         # the character a symbol draws: a slot of its own (docx.py)
    if localname(el) in _FONT_ELEMENTS or local in ("typeface", "face"):
        return _font_name_personal(value)
    if local in _TECH_ATTRS or local.startswith("rsid"):
        return False
    if _WIDE.search(value) or "@" in value:
        return True
    if value.isdigit() or _GUID.match(value) or _HEX.match(value):
        return False
    return bool(_DIGITS6.search(_DIGIT_SEPS.sub("", value)))


def attribute_slots(el, em: "Emitter", curated: bool = False, key: str = "attribute") -> None:
    """Every attribute of ``el`` that may hold text (``curated``: every non-technical one) as a slot on
    its own line, labelled ``[key]``."""
    for attr, value in el.attrib.items():
        if curated:
            local = attr.rsplit("}", 1)[-1]
            ok = bool(value.strip()) and not (local in _TECH_ATTRS or local.startswith("rsid")) \
                and not value.isdigit() and value not in ("0", "1", "true", "false", "on", "off")
        else:
            ok = textual_attribute(el, attr, value)
        if ok:
            em.slot(Slot(el, "attr", attr), prefix="\n", suffix="\n", caption=key)


def generic_walker(root: etree._Element, em: Emitter) -> None:
    """Any XML (custom XML data, unknown parts): every non-blank text and tail (also after a comment or
    processing instruction) and every attribute that may hold text, one per line."""
    for el in root.iter():
        if isinstance(el.tag, str):
            if el.text and el.text.strip():
                em.slot(Slot(el, "text"), suffix="\n")
            attribute_slots(el, em)
        if el is not root and el.tail and el.tail.strip():
            em.slot(Slot(el, "tail"), suffix="\n")


def rels_walker(root: etree._Element, em: Emitter) -> None:
    """OPC relationships: external targets (hyperlinks, template paths) are reviewable text."""
    for el in root:
        if localname(el) == "Relationship" and el.get("TargetMode") == "External":
            em.slot(Slot(el, "attr", "Target", url=True), suffix="\n")


def strip_picture_metadata(data: bytes) -> bytes:
    """A PNG/JPEG picture without its text metadata (PNG ``tEXt``/``zTXt``/``iTXt``/``eXIf``/``tIME``,
    JPEG ``COM`` and ``APP1``/``APP13``/``APP3``-``APP13`` segments: EXIF author/comment, XMP, IPTC);
    pixels, colour profile (``APP2``/``iCCP``) and JFIF/Adobe headers are kept. Anything else, or a
    picture that does not parse cleanly, is returned unchanged (the leak check still reads it)."""
    import struct

    if data[:8] == b"\x89PNG\r\n\x1a\n":
        out, pos = [data[:8]], 8
        while pos + 12 <= len(data):
            n = struct.unpack(">I", data[pos:pos + 4])[0]
            kind = data[pos + 4:pos + 8]
            end = pos + 12 + n
            if end > len(data):
                return data
            if kind not in (b"tEXt", b"zTXt", b"iTXt", b"eXIf", b"tIME"):
                out.append(data[pos:end])
            pos = end
            if kind == b"IEND":
                break
        return b"".join(out)
    if data[:2] == b"\xff\xd8":
        out, pos = [data[:2]], 2
        while pos + 4 <= len(data) and data[pos] == 0xFF:
            marker = data[pos + 1]
            if marker == 0xDA:  # start of scan: the rest is image data
                out.append(data[pos:])
                return b"".join(out)
            n = struct.unpack(">H", data[pos + 2:pos + 4])[0]
            end = pos + 2 + n
            if end > len(data):
                return data
            if not (marker == 0xFE or marker == 0xE1 or 0xE3 <= marker <= 0xED):
                out.append(data[pos:end])
            pos = end
        return data
    return data


def strip_comments_and_pis(root: etree._Element) -> bool:
    """Remove XML comments and processing instructions (their text is not document content; a reader
    could still extract it). Tails are kept. True if anything was removed."""
    nodes = [n for n in root.iter() if not isinstance(n.tag, str) and n is not root]
    for n in nodes:
        parent = n.getparent()
        if parent is None:
            continue
        if n.tail:
            prev = n.getprevious()
            if prev is not None:
                prev.tail = (prev.tail or "") + n.tail
            else:
                parent.text = (parent.text or "") + n.tail
        parent.remove(n)
    return bool(nodes)


@dataclass
class TextPart:
    member: str
    name: str            # caption key of the part ("body", "header", ...), see ``model.CAPTIONS_EN``
    walker: Walker
    header: bool = True  # False for the main body (no header line)
    detail: str = ""     # caption detail ("1" for the first header)
    removed: bool = False  # shown but never written (e.g. removed scripts)


@dataclass
class ZipProfile:
    what: str                                                    # "Word document"
    fmt: str
    classify: Callable[[list[Member]], list[TextPart]]          # text parts in reading order
    clean: Callable[[str, etree._Element], bool] = lambda name, root: False  # before slot edits
    scrub: Callable[[list[Member], Document | None], list[Member]] = lambda ms, doc: ms  # after edits
    deleted_part_name: str = "삭제된 텍스트"
    first_stored: str | None = None
    notes: Callable[[list[Member]], list[str]] = lambda ms: []
    check: Callable[[list[Member]], None] = lambda ms: None      # raise if not this format
    removed: Callable[[list[Member]], list[str]] = lambda ms: []  # members dropped from the output
    #: readable text of dropped members, shown (not written) in the removed part: [(caption key, text)]
    removed_text: Callable[[list[Member]], list[tuple[str, str]]] = lambda ms: []


def _emit(tb: TextBuilder, member: str, ops, index: dict[int, int]) -> None:
    for kind, val in ops:
        if kind == "b":
            tb.boilerplate(val)  # type: ignore[arg-type]
        elif kind == "c":
            key, detail = val  # type: ignore[misc]
            tb.caption(key, detail)
        else:
            tb.slot(member, index[id(val)], val.get())  # type: ignore[union-attr]


def read_zip_document(path: Path, data: bytes, profile: ZipProfile) -> Document:
    members = read_zip(data, profile.what)
    profile.check(members)
    by_name = {m.name: m for m in members}
    tb = TextBuilder()
    deleted: list[tuple[str, int, str, str]] = []
    last_kind = None
    for tp in profile.classify(members):
        root = parse_xml(by_name[tp.member].data, tp.member)
        em = Emitter()
        tp.walker(root, em)
        if not em.slots and not em.deleted:
            continue
        if em.slots:
            # a header line where the kind of part changes (or the part asks for one: Header 2)
            tb.begin_part(tp.name, tp.member, header=tp.header or (last_kind is not None
                                                                    and tp.name != last_kind),
                          kind=tp.name, detail=tp.detail, removed=tp.removed)
            last_kind = tp.name
            _emit(tb, tp.member, em.ops, {id(s): i for i, s in enumerate(em.slots)})
            if not tb.ends_with_newline():
                tb.boilerplate("\n")
            tb.end_part()
        for j, (s, key) in enumerate(em.deleted):
            deleted.append((tp.member, len(em.slots) + j, s.get(), key))
    dropped_text = profile.removed_text(members)
    if deleted or dropped_text:
        tb.begin_part("removed", "", removed=True, kind="removed")
        for member, idx, text, key in deleted:
            tb.caption(key)
            tb.slot(member, idx, text)
            tb.boilerplate("\n")
        for key, text in dropped_text:   # e.g. an altChunk's HTML as text: seen, never written
            tb.caption(key)
            tb.boilerplate(text.rstrip("\n") + "\n")
        tb.end_part()
    text = tb.text()
    from .pictures import pictures_with_text   # pictures that show text: needs review (red-team fix)
    removed_members = profile.removed(members)
    return Document(path=path, format=profile.fmt, text=text, parts=tuple(tb.parts),
                    segments=tuple(tb.segments), sha256=hashlib.sha256(data).hexdigest(),
                    size=len(data), notes=tuple(profile.notes(members)), captions=tuple(tb.captions),
                    unreadable=tuple(pictures_with_text(members, removed_members)),
                    extra={"removed_members": removed_members})


def write_zip_document(doc: Document, plan: list[Replacement], source: bytes,
                       profile: ZipProfile) -> bytes:
    members = read_zip(source, profile.what)
    edits = split_plan(plan, doc.segments)
    by_member: dict[str, dict[int, list[tuple[int, int, str]]]] = {}
    for (member, slot), e in edits.items():
        by_member.setdefault(member, {})[slot] = e
    expected: dict[tuple[str, int], str] = {}
    for s in doc.segments:
        expected[(s.member, s.slot)] = expected.get((s.member, s.slot), "") + doc.text[s.start:s.end]
    text_parts = {tp.member: tp for tp in profile.classify(members)}
    out: list[Member] = []
    for m in members:
        if not (m.name.endswith(".xml") or m.name.endswith(".rels") or m.name in text_parts):
            out.append(m)
            continue
        tp = text_parts.get(m.name)
        root = parse_xml(m.data, m.name)
        changed = False
        if tp is not None:
            em = Emitter()
            tp.walker(root, em)          # slots found on the tree *as read* (same as the reader)
            slots = em.all_slots()
            for idx, slot_edits in by_member.get(m.name, {}).items():
                if idx >= len(slots) or slots[idx].get() != expected.get((m.name, idx)):
                    raise DocumentError(f"The document structure of {m.name} does not match what was "
                                        "reviewed; open the file again.")
                slots[idx].set(apply_local(slots[idx].get(), slot_edits))
                changed = True
        if profile.clean(m.name, root):  # tracked changes, fallbacks, authors (after slot edits)
            changed = True
        if strip_comments_and_pis(root):  # not content, but readable: never published
            changed = True
        if changed:
            m = Member(m.name, serialize_xml(root), m.compress_type, m.date_time)
        out.append(m)
    out = profile.scrub(out, doc)
    return write_zip(out, first_stored=profile.first_stored)


def without_refs(m: Member, dropped: list[str]) -> Member:
    """``m`` with every element removed that references a dropped member by an attribute value
    (OPC relationships ``Target``, content-type ``PartName``, OPF ``href``, ODF ``full-path``)."""
    if not dropped or not (m.name.endswith(".xml") or m.name.endswith(".rels")
                           or m.name.endswith(".hpf")):
        return m
    root = parse_xml(m.data, m.name)
    base = m.name.rsplit("/", 1)[0] + "/" if "/" in m.name else ""
    if m.name.endswith(".rels"):  # word/_rels/document.xml.rels targets are relative to word/
        base = m.name.split("_rels/")[0]

    def refers(value: str) -> bool:
        v = value.lstrip("/")
        return any(v == d or base + v == d for d in dropped)

    changed = False
    for el in list(root.iter()):
        if not isinstance(el.tag, str) or el is root:
            continue
        if any(refers(v) for v in el.attrib.values()):
            parent = el.getparent()
            if parent is not None:
                parent.remove(el)
                changed = True
    return Member(m.name, serialize_xml(root), m.compress_type, m.date_time) if changed else m
