"""Ink the reviewed text does not explain (issue 26, classes 3 and 4): the rendered page is the truth.

Own cases, written from the PDF specification (ISO 32000-1 §14.9.4 replacement text, §8.7.3 tiling patterns)
and from what a hostile author can do with an image, not from the readers' code: a phone number hidden
behind an ``/ActualText`` replacement, a value painted through a tiling pattern (no text object on the
page), light-grey text beside black text on a scan, a margin note turned 90°; and the other side — an
ordinary form page with a grid, shaded cells and a drawn logo stays a text page (no OCR, nothing held).
Real pypdfium2, real Tesseract, real files written and re-read; the export is judged by OCR of its pixels.
"""
from __future__ import annotations

import re

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont

from tests.fixtures.raw_pdf import raw_pdf
from veil_desktop.documents import export_document, ink, ocr, open_document
from veil_desktop.masking import Replacement
from veil_desktop.paths import resources_dir

PHONE = "010-3141-5926"
RRN = "850315-2345678"
HELV = b"/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>"


def make_pdf(content: bytes, resources: bytes, extra: list[bytes] = ()) -> bytes:
    """A one-page PDF (A4) with ``content`` as its content stream; ``extra`` objects are numbered from 5."""
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << " + resources
            + b" >> /Contents 4 0 R >>",
            b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream", *extra]
    return raw_pdf(objs)


VISIBLE = b"BT /F1 12 Tf 60 780 Td (Monthly visit record, section 4) Tj ET\n"


def mask(doc, value: str) -> list[Replacement]:
    i = doc.text.find(value)
    assert i >= 0, f"{value!r} not in {doc.text!r}"
    return [Replacement(i, i + len(value), "█" * len(value), "X")]


def ocr_output(data: bytes) -> str:
    pdf = pdfium.PdfDocument(data)
    try:
        img = pdf[0].render(scale=300 / 72).to_pil().convert("L")
    finally:
        pdf.close()
    return ocr.ocr_image(img).text.replace(" ", "")


def test_actual_text_cannot_hide_the_glyphs_drawn(tmp_path):
    cs = VISIBLE + (b"/Span << /ActualText (see the attached form) >> BDC BT /F1 16 Tf 60 640 Td ("
                    + PHONE.encode() + b") Tj ET EMC\n")
    src = tmp_path / "actualtext.pdf"
    src.write_bytes(make_pdf(cs, HELV))
    doc = open_document(src)
    assert PHONE in doc.text and "attached form" not in doc.text
    assert not doc.extra["pdf_ocr"]                 # the glyph text is a proper text layer: no OCR needed
    out = tmp_path / "actualtext.masked.pdf"
    res = export_document(doc, mask(doc, PHONE), out)
    assert res.leak_check["result"] == "clean"
    seen = ocr_output(out.read_bytes())
    assert "Monthly" in seen and "3141" not in seen and "5926" not in seen


def test_text_painted_through_a_pattern_makes_the_page_a_scan(tmp_path):
    cell = b"BT /F1 15 Tf 2 6 Td (" + RRN.encode() + b") Tj ET"
    pattern = (b"<< /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 220 26] /Matrix [1 0 0 1 60 690] /XStep 600 "
               b"/YStep 600 /Resources << " + HELV + b" >> /Length %d >>\nstream\n" % len(cell) + cell
               + b"\nendstream")
    cs = VISIBLE + b"q /Pattern cs /P1 scn 60 690 220 26 re f Q\n"
    src = tmp_path / "pattern.pdf"
    src.write_bytes(make_pdf(cs, HELV + b" /Pattern << /P1 5 0 R >>", [pattern]))
    doc = open_document(src)
    assert 0 in doc.extra["pdf_ocr"]                # read as a scan: OCR holds the painted digits
    m = re.search(r"850315\s*-\s*2345678", doc.text)   # the value as OCR spaced it
    assert m, doc.text
    out = tmp_path / "pattern.masked.pdf"
    res = export_document(doc, [Replacement(m.start(), m.end(), "█" * (m.end() - m.start()), "RRN")], out)
    assert res.leak_check["result"] == "clean"
    seen = ocr_output(out.read_bytes())
    assert "Monthly" in seen and "850315" not in seen and "2345678" not in seen


def test_an_ordinary_form_page_stays_a_text_page(tmp_path):
    grid = b"".join(b"0.5 w 60 %d m 535 %d l S\n" % (y, y) for y in range(400, 701, 30))
    grid += b"".join(b"0.5 w %d 400 m %d 700 l S\n" % (x, x) for x in (60, 200, 535))
    shade = b"0.85 g 61 671 138 28 re f 0 g\n"
    logo = (b"q 0.2 0.3 0.6 rg 480 770 m 520 770 520 810 480 810 c h f "
            b"1 1 1 rg 490 780 20 20 re f Q\n")   # a drawn blue badge with a white square: no letters
    labels = b"".join(b"BT /F1 10 Tf 66 %d Td (Item %d) Tj ET\n" % (y + 10, k) for k, y in enumerate(range(400, 700, 30)))
    src = tmp_path / "form.pdf"
    src.write_bytes(make_pdf(VISIBLE + grid + shade + logo + labels, HELV))
    doc = open_document(src)
    assert not doc.extra["pdf_ocr"] and doc.unreadable == ()
    assert "Item 3" in doc.text and "Monthly visit record" in doc.text


def font(px: int):
    return ImageFont.truetype(str(resources_dir() / "fonts" / "NanumGothic.ttf"), px)


def test_light_grey_and_turned_text_on_a_scan_is_read(tmp_path):
    page = Image.new("RGB", (1300, 700), "white")
    d = ImageDraw.Draw(page)
    d.text((60, 60), "방문 기록: 아래 연락처로 회신 바랍니다.", fill="black", font=font(34))
    d.text((60, 200), f"연락처 {PHONE}", fill=(196, 196, 196), font=font(36))     # Otsu drops this grey
    note = Image.new("RGB", (560, 60), "white")
    ImageDraw.Draw(note).text((5, 5), f"비고 {RRN}", fill="black", font=font(36))
    page.paste(note.rotate(90, expand=True), (1200, 80))                      # a margin note, turned
    src = tmp_path / "scan.png"
    page.save(src)
    doc = open_document(src)
    flat = doc.text.replace(" ", "")
    assert PHONE in flat and RRN in flat, doc.text
    assert doc.extra["ocr"]["mean_confidence"] >= ocr.MIN_PAGE_CONFIDENCE


def test_residue_keeps_marks_and_drops_rules_and_explained_boxes():
    a = np.full((200, 400), 255, np.uint8)
    a[50, 10:390] = 0                    # a rule
    a[100:120, 30:40] = 0                # a mark the box below explains
    a[150:170, 300:310] = 200            # a light-grey mark nothing explains
    res = ink.residue(a, [(28, 98, 42, 122)], pad=1.0)
    assert not res[50].any() and not res[100:120, 30:40].any()
    assert res[150:170, 300:310].all() and int(res.sum()) == 200
    assert ink.bbox(res) == (300, 150, 310, 170)


def test_white_text_on_a_dark_bar_and_a_negative_page_are_read(tmp_path):
    page = Image.new("RGB", (1200, 480), "white")
    d = ImageDraw.Draw(page)
    d.text((60, 50), "처리 결과를 알려드립니다.", fill="black", font=font(32))
    d.rectangle((40, 170, 900, 240), fill=(15, 25, 60))                       # a navy title bar
    d.text((60, 182), f"문의 {PHONE}", fill="white", font=font(36))
    d.text((60, 320), "끝.", fill="black", font=font(32))
    bar = tmp_path / "bar.png"
    page.save(bar)
    assert PHONE in open_document(bar).text.replace(" ", "")
    neg = tmp_path / "negative.png"                                         # the whole page a negative
    Image.eval(page.convert("L"), lambda v: 255 - v).save(neg)
    doc = open_document(neg)
    assert "처리결과를알려드립니다" in doc.text.replace(" ", "") and PHONE in doc.text.replace(" ", "")
    # burned on the negative: the phone's pixels end up dark (the box), the rest of the page unchanged
    start = doc.text.find(PHONE)
    out = tmp_path / "negative.masked.png"
    res = export_document(doc, mask(doc, PHONE), out)
    assert res.leak_check["result"] == "clean"
    assert PHONE not in ocr.ocr_image(Image.open(out)).text.replace(" ", "")
    assert start >= 0


def test_black_text_on_a_mid_blue_band_is_read(tmp_path):
    page = Image.new("RGB", (1200, 360), "white")
    d = ImageDraw.Draw(page)
    d.text((60, 40), "점검 결과 요약", fill="black", font=font(32))
    d.rectangle((40, 150, 1100, 225), fill=(70, 110, 210))      # grey ~110: wiped with the rules before
    d.text((60, 165), f"연락처 {PHONE}", fill="black", font=font(36))
    src = tmp_path / "band.png"
    page.save(src)
    assert PHONE in open_document(src).text.replace(" ", "")
