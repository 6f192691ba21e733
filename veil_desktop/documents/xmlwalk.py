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
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from lxml import etree

from ..masking import Replacement
from .errors import DocumentError
from .model import Document, TextBuilder, apply_local, split_plan
from .safezip import Member, parse_xml, read_zip, serialize_xml, write_zip


_W_T = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}t"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


class Slot:
    __slots__ = ("elem", "kind", "attr")

    def __init__(self, elem: etree._Element, kind: str, attr: str | None = None):
        self.elem, self.kind, self.attr = elem, kind, attr

    def get(self) -> str:
        if self.kind == "text":
            return self.elem.text or ""
        if self.kind == "tail":
            return self.elem.tail or ""
        return self.elem.get(self.attr) or ""

    def set(self, value: str) -> None:
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
    """Receives what a walker finds. ``deleted`` slots (tracked deletions) are listed after the part."""

    def __init__(self) -> None:
        self.slots: list[Slot] = []
        self.deleted: list[Slot] = []
        self.ops: list[tuple[str, object]] = []   # ("b", str) boilerplate | ("s", Slot)

    def boilerplate(self, s: str) -> None:
        self.ops.append(("b", s))

    def slot(self, slot: Slot, prefix: str = "", suffix: str = "") -> None:
        if not slot.get():
            return
        if prefix:
            self.boilerplate(prefix)
        self.slots.append(slot)
        self.ops.append(("s", slot))
        if suffix:
            self.boilerplate(suffix)

    def deleted_slot(self, slot: Slot) -> None:
        if slot.get():
            self.deleted.append(slot)

    def all_slots(self) -> list[Slot]:
        return self.slots + self.deleted


def localname(el) -> str:
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


Walker = Callable[[etree._Element, Emitter], None]


def generic_walker(root: etree._Element, em: Emitter) -> None:
    """Any XML (custom XML data): every non-blank text and tail is a slot, one per line."""
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if el.text and el.text.strip():
            em.slot(Slot(el, "text"), suffix="\n")
        if el is not root and el.tail and el.tail.strip():
            em.slot(Slot(el, "tail"), suffix="\n")


def rels_walker(root: etree._Element, em: Emitter) -> None:
    """OPC relationships: external targets (hyperlinks, template paths) are reviewable text."""
    for el in root:
        if localname(el) == "Relationship" and el.get("TargetMode") == "External":
            em.slot(Slot(el, "attr", "Target"), suffix="\n")


@dataclass
class TextPart:
    member: str
    name: str            # shown in the part header
    walker: Walker
    header: bool = True  # False for the main body (no header line)


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


def read_zip_document(path: Path, data: bytes, profile: ZipProfile) -> Document:
    members = read_zip(data, profile.what)
    profile.check(members)
    by_name = {m.name: m for m in members}
    tb = TextBuilder()
    deleted: list[tuple[str, int, str]] = []
    for tp in profile.classify(members):
        root = parse_xml(by_name[tp.member].data, tp.member)
        em = Emitter()
        tp.walker(root, em)
        if not em.slots and not em.deleted:
            continue
        if em.slots:
            tb.begin_part(tp.name, tp.member, header=tp.header)
            index = {id(s): i for i, s in enumerate(em.slots)}
            for kind, val in em.ops:
                if kind == "b":
                    tb.boilerplate(val)  # type: ignore[arg-type]
                else:
                    tb.slot(tp.member, index[id(val)], val.get())  # type: ignore[union-attr]
            if not tb.ends_with_newline():
                tb.boilerplate("\n")
            tb.end_part()
        for j, s in enumerate(em.deleted):
            deleted.append((tp.member, len(em.slots) + j, s.get()))
    if deleted:
        tb.begin_part(profile.deleted_part_name, "", removed=True)
        for member, idx, text in deleted:
            tb.boilerplate(f"[{member}] ")
            tb.slot(member, idx, text)
            tb.boilerplate("\n")
        tb.end_part()
    text = tb.text()
    return Document(path=path, format=profile.fmt, text=text, parts=tuple(tb.parts),
                    segments=tuple(tb.segments), sha256=hashlib.sha256(data).hexdigest(),
                    size=len(data), notes=tuple(profile.notes(members)))


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
