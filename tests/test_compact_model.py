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
