"""Duplicates (issue 24): the same page in three PDFs is found, decided once and applied three times; a
repeated paragraph inside one document too; near-identical pages group; the report counts what was
applied by duplication."""
from __future__ import annotations

import json

from tests.test_documents_pdf import REPO_FONT, make_pdf
from veil_desktop.detect.span import Span
from veil_desktop.documents import open_document
from veil_desktop.review.duplicates import apply_to_group, find_duplicates, units_of
from veil_desktop.review.export import PendingPolicy
from veil_desktop.review.export_job import ExportRequest, export_review
from veil_desktop.review.state import ReviewState, Status

PAGE = ["민원 처리 결과 통지서 (공통 첨부)", "담당자 홍길동 주무관 연락처 010-2222-3333",
        "처리 기한은 접수일로부터 10일 이내입니다."]


def _spans(text, values):
    out = []
    for value, label in values:
        pos = 0
        while (a := text.find(value, pos)) >= 0:
            out.append(Span(a, a + len(value), label, 0.9))
            pos = a + 1
    return out


def test_the_same_page_in_three_pdfs_is_decided_once_and_applied_three_times(tmp_path):
    pdfs = [make_pdf(tmp_path / f"d{i}.pdf", [[f"표지 {i}번 문서 고유 내용입니다 - 문서 {i}", "다른 문장 " * 6], PAGE],
                     font=REPO_FONT, meta=False) for i in range(3)]
    docs = [open_document(p) for p in pdfs]
    states = {str(d.path): ReviewState(d.text, threshold=0.5) for d in docs}
    for d in docs:       # the detector suggested the same values on every copy
        states[str(d.path)].add_detected(_spans(d.text, [("홍길동", "PERSON"), ("010-2222-3333", "PHONE")]))
    units = [u for d in docs for u in units_of(str(d.path), d.text, d.parts)]
    groups = find_duplicates(units)
    assert len(groups) == 1 and groups[0].identical
    group = groups[0]
    assert sorted((u.doc, u.index) for u in group.units) == sorted((str(p), 2) for p in pdfs)
    # decide once, on the first document's page 2
    first = next(u for u in group.units if u.doc == str(pdfs[0]))
    st0 = states[first.doc]
    st0.set_status([it.id for it in st0], Status.ACCEPTED)
    applied = apply_to_group(states, group, first)
    assert applied == {str(pdfs[1]): 2, str(pdfs[2]): 2}
    for p in pdfs[1:]:
        st = states[str(p)]
        assert [(it.status, it.via) for it in st] == [(Status.ACCEPTED, "duplicate")] * 2
    # the report says what was applied by duplication; the output holds neither value
    doc2 = docs[2]
    export_review(doc2, states[str(pdfs[2])], ExportRequest(tmp_path / "o2.pdf", {}, "tag", PendingPolicy.BLOCK))
    report = json.loads((tmp_path / "o2.pdf.report.json").read_text("utf-8"))
    assert report["review"]["applied_by_duplication"] == 2
    assert {d["via"] for d in report["decisions"]} == {"duplicate"}


def test_repeated_paragraphs_and_near_identical_units():
    para = "본 민원에 대한 회신은 담당자 김민준 주무관(010-2345-6789)이 처리하며 문의는 평일에 가능합니다."
    text = f"{para}\n\n중간 문단은 서로 다릅니다 그리고 충분히 길어야 단위가 됩니다 정말로요.\n\n{para}\n"
    units = units_of("memo", text)
    groups = find_duplicates(units)
    assert len(groups) == 1 and [u.index for u in groups[0].units] == [1, 3]
    st = ReviewState(text, threshold=0.5)
    st.add_detected(_spans(text, [("김민준", "PERSON"), ("010-2345-6789", "PHONE")]))
    first = groups[0].units[0]
    st.set_status([it.id for it in st if it.start < first.end], Status.ACCEPTED)
    apply_to_group({"memo": st}, groups[0], first)
    assert all(it.status is Status.ACCEPTED for it in st) and len(st) == 4
    # one word changed: near-identical, not identical
    other = para.replace("평일에", "주중에")
    near = find_duplicates(units_of("a", para) + units_of("b", other))
    assert len(near) == 1 and not near[0].identical
    assert find_duplicates(units_of("a", para) + units_of("b", "전혀 다른 내용의 문단으로 비슷한 글자가 거의 없습니다 확인용 문장")) == []
