"""EMF/WMF pictures rendered (documents/metafile_render.py) and read by OCR like raster pictures.

Fixtures are built here from MS-EMF / MS-WMF record layouts: shapes at known places (pixels asserted),
fill rules, transforms, clipping, bitmaps, and glyphs drawn as polygons (PIL renders the text with the
bundled NanumGothic; every run of ink pixels of a row becomes one rectangle polygon: the text exists only
as vector shapes, no text record)."""
from __future__ import annotations

import resource
import struct
import time
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest

from tests.fixtures.leak_builders import make_docx, para
from veil_desktop.documents import ocr, open_document, pictures
from veil_desktop.documents.metafile_render import MetafileError, render_metafile

FONT = Path(__file__).resolve().parents[1] / "resources" / "fonts" / "NanumGothic.ttf"
Member = namedtuple("Member", "name data")
NULL_PEN, BLACK_BRUSH = 0x80000008, 0x80000004
RED, GREEN, BLUE = 0x000000FF, 0x0000FF00, 0x00FF0000          # COLORREF 0x00BBGGRR


# ------------------------------------------------------------------------------------------ EMF builders
def rec(typ: int, body: bytes = b"") -> bytes:
    body += bytes(-len(body) % 4)
    return struct.pack("<II", typ, 8 + len(body)) + body


def emf(records: list[bytes], w: int = 1000, h: int = 500) -> bytes:
    """An EMF whose frame is ``w``×``h`` reference-device pixels (1 pixel per millimetre)."""
    recs = records + [rec(14, struct.pack("<III", 0, 16, 20))]
    total = 108 + sum(len(r) for r in recs)
    hdr = (struct.pack("<II", 1, 108) + struct.pack("<4i", 0, 0, w - 1, h - 1)
           + struct.pack("<4i", 0, 0, w * 100 - 1, h * 100 - 1)
           + struct.pack("<IIIIHHIII", 0x464D4520, 0x10000, total, len(recs) + 1, 8, 0, 0, 0, 0)
           + struct.pack("<ii", w, h) + struct.pack("<ii", w, h) + struct.pack("<III", 0, 0, 0)
           + struct.pack("<ii", w * 1000, h * 1000))
    assert len(hdr) == 108
    return hdr + b"".join(recs)


def brush(ih: int, ref: int) -> bytes:
    return rec(39, struct.pack("<IIII", ih, 0, ref, 0))


def select(ih: int) -> bytes:
    return rec(37, struct.pack("<I", ih))


def rectangle(x0, y0, x1, y1) -> bytes:
    return rec(43, struct.pack("<4i", x0, y0, x1, y1))


def polypolygon16(polys) -> bytes:
    pts = [p for poly in polys for p in poly]
    body = struct.pack("<4i", 0, 0, 0, 0) + struct.pack("<II", len(polys), len(pts))
    body += b"".join(struct.pack("<I", len(p)) for p in polys)
    body += b"".join(struct.pack("<hh", x, y) for x, y in pts)
    return rec(91, body)


def polygon16(pts) -> bytes:
    return rec(86, struct.pack("<4i", 0, 0, 0, 0) + struct.pack("<I", len(pts))
               + b"".join(struct.pack("<hh", x, y) for x, y in pts))


def fill_mode(mode: int) -> bytes:
    return rec(19, struct.pack("<I", mode))


def red_no_pen() -> list[bytes]:
    return [brush(1, RED), select(1), select(NULL_PEN)]


def glyph_polys(lines: list[tuple[str, int, int, int]], w: int, h: int) -> list:
    """Rectangles (4-point polygons) covering every run of ink pixels of ``lines`` ((text, x, y, px))
    rendered by PIL: glyphs as vector shapes."""
    from PIL import Image, ImageDraw, ImageFont

    im = Image.new("L", (w, h), 255)
    d = ImageDraw.Draw(im)
    for text, x, y, px in lines:
        d.text((x, y), text, fill=0, font=ImageFont.truetype(str(FONT), px))
    a = np.asarray(im) < 128
    polys = []
    for y in range(h):
        row = np.r_[False, a[y], False]
        edges = np.flatnonzero(row[1:] != row[:-1])
        for x0, x1 in zip(edges[::2], edges[1::2]):
            polys.append([(int(x0), y), (int(x1), y), (int(x1), y + 1), (int(x0), y + 1)])
    return polys


def at(img, x: float, y: float, frame_width: int = 1000) -> tuple:
    """The pixel of a rendering of a ``frame_width``-unit-wide frame at device units ``x``, ``y``."""
    k = img.width / frame_width
    return tuple(img.getpixel((int(x * k), int(y * k))))


# -------------------------------------------------------------------------------------------- geometry
def test_rectangle_and_polygon_land_at_their_pixels():
    # frame 1000×500 device pixels → rendered 1600×800 (1.6 pixels per unit)
    r = render_metafile(emf(red_no_pen() + [rectangle(100, 100, 300, 300), brush(2, BLUE), select(2),
                                            polygon16([(600, 100), (900, 100), (900, 400)])]))
    assert r.inked and not r.unrendered and len(r.frames) == 1
    img = r.frames[0]
    assert img.size == (1600, 800)          # the long side at TARGET_LONG_SIDE
    assert at(img, 200, 200) == (255, 0, 0) and at(img, 102.5, 102.5) == (255, 0, 0) and at(img, 297.5, 297.5) == (255, 0, 0)
    assert at(img, 97.5, 200) == (255, 255, 255) and at(img, 302.5, 200) == (255, 255, 255)
    assert at(img, 875, 150) == (0, 0, 255)              # inside the triangle (x 600-900, above its diagonal)
    assert at(img, 650, 350) == (255, 255, 255)          # below the diagonal
    assert at(img, 50, 450) == (255, 255, 255)


def test_pen_strokes_a_polyline():
    pen = rec(38, struct.pack("<IIiiI", 3, 0, 10, 0, GREEN))           # CREATEPEN solid, 10 units wide
    line = rec(87, struct.pack("<4i", 0, 0, 0, 0) + struct.pack("<I", 2) + struct.pack("<hhhh", 100, 250, 900, 250))
    img = render_metafile(emf([pen, select(3), line])).frames[0]
    assert at(img, 500, 250) == (0, 255, 0) and at(img, 500, 247) == (0, 255, 0)
    assert at(img, 500, 235) == (255, 255, 255) and at(img, 75, 250) == (255, 255, 255)


def test_winding_and_alternate_fill_differ():
    outer = [(100, 100), (900, 100), (900, 400), (100, 400)]
    inner = [(300, 200), (700, 200), (700, 300), (300, 300)]          # same direction: winding 2 inside
    alt = render_metafile(emf(red_no_pen() + [fill_mode(1), polypolygon16([outer, inner])])).frames[0]
    win = render_metafile(emf(red_no_pen() + [fill_mode(2), polypolygon16([outer, inner])])).frames[0]
    assert at(alt, 500, 250) == (255, 255, 255) and at(win, 500, 250) == (255, 0, 0)
    assert at(alt, 150, 150) == (255, 0, 0) and at(win, 150, 150) == (255, 0, 0)


def test_world_transform_scales_and_moves():
    xf = rec(35, struct.pack("<6f", 2.0, 0.0, 0.0, 2.0, 0.0, 0.0))
    img = render_metafile(emf(red_no_pen() + [xf, rectangle(50, 50, 150, 150)])).frames[0]
    # logical 50-150 → device 100-300
    assert at(img, 105, 105) == (255, 0, 0) and at(img, 295, 295) == (255, 0, 0)
    assert at(img, 95, 200) == (255, 255, 255) and at(img, 305, 200) == (255, 255, 255)
    move = rec(36, struct.pack("<6fI", 1.0, 0.0, 0.0, 1.0, 200.0, 0.0, 2))   # left-multiply: translate first
    img = render_metafile(emf(red_no_pen() + [xf, move, rectangle(50, 50, 150, 150)])).frames[0]
    # (x + 200) * 2: device 500-700 across
    assert at(img, 600, 200) == (255, 0, 0) and at(img, 200, 200) == (255, 255, 255)


def test_window_viewport_mapping_and_clip_rectangle():
    recs = [rec(17, struct.pack("<I", 8)), rec(9, struct.pack("<ii", 100, 50)),      # ANISOTROPIC, window 100×50
            rec(11, struct.pack("<ii", 1000, 500))] + red_no_pen()                 # viewport 1000×500
    img = render_metafile(emf(recs + [rectangle(10, 10, 30, 30)])).frames[0]
    assert at(img, 200, 200) == (255, 0, 0) and at(img, 325, 200) == (255, 255, 255)
    clip = rec(30, struct.pack("<4i", 0, 0, 20, 50))                                # INTERSECTCLIPRECT
    img = render_metafile(emf(recs + [clip, rectangle(10, 10, 30, 30)])).frames[0]
    assert at(img, 150, 200) == (255, 0, 0) and at(img, 250, 200) == (255, 255, 255)


def test_path_filled_and_save_restore():
    recs = red_no_pen() + [rec(33), rec(59), rec(27, struct.pack("<ii", 100, 100)),
                           rec(54, struct.pack("<ii", 400, 100)), rec(54, struct.pack("<ii", 400, 400)),
                           rec(61), rec(60), rec(62, struct.pack("<4i", 0, 0, 0, 0)), rec(34, struct.pack("<i", -1))]
    img = render_metafile(emf(recs)).frames[0]
    assert at(img, 350, 150) == (255, 0, 0) and at(img, 150, 350) == (255, 255, 255)


def test_pie_and_arc_direction():
    pie = rec(47, struct.pack("<4i4i", 100, 100, 300, 300, 300, 200, 200, 100))   # 0° to 90°, counter-clockwise
    img = render_metafile(emf(red_no_pen() + [pie])).frames[0]
    assert at(img, 250, 150) == (255, 0, 0)                                       # the upper-right quarter
    assert at(img, 150, 250) == (255, 255, 255) and at(img, 250, 250) == (255, 255, 255)
    cw = rec(57, struct.pack("<I", 2))                                            # AD_CLOCKWISE: the other 270°
    img = render_metafile(emf(red_no_pen() + [cw, pie])).frames[0]
    assert at(img, 250, 150) == (255, 255, 255) and at(img, 150, 250) == (255, 0, 0)


def _dib(colours: list[list[tuple]]) -> tuple[bytes, bytes]:
    """BITMAPINFOHEADER + 24-bit bottom-up bits of ``colours`` (rows top to bottom, RGB)."""
    h, w = len(colours), len(colours[0])
    stride = (w * 3 + 3) & ~3
    bits = b""
    for row in reversed(colours):
        line = b"".join(bytes((b, g, r)) for r, g, b in row)
        bits += line + bytes(stride - len(line))
    bmi = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, len(bits), 0, 0, 0, 0)
    return bmi, bits


def test_stretchdibits_bitmap_is_placed():
    bmi, bits = _dib([[(255, 0, 0), (0, 0, 255)], [(0, 255, 0), (0, 0, 0)]])
    off = 80
    body = (struct.pack("<4i", 0, 0, 0, 0) + struct.pack("<6i", 100, 100, 0, 0, 2, 2)
            + struct.pack("<6I", off, len(bmi), off + len(bmi), len(bits), 0, 0x00CC0020) + struct.pack("<ii", 400, 200))
    r = render_metafile(emf([rec(81, body + bmi + bits)]))
    img = r.frames[0]
    # device 100-500 × 100-300, four cells
    near = lambda a, b: max(abs(u - v) for u, v in zip(a, b)) <= 3         # noqa: E731 - bilinear scaling
    assert near(at(img, 150, 150), (255, 0, 0)) and near(at(img, 450, 150), (0, 0, 255))
    assert near(at(img, 150, 250), (0, 255, 0)) and near(at(img, 450, 250), (0, 0, 0))
    assert at(img, 550, 150) == (255, 255, 255)


# ------------------------------------------------------------------------------------------------ WMF
def wrec(func: int, params: bytes = b"") -> bytes:
    params += bytes(len(params) % 2)
    return struct.pack("<IH", 3 + len(params) // 2, func) + params


def wmf(records: list[bytes], bbox: tuple | None = None) -> bytes:
    body = b"".join(records) + struct.pack("<IH", 3, 0)
    header = struct.pack("<HHHIHIH", 1, 9, 0x0300, 9 + len(body) // 2, 4, 64, 0)
    if bbox is None:
        return header + body
    words = struct.unpack("<10H", struct.pack("<IHhhhhHI", 0x9AC6CDD7, 0, *bbox, 96, 0))
    chk = 0
    for x in words:
        chk ^= x
    return struct.pack("<IHhhhhHIH", 0x9AC6CDD7, 0, *bbox, 96, 0, chk) + header + body


def wmf_red_rect(window: bool) -> list[bytes]:
    recs = [wrec(0x020B, struct.pack("<hh", 0, 0)), wrec(0x020C, struct.pack("<hh", 500, 1000))] if window else []
    return recs + [wrec(0x02FC, struct.pack("<HIH", 0, RED, 0)), wrec(0x02FA, struct.pack("<HhhI", 5, 0, 0, 0)),
                   wrec(0x012D, struct.pack("<H", 0)), wrec(0x012D, struct.pack("<H", 1)),
                   wrec(0x041B, struct.pack("<4h", 300, 300, 100, 100))]         # bottom, right, top, left


@pytest.mark.parametrize("placeable", [True, False])
def test_wmf_rectangle_lands_at_its_pixels(placeable):
    data = wmf(wmf_red_rect(window=not placeable), (0, 0, 1000, 500) if placeable else None)
    assert pictures.sniff(data) == "wmf"
    r = render_metafile(data)
    img = r.frames[0]
    assert img.size == (1600, 800)          # the long side at TARGET_LONG_SIDE
    assert at(img, 200, 200) == (255, 0, 0) and at(img, 95, 200) == (255, 255, 255)
    assert at(img, 305, 200) == (255, 255, 255)


def test_wmf_object_table_reuses_freed_slots():
    recs = wmf_red_rect(window=True) + [wrec(0x01F0, struct.pack("<H", 0)),                 # brush 0 freed
                                        wrec(0x02FC, struct.pack("<HIH", 0, BLUE, 0)),       # takes slot 0
                                        wrec(0x012D, struct.pack("<H", 0)),
                                        wrec(0x041B, struct.pack("<4h", 300, 900, 100, 700))]
    img = render_metafile(wmf(recs)).frames[0]
    assert at(img, 200, 200) == (255, 0, 0) and at(img, 800, 200) == (0, 0, 255)


# ------------------------------------------------------------------------------------- default deny
def test_undrawn_ink_record_holds():
    flood = rec(53, struct.pack("<iiII", 150, 150, 0, 1))                       # EMR_EXTFLOODFILL: not drawn here
    data = emf(red_no_pen() + [rectangle(100, 100, 300, 300), flood])
    r = render_metafile(data)
    assert r.unrendered == {"EXTFLOODFILL": 1} and not r.frames
    rv = pictures.review_pictures([Member("word/media/image1.emf", data)])
    assert rv.verdicts == {"picture 1": "undrawn"}
    assert "cannot render" in rv.unreadable[0].caption_en and "그리지 못하는" in rv.unreadable[0].caption


def test_text_record_still_holds_as_text():
    text = rec(84, bytes(68))                                                      # EMR_EXTTEXTOUTW
    rv = pictures.review_pictures([Member("word/media/image1.emf", emf([text]))])
    assert rv.verdicts == {"picture 1": "text"}


def test_a_metafile_drawing_nothing_is_clean_without_ocr():
    rv = pictures.review_pictures([Member("word/media/image1.emf", emf([fill_mode(2)]))])
    assert rv.verdicts == {"picture 1": "clean"} and not rv.unreadable


def test_hostile_records_fail_closed_quickly():
    start = time.monotonic()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    good = emf(red_no_pen() + [rectangle(100, 100, 300, 300)])
    size0 = good[:108] + struct.pack("<II", 43, 0) + good[116:]
    past_end = good[:108] + struct.pack("<II", 43, 10_000) + good[116:]
    many = rec(86, struct.pack("<4i", 0, 0, 0, 0) + struct.pack("<I", 0x7FFFFFFF) + struct.pack("<hh", 1, 1))
    counts = rec(91, struct.pack("<4i", 0, 0, 0, 0) + struct.pack("<II", 0x3FFFFFFF, 3) + struct.pack("<I", 3))
    zigzag = polygon16([(10 + i % 900, 0 if i % 2 else 499) for i in range(16_000)])
    bad_bitmap = rec(81, bytes(16) + struct.pack("<6i6I2i", 100, 100, 0, 0, 2, 2, 80, 40, 120, 16, 0, 0xCC0020,
                                                   400, 200)
                     + struct.pack("<IiiHHIIiiII", 40, 100_000, 100_000, 1, 24, 0, 0, 0, 0, 0, 0) + bytes(16))
    hostile = {"size 0": size0, "size past the end": past_end, "huge point count": emf([many]),
               "huge polygon count": emf([counts]), "crossings": emf(red_no_pen() + [zigzag] * 12),
               "truncated": good[:-30], "bad bitmap": emf([bad_bitmap]),
               "bitmap past its record": emf([rec(81, bytes(16) + struct.pack("<6i6I2i", 0, 0, 0, 0, 2, 2, 80,
                                                                               40, 120, 10**6, 0, 0xCC0020, 9, 9))])}
    for what, data in hostile.items():
        with pytest.raises(MetafileError):
            render_metafile(data)
        rv = pictures.review_pictures([Member("word/media/image1.emf", data)])
        assert rv.verdicts["picture 1"] == "undecodable", what
        assert [u.where for u in rv.unreadable] == ["picture 1"], what
    wbad = wmf(wmf_red_rect(True) + [wrec(0x0324, struct.pack("<H", 30_000))])      # META_POLYGON past its end
    with pytest.raises(MetafileError):
        render_metafile(wbad)
    # huge extents: a frame of 2^31 units and a world transform of 1e30 are drawn at a capped size
    huge = bytearray(emf(red_no_pen() + [rectangle(100, 100, 300, 300)]))
    struct.pack_into("<4i", huge, 24, 0, 0, 2**31 - 1, 2**31 - 1)
    struct.pack_into("<4i", huge, 8, 0, 0, 2**31 - 1, 2**31 - 1)
    r = render_metafile(bytes(huge))
    assert all(im.width * im.height <= 12_000_000 for im in r.frames) and len(r.frames) == 2
    big = emf(red_no_pen() + [rec(35, struct.pack("<6f", 1e30, 0, 0, 1e30, 0, 0)), rectangle(0, 0, 2**30, 2**30)])
    r = render_metafile(big)
    assert all(im.width <= 8000 and im.height <= 8000 for im in r.frames)
    assert time.monotonic() - start < 60
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss < 1_500_000     # KiB: no blow-up


# ---------------------------------------------------------------------------------- glyphs as outlines
def outline_emf(lines, w, h, extra=()) -> bytes:
    return emf([select(BLACK_BRUSH), select(NULL_PEN), fill_mode(1),
                polypolygon16(glyph_polys(lines, w, h) + list(extra))], w, h)


def docx_with(tmp_path, data: bytes, name: str):
    pic = ('<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:400pt;'
           'height:150pt"><v:imagedata r:id="rIdE"/></v:shape></w:pict></w:r></w:p>')
    return make_docx(tmp_path / name, para("안내") + pic, doc_rels=[("rIdE", "image", "media/image1.emf")],
                     parts={"word/media/image1.emf": data})


def test_outlines_of_a_name_and_rrn_are_held(tmp_path):
    data = outline_emf([("신청인 김서윤", 40, 40, 64), ("주민등록번호 930415-2874619", 40, 160, 64)], 1200, 260)
    assert pictures.metafile_text(data) is False and pictures.metafile_outlines(data)
    img = render_metafile(data).frames[0]
    assert np.asarray(img.convert("L")).min() == 0                  # the glyphs are drawn
    doc = open_document(docx_with(tmp_path, data, "pii.docx"))
    assert [u.where for u in doc.unreadable] == ["picture 1"], doc.unreadable
    if ocr.available():
        assert "personal data" in doc.unreadable[0].caption_en and "개인정보" in doc.unreadable[0].caption
    else:
        assert "outlines" in doc.unreadable[0].caption_en


@pytest.mark.skipif(not ocr.available(), reason="Tesseract (tesserocr) is needed")
def test_outline_chart_title_without_personal_data_is_clean(tmp_path):
    bars = [[(150 + i * 220, 460), (330 + i * 220, 460), (330 + i * 220, 460 - v), (150 + i * 220, 460 - v)]
            for i, v in enumerate((200, 280, 240))]
    data = outline_emf([("월별 방문객", 150, 30, 56)], 1100, 500, bars)
    rv = pictures.review_pictures([Member("word/media/image1.emf", data)])
    assert rv.verdicts == {"picture 1": "clean"}, rv.unreadable
    doc = open_document(docx_with(tmp_path, data, "chart.docx"))
    assert not doc.unreadable, doc.unreadable


def test_without_ocr_an_outline_metafile_is_held(monkeypatch):
    monkeypatch.setattr(ocr, "available", lambda: False)
    data = outline_emf([("월별 방문객", 150, 30, 56)], 1100, 200)
    rv = pictures.review_pictures([Member("word/media/image1.emf", data)])
    assert rv.verdicts == {"picture 1": "outlines"}


def wmf_with_dib(text: str, im=None) -> bytes:
    """A WMF (no placeable header) whose only ink is a META_DIBSTRETCHBLT of ``text`` rendered by PIL
    (or of the 1000×120 RGB picture ``im``), drawn 1:1 at (50, 200) on a 1600×480 frame."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    if im is None:
        im = Image.new("RGB", (1000, 120), "white")
        ImageDraw.Draw(im).text((30, 30), text, fill=(0, 0, 0), font=ImageFont.truetype(str(FONT), 44))
    buf = io.BytesIO()
    im.save(buf, "BMP")
    dib = buf.getvalue()[14:]
    w, h = im.size
    blit = wrec(0x0B41, struct.pack("<Ihhhhhhhh", 0x00CC0020, h, w, 0, 0, h, w, 200, 50) + dib)
    return wmf([wrec(0x020B, struct.pack("<hh", 0, 0)), wrec(0x020C, struct.pack("<hh", 480, 1600)), blit])


def test_wmf_bitmap_with_an_email_is_held():
    data = wmf_with_dib("회신 seoyun.kim88@example.org")
    assert pictures.metafile_text(data) is False and not pictures.metafile_outlines(data)   # was "clean"
    img = render_metafile(data).frames[0]
    assert img.size == (1600, 480) and np.asarray(img.convert("L"))[200:320, 50:1050].min() < 60
    rv = pictures.review_pictures([Member("BinData/image1.wmf", data)])
    assert rv.verdicts == {"picture 1": "vector" if ocr.available() else "unchecked"}


@pytest.mark.skipif(not ocr.available(), reason="Tesseract (tesserocr) is needed")
def test_wmf_bitmap_without_personal_data_is_clean():
    rv = pictures.review_pictures([Member("BinData/image1.wmf", wmf_with_dib("청사 출입 안내"))])
    assert rv.verdicts == {"picture 1": "clean"}, rv.unreadable


def hidden_under_checks():
    """A name and phone in grey 100 on a checkerboard of 110 and 255 (3-pixel squares): OCR of the pixels
    as stored reads nothing; a:biLevel thresh=41000 (luminance below 104.5 black) shows the text alone."""
    from PIL import Image, ImageDraw, ImageFont

    im = Image.new("L", (1000, 120), 255)
    ImageDraw.Draw(im).text((30, 30), "성명 홍길동 010-2345-6789", fill=0, font=ImageFont.truetype(str(FONT), 40))
    ink = np.asarray(im) < 128
    yy, xx = np.mgrid[0:120, 0:1000]
    bg = np.where((yy // 3 + xx // 3) % 2 == 0, 110, 255)
    return Image.fromarray(np.where(ink, 100, bg).astype(np.uint8)).convert("RGB")


@pytest.mark.skipif(not ocr.available(), reason="Tesseract (tesserocr) is needed")
def test_a_metafile_is_read_through_the_display_effects_too():
    # the metafile path is judged by the same helper as raster pictures (pictures.judge_shown_frame):
    # a rendered metafile under a:biLevel is read as Word shows it, not only as drawn
    data = wmf_with_dib("", hidden_under_checks())
    m = Member("word/media/image1.wmf", data)
    assert pictures.review_pictures([m]).verdicts == {"picture 1": "clean"}        # as drawn: nothing read
    shown = pictures.review_pictures([m], effects={m.name: [(("biLevel", {"thresh": "41000"}),)]})
    assert shown.verdicts == {"picture 1": "vector"}, shown.unreadable               # the name and phone
    assert [u.where for u in shown.unreadable] == ["picture 1"]


def test_mutated_metafiles_fail_closed():
    """Bytes, sizes and counts of valid EMF/WMF files overwritten at random: every one renders or raises
    MetafileError (no other exception), each within seconds."""
    import random

    seeds = [emf(red_no_pen() + [rectangle(100, 100, 300, 300), polygon16([(600, 100), (900, 100), (900, 400)]),
                                 rec(47, struct.pack("<4i4i", 100, 100, 300, 300, 300, 200, 200, 100))]),
             outline_emf([("월별", 20, 10, 40)], 200, 80), wmf(wmf_red_rect(True)), wmf_with_dib("회신")]
    rng = random.Random(26)
    for _ in range(300):
        d = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 6)):
            k = rng.randrange(len(d) - 4)
            if rng.random() < 0.5:
                d[k] = rng.randrange(256)
            else:
                struct.pack_into("<I", d, k, rng.choice([0, 1, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF, rng.randrange(1 << 32)]))
        start = time.monotonic()
        try:
            render_metafile(bytes(d))
        except MetafileError:
            pass
        assert time.monotonic() - start < 10
