"""Issue 26, class 6: false alarms of the fail-closed leak check. An English word or acronym tagged and
masked (``PDF``, ``HWP``, ``Even``, ``Ones``) must not be "found" in the output's own format bytes (the
``%PDF`` header, PDF names/keywords, XML element/attribute names, MIME types, enumerated attribute values,
standard ZIP part names, the tool's own captions) — and a real copy of the value in text, an attribute
value, a comment or metadata must still be caught."""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import docx
import pypdfium2 as pdfium
import pytest

from tests.fixtures.leak_builders import W_NS, hp, make_docx, make_hwpx, para, redact
from tests.fixtures.raw_pdf import raw_pdf
from tests.test_documents_pdf import REPO_FONT, dark_fraction, make_pdf
from veil_desktop.documents import leakcheck
from veil_desktop.documents.matching import ValueMatcher

SENTENCE = "첨부된 PDF 파일"


def _sources(tmp_path: Path, second: str = "HWP 문서와 Even Ones 목록") -> dict[str, Path]:
    txt = tmp_path / "a.txt"
    txt.write_text(f"{SENTENCE}\n{second}\n", encoding="utf-8")
    return {
        "docx": make_docx(tmp_path / "a.docx", para(SENTENCE) + para(second)),
        "hwpx": make_hwpx(tmp_path / "a.hwpx", hp(SENTENCE) + hp(second)),
        "pdf": make_pdf(tmp_path / "a.pdf", [[SENTENCE, second]], font=REPO_FONT, meta=False),
        "txt": txt,
    }


def _pdf_ink(src: Path, out: Path, word: str) -> float:
    """How dark the output's pixels are where ``word`` was drawn in the source (a PDF export is a
    rasterised copy without a text layer)."""
    s, o = pdfium.PdfDocument(str(src)), pdfium.PdfDocument(str(out))
    page, tp = s[0], s[0].get_textpage()
    assert o[0].get_textpage().count_chars() == 0
    text = tp.get_text_range()
    img = o[0].render(scale=1).to_pil()
    sx, h = img.width / page.get_width(), page.get_height()
    k = text.index(word)
    boxes = [tp.get_charbox(j) for j in range(k, k + len(word))]
    box = (int(min(b[0] for b in boxes) * sx) + 1, int((h - max(b[3] for b in boxes)) * sx) + 1,
           int(max(b[2] for b in boxes) * sx) - 1, int((h - min(b[1] for b in boxes)) * sx) - 1)
    return dark_fraction(img, box)


def _visible_text(path: Path) -> str:
    """The text a recipient reads in the output (re-read by the test, not by the leak check)."""
    if path.suffix in (".docx", ".hwpx"):
        with zipfile.ZipFile(path) as z:
            name = "word/document.xml" if path.suffix == ".docx" else "Contents/section0.xml"
            return re.sub(r"<[^>]+>", "", z.read(name).decode("utf-8"))
    return path.read_text("utf-8")


@pytest.mark.parametrize("fmt", ["docx", "hwpx", "pdf", "txt"])
@pytest.mark.parametrize("word", ["PDF", "HWP", "Even", "Ones"])
def test_a_masked_english_word_exports_cleanly(tmp_path, fmt, word):
    src = _sources(tmp_path)[fmt]
    out = tmp_path / f"out.{fmt}"
    _doc, res = redact(src, out, {word: "ORGANIZATION"})
    assert res.leak_check["result"] == "clean" and res.leak_check["values_checked"] == 1
    if fmt == "pdf":
        assert out.read_bytes().startswith(b"%PDF-")   # the header the old check "found"
        assert _pdf_ink(src, out, word) > 0.95 and _pdf_ink(src, out, "첨부된") < 0.5   # masked, kept
        return
    text = _visible_text(out)
    assert "첨부된" in text and "파일" in text           # the sentence is still there ...
    assert not re.search(rf"(?<![A-Za-z]){word}(?![A-Za-z])", text, re.I), text   # ... the word masked
    if fmt == "hwpx":
        with zipfile.ZipFile(out) as z:
            assert z.read("mimetype") == b"application/hwp+zip"


def test_even_page_headers_and_enumerations_are_not_a_copy_of_even(tmp_path):
    d = docx.Document()
    d.settings.odd_and_even_pages_header_footer = True
    sec = d.sections[0]
    sec.even_page_header.paragraphs[0].text = "짝수 쪽 머리글"
    sec.header.paragraphs[0].text = "머리글"
    d.add_paragraph("Even 이라는 단어가 들어간 본문")
    src = tmp_path / "even.docx"
    d.save(str(src))
    with zipfile.ZipFile(src) as z:
        assert b'w:type="even"' in z.read("word/document.xml")   # the enumeration is in the file
    _doc, res = redact(src, tmp_path / "out.docx", {"Even": "ORGANIZATION"})
    assert res.leak_check["result"] == "clean"
    with zipfile.ZipFile(tmp_path / "out.docx") as z:
        body = z.read("word/document.xml").decode()
    assert 'w:type="even"' in body and "Even 이라는" not in body


# -- real copies are still found ------------------------------------------------------------------
def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in members.items():
            z.writestr(n, b)
    return buf.getvalue()


def _wxml(inner: str) -> bytes:
    return (f'<?xml version="1.0"?><w:document xmlns:w="{W_NS}"><w:body>{inner}</w:body>'
            f'</w:document>').encode()


CLEAN_DOCX = {
    "[Content_Types].xml": b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/'
                           b'2006/content-types"><Default Extension="pdf" ContentType="application/pdf"/>'
                           b'</Types>',
    "word/document.xml": _wxml('<w:sectPr><w:headerReference w:type="even"/></w:sectPr>'
                               + para("첨부된 [ORGANIZATION] 파일")),
    "word/media/image1.png": b"\x89PNG\r\n\x1a\n",
}
HIDDEN = [
    ("body text", "word/document.xml", _wxml(para(SENTENCE))),
    ("attribute value", "word/settings.xml",
     f'<w:settings xmlns:w="{W_NS}"><w:docVars><w:docVar w:name="x" w:val="PDF"/></w:docVars>'
     f'</w:settings>'.encode()),
    ("enumerated attribute holding a sentence", "word/document.xml",
     _wxml('<w:sectPr><w:headerReference w:type="see PDF"/></w:sectPr>')),
    ("metadata", "docProps/core.xml",
     b'<cp:coreProperties xmlns:cp="x" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>PDF</dc:title>'
     b'</cp:coreProperties>'),
    ("comment", "word/document.xml", _wxml("<!-- PDF -->")),
    ("non-standard member name", "word/media/PDF.png", b"\x89PNG\r\n\x1a\n"),
]


def test_format_bytes_of_a_zip_are_not_hits():
    rep = leakcheck.check_zip_bytes(_zip(CLEAN_DOCX), ValueMatcher(["PDF", "Even"]))
    assert rep.clean, rep.hits
    hwpx = _zip({"mimetype": b"application/hwp+zip", "Contents/section0.xml": b"<a/>",
                 "Preview/PrvText.txt": "본문".encode()})
    assert leakcheck.check_zip_bytes(hwpx, ValueMatcher(["HWP", "Contents", "Preview"])).clean


@pytest.mark.parametrize("case", HIDDEN, ids=[c[0] for c in HIDDEN])
def test_a_real_copy_in_text_attribute_metadata_comment_or_name_is_still_found(case):
    _id, name, data = case
    rep = leakcheck.check_zip_bytes(_zip({**CLEAN_DOCX, name: data}), ValueMatcher(["PDF"]))
    assert not rep.clean


def _pdf(objects: list[bytes]) -> bytes:
    return raw_pdf(objects, header=b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", trailer=b" /Info 4 0 R")


def _pdf_with(info: bytes, content: bytes = b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET") -> bytes:
    return _pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                 b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                 b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
                 b"/Resources << /ProcSet [/PDF /Text] /Font << /F1 << /Type /Font /Subtype /Type1 "
                 b"/BaseFont /Helvetica >> >> >> >>",
                 b"<< " + info + b" >>",
                 b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"])


def test_pdf_syntax_is_not_a_hit_but_strings_metadata_and_escaped_names_are():
    m = ValueMatcher(["PDF", "Text", "Font", "010-2345-6789"])
    clean = _pdf_with(b"/Producer (veil)")
    assert b"%PDF-1.7" in clean and b"/ProcSet [/PDF /Text]" in clean
    rep = leakcheck.check_pdf_bytes(clean, m)
    assert rep.clean, rep.hits
    for leaky in (_pdf_with(b"/Title (PDF report)"),                  # metadata string
                  _pdf_with(b"/Title <FEFF005000440046>"),             # UTF-16 hex string: "PDF"
                  _pdf_with(b"/Keywords (010 2345 6789)"),              # a phone, spaced
                  _pdf_with(b"/X /#50#44#46"),                          # an escaped name spells PDF
                  _pdf_with(b"/Producer (veil)", b"BT /F1 12 Tf 72 700 Td (see PDF) Tj ET"),  # page text
                  _pdf_with(b"/Producer (veil)") + b"%PDF copy in a comment\n"):
        assert not leakcheck.check_pdf_bytes(leaky, m).clean


def test_pdf_syntax_view_keeps_values_drops_syntax():
    v = leakcheck.pdf_syntax_view(b"%PDF-1.7\n1 0 obj << /Type /Catalog /ProcSet [/PDF /Text] "
                                  b"/Title (\\350\\271\\200 PDF) /N 01023456789 >> endobj 12 0 R 1234 5678 Td")
    assert "%PDF" not in v and "Catalog" not in v and "endobj" not in v and "Td" not in v
    assert "PDF" in v and "01023456789" in v
    assert ValueMatcher(["1234-5678"]).search(v) is None     # coordinates never join into a value
    assert ValueMatcher(["010-2345-6789"]).search(leakcheck.pdf_syntax_view(b"(010-2345-6789)"))


def test_the_tools_own_captions_are_not_hits_in_a_text_output():
    m = ValueMatcher(["Page", "Header", "Comment", "박지성"])
    ok = "── 1쪽 ──\n본문\n── Header 1 ──\n머리글\n[Alt text] 그림 설명\n".encode()
    assert leakcheck.check_text_bytes(ok, m).clean
    assert not leakcheck.check_text_bytes("[Comment 박지성] 확인\n".encode(), m).clean  # the detail is text
    assert not leakcheck.check_text_bytes("Header 머리글에 이름\n".encode(), m).clean   # not a caption


def test_short_latin_words_match_as_whole_words_only():
    m = ValueMatcher(["PDF", "Kim", "Report", "김민수", "010-2345-6789", "hong@example.com"])
    assert m.search(SENTENCE) is not None and m.search("PDF를 보냄") is not None
    assert m.search("ＰＤＦ 파일") is not None                   # full-width is still the word
    for text in ("P-D-F", "P D F", "K i m", "Re port", "PDFs", "Kimberly", "myReport"):
        assert m.search(text) is None, text
    assert m.search("김 민 수") is not None and m.search("010 2345 6789") is not None   # unchanged
    assert m.search("HONG@EXAMPLE.COM") is not None


def test_captions_are_not_hits_in_a_text_output_holding_markup():
    m = ValueMatcher(["Header"])
    assert leakcheck.check_text_bytes("── Header 1 ──\n<b>머리글</b>\n".encode(), m).clean
    assert not leakcheck.check_text_bytes("── Header 1 ──\n<b>Header</b>\n".encode(), m).clean
