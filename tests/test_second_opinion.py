"""The second opinion (issue 26): detection runs again over every text view of the OUTPUT, so a value the
review missed — which the fail-closed leak check, looking only for masked values, cannot see — is caught:
in a place no reader sees it fails closed (needs review, naming the place), in visible text it is listed as
a possible miss. Ordinary files raise nothing (no false alarm from a package's own structure)."""
from __future__ import annotations

import json
import zipfile

import docx as python_docx
import pytest

from veil_desktop.detect.default import build_default_detector
from veil_desktop.documents import LeakDetected, open_document
from veil_desktop.documents.second_opinion import text_views
from veil_desktop.review.export import PendingPolicy
from veil_desktop.review.export_job import ExportRequest, export_review
from veil_desktop.review.state import ReviewState


@pytest.fixture(scope="module")
def detector():
    return build_default_detector(threads=1)          # the embedded default detector users get


def _export(src, out, detector):
    doc = open_document(src)
    state = ReviewState(doc.text, threshold=0.5)       # a review that missed everything
    return export_review(doc, state, ExportRequest(out, {}, "tag", PendingPolicy.BLOCK,
                                                   second_opinion=detector.detect))


def test_a_missed_number_in_document_properties_fails_closed(tmp_path, detector):
    d = python_docx.Document()
    d.add_paragraph("민원 회신 문서입니다. 담당 부서에서 처리합니다.")
    d.core_properties.subject = "연락처 010-2345-6789"
    d.save(tmp_path / "a.docx")
    out = tmp_path / "out.docx"
    with pytest.raises(LeakDetected, match=r"PHONE in docProps/core\.xml"):
        _export(tmp_path / "a.docx", out, detector)
    assert not out.exists() and not (tmp_path / "out.docx.report.json").exists()


def test_a_digit_run_without_separators_in_custom_xml_fails_closed(tmp_path, detector):
    d = python_docx.Document()
    d.add_paragraph("평범한 본문입니다.")
    d.save(tmp_path / "b.docx")
    # a custom XML part the reader does not know as text holding an RRN without separators
    with zipfile.ZipFile(tmp_path / "b.docx", "a") as z:
        z.writestr("customXml/item9.xml", "<data><v>9001011234568</v></data>")
    views = {v.place: v for v in text_views((tmp_path / "b.docx").read_bytes(), "zip")}
    assert "9001011234568" in views["customXml/item9.xml"].text and not views["customXml/item9.xml"].visible
    out = tmp_path / "out.docx"
    try:
        _export(tmp_path / "b.docx", out, detector)
    except LeakDetected as e:
        assert "customXml/item9.xml" in str(e)
    else:            # the reader reviewed the part and the export masked or removed the value
        with zipfile.ZipFile(out) as z:
            assert all(b"9001011234568" not in z.read(n) for n in z.namelist())


def test_a_visible_miss_is_listed_and_the_export_goes_ahead(tmp_path, detector):
    src = tmp_path / "memo.txt"
    src.write_text("담당자 김민준 주무관에게 문의하세요. 연락처 010-2345-6789\n", encoding="utf-8")
    out = tmp_path / "out.txt"
    _export(src, out, detector)
    report = json.loads((tmp_path / "out.txt.report.json").read_text("utf-8"))
    op = report["second_opinion"]
    assert op["result"] == "possible_misses" and not op["blocking"]
    assert {m["label"] for m in op["possible_misses"]} >= {"PERSON", "PHONE"}
    assert all(set(m) == {"place", "label", "score"} for m in op["possible_misses"])     # never the value
    assert "김민준" not in json.dumps(report, ensure_ascii=False)


def test_ordinary_files_raise_nothing(tmp_path, detector):
    d = python_docx.Document()
    d.add_heading("회의 안내", 1)
    d.add_paragraph("첨부된 PDF 파일과 HWP 문서를 확인하세요. 회의는 다음 주 화요일 10시입니다.")
    t = d.add_table(rows=2, cols=2)
    t.cell(0, 0).text, t.cell(1, 1).text = "항목", "2024년 예산 1,250,000원"
    d.save(tmp_path / "plain.docx")
    out = tmp_path / "out.docx"
    res = _export(tmp_path / "plain.docx", out, detector)
    report = json.loads(res.report.read_text("utf-8"))
    assert report["second_opinion"]["blocking"] == [] and out.exists()
