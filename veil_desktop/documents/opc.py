"""The package structure of a DOCX/HWPX output, rebuilt instead of copied (issue 26: default deny).

No reviewer sees a package's structure: part names, relationship ids, relationship types and targets,
content types, manifest ids, ZIP time stamps. A hostile author can put anything there
(``word/media/8512031234567.png``, ``Id="rId김민수"``, ``ContentType="image/png; name=김민수.png"``), so
the exporter writes none of it back:

DOCX (``rebuild_docx``), after the parts have been masked and cleaned:

- **part names** come from a grammar keyed by the *relationship type* that reaches the part (``_PARTS``):
  ``word/document.xml``, ``word/styles.xml``, ``word/headerN.xml``, ``word/media/imageN.<ext>`` (the
  extension from the picture's bytes), ``customXml/itemN.xml``, ``docProps/core.xml``...; numbered families
  are numbered 1..N across the package (the original names only give the order); a part no known
  relationship reaches is ``word/partN.xml``. No original name survives, ASCII or not;
- **relationship parts** are written anew: ``Id`` is ``rId1``..``rIdN`` per part in document order, the
  ``Type`` is kept only when it is an OPC/Office schema URI (``_REL_TYPE``; else the relationship is
  dropped), an internal ``Target`` is the new name (relative), an external one is the reviewed link
  (already neutralised by ``docx.scrub``); relationships to parts that are not in the output are dropped;
- **references** to relationship ids (every attribute in the relationships namespace — ``r:id``,
  ``r:embed``, ``r:link``, ``r:pict``, ``r:dm``... — and VML ``o:relid``, wherever they are) are rewritten
  to the new ids; one that names no relationship is treated as a reference to a removed part: its
  element is removed (a hyperlink keeps its text, without the link);
- ``[Content_Types].xml`` is built from scratch: ``Default`` entries for ``rels``, ``xml`` and the
  picture extensions present, an ``Override`` for every other part present. The type of a known part
  comes from ``_PARTS`` (never from the input), a picture's from its bytes, an unknown XML part's from the
  input only when it fits ``type/subtype(+suffix)`` without parameters or long digit runs
  (``clean_media_type``), otherwise ``application/xml``: a type is never a reason to refuse a file (real
  writers add ``;charset=``), and no byte of a rejected one is written;
- **session identifiers** written by Word as 8 hex digits (``w:rsid*`` attributes and the settings'
  ``w:rsid``/``w:rsidRoot`` list, ``w14:paraId``/``w14:textId``, ``w15:paraId``/``w15:paraIdParent``,
  ``w16cid:durableId``, list ``w:nsid``/``w:tmpl``) are renumbered across the package (``_renumber_hex_ids``):
  one injective map, so every equality between them holds (comments extended ↔ paragraphs), and every new
  value is one digit 1–7 and seven letters A–F (below 0x80000000, as paraIds must be): an all-digit
  ``01039472`` was a phone number's 8 digits (red team 5, 2a);
- every member gets the same ZIP time stamp (``FIXED_DATE``): six numbers can carry a birth date.

HWPX uses ``clean_media_type``, ``picture_extension`` and ``FIXED_DATE`` from here (``hwpx.py``).
"""
from __future__ import annotations

import posixpath
import re
import zipfile
from urllib.parse import quote, unquote

from lxml import etree

from .safezip import Member, parse_xml, serialize_xml

FIXED_DATE = (1980, 1, 1, 0, 0, 0)

R_NAMESPACES = ("http://schemas.openxmlformats.org/officeDocument/2006/relationships",
                "http://purl.oclc.org/ooxml/officeDocument/relationships")
_R_PREFIXES = tuple("{%s}" % ns for ns in R_NAMESPACES)
O_RELID = "{urn:schemas-microsoft-com:office:office}relid"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
RELS_TYPE = "application/vnd.openxmlformats-package.relationships+xml"
CONTENT_TYPES = "[Content_Types].xml"
_HYPERLINK = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}hyperlink"

_W = "application/vnd.openxmlformats-officedocument.wordprocessingml."
_O = "application/vnd.openxmlformats-officedocument."
_MS = "application/vnd.ms-office."
#: relationship type (last path segment) -> (folder, file name, content type). Folder ``"."``: the folder of
#: the (renamed) source part (``word/`` or ``word/glossary/``); ``{n}``: numbered 1..N across the package.
_PARTS = {
    "officeDocument": ("word", "document.xml", _W + "document.main+xml"),
    "glossaryDocument": ("word/glossary", "document.xml", _W + "document.glossary+xml"),
    "styles": (".", "styles.xml", _W + "styles+xml"),
    "stylesWithEffects": (".", "stylesWithEffects.xml", "application/vnd.ms-word.stylesWithEffects+xml"),
    "settings": (".", "settings.xml", _W + "settings+xml"),
    "webSettings": (".", "webSettings.xml", _W + "webSettings+xml"),
    "fontTable": (".", "fontTable.xml", _W + "fontTable+xml"),
    "numbering": (".", "numbering.xml", _W + "numbering+xml"),
    "footnotes": (".", "footnotes.xml", _W + "footnotes+xml"),
    "endnotes": (".", "endnotes.xml", _W + "endnotes+xml"),
    "comments": (".", "comments.xml", _W + "comments+xml"),
    "commentsExtended": (".", "commentsExtended.xml", _W + "commentsExtended+xml"),
    "commentsIds": (".", "commentsIds.xml", _W + "commentsIds+xml"),
    "commentsExtensible": (".", "commentsExtensible.xml", _W + "commentsExtensible+xml"),
    "people": (".", "people.xml", _W + "people+xml"),
    "header": ("word", "header{n}.xml", _W + "header+xml"),
    "footer": ("word", "footer{n}.xml", _W + "footer+xml"),
    "theme": ("word/theme", "theme{n}.xml", _O + "theme+xml"),
    "chart": ("word/charts", "chart{n}.xml", _O + "drawingml.chart+xml"),
    "chartEx": ("word/charts", "chartEx{n}.xml", _MS + "chartex+xml"),
    "chartStyle": ("word/charts", "style{n}.xml", _MS + "chartstyle+xml"),
    "chartColorStyle": ("word/charts", "colors{n}.xml", _MS + "chartcolorstyle+xml"),
    "chartUserShapes": ("word/drawings", "drawing{n}.xml", _O + "drawingml.chartshapes+xml"),
    "diagramData": ("word/diagrams", "data{n}.xml", _O + "drawingml.diagramData+xml"),
    "diagramLayout": ("word/diagrams", "layout{n}.xml", _O + "drawingml.diagramLayout+xml"),
    "diagramQuickStyle": ("word/diagrams", "quickStyle{n}.xml", _O + "drawingml.diagramStyle+xml"),
    "diagramColors": ("word/diagrams", "colors{n}.xml", _O + "drawingml.diagramColors+xml"),
    "diagramDrawing": ("word/diagrams", "drawing{n}.xml", _MS + "drawingml.diagramDrawing+xml"),
    "customXml": ("customXml", "item{n}.xml", "application/xml"),
    "customXmlProps": ("customXml", "itemProps{n}.xml", _O + "customXmlProperties+xml"),
    "core-properties": ("docProps", "core.xml", "application/vnd.openxmlformats-package.core-properties+xml"),
    "extended-properties": ("docProps", "app.xml", _O + "extended-properties+xml"),
    "custom-properties": ("docProps", "custom.xml", _O + "custom-properties+xml"),
    "webextensiontaskpanes": ("word/webextensions", "taskpanes.xml", _MS + "webextensiontaskpanes+xml"),
    "webextension": ("word/webextensions", "webextension{n}.xml", _MS + "webextension+xml"),
}
#: a picture part, by its bytes (``pictures.sniff``) -> (extension, content type)
PICTURE_TYPES = {
    "png": ("png", "image/png"), "jpeg": ("jpeg", "image/jpeg"), "gif": ("gif", "image/gif"),
    "bmp": ("bmp", "image/bmp"), "tiff": ("tiff", "image/tiff"), "webp": ("webp", "image/webp"),
    "emf": ("emf", "image/x-emf"), "wmf": ("wmf", "image/x-wmf"), "emz": ("emz", "image/x-emz"),
    "wmz": ("wmz", "image/x-wmz"), "jxr": ("wdp", "image/vnd.ms-photo"),
}
#: an OPC / Office relationship type URI: schema hosts only, short path segments, no long digit runs
_REL_TYPE = re.compile(r"^https?://(?:schemas\.openxmlformats\.org|schemas\.microsoft\.com|purl\.oclc\.org/ooxml)"
                       r"(?:/(?:[A-Za-z][A-Za-z0-9.-]{0,63}|\d{1,4}))+$")
_MEDIA_TYPE = re.compile(r"^(?:application|image|text|audio|video|font|model)/[a-z0-9][a-z0-9.+-]{0,126}$", re.I)
_LONG_DIGITS = re.compile(r"\d{5}")


def clean_media_type(value: str | None) -> str | None:
    """``value`` as a bare ``type/subtype(+suffix)`` (parameters after ``;`` dropped, blanks trimmed), or
    None when what is left does not fit that grammar or holds a run of 5+ digits (a number, not a type)."""
    v = (value or "").split(";", 1)[0].strip()
    if not _MEDIA_TYPE.match(v) or _LONG_DIGITS.search(v):
        return None
    return v


def picture_kind(data: bytes) -> str | None:
    from .pictures import sniff
    kind = sniff(data)
    return kind if kind in PICTURE_TYPES else None


_SVG = "{http://www.w3.org/2000/svg}svg"


def _picture_type(name: str, data: bytes) -> tuple[str, str] | None:
    """``(extension, content type)`` of a picture part by its bytes (an SVG: XML whose root is ``svg``)."""
    kind = picture_kind(data)
    if kind and not _looks_xml(data):
        return PICTURE_TYPES[kind]
    if _looks_xml(data) and b"svg" in data[:4096]:
        try:
            if parse_xml(data, name).tag == _SVG:
                return ("svg", "image/svg+xml")
        except Exception:  # noqa: BLE001 - not a picture then; the part is handled as XML
            return None
    return None


def picture_extension(data: bytes) -> str:
    """The extension (without the dot) a picture's *bytes* call for; ``bin`` for anything else."""
    kind = picture_kind(data)
    return PICTURE_TYPES[kind][0] if kind else "bin"


def _looks_xml(data: bytes) -> bool:
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] == b"<" and head[:2] not in (b"\xff\xfe", b"\xfe\xff")


#: extensions a picture may keep when its bytes are of that kind (``image1.jpg`` holding a JPEG)
_EXT_ALIASES = {"jpeg": {"jpeg", "jpg"}, "tiff": {"tiff", "tif"}, "wdp": {"wdp", "jxr"}}


def _extension(name: str, canonical: str) -> str:
    """The extension a picture part is written with: its own (lower case) when it names the kind its bytes
    are, else the one its bytes call for."""
    ext = posixpath.splitext(name)[1].lstrip(".")
    return ext if ext in _EXT_ALIASES.get(canonical, {canonical}) else canonical


def _natural(name: str) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def rels_name(source: str) -> str:
    """``word/document.xml`` -> ``word/_rels/document.xml.rels``; ``""`` (the package) -> ``_rels/.rels``."""
    if not source:
        return "_rels/.rels"
    d, f = posixpath.split(source)
    return posixpath.join(d, "_rels", f + ".rels")


def source_of_rels(name: str) -> str | None:
    """The source part of a relationships part (``""``: the package), None if ``name`` is not one."""
    d, f = posixpath.split(name)
    if not f.endswith(".rels") or posixpath.basename(d) != "_rels":
        return None
    base = posixpath.dirname(d)
    return "" if f == ".rels" and not base else posixpath.join(base, f[:-5]) if f != ".rels" else None


def _resolve(source: str, target: str) -> str:
    target = unquote(target)   # part names in relationships may be %-encoded (OPC)
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    base = posixpath.dirname(source) if source else ""
    return posixpath.normpath(posixpath.join(base, target))


def _rel_suffix(typ: str) -> str:
    return typ.rstrip("/").rsplit("/", 1)[-1]


def _relationships(by_name: dict[str, Member]) -> dict[str, list[etree._Element]]:
    """``{source part: [Relationship elements in order]}`` for every relationships part whose source is
    in the package (a relationships part of a missing part is dropped)."""
    out: dict[str, list[etree._Element]] = {}
    for name, m in by_name.items():
        src = source_of_rels(name)
        if src is None or (src and src not in by_name):
            continue
        root = parse_xml(m.data, name)
        out[src] = [el for el in root if isinstance(el.tag, str) and el.tag.rsplit("}", 1)[-1] == "Relationship"]
    return out


def _declared_types(by_name: dict[str, Member]) -> dict[str, str]:
    """Part name -> the content type the input declares (override, else default for its extension)."""
    m = by_name.get(CONTENT_TYPES)
    if m is None:
        return {}
    defaults: dict[str, str] = {}
    overrides: dict[str, str] = {}
    for el in parse_xml(m.data, m.name):
        if not isinstance(el.tag, str):
            continue
        local = el.tag.rsplit("}", 1)[-1]
        if local == "Default" and el.get("Extension"):
            defaults[el.get("Extension").lower()] = el.get("ContentType") or ""
        elif local == "Override" and el.get("PartName"):
            overrides[unquote(el.get("PartName")).lstrip("/").lower()] = el.get("ContentType") or ""
    out = {}
    for n in by_name:
        ext = posixpath.splitext(n)[1].lstrip(".").lower()
        t = overrides.get(n.lower(), defaults.get(ext))
        if t is not None:
            out[n] = t
    return out


def _family_by_name(name: str) -> str:
    """The ``_PARTS`` family whose grammar ``name`` already has (``customXml/item9.xml``; a singleton of
    ``word/``), else ``part``: an unreferenced part keeps a grammar name, so messages name what the input
    had."""
    for typ, (folder, file, _ct) in _PARTS.items():
        folder = "word" if folder == "." else folder
        if typ == "officeDocument":
            continue
        if "{n}" in file:
            stem, rest = file.split("{n}")
            if re.fullmatch(re.escape(f"{folder}/{stem}") + r"[1-9]\d{0,2}" + re.escape(rest), name):
                return typ
        elif name == f"{folder}/{file}":
            return typ
    return "part"


def rebuild_docx(members: list[Member]) -> list[Member]:
    """The DOCX package of ``members`` (masked, cleaned parts) with every structural value rebuilt (see
    the module doc). Parts and their bytes are kept; only names, relationships, references to
    relationship ids and content types change."""
    by_name = {m.name: m for m in members}
    rels = _relationships(by_name)
    # a relationships part outside a ``_rels`` folder, or of a part that is not there, is not written
    parts = [m.name for m in members if m.name != CONTENT_TYPES and not m.name.endswith(".rels")]
    present = set(parts)
    declared = _declared_types(by_name)

    # 1. which relationship type reaches each part first (breadth first from the package)
    reached: dict[str, tuple[str, str]] = {}          # part -> (type suffix, source part)
    order: list[str] = []
    queue, seen = [""], {""}
    main = ""
    while queue:
        src = queue.pop(0)
        for el in rels.get(src, []):
            if el.get("TargetMode") == "External":
                continue
            target = _resolve(src, el.get("Target") or "")
            if target not in present:
                continue
            typ = _rel_suffix(el.get("Type") or "")
            if target not in reached:
                if typ == "officeDocument" and (src or main):
                    typ = ""               # only the package's first officeDocument is the main part
                if typ == "officeDocument":
                    main = target
                reached[target] = (typ, src)
                order.append(target)
            if target not in seen:
                seen.add(target)
                queue.append(target)
    if not main and "word/document.xml" in present:
        main = "word/document.xml"
        reached["word/document.xml"] = ("officeDocument", "")
        order.insert(0, main)
    order += sorted((n for n in parts if n not in reached), key=_natural)

    # 2. new names: the family of each part (by the type that reaches it and by its bytes)
    family: dict[str, str] = {}
    pictures: dict[str, tuple[str, str]] = {}
    for n in order:
        data = by_name[n].data
        typ = reached.get(n, ("", ""))[0]
        pic = _picture_type(n, data)
        if pic:
            family[n] = "picture"
            pictures[n] = pic
        elif typ in _PARTS and _looks_xml(data):
            family[n] = typ
        elif n not in reached and _looks_xml(data):
            family[n] = _family_by_name(n)     # unreferenced: a grammar name keeps its family
        else:
            family[n] = "part"

    def template(n: str) -> tuple[str, str]:
        """(folder, file name with ``{n}``) of ``n``'s family; folder ``"."``: its source's folder."""
        f = family[n]
        if f == "picture":
            return "word/media", "image{n}." + _extension(n, pictures[n][0])
        if f == "part":
            return "word", "part{n}.xml" if _looks_xml(by_name[n].data) else "part{n}.bin"
        return _PARTS[f][0], _PARTS[f][1]

    # numbered families: a name already of the grammar (``word/media/image3.png``, N at most 3 digits, no
    # leading zero) keeps its number; every other part gets the next free one, in name order
    number: dict[str, int] = {}
    taken: dict[str, set[int]] = {}
    for n in sorted(order, key=_natural):
        folder, file = template(n)
        if "{n}" not in file:
            continue
        stem = re.escape(file.split("{n}")[0])
        m = re.fullmatch(re.escape(folder) + "/" + stem + r"([1-9]\d{0,2})\.[^/]*", n)
        if m and int(m.group(1)) not in taken.setdefault(family[n], set()):
            number[n] = int(m.group(1))
            taken[family[n]].add(number[n])

    def next_free(f: str) -> int:
        k = 1
        while k in taken.setdefault(f, set()):
            k += 1
        taken[f].add(k)
        return k

    for n in sorted(order, key=_natural):
        if n not in number and "{n}" in template(n)[1]:
            number[n] = next_free(family[n])
    renamed: dict[str, str] = {}
    used: set[str] = set()
    for n in order:                       # breadth first: a source is named before its targets
        folder, file = template(n)
        if folder == ".":
            folder = posixpath.dirname(renamed.get(reached.get(n, ("", ""))[1], "word/document.xml")) or "word"
        new = posixpath.join(folder, file.replace("{n}", str(number.get(n, 0))))
        if new in used:                  # a second styles part, a second main document: neutral name
            family[n] = "part"
            new = posixpath.join(*template(n)).replace("{n}", str(next_free("part")))
        used.add(new)
        renamed[n] = new

    # 3. relationships anew, per source; old id -> new id for the references in the source
    id_maps: dict[str, dict[str, str]] = {}
    out_rels: dict[str, bytes] = {}
    sources = [""] + [n for n in order if n in rels]
    if main and not any(el.get("TargetMode") != "External" and _resolve("", el.get("Target") or "") == main
                        and _rel_suffix(el.get("Type") or "") == "officeDocument" for el in rels.get("", [])):
        rels.setdefault("", []).insert(0, etree.Element(
            "{%s}Relationship" % PKG_RELS, Type=R_NAMESPACES[0] + "/officeDocument", Target=main))
    for src in sources:
        if src not in rels:
            continue
        new_src = renamed.get(src, "")
        root = etree.Element("{%s}Relationships" % PKG_RELS, nsmap={None: PKG_RELS})
        ids: dict[str, str] = {}
        for el in rels[src]:
            typ = el.get("Type") or ""
            if not _REL_TYPE.match(typ) or _LONG_DIGITS.search(typ):
                continue                  # not an OPC/Office type: the relationship goes
            external = el.get("TargetMode") == "External"
            if external:
                target = el.get("Target") or ""
            else:
                t = _resolve(src, el.get("Target") or "")
                if t not in renamed:
                    continue              # a part not in the output (removed, or never there)
                base = posixpath.dirname(new_src) if new_src else ""
                target = quote(posixpath.relpath(renamed[t], base or "."), safe="/")
            new_id = f"rId{len(root) + 1}"
            ids.setdefault(el.get("Id") or "", new_id)
            rel = etree.SubElement(root, "{%s}Relationship" % PKG_RELS, Id=new_id, Type=typ, Target=target)
            if external:
                rel.set("TargetMode", "External")
        ids.pop("", None)
        id_maps[new_src] = ids
        out_rels[rels_name(new_src)] = serialize_xml(root)

    # 4. the parts: renamed, references to relationship ids rewritten, session ids renumbered
    hex_ids: dict[str, str] = {}
    out: list[Member] = []
    types: dict[str, str] = {}
    for n in order:
        m = by_name[n]
        new = renamed[n]
        data = m.data
        if family[n] == "picture":
            types[new] = pictures[n][1]
        elif _looks_xml(data):
            data = _rewrite_ids(data, n, id_maps.get(new, {}))
            data = _renumber_hex_ids(data, n, hex_ids)
            f = family[n]
            types[new] = (_PARTS[f][2] if f in _PARTS else
                          clean_media_type(declared.get(n)) or "application/xml")
        else:
            types[new] = "application/octet-stream"
        out.append(Member(new, data, m.compress_type, FIXED_DATE))
    out += [Member(name, data, zipfile.ZIP_DEFLATED, FIXED_DATE) for name, data in out_rels.items()]
    return [Member(CONTENT_TYPES, _content_types(types), zipfile.ZIP_DEFLATED, FIXED_DATE)] + out


def _rewrite_ids(data: bytes, name: str, ids: dict[str, str]) -> bytes:
    """``data`` with every relationship-id reference mapped through ``ids``; an element whose reference
    names no relationship is removed (a hyperlink loses only the reference)."""
    if not any(ns.encode() in data for ns in R_NAMESPACES) and b"relid" not in data:
        return data
    root = parse_xml(data, name)
    changed = False
    for el in list(root.iter()):
        if not isinstance(el.tag, str):
            continue
        dangling = False
        for a in list(el.attrib):
            if not (a.startswith(_R_PREFIXES) or a == O_RELID):
                continue
            v = el.get(a)
            if v in ids:
                if ids[v] != v:
                    el.set(a, ids[v])
                    changed = True
            else:
                dangling = True
        if not dangling:
            continue
        changed = True
        parent = el.getparent()
        if parent is None or el.tag == _HYPERLINK or el.getroottree().getroot() is not root:
            for a in [a for a in el.attrib if a.startswith(_R_PREFIXES) or a == O_RELID]:
                if el.get(a) not in ids:
                    del el.attrib[a]
            continue
        remove_keep_tail(el)
    return serialize_xml(root) if changed else data


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
#: (namespace-URI fragment, local name) of attributes holding a Word session id (8 hex digits)
_HEX_ID_ATTRS = {"paraId", "textId", "paraIdParent", "durableId"}
_HEX_ID_VAL_ELEMENTS = {"rsid", "rsidRoot", "nsid", "tmpl"}   # <w:rsid w:val="..."/>
_HEX8 = re.compile(r"^[0-9A-Fa-f]{1,8}$")
_HEX_ID_MARKERS = (b"rsid", b"paraId", b"textId", b"durableId", b"nsid", b"tmpl")


def _new_hex_id(n: int) -> str:
    """The ``n``-th (0-based) replacement id: a digit 1-7 then seven letters A-F (no digit run)."""
    letters = []
    for _ in range(7):
        n, r = divmod(n, 6)
        letters.append("ABCDEF"[r])
    if n >= 7:
        raise ValueError("too many session ids")
    return str(n + 1) + "".join(reversed(letters))


def _renumber_hex_ids(data: bytes, name: str, table: dict[str, str]) -> bytes:
    """``data`` with every Word session id (see the module doc) mapped through ``table`` (grown with a new
    id for each value not seen yet: one map for the whole package)."""
    if not any(k in data for k in _HEX_ID_MARKERS):
        return data
    root = parse_xml(data, name)
    changed = False

    def mapped(v: str) -> str:
        key = v.upper()
        if key not in table:
            table[key] = _new_hex_id(len(table))
        return table[key]

    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        is_val = el.tag.startswith("{%s}" % _W) and el.tag.rsplit("}", 1)[-1] in _HEX_ID_VAL_ELEMENTS
        for a, v in el.attrib.items():
            local = a.rsplit("}", 1)[-1]
            if not _HEX8.match(v or ""):
                continue
            if (local.startswith("rsid") and a.startswith("{%s}" % _W)) or local in _HEX_ID_ATTRS \
                    or (is_val and local == "val"):
                el.set(a, mapped(v))
                changed = True
    return serialize_xml(root) if changed else data


def remove_keep_tail(el) -> None:
    """Remove ``el`` from its parent, keeping the text that follows it (its tail) in place."""
    parent = el.getparent()
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def _content_types(types: dict[str, str]) -> bytes:
    """``[Content_Types].xml`` from scratch for the parts in ``types`` (new name -> content type)."""
    root = etree.Element("{%s}Types" % CT_NS, nsmap={None: CT_NS})
    defaults = {"rels": RELS_TYPE, "xml": "application/xml"}
    for n, t in types.items():
        ext = posixpath.splitext(n)[1].lstrip(".")
        if t.startswith("image/") and ext not in defaults:
            defaults[ext] = t
    for ext in sorted(defaults):
        etree.SubElement(root, "{%s}Default" % CT_NS, Extension=ext, ContentType=defaults[ext])
    for n in sorted(types, key=_natural):
        ext = posixpath.splitext(n)[1].lstrip(".")
        if defaults.get(ext) != types[n]:
            etree.SubElement(root, "{%s}Override" % CT_NS, PartName="/" + quote(n, safe="/"),
                             ContentType=types[n])
    return serialize_xml(root)
