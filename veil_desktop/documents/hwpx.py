"""HWPX (OWPML, Hangul 2014+): every XML part reviewed, masked in place across runs; scripts removed.

Layout: a ZIP with ``mimetype`` first and stored, ``Contents/section*.xml`` (``hp:p`` > ``hp:run`` >
``hp:t``; ``hp:t`` may hold ``hp:tab``/``hp:lineBreak`` children whose *tails* carry text), tables,
footnotes/endnotes and memos as nested ``hp:p``, ``Contents/header.xml`` (styles, fonts, change-tracking
authors), ``Contents/content.hpf`` (OPF metadata and manifest), ``settings.xml``, ``Scripts/``,
``BinData/``, ``Preview/``.

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
``BinData`` pictures renamed to neutral names (a file name can carry a name); creator / last-saved-by /
author attributes blanked (shown in the removed part); the ``hh:linkinfo`` path blanked (its file name can carry a name).
Limitation: HWPX change tracking is not resolved (deleted text between ``hp:deleteBegin``/``End`` stays
in the file) — it is shown and masked like all other text, so it cannot leak a masked value.
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from lxml import etree

from ..masking import Replacement
from .errors import DocumentError
from .model import Document
from .safezip import Member, parse_xml, serialize_xml
from .xmlwalk import (Emitter, Slot, TextPart, ZipProfile, attribute_slots, generic_walker, localname,
                      read_zip_document, strip_picture_metadata, without_refs, write_zip_document)

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
            attribute_slots(el, em)
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
            attribute_slots(el, em)
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
        attribute_slots(el, em)
        if el is not root and el.tail and el.tail.strip():
            em.slot(Slot(el, "tail"), suffix="\n")


def _looks_xml(data: bytes) -> bool:
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] == b"<"


_IMAGE_MAGIC = (b"\x89PNG", b"\xff\xd8", b"GIF8", b"BM", b"II*\x00", b"MM\x00*", b"\xd7\xcd\xc6\x9a",
                b"\x01\x00\x09\x00")


def _is_picture(data: bytes) -> bool:
    return data.startswith(_IMAGE_MAGIC) or (data[:4] == b"\x01\x00\x00\x00" and data[40:44] == b" EMF")


def _removed(members: list[Member]) -> dict[str, str]:
    """Members dropped from the output, with the reason category."""
    out: dict[str, str] = {}
    for m in members:
        n = m.name
        if n == "mimetype" or n == "Preview/PrvText.txt":
            continue
        if n.startswith("Preview/PrvImage"):
            out[n] = "preview picture"
        elif n.startswith("Scripts/"):
            out[n] = "scripts"
        elif _looks_xml(m.data) or _is_picture(m.data):
            continue
        else:
            out[n] = "embedded objects and unknown binary parts"
    return out


def classify(members: list[Member]) -> list[TextPart]:
    names = [m.name for m in members]
    removed = _removed(members)
    by_name = {m.name: m for m in members}
    secs = sorted((n for n in names if _SECTION.match(n)), key=lambda n: int(_SECTION.match(n).group(1)))
    out = [TextPart(n, "body" if i == 0 else "section", section_walker, header=i > 0,
                    detail="" if i == 0 else str(i + 1)) for i, n in enumerate(secs)]
    if "Contents/header.xml" in by_name:
        out.append(TextPart("Contents/header.xml", "styles", header_walker, header=False))
    for n in sorted(names):
        if n in secs or n in removed or n == "Contents/header.xml" or n.endswith(".hpf"):
            continue
        if n.startswith("Custom") and _looks_xml(by_name[n].data):
            out.append(TextPart(n, "customxml", generic_walker, header=False))
    for n in sorted(names):
        if n in secs or n in removed or n == "Contents/header.xml" or n.endswith(".hpf"):
            continue
        if n.startswith("Custom"):
            continue
        if _looks_xml(by_name[n].data):
            out.append(TextPart(n, "settings" if n == "settings.xml" else "other", generic_walker,
                                header=False))
    for n in sorted(names):
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


def _scrub_hpf(m: Member, renamed: dict[str, str]) -> Member:
    root = parse_xml(m.data, m.name)
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


def scrub(members: list[Member], doc: Document | None) -> list[Member]:
    removed = _removed(members)
    dropped = list(removed)
    renamed: dict[str, str] = {}
    k = 0
    for m in members:
        if m.name.startswith("BinData/") and m.name not in removed:
            ext = posixpath.splitext(m.name)[1].lower()
            ext = ext if re.fullmatch(r"\.[a-z0-9]{1,5}", ext) else ""
            k += 1
            renamed[m.name] = f"BinData/image{k}{ext}"
    out = []
    for m in members:
        if m.name in removed:
            continue
        if m.name.endswith(".hpf"):
            m = _scrub_hpf(m, renamed)
        elif m.name == "Preview/PrvText.txt":
            preview = masked_section_text(members)
            enc = "utf-16-le" if m.data[:2] == b"\xff\xfe" or (b"\x00" in m.data[:64]) else "utf-8"
            bom = b"\xff\xfe" if m.data[:2] == b"\xff\xfe" else b""
            m = Member(m.name, bom + preview.replace("\n", "\r\n").encode(enc, "replace"),
                       m.compress_type, m.date_time)
        elif m.name in renamed:
            m = Member(renamed[m.name], strip_picture_metadata(m.data), m.compress_type, m.date_time)
        else:
            m = _rename_refs(m, renamed, {x.name for x in members})
        out.append(m)
    return [without_refs(m, dropped) for m in out]


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
        out.append("Pictures (BinData) are copied unchanged under neutral names; text inside images is "
                   "not detected.")
    return out


PROFILE = ZipProfile(what="HWPX document", fmt="hwpx", classify=classify, clean=clean, scrub=scrub,
                     first_stored="mimetype", check=check, notes=notes, removed=removed_members)


def read_hwpx(path: Path, data: bytes) -> Document:
    return read_zip_document(path, data, PROFILE)


def write_hwpx(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    return write_zip_document(doc, plan, source, PROFILE)
