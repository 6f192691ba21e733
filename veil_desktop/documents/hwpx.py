"""HWPX (OWPML, Hangul 2014+): sections read into reviewable text, masked in place across runs.

Layout: a ZIP with ``mimetype`` first and stored, ``Contents/section*.xml`` (``hp:p`` > ``hp:run`` >
``hp:t``; ``hp:t`` may hold ``hp:tab``/``hp:lineBreak`` children whose *tails* carry text), tables,
footnotes/endnotes and memos as nested ``hp:p``, ``Contents/content.hpf`` (OPF metadata), ``Preview/``.

Leak vectors handled:
- every ``hp:t`` text and tail in every section, plus any other non-blank element text in a section
  (field parameters such as hyperlink commands, shape comments) as its own line;
- ``Preview/PrvText.txt`` is regenerated from the *masked* section text (as Hangul does: the start of
  the document), in the encoding it had; ``Preview/PrvImage.*`` (a picture of page 1) is removed
  together with its manifest entries;
- ``content.hpf`` metadata (title, creator, subject, description, keywords, last saved by) blanked;
  author/creator attributes (track-change authors in ``header.xml``, memo authors) blanked, and the
  ``hh:linkinfo`` path cut to its file name.
Limitation: HWPX change tracking is not resolved (deleted text between ``hp:deleteBegin``/``End`` stays
in the file) — it is shown and masked like all other text, so it cannot leak a masked value.
"""
from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from ..masking import Replacement
from .errors import DocumentError
from .model import Document
from .safezip import Member, parse_xml, serialize_xml
from .xmlwalk import (Emitter, Slot, TextPart, ZipProfile, generic_walker, localname,
                      read_zip_document, without_refs, write_zip_document)

HP = "http://www.hancom.co.kr/hwpml/2011/paragraph"
_hp = "{%s}" % HP
_SECTION = re.compile(r"^Contents/section(\d+)\.xml$")
_INLINE = {"tab": "\t", "lineBreak": "\n", "fwSpace": " ", "nbSpace": " ", "hyphen": "-"}
_PERSON_ATTRS = {"author", "creator", "lastsaveby", "userName"}
PREVIEW_CHARS = 1024


def section_walker(root: etree._Element, em: Emitter) -> None:
    def walk(el) -> None:
        if not isinstance(el.tag, str):
            return
        name = localname(el)
        if el.tag == _hp + "t":
            em.slot(Slot(el, "text"))
            for child in el:
                if isinstance(child.tag, str):
                    em.boilerplate(_INLINE.get(localname(child), ""))
                em.slot(Slot(child, "tail"))
            return
        if el.text and el.text.strip() and el.tag != _hp + "t":
            em.slot(Slot(el, "text"), prefix=f"\n[{name}] ", suffix="\n")
        for child in el:
            walk(child)
            if child.tail and child.tail.strip():
                em.slot(Slot(child, "tail"), prefix="\n", suffix="\n")
        if name == "p" and el.tag == _hp + "p":
            em.boilerplate("\n")

    walk(root)


def classify(members: list[Member]) -> list[TextPart]:
    names = [m.name for m in members]
    secs = sorted((n for n in names if _SECTION.match(n)), key=lambda n: int(_SECTION.match(n).group(1)))
    out = [TextPart(n, "본문" if i == 0 else f"구역 {i + 1}", section_walker, header=i > 0)
           for i, n in enumerate(secs)]
    for n in sorted(names):
        if n.startswith("Contents/") and n.endswith(".xml") and n not in secs and "header" not in n:
            out.append(TextPart(n, "기타 XML", section_walker))
    for n in sorted(names):
        if n.startswith("Custom") and n.endswith(".xml"):
            out.append(TextPart(n, "사용자 지정 XML", generic_walker))
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
                # the file the document was linked from: a local path naming the author's account
                el.set(attr, re.split(r"[\\/]", el.get(attr))[-1])
                changed = True
    return changed


_META_KEEP = {"language", "CreatedDate", "ModifiedDate", "date"}


def _scrub_hpf(m: Member) -> Member:
    root = parse_xml(m.data, m.name)
    for md in root.iter():
        if not isinstance(md.tag, str) or localname(md) != "metadata":
            continue
        for el in md:
            if not isinstance(el.tag, str):
                continue
            key = el.get("name") if localname(el) == "meta" else localname(el)
            if key in _META_KEEP:
                continue
            el.text = None
            for c in list(el):
                el.remove(c)
    return Member(m.name, serialize_xml(root), m.compress_type, m.date_time)


def masked_section_text(members: list[Member]) -> str:
    """Plain text of the (already masked) sections, for the regenerated preview."""
    out = []
    for tp in classify(members):
        if not _SECTION.match(tp.member):
            continue
        m = next(x for x in members if x.name == tp.member)
        em = Emitter()
        section_walker(parse_xml(m.data, m.name), em)
        out.append("".join(v if k == "b" else v.get() for k, v in em.ops))  # type: ignore[union-attr]
    text = re.sub(r"\n{3,}", "\n\n", "".join(out)).strip()
    return text[:PREVIEW_CHARS]


def scrub(members: list[Member], doc: Document | None) -> list[Member]:
    dropped = [m.name for m in members if m.name.startswith("Preview/PrvImage")]
    out = []
    for m in members:
        if m.name in dropped:
            continue
        if m.name.endswith(".hpf"):
            m = _scrub_hpf(m)
        elif m.name == "Preview/PrvText.txt":
            preview = masked_section_text(members)
            enc = "utf-16-le" if m.data[:2] == b"\xff\xfe" or (b"\x00" in m.data[:64]) else "utf-8"
            bom = b"\xff\xfe" if m.data[:2] == b"\xff\xfe" else b""
            m = Member(m.name, bom + preview.replace("\n", "\r\n").encode(enc, "replace"),
                       m.compress_type, m.date_time)
        out.append(m)
    return [without_refs(m, dropped) for m in out]


def check(members: list[Member]) -> None:
    names = {m.name for m in members}
    if not any(_SECTION.match(n) for n in names):
        raise DocumentError("This is not an HWPX document (Contents/section0.xml is missing).")
    mt = next((m for m in members if m.name == "mimetype"), None)
    if mt is not None and not mt.data.strip().startswith(b"application/hwp"):
        raise DocumentError("This is not an HWPX document (wrong mimetype).")


def notes(members: list[Member]) -> list[str]:
    if any(m.name.startswith("BinData/") for m in members):
        return ["Pictures and objects (BinData) are copied unchanged; text inside images is not detected."]
    return []


PROFILE = ZipProfile(what="HWPX document", fmt="hwpx", classify=classify, clean=clean, scrub=scrub,
                     first_stored="mimetype", check=check, notes=notes)


def read_hwpx(path: Path, data: bytes) -> Document:
    return read_zip_document(path, data, PROFILE)


def write_hwpx(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    return write_zip_document(doc, plan, source, PROFILE)
