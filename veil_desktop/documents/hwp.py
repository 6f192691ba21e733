"""HWP 5 binary: paragraph text from the ``BodyText/Section*`` streams, read and written back in place.

An HWP 5 file is an OLE compound file (olefile). ``FileHeader`` says whether the body streams are
compressed (raw deflate), password-protected or "distribution" documents (encrypted ``ViewText``; not
supported). Each section stream is a sequence of records (32-bit header: tag 10 bits, level 10 bits,
size 12 bits, 0xFFF = a 32-bit size follows); ``HWPTAG_PARA_TEXT`` (67) holds UTF-16LE text in which
code units below 32 are controls: 1 unit (line/paragraph breaks, hyphens, fixed spaces) or 8 units
(inline controls such as tab, and extended controls that anchor tables, footnotes, text boxes — their
text follows as nested paragraphs in the same stream, so it is read too).

Written back in place (``write_hwp``): masked characters are overwritten in their ``PARA_TEXT`` records
with a masking text of the *same length in UTF-16 code units* (``hwp_records.fit``: the tag padded with
``*`` or cut, ``[PERSON]`` over three characters is ``[P]``), so paragraph headers (character counts),
character-shape positions, line segments and range tags stay valid unchanged; control characters are never
touched. Sections are recompressed when the FileHeader says so (raw deflate). The compound file is written
anew by ``documents.cfb``. What is published:

- rebuilt: ``BodyText/Section*`` (masked; field commands — hyperlink targets, click-here guides, file
  paths — emptied), ``PrvText`` (from the masked text), ``\x05HwpSummaryInformation`` (a neutral property
  set: title, author, dates and keywords gone), ``DocInfo`` (paths of linked pictures emptied),
  ``FileHeader`` (the "scripts / XML template / history present" bits cleared);
- reviewed: ``BinData`` pictures, through ``pictures.review_pictures``: text OCR reads with confidence is a
  part ``Picture N`` whose masked values are burned into the pixels; a picture holding text read unsurely
  or that could not be checked makes the document *needs review*; rebuilt from pixels (no metadata); each
  is also read at every aspect a picture control shows it at (``displayed_sizes``: gso SHAPE_COMPONENT
  sizes and matrices, SHAPE_COMPONENT_PICTURE crop and BinItem id, DocInfo BIN_DATA), one shown past
  ``ocr.MAX_PIXEL_ASPECT`` is held (issue 26: stored squashed, shown stretched);
- removed (and named in ``Document.notes``): ``PrvImage``, ``Scripts``, ``DocHistory``, ``DocOptions``
  (linked-document path, DRM data), ``XMLTemplate``, OLE objects and any other ``BinData``, any stream
  this module does not know;
- refused: password-protected, distribution (배포용), DRM and certificate-encrypted documents, HWP 3.
"""
from __future__ import annotations

import hashlib
import io
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

from .errors import DocumentError
from .limits import MAX_DOCUMENT_CHARS, ResourceLimit, budget_or_new
from .hwp_records import (GSO_ID, HWPTAG_BIN_DATA, HWPTAG_BORDER_FILL, HWPTAG_CTRL_HEADER,
                          HWPTAG_LIST_HEADER, HWPTAG_SHAPE_COMPONENT, HWPTAG_SHAPE_COMPONENT_PICTURE, TABLE_ID,
                          bin_item_name, blank_bin_link, blank_field_command, border_fill_picture, table_cell,
                          FILL_STRETCH, PictureShape, gso_size, mask_payload, parse_records, picture_component,
                          serialize_records, shape_component, text_map)
from .model import Document, TextBuilder, Unreadable, split_plan

HWPTAG_PARA_TEXT = 0x43
MAX_SECTION_BYTES = 128 * 1024 * 1024   # one inflated section stream
#: a section stream holds UTF-16 text plus record headers: more than this many bytes in all sections
#: cannot be text within limits.MAX_DOCUMENT_CHARS (checked again on the text itself by TextBuilder)
MAX_TOTAL_SECTION_BYTES = 8 * MAX_DOCUMENT_CHARS
_SINGLE = {0: "", 10: "\n", 13: "", 24: "-", 25: " ", 26: " ", 27: " ", 28: " ", 29: " ",
           30: "\u00a0", 31: " "}
_INLINE = {4, 5, 6, 7, 8, 9, 19, 20}
_EXTENDED = {1, 2, 3, 11, 12, 14, 15, 16, 17, 18, 21, 22, 23}


_CONTROL = re.compile("[\x00-\x1f]")


def para_text(payload: bytes) -> str:
    """Decode one HWPTAG_PARA_TEXT payload, dropping control characters (tab -> ``\\t``).

    Decoded as one UTF-16 string and cut at the control characters (a hostile 50 MB paragraph costs
    about its own size, not a Python object per code unit)."""
    raw = payload[: len(payload) // 2 * 2].decode("utf-16-le", "surrogatepass")
    out, pos, n = [], 0, len(raw)
    while pos < n:
        m = _CONTROL.search(raw, pos)
        if m is None:
            out.append(raw[pos:])
            break
        i = m.start()
        out.append(raw[pos:i])
        c = ord(raw[i])
        if c in _INLINE or c in _EXTENDED:
            if c == 9:
                out.append("\t")
            pos = i + 8
        else:
            out.append(_SINGLE.get(c, ""))
            pos = i + 1
    text = "".join(out)
    # surrogate pairs are kept as pairs by surrogatepass; recombine (lone halves become U+FFFD)
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def iter_records(stream: bytes):
    """``(tag, level, payload)`` for each record of a section stream."""
    pos, n = 0, len(stream)
    while pos + 4 <= n:
        (hdr,) = struct.unpack_from("<I", stream, pos)
        pos += 4
        tag, level, size = hdr & 0x3FF, (hdr >> 10) & 0x3FF, hdr >> 20
        if size == 0xFFF:
            if pos + 4 > n:
                raise DocumentError("The HWP section stream is truncated.")
            (size,) = struct.unpack_from("<I", stream, pos)
            pos += 4
        if pos + size > n:
            raise DocumentError("The HWP section stream is truncated.")
        yield tag, level, stream[pos:pos + size]
        pos += size


def iter_paragraphs(stream: bytes):
    """Paragraph texts one at a time (the document limits are checked as they are added)."""
    return (para_text(p) for tag, _, p in iter_records(stream) if tag == HWPTAG_PARA_TEXT)


def section_paragraphs(stream: bytes) -> list[str]:
    return list(iter_paragraphs(stream))


def _inflate(data: bytes, name: str, budget=None) -> bytes:
    """Raw-deflate ``data`` in 1 MB steps with a running total (section and document limits)."""
    budget = budget if budget is not None else budget_or_new("HWP document")
    d = zlib.decompressobj(-15)
    out: list[bytes] = []
    size = 0
    buf = data
    try:
        while True:
            chunk = d.decompress(buf, 1024 * 1024)
            buf = d.unconsumed_tail
            if chunk:
                size += len(chunk)
                if size > MAX_SECTION_BYTES:
                    raise ResourceLimit(f"The HWP stream {name} unpacks to more than "
                                        f"{MAX_SECTION_BYTES // 2**20} MB; refusing to open it "
                                        "(possible compression bomb). Split the document.")
                budget.charge_inflated(len(chunk), name)
                out.append(chunk)
            if not buf or d.eof or not chunk:
                break
    except zlib.error:
        raise DocumentError(f"The HWP stream {name} is damaged (cannot be decompressed).") from None
    return b"".join(out)


#: FileHeader property bits (HWP 5.0 spec, "FileHeader"): refused / cleared on export
PROP_COMPRESSED, PROP_PASSWORD, PROP_DISTRIBUTION = 0x1, 0x2, 0x4
PROP_SCRIPTS, PROP_DRM, PROP_XMLTEMPLATE, PROP_HISTORY = 0x8, 0x10, 0x20, 0x40
PROP_CERT_ENCRYPTED, PROP_CERT_DRM = 0x100, 0x400
SUMMARY = "\x05HwpSummaryInformation"
PREVIEW_CHARS = 1024
#: removed from every export, by top-level storage/stream name -> what it is (for the notes)
_REMOVED_KINDS = {"PrvImage": "preview picture", "Scripts": "scripts", "DocHistory": "document history",
                  "DocOptions": "document options (linked-document path, DRM data)",
                  "XMLTemplate": "XML template"}


@dataclass
class _Source:
    streams: dict[str, bytes]
    props: int

    @property
    def compressed(self) -> bool:
        return bool(self.props & PROP_COMPRESSED)

    def sections(self) -> list[str]:
        out = []
        for name in self.streams:
            parts = name.split("/")
            if len(parts) == 2 and parts[0] == "BodyText" and parts[1].startswith("Section"):
                try:
                    out.append((int(parts[1][7:]), name))
                except ValueError:
                    continue
        return [n for _, n in sorted(out)]


def _load(data: bytes, budget=None) -> _Source:
    """Every stream of an HWP 5 file (raw, as stored), after the refusals."""
    import olefile

    if not olefile.isOleFile(io.BytesIO(data)):
        if data[:2] == b"PK":
            raise DocumentError("This .hwp file is a ZIP (probably HWPX); rename it to .hwpx.")
        if data.startswith(b"HWP Document File V"):
            raise DocumentError("This is an HWP 3 document (한글 97 or older); it is not supported. "
                                "Open it in Hancom Office and save it as HWP 5 (.hwp) or HWPX first.")
        raise DocumentError("This is not an HWP 5 document (not an OLE compound file). "
                            "HWP 3 and older are not supported.")
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except Exception:  # noqa: BLE001 - olefile raises assorted errors on damaged files
        raise DocumentError("The HWP file is damaged (OLE structure unreadable).") from None
    try:
        if not ole.exists("FileHeader"):
            raise DocumentError("This is not an HWP 5 document (FileHeader missing).")
        header = ole.openstream("FileHeader").read(256)
        if not header.startswith(b"HWP Document File") or len(header) < 40:
            raise DocumentError("This is not an HWP 5 document (bad signature).")
        (props,) = struct.unpack_from("<I", header, 36)
        if props & PROP_PASSWORD:
            raise DocumentError("The HWP document is password-protected; remove the password first.")
        if props & PROP_DISTRIBUTION:
            raise DocumentError("This is an HWP distribution document (배포용 문서, encrypted); it cannot "
                                "be read. Ask for the original document.")
        if props & (PROP_DRM | PROP_CERT_ENCRYPTED | PROP_CERT_DRM):
            raise DocumentError("The HWP document is DRM- or certificate-protected (encrypted); it "
                                "cannot be read.")
        streams: dict[str, bytes] = {}
        total = 0
        for entry in ole.listdir(streams=True, storages=False):
            name = "/".join(entry)
            size = ole.get_size(name)
            if size > MAX_SECTION_BYTES:
                raise ResourceLimit(f"The HWP stream {name} is larger than "
                                    f"{MAX_SECTION_BYTES // 2**20} MB; refusing to open it.")
            total += size
            if total > 4 * MAX_SECTION_BYTES:
                raise ResourceLimit("The HWP file's streams are too large to open.")
            streams[name] = ole.openstream(name).read()
    except (DocumentError, ResourceLimit):
        raise
    except Exception:  # noqa: BLE001 - damaged directory or FAT (cycles, bad sectors)
        raise DocumentError("The HWP file is damaged (OLE streams unreadable).") from None
    finally:
        ole.close()
    return _Source(streams, props)


def _maybe_inflate(data: bytes, name: str, budget=None) -> tuple[bytes, bool]:
    """A BinData stream: ``(content, was_compressed)`` (Hancom compresses them as it does sections,
    unless the item says otherwise: try raw deflate, to the end, else take the bytes as they are)."""
    d = zlib.decompressobj(-15)
    try:
        out = d.decompress(data, MAX_SECTION_BYTES + 1)
    except zlib.error:
        return data, False
    if not d.eof or d.unconsumed_tail or len(out) > MAX_SECTION_BYTES:
        return data, False
    if budget is not None:
        budget.charge_inflated(len(out), name)
    return out, True


def _deflate(data: bytes) -> bytes:
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


class _Picture:
    __slots__ = ("name", "data")

    def __init__(self, name: str, data: bytes) -> None:
        self.name, self.data = name, data


def _bin_kind(name: str) -> str:
    """"picture", or what a non-picture BinData item is (removed)."""
    from .pictures import METAFILE_EXTS, PICTURE_EXTS

    ext = ("." + name.rsplit(".", 1)[1].lower()) if "." in name.rsplit("/", 1)[-1] else ""
    if ext in PICTURE_EXTS | METAFILE_EXTS:
        return "picture"
    return "OLE object" if ext == ".ole" else "embedded file"


def _plan_streams(src: _Source) -> tuple[list[str], dict[str, str]]:
    """``(kept, removed)``: the streams published (rebuilt or reviewed) and the removed ones with what
    each is."""
    kept, removed = [], {}
    sections = set(src.sections())
    for name in src.streams:
        top = name.split("/")[0]
        if name in sections or name in ("FileHeader", "DocInfo", "PrvText", SUMMARY):
            kept.append(name)
        elif top == "BinData" and name.count("/") == 1:
            kind = _bin_kind(name)
            (kept.append(name) if kind == "picture" else removed.__setitem__(name, kind))
        else:
            removed[name] = _REMOVED_KINDS.get(top, "other data")
    return kept, removed


def _pictures(src: _Source, budget=None) -> list[_Picture]:
    kept, _ = _plan_streams(src)
    out = []
    for name in kept:
        if name.startswith("BinData/"):
            data, _ = _maybe_inflate(src.streams[name], name, budget) if src.compressed else \
                (src.streams[name], False)
            out.append(_Picture(name, data))
    return out


#: the most picture controls whose displayed size is kept per document, and sizes kept per picture
MAX_SHOWN_PICTURES = 20000
MAX_SIZES_PER_PICTURE = 32
#: HWPUNIT per pixel of the crop's coordinates (7200 per inch at 96 pixels per inch), when the picture
#: record does not say its image's size
CROP_UNITS_PER_PIXEL = 75


def picture_shapes(stream: bytes, out: list | None = None, cells: list | None = None) -> list:
    """``(picture, sizes)`` for every picture control (gen shape object ``gso `` with a
    SHAPE_COMPONENT_PICTURE) of a section stream, in order: its ``hwp_records.PictureShape`` and the
    (width, height) HWPUNIT sizes it is shown at before the crop is undone: the component's current size,
    its initial size and image rectangle times its rendering matrices' stretch (a picture in a group is
    scaled by the group's matrices), and the object's own size for a gso that is the picture itself (not
    rotated). A drawing object (rectangle, ellipse, arc, polygon, curve) with an image fill stretched over
    it ("크기에 맞추어") counts as a picture shown at the shape's sizes (``crop`` None). ``cells`` gets
    ``(border fill id, (width, height))`` for every table cell (its fill is resolved against DocInfo by
    :func:`displayed_sizes`). What cannot be read is skipped; a truncated stream ends the walk with what
    was found."""
    out = [] if out is None else out
    cells = [] if cells is None else cells
    # open controls: [level, "gso" | "tbl", own size, last component (level, ShapeSize, top)]
    open_: list[list] = []
    try:
        for tag, level, payload in iter_records(stream):
            while open_ and level <= open_[-1][0]:
                open_.pop()
            if tag == HWPTAG_CTRL_HEADER:
                if payload[:4] == GSO_ID:
                    open_.append([level, "gso", gso_size(payload), None])
                elif payload[:4] == TABLE_ID:
                    open_.append([level, "tbl", None, None])
                continue
            if not open_:
                continue
            g = open_[-1]
            if g[1] == "tbl":
                if tag == HWPTAG_LIST_HEADER and level == g[0] + 1 and len(cells) < MAX_SHOWN_PICTURES:
                    cell = table_cell(payload)
                    if cell is not None and cell[0] > 0 and cell[1] > 0 and cell[2] > 0:
                        cells.append((cell[2], (float(cell[0]), float(cell[1]))))
                continue
            if tag == HWPTAG_SHAPE_COMPONENT:
                top = level == g[0] + 1
                sc = shape_component(payload, top)
                g[3] = (level, sc, top) if sc is not None else None
                if sc is not None and sc.fill is not None and sc.fill[1] == FILL_STRETCH:
                    # an image fill "크기에 맞추어": the picture is stretched over the shape
                    sizes = _shown(sc, top, g[2], None)
                    if sizes:
                        out.append((PictureShape(sc.fill[0], None, None, None), sizes))
            elif tag == HWPTAG_SHAPE_COMPONENT_PICTURE and g[3] is not None and level == g[3][0] + 1:
                pic = picture_component(payload)
                if pic is None:
                    continue
                _, sc, top = g[3]
                sizes = _shown(sc, top, g[2], pic.rect)
                if sizes:
                    out.append((pic, sizes))
            if len(out) >= MAX_SHOWN_PICTURES:
                break
    except DocumentError:
        pass
    return out


def _shown(sc, top: bool, own: tuple[int, int] | None, rect: tuple[int, int] | None) -> list:
    """The positive sizes a shape component is shown at: its current size, its initial size and ``rect``
    times its matrices' stretch, and ``own`` (the gso's size) for the gso's own component, not rotated."""
    sizes = [sc.cur]
    if sc.scale is not None:
        sx, sy = sc.scale
        sizes.append((sc.init[0] * sx, sc.init[1] * sy))
        if rect is not None:
            sizes.append((rect[0] * sx, rect[1] * sy))
    if top and own is not None and sc.rotation % 360 == 0:
        sizes.append(own)
    return [(float(w), float(h)) for w, h in sizes if w > 0 and h > 0]


def bin_items(docinfo: bytes) -> dict[int, str]:
    """BinItem id (1-based, the order of DocInfo's BIN_DATA records) -> the ``BinData`` stream name of an
    embedded item (``hwp_records.bin_item_name``). A truncated DocInfo gives the items read before."""
    out: dict[int, str] = {}
    k = 0
    try:
        for tag, _, payload in iter_records(docinfo):
            if tag == HWPTAG_BIN_DATA:
                k += 1
                name = bin_item_name(payload)
                if name is not None:
                    out[k] = name
    except DocumentError:
        pass
    return out


def border_fill_pictures(docinfo: bytes) -> dict[int, int]:
    """BORDER_FILL id (1-based, in order) -> the BinItem id of its image fill, for fills stretched over
    what they fill ("크기에 맞추어"; table cells); tiled or placed pictures keep their own aspect."""
    out: dict[int, int] = {}
    k = 0
    try:
        for tag, _, payload in iter_records(docinfo):
            if tag == HWPTAG_BORDER_FILL:
                k += 1
                pic = border_fill_picture(payload)
                if pic is not None and pic[1] == FILL_STRETCH:
                    out[k] = pic[0]
    except DocumentError:
        pass
    return out


def _crop_units(data: bytes) -> tuple[int, int] | None:
    """A picture's size in its crop's units (pixels x 75), from its header; None if it is not a raster."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            w, h = im.size
    except Exception:  # noqa: BLE001 - not a raster picture (metafile, damaged): no crop undone
        return None
    return w * CROP_UNITS_PER_PIXEL, h * CROP_UNITS_PER_PIXEL


def displayed_sizes(shapes: list, items: dict[int, str], pictures: list, fills: dict[int, int] | None = None,
                    cells: list = ()) -> dict[str, list[tuple[float, float]]]:
    """Picture member -> every (width, height) the document shows it at (HWPUNIT, the whole picture: the
    crop undone against the image's size — the picture record's, else the pixels x 75), for
    ``pictures.review_pictures`` (issue 26: a name stored squashed and shown stretched). ``shapes`` from
    :func:`picture_shapes`, ``items`` from :func:`bin_items`; a BinItem id that names no picture member is
    skipped (the picture is read at its pixels). ``cells`` (:func:`picture_shapes`) whose border fill is in
    ``fills`` (:func:`border_fill_pictures`) show that picture stretched over the cell."""
    shapes = list(shapes) + [(PictureShape(fills[f], None, None, None), [size])
                             for f, size in cells if fills and f in fills]
    by_lower = {p.name.lower(): p for p in pictures}
    units: dict[str, tuple[int, int] | None] = {}
    out: dict[str, list[tuple[float, float]]] = {}
    for pic, sizes in shapes:
        name = items.get(pic.bin_id)
        member = by_lower.get(name.lower()) if name else None
        if member is None:
            continue
        fx = fy = 1.0
        l, t, r, b = pic.crop or (0, 0, 0, 0)
        if pic.crop is not None and (l, t) != (0, 0) or pic.dims is None or (r, b) != tuple(pic.dims):
            whole = pic.dims if pic.dims and pic.dims[0] > 0 and pic.dims[1] > 0 else None
            if whole is None:
                if member.name not in units:
                    units[member.name] = _crop_units(member.data)
                whole = units[member.name]
            if whole is not None and r > l and b > t:
                fx, fy = (r - l) / whole[0], (b - t) / whole[1]
            if not (1e-3 <= fx <= 1e3 and 1e-3 <= fy <= 1e3):
                fx = fy = 1.0
        have = out.setdefault(member.name, [])
        for w, h in sizes:
            s = (round(w / fx, 2), round(h / fy, 2))
            if s not in have and len(have) < MAX_SIZES_PER_PICTURE:
                have.append(s)
    return {k: v for k, v in out.items() if v}


def _notes(src: _Source) -> tuple[str, ...]:
    _, removed = _plan_streams(src)
    cats: dict[str, int] = {}
    for kind in removed.values():
        if kind != "preview picture":
            cats[kind] = cats.get(kind, 0) + 1
    notes = ["Exported as HWP: masked characters are overwritten with a masking text of the same length "
             "(tags padded with * or shortened, e.g. [P]); layout records are kept."]
    if cats:
        notes.append("Removed from the export because their content cannot be reviewed: "
                     + ", ".join(f"{c} ({n})" for c, n in sorted(cats.items())) + ".")
    notes.append("Document properties (title, author, dates) and the preview are rebuilt; field "
                 "commands (hyperlink targets, click-here guides) are emptied.")
    if any(n.startswith("BinData/") for n in src.streams if n not in removed):
        notes.append("Pictures (BinData) are checked for text and copied without their metadata.")
    return tuple(notes)


def shown_pictures(src: _Source, members: list, shapes: list, cells: list,
                   budget=None) -> dict[str, list[tuple[float, float]]]:
    """:func:`displayed_sizes` of ``members`` from the section walks' ``shapes`` and ``cells``
    (:func:`picture_shapes`) and the file's DocInfo (BinItems, border fills); a damaged DocInfo gives none
    (every picture is read at its pixels)."""
    if not (shapes or cells) or not members or "DocInfo" not in src.streams:
        return {}
    try:
        info = _inflate(src.streams["DocInfo"], "DocInfo", budget) if src.compressed else src.streams["DocInfo"]
    except DocumentError:
        return {}
    return displayed_sizes(shapes, bin_items(info), members, border_fill_pictures(info), cells)


def read_hwp(path: Path, data: bytes) -> Document:
    budget = budget_or_new("HWP document")
    src = _load(data)
    sections = src.sections()
    if not sections:
        raise DocumentError("The HWP document has no body text (BodyText/Section0 missing).")
    tb = TextBuilder()
    total = 0
    shapes: list = []            # picture controls and the sizes they are shown at (displayed_sizes)
    cells: list = []             # table cells: (border fill id, size)
    for k, name in enumerate(sections):
        raw = src.streams[name]
        stream = _inflate(raw, name, budget) if src.compressed else raw
        picture_shapes(stream, shapes, cells)
        total += len(stream)
        if total > MAX_TOTAL_SECTION_BYTES:
            raise ResourceLimit("The HWP document's text is too large to review (more than "
                                f"{MAX_DOCUMENT_CHARS:,} characters); split it into smaller files.")
        tb.begin_part("본문" if k == 0 else f"구역 {k + 1}", name, header=k > 0)
        for j, text in enumerate(iter_paragraphs(stream)):
            tb.slot(name, j, text)
            tb.boilerplate("\n")
        tb.end_part()
        del stream
    from .pictures import PicturePolicy, review_pictures

    # BinData pictures: text OCR reads with confidence is reviewed (burned by write_hwp), the rest holds
    # the file; the user's picture policy (blank/remove) is not applied to HWP
    # each is also read at the aspect the document shows it at (issue 26: stored squashed, shown stretched)
    members = _pictures(src, budget)
    shown = shown_pictures(src, members, shapes, cells, budget)
    pics = review_pictures(members, policy=PicturePolicy.REVIEW, displayed=shown)
    picture_pages: dict[str, list] = {}
    for member, (k, pages) in sorted(pics.read.items(), key=lambda kv: kv[1][0]):
        picture_pages[member] = pages
        tb.begin_part(f"picture {k}", member, kind="picture", detail=str(k))
        for i, page in enumerate(pages):
            tb.slot(member, i, page.text)
            if not tb.ends_with_newline():
                tb.boilerplate("\n")
        tb.end_part()
    text = tb.text()
    unreadable: tuple[Unreadable, ...] = tuple(pics.unreadable)
    notes = _notes(src) + tuple(n for n in pics.notes if "shown for review" in n)
    return Document(path=path, format="hwp", text=text, parts=tuple(tb.parts),
                    segments=tuple(tb.segments), sha256=hashlib.sha256(data).hexdigest(),
                    size=len(data), notes=notes, unreadable=unreadable,
                    extra={"picture_pages": picture_pages})


def neutral_summary() -> bytes:
    """An ``HwpSummaryInformation`` property set (Hancom's layout: the stream's CLSID is the FMTID) whose
    text properties — title, subject, author, keywords, comments, last saved by — are empty strings, and
    that has no dates, revision or application data."""
    fmtid = bytes.fromhex("60b6a29f6110d411b4c6006097c09d8c")   # {9FA2B660-1061-11D4-B4C6-006097C09D8C}
    empty = struct.pack("<HHI", 0x1F, 0, 1) + b"\0\0\0\0"       # VT_LPWSTR: one unit (the NUL), padded
    props = [(pid, empty) for pid in (2, 3, 4, 5, 6, 8)] + [(0, b"\0\0\0\0")]  # 0: an empty dictionary
    table_len = 8 + 8 * len(props)
    table, values = b"", b""
    for pid, value in props:
        table += struct.pack("<II", pid, table_len + len(values))
        values += value
    section = struct.pack("<II", table_len + len(values), len(props)) + table + values
    head = struct.pack("<HHI", 0xFFFE, 0, 0x00020105) + fmtid + struct.pack("<I", 1) + fmtid \
        + struct.pack("<I", 48)
    return head + section


def _mask_section(stream: bytes, name: str, edits: dict[int, list[tuple[int, int, str]]],
                  seg_text: dict[int, str]) -> tuple[bytes, list[str], int]:
    """The masked section stream, its paragraphs' new text, and how many field commands were emptied."""
    records = parse_records(stream)
    j = -1
    texts: list[str] = []
    fields = 0
    for r in records:
        if r.tag == HWPTAG_PARA_TEXT:
            j += 1
            text, _ = text_map(r.payload)
            if j in seg_text and seg_text[j] != text:
                raise DocumentError(f"The HWP paragraph {name} #{j} does not match the reviewed text; "
                                    "open the document again.")
            if j in edits:
                r.payload = mask_payload(r.payload, edits[j])
                text, _ = text_map(r.payload)
            texts.append(text)
        elif r.tag == HWPTAG_CTRL_HEADER:
            blank = blank_field_command(r.payload)
            if blank is not None:
                r.payload = blank
                fields += 1
    unknown = set(edits) - set(range(j + 1))
    if unknown:
        raise DocumentError(f"The masking plan names paragraphs that {name} does not have.")
    return serialize_records(records), texts, fields


def write_hwp(doc: Document, plan: list, source: bytes) -> bytes:
    """The masked HWP 5 file (see the module docstring for what is rebuilt, reviewed and removed)."""
    from .cfb import write_cfb
    from .pictures import publish_picture
    from .xmlwalk import strip_picture_metadata

    pictures_read = (doc.extra or {}).get("picture_pages") or {}

    budget = budget_or_new("HWP document")
    src = _load(source)
    kept, _ = _plan_streams(src)
    per_slot = split_plan(plan, doc.segments)
    seg_text: dict[str, dict[int, str]] = {}
    for s in doc.segments:
        seg_text.setdefault(s.member, {})[s.slot] = doc.text[s.start:s.end]
    out: dict[str, bytes] = {}
    preview: list[str] = []
    sections = src.sections()
    for name in kept:
        data = src.streams[name]
        if name in sections:
            stream = _inflate(data, name, budget) if src.compressed else data
            edits = {slot: e for (member, slot), e in per_slot.items() if member == name}
            masked, texts, _ = _mask_section(stream, name, edits, seg_text.get(name, {}))
            if sum(len(t) for t in preview) < PREVIEW_CHARS:
                preview += texts
            out[name] = _deflate(masked) if src.compressed else masked
        elif name == "DocInfo":
            stream = _inflate(data, name, budget) if src.compressed else data
            records = parse_records(stream)
            changed = False
            for r in records:
                if r.tag == HWPTAG_BIN_DATA:
                    blank = blank_bin_link(r.payload)
                    if blank is not None:
                        r.payload, changed = blank, True
            if changed:
                stream = serialize_records(records)
                out[name] = _deflate(stream) if src.compressed else stream
            else:
                out[name] = data
        elif name == "FileHeader":
            hdr = bytearray(data)
            (props,) = struct.unpack_from("<I", hdr, 36)
            struct.pack_into("<I", hdr, 36, props & ~(PROP_SCRIPTS | PROP_XMLTEMPLATE | PROP_HISTORY))
            out[name] = bytes(hdr)
        elif name.startswith("BinData/"):
            pic, was = _maybe_inflate(data, name, budget) if src.compressed else (data, False)
            burn = {slot: [(a, b) for a, b, _ in e] for (member, slot), e in per_slot.items()
                    if member == name and e}
            if burn:     # masked values in the picture's reviewed text: burned into its pixels
                if name not in pictures_read:
                    raise DocumentError("A picture does not match what was reviewed; open the file again.")
                clean = publish_picture(pic, None, pictures_read[name], burn)
            else:
                clean = strip_picture_metadata(pic)
            out[name] = data if clean == pic else (_deflate(clean) if was else clean)
    missing = [s for s in {s.member for s in doc.segments} if s not in sections and s not in pictures_read]
    if missing:
        raise DocumentError("The reviewed text names sections the HWP file does not have; open it again.")
    text = "\r\n".join(t.replace("\n", "\r\n") for t in preview).lstrip("\r\n")[:PREVIEW_CHARS]
    out["PrvText"] = text.encode("utf-16-le", "replace")
    out[SUMMARY] = neutral_summary()
    return write_cfb(out)
