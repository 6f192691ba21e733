"""PDF glyphs drawn out of reading order (red team 8, 3b): the content stream draws a line's glyphs one by
one, each placed on its own, in a shuffled or reversed order, so the page reads in order while pdfium's text
layer reads scrambled. The reader reads such lines in the order the page shows them (``documents/pdf_order``),
detection sees the values and the masks land on their glyphs; ordinary pages (two columns, a kerned ``TJ``
line, glyphs drawn in order) read exactly as before. PDFs built here with fpdf2 and ``raw_pdf``."""
from __future__ import annotations

import io
import random
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF

from tests.fixtures.raw_pdf import raw_pdf
from tests.test_documents_pdf import REPO_FONT, spans_for
from tests.test_hostile_pdf import dark, page_image
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.documents import export_document, open_document
from veil_desktop.documents import ocr
from veil_desktop.masking import Masker

NAME, PHONE, ADDR = "탁지안", "010-3861-2947", "충청북도 청주시 상당구 상당로 155"
LINES = [("주소: ", ADDR), ("연락처: ", PHONE), ("성명: ", NAME)]
PT = 72 / 25.4
SIZE = 16


def glyph_pdf(path: Path, order: str, lines=LINES, seed: int = 88) -> tuple[Path, dict]:
    """The ``lines`` (label, value) drawn glyph by glyph with ``FPDF.text`` (each glyph its own ``Td``),
    in ``order``: "shuffled" (all glyphs of the page), "reversed" (each line right to left), "interleaved"
    (a glyph of each line in turn, each line left to right), "reversed_interleaved" or "plain".
    Returns the file and, per glyph drawn, ``(char, is_value, core box in points from the top left)``."""
    pdf = FPDF()
    pdf.add_font("K", "", str(REPO_FONT))
    pdf.add_page()
    pdf.set_font("K", size=SIZE)
    pdf.text(20, 20, "민원 접수증")
    glyphs = []
    for n, (label, value) in enumerate(lines):
        y = 40 + 14 * n
        x = 20.0
        line = []
        for pos, ch in enumerate(label + value):
            w = pdf.get_string_width(ch)
            if ch != " ":
                line.append((x, y, ch, pos >= len(label), w))
            x += w
        glyphs.append(line[::-1] if order.startswith("reversed") else line)
    flat = [g for line in glyphs for g in line]
    if order == "shuffled":
        random.Random(seed).shuffle(flat)
    elif order.endswith("interleaved"):      # a glyph of each line in turn
        flat = [line[i] for i in range(max(map(len, glyphs))) for line in glyphs if i < len(line)]
    boxes = []
    for x, y, ch, is_value, w in flat:
        pdf.text(x, y, ch)
        # the glyph's core (inside any glyph's ink box: a fifth in from the sides, the middle of the x-height)
        boxes.append((ch, is_value, (int((x + 0.2 * w) * PT) + 1, int(y * PT - 0.55 * SIZE),
                                     int((x + 0.8 * w) * PT), int(y * PT - 0.15 * SIZE))))
    pdf.output(str(path))
    return path, boxes


def pdfium_text(path: Path) -> str:
    doc = pdfium.PdfDocument(str(path))
    try:
        return "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def squash(s: str) -> str:
    return "".join(s.split())


def stream_order_text(path: Path, monkeypatch) -> str:
    """The reader's text with the visual-order step switched off (pdfium's order, as before it)."""
    from veil_desktop.documents import pdf_order

    with monkeypatch.context() as m:
        m.setattr(pdf_order, "visual_order", lambda chars, idx, gen, glyphs: pdf_order.Reordered(
            chars, idx, gen, 0, 0))
        return open_document(path).text


def _redact(src: Path, out: Path, values: dict[str, str]):
    doc = open_document(src)
    export_document(doc, Masker().plan(doc.text, spans_for(doc.text, values)), out)
    return doc


@pytest.mark.parametrize("order", ["shuffled", "interleaved", "reversed_interleaved", "reversed"])
def test_glyphs_drawn_out_of_order_are_read_as_shown_and_masked(tmp_path, order):
    src, boxes = glyph_pdf(tmp_path / f"{order}.pdf", order)
    raw = squash(pdfium_text(src))
    # the attack is real: pdfium's order hides every value (a line drawn right to left pdfium reads itself)
    assert (NAME in raw, PHONE in raw, squash(ADDR) in raw) == ((True,) * 3 if order == "reversed" else (False,) * 3)
    doc = open_document(src)
    assert doc.extra["pdf_ocr"] == {} and doc.unreadable == ()       # read from its text layer, not held
    for label, value in LINES:
        assert (label + value).strip() in doc.text                    # as the page shows it
    assert any("order the page shows" in n for n in doc.notes) == (order != "reversed")
    assert {"PHONE", "ADDRESS"} <= {s.label for s in RuleDetector().detect(doc.text)}

    out = tmp_path / f"{order}.out.pdf"
    _redact(src, out, {NAME: "PERSON", PHONE: "PHONE", ADDR: "ADDRESS"})
    assert squash(pdfium_text(out)) == ""                             # no text layer in the output
    before, after = page_image(src, scale=2), page_image(out, scale=2)
    for ch, is_value, box in boxes:
        box = tuple(2 * v for v in box)
        if is_value:
            assert dark(after, box) > 0.95, (ch, box)                 # every glyph of a value is burned
        else:
            assert dark(before, box) < 0.6 and dark(after, box) < 0.6, (ch, box)   # the labels are not
    if ocr.available():
        seen = squash(ocr.ocr_image(page_image(out, scale=300 / 72).convert("RGB")).text)
        assert "접수증" in seen and "연락처" in seen                  # OCR reads the page ...
        for value in ("3861", "2947", "155", "상당로", NAME):
            assert value not in seen                                   # ... but none of the values


def test_ordinary_glyph_by_glyph_line_is_not_reordered(tmp_path, monkeypatch):
    """Glyphs drawn one by one but in page order (each its own ``Td``): pdfium's reading, untouched."""
    src, _ = glyph_pdf(tmp_path / "plain.pdf", "plain")
    doc = open_document(src)
    assert not any("order the page shows" in n for n in doc.notes)
    assert doc.text == stream_order_text(src, monkeypatch)
    for label, value in LINES:
        assert (label + value).strip() in doc.text


COLUMNS = (["왼쪽 단 첫째 줄 담당 홍길동", "왼쪽 단 둘째 줄 서울특별시 종로구", "세종대로 175 정부청사"],
           ["오른쪽 단 첫째 줄 연락처", "010-2222-3333 으로 문의", "오른쪽 단 끝"])


def two_column_pdf(path: Path, gap_mm: float) -> Path:
    """Two columns ``gap_mm`` apart, each drawn top to bottom, the left one first (as a layout program
    writes them): pdfium reads the left column, then the right one."""
    pdf = FPDF()
    pdf.add_font("K", "", str(REPO_FONT))
    pdf.add_page()
    pdf.set_font("K", size=11)
    left_w = max(pdf.get_string_width(t) for t in COLUMNS[0])
    for col, x in ((COLUMNS[0], 15), (COLUMNS[1], 15 + left_w + gap_mm)):
        for n, t in enumerate(col):
            pdf.text(x, 30 + 7 * n, t)
    pdf.output(str(path))
    return path


@pytest.mark.parametrize("gap_mm", [4.0, 12.0])
def test_two_column_page_reads_column_by_column_as_before(tmp_path, gap_mm, monkeypatch):
    src = two_column_pdf(tmp_path / "cols.pdf", gap_mm)
    doc = open_document(src)
    body = doc.text.split("──\n", 1)[1]
    assert body == "\n".join(COLUMNS[0] + COLUMNS[1]) + "\n"          # column by column, line by line
    assert not any("order the page shows" in n for n in doc.notes)
    assert doc.text == stream_order_text(src, monkeypatch)


def _cid_font(text: str) -> tuple[list[bytes], dict[str, int]]:
    """NanumGothic subset to ``text`` as a Type0 / CIDFontType2 font (Identity-H, /CIDToGIDMap /Identity,
    ToUnicode): objects 4.. (Type0, CIDFont, descriptor, FontFile2, ToUnicode) and the glyph id of each
    character."""
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools").setLevel(logging.ERROR)
    f = TTFont(str(REPO_FONT))
    sub = subset.Subsetter(subset.Options())
    sub.populate(text=text)
    sub.subset(f)
    order, cmap = f.getGlyphOrder(), f.getBestCmap()
    gid = {ch: order.index(cmap[ord(ch)]) for ch in set(text)}
    buf = io.BytesIO()
    f.save(buf)
    ff = buf.getvalue()
    upm = f["head"].unitsPerEm
    widths = " ".join(f"{g} [{int(f['hmtx'][order[g]][0] * 1000 / upm)}]" for g in sorted(gid.values()))
    pairs = "".join(f"<{g:04X}> <{ord(c):04X}>\n" for c, g in sorted(gid.items(), key=lambda t: t[1]))
    cm = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) "
          "/Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def 1 "
          "begincodespacerange <0000> <FFFF> endcodespacerange "
          f"{len(gid)} beginbfchar\n{pairs}endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")
    comp = zlib.compress(ff)
    return [b"<< /Type /Font /Subtype /Type0 /BaseFont /VEILKO+NanumGothic /Encoding /Identity-H "
            b"/DescendantFonts [5 0 R] /ToUnicode 8 0 R >>",
            (f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /VEILKO+NanumGothic /CIDSystemInfo << /Registry "
             f"(Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 6 0 R /CIDToGIDMap /Identity "
             f"/DW 1000 /W [{widths}] >>").encode(),
            b"<< /Type /FontDescriptor /FontName /VEILKO+NanumGothic /Flags 4 /FontBBox [-100 -250 1100 950] "
            b"/ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>",
            b"<< /Length %d /Length1 %d /Filter /FlateDecode >>\nstream\n" % (len(comp), len(ff)) + comp
            + b"\nendstream",
            b"<< /Length %d >>\nstream\n" % len(cm) + cm.encode() + b"\nendstream"], gid


def kerned_pdf(path: Path, lines: list[str], kern: int) -> Path:
    """Each line one ``TJ`` array, every glyph followed by a kerning number (``kern`` thousandths of an em,
    alternating sign and size as a typesetter's pair kerning and tracking do)."""
    font, gid = _cid_font("".join(lines))
    content = b"BT /F1 14 Tf 60 760 Td 22 TL\n"
    for line in lines:
        parts = []
        for n, ch in enumerate(line):
            parts.append(b"<%04X>" % gid[ch])
            parts.append(b"%d" % (kern if n % 3 else -kern // 2))
        content += b"[" + b" ".join(parts) + b"] TJ T*\n"
    content += b"ET"
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> "
            b"/Contents 9 0 R >>", *font,
            b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"]
    path.write_bytes(raw_pdf(objs))
    return path


@pytest.mark.parametrize("kern", [60, -60, 120])
def test_kerned_tj_line_reads_as_before(tmp_path, kern, monkeypatch):
    lines = ["담당자 홍길동 연락처 010-2222-3333", "주소 서울특별시 종로구 세종대로 175"]
    src = kerned_pdf(tmp_path / "kern.pdf", lines, kern)
    doc = open_document(src)
    assert not any("order the page shows" in n for n in doc.notes)
    assert doc.text == stream_order_text(src, monkeypatch)            # pdfium's reading, untouched
    body = doc.text.split("──\n", 1)[1]
    assert [squash(t) for t in body.splitlines()] == [squash(t) for t in lines]
    assert {"PHONE"} <= {s.label for s in RuleDetector().detect(doc.text)}


def turned_pdf(path: Path, angle: float, shuffled: bool, seed: int = 5) -> tuple[Path, list]:
    """The ``LINES`` drawn glyph by glyph, each glyph turned ``angle`` degrees counter-clockwise about its
    own origin (``FPDF.rotation``: the line's baseline runs at that angle; 90 reads bottom to top, 270 top
    to bottom, 180 upside down), lines 14 mm apart across the baseline, in a shuffled stream order or in
    page order. Returns the file and per glyph drawn ``(char, is_value, core box in points from the top
    left)``: a small square about the middle of the glyph's body, inside its ink wherever it is turned."""
    import math

    pdf = FPDF()
    pdf.add_font("K", "", str(REPO_FONT))
    pdf.add_page()
    pdf.set_font("K", size=SIZE)
    pdf.text(20, 20, "민원 접수증")
    th = math.radians(angle)
    along, up = (math.cos(th), -math.sin(th)), (-math.sin(th), -math.cos(th))   # page y grows downwards
    em = SIZE / PT                                                                # the font size in mm
    drawn = []
    for n, (label, value) in enumerate(LINES):
        x0, y0 = 105 - 14 * n * up[0], 150 - 14 * n * up[1]   # each line 14 mm further down its glyphs
        d = 0.0
        for pos, ch in enumerate(label + value):
            w = pdf.get_string_width(ch)
            if ch != " ":
                x, y = x0 + d * along[0], y0 + d * along[1]
                cx, cy = x + 0.5 * w * along[0] + 0.35 * em * up[0], y + 0.5 * w * along[1] + 0.35 * em * up[1]
                r = max(0.12 * min(w, em), 0.3)
                box = (math.floor((cx - r) * PT), math.floor((cy - r) * PT),
                       math.ceil((cx + r) * PT), math.ceil((cy + r) * PT))
                drawn.append((x, y, ch, pos >= len(label), box))
            d += w
    if shuffled:
        random.Random(seed).shuffle(drawn)
    for x, y, ch, _v, _b in drawn:
        with pdf.rotation(angle, x, y):
            pdf.text(x, y, ch)
    pdf.output(str(path))
    return path, [(ch, v, box) for _x, _y, ch, v, box in drawn]


@pytest.mark.parametrize("angle", [90, 180, 270])
def test_turned_lines_drawn_out_of_order_are_read_as_shown_and_masked(tmp_path, angle):
    """Lines turned a quarter turn (a form's sideways column, an upside-down footer) drawn glyph by glyph in
    a shuffled order: before this, pdfium's order hid every value and the file was published unmasked
    (3 of 3 attack files, measured before the fix). Read in the glyphs' own reading frame."""
    src, drawn = turned_pdf(tmp_path / f"turned{angle}.pdf", angle, shuffled=True)
    raw = squash(pdfium_text(src))
    assert NAME not in raw and PHONE not in raw and squash(ADDR) not in raw      # the attack is real
    doc = open_document(src)
    assert doc.extra["pdf_ocr"] == {} and doc.unreadable == ()
    for label, value in LINES:
        assert (label + value).strip() in doc.text                    # as the page shows it
    assert any("order the page shows" in n for n in doc.notes)

    out = tmp_path / f"turned{angle}.out.pdf"
    _redact(src, out, {NAME: "PERSON", PHONE: "PHONE", ADDR: "ADDRESS"})
    before, after = page_image(src, scale=2), page_image(out, scale=2)
    for ch, is_value, box in drawn:
        box = tuple(2 * v for v in box)
        if is_value:
            assert dark(after, box) > 0.95, (ch, box)                 # every glyph of a value is burned
        else:
            assert dark(after, box) < 0.6, (ch, box)                  # the labels are not
    # the boxes are where the glyphs are: around each, within a third of the font size, there is ink
    near = [(2 * b[0] - 10, 2 * b[1] - 10, 2 * b[2] + 10, 2 * b[3] + 10) for _c, _v, b in drawn]
    assert all(dark(before, box) > 0.02 for box in near)


@pytest.mark.parametrize("angle", [90, 270])
def test_turned_lines_drawn_in_order_read_as_before(tmp_path, angle, monkeypatch):
    src, _ = turned_pdf(tmp_path / f"plain{angle}.pdf", angle, shuffled=False)
    doc = open_document(src)
    assert not any("order the page shows" in n for n in doc.notes)
    assert doc.text == stream_order_text(src, monkeypatch)
    assert doc.extra["pdf_ocr"] == {} and doc.unreadable == ()


@pytest.mark.parametrize("angle", [30, 315])
def test_tilted_lines_drawn_out_of_order_are_read_by_ocr_or_held(tmp_path, angle):
    """Glyphs at an angle that is not a quarter turn, drawn shuffled: their bounds cannot be re-read as a
    line here, so the page is read as a scan (OCR), or held where OCR cannot read it — never published
    from the scrambled text layer."""
    src, _ = turned_pdf(tmp_path / f"tilted{angle}.pdf", angle, shuffled=True)
    raw = squash(pdfium_text(src))
    assert PHONE not in raw and NAME not in raw
    doc = open_document(src)
    if ocr.available():
        assert 0 in doc.extra["pdf_ocr"]                               # the page was OCR'd ...
        assert doc.unreadable or (PHONE in doc.text and NAME in squash(doc.text))   # ... and read, or held
    else:
        assert [u.reason for u in doc.unreadable] == ["tilted_text"]
    plain, _ = turned_pdf(tmp_path / f"tilted{angle}p.pdf", angle, shuffled=False)
    doc = open_document(plain)                                         # in order: its text layer, untouched
    assert doc.extra["pdf_ocr"] == {} and doc.unreadable == ()
    assert PHONE in doc.text and NAME in doc.text


def test_quarter_turns_and_reading_frames():
    from veil_desktop.documents import pdf_order

    assert [pdf_order.quarter_turns(a, b) for a, b in ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 0.05),
                                                      (0.7, 0.7), (0, 0))] == [0, 1, 2, 3, 0, None, None]
    box = (10.0, 20.0, 14.0, 36.0)        # a glyph 4 wide, 16 high on the page
    assert pdf_order.reading_box(box, 0) == box
    assert pdf_order.reading_box(box, 1) == (20.0, -14.0, 36.0, -10.0)      # read upwards: along y
    assert pdf_order.reading_box(box, 2) == (-14.0, -36.0, -10.0, -20.0)
    assert pdf_order.reading_box(box, 3) == (-36.0, 10.0, -20.0, 14.0)      # read downwards: along -y
    # tilted glyphs along one 30° baseline: in order, then one drawn behind its predecessor
    import math

    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    line = [(p, 30.0, (100 + 12 * p * c, 100 + 12 * p * s), 12.0) for p in range(5)]
    assert not pdf_order.tilted_out_of_order(line)
    swapped = [(p, a, line[[0, 1, 3, 2, 4][p]][2], z) for p, a, _xy, z in line]
    assert pdf_order.tilted_out_of_order(swapped)
    # two lines in order, the second drawn first: each line in order on its own
    other = [(p + 5, 30.0, (x - 30 * s, y + 30 * c), z) for p, _a, (x, y), z in line]
    assert not pdf_order.tilted_out_of_order(other + line)


def vertical_pdf(path: Path, shuffled: bool, seed: int = 2) -> tuple[Path, list]:
    """The ``LINES`` written vertically (세로쓰기): upright glyphs set one under the other, each line a
    column, columns right to left 12 mm apart, drawn column by column top to bottom or shuffled. Returns
    the file and per glyph ``(char, is_value, core box in points from the top left)``."""
    pdf = FPDF()
    pdf.add_font("K", "", str(REPO_FONT))
    pdf.add_page()
    pdf.set_font("K", size=14)
    pdf.text(20, 20, "민원 접수증")
    em = 14 / PT
    drawn = []
    for n, (label, value) in enumerate(LINES):
        x, y = 180 - 12 * n, 40
        for pos, ch in enumerate(label + value):
            if ch != " ":
                w = pdf.get_string_width(ch)
                cx, cy = x + 3, y - 0.35 * em
                drawn.append((x + (6 - w) / 2, y, ch, pos >= len(label),
                              (int((cx - 0.4) * PT), int((cy - 0.4) * PT), int((cx + 0.4) * PT) + 1,
                               int((cy + 0.4) * PT) + 1)))
            y += 6.5
    if shuffled:
        random.Random(seed).shuffle(drawn)
    for x, y, ch, _v, _b in drawn:
        pdf.text(x, y, ch)
    pdf.output(str(path))
    return path, [(ch, v, b) for _x, _y, ch, v, b in drawn]


@pytest.mark.parametrize("shuffled", [False, True])
def test_vertical_writing_is_read_down_each_column_and_masked(tmp_path, shuffled, monkeypatch):
    """Text set in columns (세로쓰기). Drawn column by column, pdfium's order is right, but round eight's
    reordering read the glyphs of one height across the columns (`성연주`, `명락소`) and the file was
    published with nothing masked; drawn shuffled, pdfium's order hid it too. Both read down each column
    now, columns right to left."""
    src, drawn = vertical_pdf(tmp_path / "vertical.pdf", shuffled)
    doc = open_document(src)
    body = squash(doc.text.split("──", 2)[2])
    if not shuffled:
        assert squash(stream_order_text(src, monkeypatch).split("──", 2)[2]) == body   # pdfium's order kept
        assert not any("order the page shows" in n for n in doc.notes)
    for label, value in LINES:
        assert squash(label + value) in body
    assert doc.extra["pdf_ocr"] == {} and doc.unreadable == ()
    out = tmp_path / "vertical.out.pdf"
    _redact(src, out, {NAME: "PERSON", PHONE: "PHONE", squash(ADDR) if not shuffled else ADDR: "ADDRESS"})
    before, after = page_image(src, scale=2), page_image(out, scale=2)
    for ch, is_value, box in drawn:
        box = tuple(2 * v for v in box)
        if is_value:
            assert dark(after, box) > 0.95, (ch, box)
        else:
            assert dark(after, box) < 0.6, (ch, box)
    near = [(2 * b[0] - 10, 2 * b[1] - 10, 2 * b[2] + 10, 2 * b[3] + 10) for _c, _v, b in drawn]
    assert all(dark(before, box) > 0.02 for box, (ch, _v, _b) in zip(near, drawn) if ch not in ":-")


def test_vertical_writing_needs_columns_denser_than_rows():
    from veil_desktop.documents import pdf_order

    # a 3 x 3 grid of 10-point glyphs: rows 1 apart, columns 1 apart: horizontal text, never columns
    grid = [(x * 11.0, -y * 11.0, x * 11.0 + 10, -y * 11.0 + 10) for y in range(3) for x in range(3)]
    assert pdf_order._vertical_writing(list(range(9)), grid) == set()
    # columns 20 apart, glyphs 2 apart down each: vertical
    cols = [(x * 30.0, -y * 12.0, x * 30.0 + 10, -y * 12.0 + 10) for x in range(3) for y in range(4)]
    assert pdf_order._vertical_writing(list(range(12)), cols) == set(range(12))
    # a word whose letters are 2 apart with lines 4 apart under it: horizontal
    para = [(x * 12.0, -y * 14.0, x * 12.0 + 10, -y * 14.0 + 10) for y in range(3) for x in range(5)]
    assert pdf_order._vertical_writing(list(range(15)), para) == set()
