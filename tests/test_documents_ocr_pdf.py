"""Scanned PDF pages (no text layer) are OCR'd, masked by burning OCR boxes, and checked again by OCR;
the batch CLI redacts a folder holding a drawn A4-like page as PNG and as an image-only PDF."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from fpdf import FPDF
from PIL import Image, ImageChops, ImageStat

from test_documents_image import NAME, RRN, as_bytes, draw_page, plan_for
from veil_desktop.documents import export_document, ocr, open_document
from veil_desktop.documents.errors import LeakDetected

ADDRESS = "서울특별시 마포구 월드컵북로 396"
PHONE = "010-2345-6789"


def image_only_pdf(img: Image.Image, dpi: int = 150, extra_text_page: bool = False) -> bytes:
    pdf = FPDF(unit="pt", format=(img.width * 72 / dpi, img.height * 72 / dpi))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    buf = io.BytesIO()
    img.save(buf, "PNG")
    buf.seek(0)
    pdf.image(buf, x=0, y=0, w=img.width * 72 / dpi, h=img.height * 72 / dpi)
    if extra_text_page:
        pdf.add_page()
        pdf.set_font("helvetica", size=12)
        pdf.text(40, 60, "Page two has a text layer: 010-9876-5432")
    return bytes(pdf.output())


def render(data: bytes, i: int = 0) -> Image.Image:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        page = pdf[i]
        img = page.render(scale=300 / 72).to_pil().convert("L")
        page.close()
    finally:
        pdf.close()
    return img


def ocr_pdf_page(data: bytes, i: int = 0) -> str:
    return ocr.ocr_image(render(data, i)).text


def test_scanned_page_is_read_by_ocr_and_burned(tmp_path):
    src = tmp_path / "scan.pdf"
    src.write_bytes(image_only_pdf(draw_page(), extra_text_page=True))
    doc = open_document(src)
    assert NAME in doc.text and RRN in doc.text
    assert doc.unreadable == ()                       # OCR read it: no longer "needs review"
    assert 0 in doc.extra["pdf_ocr"] and 1 not in doc.extra["pdf_ocr"]
    assert "010-9876-5432" in doc.text                # page 2 still comes from its text layer
    out = tmp_path / "scan.masked.pdf"
    res = export_document(doc, plan_for(doc, [NAME, RRN, "010-9876-5432"]), out)
    assert res.leak_check["result"] == "clean"
    page1 = ocr_pdf_page(out.read_bytes(), 0).replace(" ", "")
    assert NAME not in page1 and RRN not in page1
    assert "주민등록번호" in page1                       # the label beside the burned value is intact
    # the lines below the burned RRN (address, phone) are unchanged up to JPEG noise
    src_px, out_px = render(src.read_bytes()), render(out.read_bytes())
    assert abs(src_px.width - out_px.width) <= 2 and abs(src_px.height - out_px.height) <= 2  # rounding
    y = int((60 + 2 * 68 - 8) * 72 / 150 * 300 / 72)    # top of the address line, in the 300 dpi render
    below = (0, y, min(src_px.width, out_px.width), min(src_px.height, out_px.height))
    diff = ImageChops.difference(src_px.crop(below), out_px.crop(below))
    assert ImageStat.Stat(diff).mean[0] < 2.0 and diff.getextrema()[1] < 128
    rep = json.loads(res.report.read_text(encoding="utf-8"))
    assert rep["ocr"]["engine"] == "tesseract" and rep["ocr"]["pages"] == 1


def test_a_writer_that_misses_an_ocr_box_is_caught(tmp_path, monkeypatch):
    src = tmp_path / "scan.pdf"
    src.write_bytes(image_only_pdf(draw_page()))
    doc = open_document(src)
    from veil_desktop.documents import ocr as ocr_mod

    monkeypatch.setattr(ocr_mod, "boxes_for", lambda page, ranges: [])   # burns nothing
    with pytest.raises(LeakDetected):
        export_document(doc, plan_for(doc, [RRN]), tmp_path / "out.pdf")
    assert not (tmp_path / "out.pdf").exists()


def test_blank_scan_stays_needs_review(tmp_path):
    src = tmp_path / "blank.pdf"
    noise = Image.effect_noise((600, 400), 90).convert("L")   # ink everywhere, no text
    src.write_bytes(image_only_pdf(noise))
    doc = open_document(src)
    assert doc.unreadable_pages() == [1]


def test_batch_redacts_png_and_scanned_pdf(tmp_path):
    page = draw_page()
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "form.png").write_bytes(as_bytes(page, "PNG"))
    (folder / "form.pdf").write_bytes(image_only_pdf(page))
    originals = {p.name: p.read_bytes() for p in folder.iterdir()}
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "veil_desktop.cli", "redact", str(folder), "--out", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == originals
    png_text = ocr.ocr_image(Image.open(out / "form.png")).text.replace(" ", "")
    pdf_text = ocr_pdf_page((out / "form.pdf").read_bytes()).replace(" ", "")
    for text in (png_text, pdf_text):
        for value in (NAME, RRN, PHONE, ADDRESS):
            assert value.replace(" ", "") not in text, value
    # the labels (not PII) are untouched: "성명:" and "주민등록번호:" left of the burned values (PNG: exact)
    written = Image.open(out / "form.png").convert("RGB")
    for box in ((0, 40, 150, 110), (0, 120, 280, 175)):
        assert written.crop(box).tobytes() == page.convert("RGB").crop(box).tobytes()
