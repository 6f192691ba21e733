"""Pictures on PDF pages that have a text layer are read by OCR and reviewed (issue 26: the rendered page
is the truth; ordinary Korean PDFs with a chart or a logo were all held back).

Own cases: an fpdf2 page with a picture of a name and a phone beside its text, a picture with no text (a
colour photo), a picture of unreadable scribble, a picture cut into thin strips (each strip
alone holds no legible line), the same logo on every page, the picture policy ``blank``. Real pypdfium2,
real Tesseract, files written and re-read; the export is judged by OCR of its pixels.
"""
from __future__ import annotations

import io
import random

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

from veil_desktop.documents import export_document, ocr, open_document, pdf as pdf_mod, pictures
from veil_desktop.documents.errors import LeakDetected
from veil_desktop.masking import Replacement
from veil_desktop.paths import resources_dir

FONT = resources_dir() / "fonts" / "NanumGothic.ttf"
NAME, PHONE = "윤서진", "010-7263-4158"

pytestmark = pytest.mark.skipif(not ocr.available(), reason="Tesseract (tesserocr) is needed")


def font(size: int):
    return ImageFont.truetype(str(FONT), size)


def card(lines=(f"담당자 {NAME}", f"연락처 {PHONE}"), size=(900, 260)) -> Image.Image:
    im = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(im)
    for k, line in enumerate(lines):
        d.text((40, 40 + 90 * k), line, font=font(56), fill="black")
    return im


def photo() -> Image.Image:
    """A picture holding no text: a colour gradient with two discs (a landscape, a product shot)."""
    im = Image.new("RGB", (800, 500))
    px = im.load()
    for y in range(500):
        for x in range(800):
            px[x, y] = (60 + x * 150 // 800, 120 + y * 100 // 500, 180 - (x + y) * 80 // 1300)
    d = ImageDraw.Draw(im)
    d.ellipse((250, 120, 520, 390), fill=(220, 180, 90))
    d.ellipse((560, 60, 700, 200), fill=(250, 240, 200))
    return im


def png(im: Image.Image) -> io.BytesIO:
    buf = io.BytesIO()
    im.save(buf, "PNG")
    buf.seek(0)
    return buf


def page_pdf(path, pictures_at, pages: int = 1, text: str = "제3차 운영위원회 회의 자료입니다."):
    """A PDF of ``pages`` A4 pages, each with a line of text and the pictures ``(image, x, y, w)`` (mm)."""
    doc = FPDF()
    doc.add_font("K", "", str(FONT))
    for _ in range(pages):
        doc.add_page()
        doc.set_font("K", size=12)
        doc.cell(0, 10, text, new_x="LMARGIN", new_y="NEXT")
        for im, x, y, w in pictures_at:
            doc.image(png(im), x=x, y=y, w=w)
    doc.output(str(path))
    return path


def render(data: bytes, i: int = 0, dpi: int = 300) -> Image.Image:
    pdf = pdfium.PdfDocument(data)
    try:
        return pdf[i].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        pdf.close()


def squash(s: str) -> str:
    return "".join(ch for ch in s if ch.isalnum())


def mask_all(doc, *values) -> list[Replacement]:
    plan = []
    for v in values:
        i = doc.text.find(v)
        assert i >= 0, f"{v!r} not in {doc.text!r}"
        while i >= 0:
            plan.append(Replacement(i, i + len(v), "█" * len(v), "X"))
            i = doc.text.find(v, i + len(v))
    return plan


def test_a_picture_of_a_name_and_phone_is_reviewed_and_burned(tmp_path):
    src = page_pdf(tmp_path / "card.pdf", [(card(), 20, 40, 150)])
    doc = open_document(src)
    assert doc.unreadable == ()                               # read, not held
    assert doc.extra["pdf_ocr"] == {}                         # the page stays a text page
    (pic,) = doc.extra["pdf_pictures"]
    assert pic.page == 0
    picture_text = doc.content_of(*next((s.start, s.end) for s in doc.segments if s.member == "pdf_picture"))
    assert NAME in picture_text and PHONE in picture_text
    assert "회의" in doc.text and "[Picture 1]" in doc.text
    assert [(c.key, c.detail) for c in doc.captions] == [("picture", "1")]    # the window says 그림 1
    from veil_desktop.ui.i18n import localize_captions
    assert "[그림 1]" in localize_captions(doc.text, doc.captions, "ko")

    # the picture's boxes are on the page, inside the picture (for the window's highlight)
    pages = pdf_mod.char_boxes(doc, src.read_bytes())
    i = doc.text.find(PHONE)
    rects = pdf_mod.span_rects(pages, i, i + len(PHONE))
    assert rects and all(r[0] == 0 for r in rects)
    x0, y0 = 20 * 72 / 25.4, 40 * 72 / 25.4                  # the picture's top-left corner, points
    x1, y1 = x0 + 150 * 72 / 25.4, y0 + 150 * 72 / 25.4 * 260 / 900
    assert all(x0 - 2 <= r[1][0] < r[1][2] <= x1 + 2 and y0 - 2 <= r[1][1] < r[1][3] <= y1 + 2 for r in rects)

    out = tmp_path / "card.masked.pdf"
    res = export_document(doc, mask_all(doc, NAME, PHONE), out)
    assert res.leak_check["result"] == "clean"
    seen = squash(ocr.ocr_image(render(out.read_bytes()).convert("L")).text)
    assert "회의" in seen and "연락" in seen                   # the rest of the page and picture are kept
    assert "7263" not in seen and "4158" not in seen and "서진" not in seen


def test_the_export_check_reads_picture_pages_again(tmp_path, monkeypatch):
    """With the burn skipped, the OCR of the output page finds the masked phone: the export fails closed."""
    src = page_pdf(tmp_path / "card.pdf", [(card(), 20, 40, 150)])
    doc = open_document(src)
    monkeypatch.setattr(pdf_mod, "_paint_pictures", lambda img, *a, **k: img)
    with pytest.raises(LeakDetected):
        export_document(doc, mask_all(doc, PHONE), tmp_path / "o.pdf")
    assert not (tmp_path / "o.pdf").exists()


def test_a_picture_without_text_is_published_without_review(tmp_path):
    src = page_pdf(tmp_path / "photo.pdf", [(photo(), 30, 40, 140)])
    doc = open_document(src)
    assert doc.unreadable == () and doc.extra["pdf_pictures"] == []
    assert "[Picture" not in doc.text
    out = tmp_path / "photo.masked.pdf"
    export_document(doc, [], out)
    f = 140 * 72 / 25.4 / 800                                  # points per picture pixel
    px = render(out.read_bytes(), dpi=72).getpixel((int(30 * 72 / 25.4 + 385 * f), int(40 * 72 / 25.4 + 255 * f)))
    assert px[0] > 180 and px[2] < 140                        # the disc is still there


def scribble() -> Image.Image:
    rng = random.Random(7)
    im = Image.new("RGB", (700, 300), "white")
    d = ImageDraw.Draw(im)
    for k in range(22):                                       # letter-like strokes, too faint and broken to read
        x = 30 + 30 * k
        pts = [(x + rng.randint(-8, 8), 120 + rng.randint(-30, 30)) for _ in range(5)]
        d.line(pts, fill=(150, 150, 150), width=2)
    for _ in range(3000):
        im.putpixel((rng.randrange(700), rng.randrange(300)), (rng.randint(90, 200),) * 3)
    d.text((40, 200), "김 0 1 O - 7 ? 6 3", font=font(20), fill=(190, 190, 190))
    return im


def test_a_picture_ocr_cannot_read_holds_its_page(tmp_path):
    src = page_pdf(tmp_path / "scribble.pdf", [(scribble(), 20, 40, 160)], pages=2)
    doc = open_document(src)
    verdict = pictures.read_frame(scribble())[0]
    if verdict in ("read", "clean"):
        pytest.fail(f"the fixture must be unreadable ink, OCR says {verdict}")
    assert sorted((u.page, u.reason) for u in doc.unreadable) == [(1, "image"), (2, "image")]


def test_a_picture_cut_into_strips_is_read_whole(tmp_path):
    """Each strip holds a fifth of the lines' height (nothing legible alone); together they show the card."""
    im = card()
    strips = []
    n = 5
    h_mm = 150 * im.height / im.width
    for k in range(n):
        part = im.crop((0, k * im.height // n, im.width, (k + 1) * im.height // n))
        strips.append((part, 20, 40 + k * h_mm / n, 150))
    src = page_pdf(tmp_path / "strips.pdf", strips)
    doc = open_document(src)
    assert doc.unreadable == ()
    assert len(doc.extra["pdf_pictures"]) == 1 and PHONE in doc.text
    out = tmp_path / "strips.masked.pdf"
    export_document(doc, mask_all(doc, PHONE), out)
    seen = squash(ocr.ocr_image(render(out.read_bytes()).convert("L")).text)
    assert "7263" not in seen and "4158" not in seen


def test_the_same_picture_on_every_page_is_read_once(tmp_path, monkeypatch):
    calls = []
    real = pictures.read_frame
    monkeypatch.setattr(pictures, "read_frame", lambda frame: calls.append(frame.size) or real(frame))
    src = page_pdf(tmp_path / "logo.pdf", [(card(("한빛재단",), (600, 160)), 150, 10, 40)], pages=3)
    doc = open_document(src)
    assert len(calls) == 1
    assert [p.page for p in doc.extra["pdf_pictures"]] == [0, 1, 2] and doc.unreadable == ()
    assert doc.text.count("한빛재단") == 3


def test_picture_policy_blank_paints_pictures_with_text_white(tmp_path):
    src = page_pdf(tmp_path / "card.pdf", [(card(), 20, 40, 150), (photo(), 30, 120, 120)])
    doc = open_document(src, pictures="blank")
    assert doc.unreadable == () and doc.extra["pdf_pictures"] == []
    assert list(doc.extra["pdf_blank"]) == [0] and len(doc.extra["pdf_blank"][0]) == 1
    assert any("painted white" in n for n in doc.notes)
    out = tmp_path / "card.blank.pdf"
    export_document(doc, [], out)
    page = render(out.read_bytes())
    seen = squash(ocr.ocr_image(page.convert("L")).text)
    assert "회의" in seen and "연락처" not in seen and "7263" not in seen
    f = 120 / 800                                              # mm per picture pixel
    disc = page.getpixel((int((30 + 385 * f) * 300 / 25.4), int((120 + 255 * f) * 300 / 25.4)))
    assert disc[0] > 180 and disc[2] < 140                    # the picture without text is kept
