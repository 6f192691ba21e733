"""Weak words of a scanned page are read again on their own (documents/reread.py, issue 26 class 4).

Own cases: a word OCR guessed (``Zorg`` at 45 % over ink that reads ``정하람``) is replaced by a sure second
reading with its boxes on the page; a guess over scribble stays disputed; a PDF page whose text layer hides
ink (a value painted through a pattern, ISO 32000-1 §8.7.3) is held when a guessed word cannot be settled,
while a plain scan keeps its mean-confidence bar. Real Tesseract.
"""
from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw, ImageFont

from tests.fixtures.raw_pdf import raw_pdf
from veil_desktop.documents import ocr, open_document, pdf as pdf_mod, reread
from veil_desktop.paths import resources_dir

pytestmark = pytest.mark.skipif(not ocr.available(), reason="Tesseract (tesserocr) is needed")

FONT = ImageFont.truetype(str(resources_dir() / "fonts" / "NanumGothic.ttf"), 48)


def page_of(words: list[tuple[str, tuple, float]], w: int, h: int) -> "ocr.OcrPage":
    text, boxes, confs = "", [], []
    for k, (word, box, c) in enumerate(words):
        if k:
            text += " "
            boxes.append(None)
            confs.append(100.0)
        x0, y0, x1, y1 = box
        step = (x1 - x0) / len(word)
        for i, ch in enumerate(word):
            text += ch
            boxes.append((x0 + i * step, y0, x0 + (i + 1) * step, y1))
            confs.append(c)
    return ocr.OcrPage(text=text, boxes=boxes, confidence=80.0, width=w, height=h, words=len(words),
                       line_heights=[float(y1 - y0)] * len(text), confidences=confs)


def test_a_guessed_word_is_replaced_by_a_sure_second_reading():
    im = Image.new("L", (900, 160), 255)
    d = ImageDraw.Draw(im)
    d.text((40, 50), "신청인", font=FONT, fill=0)
    d.text((260, 50), "정하람", font=FONT, fill=0)
    b1, b2 = d.textbbox((40, 50), "신청인", font=FONT), d.textbbox((260, 50), "정하람", font=FONT)
    page = page_of([("신청인", b1, 93.0), ("Zorg", b2, 45.0)], im.width, im.height)
    settled, disputed = reread.settle_weak_words(im, page)
    assert disputed == 0
    assert settled.text.startswith("신청인 ") and "정하람" in settled.text and "Zorg" not in settled.text
    k = settled.text.index("정하람")
    boxes = [b for b in settled.boxes[k:k + 3] if b]
    assert len(boxes) == 3 and all(b2[0] - 20 <= b[0] < b[2] <= b2[2] + 20 for b in boxes)   # on the page
    assert len(settled.boxes) == len(settled.text) == len(settled.confidences)


def test_a_guess_over_scribble_stays_disputed():
    rng = random.Random(5)
    im = Image.new("L", (700, 160), 255)
    d = ImageDraw.Draw(im)
    d.text((40, 50), "신청인", font=FONT, fill=0)
    for _ in range(40):                                   # broken strokes where a word would be
        x, y = rng.randint(260, 560), rng.randint(55, 100)
        d.line((x, y, x + rng.randint(-12, 12), y + rng.randint(-12, 12)), fill=rng.randint(80, 200), width=2)
    page = page_of([("신청인", d.textbbox((40, 50), "신청인", font=FONT), 93.0), ("Zorg", (260, 50, 570, 105), 40.0)],
                   im.width, im.height)
    settled, disputed = reread.settle_weak_words(im, page)
    assert disputed == 4 and "Zorg" in settled.text
    assert reread.settle_weak_words(im, page_of([("신청인", (40, 50, 200, 105), 93.0)], 700, 160))[1] == 0


HELV = b"/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>"


def pattern_pdf() -> bytes:
    """A text page whose digits are painted through a tiling pattern: ink its text layer does not hold."""
    cell = b"BT /F1 15 Tf 2 6 Td (850315-2345678) Tj ET"
    pattern = (b"<< /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 220 26] "
               b"/Matrix [1 0 0 1 60 690] /XStep 600 /YStep 600 /Resources << " + HELV
               + b" >> /Length %d >>\nstream\n" % len(cell) + cell + b"\nendstream")
    cs = b"BT /F1 12 Tf 60 780 Td (Monthly visit record, section 4) Tj ET\nq /Pattern cs /P1 scn 60 690 220 26 re f Q\n"
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << " + HELV
            + b" /Pattern << /P1 5 0 R >> >> /Contents 4 0 R >>",
            b"<< /Length %d >>\nstream\n" % len(cs) + cs + b"\nendstream", pattern]
    return raw_pdf(objs)


def test_a_page_hiding_ink_is_held_for_a_guess_it_cannot_settle(tmp_path, monkeypatch):
    src = tmp_path / "pattern.pdf"
    src.write_bytes(pattern_pdf())
    assert open_document(src).unreadable == ()                 # every word settled: read, reviewable
    monkeypatch.setattr(reread, "settle_weak_words", lambda img, page: (page, pdf_mod.READ_MAX_WEAK + 1))
    doc = open_document(src)
    assert 0 in doc.extra["pdf_ocr"] and [u.page for u in doc.unreadable] == [1]


def test_a_plain_image_scan_has_its_guessed_words_read_again(tmp_path, monkeypatch):
    """A PNG/JPEG/TIFF scan goes through the same second reading as a PDF scan page: the guess `Zorg` over
    ink that reads `정하람` is replaced in the document's text, so detection sees the name in its line."""
    im = Image.new("L", (900, 160), 255)
    d = ImageDraw.Draw(im)
    d.text((40, 50), "신청인", font=FONT, fill=0)
    d.text((260, 50), "정하람", font=FONT, fill=0)
    b1, b2 = d.textbbox((40, 50), "신청인", font=FONT), d.textbbox((260, 50), "정하람", font=FONT)
    guessed = page_of([("신청인", b1, 93.0), ("Zorg", b2, 45.0)], im.width, im.height)
    real = ocr.ocr_image
    # the page as OCR guessed it; every other reading (the crop's) is real Tesseract
    monkeypatch.setattr(ocr, "ocr_image", lambda img, **kw: guessed if img.size == im.size else real(img, **kw))
    src = tmp_path / "scan.png"
    im.save(src)
    doc = open_document(src)
    assert "정하람" in doc.text and "Zorg" not in doc.text
