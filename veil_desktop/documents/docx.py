"""DOCX (WordprocessingML): every XML part read into reviewable text, masked in place across runs.

Reading order: body, headers, footers, footnotes, endnotes, comments, then other text parts (charts,
SmartArt, glossary, custom XML), external link targets, and finally the text of tracked deletions.

Leak vectors handled (see ``../shared/docs/PITFALLS.md``):
- text split across runs: slots are ``w:t`` nodes; a replacement goes into the first run it touches and
  the rest of the value is removed from the following runs, so each run keeps its formatting;
- tracked changes are resolved: ``w:del``/``w:moveFrom`` subtrees (with their ``w:delText``) are removed
  from the XML, ``w:ins``/``w:moveTo`` are unwrapped (insertions accepted), property-change records
  (``w:rPrChange`` ...) removed. Deleted text is still shown to the reviewer (last part) so it can be seen;
- comments are kept and masked like any other part; author/initials/user ids are blanked everywhere;
- text boxes: ``mc:Fallback`` copies (VML duplicates of ``mc:Choice``) are removed from the output and not
  shown twice; ``w:txbxContent`` text is read in place;
- field codes (``w:instrText``, ``w:fldSimple/@w:instr``), hyperlink tooltips, object names, legacy VML
  WordArt text / alt text / picture titles, hidden text (``w:vanish`` is just formatting on a ``w:t``), alt text
  (``descr``/``title`` on ``wp:docPr``/``pic:cNvPr``), hyperlink targets in ``.rels``, ``customXml/``;
- the attached template's path (``file:///C:/Users/<account>/…/Normal.dotm``) cut to its file name;
- ``docProps/core.xml`` / ``app.xml`` personal fields blanked, ``custom.xml`` properties removed,
  ``docProps/thumbnail.*`` (a picture of the first page) dropped.
"""
from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from ..masking import Replacement
from .errors import DocumentError
from .model import Document
from .safezip import Member, parse_xml, serialize_xml
from .xmlwalk import Emitter, Slot, TextPart, ZipProfile, generic_walker, localname, rels_walker
from .xmlwalk import read_zip_document, without_refs, write_zip_document

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_w = "{%s}" % W

_TEXT_TAGS = {"t", "instrText", "delText"}         # w:t, w:instrText, and a:t (DrawingML) via "t"
_CHART_TEXT = {"v"}                                 # c:v chart cache values
_PARA = {"p", "pt"}                                 # w:p, a:p, c:pt end a line
_DELETED = {_w + "del", _w + "moveFrom"}
_UNWRAP = {_w + "ins", _w + "moveTo"}
_DROP = {_w + t for t in ("rPrChange", "pPrChange", "sectPrChange", "tblPrChange", "trPrChange",
                          "tcPrChange", "tblGridChange", "tblPrExChange", "numberingChange",
                          "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart",
                          "moveToRangeEnd", "customXmlInsRangeStart", "customXmlInsRangeEnd",
                          "customXmlDelRangeStart", "customXmlDelRangeEnd",
                          "customXmlMoveFromRangeStart", "customXmlMoveFromRangeEnd",
                          "customXmlMoveToRangeStart", "customXmlMoveToRangeEnd", "cellIns", "cellDel")}
_PERSON_ATTRS = {"author", "initials", "userId", "providerId"}
_V = "{urn:schemas-microsoft-com:vml}"
_O = "{urn:schemas-microsoft-com:office:office}"
# legacy VML shapes outside mc:Fallback: WordArt text, alt text, picture titles
_VML_TEXT_ATTRS = {"textpath": ("string",), "shape": ("alt",), "imagedata": (_O + "title",)}
_FALLBACK = "{%s}Fallback" % MC


def wml_walker(root: etree._Element, em: Emitter) -> None:
    """WordprocessingML/DrawingML/chart parts: text nodes, breaks, alt text; deletions set aside."""

    def walk(el, deleted: bool) -> None:
        tag = el.tag
        if not isinstance(tag, str):
            return
        if tag == _FALLBACK:
            return  # duplicate of mc:Choice; removed from the output
        name = localname(el)
        if tag in _DELETED:
            deleted = True
        if name in _TEXT_TAGS or (name in _CHART_TEXT and tag.startswith("{http://schemas.openxmlformats.org/drawingml/2006/chart}")):
            s = Slot(el, "text")
            if deleted or name == "delText":
                em.deleted_slot(s)
            else:
                em.slot(s)
        elif not deleted:
            if name == "tab" and tag == _w + "tab" and el.getparent() is not None \
                    and localname(el.getparent()) == "r":
                em.boilerplate("\t")
            elif name in ("br", "cr") and tag.startswith(_w) or (name == "br" and "drawingml" in tag):
                em.boilerplate("\n")
            if name in ("docPr", "cNvPr"):
                for attr, shown in (("descr", "대체 텍스트"), ("title", "대체 텍스트 제목"),
                                    ("name", "개체 이름")):
                    if el.get(attr):
                        em.slot(Slot(el, "attr", attr), prefix=f"\n[{shown}] ", suffix="\n")
            elif tag.startswith(_V):
                for attr in _VML_TEXT_ATTRS.get(name, ()):
                    if el.get(attr):
                        em.slot(Slot(el, "attr", attr), prefix="\n[도형 텍스트] ", suffix="\n")
            elif tag == _w + "fldSimple" and el.get(_w + "instr"):
                em.slot(Slot(el, "attr", _w + "instr"), prefix="\n[필드] ", suffix="\n")
            elif tag == _w + "hyperlink" and el.get(_w + "tooltip"):
                em.slot(Slot(el, "attr", _w + "tooltip"), prefix="\n[링크 설명] ", suffix="\n")
        for child in el:
            walk(child, deleted)
        if name in _PARA and not deleted:
            em.boilerplate("\n")

    walk(root, False)


def _num(name: str) -> int:
    m = re.search(r"(\d+)\.xml$", name)
    return int(m.group(1)) if m else 0


_ORDER = [
    (re.compile(r"^word/document\.xml$"), "본문", False),
    (re.compile(r"^word/header\d*\.xml$"), "머리글", True),
    (re.compile(r"^word/footer\d*\.xml$"), "바닥글", True),
    (re.compile(r"^word/footnotes\.xml$"), "각주", True),
    (re.compile(r"^word/endnotes\.xml$"), "미주", True),
    (re.compile(r"^word/comments\.xml$"), "메모", True),
    (re.compile(r"^word/(charts|diagrams)/[^/]+\.xml$"), "도형·차트", True),
    (re.compile(r"^word/glossary/document\.xml$"), "상용구", True),
]


def classify(members: list[Member]) -> list[TextPart]:
    names = [m.name for m in members]
    out: list[TextPart] = []
    used = set()
    for pat, label, header in _ORDER:
        for n in sorted((n for n in names if pat.match(n)), key=lambda n: (_num(n), n)):
            out.append(TextPart(n, label, wml_walker, header))
            used.add(n)
    for n in sorted(names):
        if n.startswith("customXml/item") and n.endswith(".xml") and "Props" not in n:
            out.append(TextPart(n, "사용자 지정 XML", generic_walker))
            used.add(n)
    for n in sorted(names):
        if n.endswith(".rels") and n not in used:
            out.append(TextPart(n, "링크 대상", rels_walker))
    return out


def clean(name: str, root: etree._Element) -> bool:
    """Resolve tracked changes, drop fallbacks and blank personal attributes. True if changed."""
    if not (name.endswith(".xml")):
        return False
    changed = False
    for el in list(root.iter(_FALLBACK)):
        el.getparent().remove(el)
        changed = True
    for el in list(root.iter(*_DELETED)):
        parent = el.getparent()
        if parent is not None:
            _remove_keep_tail(el)
            changed = True
    for el in list(root.iter(*_DROP)):
        _remove_keep_tail(el)
        changed = True
    # paragraph-mark revision markers inside w:rPr (<w:rPr><w:ins/></w:rPr>) are dropped, not unwrapped
    for el in list(root.iter(*_UNWRAP)):
        parent = el.getparent()
        if parent is not None and localname(parent) == "rPr":
            parent.remove(el)
            changed = True
    for el in list(root.iter(*_UNWRAP)):
        _unwrap(el)
        changed = True
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for attr in list(el.attrib):
            if attr.rsplit("}", 1)[-1] in _PERSON_ATTRS and el.get(attr):
                el.set(attr, "")
                changed = True
    return changed


def _remove_keep_tail(el) -> None:
    parent = el.getparent()
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def _unwrap(el) -> None:
    parent = el.getparent()
    idx = parent.index(el)
    for i, child in enumerate(list(el)):
        parent.insert(idx + i, child)
    _remove_keep_tail(el)


# -- metadata --------------------------------------------------------------------------------------
_CORE_KEEP = {"created", "modified", "revision", "language"}
_APP_BLANK = {"Company", "Manager", "HyperlinkBase"}


def scrub(members: list[Member], doc: Document | None) -> list[Member]:
    out = []
    dropped: list[str] = []
    for m in members:
        low = m.name.lower()
        if low.startswith("docprops/thumbnail"):
            dropped.append(m.name)
            continue
        if low == "docprops/core.xml":
            root = parse_xml(m.data, m.name)
            for el in root:
                if isinstance(el.tag, str) and localname(el) not in _CORE_KEEP:
                    for c in list(el):
                        el.remove(c)
                    el.text = None
            m = Member(m.name, serialize_xml(root), m.compress_type, m.date_time)
        elif low == "docprops/app.xml":
            root = parse_xml(m.data, m.name)
            for el in root.iter():
                if not isinstance(el.tag, str):
                    continue
                if localname(el) in _APP_BLANK:
                    el.text = None
                if localname(el) == "TitlesOfParts":
                    for t in el.iter():
                        if isinstance(t.tag, str) and localname(t) == "lpstr":
                            t.text = None
            m = Member(m.name, serialize_xml(root), m.compress_type, m.date_time)
        elif low.endswith(".rels") and b"attachedTemplate" in m.data:
            m = _template_basename(m)
        elif low == "docprops/custom.xml":
            root = parse_xml(m.data, m.name)
            for el in list(root):
                root.remove(el)
            m = Member(m.name, serialize_xml(root), m.compress_type, m.date_time)
        out.append(m)
    if dropped:
        out = [without_refs(m, dropped) for m in out]
    return out


def _template_basename(m: Member) -> Member:
    """``file:///C:/Users/<name>/.../Normal.dotm`` -> ``Normal.dotm``: the path names the author's
    account, and Word only needs the file name to look the template up again."""
    root = parse_xml(m.data, m.name)
    for el in root:
        if (el.get("Type") or "").endswith("/attachedTemplate") and el.get("Target"):
            el.set("Target", re.split(r"[\\/]", el.get("Target"))[-1])
    return Member(m.name, serialize_xml(root), m.compress_type, m.date_time)


def check(members: list[Member]) -> None:
    names = {m.name for m in members}
    if "word/document.xml" not in names:
        raise DocumentError("This is not a Word document (word/document.xml is missing).")


def notes(members: list[Member]) -> list[str]:
    out = []
    if any(m.name.startswith("word/embeddings/") for m in members):
        out.append("The document contains embedded objects (word/embeddings); they are copied "
                   "unchanged and their contents are not reviewed.")
    if any(m.name.startswith("word/media/") for m in members):
        out.append("Pictures (word/media) are copied unchanged; text inside images is not detected.")
    return out


PROFILE = ZipProfile(what="Word document", fmt="docx", classify=classify, clean=clean, scrub=scrub,
                     deleted_part_name="변경 추적: 삭제된 텍스트 (내보내기에서 제거됨)", check=check,
                     notes=notes)


def read_docx(path: Path, data: bytes) -> Document:
    return read_zip_document(path, data, PROFILE)


def write_docx(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    return write_zip_document(doc, plan, source, PROFILE)
