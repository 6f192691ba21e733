"""DOCX (WordprocessingML): every part a recipient can read is reviewed, masked in place, or removed.

Parts are chosen by *relationship type*, not by file name (``_rels/*.rels``, followed from the package
root): the main document wherever it lives, headers/footers with any name, footnotes, endnotes,
comments, charts (``chart``, ``chartEx``), SmartArt, the glossary (building blocks), settings (document
variables, mail-merge data), styles and numbering, custom XML of any name, the metadata parts. Every
other XML part — unreferenced or of an unknown type — is reviewed too ("other document data"). Parts
that cannot be reviewed (macros ``vbaProject``, embedded objects, ``altChunk`` HTML/RTF, ActiveX,
embedded fonts, printer settings, unknown binary parts) are **removed** from the output together with
their relationships and the elements that point at them; ``Document.extra["removed_members"]`` and a
note (copied into the report's warnings) say what was removed. Pictures are kept (no OCR).

What is reviewed in a part (``wml_walker``): text runs (``w:t``, ``a:t``, ``m:t``, field codes, deleted
text) including text after an XML comment/PI inside a run; any other element text and stray tails; text
attributes (alt text, object names, form-field defaults/help/status text and list entries, content-control
alias/tag/list items/dates, smart-tag and custom-XML attributes, hyperlink tooltips and anchors,
``fldSimple`` codes, document variables, mail-merge data, VML text) and every other attribute value
without a known harmless grammar (default deny: ``xmlwalk.harmless_value``); custom XML (what
data-bound content controls show) strictly: an all-digit value there is data, not an id. Tables are shown one row per line with
cells separated by `` | ``; text boxes follow the paragraph they are anchored in (captioned), so their
words are not glued to the anchor's.

Output cleaning: tracked changes resolved (``w:del``/``w:moveFrom`` removed, ``w:ins``/``w:moveTo``
accepted, property-change records dropped; deleted text is shown in the removed part), ``mc:Fallback``
duplicates removed, XML comments and processing instructions removed, author/initials/user-id attributes
blanked (comment authors are shown in the comment captions), ``docProps``: author and last-modified-by
(shown in the removed part) and ``Manager`` blanked, other properties reviewed and written back masked,
the thumbnail dropped. Neutralised (issue 26): bookmark names renamed ``_veil_bm1``... with every
reference (hyperlink anchors, ``REF``/``PAGEREF`` field codes); local-file, UNC and ``tel:`` links
removed (a hyperlink keeps its text); a ``mailto:`` link loses its ``?subject=&body=`` query;
relationships to sub-documents, the attached template, frames and mail-merge sources removed with the
elements that point at them; VML ``o:gfxdata`` removed. The markup itself (``xmlwalk.MarkupNeutraliser``):
a namespace URI no specification defines becomes ``urn:veil:ns:N`` (prefix kept: ``mc:Ignorable`` stays
valid), names that may be text get stand-ins, comments/PIs before or after the root are dropped; a DOCTYPE
anywhere is refused (``safezip.parse_xml``).
The package structure (part names, relationship ids/types/targets, every reference to a relationship id,
``[Content_Types].xml``, ZIP time stamps) is rebuilt, not copied: ``opc.rebuild_docx``.
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path
from urllib.parse import unquote

from lxml import etree

from ..masking import Replacement
from .errors import DocumentError
from .model import Document
from .opc import rebuild_docx
from .opc import remove_keep_tail as _remove_keep_tail
from .safezip import Member, parse_xml, serialize_xml
from .xmlwalk import (NEUTRALISED, Emitter, Slot, TextPart, ZipProfile, attribute_slots, child_named,
                      custom_xml_walker, generic_walker, localname, read_zip_document, rels_walker,
                      sym_text, textual_attribute,
                      write_zip_document)

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_w = "{%s}" % W
_R_ATTR = ("{%s}" % R_NS, "{http://purl.oclc.org/ooxml/officeDocument/relationships}")

_TEXT_TAGS = {"t", "instrText", "delText", "delInstrText"}   # w:t, a:t (DrawingML), m:t (math), codes
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
# base64 payloads nobody reviews (field binary data, Word 2003 binData, custom-property blobs/streams/
# clipboard data): a recipient can decode them (red team: an RRN in a w:fldData), so they are emptied
_VT = "{http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes}"
_BINARY_PAYLOAD = {_w + "fldData", _w + "binData"} | {_VT + t for t in ("blob", "oblob", "stream", "ostream",
                                                                      "vstream", "cf")}
_V = "{urn:schemas-microsoft-com:vml}"
_O = "{urn:schemas-microsoft-com:office:office}"
_FALLBACK = "{%s}Fallback" % MC

# element local name -> (caption key, attributes that are text whatever they hold)
_CURATED: dict[str, tuple[str, tuple[str, ...]]] = {
    "docPr": ("alt", ("descr", "title")), "cNvPr": ("alt", ("descr", "title")),
    "textpath": ("shape_text", ("string",)), "shape": ("shape_text", ("alt",)),
    "imagedata": ("shape_text", (_O + "title",)),
    "fldSimple": ("field", (_w + "instr",)),
    "hyperlink": ("link_tip", (_w + "tooltip", _w + "anchor", _w + "docLocation")),
    "smartTag": ("attribute", (_w + "element",)), "customXml": ("attribute", (_w + "element",)),
    "attr": ("attribute", (_w + "name", _w + "val")),
    "alias": ("control", (_w + "val",)), "tag": ("control", (_w + "val",)),
    "listItem": ("control", (_w + "displayText", _w + "value")),
    "docPart": ("control", (_w + "val",)), "date": ("control", (_w + "fullDate",)),
    "default": ("form", (_w + "val",)), "helpText": ("form", (_w + "val",)),
    "statusText": ("form", (_w + "val",)), "listEntry": ("form", (_w + "val",)),
    "docVar": ("variable", (_w + "name", _w + "val")),
    "tblCaption": ("attribute", (_w + "val",)), "tblDescription": ("attribute", (_w + "val",)),
}
_CURATED_IN = {"ffData": ("form", (_w + "name",)), "mailMerge": ("mail_merge", None),
               "odso": ("mail_merge", None)}
_NUMERIC = re.compile(r"^-?\d+$")
# names Word gives objects itself ("Picture 3", "Text Box 9", "그림 2", "image1.png")
_DEFAULT_NAME = re.compile(
    r"^(?:Picture|Image|Text ?Box|Rectangle|Rounded Rectangle|Oval|Straight (?:Arrow )?Connector|Line|"
    r"Chart|Diagram|Group|Canvas|Shape|Object|Freeform|WordArt|Ink|Graphic|Content Placeholder|"
    r"그림|글상자|텍스트 상자|도형|개체|사진|차트|그룹|직사각형|타원|직선 연결선|캔버스)\s*\d+$"
    r"|^[A-Za-z0-9_.-]+\.(?:png|jpe?g|gif|emf|wmf|bmp|tiff?|svg)$", re.I)


def _attrs(el, em: Emitter, context: str | None) -> None:
    name = localname(el)
    cur = _CURATED.get(name)
    done: set[str] = set()
    if cur is not None and el.tag.startswith(("{" + W, "{http://schemas.openxmlformats.org/drawingml",
                                               _V, "{http://schemas.microsoft.com/office/word")):
        key, attrs = cur
        if name in ("docPr", "cNvPr") and el.get("name") and not _DEFAULT_NAME.match(el.get("name")):
            em.slot(Slot(el, "attr", "name"), prefix="\n", suffix="\n", caption="object_name")
        if name in ("docPr", "cNvPr"):
            done.add("name")
        if name in ("alias", "tag", "docPart", "date") and context != "control":
            attrs = ()
        if name in ("default", "helpText", "statusText", "listEntry") and context != "form":
            attrs = ()
        for a in attrs:
            v = el.get(a)
            if v and v.strip():
                em.slot(Slot(el, "attr", a), prefix="\n", suffix="\n", caption=key)
                done.add(a)
    if context == "mail_merge":
        for a, v in el.attrib.items():
            if a not in done and localname_attr(a) == "val" and v.strip() and not _NUMERIC.match(v):
                em.slot(Slot(el, "attr", a), prefix="\n", suffix="\n", caption="mail_merge")
                done.add(a)
    if context == "form" and name == "name":
        v = el.get(_w + "val")
        if v and v.strip():
            em.slot(Slot(el, "attr", _w + "val"), prefix="\n", suffix="\n", caption="form")
            done.add(_w + "val")
    if name == "bookmarkStart" and el.tag == _w + "bookmarkStart":
        done.add(_w + "name")   # renamed on export (``_rename_bookmarks``): never published as written
    # references to relationship ids (r:id, r:embed, r:dm ..., VML o:relid): rebuilt on export
    # (``opc.rebuild_docx``): never published as written, so not shown (a masked one would dangle)
    done.update(a for a in el.attrib if a.startswith(_R_ATTR) or a == _O + "relid")
    for a, v in el.attrib.items():
        if a not in done and textual_attribute(el, a, v):
            em.slot(Slot(el, "attr", a), prefix="\n", suffix="\n", caption="attribute")


def localname_attr(a: str) -> str:
    return a.rsplit("}", 1)[-1]


def wml_walker(root: etree._Element, em: Emitter) -> None:
    """WordprocessingML/DrawingML/chart parts: runs, tables as rows, text boxes after their paragraph,
    text attributes, any other text; deletions set aside for the removed part."""
    pending: list[list] = []   # text boxes of the current top-level paragraph

    def flush() -> None:
        for ops in pending:
            em.caption("textbox")
            em.extend(ops)
            if not _ends_nl(em.ops):
                em.boilerplate("\n")
        pending.clear()

    def tails(el, deleted: bool, inline: bool) -> None:
        # text after a child (an XML comment/PI or an element) inside ``el``; inside a text run, also the
        # text of child elements (``<w:t>홍<x:y>길</x:y>동</w:t>``), in document order
        for child in el:
            if inline and isinstance(child.tag, str):
                if child.text:
                    s = Slot(child, "text")
                    em.deleted_slot(s) if deleted else em.slot(s)
                tails(child, deleted, True)
            if child.tail and (inline or child.tail.strip()):
                s = Slot(child, "tail")
                if deleted:
                    em.deleted_slot(s)
                elif inline:
                    em.slot(s)
                else:
                    em.slot(s, prefix="\n", suffix="\n")

    def walk(el, deleted: bool, context: str | None, para_depth: int) -> None:
        tag = el.tag
        if not isinstance(tag, str) or tag == _FALLBACK:
            return  # comments/PIs (removed from the output; text after them is a tail of the parent);
            # mc:Fallback duplicates mc:Choice and is removed from the output
        name = localname(el)
        if tag in _BINARY_PAYLOAD:
            # base64 nobody reads as text, emptied by the writer (scrub): shown among what is removed
            if el.text:
                em.deleted_slot(Slot(el, "text"), "binary_payload")
            return
        if tag in _DELETED:
            deleted = True
        if name in _TEXT_TAGS:
            s = Slot(el, "text")
            if deleted or name in ("delText", "delInstrText"):
                em.deleted_slot(s)
                tails(el, True, True)
            else:
                em.slot(s)
                tails(el, False, True)
            return
        if name in _CURATED_IN:
            context = _CURATED_IN[name][0]
        elif name == "sdtPr":
            context = "control"
        if not deleted:
            if name == "tab" and tag == _w + "tab" and el.getparent() is not None \
                    and localname(el.getparent()) == "r":
                em.boilerplate("\t")
            elif name in ("br", "cr") and tag.startswith(_w) or (name == "br" and "drawingml" in tag):
                em.boilerplate("\n")
            elif name == "comment" and tag == _w + "comment":
                if not em.ops or not _ends_nl(em.ops):
                    em.boilerplate("\n")
                who = " ".join(x for x in (el.get(_w + "author"), ) if x)
                em.caption("comment", who)
                em.boilerplate("\n")
            if name == "sym" and tag == _w + "sym" and sym_text(el.get(_w + "char") or ""):
                em.slot(Slot(el, "sym", _w + "char"))      # Word draws this character: read it as text
            _attrs(el, em, context)
            if el.text and _show_text(el, name, el.text):
                em.slot(Slot(el, "text"), prefix="\n", suffix="\n")
        is_para = name == "p" and tag in (_w + "p", "{http://schemas.openxmlformats.org/drawingml/2006/main}p")
        if name == "txbxContent" and para_depth > 0 and not deleted:
            outer = pending[:]       # text boxes inside this one stay inside it
            pending.clear()
            em.push()
            for child in el:
                walk(child, deleted, context, 0)
            flush()
            ops = em.pop()
            pending[:] = outer + [ops]
            return
        depth = para_depth + 1 if is_para else para_depth
        cells = [c for c in el if isinstance(c.tag, str) and localname(c) in ("tc", "sdt", "customXml")] \
            if tag == _w + "tr" else []
        # w:bdo (17.3.2.3, a bidirectional override: Word shows its runs' characters right to left) and w:dir
        # (17.3.2.8, an embedding) are read as the Unicode controls they are (RLO/LRO, RLE/LRE ... PDF):
        # the detection view and the review read the text in the order Word shows it (layout.bidi_edits)
        control = _DIRECTION.get((tag, (el.get(_w + "val") or "").lower())) if not deleted else None
        if control:
            em.boilerplate(control)
        for child in el:
            walk(child, deleted, context, depth)
            if cells and child in cells and child is not cells[-1] and not deleted:
                em.boilerplate(" | ")
        if control:
            em.boilerplate("\u202c")
        if not deleted:
            tails(el, False, False)
        if deleted:
            return
        if is_para:
            parent = el.getparent()
            while parent is not None and parent.tag in (_w + "sdtContent", _w + "sdt", _w + "customXml"):
                parent = parent.getparent()
            if parent is not None and parent.tag == _w + "tc":
                last = None
                for last in parent.iter(_w + "p"):
                    pass
                if el is not last:
                    em.boilerplate(" ")
            else:
                em.boilerplate("\n")
            if para_depth == 0 and pending:
                flush()
        elif name == "tr" and tag == _w + "tr":
            em.boilerplate("\n")
        elif name == "pt" or (name == "comment" and tag == _w + "comment"):
            if not _ends_nl(em.ops):
                em.boilerplate("\n")

    walk(root, False, None, 0)
    flush()  # a text box outside any paragraph


_LAYOUT_NS = ("{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}",
              "{http://schemas.microsoft.com/office/word/2010/wordprocessingDrawing}")


#: direction elements of WordprocessingML and the bidi control each stands for (closed by PDF, U+202C)
_DIRECTION = {(_w + "bdo", "rtl"): "\u202e", (_w + "bdo", "ltr"): "\u202d",
              (_w + "dir", "rtl"): "\u202b", (_w + "dir", "ltr"): "\u202a"}


def _show_text(el, name: str, text: str) -> bool:
    """Element text outside the text runs: shown unless it is layout data (picture offsets, alignment)."""
    t = text.strip()
    if not t:
        return False
    if el.tag.startswith(_LAYOUT_NS):
        return textual_attribute(el, "text", t)
    if _NUMERIC.match(t) and name not in ("v", "pt"):
        return False
    return True


def _ends_nl(ops) -> bool:
    for kind, val in reversed(ops):
        if kind == "b":
            if val:
                return val.endswith("\n")  # type: ignore[union-attr]
            continue
        return False
    return True


# -- metadata parts ---------------------------------------------------------------------------------
_CORE_KEYS = {"title": "meta_title", "subject": "meta_subject", "keywords": "meta_keywords",
              "description": "meta_description", "category": "meta_category",
              "contentStatus": "meta_status", "identifier": "meta_other", "version": "meta_other"}
_CORE_REMOVED = {"creator": "meta_author", "lastModifiedBy": "meta_last_modified_by"}
_CORE_KEEP = {"created", "modified", "revision", "language", "lastPrinted"}
_APP_KEYS = {"Template": "meta_template", "Company": "meta_company", "HyperlinkBase": "meta_other"}
_APP_REMOVED = {"Manager": "meta_manager"}
_APP_SKIP = {"Application", "AppVersion", "DocSecurity", "ScaleCrop", "LinksUpToDate", "SharedDoc",
             "HyperlinksChanged", "TotalTime", "Pages", "Words", "Characters", "Lines", "Paragraphs",
             "CharactersWithSpaces", "HeadingPairs", "Notes", "Slides", "HiddenSlides", "MMClips",
             "PresentationFormat", "DigSig"}


def core_walker(root, em: Emitter) -> None:
    for el in root:
        if not isinstance(el.tag, str):
            continue
        name = localname(el)
        if name in _CORE_REMOVED:
            em.deleted_slot(Slot(el, "text"), _CORE_REMOVED[name])
        elif name not in _CORE_KEEP and el.text and el.text.strip():
            em.slot(Slot(el, "text"), caption=_CORE_KEYS.get(name, "meta_other"), suffix="\n")
        attribute_slots(el, em)


def app_walker(root, em: Emitter) -> None:
    for el in root:
        if not isinstance(el.tag, str):
            continue
        name = localname(el)
        if name in _APP_SKIP:
            continue
        if name in _APP_REMOVED:
            em.deleted_slot(Slot(el, "text"), _APP_REMOVED[name])
            continue
        if name == "TitlesOfParts":
            for t in el.iter():
                if isinstance(t.tag, str) and t.text and t.text.strip():
                    em.slot(Slot(t, "text"), caption="meta_title", suffix="\n")
            continue
        for t in el.iter():
            if isinstance(t.tag, str) and t.text and t.text.strip():
                em.slot(Slot(t, "text"), caption=_APP_KEYS.get(name, "meta_other"), suffix="\n")


def custom_walker(root, em: Emitter) -> None:
    for prop in root:
        if not isinstance(prop.tag, str):
            continue
        em.caption("meta_custom")
        em.slot(Slot(prop, "attr", "name"), suffix=": ")
        for v in prop.iter():
            if v is not prop and isinstance(v.tag, str) and v.text and v.text.strip():
                if v.tag in _BINARY_PAYLOAD:      # emptied by the writer (scrub)
                    em.deleted_slot(Slot(v, "text"), "binary_payload")
                else:
                    em.slot(Slot(v, "text"))
        em.boilerplate("\n")


def people_walker(root, em: Emitter) -> None:
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for a in el.attrib:
            if localname_attr(a) in ("author", "initials", "userId"):
                em.deleted_slot(Slot(el, "attr", a), "meta_comment_author")


# -- the package: relationships and content types ----------------------------------------------------
_REL_KIND = {
    "officeDocument": "body", "header": "header", "footer": "footer", "footnotes": "footnotes",
    "endnotes": "endnotes", "comments": "comments", "glossaryDocument": "glossary", "chart": "chart",
    "chartEx": "chart", "diagramData": "chart", "diagramDrawing": "chart", "diagramLayout": "chart",
    "diagramQuickStyle": "chart", "diagramColors": "chart", "chartUserShapes": "chart",
    "settings": "settings", "styles": "styles", "numbering": "styles", "stylesWithEffects": "styles",
    "customXml": "customxml", "customXmlProps": "customxml", "core-properties": "meta_core",
    "extended-properties": "meta_app", "custom-properties": "meta_custom", "people": "meta_people",
    "thumbnail": "drop", "image": "image",
}
#: relationship types whose targets cannot be reviewed: removed from the output (category for the note)
_REL_REMOVE = {
    "vbaProject": "macros", "wordVbaData": "macros", "keyMapCustomizations": "macros",
    "attachedToolbars": "macros", "oleObject": "embedded objects", "package": "embedded objects",
    "aFChunk": "embedded HTML/RTF chunks (altChunk)", "activeXControl": "ActiveX controls",
    "activeXControlBinary": "ActiveX controls", "control": "ActiveX controls",
    "printerSettings": "printer settings", "font": "embedded fonts", "video": "media",
    "audio": "media", "media": "media",
}
_ORDER = ["body", "header", "footer", "footnotes", "endnotes", "comments", "chart", "glossary",
          "settings", "styles", "customxml", "other", "links", "meta_core", "meta_app", "meta_custom",
          "meta_people"]
_META_WALKERS = {"meta_core": core_walker, "meta_app": app_walker, "meta_custom": custom_walker,
                 "meta_people": people_walker}


def _source_of_rels(name: str) -> str:
    """``word/_rels/document.xml.rels`` -> ``word/document.xml``; ``_rels/.rels`` -> ``""``."""
    d, f = posixpath.split(name)
    base = posixpath.dirname(d) if posixpath.basename(d) == "_rels" else d
    return posixpath.join(base, f[:-5]) if f != ".rels" else base.rstrip("/")


def _resolve(source: str, target: str) -> str:
    target = unquote(target)  # part names in relationships may be %-encoded (OPC)
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    base = posixpath.dirname(source) if source else ""
    return posixpath.normpath(posixpath.join(base, target))


def _relationships(members: list[Member]) -> dict[str, list[tuple[str, str, str, bool]]]:
    """``{source part: [(id, type suffix, target part or URL, external)]}`` of every ``.rels``."""
    out: dict[str, list[tuple[str, str, str, bool]]] = {}
    for m in members:
        if not m.name.endswith(".rels"):
            continue
        try:
            root = parse_xml(m.data, m.name)
        except DocumentError:
            continue
        src = _source_of_rels(m.name)
        lst = out.setdefault(src, [])
        for el in root:
            if not isinstance(el.tag, str) or localname(el) != "Relationship":
                continue
            typ = (el.get("Type") or "").rstrip("/").rsplit("/", 1)[-1]
            target = el.get("Target") or ""
            ext = el.get("TargetMode") == "External"
            lst.append((el.get("Id") or "", typ, target if ext else _resolve(src, target), ext))
    return out


def _looks_xml(data: bytes) -> bool:
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return False
    return head[:1] == b"<"


_IMAGE_MAGIC = (b"\x89PNG", b"\xff\xd8", b"GIF8", b"BM", b"II*\x00", b"MM\x00*", b"\xd7\xcd\xc6\x9a",
                b"\x01\x00\x09\x00", b"II\xbc")


def _is_picture(data: bytes) -> bool:
    from .pictures import sniff   # by content (issue 26); _IMAGE_MAGIC kept for reference
    return sniff(data) is not None


_INKML = b"http://www.w3.org/2003/InkML"


def _is_ink(data: bytes) -> bool:
    """An XML part whose root element is InkML (``<inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML">``;
    Word keeps ink behind a ``customXml`` relationship, content type ``application/inkml+xml``)."""
    if not _looks_xml(data) or _INKML not in data[:4096]:
        return False
    try:
        root = parse_xml(data, "ink")
    except DocumentError:
        return True                      # claims InkML and does not parse: removed all the same
    return root.tag.startswith("{http://www.w3.org/2003/InkML}")


_SVG_NS = b"http://www.w3.org/2000/svg"


def _is_svg(data: bytes) -> bool:
    """An XML part whose root element is SVG (``<svg xmlns="http://www.w3.org/2000/svg">``); one that
    claims SVG and does not parse counts too (removed all the same)."""
    if not _looks_xml(data) or _SVG_NS not in data[:8192]:
        return False
    try:
        root = parse_xml(data, "svg")
    except DocumentError:
        return True
    return isinstance(root.tag, str) and root.tag.startswith("{http://www.w3.org/2000/svg}")


def _package(members: list[Member]) -> tuple[dict[str, str], dict[str, str], str]:
    """``(kind per member, removal category per member, main part)``. Kinds: see ``_ORDER`` plus
    ``image`` and ``drop``; every XML member not reached through a known relationship is ``other``;
    every other member that is not a picture is removed."""
    names = {m.name for m in members}
    by_name = {m.name: m for m in members}
    rels = _relationships(members)
    kind: dict[str, str] = {}
    remove: dict[str, str] = {}
    main = ""
    queue = [""]
    seen = {""}
    while queue:
        src = queue.pop(0)
        for _rid, typ, target, ext in rels.get(src, []):
            if ext or target not in names:
                continue
            if typ in _REL_REMOVE:
                remove.setdefault(target, _REL_REMOVE[typ])
            elif target not in kind:
                k = _REL_KIND.get(typ, "other")
                if k == "body" and src:
                    k = "other"  # an officeDocument relationship below the root: not the main part
                if k == "body":
                    if main:
                        k = "other"
                    else:
                        main = target
                kind[target] = k
            if target not in seen:
                seen.add(target)
                queue.append(target)
    if not main and "word/document.xml" in names:
        main = "word/document.xml"
        kind[main] = "body"
    for n in sorted(names):
        if n in remove or n in kind:
            continue
        if n.endswith(".rels") or n == "[Content_Types].xml":
            continue
        kind[n] = "other" if _looks_xml(by_name[n].data) else ("image" if _is_picture(by_name[n].data)
                                                               else "unknown")
    for n, k in list(kind.items()):
        m = by_name.get(n)
        if m is None:
            continue
        if k == "drop":
            continue
        if k == "image" and not _is_picture(m.data):
            k = "other" if _looks_xml(m.data) else "unknown"
            kind[n] = k
        if k not in ("image",) and not _looks_xml(m.data):
            remove[n] = "unknown binary parts"
            del kind[n]
    for n, k in list(kind.items()):
        m = by_name.get(n)
        if m is not None and k != "body" and _is_svg(m.data):
            # an SVG picture (asvg:svgBlip, Office 2016, MS-ODRAWXML 2.3.1.31) is XML that draws text
            # (<text>/<tspan>, character references), embeds pictures, fonts, links and scripts: nothing
            # here reviews what it shows. Removed with its relationship and the asvg:svgBlip extension
            # (scrub), so Word shows the a:blip's raster fallback, which is rebuilt and OCR'd as any picture
            remove[n] = "SVG pictures (the raster fallback is kept)"
            continue
        if m is not None and k != "body" and _is_ink(m.data):
            # InkML (a w14:contentPart, Word's ink: handwriting, a signature) is strokes, not text: nothing
            # reads it and a signature is personal data however it is written. Removed, with its
            # relationship and the content part that shows it (scrub); the report names what went
            remove[n] = "ink (handwriting, drawn strokes)"
    for n in remove:
        kind.pop(n, None)
    if main and main in remove:
        del remove[main]
        kind[main] = "body"
    return kind, remove, main


def classify(members: list[Member]) -> list[TextPart]:
    kind, _remove, main = _package(members)
    groups: dict[str, list[str]] = {}
    for n, k in kind.items():
        groups.setdefault(k, []).append(n)
    out: list[TextPart] = []
    for k in _ORDER:
        if k == "links":
            for n in sorted(m.name for m in members if m.name.endswith(".rels")):
                out.append(TextPart(n, "links", rels_walker, header=False))
            continue
        names = groups.get(k, [])
        if k == "body":
            names = [main] if main else []
        else:
            names = sorted(names, key=lambda n: (_num(n), n))
        for i, n in enumerate(names):
            if k.startswith("meta_"):
                out.append(TextPart(n, "metadata", _META_WALKERS[k], header=False))
            elif k == "customxml":
                out.append(TextPart(n, k, custom_xml_walker, header=False))
            elif k == "other":
                out.append(TextPart(n, k, generic_walker, header=False))
            else:
                detail = str(i + 1) if k in ("header", "footer") else ""
                out.append(TextPart(n, k, wml_walker, header=bool(detail), detail=detail))
    return out


def _num(name: str) -> int:
    m = re.search(r"(\d+)\.xml$", name)
    return int(m.group(1)) if m else 0


def clean(name: str, root: etree._Element) -> bool:
    """Resolve tracked changes, drop fallbacks and blank personal attributes. True if changed."""
    if name.endswith(".rels") or name == "[Content_Types].xml":
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
    for el in root.iter(*_BINARY_PAYLOAD):
        if el.text or len(el):
            el.text = ""
            for child in list(el):
                el.remove(child)
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
            local = attr.rsplit("}", 1)[-1]
            if local in _PERSON_ATTRS and el.get(attr):
                el.set(attr, "")
                changed = True
            elif local in NEUTRALISED:
                del el.attrib[attr]      # o:gfxdata: a base64 copy of the shape nobody reviews
                changed = True
            elif local == "href":
                new = neutral_link(el.get(attr) or "")
                if new != el.get(attr):
                    if new:
                        el.set(attr, new)
                    else:
                        del el.attrib[attr]
                    changed = True
    return changed


_LOCAL_LINK = re.compile(r"^\s*(?:file:|[A-Za-z]:[\\/]|\\\\|//[^/]|tel:|callto:|sms:|fax:|smb:|nfs:)", re.I)


def neutral_link(value: str) -> str:
    """A link target without what names the author's machine or a private contact: local files
    (``file:``, ``C:\\``, UNC ``\\\\server``), ``tel:``/``sms:`` links -> "" (dropped); the query of a
    ``mailto:`` (``?subject=...&body=...``) is dropped, the address (reviewed) kept."""
    v = value.strip()
    if _LOCAL_LINK.match(v):
        return ""
    if v.lower().startswith("mailto:") and "?" in v:
        return v.split("?", 1)[0]
    return value


#: relationship types whose (external) targets name files on the author's machine: removed with the
#: elements that point at them (sub-documents, the attached template, frames, linked data sources)
_REL_DROP_EXTERNAL = {"subDocument", "attachedTemplate", "frame", "externalLinkPath", "oleObject",
                      "mailMergeSource", "mailMergeHeaderSource", "recipientData", "dataSource",
                      "transform"}


def _unwrap(el) -> None:
    parent = el.getparent()
    idx = parent.index(el)
    for i, child in enumerate(list(el)):
        parent.insert(idx + i, child)
    _remove_keep_tail(el)


# -- output: metadata, removed parts -----------------------------------------------------------------
def _rewrite(m: Member, root) -> Member:
    return Member(m.name, serialize_xml(root), m.compress_type, m.date_time)


def scrub(members: list[Member], doc: Document | None) -> list[Member]:
    kind, remove, _main = _package(members)
    from .pictures import dropped_pictures   # picture policy "remove" (issue 26)
    dropped = set(remove) | {n for n, k in kind.items() if k == "drop"} | dropped_pictures(doc)
    # relationships to dropped parts, per source part, and the elements that point at them (w:altChunk,
    # o:OLEObject, w:control, w:embedRegular ...) go too
    dead_ids: dict[str, set[str]] = {}
    out: list[Member] = []
    for m in members:
        if m.name in dropped:
            continue
        if m.name.endswith(".rels"):
            root = parse_xml(m.data, m.name)
            src = _source_of_rels(m.name)
            changed = False
            for el in list(root):
                if not isinstance(el.tag, str):
                    continue
                target = el.get("Target") or ""
                typ = (el.get("Type") or "").rstrip("/").rsplit("/", 1)[-1]
                external = el.get("TargetMode") == "External"
                if not external and _resolve(src, target) in dropped:
                    dead_ids.setdefault(src, set()).add(el.get("Id") or "")
                    root.remove(el)
                    changed = True
                elif typ in _REL_DROP_EXTERNAL or (external and target.strip() and not neutral_link(target)):
                    # file:///C:/Users/<account>/.../Normal.dotm, a sub-document, a tel: link: removed
                    # (a hyperlink keeps its text, without the link)
                    dead_ids.setdefault(src, set()).add(el.get("Id") or "")
                    root.remove(el)
                    changed = True
                elif external and neutral_link(target) != target:
                    el.set("Target", neutral_link(target))   # mailto: without ?subject=&body=
                    changed = True
            m = _rewrite(m, root) if changed else m
        out.append(m)
    final: list[Member] = []
    for m in out:
        if m.name == "[Content_Types].xml":
            pass                      # rebuilt from scratch below (opc.rebuild_docx)
        elif m.name in dead_ids:
            root = parse_xml(m.data, m.name)
            ids = dead_ids[m.name]
            for el in list(root.iter()):
                if not isinstance(el.tag, str) or el is root:
                    continue
                if any(a.startswith("{%s}" % R_NS) and v in ids for a, v in el.attrib.items()):
                    parent = el.getparent()
                    if parent is not None and el.tag == _w + "hyperlink":
                        for a in [a for a in el.attrib if a.startswith("{%s}" % R_NS)]:
                            del el.attrib[a]      # the link goes, its text stays
                    elif parent is not None:
                        _remove_keep_tail(el)
            for el in list(root.iter("{%s}ext" % _DML)):
                # an a:ext left empty (its asvg:svgBlip removed above: the SVG went) goes, and an
                # a:extLst left empty with it; the a:blip keeps its raster fallback (a:xfrm's a:ext, a
                # size, is no extension: only children of an a:extLst count)
                lst = el.getparent()
                if lst is not None and localname(lst) == "extLst" and not any(isinstance(c.tag, str) for c in el):
                    _remove_keep_tail(el)
                    if lst.getparent() is not None and not any(isinstance(c.tag, str) for c in lst):
                        _remove_keep_tail(lst)
            for el in list(root.iter("{%s}AlternateContent" % MC)):
                # an mc:AlternateContent left with nothing to show (its w14:contentPart removed above): goes
                if not any(isinstance(c.tag, str) for alt in el for c in alt):
                    _remove_keep_tail(el)
            m = _rewrite(m, root)
        k = kind.get(m.name)
        if k == "meta_core":
            root = parse_xml(m.data, m.name)
            for el in root:
                if isinstance(el.tag, str) and localname(el) in _CORE_REMOVED:
                    for c in list(el):
                        el.remove(c)
                    el.text = None
            m = _rewrite(m, root)
        elif k == "meta_app":
            root = parse_xml(m.data, m.name)
            for el in root:
                if isinstance(el.tag, str) and localname(el) in _APP_REMOVED:
                    el.text = None
            m = _rewrite(m, root)
        final.append(m)   # pictures were rebuilt from pixels by write_zip_document (pictures.py)
    # the package structure (part names, relationship ids and types, content types, time stamps): rebuilt
    return rebuild_docx(_rename_bookmarks(final, kind))


_FIELD_NAME = r"(?<![\w\\])%s(?![\w])"


def _rename_bookmarks(members: list[Member], kind: dict[str, str]) -> list[Member]:
    """Every bookmark name (``w:bookmarkStart/@w:name``: never shown, can hold anything, e.g. digits
    joined by underscores) becomes ``_veil_bm1``, ``_veil_bm2``... in document order, and so does every
    reference to it: hyperlink anchors and field codes (``REF``/``PAGEREF``/``HYPERLINK \\l``) in
    ``w:instrText`` and ``w:fldSimple/@w:instr``. ``_GoBack`` (Word's own) is kept."""
    wml = [m for m in members if kind.get(m.name) in ("body", "header", "footer", "footnotes", "endnotes",
                                                      "comments", "glossary")]
    wml.sort(key=lambda m: kind.get(m.name) != "body")
    names: dict[str, str] = {}
    roots = {}
    for m in wml:
        if b"bookmarkStart" not in m.data and b"anchor" not in m.data and b"instr" not in m.data:
            continue
        root = parse_xml(m.data, m.name)
        roots[m.name] = root
        for el in root.iter(_w + "bookmarkStart"):
            n = el.get(_w + "name")
            if n and n != "_GoBack" and n not in names:
                names[n] = f"_veil_bm{len(names) + 1}"
    if not names:
        return members
    pattern = re.compile("|".join(_FIELD_NAME % re.escape(n) for n in sorted(names, key=len,
                                                                          reverse=True)))

    def sub(text: str) -> str:
        return pattern.sub(lambda mt: names[mt.group()], text)

    out = []
    for m in members:
        root = roots.get(m.name)
        if root is None:
            out.append(m)
            continue
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            if el.tag == _w + "bookmarkStart" and el.get(_w + "name") in names:
                el.set(_w + "name", names[el.get(_w + "name")])
            elif el.tag == _w + "hyperlink" and el.get(_w + "anchor") in names:
                el.set(_w + "anchor", names[el.get(_w + "anchor")])
            elif el.tag == _w + "fldSimple" and el.get(_w + "instr"):
                el.set(_w + "instr", sub(el.get(_w + "instr")))
            elif el.tag == _w + "instrText" and el.text:
                el.text = sub(el.text)
        out.append(_rewrite(m, root))
    return out


def check(members: list[Member]) -> None:
    _kind, _remove, main = _package(members)
    if not main:
        raise DocumentError("This is not a Word document (no main document part: word/document.xml "
                            "is missing and no officeDocument relationship points elsewhere).")


def removed_members(members: list[Member]) -> list[str]:
    kind, remove, _main = _package(members)
    return sorted(remove) + sorted(n for n, k in kind.items() if k == "drop")


def notes(members: list[Member]) -> list[str]:
    out = []
    _kind, remove, _main = _package(members)
    if remove:
        cats: dict[str, int] = {}
        for c in remove.values():
            cats[c] = cats.get(c, 0) + 1
        out.append("Removed from the export because their content cannot be reviewed: "
                   + ", ".join(f"{c} ({n})" for c, n in sorted(cats.items())) + ".")
    if any(k == "image" for k in _kind.values()):
        out.append("Pictures are rebuilt from their pixels; text inside them is checked by OCR.")
    return out


_HTML_DROP = re.compile(r"<(script|style)\b.*?</\1\s*>|<!--.*?-->", re.S | re.I)
_HTML_BREAK = re.compile(r"<(?:br|/p|/div|/tr|/li|/h\d)\b[^>]*>", re.I)
_HTML_TAG = re.compile(r"<[^>]*>")
REMOVED_TEXT_CHARS = 20_000


def removed_text(members: list[Member]) -> list[tuple[str, str]]:
    """Readable text of removed ``altChunk`` parts (HTML / plain text / RTF, roughly), so the reviewer
    sees what the export drops. Boilerplate in the removed part: never written anywhere."""
    import html as _html

    _kind, remove, _main = _package(members)
    by_name = {m.name: m for m in members}
    out = []
    for n, cat in sorted(remove.items()):
        if not cat.startswith("embedded HTML"):
            continue
        data = by_name[n].data[:4 * REMOVED_TEXT_CHARS]
        for enc in ("utf-8", "utf-16", "cp949"):
            try:
                t = data.decode(enc)
                break
            except UnicodeDecodeError:
                continue
        else:
            t = data.decode("utf-8", "replace")
        if t.lstrip().startswith("{\\rtf"):
            t = re.sub(r"(?:\\'[0-9a-fA-F]{2})+", lambda m: bytes(
                int(m.group()[i + 2:i + 4], 16) for i in range(0, len(m.group()), 4)).decode("cp949", "replace"), t)
            t = re.sub(r"\\[a-z]+-?\d* ?|[{}]", "", t)
        else:
            t = _HTML_BREAK.sub("\n", _HTML_DROP.sub("", t))
            t = _html.unescape(_HTML_TAG.sub("", t))
        t = "\n".join(line.strip() for line in t.splitlines() if line.strip())[:REMOVED_TEXT_CHARS]
        if t:
            out.append(("removed_chunk", t))
    return out


_DML = "http://schemas.openxmlformats.org/drawingml/2006/main"
_WPD = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
_VML = "urn:schemas-microsoft-com:vml"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_O = "urn:schemas-microsoft-com:office:office"
#: VML lengths in points (CSS units; a bare number is pixels)
_VML_UNITS = {"pt": 1.0, "in": 72.0, "cm": 72 / 2.54, "mm": 72 / 25.4, "pc": 12.0, "px": 0.75, "": 0.75}
_VML_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([a-z]*)\s*$")


def _num_attr(el, name: str, default: float | None = None) -> float | None:
    try:
        v = float(el.get(name)) if el is not None and el.get(name) is not None else default
    except ValueError:
        return default
    return v


def _uncrop(w: float, h: float, l: float, t: float, r: float, b: float) -> tuple[float, float]:
    """The whole picture's displayed size from the shown part's ``w``×``h`` and the fractions cropped off
    each side (a crop that leaves nothing is not believed: the size as it is)."""
    fx, fy = 1 - l - r, 1 - t - b
    return (w / fx, h / fy) if fx > 1e-3 and fy > 1e-3 else (w, h)


def _vml_fraction(v: str | None) -> float:
    """A VML crop value: a fraction (``0.25``) or 1/65536 units (``16384f``)."""
    if not v:
        return 0.0
    try:
        return float(v[:-1]) / 65536 if v.endswith("f") else float(v)
    except ValueError:
        return 0.0


def _vml_size(style: str) -> tuple[float, float] | None:
    found: dict[str, float] = {}
    for decl in (style or "").split(";"):
        k, _, v = decl.partition(":")
        k = k.strip().lower()
        if k in ("width", "height"):
            m = _VML_LENGTH.match(v.lower())
            if m and m.group(2) in _VML_UNITS:
                found[k] = float(m.group(1)) * _VML_UNITS[m.group(2)]
    return (found["width"], found["height"]) if len(found) == 2 else None


def _pixel_size(data: bytes) -> tuple[int, int] | None:
    import io

    from PIL import Image

    try:
        return Image.open(io.BytesIO(data)).size
    except Exception:  # noqa: BLE001 - not a raster picture: no tile size
        return None


#: a:blip effects that change what the picture shows (ECMA-376 20.1.8): read as shown too
_SHOWN_EFFECTS = ("biLevel", "grayscl", "lum", "duotone", "alphaModFix")


def _blip_sizes(el, target: str, by_name: dict[str, Member]) -> list[tuple[float, float]]:
    """Every (width, height) the DrawingML ``a:blip`` ``el`` shows ``target`` at, crops undone."""
    fill = el.getparent()
    sizes: list[tuple[float, float]] = []
    tile = fill.find(f"{{{_DML}}}tile") if fill is not None else None
    if tile is not None:
        px = _pixel_size(by_name[target].data) if target in by_name else None
        if px:
            sizes.append((px[0] * (_num_attr(tile, "sx", 100000.0) or 0.0),
                          px[1] * (_num_attr(tile, "sy", 100000.0) or 0.0)))
        return sizes
    holder = fill.getparent() if fill is not None else None
    sppr = holder if holder is not None and localname(holder) == "spPr" else (
        child_named(holder, "spPr") if holder is not None else None)
    ext = sppr.find(f"{{{_DML}}}xfrm/{{{_DML}}}ext") if sppr is not None else None
    if ext is not None:
        sizes.append((_num_attr(ext, "cx", 0.0), _num_attr(ext, "cy", 0.0)))
    up = holder
    while up is not None and localname(up) not in ("inline", "anchor", "grpSp", "wgp", "lockedCanvas"):
        up = up.getparent()
    if up is not None and localname(up) in ("inline", "anchor"):
        extent = up.find(f"{{{_WPD}}}extent")
        if extent is not None:
            sizes.append((_num_attr(extent, "cx", 0.0), _num_attr(extent, "cy", 0.0)))
    crop = fill.find(f"{{{_DML}}}srcRect") if fill is not None else None
    cuts = [(_num_attr(crop, k, 0.0) or 0.0) / 100000 for k in "ltrb"] if crop is not None else [0.0] * 4
    return [_uncrop(w, h, *cuts) for w, h in sizes]


def pictures_as_shown(members: list[Member]) -> tuple[dict[str, list[tuple[float, float]]], dict[str, list[tuple]]]:
    """``(sizes, effects)`` for ``pictures.review_pictures``, from one walk of every part with
    relationships. ``sizes``: picture member -> every (width, height) a part shows it at, the whole
    picture (crops undone; issue 26: a name stored squashed and shown stretched) — DrawingML ``a:blip
    r:embed``: the shape's ``a:xfrm/a:ext`` and, for a picture not in a group, the ``wp:extent`` of its
    ``wp:inline``/``wp:anchor`` (both: Word lays out by the extent), less ``a:srcRect`` crops; tiled
    (``a:tile``): the pixels scaled ``sx``×``sy``; VML ``v:imagedata`` (``r:id``/``o:relid``): its shape's
    ``style`` width/height, less ``croptop``/``cropleft``/.... ``effects``: picture member -> the display
    effects an ``a:blip`` applies to it, each as ``(name, attributes)`` (``("biLevel", {"thresh":
    "99000"})``), one tuple of effects per showing that has any (red team 8: a faint picture Word shows
    black by ``a:biLevel``): the picture is also read as shown."""
    by_name = {m.name: m for m in members}
    sizes: dict[str, list[tuple[float, float]]] = {}
    effects: dict[str, list[tuple]] = {}
    for src, rels in _relationships(members).items():
        m = by_name.get(src)
        targets = {rid: t for rid, _typ, t, ext in rels if not ext}
        if m is None or not targets or not _looks_xml(m.data):
            continue
        try:
            root = parse_xml(m.data, m.name)
        except DocumentError:
            continue
        for el in root.iter(f"{{{_DML}}}blip"):
            target = targets.get(el.get(f"{{{_R}}}embed") or "")
            if target is None:
                continue
            sizes.setdefault(target, []).extend(_blip_sizes(el, target, by_name))
            fx = tuple((localname(c), dict(c.attrib)) for c in el
                       if isinstance(c.tag, str) and localname(c) in _SHOWN_EFFECTS)
            if fx and fx not in effects.get(target, []):
                effects.setdefault(target, []).append(fx)
        for el in root.iter(f"{{{_VML}}}imagedata"):
            target = targets.get(el.get(f"{{{_R}}}id") or el.get(f"{{{_O}}}relid") or "")
            shape = el.getparent()
            size = _vml_size(shape.get("style") or "") if target is not None and shape is not None else None
            if size is not None:
                cuts = [_vml_fraction(el.get(k)) for k in ("cropleft", "croptop", "cropright", "cropbottom")]
                sizes.setdefault(target, []).append(_uncrop(*size, *cuts))
    return sizes, effects


PROFILE = ZipProfile(what="Word document", fmt="docx", classify=classify, clean=clean, scrub=scrub,
                     check=check, notes=notes, removed=removed_members, removed_text=removed_text,
                     shown=pictures_as_shown)


def read_docx(path: Path, data: bytes) -> Document:
    return read_zip_document(path, data, PROFILE)


def write_docx(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    return write_zip_document(doc, plan, source, PROFILE)
