"""Issue-17 training data: pseudo labels (soft ranges, corpus-level consistency), offset-exact entity
substitution, news-style synthetic documents, and folding an operating point into the ONNX file.

Pure Python + numpy + tokenizers + onnx/onnxruntime: no torch and no ../shared data needed."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

from training import data as D
from training import pseudo, synth
from training.labels import ANY_MASK, LABELS, O_MASK, tag_mask
from veil_desktop.detect.engine import ModelDetector
from veil_desktop.paths import default_model_dir


def _at(text: str, word: str, nth: int = 0) -> tuple[int, int]:
    i = -1
    for _ in range(nth + 1):
        i = text.index(word, i + 1)
    return i, i + len(word)


def test_substitution_moves_strict_and_soft_ranges_with_the_text():
    text = "어제 장 회장과 김철수가 만났고 국적: 베트남 이었다. 삼성전자도 참석. 전화 010-1234-5678"
    ex = D.Example(text, [(*_at(text, "장"), "PERSON"), (*_at(text, "김철수"), "PERSON"),
                          (*_at(text, "삼성전자"), "ORGANIZATION")],
                   strict=(_at(text, "010-1234-5678"), _at(text, "베트남")), soft=(_at(text, "참석"),))
    g = synth.Generator(5)
    for _ in range(40):
        new = D.substitute(ex, g, p_person=1.0, p_other=1.0, news=True)
        assert sorted(new.text[a:b] for a, b in new.strict) == ["010-1234-5678", "베트남"]
        assert [new.text[a:b] for a, b in new.soft] == ["참석"]
        person = [new.text[a:b] for a, b, lab in new.spans if lab == "PERSON"]
        assert len(person[0]) == 1 and "가" <= person[0] <= "힣", person  # a surname stays a surname
        assert new.text[new.spans[0][1]:].startswith(" 회장과 ")
        # the particle after the replaced name agrees with its last syllable
        name_end = new.spans[1][1]
        last = new.text[name_end - 1]
        want = synth.particle_for(new.text[new.spans[1][0]:name_end], ("이", "가"))
        assert new.text[name_end:name_end + len(want)] == want, (new.text, last)


def test_soft_ranges_accept_any_tag_and_spans_keep_their_exact_tags():
    from training.vocab import build_vocab, make_tokenizer

    text = "관객 박보영 연기 최고 탕웨이 만큼은 아니다"
    ex = D.Example(text, [(*_at(text, "박보영"), "PERSON")], soft=(_at(text, "탕웨이"),), source="klue-pseudo")
    vocab = build_vocab([text])
    tok = make_tokenizer(vocab)
    D.set_whitespace_ids({tok.token_to_id(" "), tok.token_to_id("\n")})
    (chunk,) = D.example_chunks(ex, tok, tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]"), random.Random(0))
    allowed = chunk.allowed[1:-1]  # strip [CLS]/[SEP]
    assert [int(a) for a in allowed[3:6]] == [tag_mask("B", "PERSON"), tag_mask("I", "PERSON"),
                                               tag_mask("E", "PERSON")]
    a, b = _at(text, "탕웨이")
    assert all(int(x) == ANY_MASK for x in allowed[a:b])
    assert int(allowed[0]) == O_MASK and int(allowed[b]) == O_MASK
    assert ANY_MASK == (1 << len(LABELS)) - 1


def _row(text, *spans):
    return {"id": "x", "text": text, "spans": [(*_at(text, w), lab) for w, lab in spans], "soft": []}


def test_propagation_spreads_consistent_values_only():
    rows = [
        _row("탕웨이의 연기가 좋다", ("탕웨이", "PERSON")),
        _row("탕웨이 주연 영화", ("탕웨이", "PERSON")),
        _row("역시 탕웨이는 최고"),                      # teacher missed it: gets the span
        _row("탕웨이만 보면 된다"),                       # before a particle: gets the span
        _row("탕웨이즈라는 가게"),                        # inside a longer word: no span
        _row("이건 영화다", ("이건", "PERSON")),          # a teacher error once ...
        _row("이건 아니다", ("이건", "PERSON")),          # ... twice
        _row("이건 별로"), _row("이건 좋다"), _row("이건 뭐지"), _row("이건 글쎄"), _row("이건 진짜"),
        _row("경찰은 밝혔다", ("경찰", "ORGANIZATION")),
        _row("경찰이 왔다", ("경찰", "PERSON")),          # two labels for one value: never spread
        _row("경찰 조사"),
    ]
    added = pseudo.propagate(rows)
    spans = {r["text"]: [(r["text"][a:b], lab) for a, b, lab in r["spans"]] for r in rows}
    assert spans["역시 탕웨이는 최고"] == [("탕웨이", "PERSON")]
    assert spans["탕웨이만 보면 된다"] == [("탕웨이", "PERSON")]
    assert spans["탕웨이즈라는 가게"] == []
    assert spans["이건 별로"] == [] and spans["이건 진짜"] == []  # tagged in 2 of 7 occurrences: not spread
    assert spans["경찰 조사"] == []
    assert added == 2


def test_news_documents_are_exact_and_the_heldout_templates_do_not_move():
    docs = synth.generate_news(200, seed=3)
    synth.sanity(docs)
    labels = {lab for d in docs for *_, lab in d.spans}
    assert labels == {"PERSON", "ORGANIZATION"}
    one_syllable = [d.text[s:e] for d in docs for s, e, lab in d.spans if lab == "PERSON" and e - s == 1]
    assert one_syllable, "surname + title shapes are generated"
    for d in docs:
        for s, e, lab in d.spans:
            value = d.text[s:e]
            assert not value.endswith((" 씨", "씨", " 회장", " 감독")), value  # titles stay outside
    assert not set(synth.NEWS_TEMPLATES) & set(synth.HELDOUT_TEMPLATES)
    assert not set(synth.NEWS_TEMPLATES) & set(synth.TEMPLATES)


def test_fold_bakes_the_operating_point_into_the_onnx_file(tmp_path):
    from training.calibrate import fold

    src = default_model_dir()
    src_cfg_before = (src / "config.json").read_bytes()
    src_onnx_before = (src / "model.onnx").read_bytes()
    before = json.loads(src_cfg_before).get("compact_folded_bias", {"PERSON": 0.0, "ORGANIZATION": 0.0})
    out = tmp_path / "folded"
    info = fold(src, out, person=0.7, org=-0.3)
    assert info["max_abs_error"] < 1e-4
    cfg = json.loads((out / "config.json").read_text(encoding="utf-8"))
    # the recorded shift is cumulative (the shipped folder may already carry one)
    assert cfg["compact_folded_bias"]["PERSON"] == pytest.approx(before["PERSON"] + 0.7)
    assert cfg["compact_folded_bias"]["ORGANIZATION"] == pytest.approx(before["ORGANIZATION"] - 0.3)
    text = ("어제 장 회장과 김철수가 만났다. 시진핑 주석과 리커창 총리는 기재부와 한전을 방문했다. "
            "서울특별시 종로구 세종대로 209에서 박지훈 씨를 만났다.") * 2
    shifted = ModelDetector(src, threads=1, o_bias={"PERSON": 0.7, "ORGANIZATION": -0.3}).detect(text)
    folded = ModelDetector(out, threads=1).detect(text)
    assert [(s.start, s.end, s.label) for s in folded] == [(s.start, s.end, s.label) for s in shifted]
    assert np.allclose([s.score for s in folded], [s.score for s in shifted], atol=1e-5)
    # independently of fold()'s own check: the folded graph's logits are the original's plus the shift
    import onnxruntime as ort

    ids = np.random.default_rng(7).integers(5, 1800, size=(3, 40)).astype(np.int64)
    feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
    a = ort.InferenceSession(str(src / "model.onnx"), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    b = ort.InferenceSession(str(out / "model.onnx"), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    want = np.array([0.7 if t.endswith("PERSON") else -0.3 if t.endswith("ORGANIZATION") else 0.0 for t in LABELS])
    assert np.allclose(b - a, want, atol=1e-4)
    # the source folder is untouched
    assert (src / "config.json").read_bytes() == src_cfg_before
    assert (src / "model.onnx").read_bytes() == src_onnx_before
