"""Walking XML parts into text slots, and the shared read/write engine for ZIP+XML documents.

A *slot* is one place in an XML tree that holds document text: an element's ``.text``, an element's
``.tail`` (HWPX ``<hp:t>a<hp:tab/>b</hp:t>``) or an attribute (alt text ``descr``, a hyperlink
``Target``). A walker visits a part in a fixed order and reports slots and boilerplate (paragraph breaks,
tabs) to an *emitter*. Reading and writing run the same walker over the same bytes, so slot number *n*
is the same node both times (the export checks the slot's text is what the reviewer saw).

A ``ZipProfile`` (``docx.PROFILE``, ``hwpx.PROFILE``) tells the engine which members are text parts, in
what reading order, with which walker, and how to clean a part before slots are edited (tracked changes,
fallbacks, author attributes) and which members to scrub or drop (metadata, previews). Every XML part the
writer keeps is also freed of what the markup itself can hide (``MarkupNeutraliser``: unknown namespace
URIs, names holding text, comments/PIs around the root element).
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
from .namespaces import NEUTRAL_PREFIX, known_namespace, schema_uri
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


def child_named(el, name: str):
    """``el``'s first child element whose local name is ``name`` (any namespace), or None."""
    return next((c for c in el if isinstance(c.tag, str) and localname(c) == name), None)


Walker = Callable[[etree._Element, Emitter], None]


# -- attribute values: default deny ------------------------------------------------------------------
# An attribute value is *kept unseen* only when it matches a known harmless grammar: a short number or
# measurement, a hex code (rsids, colours, paraIds), a GUID, a boolean, an enumeration/identifier token,
# a list of those, a package-internal part path, a MIME type, a schema URI, a font name. Anything else is
# shown for review as text in its part (``attribute_slots``) or neutralised by the writer (docx.py:
# bookmark names renamed, local-file links dropped). The check is on the VALUE, never the name alone.
_WIDE = re.compile("[\u1100-\u11ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff]")
_GUID = re.compile(r"^\{?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\}?$")
_HEX = re.compile(r"^[0-9A-Fa-f]{1,8}$")           # rsids, colours, paraIds, list ids, font signatures
_HEX16 = re.compile(r"^[0-9A-Fa-f]{9,16}$")         # font signatures (csb/usb), 64-bit ids: need letters
_NUM = re.compile(r"^[-+]?(?:\d{1,9}(?:\.\d{1,6})?|\.\d{1,6})(?:[eE][-+]?\d{1,3})?"
                  r"(?:%|pt|px|cm|mm|in|em|emu|pc|pi|ex|fd|f|dxa|twip)?$")
_BOOL = {"0", "1", "true", "false", "on", "off", "t", "f", "yes", "no", "y", "n", "none", "auto"}
_IDENT = re.compile(r"^(?:[A-Za-z_][\w.\-]{0,31}:)?[A-Za-z_#][A-Za-z0-9_.\-#]{0,63}$", re.A)  # enums, QNames
_VML_ID = re.compile(r"^_x0000_[a-z]\d{1,6}$")                  # VML shape ids/types (_x0000_s1026)
_PART_PATH = re.compile(r"^/?(?:\.\./)?[A-Za-z0-9_\-]+(?:[./][A-Za-z0-9_\-\[\]]+)*$")
_MIME = re.compile(r"^[a-z]+/[a-z0-9.+\-]+(?:;\s*[a-z\-]+=[\w.\-\"]+)*$")
_CSS = re.compile(r"^(?:\s*[A-Za-z\-]+\s*:\s*[#\w.%\-+ ]*;?)+\s*$")           # VML style="width:10pt;..."
_PREFIX_MAP = re.compile(r"""^(?:\s*xmlns:\w+=['"][^'"\s]*['"])*\s*$""")   # w:dataBinding prefixMappings
_XPATH = re.compile(r"^(?:/[\w:.\-]+(?:\[\d{1,4}\])?)+$")                   # w:xpath="/ns0:root[1]/ns0:x[1]"
_BIBLIOGRAPHY = "{http://schemas.openxmlformats.org/officeDocument/2006/bibliography}"
_LATIN_PHRASE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 .,_&+()\-]{0,60}$")          # "heading 1", "Table Grid"
_COLOUR = re.compile(r"^#[0-9A-Fa-f]{3,8}$")
_PUNCT = re.compile(r"^[^\w\s@]{1,3}$")      # ")", "-", "•": list/number suffixes, no letters or digits
_KO_STYLE = re.compile(r"^(?:바탕글|본문|개요 ?\d{1,2}|쪽 ?번호|머리말|꼬리말|각주|미주|메모|차례 ?제목|차례 ?\d{1,2}|"
                       r"캡션|표준|제목 ?\d{0,2}|부제|목록 ?단락|인용|강조|머리글|바닥글|표 ?구분선|기본 ?단락 ?글꼴|"
                       r"각주 ?텍스트|미주 ?텍스트|각주 ?참조|미주 ?참조|목차 ?\d{0,2}|하이퍼링크|줄 ?번호)$")
_COORD_ATTRS = {"coordsize", "coordorigin", "points", "adj", "path", "origin", "size", "position", "from",
                "to", "control1", "control2", "wrapcoords", "offset", "offset2", "matrix", "focusposition",
                "focussize", "limo", "textboxrect", "connectlocs", "connectangles", "eqn", "inset",
                "xrange", "yrange"}
_DIGIT_RUN = re.compile(r"\d{5,}")
_DIGIT_SEPS = re.compile(r"[\s.\-/()_,:;]")
_PHRASE_ELEMENTS = {"name", "lsdException", "basedOn", "next", "link", "style", "pStyle", "rStyle",
                    "tblStyle", "numStyleLink", "styleLink", "aliases", "font", "charStyle", "paraStyle"}
_PHRASE_ATTRS = {"engName", "styleName", "styleId", "name", "val", "uiName", "appVersion", "application",
                 "os", "targetApplication"}
_PART_EXT = re.compile(r"/[^/]+\.(?:xml|rels|hpf|png|jpe?g|gif|bmp|emf|wmf|tiff?|bin|txt|svg|ole|dat)$", re.I)
_PATH_ATTRS = {"resource", "about", "Target", "PartName", "href", "full-path", "src", "Extension", "path"}
_FONT_ELEMENTS = {"rFonts", "font", "altName", "latin", "ea", "cs", "sym", "fontRef", "panose1",
                  "fontface", "font-face", "embedRegular", "embedBold", "embedItalic", "embedBoldItalic"}
_FONT_ATTRS = {"typeface", "face", "ascii", "hAnsi", "eastAsia", "cs", "font", "fontName", "name"}
_HEX8 = re.compile(r"[0-9A-Fa-f]{8}")
_SMALL = re.compile(r"\d{1,3}")
#: a font table's technical values by (element, attribute) and their exact grammar: PANOSE (20 hex
#: digits), Unicode/code-page signature bits (8 hex digits each), charset (2 hex), family and pitch
#: (enumerations), HWPX type info (FCAT_* and small numbers). Never reviewable text; a value without
#: the grammar (13 digits in a signature) falls through to the other rules and is shown.
_FONT_TECH = {
    ("panose1", "val"): re.compile(r"[0-9A-Fa-f]{20}"),
    **{("sig", a): _HEX8 for a in ("usb0", "usb1", "usb2", "usb3", "csb0", "csb1")},
    ("charset", "val"): re.compile(r"[0-9A-Fa-f]{2}"), ("charset", "characterSet"): re.compile(r"[\w.\-]{1,24}"),
    ("family", "val"): re.compile(r"auto|roman|swiss|modern|script|decorative"),
    ("pitch", "val"): re.compile(r"default|fixed|variable"),
    ("typeInfo", "familyType"): re.compile(r"FCAT_[A-Z]{1,16}"),
    **{("typeInfo", a): _SMALL for a in ("weight", "proportion", "contrast", "strokeVariation", "armStyle",
                                          "letterform", "midline", "xHeight")},
}
#: attributes neutralised by the writers whatever they hold (never shown: see docx.clean/scrub)
NEUTRALISED = {"gfxdata"}
#: person attributes the writers blank (authors are shown in captions / the removed part instead)
_BLANKED = {"author", "initials", "userId", "providerId"}
_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:?\d{2})?$")

# words real font names carry (Korean, Chinese, Japanese families and vendors); what is left of a
# Hangul/CJK font name after removing them must be at most one syllable ("HY견고딕" -> "견"): a font
# named after a person ("홍길동체") or holding any other text is shown for review
_FONT_WORDS = re.compile(r"고딕|명조|바탕|굴림|돋움|돋음|궁서|맑은|나눔|함초롬|한컴|한양|휴먼|신명|양재|견출|헤드라인|"
                         r"그래픽|엽서|필기|글꼴|손글씨|산스|세리프|본문|제목|굵은|가는|중간|새|태|윤|모음|"
                         r"明朝|明體|宋|黑|楷|仿|細|圓|正|雅黑|等线|微软|體|体|ゴシック|ＭＳ|HY|Noto|Source|Malgun|Gulim|Dotum|Batang|"
                         r"Gungsuh|Nanum|Hancom", re.I)
_LATIN_FONT = re.compile(r"^[A-Za-z][A-Za-z0-9 .&+\-]{0,60}$")


def _font_name_personal(value: str) -> bool:
    """A font name is personal text unless it has a font name's grammar: Latin words ("Times New
    Roman"), or Hangul/CJK that is a known family/vendor name with at most one syllable left over
    (a trailing "체" aside); an ``@`` or five digits in a row never."""
    v = value.strip()
    if not v:
        return False
    if v.startswith("@"):   # vertical-text variant of a font
        v = v[1:]
    if "@" in v or _DIGIT_RUN.search(_DIGIT_SEPS.sub("", v)):
        return True
    if _LATIN_FONT.match(v) and not _WIDE.search(v):
        return False
    if not _WIDE.search(v):
        return not bool(re.fullmatch(r"[\w .&+\-,]{1,64}", v))
    rest = _FONT_WORDS.sub("", v)
    rest = re.sub(r"체$", "", re.sub(r"[\sA-Za-z0-9.\-]", "", rest))
    return len(_WIDE.findall(rest)) > 1


def harmless_value(el, attr: str, value: str, strict: bool = False) -> bool:
    """Whether an attribute value has a known harmless grammar (the allow-list). ``strict`` (custom
    XML, unknown parts: data that only looks like markup): only numbers of at most four digits, hex
    ids, GUIDs, booleans and schema URIs."""
    v = value.strip()
    if not v:
        return True
    local = attr.rsplit("}", 1)[-1]
    ename = localname(el)
    if _GUID.match(v) or v.lower() in _BOOL or schema_uri(v) or _TIMESTAMP.match(v):
        return True      # a schema URI: a known namespace, or the grammar without long digit runs
    tech = _FONT_TECH.get((ename, local)) or (_FONT_TECH[("panose1", "val")] if local == "panose" else None)
    if tech is not None and tech.fullmatch(v):
        return True      # font-table numbers (PANOSE, signatures, charset …), whatever the walk's strictness
    if ename == "lvlText" and len(v) <= 16 and not _WIDE.search(v) and not re.search(r"[A-Za-z]{2}", v):
        return True      # list numbering ("%1.", "(%2)") and bullets ("\uf0b7", "o", "§")
    if strict and el.tag.startswith(_BIBLIOGRAPHY) and local in ("SelectedStyle", "StyleName", "Version") \
            and re.fullmatch(r"[\\/]?[A-Za-z0-9 _.\-]{1,40}", v):
        return True      # Word's bibliography store: <b:Sources SelectedStyle="\APA.XSL" StyleName="APA">
    if strict:
        return bool(re.fullmatch(r"-?\d{1,4}(?:\.\d{1,4})?", v)) or bool(
            _HEX.match(v) and re.search("[A-Fa-f]", v) and len(v) == 8) or local in ("lang", "space") \
            and bool(_IDENT.match(v))
    if _NUM.match(v) or _HEX.match(v) or _VML_ID.match(v) or _COLOUR.match(v) or _PUNCT.match(v):
        return True
    if re.fullmatch(r"[1-9]\d{9}", v) and int(v) <= 0xFFFFFFFF:
        return True      # 32-bit ids and masks (4294967295); a 10-digit value with a leading 0 is not
    if local == "name" and ename == "style" and _KO_STYLE.match(v):
        return True      # Hancom's/Word's own Korean style names
    if _HEX16.match(v) and re.search("[A-Fa-f]", v) or (local == "panose" or ename == "panose1") \
            and re.fullmatch(r"[0-9A-Fa-f]{20}", v):
        return True
    if ename in _FONT_ELEMENTS or local in ("typeface", "face"):
        return not _font_name_personal(v)
    if local in _COORD_ATTRS and re.fullmatch(r"[-+\d.,\s@a-z#%]{1,4096}", v) and all(
            len(t) <= 9 for t in re.findall(r"\d+", v)):
        return True      # VML coordinates/paths: "21600,21600", "m@4@5l@4@11xe", "0,0 10,10"
    if local == "appVersion" and re.fullmatch(r"\d{1,3}(?:[,.] ?\d{1,5}){1,3} [A-Za-z0-9_.()\-]{1,60}", v):
        return True      # HWPX version.xml: "9, 1, 1, 5656 WIN32LEWindows_Unknown_Version"
    digits_ok = not _DIGIT_RUN.search(_DIGIT_SEPS.sub("", v)) and len(re.findall(r"\d", v)) <= 8
    if _WIDE.search(v) or "@" in v or not digits_ok:
        return False
    if _IDENT.match(v):
        return True
    if _PART_PATH.match(v) and ":" not in v and (local in _PATH_ATTRS or _PART_EXT.search(v)):
        return True      # a package part (Contents/header.xml, Chart/chart1.xml, media/image1.png)
    if _MIME.match(v):
        return True
    if local == "style" and _CSS.match(v):
        return True
    if local == "prefixMappings" and _PREFIX_MAP.match(v):
        return True      # the URIs in it are rewritten by the writers when unknown (MarkupNeutraliser)
    if local in ("schemaLocation", "noNamespaceSchemaLocation") and all(schema_uri(t) for t in v.split()):
        return True      # xsi:schemaLocation pairs of schema URIs (anything else in it is shown)
    if local == "xpath" and _XPATH.match(v):
        return True
    if (ename in _PHRASE_ELEMENTS or local in _PHRASE_ATTRS) and _LATIN_PHRASE.match(v):
        return True      # style names ("heading 1", "Light Shading Accent 1")
    if ename in _FONT_ELEMENTS or local in _FONT_ATTRS:
        return not _font_name_personal(v)
    # lists of harmless tokens: mc:Ignorable "w14 w15", coordsize "21600,21600", VML path/adj/points
    toks = [t for t in re.split(r"[\s,;]+", v) if t]
    if toks and len(toks) <= 256 and all(_NUM.match(t) or _IDENT.match(t) or _HEX.match(t) for t in toks):
        return True
    if re.fullmatch(r"[a-z@#0-9,.\-\s]{1,4096}", v):          # VML path ("m@4@5l@4@11xe") / formulas
        return True
    return False


def textual_attribute(el, attr: str, value: str, strict: bool = False) -> bool:
    """Whether an attribute value must be shown for review: every value without a known harmless
    grammar (``harmless_value``) — default deny. A ``w:sym/@w:char`` is a slot of its own (docx.py);
    neutralised attributes (``NEUTRALISED``) are removed by the writer and not shown."""
    if not value or not value.strip():
        return False
    local = attr.rsplit("}", 1)[-1]
    if local == "char" and localname(el) == "sym":
        return False
    if local in NEUTRALISED or local in _BLANKED or (local == "path" and localname(el) == "linkinfo"):
        return False     # removed / blanked by the writers (hwpx.py blanks hh:linkinfo/@path)
    return not harmless_value(el, attr, value, strict)


def attribute_slots(el, em: "Emitter", curated: bool = False, key: str = "attribute",
                    strict: bool = False) -> None:
    """Every attribute of ``el`` without a harmless value (``curated``: also enumeration-like ones) as
    a slot on its own line, labelled ``[key]``."""
    for attr, value in el.attrib.items():
        if curated:
            local = attr.rsplit("}", 1)[-1]
            ok = bool(value.strip()) and textual_attribute(el, attr, value, strict=True) \
                and not (local in ("id", "paraId", "textId") or local.startswith("rsid"))
        else:
            ok = textual_attribute(el, attr, value, strict)
        if ok:
            em.slot(Slot(el, "attr", attr, url=_looks_url(value)), prefix="\n", suffix="\n",
                    caption=key)


def _looks_url(value: str) -> bool:
    return bool(re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", value)) and "%" in value


def generic_walker(root: etree._Element, em: Emitter, strict: bool = False) -> None:
    """Any XML (unknown parts, themes, font tables): every non-blank text and tail (also after a comment
    or processing instruction) and every attribute value without a harmless grammar, one per line."""
    for el in root.iter():
        if isinstance(el.tag, str):
            if el.text and el.text.strip():
                em.slot(Slot(el, "text"), suffix="\n")
            attribute_slots(el, em, strict=strict)
        if el is not root and el.tail and el.tail.strip():
            em.slot(Slot(el, "tail"), suffix="\n")


def custom_xml_walker(root: etree._Element, em: Emitter) -> None:
    """Custom XML data (what data-bound content controls show): like ``generic_walker``, but every
    attribute value is shown unless it is a short number, a hex id, a GUID, a boolean or a schema URI
    (an RRN or phone without separators is data here, not an id)."""
    generic_walker(root, em, strict=True)


def rels_walker(root: etree._Element, em: Emitter) -> None:
    """OPC relationships: external targets (hyperlinks, template paths) are reviewable text."""
    for el in root:
        if localname(el) == "Relationship" and el.get("TargetMode") == "External":
            em.slot(Slot(el, "attr", "Target", url=True), suffix="\n")


def strip_picture_metadata(data: bytes) -> bytes:
    """A picture rebuilt from its pixels only (``pictures.publish_picture``: every frame re-encoded into a
    fresh file of the same kind, no metadata, comments or trailing bytes; undecodable -> 1×1 white PNG;
    EMF/WMF as they are). Kept under this name for the HWP writer."""
    from .pictures import publish_picture
    return publish_picture(data)


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


def personal_name(name: str) -> bool:
    """Whether an XML name (element, attribute, namespace prefix) may be personal text: anything but
    ASCII, five digits in a row (separators ``-._`` aside) or more than eight digits. The formats' own
    names never are (``w14:paraId``, ``hp:lineseg``, ``c16r2``)."""
    return not name.isascii() or bool(_DIGIT_RUN.search(_DIGIT_SEPS.sub("", name))) \
        or len(re.findall(r"\d", name)) > 8


_QUOTED = re.compile(r"""="[^"]*"|='[^']*'""")
_XML_TAG = re.compile(r"""<[^<>!?]+>""")
_XML_NAME = re.compile(r"""(?:^</?|\s)([^\s<>/=!?"'&;]+)(?=\s*=|[\s/>])""")
_XMLNS_TEXT = re.compile(r"""xmlns(?::([^\s=<>/"']+))?\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_XPATH_STEP = re.compile(r"""[^/\[\]@\s()="'*:]+(?::[^/\[\]@\s()="'*:]+)?""")
_PREFIX_MAP_URI = re.compile(r"""(xmlns:[^=\s]+\s*=\s*)(['"])([^'"]*)(['"])""")
#: markup-compatibility attributes listing prefixes / qualified names (ECMA-376 Part 3)
_MC_LISTS = {"Ignorable", "ProcessContent", "MustUnderstand", "PreserveElements", "PreserveAttributes",
             "Requires"}


def _unquote(m: re.Match) -> str:
    return m.group(2) if m.group(2) is not None else m.group(3)


class MarkupNeutraliser:
    """What a hostile author can hide in the markup itself, which no reader shows (issue 26, class 2):
    namespace URIs (``xmlns:acct="urn:x-bank:1002-738-415069"``) and element / attribute / prefix names
    (``<acct:정하람/>``). Default deny, for one package (the stand-ins are consistent across its parts):

    - a namespace URI a format specification does not define (``namespaces.known_namespace``) becomes
      ``urn:veil:ns:N`` — in its declarations (the prefix is kept, so ``mc:Ignorable`` lists and every
      qualified name stay valid), in element and attribute names, in ``w:prefixMappings`` and in any
      attribute value that is that URI (``w:customXml/@w:uri``, ``ds:schemaRef/@ds:uri``);
    - a name that may be personal text (``personal_name``) becomes ``veil_nK`` (``veil_pK`` for a prefix),
      also inside ``mc:Ignorable``-style lists and ``w:xpath`` data-binding paths.

    ``seed`` gives every part's declared URIs and personal names their stand-ins first (numbered in member
    order), ``apply`` rewrites one parsed part and returns the new root (``None``: nothing to change)."""

    def __init__(self) -> None:
        self.uris: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.prefixes: dict[str, str] = {}
        self._qnames: dict[str, str] = {}

    def seed(self, data: bytes) -> None:
        """Stand-ins for the URIs declared and the personal names used in one part's bytes, so that
        a part written earlier (``w:dataBinding`` in the body) and the part it names (custom XML) get
        the same ones; what this misses (a UTF-16 part) the tree pass of ``apply`` still finds."""
        text = data.decode("utf-8", "replace")
        for m in _XMLNS_TEXT.finditer(text):
            self.prefix(m.group(1))
            self.uri(_unquote(m))
        if text.isascii():
            return
        for tag in _XML_TAG.finditer(text):
            if tag.group().isascii():
                continue
            for m in _XML_NAME.finditer(_QUOTED.sub(" ", tag.group())):
                p, sep, local = m.group(1).rpartition(":")
                if p == "xmlns" or (not sep and local == "xmlns"):
                    continue
                if sep:
                    self.prefix(p)
                self.name(local)

    def uri(self, u: str) -> str:
        if not u or known_namespace(u):
            return u
        if u not in self.uris:
            self.uris[u] = f"{NEUTRAL_PREFIX}{len(self.uris) + 1}"
        return self.uris[u]

    def name(self, n: str) -> str:
        if not personal_name(n):
            return n
        if n not in self.names:
            self.names[n] = f"veil_n{len(self.names) + 1}"
        return self.names[n]

    def prefix(self, p: str | None) -> str | None:
        if p is None or not personal_name(p):
            return p
        if p not in self.prefixes:
            self.prefixes[p] = f"veil_p{len(self.prefixes) + 1}"
        return self.prefixes[p]

    def qname(self, tag: str) -> str:
        done = self._qnames.get(tag)
        if done is None:
            if tag.startswith("{"):
                ns, local = tag[1:].split("}", 1)
                done = "{%s}%s" % (self.uri(ns), self.name(local))
            else:
                done = self.name(tag)
            self._qnames[tag] = done
        return done

    def _prefixed(self, token: str) -> str:
        p, sep, local = token.rpartition(":")
        if not sep:
            return self.prefix(token) or token
        return f"{self.prefix(p)}:{self.name(local)}"

    def _renamed(self, token: str) -> str:
        p, sep, local = token.rpartition(":")
        if not sep:
            return self.names.get(token, self.prefixes.get(token, token))
        return f"{self.prefixes.get(p, p)}:{self.names.get(local, local)}"

    def value(self, attr: str, v: str) -> str:
        local = attr.rsplit("}", 1)[-1]
        if local == "prefixMappings" and "xmlns" in v:
            v = _PREFIX_MAP_URI.sub(lambda m: m.group(1) + m.group(2) + self.uri(m.group(3)) + m.group(4), v)
            v = re.sub(r"xmlns:([^=\s]+)", lambda m: "xmlns:" + (self.prefix(m.group(1)) or ""), v)
        elif local in _MC_LISTS and (attr.startswith("{http://schemas.openxmlformats.org/markup-compat")
                                     or attr == "Requires"):
            v = re.sub(r"[^\s]+", lambda m: self._prefixed(m.group()), v)
        elif local == "xpath" and (self.names or self.prefixes):
            # the steps of a data-binding path name the custom XML's elements: renamed with them
            v = _XPATH_STEP.sub(lambda m: self._renamed(m.group()), v)
        if self.uris and any(u in v for u in self.uris):
            v = re.sub(r"""[^\s'"]+""", lambda m: self.uris.get(m.group(), m.group()), v)
        return v

    def _needs_rebuild(self, root: etree._Element, text: str) -> bool:
        # declarations as written (``text``: the part decoded; every declaration is ``xmlns[:p]="…"``
        # there, used or not), then the names of every element and attribute
        for m in _XMLNS_TEXT.finditer(text):
            if self.prefix(m.group(1)) != m.group(1) or self.uri(_unquote(m)) != _unquote(m):
                return True
        for el in root.iter():
            tag = el.tag
            if not isinstance(tag, str):
                continue
            if self.qname(tag) != tag:
                return True
            for a in el.keys():
                if self.qname(a) != a:
                    return True
        return False

    def apply(self, root: etree._Element, data: bytes) -> etree._Element | None:
        """``root`` (parsed from ``data``) rewritten, or ``None`` when nothing in it needs a stand-in."""
        enc = root.getroottree().docinfo.encoding or "utf-8"
        try:
            text = data.decode(enc, "replace")
        except LookupError:
            text = data.decode("utf-8", "replace")
        if self._needs_rebuild(root, text):
            return self._rebuild(root, None, {})
        if not (self.uris or self.names or self.prefixes or "prefixMappings" in text):
            return None
        changed = False
        for el in root.iter():
            if isinstance(el.tag, str):
                for a, v in el.items():
                    new = self.value(a, v)
                    if new != v:
                        el.set(a, new)
                        changed = True
        return root if changed else None

    def _rebuild(self, el: etree._Element, parent: etree._Element | None, scope: dict) -> etree._Element:
        nsmap = dict(el.nsmap)
        local = {self.prefix(p): self.uri(u) for p, u in nsmap.items() if scope.get(p, object()) != u}
        tag = self.qname(el.tag)
        new = etree.Element(tag, nsmap=local) if parent is None else etree.SubElement(parent, tag,
                                                                                      nsmap=local)
        for a, v in el.attrib.items():
            new.set(self.qname(a), self.value(a, v))
        new.text = el.text
        for child in el:
            if isinstance(child.tag, str):
                c = self._rebuild(child, new, nsmap)
            else:
                if isinstance(child, etree._Comment):
                    c = etree.Comment(child.text)
                elif isinstance(child, etree._ProcessingInstruction):
                    c = etree.ProcessingInstruction(child.target, child.text)
                else:
                    c = etree.Entity(child.name)
                new.append(c)
            c.tail = child.tail
        return new


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
    #: ``(sizes, effects)`` from one walk of the parts (``docx.pictures_as_shown``): member -> every
    #: (width, height) the document shows that picture at (display units, whole picture: read stretched to
    #: those aspects too), and member -> the display effects it is shown through (read as shown too)
    shown: Callable[[list[Member]], tuple[dict[str, list[tuple[float, float]]], dict[str, list[tuple]]]] = (
        lambda ms: ({}, {}))


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
    from .pictures import review_pictures   # every picture rebuilt + OCR'd (issue 26)
    removed_members = profile.removed(members)
    shown_sizes, shown_effects = profile.shown(members)
    pics = review_pictures(members, removed_members, displayed=shown_sizes, effects=shown_effects)
    picture_pages: dict[str, list] = {}
    for member, (k, pages) in sorted(pics.read.items(), key=lambda kv: kv[1][0]):
        # text OCR read in a picture: reviewed like a scan page (one slot per published frame), the
        # masked values burned into its pixels by the writer (pictures.publish_member)
        picture_pages[member] = pages
        tb.begin_part(f"picture {k}", member, kind="picture", detail=str(k))
        for i, page in enumerate(pages):
            tb.slot(member, i, page.text)
            if not tb.ends_with_newline():
                tb.boilerplate("\n")
        tb.end_part()
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
    return Document(path=path, format=profile.fmt, text=text, parts=tuple(tb.parts),
                    segments=tuple(tb.segments), sha256=hashlib.sha256(data).hexdigest(),
                    size=len(data), notes=tuple(profile.notes(members)) + tuple(pics.notes),
                    captions=tuple(tb.captions), unreadable=tuple(pics.unreadable),
                    extra={"removed_members": removed_members, "picture_actions": pics.actions,
                           "picture_pages": picture_pages})


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
    markup = MarkupNeutraliser()
    for m in members:
        if m.name.endswith(".xml") or m.name.endswith(".rels") or m.name in text_parts:
            markup.seed(m.data)
    out: list[Member] = []
    for m in members:
        if not (m.name.endswith(".xml") or m.name.endswith(".rels") or m.name in text_parts):
            # pictures: rebuilt from pixels, reviewed text burned in (pictures.py)
            out.append(publish_member(m, doc, by_member.get(m.name)))
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
        if root.getprevious() is not None or root.getnext() is not None:
            changed = True   # comments / PIs before or after the root element: not serialised
        neutral = markup.apply(root, m.data)      # unknown namespace URIs, personal names in the markup
        if neutral is not None:
            root, changed = neutral, True
        if changed:
            m = Member(m.name, serialize_xml(root), m.compress_type, m.date_time)
        out.append(m)
    out = profile.scrub(out, doc)
    return write_zip(out, first_stored=profile.first_stored)


def publish_member(m: Member, doc: Document | None,
                   edits: dict[int, list[tuple[int, int, str]]] | None = None) -> Member:
    from .pictures import publish_member as _publish
    return _publish(m, doc, edits)


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
