"""HWPX (OWPML, Hangul 2014+): every XML part reviewed, masked in place across runs; scripts removed.

Layout: a ZIP with ``mimetype`` first and stored, ``Contents/section*.xml`` (``hp:p`` > ``hp:run`` >
``hp:t``; ``hp:t`` may hold ``hp:tab``/``hp:lineBreak`` children whose *tails* carry text), tables,
footnotes/endnotes and memos as nested ``hp:p``, ``Contents/header.xml`` (styles, fonts, change-tracking
authors), ``Contents/content.hpf`` (OPF metadata and manifest), ``settings.xml``, ``Scripts/``,
``BinData/``, ``Preview/``.

Every part is read by its declared type (``part_kinds``): the media type in ``META-INF/manifest.xml``,
``META-INF/container.xml`` and the ``content.hpf`` manifest; for an undeclared part the type the package
format gives its name; then its content (``pictures.sniff``; XML only if well-formed). Only XML parts are
parsed and reviewed; ``Preview/PrvText.txt`` is plain text (Hancom fills it with ``<표>`` markers) and
is never parsed.

What the reviewer sees (``section_walker``): every ``hp:t`` text and tail (also after an XML comment);
tables one row per line with cells separated by `` | ``; footnotes/endnotes/memos *after* the paragraph
they are anchored in, each with its caption (so ``각주`` and a name are never glued together); field
parameters (hyperlink commands, memo fields) as ``[Field] …`` without internal names; attribute values
that may be personal text (``@name`` of ``hp:fieldBegin`` and any other, by ``xmlwalk.textual_attribute``);
any other element text. ``Contents/header.xml``, ``settings.xml``, ``version.xml``, custom and unknown XML
parts are reviewed the same generic way; ``content.hpf`` metadata as document properties.

Output: masked in place; ``Preview/PrvText.txt`` regenerated from the masked *body text only* (no
captions, no field parameters), in the encoding it had; ``Preview/PrvImage.*`` removed; ``Scripts/*`` and
any non-picture binary (OLE objects in ``BinData``, unknown parts) removed with their manifest entries;
spine entries of removed parts and the objects that show a removed item (``hp:ole``/``hp:pic`` by
``binaryItemIDRef``, ``fileIDRef``, ``imageIDRef``) removed with them; a linked file's local path in the
manifest blanked; the package structure rebuilt (``scrub``: part names of the package grammar, manifest ids, hrefs and media types, references to manifest items, ``mimetype``, ZIP time stamps); creator / last-saved-by /
author attributes blanked (shown in the removed part); the ``hh:linkinfo`` path blanked (its file name can carry a name);
namespace URIs other than OWPML's/OCF's/OOXML's become ``urn:veil:ns:N`` (``xmlwalk.MarkupNeutraliser``).
Limitation: HWPX change tracking is not resolved (deleted text between ``hp:deleteBegin``/``End`` stays
in the file) — it is shown and masked like all other text, so it cannot leak a masked value.
"""
from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path

from lxml import etree

from ..masking import Replacement
from .errors import DocumentError
from .model import Document
from .safezip import Member, parse_xml, serialize_xml
from .xmlwalk import (Emitter, Slot, TextPart, ZipProfile, attribute_slots, child_named, custom_xml_walker,
                      generic_walker, localname,
                      read_zip_document, without_refs, write_zip_document)

HP = "http://www.hancom.co.kr/hwpml/2011/paragraph"
_hp = "{%s}" % HP
_SECTION = re.compile(r"^Contents/section(\d+)\.xml$")
_INLINE = {"tab": "\t", "lineBreak": "\n", "fwSpace": " ", "nbSpace": " ", "hyphen": "-"}
_PERSON_ATTRS = {"author", "creator", "lastsaveby", "userName"}
# anchored in a paragraph but not part of its sentence: shown after the paragraph, captioned
_NOTES = {"footNote": "footnote", "endNote": "endnote", "memo": "memo", "header": "header",
          "footer": "footer", "drawText": "textbox"}
PREVIEW_CHARS = 1024


def _is_body_slot(slot: Slot) -> bool:
    """A slot inside an ``hp:t`` (its text, a child's text or tail)."""
    if slot.kind == "attr":
        return False
    el = slot.elem if slot.kind == "text" else slot.elem.getparent()
    while el is not None:
        if el.tag == _hp + "t":
            return True
        el = el.getparent()
    return False


def _item_ref(el, attr: str) -> bool:
    """A reference to a manifest item (``binaryItemIDRef``..., ``hp:masterPage/@idRef``): rebuilt on export
    (``scrub`` maps it to the rebuilt id or removes what holds it), never written as read, so not shown (a
    masked one would name no item)."""
    return attr in _ITEM_REFS or (attr == "idRef" and localname(el) == "masterPage")


def _item_attribute_slots(el, em: Emitter) -> None:
    """``xmlwalk.attribute_slots`` without the references to manifest items (``_item_ref``)."""
    from .xmlwalk import _looks_url, textual_attribute
    for attr, value in el.attrib.items():
        if not _item_ref(el, attr) and textual_attribute(el, attr, value):
            em.slot(Slot(el, "attr", attr, url=_looks_url(value)), prefix="\n", suffix="\n",
                    caption="attribute")


def section_walker(root: etree._Element, em: Emitter) -> None:
    pending: list[tuple[str, list]] = []

    def walk(el, depth: int) -> None:
        if not isinstance(el.tag, str):
            return
        name = localname(el)
        if el.tag == _hp + "t":
            em.slot(Slot(el, "text"))
            inline(el)
            return
        if name in _NOTES and el.tag.startswith(_hp):
            # shown after the paragraph it is anchored in, captioned, not glued into its words
            nonlocal pending
            _item_attribute_slots(el, em)
            outer, pending = pending, []   # notes inside this one stay inside it
            em.push()
            for child in el:
                walk(child, 0)
            _flush(em, pending)
            ops = em.pop()
            pending = outer
            pending.append((_NOTES[name], ops))
            return
        if name == "tbl" and not _ends_nl(em.ops):
            em.boilerplate("\n")   # a table inside a paragraph starts on its own line
        if name == "stringParam" or name == "integerParam":
            if el.text and el.text.strip():   # hyperlink commands may be %-encoded: shown decoded
                em.slot(Slot(el, "text", url=True), prefix="\n", suffix="\n", caption="field")
            return
        if name == "fieldBegin":
            v = el.get("name")
            if v and v.strip():
                em.slot(Slot(el, "attr", "name"), prefix="\n", suffix="\n", caption="field")
            for a, val in el.attrib.items():
                if a != "name":
                    _maybe_attr(el, a, em)
        else:
            _item_attribute_slots(el, em)
        if el.text and el.text.strip():
            em.slot(Slot(el, "text"), prefix="\n", suffix="\n")
        is_para = el.tag == _hp + "p"
        cells = [c for c in el if isinstance(c.tag, str) and localname(c) == "tc"] if name == "tr" else []
        for child in el:
            walk(child, depth + 1 if is_para else depth)
            if cells and child is not cells[-1] and localname(child) == "tc":
                em.boilerplate(" | ")
            if child.tail and child.tail.strip():
                em.slot(Slot(child, "tail"), prefix="\n", suffix="\n")
        if is_para:
            sub = el.getparent()
            in_cell = sub is not None and localname(sub) == "subList" and sub.getparent() is not None \
                and localname(sub.getparent()) == "tc"
            if in_cell:
                paras = [c for c in sub if isinstance(c.tag, str) and c.tag == _hp + "p"]
                if paras and el is not paras[-1]:
                    em.boilerplate(" ")
            else:
                em.boilerplate("\n")
            if depth == 0 and pending:
                _flush(em, pending)
        elif name == "tr":
            em.boilerplate("\n")

    def inline(el) -> None:
        for child in el:
            if isinstance(child.tag, str):
                em.boilerplate(_INLINE.get(localname(child), ""))
                em.slot(Slot(child, "text"))   # text inside a child element of hp:t
                inline(child)
            em.slot(Slot(child, "tail"))

    def _maybe_attr(el, a, em):
        from .xmlwalk import textual_attribute
        if _item_ref(el, a):
            return
        if textual_attribute(el, a, el.get(a) or ""):
            em.slot(Slot(el, "attr", a), prefix="\n", suffix="\n", caption="attribute")

    walk(root, 0)
    _flush(em, pending)


def _ends_nl(ops) -> bool:
    for kind, val in reversed(ops):
        if kind == "b":
            if val:
                return str(val).endswith("\n")
            continue
        return False
    return True


def _flush(em: Emitter, pending: list) -> None:
    for key, ops in pending:
        em.caption(key)
        em.extend(ops)
        if ops and not (ops[-1][0] == "b" and str(ops[-1][1]).endswith("\n")):
            em.boilerplate("\n")
    pending.clear()


_HPF_KEYS = {"title": "meta_title", "subject": "meta_subject", "description": "meta_description",
             "keyword": "meta_keywords", "keywords": "meta_keywords"}
_HPF_REMOVED = {"creator": "meta_author", "lastsaveby": "meta_last_modified_by", "author": "meta_author"}
_META_KEEP = {"language", "CreatedDate", "ModifiedDate", "date"}


def _hpf_metadata(md: etree._Element):
    """``(element, key)`` for each entry of a ``content.hpf`` ``metadata`` element (``<opf:meta name=…>``
    keyed by its name, other elements by their local name)."""
    for el in md:
        if isinstance(el.tag, str):
            yield el, (el.get("name") if localname(el) == "meta" else localname(el))


def hpf_walker(root: etree._Element, em: Emitter) -> None:
    for md in root.iter():
        if not isinstance(md.tag, str):
            continue
        if localname(md) == "metadata":
            for el, key in _hpf_metadata(md):
                if key in _META_KEEP or not (el.text and el.text.strip()):
                    continue
                if key in _HPF_REMOVED:
                    em.deleted_slot(Slot(el, "text"), _HPF_REMOVED[key])
                else:
                    em.slot(Slot(el, "text"), caption=_HPF_KEYS.get(key, "meta_other"), suffix="\n")
        elif localname(md) in ("manifest", "spine"):
            continue
        elif md.getparent() is not None and localname(md.getparent()) in ("manifest", "spine", "metadata"):
            continue
        else:
            attribute_slots(md, em)


def header_walker(root: etree._Element, em: Emitter) -> None:
    """``Contents/header.xml``: style/numbering text, memo shapes... generic, but change-tracking author
    names go to the removed part (always blanked)."""
    for el in root.iter():
        if isinstance(el.tag, str) and localname(el) == "trackChangeAuthor" and el.get("name"):
            em.deleted_slot(Slot(el, "attr", "name"), "meta_author")
    for el in root.iter():
        if not isinstance(el.tag, str):
            if el.tail and el.tail.strip():
                em.slot(Slot(el, "tail"), suffix="\n")
            continue
        if localname(el) == "trackChangeAuthor":
            continue
        if el.text and el.text.strip():
            em.slot(Slot(el, "text"), suffix="\n")
        _item_attribute_slots(el, em)
        if el is not root and el.tail and el.tail.strip():
            em.slot(Slot(el, "tail"), suffix="\n")


def _looks_xml(data: bytes) -> bool:
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] == b"<"


def _parses_as_xml(m: Member) -> bool:
    """Content check for a part nobody declared: well-formed XML with a root element."""
    if not _looks_xml(m.data):
        return False
    try:
        parse_xml(m.data, m.name)
    except DocumentError as e:
        if "not well-formed XML" in str(e):
            return False     # not XML: removed as an unknown part
        raise                # a size or DTD refusal stays a refusal (never downgraded to "not XML")
    return True


def _is_picture(data: bytes) -> bool:
    """A picture by its content, as the picture rules (``pictures.sniff``) recognise one."""
    from .pictures import sniff
    return sniff(data) is not None


PRVTEXT = "Preview/PrvText.txt"
#: parts whose type the OWPML/OCF package format fixes by name (used only where nothing declares one)
_FORMAT_XML = {"version.xml", "settings.xml", "META-INF/container.xml", "META-INF/manifest.xml",
               "Contents/content.hpf", "Contents/header.xml"}
_ODF_MANIFEST = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"


def declared_types(members: list[Member]) -> dict[str, str]:
    """Member name -> media type, as the package declares it: ``META-INF/manifest.xml`` file entries,
    ``META-INF/container.xml`` root files, then the ``content.hpf`` manifest (the last one wins). Parts
    that declare nothing are absent. A declaring part that is not well-formed declares nothing here (the
    reader refuses it later, as any XML part)."""
    by_name = {m.name: m for m in members}
    out: dict[str, str] = {}

    def root(name: str):
        m = by_name.get(name)
        if m is None:
            return None
        try:
            return parse_xml(m.data, name)
        except DocumentError:
            return None

    r = root("META-INF/manifest.xml")
    if r is not None:
        for el in r.iter():
            if isinstance(el.tag, str) and localname(el) == "file-entry":
                path = el.get("{%s}full-path" % _ODF_MANIFEST) or el.get("full-path") or ""
                mt = el.get("{%s}media-type" % _ODF_MANIFEST) or el.get("media-type") or ""
                if path and not path.endswith("/"):
                    out[path.lstrip("/")] = mt
    r = root("META-INF/container.xml")
    if r is not None:
        for el in r.iter():
            if isinstance(el.tag, str) and localname(el) == "rootfile" and el.get("full-path"):
                out[el.get("full-path").lstrip("/")] = el.get("media-type") or ""
    for n in by_name:
        if n.endswith(".hpf"):
            r = root(n)
            if r is None:
                continue
            for el in r.iter():
                if isinstance(el.tag, str) and localname(el) == "item" and el.get("href"):
                    out[el.get("href").lstrip("/")] = el.get("media-type") or ""
    return out


def _media_kind(mt: str) -> str:
    mt = mt.split(";", 1)[0].strip().lower()
    if not mt:
        return ""
    if mt.endswith("xml") or mt.endswith("+xml") or mt in ("application/xml", "text/xml"):
        return "xml"
    if mt.startswith("text/plain"):
        return "text"
    if mt.startswith("image/"):
        return "image"
    if "javascript" in mt or "ecmascript" in mt:
        return "script"
    return "binary"


_KINDS_CACHE: dict = {}   # {digest of the members: kinds} of the last call (reader and writer ask often)


def part_kinds(members: list[Member]) -> dict[str, str]:
    """See ``_part_kinds``; the last answer is reused for the same members (same names, same bytes by
    digest: an undeclared XML part is parsed once, not once per question, so its elements are charged to
    the budget once). No member is kept alive by the cache."""
    h = hashlib.blake2b(digest_size=32)
    for m in members:
        h.update(m.name.encode("utf-8", "surrogatepass") + b"\0" + hashlib.blake2b(m.data).digest())
    key = h.digest()
    kinds = _KINDS_CACHE.get(key)
    if kinds is None:
        kinds = _part_kinds(members)
        _KINDS_CACHE.clear()
        _KINDS_CACHE[key] = kinds
    return dict(kinds)


def _part_kinds(members: list[Member]) -> dict[str, str]:
    """Every member's kind, by its declared type, then (undeclared) the type the package format gives its
    name, then its content — never by its file extension alone:

    ``mimetype``; ``xml`` (reviewed, must be well-formed); ``prvtext`` (``Preview/PrvText.txt``, plain
    text: regenerated, never parsed); ``preview`` (``Preview/PrvImage.*``: removed); ``picture`` (kept,
    through the picture rules); ``scripts``; ``binary`` (OLE objects, unknown or undeclared non-XML
    parts, text parts other than the preview: removed)."""
    declared = declared_types(members)
    out: dict[str, str] = {}
    for m in members:
        n = m.name
        kind = _media_kind(declared.get(n, ""))
        if n == "mimetype":
            out[n] = "mimetype"
        elif n == PRVTEXT:
            out[n] = "prvtext"          # plain text whatever it holds (Hancom writes <표> markers in it)
        elif n.startswith("Preview/PrvImage") or n.startswith("Preview/"):
            out[n] = "preview"
        elif n.startswith("Scripts/") or kind == "script":
            out[n] = "scripts"
        elif kind == "xml" or _SECTION.match(n):
            out[n] = "xml"              # a section is XML by definition: reviewed whatever it declares
        elif kind == "image":
            out[n] = "picture" if _is_picture(m.data) else "binary"
        elif kind in ("text", "binary"):
            out[n] = "binary"
        elif n in _FORMAT_XML or n.endswith(".hpf"):
            out[n] = "xml"
        elif _is_picture(m.data):
            out[n] = "picture"
        elif _parses_as_xml(m):
            out[n] = "xml"
        else:
            out[n] = "binary"
    return out


_REMOVED_REASON = {"preview": "preview picture", "scripts": "scripts",
                   "binary": "embedded objects and unknown binary parts"}


def _removed(members: list[Member]) -> dict[str, str]:
    """Members dropped from the output, with the reason category."""
    return {n: _REMOVED_REASON[k] for n, k in part_kinds(members).items() if k in _REMOVED_REASON}


def classify(members: list[Member]) -> list[TextPart]:
    """The reviewed parts in reading order: every part whose kind (``part_kinds``) is XML, and only those."""
    kinds = part_kinds(members)
    xml = sorted(n for n, k in kinds.items() if k == "xml")
    secs = sorted((n for n in xml if _SECTION.match(n)), key=lambda n: int(_SECTION.match(n).group(1)))
    out = [TextPart(n, "body" if i == 0 else "section", section_walker, header=i > 0,
                    detail="" if i == 0 else str(i + 1)) for i, n in enumerate(secs)]
    if "Contents/header.xml" in xml:
        out.append(TextPart("Contents/header.xml", "styles", header_walker, header=False))
    rest = [n for n in xml if n not in secs and n != "Contents/header.xml" and not n.endswith(".hpf")]
    for n in rest:
        if n.startswith("Custom"):
            out.append(TextPart(n, "customxml", custom_xml_walker, header=False))
    for n in rest:
        if not n.startswith("Custom"):
            out.append(TextPart(n, "settings" if n == "settings.xml" else "other", generic_walker,
                                header=False))
    for n in xml:
        if n.endswith(".hpf"):
            out.append(TextPart(n, "metadata", hpf_walker, header=False))
    return out


def clean(name: str, root: etree._Element) -> bool:
    changed = False
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for attr in list(el.attrib):
            local = attr.rsplit("}", 1)[-1]
            if (local in _PERSON_ATTRS or (local == "name" and localname(el) == "trackChangeAuthor")) \
                    and el.get(attr):
                el.set(attr, "")
                changed = True
            elif local == "path" and localname(el) == "linkinfo" and el.get(attr):
                # the file the document was linked from: a local path naming the author's account, and a
                # file name that can carry a name or number the reviewer never saw: blanked
                el.set(attr, "")
                changed = True
    return changed


def _item_ids(members: list[Member]) -> dict[str, str]:
    """``content.hpf`` manifest item id -> the member it names."""
    out: dict[str, str] = {}
    for m in members:
        if m.name.endswith(".hpf"):
            for el in parse_xml(m.data, m.name).iter():
                if isinstance(el.tag, str) and localname(el) == "item" and el.get("id") and el.get("href"):
                    out[el.get("id")] = el.get("href").lstrip("/")
    return out


#: attributes that name a ``content.hpf`` manifest item (a picture, an OLE object, a video and its poster)
_ITEM_REFS = ("binaryItemIDRef", "fileIDRef", "imageIDRef")


def _without_id_refs(m: Member, gone_ids: set[str]) -> Member:
    """``m`` without the objects that show a removed binary item (``_ITEM_REFS``): an OLE object, a
    picture or a video is removed whole (the run-level shape that holds it), a picture fill only its image brush
    — no reference is left dangling (Hancom shows a broken object, other readers refuse the file)."""
    if not gone_ids or not (m.name.endswith(".xml")) or b"IDRef" not in m.data:
        return m
    root = parse_xml(m.data, m.name)
    changed = False
    for el in list(root.iter()):
        if not isinstance(el.tag, str) or not any(el.get(a) in gone_ids for a in _ITEM_REFS):
            continue
        if el.getroottree().getroot() is not root:
            continue                  # already removed with an enclosing object
        target = el
        brush = next((a for a in el.iterancestors() if localname(a) == "imgBrush"), None)
        if brush is not None:
            target = brush
        else:
            while target.getparent() is not None and localname(target.getparent()) != "run" \
                    and target.getparent() is not root:
                target = target.getparent()
            if target.getparent() is None or localname(target.getparent()) != "run":
                target = el
        parent = target.getparent()
        if parent is not None:
            tail, prev = target.tail, target.getprevious()
            parent.remove(target)          # lxml drops the tail with it: text after the object stays
            if tail and tail.strip():
                if prev is not None:
                    prev.tail = (prev.tail or "") + tail
                else:
                    parent.text = (parent.text or "") + tail
            changed = True
    return Member(m.name, serialize_xml(root), m.compress_type, m.date_time) if changed else m


def _scrub_hpf(m: Member, renamed: dict[str, str], gone_ids: set[str] = frozenset(),
               names: set[str] | None = None) -> Member:
    root = parse_xml(m.data, m.name)
    for el in list(root.iter()):
        # a spine entry for a removed part (Hancom lists its scripts there) would name a missing item
        if isinstance(el.tag, str) and localname(el) == "itemref" and el.get("idref") in gone_ids \
                and el.getparent() is not None:
            el.getparent().remove(el)
    for md in root.iter():
        if not isinstance(md.tag, str):
            continue
        if localname(md) == "metadata":
            for el, key in _hpf_metadata(md):
                if key in _HPF_REMOVED:
                    el.text = None
                    for c in list(el):
                        el.remove(c)
        for a in ("href", "full-path"):
            v = md.get(a)
            if v and v.lstrip("/") in renamed:
                md.set(a, renamed[v.lstrip("/")])
            elif v and names is not None and localname(md) == "item" and v.lstrip("/") not in names:
                # a linked (not embedded) file: a local path such as C:\Users\<account>\Downloads\…,
                # never shown for review and naming the author: blanked, as the linkinfo path
                md.set(a, "")
    return Member(m.name, serialize_xml(root), m.compress_type, m.date_time)


def _rename_refs(m: Member, renamed: dict[str, str], names: set[str] | None = None) -> Member:
    if not (m.name.endswith(".xml") or m.name.endswith(".hpf")):
        return m
    dangling = names is not None and b"BinData/" in m.data
    if not renamed and not dangling:
        return m
    root = parse_xml(m.data, m.name)
    changed = False
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for a, v in el.attrib.items():
            if v.lstrip("/") in renamed:
                el.set(a, renamed[v.lstrip("/")])
                changed = True
            elif dangling and v.lstrip("/").startswith("BinData/") and v.lstrip("/") not in names:
                # a reference to a picture that is not in the package: its file name is never shown or
                # renamed (it can carry a name), so it is blanked
                el.set(a, "")
                changed = True
    return Member(m.name, serialize_xml(root), m.compress_type, m.date_time) if changed else m


def masked_section_text(members: list[Member]) -> str:
    """Plain body text of the (already masked) sections for the regenerated preview: ``hp:t`` text and
    the breaks between paragraphs only — no captions, field parameters or attribute values."""
    out = []
    for tp in classify(members):
        if not _SECTION.match(tp.member):
            continue
        m = next(x for x in members if x.name == tp.member)
        em = Emitter()
        section_walker(parse_xml(m.data, m.name), em)
        for k, v in em.ops:
            if k == "b":
                out.append(v)  # type: ignore[arg-type]
            elif k == "s" and _is_body_slot(v):  # type: ignore[arg-type]
                out.append(v.get())  # type: ignore[union-attr]
            elif k == "c":
                out.append("\n")
    text = re.sub(r"\n{3,}", "\n\n", "".join(out)).strip()
    return text[:PREVIEW_CHARS]


#: part names the package format fixes (kept as they are); every other part gets a name of its family
_FIXED_PARTS = {"mimetype", "version.xml", "settings.xml", "META-INF/container.xml", "META-INF/manifest.xml",
                "META-INF/container.rdf", "Contents/content.hpf", "Contents/header.xml",
                "Contents/memoExtended.xml", PRVTEXT}
_MASTERPAGE = re.compile(r"^Contents/masterpage(\d+)\.xml$", re.I)
_CANONICAL_N = re.compile(r"^(?:BinData/image|Chart/chart|Contents/part)([1-9]\d{0,2})\.[^/]*$")
MIMETYPE = b"application/hwp+zip"
#: media types of the parts the format fixes (container.xml root files, manifest entries)
_FIXED_TYPES = {"Contents/content.hpf": "application/hwpml-package+xml", PRVTEXT: "text/plain",
                "META-INF/container.rdf": "application/rdf+xml"}


def _part_names(members: list[Member]) -> dict[str, str]:
    """Old name -> new name for every part whose name is not the package grammar's (issue 26: a part name
    is read by anyone who unzips the file and never reviewed): sections ``Contents/section0.xml``... and
    master pages ``Contents/masterpage0.xml``... numbered from 0 in their order; pictures
    ``BinData/imageN.<extension of their bytes>``, charts ``Chart/chartN.xml`` and every other part
    ``Contents/partN.xml`` keep a number of at most 3 digits, others get the next free one."""
    from .opc import _natural, picture_extension, picture_kind

    names = sorted((m.name for m in members), key=_natural)
    by_name = {m.name: m for m in members}
    out: dict[str, str] = {}
    for rx, stem in ((_SECTION, "Contents/section"), (_MASTERPAGE, "Contents/masterpage")):
        fam = sorted((n for n in names if rx.match(n)), key=lambda n: int(rx.match(n).group(1)))
        for i, n in enumerate(fam):
            out[n] = f"{stem}{i}.xml"
    families: dict[str, list[str]] = {}
    for n in names:
        if n in out or n in _FIXED_PARTS:
            continue
        data = by_name[n].data
        if picture_kind(data) and not _looks_xml(data):
            families.setdefault("BinData/image", []).append(n)
        elif n.startswith("Chart/") and _looks_xml(data):
            families.setdefault("Chart/chart", []).append(n)
        else:
            families.setdefault("Contents/part", []).append(n)
    for stem, fam in families.items():
        taken: set[int] = set()
        number: dict[str, int] = {}
        for n in fam:
            m = _CANONICAL_N.match(n)
            if m and n.startswith(stem) and int(m.group(1)) not in taken:
                number[n] = int(m.group(1))
                taken.add(number[n])
        k = 1
        for n in fam:
            if n not in number:
                while k in taken:
                    k += 1
                number[n] = k
                taken.add(k)
            data = by_name[n].data
            ext = (picture_extension(data) if stem == "BinData/image"
                   else "xml" if _looks_xml(data) else "bin")
            out[n] = f"{stem}{number[n]}.{ext}"
    return {o: n for o, n in out.items() if o != n}


def _media_type(name: str, m: Member | None, declared: str | None) -> str:
    """The media type written for a part: the format's own (``_FIXED_TYPES``), a picture's by its bytes, XML
    ``application/xml``; for a file not in the package (a linked video) the declared one when it is a bare
    ``type/subtype`` (``opc.clean_media_type``), else ``application/octet-stream``."""
    from .opc import PICTURE_TYPES, clean_media_type, picture_kind

    if name in _FIXED_TYPES:
        return _FIXED_TYPES[name]
    if m is None:
        return clean_media_type(declared) or "application/octet-stream"
    kind = picture_kind(m.data)
    if kind and not _looks_xml(m.data):
        return PICTURE_TYPES[kind][1]
    if _looks_xml(m.data):
        return "application/xml"
    return clean_media_type(declared) or "application/octet-stream"


def _item_id(href: str, used: set[str]) -> str:
    """A manifest id made from a (renamed) part name, as Hancom names them: ``header``, ``section0``,
    ``image1``, ``memoextended``; ``item1``... when that one is taken."""
    base = posixpath.splitext(posixpath.basename(href))[0].lower()
    if re.fullmatch(r"[a-z]+\d{0,3}", base) and base not in used:
        return base
    k = 1
    while f"item{k}" in used:
        k += 1
    return f"item{k}"


def _rebuild_hpf(m: Member, present: dict[str, Member]) -> tuple[Member, dict[str, str]]:
    """``content.hpf`` with its manifest and spine rebuilt: every ``item`` has only ``id`` (from its part
    name, ``_item_id``), ``href``, ``media-type`` (``_media_type``) and, where it had one, ``isEmbeded``
    (1 for a part in the package, else 0); a linked item (no part) is ``imageN`` with an empty ``href``;
    spine ``itemref``s name the new ids (``linear`` only ``yes``/``no``), one naming no item is removed.
    Returns the member and old id -> new id."""
    root = parse_xml(m.data, m.name)
    ids: dict[str, str] = {}
    used: set[str] = set()
    items = [el for el in root.iter() if isinstance(el.tag, str) and localname(el) == "item"
             and el.getparent() is not None and localname(el.getparent()) == "manifest"]
    linked = []
    for el in items:
        href = (el.get("href") or "").lstrip("/")
        if href in present:
            new = _item_id(href, used)
        else:
            linked.append(el)
            continue
        used.add(new)
        ids.setdefault(el.get("id") or "", new)
        embedded = el.get("isEmbeded")
        typ = _media_type(href, present[href], el.get("media-type"))
        el.attrib.clear()
        el.set("id", new)
        el.set("href", href)
        el.set("media-type", typ)
        if embedded is not None:
            el.set("isEmbeded", "1")
    for el in linked:
        k = 1
        while f"image{k}" in used:
            k += 1
        new = f"image{k}"
        used.add(new)
        ids.setdefault(el.get("id") or "", new)
        embedded = el.get("isEmbeded")
        typ = _media_type("", None, el.get("media-type"))
        el.attrib.clear()
        el.set("id", new)
        el.set("href", "")        # a local path (blanked by _scrub_hpf)
        el.set("media-type", typ)
        if embedded is not None:
            el.set("isEmbeded", "0")
    ids.pop("", None)
    for el in list(root.iter()):
        if not (isinstance(el.tag, str) and localname(el) == "itemref"):
            continue
        idref, linear = el.get("idref"), el.get("linear")
        if idref not in ids:
            if el.getparent() is not None:
                el.getparent().remove(el)
            continue
        el.attrib.clear()
        el.set("idref", ids[idref])
        if linear in ("yes", "no"):
            el.set("linear", linear)
    return Member(m.name, serialize_xml(root), m.compress_type, m.date_time), ids


def _map_item_refs(m: Member, ids: dict[str, str]) -> tuple[Member, set[str]]:
    """References to manifest items (``_ITEM_REFS``, ``hp:masterPage/@idRef``, a master page's own ``id``)
    mapped to the new ids. Returns the member and the (new) values that name no item: the objects holding
    them are removed by ``_without_id_refs`` (a master-page reference is blanked)."""
    if not m.name.endswith(".xml") or not (b"IDRef" in m.data or b"idRef" in m.data or b"masterPage" in m.data):
        return m, set()
    root = parse_xml(m.data, m.name)
    changed = False
    dangling: set[str] = set()
    new_ids = set(ids.values())
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        local = localname(el)
        for a in _ITEM_REFS + ("idRef", "id"):
            v = el.get(a)
            if v is None or (a == "idRef" and local != "masterPage") or \
                    (a == "id" and not (local == "masterPage" and el is root)):
                continue
            if v in ids:
                if ids[v] != v:
                    el.set(a, ids[v])
                    changed = True
            elif a == "idRef" and v:
                el.set(a, "")
                changed = True
            elif a in _ITEM_REFS and v and v not in new_ids:
                dangling.add(v)
    out = Member(m.name, serialize_xml(root), m.compress_type, m.date_time) if changed else m
    return out, dangling


def _blank_refs(m: Member, values: set[str]) -> Member:
    """``_ITEM_REFS`` still naming one of ``values`` (on an element ``_without_id_refs`` keeps: the root)
    blanked: no reference is written as it was read."""
    if not values:
        return m
    root = parse_xml(m.data, m.name)
    changed = False
    for el in root.iter():
        if isinstance(el.tag, str):
            for a in _ITEM_REFS:
                if el.get(a) in values:
                    el.set(a, "")
                    changed = True
    return Member(m.name, serialize_xml(root), m.compress_type, m.date_time) if changed else m


def _fixed_media_types(m: Member, present: dict[str, Member]) -> Member:
    """``META-INF/container.xml`` root files and ``META-INF/manifest.xml`` entries: their media types
    rebuilt from the part they name (``_media_type``)."""
    if m.name not in ("META-INF/container.xml", "META-INF/manifest.xml"):
        return m
    root = parse_xml(m.data, m.name)
    changed = False
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for a in list(el.attrib):
            if a.rsplit("}", 1)[-1] != "media-type":
                continue
            raw = next((v for k, v in el.attrib.items() if k.rsplit("}", 1)[-1] == "full-path"), "")
            path = raw.lstrip("/")
            if raw.endswith("/"):          # a folder entry; "/" is the package itself (ODF manifest)
                new = MIMETYPE.decode() if raw == "/" else ""
            else:
                new = _media_type(path, present.get(path), el.get(a))
            if new != el.get(a):
                el.set(a, new)
                changed = True
    return Member(m.name, serialize_xml(root), m.compress_type, m.date_time) if changed else m


def scrub(members: list[Member], doc: Document | None) -> list[Member]:
    from .opc import FIXED_DATE
    from .pictures import dropped_pictures   # picture policy "remove" (issue 26)
    removed = {**_removed(members), **dict.fromkeys(dropped_pictures(doc), "picture")}
    dropped = list(removed)
    renamed = _part_names([m for m in members if m.name not in removed])
    ids = _item_ids(members)
    gone_ids = {i for i, href in ids.items() if href in removed}
    out = []
    for m in members:
        if m.name in removed:
            continue
        if m.name.endswith(".hpf"):
            m = _scrub_hpf(m, renamed, gone_ids, {x.name for x in members})
        elif m.name == PRVTEXT:
            # plain text (never parsed): regenerated from the masked body text, not patched
            preview = masked_section_text(members)
            enc = "utf-16-le" if m.data[:2] == b"\xff\xfe" or (b"\x00" in m.data[:64]) else "utf-8"
            bom = m.data[:2] if m.data[:2] == b"\xff\xfe" else m.data[:3] if m.data[:3] == b"\xef\xbb\xbf" \
                else b""   # in the encoding it had, with the byte-order mark it had
            m = Member(m.name, bom + preview.replace("\n", "\r\n").encode(enc, "replace"),
                       m.compress_type, m.date_time)
        elif m.name == "mimetype":
            m = Member(m.name, MIMETYPE, m.compress_type, m.date_time)   # checked at open; written anew
        elif _looks_xml(m.data):
            m = _rename_refs(_without_id_refs(m, gone_ids), renamed, {x.name for x in members})
        if m.name in renamed:
            m = Member(renamed[m.name], m.data, m.compress_type, m.date_time)  # pictures rebuilt: pictures.py
        out.append(m)
    out = [without_refs(m, dropped) for m in out]
    # the manifest rebuilt (ids from part names, media types from the parts), every reference to an item
    # mapped; a reference that names no item goes with the object that holds it
    present = {m.name: m for m in out}
    item_ids: dict[str, str] = {}
    for i, m in enumerate(out):
        if m.name == "Contents/content.hpf":
            out[i], item_ids = _rebuild_hpf(m, present)
    final = []
    for m in out:
        if m.name != "Contents/content.hpf" and m.name.endswith(".xml"):
            m, dangling = _map_item_refs(m, item_ids)
            m = _fixed_media_types(_blank_refs(_without_id_refs(m, dangling), dangling), present)
        final.append(Member(m.name, m.data, m.compress_type, FIXED_DATE))
    return final


def check(members: list[Member]) -> None:
    names = {m.name for m in members}
    if not any(_SECTION.match(n) for n in names):
        raise DocumentError("This is not an HWPX document (Contents/section0.xml is missing).")
    mt = next((m for m in members if m.name == "mimetype"), None)
    if mt is not None and not mt.data.strip().startswith(b"application/hwp"):
        raise DocumentError("This is not an HWPX document (wrong mimetype).")


def removed_members(members: list[Member]) -> list[str]:
    return sorted(_removed(members))


def notes(members: list[Member]) -> list[str]:
    out = []
    removed = {n: c for n, c in _removed(members).items() if c != "preview picture"}
    if removed:
        cats: dict[str, int] = {}
        for c in removed.values():
            cats[c] = cats.get(c, 0) + 1
        out.append("Removed from the export because their content cannot be reviewed: "
                   + ", ".join(f"{c} ({n})" for c, n in sorted(cats.items())) + ".")
    if any(m.name.startswith("BinData/") and m.name not in removed for m in members):
        out.append("Pictures (BinData) are rebuilt from their pixels under neutral names; text inside them "
                   "is checked by OCR.")
    return out


def _wh(el, w: str = "width", h: str = "height") -> tuple[float, float] | None:
    try:
        return (float(el.get(w)), float(el.get(h))) if el is not None else None
    except (TypeError, ValueError):
        return None


def displayed_sizes(members: list[Member]) -> dict[str, list[tuple[float, float]]]:
    """Picture member -> every (width, height) an ``hp:pic`` shows it at (HWPUNIT; the whole picture, the
    ``hp:imgClip`` crop undone against ``hp:imgDim``/``hp:orgSz``), for ``pictures.review_pictures``
    (issue 26: a name stored squashed and shown stretched): ``hp:sz``, ``hp:curSz`` and the box of
    ``hp:imgRect``'s corners, each that has a size. The picture is its ``hc:img binaryItemIDRef``'s
    manifest item."""
    ids = _item_ids(members)
    out: dict[str, list[tuple[float, float]]] = {}
    for m in members:
        if not m.name.endswith(".xml") or not _looks_xml(m.data):
            continue
        try:
            root = parse_xml(m.data, m.name)
        except DocumentError:
            continue
        for pic in root.iter():
            if not isinstance(pic.tag, str) or localname(pic) != "pic":
                continue
            img = next((e for e in pic.iter() if isinstance(e.tag, str) and localname(e) == "img"
                        and e.get("binaryItemIDRef")), None)
            target = ids.get(img.get("binaryItemIDRef")) if img is not None else None
            if target is None:
                continue
            sizes = [s for s in (_wh(child_named(pic, "sz")), _wh(child_named(pic, "curSz"))) if s]
            rect = child_named(pic, "imgRect")
            if rect is not None:
                pts = [_wh(c, "x", "y") for c in rect if isinstance(c.tag, str)]
                pts = [p for p in pts if p]
                if len(pts) >= 3:
                    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                    sizes.append((max(xs) - min(xs), max(ys) - min(ys)))
            whole = _wh(child_named(pic, "imgDim"), "dimwidth", "dimheight") or _wh(child_named(pic, "orgSz"))
            clip = child_named(pic, "imgClip")
            fx = fy = 1.0
            if clip is not None and whole and whole[0] > 0 and whole[1] > 0:
                lr, tb = _wh(clip, "left", "right"), _wh(clip, "top", "bottom")
                if lr and tb and lr[1] > lr[0] and tb[1] > tb[0]:
                    fx, fy = (lr[1] - lr[0]) / whole[0], (tb[1] - tb[0]) / whole[1]
            out.setdefault(target, []).extend((w / fx, h / fy) for w, h in sizes)
    return out


PROFILE = ZipProfile(what="HWPX document", fmt="hwpx", classify=classify, clean=clean, scrub=scrub,
                     first_stored="mimetype", check=check, notes=notes, removed=removed_members,
                     shown=lambda ms: (displayed_sizes(ms), {}))


def read_hwpx(path: Path, data: bytes) -> Document:
    return read_zip_document(path, data, PROFILE)


def write_hwpx(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    return write_zip_document(doc, plan, source, PROFILE)
