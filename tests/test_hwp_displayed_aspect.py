"""HWP 5 pictures read at the aspect the document shows them (issue 26, class 1: a picture stored squashed
and shown stretched). The reader takes each BinData picture's displayed size from its picture control
(gen shape object "gso ": SHAPE_COMPONENT sizes and matrices, SHAPE_COMPONENT_PICTURE crop and BinItem id;
DocInfo BIN_DATA maps the id to its stream) and passes it to ``pictures.review_pictures`` as DOCX and HWPX
do. Fixtures are built here (no ../shared)."""
from __future__ import annotations

import struct
import zlib

import pytest

from tests.test_documents_hwp import build_hwp, ctrl, deflate, para, record, section_prelude, units_of
from veil_desktop.documents import hwp, ocr, open_document, pictures
from veil_desktop.documents.cfb import read_streams, write_cfb
from veil_desktop.documents.hwp import bin_items, displayed_sizes, picture_shapes, read_hwp

UNIT = 75                         # HWPUNIT per pixel at 96 dpi
STORED = (1000, 40)               # the pixels the picture holds (squashed 4x down)
SHOWN = (1000 * UNIT, 160 * UNIT)  # the size the document shows it at: 75000 x 12000 HWPUNIT
OWN = (1000 * UNIT, 40 * UNIT)    # shown at its own aspect
MEMBER = "BinData/BIN0001.png"
IDENTITY = struct.pack("<6d", 1, 0, 0, 0, 1, 0)


def matrix(sx: float = 1.0, sy: float = 1.0) -> bytes:
    return struct.pack("<6d", sx, 0, 0, 0, sy, 0)


def gso_header(w: int, h: int) -> bytes:
    """CTRL_HEADER of a gen shape object: id, properties, offsets, width, height, z-order, margins, instance
    id, page-break flag, an empty description."""
    return b" osg" + struct.pack("<IiiiiiHHHHIiH", 0x040A6311, 0, 0, w, h, 0, 0, 0, 0, 0, 7, 0, 0)


def shape_component(init, cur, *, top: bool = True, pairs=((IDENTITY, IDENTITY),), rotation: int = 0,
                    chid: bytes = b"cip$") -> bytes:
    ids = chid * 2 if top else chid
    return (ids + struct.pack("<iiHHiiiiIhiiH", 0, 0, 0 if top else 1, 1, *init, *cur, 0, rotation,
                              cur[0] // 2, cur[1] // 2, len(pairs))
            + IDENTITY + b"".join(s + r for s, r in pairs))


def picture_record(bin_id: int, rect, crop, dims=None) -> bytes:
    """SHAPE_COMPONENT_PICTURE: border (12 bytes), the image rectangle's corners point by point, the crop,
    inner margins, brightness/contrast/effect, the BinItem id; with ``dims`` the tail (border transparency,
    instance id, no effects, the image's size)."""
    w, h = rect
    out = (struct.pack("<IiI", 0, 0, 0) + struct.pack("<8i", 0, 0, w, 0, w, h, 0, h)
           + struct.pack("<4i", *crop) + struct.pack("<4h", 0, 0, 0, 0) + struct.pack("<bbBH", 0, 0, 0, bin_id))
    if dims is not None:
        out += struct.pack("<BIIii", 0, 99, 0, *dims)
    return out


def picture_para(shown, *, bin_id: int = 1, crop=None, dims=None, sc: bytes | None = None,
                 pic: bytes | None = None) -> bytes:
    """A paragraph anchoring one picture control shown at ``shown`` HWPUNIT (the whole picture uncropped
    unless ``crop``); ``sc``/``pic`` replace the component records (hostile tests)."""
    whole = (STORED[0] * UNIT, STORED[1] * UNIT)
    crop = crop if crop is not None else (0, 0, *whole)
    dims = dims if dims is not None else whole
    sc = sc if sc is not None else shape_component(shown, shown)
    pic = pic if pic is not None else picture_record(bin_id, shown, crop, dims)
    return para(ctrl(11, b"gso ") + units_of("그림"),
                extra=record(0x47, 1, gso_header(*shown)) + record(0x4C, 2, sc) + record(0x55, 3, pic))


def bin_data(ext: str = "png", item: int = 1) -> bytes:
    e = ext.encode("utf-16-le")
    return struct.pack("<HHH", 1, item, len(ext)) + e


def docinfo_with(*bins: bytes, border_fills: tuple[bytes, ...] = ()) -> bytes:
    out = record(0x10, 0, struct.pack("<H7I", 1, 1, 1, 1, 1, 1, 1, 0)) + record(0x11, 0, b"\0" * 72)
    return out + b"".join(record(0x12, 1, b) for b in bins) + b"".join(record(0x14, 1, b) for b in border_fills)


def border_fill(picture: int | None = None, mode: int = 5) -> bytes:
    """A DocInfo BORDER_FILL: properties, four borders and the diagonal, then no fill or a picture fill."""
    head = struct.pack("<H", 0) + struct.pack("<BBI", 1, 1, 0) * 5
    fill = struct.pack("<I", 0) if picture is None else struct.pack("<IBbbBH", 2, mode, 0, 0, 0, picture)
    return head + fill + struct.pack("<IB", 0, 0)


def table(*cells: tuple[tuple[int, int], int], cut: int = 0) -> bytes:
    """A paragraph anchoring a one-row table whose cells are ``(size, border fill id)``; a LIST_HEADER per
    cell (8 bytes, column, row, spans, width, height, margins, border fill id, as Hancom writes it) and
    its paragraph. ``cut``: bytes cut off each LIST_HEADER."""
    out = record(0x47, 1, b" lbt" + struct.pack("<IiiiiiHHHHIiH", 0x082A2210, 0, 0, 41952, 1563, 0, 0, 0,
                                                  0, 0, 3, 0, 0))
    out += record(0x4D, 2, struct.pack("<IHHH", 6, 1, len(cells), 0) + b"\0" * 12)
    for k, ((w, h), fill) in enumerate(cells):
        head = (struct.pack("<HHI", 1, 0, 0x20) + struct.pack("<4H", k, 0, 1, 1) + struct.pack("<ii", w, h)
                + struct.pack("<4H", 510, 510, 141, 141) + struct.pack("<H", fill) + b"\0" * 13)
        out += record(0x48, 2, head[:len(head) - cut]) + para("셀", level=2)
    return para(ctrl(11, b"tbl ") + units_of("표"), extra=out)


def squashed_png() -> bytes:
    """The name and phone drawn legibly at 1000x160 and stored squashed to 1000x40."""
    from tests.test_pictures_displayed_aspect import png, squashed

    return png(squashed())


def hwp_file(tmp_path, body: bytes, *, compressed: bool = True, docinfo: bytes | None = None,
             picture: bytes | None = None, name: str = "a.hwp"):
    pack = deflate if compressed else (lambda b: b)
    src = build_hwp(tmp_path / name, compressed=compressed, body=section_prelude() + para("보고서 본문") + body)
    streams = read_streams(src.read_bytes())
    streams["DocInfo"] = pack(docinfo if docinfo is not None else docinfo_with(bin_data()))
    streams[MEMBER] = pack(picture if picture is not None else squashed_png())
    src.write_bytes(write_cfb(streams))
    return src


def seen_by_review(monkeypatch, path) -> dict:
    """The ``displayed`` mapping read_hwp hands to review_pictures (the review itself runs as usual)."""
    got = {}
    real = pictures.review_pictures

    def spy(members, *a, **kw):
        members = list(members)
        got["members"] = [m.name for m in members]
        got["displayed"] = kw.get("displayed")
        return real(members, *a, **kw)

    monkeypatch.setattr(pictures, "review_pictures", spy)
    monkeypatch.setattr(ocr, "available", lambda: False)   # no OCR here: the verdict is "unchecked"
    read_hwp(path, path.read_bytes())
    return got


@pytest.mark.parametrize("compressed", [True, False])
def test_displayed_size_of_a_stretched_picture_is_passed_to_the_review(tmp_path, monkeypatch, compressed):
    src = hwp_file(tmp_path, picture_para(SHOWN), compressed=compressed)
    got = seen_by_review(monkeypatch, src)
    assert got["members"] == [MEMBER]
    assert got["displayed"] == {MEMBER: [(75000.0, 12000.0)]}


def test_crop_is_undone_against_the_image_size(tmp_path):
    """The left half shown at 37500x12000: the whole picture is shown at 75000x12000. Without the record's
    image size (a 73-byte picture record, as older files write) the pixels x 75 are the crop's units."""
    whole = (STORED[0] * UNIT, STORED[1] * UNIT)
    half = (0, 0, whole[0] // 2, whole[1])
    body = (picture_para((37500, 12000), crop=half, dims=whole)
            + picture_para((37500, 12000), pic=picture_record(1, (37500, 12000), half)))
    shapes = picture_shapes(deflate_free(body))
    assert [p.dims for p, _ in shapes] == [whole, None]
    members = [hwp._Picture(MEMBER, squashed_png())]
    assert displayed_sizes(shapes, {1: MEMBER}, members) == {MEMBER: [(75000.0, 12000.0)]}


def deflate_free(body: bytes) -> bytes:
    return section_prelude() + body


def test_a_picture_in_a_group_is_scaled_by_its_matrices():
    """Inside a group (묶음 개체) the component stores its id once and its initial size is stretched by the
    scale matrices (Hancom's shapecontainer-2.hwp: 45899x6300 x (1.2969, 0.5849) = 59527x3684)."""
    container = shape_component((20000, 20000), (20000, 20000), chid=b"noc$")
    child = shape_component((37500, 6000), (37500, 6000), top=False, pairs=((IDENTITY, IDENTITY),
                                                                          (matrix(2.0, 2.0), IDENTITY)))
    body = para(ctrl(11, b"gso ") + units_of("묶음"),
                extra=record(0x47, 1, gso_header(20000, 20000)) + record(0x4C, 2, container)
                + record(0x4C, 3, child) + record(0x55, 4, picture_record(1, (37500, 6000), (0, 0, 75000, 3000),
                                                                         (75000, 3000))))
    ((pic, sizes),) = picture_shapes(section_prelude() + body)
    assert pic.bin_id == 1
    # the current size as stored, the initial size and the image rectangle scaled 2x; not the group's size
    assert sizes == [(37500.0, 6000.0), (75000.0, 12000.0), (75000.0, 12000.0)]


def test_bin_items_map_ids_in_order_to_streams():
    link = struct.pack("<HH", 0, 1) + "a".encode("utf-16-le") + struct.pack("<H", 0)
    info = docinfo_with(bin_data("jpg", 1), link, bin_data("PNG", 11), bin_data("bmp", 12)[:7])
    assert bin_items(info) == {1: "BinData/BIN0001.jpg", 3: "BinData/BIN000B.PNG"}


@pytest.mark.parametrize("case", ["short component", "short picture", "bin id out of range", "zero sizes",
                                  "negative sizes", "huge matrix count", "nan matrix", "no bin data",
                                  "truncated docinfo", "linked item"])
def test_hostile_records_give_no_displayed_size_and_never_raise(tmp_path, monkeypatch, case):
    good_sc = shape_component(SHOWN, SHOWN)
    kw: dict = {}
    docinfo = None
    if case == "short component":
        kw["sc"] = good_sc[:30]
    elif case == "short picture":
        kw["pic"] = picture_record(1, SHOWN, (0, 0, 75000, 3000))[:72]
    elif case == "bin id out of range":
        kw["bin_id"] = 7
    elif case == "zero sizes":
        kw["sc"] = shape_component((0, 0), (0, 0))
        kw["pic"] = picture_record(1, (0, 0), (0, 0, 75000, 3000), (75000, 3000))
    elif case == "negative sizes":
        kw["sc"] = shape_component((-75000, 12000), (75000, -12000))
        kw["pic"] = picture_record(1, (0, 0), (0, 0, 75000, 3000), (75000, 3000))
    elif case == "huge matrix count":
        sc = shape_component(SHOWN, (0, 0))         # the initial size is believed through its matrices only
        kw["sc"] = sc[:50] + struct.pack("<H", 0xFFFF) + sc[52:]
        kw["pic"] = picture_record(1, (0, 0), (0, 0, 75000, 3000), (75000, 3000))
    elif case == "nan matrix":
        kw["sc"] = shape_component((1, 1), (0, 0), pairs=((matrix(float("nan"), 1e300), matrix(1e300, 1)),))
        kw["pic"] = picture_record(1, (0, 0), (0, 0, 75000, 3000), (75000, 3000))
    elif case == "no bin data":
        docinfo = docinfo_with()
    elif case == "truncated docinfo":
        docinfo = docinfo_with(bin_data())[:-3]
    elif case == "linked item":
        docinfo = docinfo_with(struct.pack("<HHH", 0, 0, 0))
    # a gso whose header is cut short still anchors its components: its own size is skipped
    body = picture_para(SHOWN, **kw).replace(record(0x47, 1, gso_header(*SHOWN)), record(0x47, 1, b" osg\0\0"))
    src = hwp_file(tmp_path, body, docinfo=docinfo)
    got = seen_by_review(monkeypatch, src)
    assert got["members"] == [MEMBER]       # the picture is still reviewed, at its pixels
    assert got["displayed"] == {}, got["displayed"]


def test_huge_matrix_count_still_believes_the_current_size():
    """Matrices cut short: the initial size is not scaled, the current size is still a displayed size."""
    sc = shape_component((1000, 1000), SHOWN)
    sc = sc[:50] + struct.pack("<H", 0xFFFF) + sc[52:]   # the pair count (after 8 + 42 bytes)
    ((_, sizes),) = picture_shapes(section_prelude() + picture_para(SHOWN, sc=sc))
    assert sizes == [(75000.0, 12000.0), (75000.0, 12000.0)]


def test_a_truncated_section_keeps_the_pictures_read_before():
    body = section_prelude() + picture_para(SHOWN)
    assert len(picture_shapes(body + struct.pack("<I", 0x43 | (0x100 << 20)) + b"xx")) == 1


def filled_component(shown, *, mode: int = 5, kind: int = 2, bin_id: int = 1, colours: int = 2) -> bytes:
    """The SHAPE_COMPONENT of a rectangle ("$rec") of ``shown`` HWPUNIT whose fill (채우기 정보) holds a
    picture: border line (13 bytes), fill kind, a colour (bit 1), a gradient (bit 4) and the picture (bit 2:
    mode, brightness, contrast, effect, BinItem id), as Hancom writes them (shapecomponent-rect-fill.hwp)."""
    fill = struct.pack("<I", kind)
    if kind & 1:
        fill += struct.pack("<IIi", 0xFF7F3F, 0, -1)
    if kind & 4:
        fill += struct.pack("<Biiiii", 1, 90, 0, 0, 50, colours)
        if colours > 0:
            fill += b"\0\0\0\0" * (2 * colours if colours > 2 else colours)   # positions, colours
    if kind & 2:
        fill += struct.pack("<BbbBH", mode, 0, 0, 0, bin_id)
    fill += struct.pack("<IB", 0, 0)
    return shape_component(shown, shown, chid=b"cer$") + struct.pack("<IiIB", 0, 33, 0xD1000041, 0) + fill


def filled_rect(shown, sc: bytes | None = None, **kw) -> bytes:
    """A paragraph anchoring that rectangle (or one whose component is ``sc``)."""
    sc = sc if sc is not None else filled_component(shown, **kw)
    return para(ctrl(11, b"gso ") + units_of("사각형"),
                extra=record(0x47, 1, gso_header(*shown)) + record(0x4C, 2, sc))


@pytest.mark.parametrize("kind", [2, 3, 6])
def test_an_image_fill_stretched_over_a_shape_is_shown_at_the_shape(tmp_path, monkeypatch, kind):
    """A rectangle filled "크기에 맞추어" (mode 5) with the squashed picture shows it at the rectangle's size
    (alone, after a colour, after a gradient); tiled (mode 0) the picture keeps its own aspect."""
    src = hwp_file(tmp_path, filled_rect(SHOWN, kind=kind) + filled_rect((30000, 30000), mode=0, kind=kind))
    got = seen_by_review(monkeypatch, src)
    assert got["displayed"] == {MEMBER: [(75000.0, 12000.0)]}


@pytest.mark.parametrize("bad", ["gradient count", "cut", "no picture bit", "bin id", "gradient of 3"])
def test_hostile_image_fills_give_no_displayed_size(tmp_path, monkeypatch, bad):
    body = {"gradient count": filled_rect(SHOWN, kind=6, colours=-5),
            # the record ends inside the picture's fields (its BinItem id)
            "cut": filled_rect(SHOWN, sc=filled_component(SHOWN)[:-7]),
            "no picture bit": filled_rect(SHOWN, kind=1),
            "bin id": filled_rect(SHOWN, bin_id=0),
            # 3 colours say 3 positions too: without them the picture's fields are read past the end
            "gradient of 3": filled_rect(SHOWN, sc=filled_component(SHOWN, kind=6, colours=3)[:-12])}[bad]
    src = hwp_file(tmp_path, body)
    got = seen_by_review(monkeypatch, src)
    assert got["members"] == [MEMBER] and got["displayed"] == {}, got["displayed"]


def test_a_picture_stretched_over_a_table_cell_is_shown_at_the_cell(tmp_path, monkeypatch):
    """A cell whose BORDER_FILL holds the picture "크기에 맞추어" (Hancom's sample_hwp_changing-image.hwp)
    shows it at the cell's size; a cell without a picture fill or with a tiled one shows nothing."""
    info = docinfo_with(bin_data(), border_fills=(border_fill(), border_fill(1), border_fill(1, mode=0)))
    src = hwp_file(tmp_path, table((SHOWN, 2), ((30000, 30000), 1), ((20000, 40000), 3)), docinfo=info)
    got = seen_by_review(monkeypatch, src)
    assert got["displayed"] == {MEMBER: [(75000.0, 12000.0)]}


@pytest.mark.parametrize("bad", ["short cell", "fill id out of range", "short border fill", "zero cell",
                                 "picture out of range"])
def test_hostile_table_cells_give_no_displayed_size(tmp_path, monkeypatch, bad):
    fills = (border_fill(), border_fill(1))
    cells, cut = [(SHOWN, 2)], 0
    if bad == "short cell":
        cut = 14                          # the border fill id and what follows
    elif bad == "fill id out of range":
        cells = [(SHOWN, 3)]
    elif bad == "short border fill":
        fills = (border_fill(), border_fill(1)[:37])
    elif bad == "zero cell":
        cells = [((0, 12000), 2), ((75000, -1), 2)]
    elif bad == "picture out of range":
        fills = (border_fill(), border_fill(5))
    src = hwp_file(tmp_path, table(*cells, cut=cut), docinfo=docinfo_with(bin_data(), border_fills=fills))
    got = seen_by_review(monkeypatch, src)
    assert got["members"] == [MEMBER] and got["displayed"] == {}, got["displayed"]


needs_ocr = pytest.mark.skipif(not ocr.available(), reason="OCR (tesserocr + tessdata) is a dependency")


def picture_text(doc) -> str:
    part = next(p for p in doc.parts if p.kind == "picture")
    return "".join(doc.text[part.start:part.end].split())


@needs_ocr
def test_a_name_legible_only_stretched_is_found_and_burned(tmp_path):
    from tests.test_pictures_displayed_aspect import NAME, PHONE, redact_values, shown_text

    src = hwp_file(tmp_path, picture_para(SHOWN))
    doc = open_document(src)
    assert not doc.needs_review, doc.unreadable
    seen = picture_text(doc)
    assert NAME in seen and PHONE in seen, seen
    res = redact_values(doc, tmp_path / "o.hwp")
    assert res.leak_check["result"] == "clean"
    out = zlib.decompress(read_streams((tmp_path / "o.hwp").read_bytes())[MEMBER], -15)
    text = shown_text(out)
    assert "2345" not in text and "6789" not in text and NAME not in text, text
    assert "성명" in text or "연락처" in text, text


@needs_ocr
def test_shown_at_its_own_aspect_it_reads_as_without_a_picture_control(tmp_path, monkeypatch):
    """Control: the same picture shown at its pixels' aspect gets the very readings (and verdict) it got
    before displayed sizes existed: as a BinData stream no control shows."""
    runs = {}
    real = pictures.ocr_readings
    for label, body in (("own", picture_para(OWN)), ("none", b"")):
        calls: list = []
        monkeypatch.setattr(pictures, "ocr_readings", lambda f, calls=calls: calls.append(f.size) or real(f))
        doc = open_document(hwp_file(tmp_path, body, name=f"{label}.hwp"))
        pages = doc.extra["picture_pages"].get(MEMBER)
        runs[label] = (calls, doc.needs_review, [u.reason for u in doc.unreadable],
                       [p.text if p else None for p in pages] if pages else None)
    assert runs["own"] == runs["none"]
    assert all(w == STORED[0] for w, _ in runs["own"][0])   # read at its own aspect only
    # and at its pixels the phone is not read (the attack is real)
    assert "010-2345-6789" not in str(runs["own"][3])


@needs_ocr
def test_shown_at_an_absurd_aspect_it_is_held(tmp_path):
    src = hwp_file(tmp_path, picture_para((1000 * UNIT * 30, 40 * UNIT)))
    doc = open_document(src)
    assert doc.needs_review
    (u,) = doc.unreadable
    assert u.where == "picture 1" and "aspect" in u.caption_en


@needs_ocr
def test_a_name_legible_only_stretched_over_a_filled_shape_is_found(tmp_path):
    from tests.test_pictures_displayed_aspect import NAME, PHONE

    doc = open_document(hwp_file(tmp_path, filled_rect(SHOWN)))
    assert not doc.needs_review, doc.unreadable
    seen = picture_text(doc)
    assert NAME in seen and PHONE in seen, seen
