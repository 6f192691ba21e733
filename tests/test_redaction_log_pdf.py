"""The printable redaction log (issue 24): ``<output>.redaction-log.pdf`` beside the CSV, written by the export
core whenever the log is on (window setting, ``veil-redact redact --reason/--redaction-log``). Re-read with an
independent reader (pypdfium2's text extraction, not our writer), over more than one page of rows: Korean
labels, reasons and masked forms are there, the original values are not, the header names the document, its
SHA-256, the reviewer and the counts per reason."""
from __future__ import annotations

import csv
import hashlib
import io
import re
import zlib

import pypdfium2 as pdfium

from veil_desktop.cli import main
from veil_desktop.detect.span import Span
from veil_desktop.documents import open_document
from veil_desktop.review.export import PendingPolicy
from veil_desktop.review.export_job import ExportRequest, export_review
from veil_desktop.review.redaction_log_pdf import pdf_log_path_for, redaction_log_pdf
from veil_desktop.review.state import ReviewState, Status

SURNAMES = "김이박최정강조윤장임"
GIVEN = ["민준", "서연", "도윤", "하은", "시우", "지유", "예준", "수아", "주원", "지호", "하린", "건우"]


def _pages_text(data: bytes) -> list[str]:
    pdf = pdfium.PdfDocument(data)
    try:
        out = []
        for i in range(len(pdf)):
            page = pdf[i]
            tp = page.get_textpage()
            # NanumGothic draws U+0020/U+00A0 and U+00B7/U+30FB with one glyph each, and the ToUnicode map
            # PDFium writes names one of them: pdfium extracts U+00A0 and U+30FB; compare on the usual ones
            out.append(tp.get_text_range().replace("\xa0", " ").replace("\u30fb", "\u00b7"))
            tp.close()
            page.close()
        return out
    finally:
        pdf.close()


def _doc_with_many_values(tmp_path, n=70):
    lines, values = [], []
    for i in range(n):
        name = SURNAMES[i % 10] + GIVEN[i % 12]
        phone = f"010-{2000 + i:04d}-{7000 + 3 * i:04d}"
        lines.append(f"{i + 1}. 민원인 {name} 님의 연락처는 {phone} 입니다.")
        values += [(name, "PERSON"), (phone, "PHONE")]
    src = tmp_path / "정보공개_회신.txt"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    doc = open_document(src)
    st = ReviewState(doc.text, threshold=0.5)
    pos = 0
    for value, label in values:
        a = doc.text.index(value, pos)
        pos = a + len(value)
        st.add_detected([Span(a, a + len(value), label, 0.9)], Status.ACCEPTED)
    return src, doc, st, values


def test_export_writes_a_multi_page_pdf_log_with_the_csv_rows_and_no_values(tmp_path):
    src, doc, st, values = _doc_with_many_values(tmp_path)
    org_line = next(it for it in st if it.label == "PERSON")
    st.set_reason([org_line.id], "기타: 협상 진행 중인 계약 상대방의 담당자로서 공개 시 협상에 지장이 큰 정보")
    out = tmp_path / "out" / "회신.masked.txt"
    out.parent.mkdir()
    export_review(doc, st, ExportRequest(out, {"PERSON": "pseudonym"}, "tag", PendingPolicy.BLOCK,
                                         reasons={"PHONE": "6"}, redaction_log=True, reviewer="박검토"))
    csv_rows = list(csv.reader(io.StringIO(
        (out.parent / "회신.masked.txt.redaction-log.csv").read_bytes().decode("utf-8-sig"))))[1:]
    log = pdf_log_path_for(out)
    assert log.name == "회신.masked.txt.redaction-log.pdf" and log.is_file()
    data = log.read_bytes()
    assert data.startswith(b"%PDF-")
    pages = _pages_text(data)
    assert len(pages) > 1 and len(csv_rows) == 140
    text = "\n".join(pages)
    # the header: document, its SHA-256, reviewer, counts per reason
    assert "비공개 처리 내역" in pages[0] and "정보공개_회신.txt" in pages[0]
    assert hashlib.sha256(src.read_bytes()).hexdigest() in pages[0] and "박검토" in pages[0]
    assert "6호  139건" in pages[0] and "기타  1건" in pages[0] and "140건" in pages[0]
    # the table header repeats on every page, and every page is numbered
    for i, p in enumerate(pages, 1):
        assert "번호" in p and "가림 표시" in p and "비공개 사유" in p
        assert f"{i} / {len(pages)}쪽" in p
    # every CSV row is a row of the PDF: its number, label, reason and masked form, in order
    flat = " ".join(text.split())
    pos = 0
    for row in csv_rows:
        no, label, masked = row[0], row[4], row[7]
        reason = "제9조제1항제6호" if row[5] == "6호" else "기타:"
        hit = flat.find(f"{no} ", pos)
        assert hit >= 0, row
        for piece in (label, reason, masked):
            k = flat.find(piece, hit)
            assert k >= 0, (row, piece)
        pos = hit
    assert {r[7] for r in csv_rows if r[4] == "인명"} >= {"인물1", "인물12"}      # pseudonyms, numbered
    assert "협상 진행 중인 계약" in flat                                              # the wrapped 기타 reason
    # never the original values: not in the extracted text, nor in any (inflated) stream of the file
    streams = b"".join(zlib.decompress(m.group(1)) for m in
                       re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S) if m.group(1)[:1] == b"x")
    for value, _label in values:
        assert value not in text
        assert value.encode("utf-8") not in data and value.encode("utf-16-be") not in streams
    assert not any(v.split("-")[-1] in flat for v, label in values if label == "PHONE")


def test_the_log_pdf_renders_korean_with_the_embedded_font(tmp_path):
    rows = [{"where": "1쪽", "label": "PERSON", "reason": "6", "masked": "[인명]"}]
    data = redaction_log_pdf(rows, document_name="가.pdf", document_sha256="0" * 64, reviewer="검토자",
                             date="2026-12-02 10:00")
    assert b"/FontFile2" in data and b"NanumGothic" in data and b"/ToUnicode" in data
    pdf = pdfium.PdfDocument(data)
    page = pdf[0]
    img = page.render(scale=2).to_pil().convert("L")
    page.close()
    pdf.close()
    assert img.size == (1190, 1684)              # A4
    # the title (16 pt Hangul at the top left) is drawn in ink, not tofu boxes or nothing
    title = img.crop((80, 80, 400, 125))
    dark = sum(1 for v in title.tobytes() if v < 100)
    assert dark > 800


def test_english_log_and_rows_without_a_reason(tmp_path):
    rows = [{"where": "Body", "label": "PHONE", "reason": None, "masked": "[PHONE]"},
            {"where": "Body", "label": "ORGANIZATION", "reason": "7", "masked": "[ORG]"}]
    text = "\n".join(_pages_text(redaction_log_pdf(rows, document_name="a.docx", document_sha256="ab" * 32,
                                                   lang="en")))
    assert "Redaction log" in text and "Art. 9(1) item 7" in text and "no reason  1" in text
    assert "Masked as" in text and "[PHONE]" in text and "page 1 of 1" in text


def test_cli_redaction_log_writes_the_pdf_too_and_a_rerun_skips_it(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "memo.txt").write_text("연락처 010-2345-6789, 주민등록번호 900101-1234568\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["redact", str(src / "memo.txt"), "--out", str(out), "--redaction-log", "--quiet",
                 "--threads", "1"]) == 0
    assert (out / "memo.txt.redaction-log.csv").is_file()
    text = "\n".join(_pages_text((out / "memo.txt.redaction-log.pdf").read_bytes()))
    assert "memo.txt" in text and "제9조제1항제6호" in text and "전화번호" in text and "주민등록번호" in text
    assert "010-2345-6789" not in text and "1234568" not in text
    assert main(["redact", str(out), "--out", str(tmp_path / "again"), "--quiet", "--threads", "1"]) in (0, 2)
    assert not any(p.name.startswith("memo.txt.redaction-log.pdf") for p in (tmp_path / "again").rglob("*"))


def test_the_window_setting_writes_the_pdf_log_beside_the_csv(qtbot, make_window, doc, tmp_path):
    from dataclasses import replace
    from pathlib import Path

    from tests.ui_helpers import open_and_detect

    w = make_window()
    assert open_and_detect(qtbot, w, doc) is False
    w.state.set_status([it.id for it in w.state], Status.ACCEPTED)
    values = {w.state.value(it) for it in w.state}
    w.settings = replace(w.settings, redaction_log=True, reviewer="이검토")
    out = tmp_path / "out" / "masked.txt"
    out.parent.mkdir()
    with qtbot.waitSignal(w.exportFinished, timeout=30000) as blocker:
        w.export_to(out, styles={}, default_style="tag", policy="block", overwrite=True)
    assert blocker.args == [str(out)], w.last_error
    rows = list(csv.reader(io.StringIO(Path(str(out) + ".redaction-log.csv").read_bytes().decode("utf-8-sig"))))
    text = " ".join("\n".join(_pages_text(Path(str(out) + ".redaction-log.pdf").read_bytes())).split())
    assert "이검토" in text and doc.name in text and f"{len(rows) - 1}건" in text and len(rows) > 3
    for row in rows[1:]:
        assert row[4] in text and row[7] in text
    assert not [v for v in values if len(v) >= 2 and v in text]
