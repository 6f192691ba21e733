"""Review core without Qt: decisions, undo/redo, propagation, threshold, manual spans, export selection."""
import pytest

from veil_desktop.detect.span import Span
from veil_desktop.masking import MaskStyle
from veil_desktop.review import (PendingPolicy, PendingSpansError, ReviewState, StateListener, Status,
                                 build_plan, spans_to_mask)
from veil_desktop.masking import apply_replacements

TEXT = "김민준이 서울에 갔다. 김민준은 한빛에 다닌다. 이서연도 서울에 산다."


def span_of(text, value, label, score=0.9, nth=0, source="model"):
    i = -1
    for _ in range(nth + 1):
        i = text.index(value, i + 1)
    return Span(i, i + len(value), label, score, source)


@pytest.fixture
def state():
    st = ReviewState(TEXT)
    st.add_detected([
        span_of(TEXT, "김민준", "PERSON", 0.95),
        span_of(TEXT, "서울", "ADDRESS", 0.8),
        span_of(TEXT, "김민준", "PERSON", 0.93, nth=1),
        span_of(TEXT, "한빛", "ORGANIZATION", 0.3),
        span_of(TEXT, "이서연", "PERSON", 0.6),
        span_of(TEXT, "서울", "ADDRESS", 0.85, nth=1),
    ])
    return st


class Recorder(StateListener):
    def __init__(self):
        self.events = []

    def rows_about_to_be_inserted(self, first, last):
        self.events.append(("about", first, last))

    def rows_inserted(self, first, last):
        self.events.append(("inserted", first, last))

    def items_changed(self, before, after):
        self.events.append(("changed", tuple(a.id for a in after)))

    def row_removed(self, row, item):
        self.events.append(("removed", row, item.id))


def test_detected_items_are_pending_and_deduplicated(state):
    assert len(state) == 6
    assert all(it.status is Status.PENDING for it in state)
    assert state.add_detected([span_of(TEXT, "김민준", "PERSON", 0.5)]) == []
    assert len(state) == 6
    with pytest.raises(ValueError):
        state.add_detected([Span(0, len(TEXT) + 1, "PERSON")])


def test_set_status_undo_redo(state):
    first = state.item_at_row(0)
    state.set_status([first.id], Status.ACCEPTED)
    assert state.item(first.id).status is Status.ACCEPTED
    assert state.can_undo and not state.can_redo
    state.undo()
    assert state.item(first.id).status is Status.PENDING
    assert state.can_redo
    state.redo()
    assert state.item(first.id).status is Status.ACCEPTED
    # a new decision clears the redo stack
    state.undo()
    state.set_status([first.id], Status.REJECTED)
    assert not state.can_redo
    assert state.item(first.id).status is Status.REJECTED


def test_propagation_decides_every_occurrence_of_same_text_and_label(state):
    kim = state.item_at_row(0)
    state.set_status([kim.id], Status.ACCEPTED, propagate=True)
    persons = [it for it in state if it.label == "PERSON"]
    assert [state.value(it) for it in persons if it.status is Status.ACCEPTED] == ["김민준", "김민준"]
    assert [it.status for it in persons if state.value(it) == "이서연"] == [Status.PENDING]
    state.undo()  # one command -> both reverted
    assert all(it.status is Status.PENDING for it in state)


def test_accept_above_and_threshold(state):
    state.accept_above(0.9)
    accepted = sorted(state.value(it) for it in state if it.status is Status.ACCEPTED)
    assert accepted == ["김민준", "김민준"]
    state.set_threshold(0.7)
    visible = {(state.value(it), it.label) for it in state.visible_items()}
    assert ("한빛", "ORGANIZATION") not in visible and ("이서연", "PERSON") not in visible
    assert state.pending_count() == 2  # the two 서울
    # a decided item stays visible whatever the threshold
    low = next(it for it in state if state.value(it) == "한빛")
    state.set_threshold(0.0)
    state.set_status([low.id], Status.REJECTED)
    state.set_threshold(0.99)
    assert low.id in {it.id for it in state.visible_items()}


def test_manual_span_is_trimmed_accepted_and_undoable(state):
    rec = Recorder()
    state.add_listener(rec)
    i = TEXT.index("갔다")
    item = state.add_manual(i - 1, i + 2, "OTHER")  # leading space trimmed
    assert (item.start, item.end, item.source, item.status) == (i, i + 2, "manual", Status.ACCEPTED)
    assert rec.events[-2:] == [("about", 6, 6), ("inserted", 6, 6)]
    state.undo()
    assert item.id not in state and len(state) == 6
    assert rec.events[-1] == ("removed", 6, item.id)
    state.redo()
    assert state.item(item.id).span == item.span
    with pytest.raises(ValueError):
        state.add_manual(i - 1, i, "PERSON")  # only whitespace


def test_adjust_and_relabel(state):
    seoul = state.item_at_row(1)
    adjusted = state.adjust(seoul.id, seoul.start, seoul.end + 1)
    assert state.value(adjusted) == "서울에" and adjusted.status is Status.ACCEPTED
    assert state.items_at(seoul.end)[0].id == seoul.id
    state.undo()
    assert state.item(seoul.id).span == seoul.span
    assert state.items_at(seoul.end) == []
    rel = state.relabel(seoul.id, "ORGANIZATION")
    assert rel.label == "ORGANIZATION" and state.find(seoul.start, seoul.end, "ADDRESS") is None
    with pytest.raises(ValueError):
        state.adjust(seoul.id, 5, 5)


def test_navigation_wraps_and_skips_decided(state):
    ordered = state.in_text_order()
    nxt = state.next_pending(-1)
    assert nxt.id == ordered[0].id
    state.set_status([ordered[1].id], Status.ACCEPTED)
    assert state.next_pending(ordered[0].start).id == ordered[2].id
    assert state.next_pending(ordered[0].start, forward=False).id == ordered[-1].id  # wraps


def test_overlap_query_matches_brute_force(state):
    for a in range(len(TEXT)):
        for b in range(a + 1, min(len(TEXT), a + 8)):
            want = sorted(it.id for it in state if it.start < b and it.end > a)
            got = sorted(it.id for it in state.items_overlapping(a, b))
            assert got == want


def test_counts_and_reviewed_fraction(state):
    assert state.reviewed_fraction() == 0.0
    state.set_status([it.id for it in state if it.label == "ADDRESS"], Status.REJECTED)
    counts = state.counts()
    assert counts["ADDRESS"][Status.REJECTED] == 2 and counts["PERSON"][Status.PENDING] == 3
    assert state.reviewed_fraction() == pytest.approx(2 / 6)


def test_export_policies(state):
    with pytest.raises(PendingSpansError) as err:
        spans_to_mask(state, PendingPolicy.BLOCK)
    assert err.value.count == 6
    kim = state.item_at_row(0)
    state.set_status([kim.id], Status.ACCEPTED, propagate=True)
    state.set_status([state.item_at_row(1).id], Status.REJECTED)
    as_rejected = apply_replacements(TEXT, build_plan(state, {"PERSON": MaskStyle.PARTIAL}, PendingPolicy.REJECT))
    assert as_rejected == "김**이 서울에 갔다. 김**은 한빛에 다닌다. 이서연도 서울에 산다."
    as_accepted = apply_replacements(TEXT, build_plan(state, {"PERSON": "pseudonym"}, "accept"))
    assert as_accepted == "인물1이 서울에 갔다. 인물1은 [기관]에 다닌다. 인물2도 [주소]에 산다."
    # the threshold hides low pending suggestions from export too — only once the reviewer agreed
    state.set_threshold(0.7)
    with pytest.raises(PendingSpansError) as err:
        build_plan(state, None, "accept")
    assert (err.value.count, err.value.below_threshold) == (0, 2)
    # default tag language: the document's (Korean here), the same default as veil-redact redact
    hidden = apply_replacements(TEXT, build_plan(state, None, "accept", allow_below_threshold=True))
    assert hidden == "[인명]이 서울에 갔다. [인명]은 한빛에 다닌다. 이서연도 [주소]에 산다."
    assert apply_replacements(TEXT, build_plan(state, None, "accept", allow_below_threshold=True,
                                               lang="auto")) == hidden
    english = apply_replacements(TEXT, build_plan(state, None, "accept", allow_below_threshold=True, lang="en"))
    assert english == "[PERSON]이 서울에 갔다. [PERSON]은 한빛에 다닌다. 이서연도 [ADDRESS]에 산다."


def test_threshold_hidden_pending_is_counted_and_blocks(state):
    """Issue 10 item 6: raising the slider must not let a pending suggestion out unmasked, unseen."""
    rrn_text = TEXT + " 주민번호 900101-1234567."
    st = ReviewState(rrn_text)
    a = rrn_text.index("900101")
    st.add_detected([Span(a, a + 14, "RRN", 0.85, "model"), span_of(rrn_text, "김민준", "PERSON", 0.95)])
    st.set_status([st.item_at_row(1).id], Status.ACCEPTED)
    assert st.hidden_pending_count() == 0
    st.set_threshold(0.9)
    assert st.hidden_pending_count() == 1 and st.hidden_counts() == {"RRN": 1}
    assert [it.label for it in st.hidden_pending()] == ["RRN"]
    assert st.pending_count() == 0            # not visible, so not "pending" in the status bar
    for policy in PendingPolicy:              # BLOCK blocks on them; no policy lets them out silently
        with pytest.raises(PendingSpansError) as err:
            spans_to_mask(st, policy)
        assert err.value.below_threshold == 1 and "0.90" in str(err.value)
    # confirmed: the RRN stays in clear, on purpose
    out = apply_replacements(rrn_text, build_plan(st, None, "block", allow_below_threshold=True))
    assert "900101-1234567" in out and out.startswith("[인명]이 서울에")
    # a decided item is never hidden, and a manual span neither
    st.set_status([st.item_at_row(0).id], Status.REJECTED)
    assert st.hidden_pending_count() == 0
    st.add_manual(0, 3, "PERSON")
    st.set_threshold(1.0)
    assert st.hidden_pending_count() == 0


def test_export_summary_counts_and_blockers(state, tmp_path):
    from veil_desktop.documents import open_document
    from veil_desktop.review.summary import DetectionStatus, build_summary

    path = tmp_path / "doc.txt"
    path.write_text(TEXT, encoding="utf-8")
    doc = open_document(path)
    state.set_status([state.item_at_row(0).id], Status.ACCEPTED)
    state.set_status([state.item_at_row(1).id], Status.REJECTED)
    state.add_manual(TEXT.index("이서연"), TEXT.index("이서연") + 3, "PERSON")  # accepts the existing item
    state.add_manual(TEXT.index("다닌다"), TEXT.index("다닌다") + 1, "OTHER")
    state.set_threshold(0.5)   # hides 한빛 (0.3)
    s = build_summary(state, "block", DetectionStatus.CANCELLED, doc)
    by = {r.label: r for r in s.rows}
    assert (by["PERSON"].accepted, by["PERSON"].pending, by["PERSON"].hidden) == (2, 1, 0)
    assert (by["ADDRESS"].rejected, by["ADDRESS"].pending) == (1, 1)
    assert (by["ORGANIZATION"].hidden, by["ORGANIZATION"].pending) == (1, 0)
    assert by["OTHER"].manual == 1 and by["OTHER"].accepted == 1
    assert (s.pending, s.hidden) == (2, 1)
    assert s.blockers() == ["detection", "pending", "below_threshold"]
    assert s.blockers(partial_ok=True, below_threshold_ok=True) == ["pending"]
    accept = build_summary(state, "accept", DetectionStatus.COMPLETE, doc)
    assert accept.blockers() == ["below_threshold"] and accept.blockers(below_threshold_ok=True) == []
    fields = s.report_fields(partial_ok=True)
    assert fields["detection"] == "cancelled" and fields["partial_export"] is True
    assert fields["pending_below_threshold"] == 1
    assert fields["pending_below_threshold_per_label"] == {"ORGANIZATION": 1}
    # "다" (one syllable) is too short for the output's leak check to find again: it says so up front
    assert s.unverifiable == 1
    assert build_summary(state, "block", "complete").report_fields()["partial_export"] is False


def test_summary_reads_unreadable_pages_from_the_document_model():
    from types import SimpleNamespace

    from veil_desktop.review.summary import unreadable_pages

    assert unreadable_pages(SimpleNamespace(extra={"unreadable_pages": [3, 1]})) == (1, 3)
    assert unreadable_pages(SimpleNamespace(extra={})) == ()
    assert unreadable_pages(None) == ()


def test_report_json_carries_the_review_section(state, tmp_path):
    import json

    from veil_desktop.documents import export_document, open_document
    from veil_desktop.review.summary import DetectionStatus, build_summary

    path = tmp_path / "doc.txt"
    path.write_text(TEXT, encoding="utf-8")
    doc = open_document(path)
    state.set_status([it.id for it in state if it.label == "PERSON"], Status.ACCEPTED)
    state.set_threshold(0.82)  # hides 서울 (0.8) and 한빛 (0.3); 서울 (0.85) stays pending
    summary = build_summary(state, "reject", DetectionStatus.FAILED, doc)
    plan = build_plan(state, None, "reject", allow_below_threshold=True)
    res = export_document(doc, plan, tmp_path / "doc.masked.txt", threshold=state.threshold,
                          review=summary.report_fields(partial_ok=True), mask_copies=True)
    report = json.loads(res.report.read_text(encoding="utf-8"))
    assert report["review"]["pending_below_threshold"] == 2
    assert report["review"]["pending_below_threshold_per_label"] == {"ADDRESS": 1, "ORGANIZATION": 1}
    assert report["review"]["detection"] == "failed" and report["review"]["partial_export"] is True
    assert report["review"]["pending_policy"] == "reject"
    assert "김민준" not in res.report.read_text(encoding="utf-8")


def test_summary_unverifiable_agrees_with_the_leak_check_count(tmp_path):
    from veil_desktop.documents import open_document
    from veil_desktop.documents.matching import ValueMatcher, masked_values
    from veil_desktop.review.summary import build_summary

    text = "김 씨와 이 씨, 번호 12-3 그리고 A-B, 김민준, 010-1234-5678, 서울, 가-나, 김.\n"
    path = tmp_path / "s.txt"
    path.write_text(text, encoding="utf-8")
    doc = open_document(path)
    st = ReviewState(doc.text)
    for value in ("김", "이", "12-3", "A-B", "김민준", "010-1234-5678", "서울", "가-나"):
        i = text.index(value)
        st.add_detected([Span(i, i + len(value), "OTHER", 0.9)], status=Status.ACCEPTED)
    plan = build_plan(st, None, "block")
    want = ValueMatcher(masked_values(doc.text, plan, content_of=doc.content_of)).unverifiable
    assert want >= 3   # 김, 이, 12-3 (3 digits), A-B at least
    assert build_summary(st, "block", "complete", doc).unverifiable == want
