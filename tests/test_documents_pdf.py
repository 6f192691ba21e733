"""PDF: generated with fpdf2, read with char boxes, exported as a rasterised PDF with burned-in boxes and
no text layer; checked by re-reading the output (text layer, raw bytes, metadata) and its pixels."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF

from veil_desktop.detect.span import Span
from veil_desktop.documents import DocumentError, export_document, open_document, propagate_spans
from veil_desktop.documents import pdf as pdf_mod
from veil_desktop.masking import Masker

REPO_FONT = Path(__file__).resolve().parent.parent / "resources" / "fonts" / "NanumGothic.ttf"

ASCII_LINES = ["Contact: John Smith, phone 010-1234-5678.", "Email john.smith@example.com today.",
               "Plain line without personal data."]
ASCII_PII = {"John Smith": "PERSON", "010-1234-5678": "PHONE", "john.smith@example.com": "EMAIL"}
KO_LINES = ["담당자 홍길동 연락처 010-2222-3333", "주소 서울특별시 종로구 세종대로 175", "일반 문장입니다."]
KO_PII = {"홍길동": "PERSON", "010-2222-3333": "PHONE", "서울특별시 종로구 세종대로 175": "ADDRESS"}


def make_pdf(path: Path, pages: list[list[str]], font: Path | None = None, meta: bool = True) -> Path:
    pdf = FPDF()
    if font is not None:
        pdf.add_font("K", "", str(font))
        family = "K"
    else:
        family = "Helvetica"
    if meta:
        pdf.set_title("Report of John Smith")
        pdf.set_author("John Smith")
        pdf.set_subject("phone 010-1234-5678")
    for lines in pages:
        pdf.add_page()
        pdf.set_font(family, size=14)
        for line in lines:
            pdf.cell(0, 12, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def spans_for(text: str, values: dict[str, str]) -> list[Span]:
    spans = []
    for v, label in values.items():
        i = text.find(v)
        assert i >= 0, v
        spans.append(Span(i, i + len(v), label, 0.9, "rule"))
    return propagate_spans(text, spans)


def dark_fraction(img, box) -> float:
    crop = img.convert("L").crop(box)
    return sum(crop.histogram()[:60]) / (crop.width * crop.height)


def test_read_ascii_pdf_with_boxes(tmp_path):
    src = make_pdf(tmp_path / "a.pdf", [ASCII_LINES, ["Second page John Smith"]])
    doc = open_document(src)
    assert [p.name for p in doc.parts] == ["1쪽", "2쪽"]
    assert "── 1쪽 (page 1) ──\nContact: John Smith, phone 010-1234-5678.\n" in doc.text
    assert "Second page John Smith" in doc.text
    pages = doc.extra["pdf_pages"]
    assert len(pages) == 2
    loc = doc.locate(doc.text.index("Second"))
    assert (loc.member, loc.slot, loc.offset_in_slot) == ("page", 1, 0)


@pytest.mark.parametrize("korean", [False, True])
def test_export_burns_boxes_and_drops_text_layer(tmp_path, korean):
    # Korean uses the OFL font committed in resources/fonts (no system font needed)
    lines, values = (KO_LINES, KO_PII) if korean else (ASCII_LINES, ASCII_PII)
    src = make_pdf(tmp_path / "in.pdf", [lines, lines], REPO_FONT if korean else None)
    before = hashlib.sha256(src.read_bytes()).hexdigest()
    doc = open_document(src)
    assert lines[0] in doc.text
    plan = Masker().plan(doc.text, spans_for(doc.text, values))
    out = tmp_path / "out.pdf"
    res = export_document(doc, plan, out)
    assert hashlib.sha256(src.read_bytes()).hexdigest() == before
    assert res.leak_check["result"] == "clean" and res.leak_check["method"] == "pdf"

    data = out.read_bytes()
    for v in values:
        assert v.encode("utf-8") not in data and v.encode("utf-16-be") not in data
    assert b"/Info" not in data and b"/Font" not in data and b"John Smith" not in data
    o = pdfium.PdfDocument(data)
    assert len(o) == 2
    assert o.get_metadata_dict(skip_empty=True) == {}
    for i in range(2):
        assert o[i].get_textpage().count_chars() == 0          # no text layer at all
    # the pixels under the masked value are black, the unmasked words are not
    src_pdf = pdfium.PdfDocument(str(src))
    page = src_pdf[0]
    tp = page.get_textpage()
    text = tp.get_text_range()
    img = o[0].render(scale=1).to_pil()
    sx = img.width / page.get_width()

    def box_of(word):
        k = text.index(word)
        boxes = [tp.get_charbox(j) for j in range(k, k + len(word))]
        left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
        bottom, top = min(b[1] for b in boxes), max(b[3] for b in boxes)
        h = page.get_height()
        return (int(left * sx) + 1, int((h - top) * sx) + 1, int(right * sx) - 1, int((h - bottom) * sx) - 1)

    masked_word = next(iter(values))
    kept_word = lines[-1].split()[0]
    assert dark_fraction(img, box_of(masked_word)) > 0.95
    assert dark_fraction(img, box_of(kept_word)) < 0.5
    assert o[0].get_size() == pytest.approx(page.get_size(), abs=1)


def test_pdf_txt_export_option(tmp_path):
    src = make_pdf(tmp_path / "in.pdf", [ASCII_LINES])
    doc = open_document(src)
    export_document(doc, Masker().plan(doc.text, spans_for(doc.text, ASCII_PII)), tmp_path / "in.txt")
    text = (tmp_path / "in.txt").read_text("utf-8")
    assert "Contact: [PERSON], phone [PHONE]." in text and "John" not in text


def test_pdf_without_text_layer_is_noted(tmp_path):
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 50, 50, style="F")
    pdf.output(str(tmp_path / "scan.pdf"))
    doc = open_document(tmp_path / "scan.pdf")
    assert doc.text.strip() == "── 1쪽 (page 1) ──"
    assert any("no text layer" in n for n in doc.notes)
    res = export_document(doc, [], tmp_path / "scan.out.pdf")
    assert any("no text layer" in w for w in res.warnings)


def test_bad_pdfs(tmp_path, monkeypatch):
    (tmp_path / "bad.pdf").write_bytes(b"%PDF-1.4\nthis is not a pdf")
    with pytest.raises(DocumentError, match="not a readable PDF"):
        open_document(tmp_path / "bad.pdf")
    src = make_pdf(tmp_path / "many.pdf", [["a"], ["b"], ["c"]])
    monkeypatch.setattr(pdf_mod, "MAX_PAGES", 2)
    with pytest.raises(DocumentError, match="at most 2"):
        open_document(src)


def test_huge_page_is_rendered_at_bounded_size(tmp_path, monkeypatch):
    pdf = FPDF(format=(3000, 3000))  # 3 m x 3 m
    pdf.add_page()
    pdf.set_font("Helvetica", size=200)
    pdf.cell(0, 100, "John Smith 010-1234-5678")
    pdf.output(str(tmp_path / "big.pdf"))
    doc = open_document(tmp_path / "big.pdf")
    monkeypatch.setattr(pdf_mod, "MAX_PAGE_PIXELS", 2_000_000)
    pii = {"John Smith": "PERSON", "010-1234-5678": "PHONE"}
    export_document(doc, Masker().plan(doc.text, spans_for(doc.text, pii)), tmp_path / "o.pdf")
    o = pdfium.PdfDocument(str(tmp_path / "o.pdf"))
    img = o[0].get_objects()
    im = next(iter(img))
    w, h = im.get_px_size()
    assert w * h <= 2_000_000 and w > 1000


def test_concurrent_pdf_jobs_on_worker_threads(tmp_path):
    """The UI opens and exports on pool threads; PDFium calls are serialised inside the package."""
    from concurrent.futures import ThreadPoolExecutor

    srcs = [make_pdf(tmp_path / f"in{i}.pdf", [ASCII_LINES, ASCII_LINES]) for i in range(4)]

    def job(i):
        doc = open_document(srcs[i])
        res = export_document(doc, Masker().plan(doc.text, spans_for(doc.text, ASCII_PII)),
                              tmp_path / f"out{i}.pdf")
        return res.leak_check["result"]

    with ThreadPoolExecutor(4) as ex:
        assert list(ex.map(job, range(4))) == ["clean"] * 4


def test_rotated_page_boxes_land_on_the_same_words(tmp_path):
    """A page with /Rotate 90 is exported rotated; turned back, it matches the unrotated export."""
    from PIL import ImageChops

    plain = make_pdf(tmp_path / "plain.pdf", [ASCII_LINES], meta=False)
    pdf = pdfium.PdfDocument(str(plain))
    pdf[0].set_rotation(90)
    pdf.save(str(tmp_path / "rot.pdf"))
    pdf.close()
    outs = {}
    for name in ("plain", "rot"):
        doc = open_document(tmp_path / f"{name}.pdf")
        export_document(doc, Masker().plan(doc.text, spans_for(doc.text, ASCII_PII)), tmp_path / f"{name}.out.pdf")
        o = pdfium.PdfDocument(str(tmp_path / f"{name}.out.pdf"))
        outs[name] = o[0].render(scale=1).to_pil().convert("L")
    a, b = outs["plain"], outs["rot"].rotate(90, expand=True)
    assert b.size == a.size
    diff = ImageChops.difference(a, b)
    assert sum(diff.histogram()[64:]) / (a.width * a.height) < 0.01   # same picture, same boxes
    assert sum(a.histogram()[:60]) / (a.width * a.height) > 0.005     # and there are boxes
