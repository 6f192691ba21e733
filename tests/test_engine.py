"""ModelDetector end to end over real tiny ONNX models: windows, spans, streaming, options."""
import threading

import numpy as np
import pytest

from veil_desktop.detect.engine import ModelDetector
from veil_desktop.detect.events import Progress, SpansFound
from veil_desktop.detect.span import Span
from tests.fixtures.tiny_model import build_tiny_model

ENTITIES = {"김철수": "PERSON", "서울시": "ADDRESS", "한빛은행": "ORGANIZATION", "지훈": "PERSON"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("m") / "tiny", entities=ENTITIES, score=0.9)


@pytest.fixture(scope="module")
def det(folder):
    d = ModelDetector(folder, threads=1)
    d.warm_up()
    return d


def found(det, text):
    return [(text[s.start:s.end], s.label) for s in det.detect(text)]


def test_basic_detection(det):
    text = "안녕하세요 김철수님, 서울시 강남구의 한빛은행에서 뵙겠습니다."
    spans = det.detect(text)
    assert [(text[s.start:s.end], s.label) for s in spans] == [
        ("김철수", "PERSON"), ("서울시", "ADDRESS"), ("한빛은행", "ORGANIZATION")]
    assert all(isinstance(s, Span) and s.source == "model" for s in spans)
    assert spans[0].score == pytest.approx(0.9, abs=1e-5)
    assert det.labels == ("PERSON", "ADDRESS", "ORGANIZATION") and det.id == "tiny"


def test_empty_and_whitespace_texts(det):
    assert det.detect("") == []
    assert det.detect("   \n\t ") == []
    events = list(det.stream(""))
    assert events == [Progress(0, 0)]


def test_particles_end_to_end(tmp_path):
    d = ModelDetector(build_tiny_model(tmp_path / "p", entities={"김철수는": "PERSON", "민준아": "PERSON"},
                                       alphabet=list("김철수는민준아 왔다")), threads=1)
    assert found(d, "김철수는 왔다") == [("김철수", "PERSON")]
    assert found(d, "민준아 왔다") == [("민준", "PERSON")]


def test_every_token_decided_exactly_once(tmp_path):
    # every character is S-PERSON, separated by two spaces so no merge step can join them:
    # one span per token, for texts of 1..5000 tokens, across all window boundaries.
    d = ModelDetector(build_tiny_model(tmp_path / "s", char_tags={"가": "S-PERSON"}, alphabet=["가"]),
                      threads=1)
    for n in (1, 2, 117, 118, 119, 126, 127, 236, 237, 1000, 2345, 5000):
        text = "  ".join(["가"] * n)
        spans = d.detect(text)
        assert [s.start for s in spans] == list(range(0, 3 * n, 3)), n
        assert all(s.end == s.start + 1 for s in spans)


@pytest.mark.parametrize("offset", [100, 104, 110, 115, 118, 122, 126, 215, 226])
def test_entity_straddling_a_window_boundary_comes_out_whole(tmp_path_factory, offset, folder):
    d = ModelDetector(folder, threads=1)
    entity = "김" + "철" * 18 + "수"  # 20 tokens: B I…I E
    text = "가" * offset + entity + "나" * 300
    assert found(d, text) == [(entity, "PERSON")]
    spaced = "가 " * offset + "김 " + "철 " * 18 + "수 " + "나 " * 300  # gap of 1 space between tokens
    spans = d.detect(spaced)
    assert [(s.start, s.end, s.label) for s in spans] == [(2 * offset, 2 * offset + 39, "PERSON")]


def test_entity_at_the_end_of_a_200000_character_text(det):
    filler = "가나다라 마바사아 자차카타 파하 "
    text = (filler * (200_000 // len(filler) + 1))[:200_000 - 60]
    text += " 그리고 마지막으로 김철수 씨가 서울시에서 왔습니다. 끝" + "." * 29
    assert len(text) == 200_000
    spans = det.detect(text)
    tail = [(text[s.start:s.end], s.label) for s in spans if s.start >= len(text) - 100]
    assert ("김철수", "PERSON") in tail and ("서울시", "ADDRESS") in tail


def test_stream_union_equals_detect_and_progress(det):
    text = ("김철수는 서울시에 산다. " + "가나다라마바사 " * 40 + "한빛은행 ") * 30
    whole = det.detect(text)
    for first in (None, (0, 10), (len(text) // 2, len(text) // 2 + 50), (len(text) - 5, len(text))):
        events = list(det.stream(text, first=first))
        progress = [e for e in events if isinstance(e, Progress)]
        assert progress[0].done == 0 and progress[-1].done == progress[-1].total > 1
        assert [p.done for p in progress] == sorted(p.done for p in progress)
        got = [s for e in events if isinstance(e, SpansFound) for s in e.spans]
        assert len(got) == len(set(got))  # each span exactly once
        assert sorted(got) == sorted(whole)
    assert len(whole) == 90


def test_first_range_is_done_first(det):
    text = "가나다라마바사 " * 2000 + "김철수 " + "가나다라마바사 " * 2000
    pos = text.index("김철수")
    events = list(det.stream(text, first=(pos, pos + 3)))
    first_spans = next(e for e in events if isinstance(e, SpansFound))
    assert [(s.start, s.end) for s in first_spans.spans] == [(pos, pos + 3)]
    # it arrived after the first batch, long before the end
    idx = events.index(first_spans)
    assert sum(isinstance(e, Progress) for e in events[:idx]) == 1


def test_cancel_between_batches(det):
    text = "김철수 가나다라마바사아자차 " * 2000
    calls = []

    def cancelled():
        calls.append(1)
        return len(calls) > 2

    events = list(det.stream(text, cancelled=cancelled))
    progress = [e for e in events if isinstance(e, Progress)]
    assert progress[-1].done == 2 * det.batch_size < progress[-1].total
    assert len(calls) == 3


def test_stream_from_worker_threads(det):
    texts = ["김철수 " * 500 + "서울시", "한빛은행 " * 700, "지훈 서울시 " * 300]
    expected = [det.detect(t) for t in texts]
    results = [None] * 3

    def work(i):
        results[i] = [s for e in det.stream(texts[i]) if isinstance(e, SpansFound) for s in e.spans]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert [sorted(r) for r in results] == expected


def test_wordpiece_folder_gives_the_same_spans(tmp_path):
    kw = dict(entities=ENTITIES, score=0.9)
    a = ModelDetector(build_tiny_model(tmp_path / "c", tokenizer="char", **kw), threads=1)
    b = ModelDetector(build_tiny_model(tmp_path / "w", tokenizer="wordpiece", **kw), threads=1)
    text = "김철수는 서울시에서 한빛은행에 다닌다. 지훈도 그렇다."
    assert a.detect(text) == b.detect(text)
    assert len(a.detect(text)) == 4


def test_graph_declaring_only_input_ids(tmp_path):
    d = ModelDetector(build_tiny_model(tmp_path / "i", entities=ENTITIES, inputs=("input_ids",)), threads=1)
    assert found(d, "김철수 서울시") == [("김철수", "PERSON"), ("서울시", "ADDRESS")]


def test_o_bias_operating_point(tmp_path):
    # the reference's sign: o_bias is SUBTRACTED from the O logit, so a positive value means more entities
    f = build_tiny_model(tmp_path / "b", char_tags={"김": ("B-PERSON", 0.3), "수": ("E-PERSON", 0.3),
                                                    "서": ("S-ADDRESS", 0.3)})
    text = "김수 서"
    assert found(ModelDetector(f, threads=1), text) == [("김수", "PERSON"), ("서", "ADDRESS")]
    assert found(ModelDetector(f, threads=1, o_bias=-3.0), text) == []
    assert found(ModelDetector(f, threads=1, o_bias={"PERSON": -3.0}), text) == [("서", "ADDRESS")]
    # a positive bias raises recall: an O-leaning token flips to an entity
    g = build_tiny_model(tmp_path / "g", char_tags={"김": {"S-PERSON": 0.35, "O": 0.55}})
    assert found(ModelDetector(g, threads=1), "김") == []
    assert found(ModelDetector(g, threads=1, o_bias=1.0), "김") == [("김", "PERSON")]
    assert found(ModelDetector(g, threads=1, o_bias={"PERSON": 1.0}), "김") == [("김", "PERSON")]
    assert found(ModelDetector(g, threads=1, o_bias=-1.0), "김") == []
    with pytest.raises(ValueError, match="PHONE"):
        ModelDetector(f, threads=1, o_bias={"PHONE": 1.0})


def test_skip_ids_hides_identifier_tokens(tmp_path):
    f = build_tiny_model(tmp_path / "k", char_tags={"A": "S-PERSON", "7": "S-PERSON"}, entities=ENTITIES)
    text = "주문번호 A1B2C3D7 김철수, 코드 A7"
    plain = found(ModelDetector(f, threads=1, skip_ids=False), text)
    assert ("A", "PERSON") in plain and ("7", "PERSON") in plain
    skipping = ModelDetector(f, threads=1)  # skip_ids is on by default (the card's setting)
    assert skipping.skip_ids
    got = found(skipping, text)
    # the 8-character ID is hidden; "A7" is too short to be an ID; other offsets stay right
    assert got == [("김철수", "PERSON"), ("A", "PERSON"), ("7", "PERSON")]
    assert [s.start for s in skipping.detect(text)][0] == text.index("김철수")


def test_fullwidth_normalisation_keeps_offsets(tmp_path):
    f = build_tiny_model(tmp_path / "n", entities={"KIM": "PERSON", "101": "ADDRESS"}, alphabet=list("가나"))
    text = "가 ＫＩＭ 나 １０１호"
    spans = ModelDetector(f, threads=1).detect(text)
    assert [(text[s.start:s.end], s.label) for s in spans] == [("ＫＩＭ", "PERSON"), ("１０１", "ADDRESS")]
    assert ModelDetector(f, threads=1, normalize=False).detect(text) == []


def test_batch_size_and_threads_do_not_change_results(folder, det):
    text = "김철수 가나다 서울시 " * 400
    other = ModelDetector(folder, threads=2, batch_size=3)
    assert other.threads == 2 and other.detect(text) == det.detect(text)


def test_numpy_fallback_gives_the_same_spans(det, monkeypatch):
    from veil_desktop.detect import viterbi

    text = ("김철수 서울시 한빛은행 지훈 가나다 " * 300)
    assert viterbi.kernel_nowait() is not viterbi.viterbi_numpy  # warmed up: numba decodes
    expected = det.detect(text)
    assert len(expected) == 1200
    monkeypatch.setattr(viterbi, "kernel_nowait", lambda: viterbi.viterbi_numpy)
    assert det.detect(text) == expected


def test_span_scores_are_mean_probabilities(tmp_path):
    f = build_tiny_model(tmp_path / "m", char_tags={"김": ("B-PERSON", 0.9), "철": ("I-PERSON", 0.6),
                                                    "수": ("E-PERSON", 0.6)})
    (s,) = ModelDetector(f, threads=1).detect("김철수")
    assert s.score == pytest.approx(0.7, abs=1e-5)


def test_warm_up_in_background(folder):
    from veil_desktop.detect.engine import warm_up_in_background

    d = ModelDetector(folder, threads=1)
    t = warm_up_in_background(d)
    t.join(60)
    assert not t.is_alive()
    assert found(d, "김철수") == [("김철수", "PERSON")]


def _mixed_text(n_chars: int) -> str:
    rng = np.random.default_rng(5)
    parts = ["김철수는", "서울시", "한빛은행에서", "ABC123", "e-mail:", "kim@x.kr", "金哲洙", "(주)", "café",
             "e\u0301", "😀", "\x07", "1,234원", "…", "ＫＩＭ", "가나다라마바사아자차카타파하" * 3]
    seps = [" ", "  ", "\n", "\r\n", "\t", "\u3000", " \n\n "]
    out, total = [], 0
    while total < n_chars:
        w = parts[rng.integers(len(parts))] + seps[rng.integers(len(seps))]
        out.append(w)
        total += len(w)
    return "".join(out)


@pytest.mark.parametrize("kind", ["char", "wordpiece"])
def test_chunked_encoding_equals_one_encoding(tmp_path, kind):
    from veil_desktop.detect.encoding import CHUNK_CHARS, chunk_bounds, encode_text, splits_at_whitespace
    from veil_desktop.detect.model_folder import load_tokenizer

    tok = load_tokenizer(build_tiny_model(tmp_path / kind, tokenizer=kind))
    assert splits_at_whitespace(tok)
    text = _mixed_text(3 * CHUNK_CHARS + 777)
    assert len(chunk_bounds(text)) >= 3
    ids, starts, ends = encode_text(tok, text, chunked=True)
    one = tok.encode(text, add_special_tokens=False)
    assert ids.tolist() == one.ids
    assert list(zip(starts.tolist(), ends.tolist())) == one.offsets
    assert len(ids) > 30_000


def test_chunk_bounds_cut_at_whitespace_only():
    from veil_desktop.detect.encoding import chunk_bounds

    text = ("가" * 50 + " ") * 2000
    bounds = chunk_bounds(text, 1000)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:]))
    assert all(text[b].isspace() for _, b in bounds[:-1])
    assert chunk_bounds("가" * 5000, 1000) == [(0, 5000)]  # no whitespace: one chunk


def test_tokenizers_that_do_not_split_at_whitespace_are_encoded_whole():
    from tokenizers import Tokenizer, models, pre_tokenizers

    from veil_desktop.detect.encoding import splits_at_whitespace

    tok = Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    assert not splits_at_whitespace(tok)
    tok.pre_tokenizer = None
    assert not splits_at_whitespace(tok)
