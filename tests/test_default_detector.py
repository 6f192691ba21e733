"""The default detector: model + rules, merged, streamed faithfully.

Two kinds of model here:
- a *scripted* Detector (yields exactly the batches a test wants) to pin down the streaming rules
  (what is yielded at once, what is held back until the model stream ends);
- real tiny ONNX model folders (``tests/fixtures/tiny_model.py``) through the production ``ModelDetector``.
"""
from pathlib import Path

import pytest

from tests.fixtures.tiny_model import build_tiny_model
from veil_desktop.detect.default import CombinedDetector, build_default_detector
from veil_desktop.detect.engine import ModelDetector
from veil_desktop.detect.events import Progress, SpansFound, never_cancelled
from veil_desktop.detect.merge import merge_spans
from veil_desktop.detect.model_folder import ModelFolderError
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.detect.span import Span, sort_spans


class ScriptedModel:
    """A Detector whose stream yields the given batches of (final, non-overlapping) model spans."""

    id = "scripted"
    labels = ("PERSON", "ADDRESS", "ORGANIZATION")

    def __init__(self, batches):
        self.batches = batches
        self.first_seen = "unset"

    def stream(self, text, *, cancelled=never_cancelled, first=None):
        self.first_seen = first
        yield Progress(0, len(self.batches))
        for i, batch in enumerate(self.batches):
            if cancelled():
                return
            if batch:
                yield SpansFound(tuple(batch))
            yield Progress(i + 1, len(self.batches))

    def detect(self, text):
        return sort_spans(s for b in self.batches for s in b)


TEXT = ("담당자 김철수(010-1234-5678)에게 연락하세요. 주소는 서울특별시 강남구 테헤란로 42길 15-3, 102동 405호이며 "
        "넥스트웨이브 본사입니다.")


def span_of(needle, label, score=0.9, source="model", text=TEXT):
    i = text.index(needle)
    return Span(i, i + len(needle), label, score, source)


def union(events):
    return sort_spans(s for e in events if isinstance(e, SpansFound) for s in e.spans)


# ---------------------------------------------------------------------------------- streaming rules

def test_structured_rule_spans_come_first_and_model_spans_are_cut():
    person_over_phone = span_of("김철수(010-1234", "PERSON", 0.95)   # a model span running into the phone
    model = ScriptedModel([[person_over_phone], [span_of("넥스트웨이브", "ORGANIZATION")]])
    det = CombinedDetector(model, RuleDetector())
    events = list(det.stream(TEXT, first=(10, 20)))
    assert model.first_seen == (10, 20)
    found = [e for e in events if isinstance(e, SpansFound)]
    assert [TEXT[s.start:s.end] for s in found[0].spans] == ["010-1234-5678"]   # rules' structured spans first
    assert [(TEXT[s.start:s.end], s.label) for s in found[1].spans] == [("김철수", "PERSON")]  # cut, at once
    assert [e for e in events if isinstance(e, Progress)] == [Progress(0, 2), Progress(1, 2), Progress(2, 2)]
    assert union(events) == det.detect(TEXT) == merge_spans(model.detect(TEXT), RuleDetector().detect(TEXT), TEXT)


def test_spans_that_may_still_merge_with_a_rule_address_are_held_until_the_end():
    left = span_of("서울특별시 강남구", "ADDRESS", 0.7)
    right = span_of("405호이며", "ADDRESS", 0.6)
    model = ScriptedModel([[left], [span_of("김철수", "PERSON")], [right]])
    det = CombinedDetector(model, RuleDetector())
    events = list(det.stream(TEXT))
    batches = [e.spans for e in events if isinstance(e, SpansFound)]
    # nothing ADDRESS-like is yielded before the model stream has ended ...
    assert all(s.label != "ADDRESS" for b in batches[:-1] for s in b)
    # ... then one union covering the rule's address and both model pieces
    [addr] = [s for s in batches[-1] if s.label == "ADDRESS"]
    assert TEXT[addr.start:addr.end] == "서울특별시 강남구 테헤란로 42길 15-3, 102동 405호이며"
    assert union(events) == det.detect(TEXT)
    # every span is yielded exactly once
    flat = [s for b in batches for s in b]
    assert len(flat) == len(set(flat))


def test_cancel_stops_without_the_held_spans():
    model = ScriptedModel([[span_of("김철수", "PERSON")], [span_of("넥스트웨이브", "ORGANIZATION")]])
    calls = {"n": 0}

    def cancelled():
        calls["n"] += 1
        return calls["n"] > 3

    events = list(CombinedDetector(model, RuleDetector()).stream(TEXT, cancelled=cancelled))
    got = union(events)
    assert all(s.label != "ADDRESS" for s in got)          # the held/final batch never came
    assert len(got) < len(CombinedDetector(model, RuleDetector()).detect(TEXT))


class FindingModel:
    """A Detector that tags every occurrence of fixed strings in the text it is given (and records it)."""

    id = "finding"
    labels = ("PERSON", "ADDRESS", "ORGANIZATION")

    def __init__(self, strings):
        self.strings = strings
        self.seen = []

    def _spans(self, text):
        out = []
        for needle, label in self.strings.items():
            i = text.find(needle)
            while i >= 0:
                out.append(Span(i, i + len(needle), label, 0.9, "model"))
                i = text.find(needle, i + len(needle))
        return sort_spans(out)

    def stream(self, text, *, cancelled=never_cancelled, first=None):
        self.seen.append((text, first))
        yield Progress(0, 1)
        spans = self._spans(text)
        if spans:
            yield SpansFound(tuple(spans))
        yield Progress(1, 1)

    def detect(self, text):
        self.seen.append((text, None))
        return self._spans(text)


def test_model_reads_the_original_and_the_spacing_pass_is_unioned():
    text = "상담원: 담당자 성함이요? 고객: 김 민준 이요. 주소는 정 릉로 77길 12 입니다."
    model = FindingModel({"김민준": "PERSON"})
    det = CombinedDetector(model, RuleDetector())
    got = {text[s.start:s.end]: (s.label, s.source) for s in det.detect(text)}
    assert got == {"김 민준": ("PERSON", "model"), "정 릉로 77길 12": ("ADDRESS", "rule")}
    # the main pass reads the original text; the extra pass reads joined copies of the split regions only
    seen = [t for t, _ in model.seen]
    assert seen[0] == text
    assert all(t != text and "김민준" in t for t in seen[1:]) and len(seen) == 2
    a = text.index("주소")
    model.seen.clear()
    events = list(det.stream(text, first=(a, a + 10)))
    assert (text, (a, a + 10)) in model.seen          # ``first`` goes to the main pass unchanged
    assert union(events) == det.detect(text)
    # switched off: only the main pass, which misses the split name
    plain = CombinedDetector(FindingModel({"김민준": "PERSON"}), RuleDetector(), spacing=False)
    assert "PERSON" not in {s.label for s in plain.detect(text)}


def test_spacing_pass_only_where_the_text_shows_split_patterns():
    model = FindingModel({"김민준": "PERSON", "한빛은행": "ORGANIZATION"})
    det = CombinedDetector(model, RuleDetector())
    ordinary = "김민준 씨는 한빛은행에서 일한다. 그는 매일 출근한다."
    det.detect(ordinary)
    assert [t for t, _ in model.seen] == [ordinary]      # no split fragment: the model reads the text once


def test_spacing_pass_never_changes_a_main_pass_span_in_detect_or_stream():
    text = "고객: 김 민준 이요. 다음 분."
    model = FindingModel({"김민준": "PERSON", "민준 이요": "ORGANIZATION"})
    det = CombinedDetector(model, RuleDetector())
    got = [(text[s.start:s.end], s.label) for s in det.detect(text)]
    # the extra pass's 김 민준 meets it: the main span stays as it is; the uncovered 김 is one syllable,
    # which alone cannot leak a name: not added
    assert got == [("민준 이요", "ORGANIZATION")]
    assert union(list(det.stream(text))) == det.detect(text)


def test_a_letter_spaced_name_the_main_pass_found_only_in_part_is_covered_whole():
    # the leak rule: a model that tags the surname alone (KLUE's 김 씨 convention) must not leave 민 준
    text = "성명 김 민 준\n연락처 없음"
    model = FindingModel({"김": "PERSON", "김민준": "PERSON"})
    det = CombinedDetector(model, RuleDetector())
    got = [(text[s.start:s.end], s.label) for s in det.detect(text)]
    assert got == [("김", "PERSON"), ("민 준", "PERSON")]
    assert union(list(det.stream(text))) == det.detect(text)


def test_spacing_union_adds_only_what_the_main_pass_left_uncovered():
    from veil_desktop.detect.default import union_spacing

    main = [Span(3, 5, "PERSON", 0.8), Span(10, 14, "ORGANIZATION", 0.9), Span(20, 22, "ADDRESS", 0.7)]
    extra = [Span(1, 5, "PERSON", 0.6),            # overlaps a main span: it stays, 1..3 is added
             Span(12, 16, "PERSON", 0.9),           # overlaps another label: only 14..16 is left over ...
             Span(14, 20, "PERSON", 0.9),           # ... and this one overlaps that piece: 16..20 added
             Span(30, 33, "ORGANIZATION", 0.5),     # overlaps nothing: added
             Span(32, 35, "ORGANIZATION", 0.5),     # overlaps the one just added: 33..35 added
             Span(40, 45, "PERSON", 0.7)]
    main = main + [Span(42, 43, "PERSON", 0.9)]   # a main span inside an extra one: both sides added
    assert union_spacing(main, extra) == [Span(1, 3, "PERSON", 0.6), Span(3, 5, "PERSON", 0.8),
                                          Span(10, 14, "ORGANIZATION", 0.9), Span(14, 16, "PERSON", 0.9),
                                          Span(16, 20, "PERSON", 0.9), Span(20, 22, "ADDRESS", 0.7),
                                          Span(30, 33, "ORGANIZATION", 0.5), Span(33, 35, "ORGANIZATION", 0.5),
                                          Span(40, 42, "PERSON", 0.7), Span(42, 43, "PERSON", 0.9),
                                          Span(43, 45, "PERSON", 0.7)]
    assert union_spacing(main, []) == main


def test_id_and_labels():
    det = CombinedDetector(ScriptedModel([]), RuleDetector())
    assert det.id == "scripted+veil-rules-1"
    assert det.labels[:3] == ("PERSON", "ADDRESS", "ORGANIZATION") and "PHONE" in det.labels


# ---------------------------------------------------------------------------------- real tiny ONNX models

ENTITIES = {"김철수": "PERSON", "테헤란": "ADDRESS", "넥스트웨이브": "ORGANIZATION"}


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "veil-tiny", entities=ENTITIES, score=0.9)


def test_build_default_detector_on_a_real_model_folder(tiny_folder):
    det = build_default_detector(tiny_folder, threads=1)
    assert isinstance(det, CombinedDetector) and isinstance(det.model, ModelDetector)
    got = {TEXT[s.start:s.end]: (s.label, s.source) for s in det.detect(TEXT)}
    assert got == {
        # the role rule (담당자 + name, rules/names.py) found it too, with a lower score: the model's span stays
        "김철수": ("PERSON", "model"),
        "010-1234-5678": ("PHONE", "rule"),
        # the model's "테헤란" and the grammar's full address: one union span
        "서울특별시 강남구 테헤란로 42길 15-3, 102동 405호": ("ADDRESS", "rule"),
        "넥스트웨이브": ("ORGANIZATION", "model"),
    }


def test_rules_false_gives_the_bare_model(tiny_folder):
    det = build_default_detector(tiny_folder, threads=1, rules=False)
    assert isinstance(det, ModelDetector)
    assert {s.label for s in det.detect(TEXT)} == {"PERSON", "ADDRESS", "ORGANIZATION"}


def test_long_text_stream_union_equals_detect_for_any_first_range(tiny_folder):
    det = build_default_detector(tiny_folder, threads=1, batch_size=2)
    text = "\n".join(f"{i}번 항목: {TEXT}" if i % 7 == 0 else f"{i}번 항목은 특이사항 없음." for i in range(120))
    expected = det.detect(text)
    assert expected == merge_spans(det.model.detect(text), det.rules.detect(text), text)
    n_phone = sum(1 for s in expected if s.label == "PHONE")
    assert n_phone == text.count("010-1234-5678") == 18
    for first in (None, (0, 50), (len(text) // 2, len(text) // 2 + 100), (len(text) - 30, len(text))):
        events = list(det.stream(text, first=first))
        batches = [e.spans for e in events if isinstance(e, SpansFound)]
        assert len(batches) > 3                                   # it really streams
        flat = [s for b in batches for s in b]
        assert len(flat) == len(set(flat))                         # each span once
        assert sort_spans(flat) == expected
        assert isinstance(events[-1], (Progress, SpansFound))
        assert any(isinstance(e, Progress) and e.done == e.total for e in events)


def test_missing_embedded_model_says_how_to_get_one(monkeypatch, tmp_path):
    monkeypatch.setenv("VEIL_RESOURCES_DIR", str(tmp_path / "resources"))
    with pytest.raises(ModelFolderError) as err:
        build_default_detector()
    msg = str(err.value)
    assert str(tmp_path / "resources" / "models" / "veil-compact-ko") in msg
    assert "training.build_compact" in msg and "--model" in msg


def test_missing_user_folder_is_a_clear_error(tmp_path):
    with pytest.raises(ModelFolderError, match="There is no model folder at"):
        build_default_detector(tmp_path / "nowhere")
