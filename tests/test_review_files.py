"""A second reviewer (issue 24): review files exported, imported on another machine, merged with conflicts
resolved item by item — the merged review reproduces the same export byte for byte; values travel only as
salted hashes. XFDF for PDFs: one redact annotation per masked item, read back onto the same words."""
from __future__ import annotations

import json
import shutil

import pytest
from lxml import etree

from tests.test_documents_pdf import KO_LINES, KO_PII, REPO_FONT, make_pdf
from veil_desktop.detect.span import Span
from veil_desktop.documents import open_document
from veil_desktop.documents.xfdf import NS
from veil_desktop.review.export import PendingPolicy
from veil_desktop.review.export_job import ExportRequest, export_review
from veil_desktop.review.review_file import (ReviewFileError, apply_entries, export_review_file, export_xfdf,
                                             import_xfdf, load_review_file, merge)
from veil_desktop.review.state import ReviewState, Status

TEXT = ("담당자 김민준 주무관, 연락처 010-2345-6789.\n민원인 이서연 (900101-2345678), 한빛상사 방문.\n"
        "회신은 김민준에게.\n")
VALUES = [("김민준", "PERSON"), ("010-2345-6789", "PHONE"), ("이서연", "PERSON"), ("900101-2345678", "RRN"),
          ("한빛상사", "ORGANIZATION")]


def _detected(text):
    st = ReviewState(text, threshold=0.5)
    spans = []
    for value, label in VALUES:
        pos = 0
        while (a := text.find(value, pos)) >= 0:
            spans.append(Span(a, a + len(value), label, 0.9))
            pos = a + 1
    st.add_detected(spans)
    return st


def _export(doc, st, out):
    res = export_review(doc, st, ExportRequest(out, {}, "tag", PendingPolicy.REJECT))
    return out.read_bytes(), res


def test_review_exported_imported_and_merged_reproduces_the_export(tmp_path):
    a_dir, b_dir = tmp_path / "pc_a", tmp_path / "pc_b"
    a_dir.mkdir(), b_dir.mkdir()
    (a_dir / "민원.txt").write_text(TEXT, encoding="utf-8")
    shutil.copy(a_dir / "민원.txt", b_dir / "민원.txt")            # the same document on another PC

    # reviewer A: accepts everything but the organisation, gives the RRN reason 6
    doc_a = open_document(a_dir / "민원.txt")
    st_a = _detected(doc_a.text)
    st_a.set_status([it.id for it in st_a if it.label != "ORGANIZATION"], Status.ACCEPTED)
    st_a.set_status([it.id for it in st_a if it.label == "ORGANIZATION"], Status.REJECTED)
    expected, _ = _export(doc_a, st_a, a_dir / "out.txt")
    review_a = export_review_file(st_a, a_dir / "민원.txt.veil-review.json", "검토자A")
    raw = review_a.read_text("utf-8")
    for value, _ in VALUES:
        assert value not in raw                                   # values only as salted hashes
    # reviewer B on PC B: imports A's review, changes two decisions
    doc_b = open_document(b_dir / "민원.txt")
    st_b = ReviewState(doc_b.text, threshold=0.5)
    apply_entries(st_b, load_review_file(review_a, doc_b.text).entries)
    phone = next(it for it in st_b if it.label == "PHONE")
    org = next(it for it in st_b if it.label == "ORGANIZATION")
    st_b.set_status([phone.id], Status.REJECTED)
    st_b.set_status([org.id], Status.ACCEPTED)
    review_b = export_review_file(st_b, b_dir / "b.veil-review.json", "검토자B")

    # back on PC A: merge, conflicts listed side by side and resolved one by one
    m = merge(load_review_file(review_a, doc_a.text), load_review_file(review_b, doc_a.text))
    assert sorted((c.a.label, c.a.decision, c.b.decision) for c in m.conflicts) == [
        ("ORGANIZATION", "rejected", "accepted"), ("PHONE", "accepted", "rejected")]
    assert len(m.agreed) == len(st_a) - 2 and not m.only_a and not m.only_b
    with pytest.raises(ReviewFileError):
        m.resolved(["a"])                                         # every conflict needs a choice
    choice = ["a" if c.a.label == "PHONE" else "b" for c in m.conflicts]
    st_m = ReviewState(doc_a.text, threshold=0.5)
    apply_entries(st_m, m.resolved(choice))
    merged, _ = _export(doc_a, st_m, a_dir / "merged.txt")
    assert "한빛상사" not in merged.decode("utf-8") and "010-2345-6789" not in merged.decode("utf-8")
    # choosing A's side everywhere reproduces A's export byte for byte
    st_same = ReviewState(doc_a.text, threshold=0.5)
    apply_entries(st_same, m.resolved(["a"] * len(m.conflicts)))
    same, _ = _export(doc_a, st_same, a_dir / "again.txt")
    assert same == expected


def test_a_review_for_another_document_or_a_changed_value_is_refused(tmp_path):
    st = _detected(TEXT)
    st.set_status([it.id for it in st], Status.ACCEPTED)
    f = export_review_file(st, tmp_path / "r.veil-review.json", "A")
    with pytest.raises(ReviewFileError, match="another document"):
        load_review_file(f, TEXT + "추가 문장.\n")
    data = json.loads(f.read_text("utf-8"))
    data["items"][0]["end"] += 1                                  # points at other characters now
    f.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReviewFileError, match="does not match"):
        load_review_file(f, TEXT)


def test_xfdf_lists_one_redaction_per_masked_item_on_its_words(tmp_path):
    src = make_pdf(tmp_path / "doc.pdf", [KO_LINES, ["두 번째 쪽: 홍길동 확인"]], font=REPO_FONT, meta=False)
    doc = open_document(src)
    st = ReviewState(doc.text, threshold=0.5)
    spans = []
    for value, label in KO_PII.items():
        pos = 0
        while (a := doc.text.find(value, pos)) >= 0:
            spans.append(Span(a, a + len(value), label, 0.9))
            pos = a + 1
    st.add_detected(spans, Status.ACCEPTED)
    out = tmp_path / "doc.xfdf"
    n = export_xfdf(doc, st, out, reviewer="검토자A")
    root = etree.parse(str(out)).getroot()
    redacts = root.findall(f"{{{NS}}}annots/{{{NS}}}redact")
    assert n == len(redacts) == len(st) == 4                      # 홍길동 twice (two pages), phone, address
    assert sorted(int(r.get("page")) for r in redacts) == [0, 0, 0, 1]
    assert {r.get("subject") for r in redacts} == {"veil:PERSON", "veil:PHONE", "veil:ADDRESS"}
    assert all(r.get("overlay-text") == "(6호)" for r in redacts)
    for r in redacts:
        x0, y0, x1, y1 = map(float, r.get("rect").split(","))
        assert 0 < x0 < x1 and 0 < y0 < y1 and len(r.get("coords").split(",")) % 8 == 0
    assert "홍길동" not in out.read_text("utf-8")
    # read back (as from Acrobat): the same spans as accepted items in a fresh review
    fresh = ReviewState(doc.text, threshold=0.5)
    import_xfdf(doc, fresh, out)
    assert sorted((it.start, it.end) for it in fresh) == sorted((s.start, s.end) for s in spans)
