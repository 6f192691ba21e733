"""Hostile PDFs (issue 10, items 3 and 7): letter-spaced glyphs are re-joined for detection and every
glyph is burned; a lying ToUnicode map, a scanned page or a picture make the file *needs review* (the
batch CLI holds it back unless ``--allow-unreadable``; the report names the pages). PDFs built with fpdf2.
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF
from PIL import Image, ImageDraw

from tests.fixtures.raw_pdf import raw_pdf
from tests.fixtures.tiny_model import build_tiny_model
from veil_desktop.cli import main
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.documents import export_document, open_document
from veil_desktop.masking import Masker

FONT = Path(__file__).resolve().parent.parent / "resources" / "fonts" / "NanumGothic.ttf"


@pytest.fixture(autouse=True)
def _no_ocr(request, monkeypatch):
    """These tests check what the PDF reader itself recognises as unreadable; with OCR available such a
    page is read by OCR instead (tests/test_ocr*.py) — one test below checks that hand-over explicitly."""
    if not request.node.name.startswith("test_with_ocr"):
        from veil_desktop.documents import pdf as pdf_mod

        monkeypatch.setattr(pdf_mod, "_ocr_available", lambda: False)
RRN, EMAIL, ACCOUNT = "900101-1234568", "hong@example.com", "110-234-567890"


def spaced_pdf(path: Path, gap: float, values=(RRN, EMAIL, ACCOUNT)) -> Path:
    """Each glyph of each value placed on its own, ``gap`` mm apart (pdfium then extracts them with
    generated spaces — or, far apart, generated line breaks — between the glyphs)."""
    pdf = FPDF()
    pdf.add_font("K", "", str(FONT))
    pdf.add_page()
    pdf.set_font("K", size=12)
    y = 30
    pdf.text(20, 20, "담당자 확인서 (아래 값은 자간을 넓힌 글자)")
    for v in values:
        pdf.text(15, y, {RRN: "주민번호", EMAIL: "메일", ACCOUNT: "계좌번호"}.get(v, "값"))
        x = 40.0
        for ch in v:
            pdf.text(x, y, ch)
            x += pdf.get_string_width(ch) + gap
        y += 14
    pdf.text(20, y, "끝 문장입니다")
    pdf.output(str(path))
    return path


def lying_pdf(path: Path, lie: bool = True) -> Path:
    """'계좌 34567' drawn with glyphs 3,4,5 whose ToUnicode entries say 'a', 'd', '1' (a lying map)."""
    pdf = FPDF()
    pdf.set_compression(False)
    pdf.add_font("K", "", str(FONT))
    pdf.add_page()
    pdf.set_font("K", size=14)
    pdf.cell(0, 12, "Code 34567 홍길동", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    data = path.read_bytes()
    if lie:
        for glyph, claim in ((b"0033", b"0061"), (b"0034", b"0064"), (b"0035", b"0031")):
            i = data.index(b"> <" + glyph + b">")
            data = data[:i] + b"> <" + claim + b">" + data[i + 9:]
        path.write_bytes(data)
    return path


def page_image(path: Path, scale: float = 1.0):
    o = pdfium.PdfDocument(str(path))
    return o[0].render(scale=scale).to_pil().convert("L")


def glyph_boxes(src: Path, text_of_page: str, value: str):
    """Pixel boxes (scale 1) of the glyphs of ``value`` in the source PDF, found through pdfium."""
    pdf = pdfium.PdfDocument(str(src))
    page = pdf[0]
    tp = page.get_textpage()
    h = page.get_height()
    out = []
    chars = [(k, tp.get_text_range(k, 1)) for k in range(tp.count_chars())]
    wanted = list(value)
    for k, c in chars:
        if wanted and c == wanted[0]:
            l, b, r, t = tp.get_charbox(k)
            if r > l:
                out.append((math.floor(l), math.floor(h - t), math.ceil(r), math.ceil(h - b)))
                wanted.pop(0)
    assert not wanted
    return out


def dark(img, box) -> float:
    crop = img.crop(box)
    return sum(crop.histogram()[:60]) / max(1, crop.width * crop.height)


@pytest.mark.parametrize("gap", [2.0, 9.0])
def test_letter_spaced_glyphs_are_rejoined_detected_and_every_glyph_burned(tmp_path, gap):
    src = spaced_pdf(tmp_path / "spaced.pdf", gap)
    # pdfium alone extracts the glyphs with made-up separators between them
    raw = pdfium.PdfDocument(str(src))[0].get_textpage().get_text_range()
    assert RRN not in raw and (("9 0 0 1" in raw) or ("9\r\n0\r\n0" in raw))
    doc = open_document(src)
    for v in (RRN, EMAIL, ACCOUNT):
        assert v in doc.text
    assert doc.unreadable == ()
    spans = RuleDetector().detect(doc.text)
    assert {s.label for s in spans} >= {"RRN", "EMAIL", "ACCOUNT"}
    res = export_document(doc, Masker().plan(doc.text, spans), tmp_path / "out.pdf")
    assert res.leak_check["result"] == "clean"
    img = page_image(tmp_path / "out.pdf")
    for v in (RRN, EMAIL, ACCOUNT):
        boxes = glyph_boxes(src, doc.text, v)
        for box in boxes:
            assert dark(img, box) > 0.95, (v, box)
        # the gaps between letter-spaced glyphs are covered too (one padded box per line)
        a, b = boxes[0], boxes[-1]
        assert dark(img, (a[2] + 1, a[1], b[0] - 1, a[3])) > 0.95
    kept = glyph_boxes(src, doc.text, "끝")
    assert dark(img, kept[0]) < 0.6


def test_honest_pdfs_are_not_flagged(tmp_path):
    from tests.test_documents_pdf import ASCII_LINES, KO_LINES, make_pdf

    for name, font in (("ko.pdf", FONT), ("ascii.pdf", None)):
        src = make_pdf(tmp_path / name, [KO_LINES if font else ASCII_LINES] * 2, font)
        doc = open_document(src)
        assert doc.unreadable == () and not doc.needs_review
    assert open_document(lying_pdf(tmp_path / "honest.pdf", lie=False)).unreadable == ()


def test_lying_tounicode_map_makes_the_page_need_review(tmp_path):
    src = lying_pdf(tmp_path / "lie.pdf")
    doc = open_document(src)
    assert "34567" not in doc.text and "ad167" in doc.text       # the text layer lies ...
    assert [(u.page, u.reason) for u in doc.unreadable] == [(1, "garbled_text")]   # ... and is caught
    assert doc.needs_review and doc.unreadable_pages() == [1]
    assert doc.unreadable[0].caption.startswith("1쪽:") and "page 1" in doc.unreadable[0].caption_en


def test_with_ocr_a_lying_page_is_read_from_its_pixels(tmp_path):
    from veil_desktop.documents import ocr

    doc = open_document(lying_pdf(tmp_path / "lie.pdf"))
    assert "ad167" not in doc.text                  # the lying text layer is never what is reviewed
    if ocr.available():
        assert 0 in doc.extra["pdf_ocr"] and "34567" in doc.text.replace(" ", "")
    else:
        assert [(u.page, u.reason) for u in doc.unreadable] == [(1, "garbled_text")]


def scan_page_pdf(path: Path, with_text: bool) -> Path:
    """A page holding a picture of a name and an RRN (a scan), optionally below a line of real text."""
    img = Image.new("RGB", (900, 200), "white")
    d = ImageDraw.Draw(img)
    d.rectangle([20, 40, 880, 160], outline="black")
    d.text((40, 80), "HONG GILDONG 900101-1234568", fill="black")
    pdf = FPDF()
    pdf.add_font("K", "", str(FONT))
    pdf.add_page()
    if with_text:
        pdf.set_font("K", size=12)
        pdf.cell(0, 10, "첨부: 신분증 사본", new_x="LMARGIN", new_y="NEXT")
    pdf.image(img, x=20, y=40, w=170)
    pdf.add_page()
    pdf.set_font("K", size=12)
    pdf.cell(0, 10, "둘째 쪽은 글자만 있습니다", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


@pytest.mark.parametrize("with_text, reason", [(False, "no_text_layer"), (True, "image")])
def test_scans_and_pictures_need_review(tmp_path, with_text, reason):
    doc = open_document(scan_page_pdf(tmp_path / "scan.pdf", with_text))
    assert [(u.page, u.reason) for u in doc.unreadable] == [(1, reason)]
    res = export_document(doc, [], tmp_path / "o.pdf")
    report = json.loads(res.report.read_text("utf-8"))
    assert report["needs_review"] is True
    assert report["unreadable"] == [{"where": "page 1", "reason": reason, "page": 1}]


def test_batch_holds_back_unreadable_files_unless_allowed(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    scan_page_pdf(src / "a_scan.pdf", False)
    lying_pdf(src / "b_lie.pdf")
    spaced_pdf(src / "c_spaced.pdf", 2.0)
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in src.iterdir()}
    model = build_tiny_model(tmp_path / "m", entities={"홍길동": "PERSON"}, score=0.9)
    out = tmp_path / "out"
    args = ["redact", str(src), "--out", str(out), "--model", str(model), "--threads", "1", "--quiet"]
    assert main(args) == 1
    summary = capsys.readouterr().out
    rows = {line.split()[0].rsplit("/", 1)[-1]: line for line in summary.splitlines() if "/in/" in line}
    assert "REVIEW" in rows["a_scan.pdf"] and "page(s) 1" in rows["a_scan.pdf"] \
        and "--allow-unreadable" in rows["a_scan.pdf"]
    assert "REVIEW" in rows["b_lie.pdf"]
    assert " ok " in rows["c_spaced.pdf"] and "RRN 1" in rows["c_spaced.pdf"]
    assert "1 of 3 file(s) redacted; 2 need(s) review (not exported); 0 failed" in summary
    assert sorted(p.name for p in out.iterdir()) == ["c_spaced.pdf", "c_spaced.pdf.report.json"]

    assert main(args + ["--allow-unreadable"]) == 0
    summary = capsys.readouterr().out
    assert "3 of 3 file(s) redacted" in summary and "exported as is (--allow-unreadable)" in summary
    rep = json.loads((out / "b_lie.pdf.report.json").read_text("utf-8"))
    assert rep["needs_review"] and rep["unreadable"][0]["reason"] == "garbled_text"
    assert json.loads((out / "c_spaced.pdf.report.json").read_text("utf-8"))["needs_review"] is False
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in src.iterdir()} == before


def content_bomb_pdf(path: Path, mb: float, streams: int = 1) -> Path:
    """A PDF whose page content (FlateDecode, ``streams`` streams) draws one glyph over and over:
    ``mb`` MB of content per stream in a few KB (pdfium would build an object per operator)."""
    import zlib

    op = b"BT /F1 12 Tf 10 10 Td (A) Tj ET\n"
    data = zlib.compress(op * int(mb * (1 << 20) / len(op)), 9)
    n_content = list(range(4, 4 + streams))
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 %d 0 R >> >> "
            b"/Contents [%s] >>" % (4 + streams, b" ".join(b"%d 0 R" % i for i in n_content))]
    objs += [b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream"] * streams
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    path.write_bytes(raw_pdf(objs, header=b"%PDF-1.4\n"))
    return path


def test_content_stream_bomb_is_refused_before_pdfium_parses_it(tmp_path, monkeypatch):
    from veil_desktop.documents import DocumentError
    from veil_desktop.documents import pdf as pdf_mod

    monkeypatch.setattr(pdf_mod, "MAX_PDF_CONTENT_STREAM", 1 << 20)
    monkeypatch.setattr(pdf_mod, "MAX_PDF_CONTENT_TOTAL", 3 << 20)
    one = content_bomb_pdf(tmp_path / "one.pdf", 2)
    assert one.stat().st_size < 20_000
    with pytest.raises(DocumentError, match="unpacks to more than 1 MB .*compression bomb"):
        open_document(one)
    many = content_bomb_pdf(tmp_path / "many.pdf", 0.9, streams=4)      # each under, together over
    with pytest.raises(DocumentError, match="page content unpacks to more than 3 MB"):
        open_document(many)
    assert open_document(content_bomb_pdf(tmp_path / "small.pdf", 0.5)).text.count("A") >= 1
    # pictures are allowed what their pixels need: a Flate image of 600x600 RGB passes a 1 MB content cap
    img = Image.effect_noise((600, 600), 64).convert("RGB")
    pdf = FPDF()
    pdf.add_page()
    pdf.image(img, x=10, y=10, w=100)
    pdf.set_font("Helvetica", size=12)
    pdf.text(10, 150, "Photo page")
    pdf.output(str(tmp_path / "photo.pdf"))
    assert b"/FlateDecode" in (tmp_path / "photo.pdf").read_bytes()
    assert "Photo page" in open_document(tmp_path / "photo.pdf").text


def test_glyphs_typed_with_spaces_between_are_rejoined_too(tmp_path):
    pdf = FPDF()
    pdf.add_font("K", "", str(FONT))
    pdf.add_page()
    pdf.set_font("K", size=12)
    for line in ("주민번호 " + " ".join(RRN), "메일 " + " ".join(EMAIL), "신 청 서 를 냅니다 그 후 확인"):
        pdf.cell(0, 10, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(tmp_path / "typed.pdf"))
    doc = open_document(tmp_path / "typed.pdf")
    assert RRN in doc.text and EMAIL in doc.text
    assert "신청서를 냅니다 그 후 확인" in doc.text            # words of two or more glyphs keep their spaces
    spans = RuleDetector().detect(doc.text)
    assert {"RRN", "EMAIL"} <= {s.label for s in spans}
    export_document(doc, Masker().plan(doc.text, spans), tmp_path / "o.pdf")
    img = page_image(tmp_path / "o.pdf")
    for v in (RRN, EMAIL):
        for box in glyph_boxes(tmp_path / "typed.pdf", doc.text, v):
            assert dark(img, box) > 0.95


def multi_claim_pdf(path: Path, text: str, claims: dict[str, str]) -> Path:
    """``text`` drawn in NanumGothic; each glyph of ``claims``' keys says, in ToUnicode, the several letters
    of its value (one glyph for two characters: how a ligature "fi" is written, or a lie)."""
    pdf = FPDF()
    pdf.set_compression(False)
    pdf.add_font("K", "", str(FONT))
    pdf.add_page()
    pdf.set_font("K", size=14)
    pdf.cell(0, 12, text, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    data = path.read_bytes()
    for ch, claim in claims.items():
        glyph = b"%04X" % ord(ch)
        i = data.index(b"> <" + glyph + b">")
        data = data[:i] + b"> <" + "".join(f"{ord(c):04X}" for c in claim).encode() + b">" + data[i + 9:]
    path.write_bytes(data)
    return path


def test_one_glyph_for_two_letters_is_checked_as_a_pair_not_flagged_as_garbled(tmp_path):
    # 'm' claimed as "rn" (the two letters look like the glyph, as a ligature's letters do): honest enough.
    # The letters are drawn elsewhere on the line, so the subset font holds their glyphs to compare with.
    doc = open_document(multi_claim_pdf(tmp_path / "lig.pdf", "Summer memo: run", {"m": "rn"}))
    assert "Surnrner rnerno: run" in doc.text
    assert [u.reason for u in doc.unreadable if u.reason == "garbled_text"] == []


def test_digit_glyphs_claiming_two_letters_each_are_garbled(tmp_path):
    doc = open_document(multi_claim_pdf(tmp_path / "lie2.pdf", "Code 34567 abcdef",
                                        {"3": "ab", "4": "cd", "5": "ef"}))
    assert "abcdef67" in doc.text.replace(" ", "")        # the text layer lies ...
    assert [(u.page, u.reason) for u in doc.unreadable] == [(1, "garbled_text")]   # ... and is caught


def test_with_ocr_digit_glyphs_claiming_two_letters_are_read_from_the_pixels(tmp_path):
    doc = open_document(multi_claim_pdf(tmp_path / "lie3.pdf", "Code 34567 abcdef",
                                        {"3": "ab", "4": "cd", "5": "ef"}))
    assert 0 in doc.extra["pdf_ocr"] and "34567" in doc.text.replace(" ", "")
