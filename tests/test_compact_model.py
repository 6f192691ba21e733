"""The shipped compact model folder (resources/models/veil-compact-ko) through the project's own loader and
pipeline: folder contract, label order, size budget, tokenizer behaviour, and obvious detections."""
from __future__ import annotations

import json

import numpy as np
import pytest

from veil_desktop.detect.engine import ModelDetector
from veil_desktop.detect.model_folder import load_model_folder
from veil_desktop.paths import default_model_dir

FOLDER = default_model_dir()
VEIL_ORDER = ["O",
              "B-PERSON", "I-PERSON", "E-PERSON", "S-PERSON",
              "B-ADDRESS", "I-ADDRESS", "E-ADDRESS", "S-ADDRESS",
              "B-ORGANIZATION", "I-ORGANIZATION", "E-ORGANIZATION", "S-ORGANIZATION"]


@pytest.fixture(scope="module")
def detector():
    return ModelDetector(FOLDER, threads=1)


def test_folder_layout_and_size_budget():
    names = {p.name for p in FOLDER.iterdir()}
    assert {"config.json", "tokenizer.json", "model.onnx", "MODEL_CARD.md"} <= names
    assert not any(n.endswith(".py") for n in names)
    total = sum(p.stat().st_size for p in FOLDER.iterdir() if p.is_file())
    assert total <= 15 * 1024 * 1024, f"compact model folder is {total} bytes (budget 15 MB)"


def test_label_order_is_the_veil_order():
    cfg = json.loads((FOLDER / "config.json").read_text(encoding="utf-8"))
    assert [cfg["id2label"][str(i)] for i in range(len(cfg["id2label"]))] == VEIL_ORDER
    mf = load_model_folder(FOLDER, threads=1)
    assert list(mf.labels) == VEIL_ORDER
    assert mf.scheme.entity_types == ("PERSON", "ADDRESS", "ORGANIZATION")
    assert set(mf.input_names) == {"input_ids", "attention_mask"}


def test_tokenizer_is_character_level_with_original_offsets():
    mf = load_model_folder(FOLDER, threads=1)
    tok = mf.tokenizer
    for special in ("[CLS]", "[SEP]", "[PAD]", "[UNK]"):
        assert tok.token_to_id(special) is not None
    text = "김철수(金哲洙)  씨는\n\n 서울에 산다 ☃"
    enc = tok.encode(text, add_special_tokens=False)
    # one token per non-whitespace character; whitespace runs collapse to one token each
    non_ws = [c for c in text if not c.isspace()]
    assert [text[a:b] for a, b in enc.offsets if not text[a:b].isspace()] == non_ws
    assert sum(1 for a, b in enc.offsets if text[a:b].isspace()) == 4  # "  ", "\n\n ", " ", " "
    unk = tok.token_to_id("[UNK]")
    assert enc.ids[-1] == unk  # the snowman is not in the vocabulary
    assert enc.ids[4] == enc.ids[5] == enc.ids[6]  # every hanja shares one token


def test_logits_shape_and_padding_tolerance():
    mf = load_model_folder(FOLDER, threads=1)
    ids = mf.tokenizer.encode("홍길동은 서울특별시 종로구 세종대로 209에 산다.", add_special_tokens=False).ids
    row = [mf.cls_id] + ids + [mf.sep_id]
    n = len(row)
    padded = np.array([row + [mf.pad_id] * 7], dtype=np.int64)
    mask = np.array([[1] * n + [0] * 7], dtype=np.int64)
    out = mf.session.run(None, {"input_ids": padded, "attention_mask": mask})[0]
    assert out.shape == (1, n + 7, 13)
    bare = mf.session.run(None, {"input_ids": np.array([row], dtype=np.int64),
                                 "attention_mask": np.ones((1, n), dtype=np.int64)})[0]
    # padding changes the backward context a little, but not the decision on real tokens
    assert (out[0, :n].argmax(-1) == bare[0].argmax(-1)).mean() >= 0.95


def _found(spans, text, label):
    return {text[s.start:s.end] for s in spans if s.label == label}


def test_obvious_person_and_address(detector):
    text = "신청인 성명: 김민준\n주소: 서울특별시 강남구 테헤란로 152, 1203호\n연락처: 010-1234-5678"
    spans = detector.detect(text)
    assert "김민준" in _found(spans, text, "PERSON")
    addr = [text[s.start:s.end] for s in spans if s.label == "ADDRESS"]
    assert any("테헤란로 152" in a for a in addr), addr
    assert not any("010" in text[s.start:s.end] for s in spans)  # phones are left to the rule stage


def test_person_in_prose_with_particle(detector):
    text = "어제 박지훈 씨가 회의에 참석했고, 이서연은 보고서를 제출했다."
    found = _found(detector.detect(text), text, "PERSON")
    assert "박지훈" in found
    assert "이서연" in found


def test_organisation_in_news_sentence(detector):
    text = "국민건강보험공단은 지난달 새로운 지침을 발표했다."
    found = _found(detector.detect(text), text, "ORGANIZATION")
    assert any("국민건강보험공단" in f for f in found), found


def test_text_without_entities_stays_clean(detector):
    text = "오늘은 날씨가 맑고 바람이 조금 불겠습니다. 내일은 비가 올 예정입니다."
    assert detector.detect(text) == []


# ---------------------------------------------------------------------------------------------------
# training data pipeline (pure Python + numpy + tokenizers; no torch, no ../shared data needed)

from training import data as D  # noqa: E402
from training import synth  # noqa: E402
from training.labels import LABELS, O_MASK  # noqa: E402
from training.vocab import build_vocab, make_tokenizer  # noqa: E402


def test_lc_to_address_only_when_address_like():
    assert D.looks_like_address("강서구 내발산동")
    assert D.looks_like_address("인천 송도 23호 근린공원")
    assert D.looks_like_address("서울특별시 종로구 세종대로 209")
    for place in ("미국", "서울", "해운대", "제주도", "경남 진해", "아시아 태평양", "삼풍백화점"):
        assert not D.looks_like_address(place), place


def test_synthetic_documents_have_exact_spans_and_heldout_templates_are_disjoint():
    docs = synth.generate(60, seed=1)
    synth.sanity(docs)
    labels = {lab for d in docs for *_, lab in d.spans}
    assert labels == {"PERSON", "ADDRESS", "ORGANIZATION"}
    assert not set(synth.HELDOUT_TEMPLATES) & set(synth.TRAIN_TEMPLATES)
    assert len(synth.HELDOUT_TEMPLATES) >= 10


def _bioes_valid(tags):
    prev = "O"
    for t in tags + ["O"]:
        p, _, typ = t.partition("-")
        pp, _, ptyp = prev.partition("-")
        inside = pp in ("B", "I")
        if inside and not (p in ("I", "E") and typ == ptyp):
            return False
        if not inside and p in ("I", "E"):
            return False
        prev = t
    return True


def test_chunks_are_window_sized_with_valid_bioes_targets():
    import random

    docs = [D.Example(d.text, list(d.spans), source="synth") for d in synth.generate(40, seed=3)]
    vocab = build_vocab(d.text for d in docs)
    tok = make_tokenizer(vocab)
    D.set_whitespace_ids({tok.token_to_id(" "), tok.token_to_id("\n")})
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    n_entities = 0
    for ex in docs:
        for c in D.example_chunks(ex, tok, cls_id, sep_id, random.Random(0)):
            assert c.ids[0] == cls_id and c.ids[-1] == sep_id and len(c.ids) <= 128
            tags = []
            for bits in c.allowed:
                allowed = [LABELS[k] for k in range(len(LABELS)) if bits >> k & 1]
                assert len(allowed) == 1  # fully labelled corpus: one target tag per position
                tags.append(allowed[0])
            assert _bioes_valid(tags), tags
            n_entities += sum(t[0] in "BS" for t in tags)
    assert n_entities >= sum(len(d.spans) for d in docs)  # cut entities are re-tagged, never dropped


def test_unlabelled_corpus_accepts_o_or_organization_but_not_other_types():
    import random

    text = "담당자 김민준 주무관(010-1234-5678)이 서울시청에서 안내한다."
    s = text.index("김민준")
    p = text.index("010")
    ex = D.Example(text, [(s, s + 3, "PERSON")], soft_org=True, strict=((p, p + 13),), source="ko-pii")
    tok = make_tokenizer(build_vocab([text]))
    D.set_whitespace_ids({tok.token_to_id(" ")})
    (chunk,) = D.example_chunks(ex, tok, tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]"), random.Random(0))
    enc = tok.encode(text, add_special_tokens=False)
    by_char = {a: int(bits) for (a, _), bits in zip(enc.offsets, chunk.allowed[1:-1])}
    org = sum(1 << LABELS.index(f"{x}-ORGANIZATION") for x in "BIES")
    assert by_char[s] == 1 << LABELS.index("B-PERSON")
    assert by_char[p] == O_MASK  # phone digits: strictly O
    assert by_char[text.index("서울시청")] == O_MASK | org  # unlabelled: O or any ORGANIZATION tag


def test_entity_substitution_keeps_spans_aligned_and_particles_agreeing():
    g = synth.Generator(5)
    text = "어제 김철수가 서울에서 박영희를 만났다."
    a, b = text.index("김철수"), text.index("박영희")
    ex = D.Example(text, [(a, a + 3, "PERSON"), (b, b + 3, "PERSON")], source="klue")
    for _ in range(20):
        sub = D.substitute(ex, g, p_person=1.0)
        assert len(sub.spans) == 2
        for s, e, lab in sub.spans:
            name = sub.text[s:e]
            assert name and name == name.strip() and lab == "PERSON"
            nxt = sub.text[e]
            if nxt in "이가":
                assert nxt == synth.particle_for(name, ("이", "가"))
            if nxt in "을를":
                assert nxt == synth.particle_for(name, ("을", "를"))


def test_letter_spaced_name_is_covered_whole_by_the_shipped_default_detector():
    """Red-team case (benchmarks/adversarial_corpus.py, text/letterspaced.txt): the retrained model tags the
    surname of ``김 민 준`` alone; the spacing pass must cover the rest, or two syllables stay readable."""
    from veil_desktop.detect.default import build_default_detector

    det = build_default_detector(threads=1)
    for text, name in (("성명 김 민 준", "김 민 준"), ("연락처 없음\n성명 김 민 준\n", "김 민 준"),
                       ("담당자 박 서 연 주무관", "박 서 연")):
        spans = det.detect(text)
        start = text.index(name)
        covered = {i for s in spans if s.label == "PERSON" for i in range(s.start, s.end)}
        left = [text[i] for i in range(start, start + len(name)) if not text[i].isspace() and i not in covered]
        assert left == [], (text, [(text[s.start:s.end], s.label) for s in spans])
