"""Unicode and spacing tricks must not hide a value from detection (issue 10 item 3, detection side).

NFD Hangul, zero-width space/joiner, soft hyphen, a BOM inside a value and letter-spaced digits: the
default detector (a real tiny ONNX model + the rule stage) reads a normalised detection view and maps its
spans back, so each span covers the ORIGINAL characters of the value, the invisible ones inside included.
"""
import unicodedata

import numpy as np
import pytest

from tests.fixtures.tiny_model import build_tiny_model
from veil_desktop.detect.default import build_default_detector
from veil_desktop.detect.engine import ModelDetector
from veil_desktop.detect.normalize import detection_view

ENTITIES = {"김철수": "PERSON", "서울시": "ADDRESS"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("uni") / "tiny", entities=ENTITIES, score=0.9)


@pytest.fixture(scope="module")
def det(folder):
    return build_default_detector(folder, threads=1)


def spans_of(det, text):
    return [(text[s.start:s.end], s.label) for s in det.detect(text)]


def test_nfd_hangul_name_and_address(det):
    text = unicodedata.normalize("NFD", "담당자 김철수 씨는 서울시에 산다")
    assert len(text) > 30  # really decomposed
    got = spans_of(det, text)
    assert [(unicodedata.normalize("NFC", s), label) for s, label in got] == [("김철수", "PERSON"),
                                                                              ("서울시", "ADDRESS")]
    # the span covers every jamo of the name: nothing of it is left outside
    (s, _), _ = got
    assert s == unicodedata.normalize("NFD", "김철수")


@pytest.mark.parametrize("invisible", ["\u200b", "\u200d", "\u200c", "\u00ad", "\ufeff", "\u2060"])
def test_invisible_character_inside_a_name(det, invisible):
    text = f"담당자 김{invisible}철수 씨"
    assert spans_of(det, text) == [(f"김{invisible}철수", "PERSON")]


@pytest.mark.parametrize("value,label", [
    ("010-12\u200b34-5678", "PHONE"),
    ("010-1234-\u200d5678", "PHONE"),
    ("900101-12\u00ad34567", "RRN"),
    ("kim\ufeff@example.com", "EMAIL"),
    ("9001\ufeff01-1234567", "RRN"),
])
def test_invisible_character_inside_a_structured_value(det, value, label):
    text = f"고객 정보: {value} 입니다"
    assert (value, label) in spans_of(det, text)


@pytest.mark.parametrize("value,label", [
    ("9 0 0 1 0 1 - 1 2 3 4 5 6 7", "RRN"),
    ("0 1 0 - 1 2 3 4 - 5 6 7 8", "PHONE"),
    ("0\t1\t0\t1\t2\t3\t4\t5\t6\t7\t8", "PHONE"),
])
def test_letter_spaced_digits(det, value, label):
    text = f"주민/전화: {value} 확인"
    assert (value, label) in spans_of(det, text)


def test_nfd_with_letter_spaced_digits_and_a_name_together(det):
    text = unicodedata.normalize("NFD", "김철수") + "\u200b 주민번호 9 0 0 1 0 1 - 1 2 3 4 5 6 7"
    got = spans_of(det, text)
    assert ("9 0 0 1 0 1 - 1 2 3 4 5 6 7", "RRN") in got
    assert (unicodedata.normalize("NFD", "김철수"), "PERSON") in got


def test_bare_model_reads_the_view_too(folder):
    d = ModelDetector(folder, threads=1)
    text = "김\u200b철\u00ad수"
    assert [(text[s.start:s.end], s.label) for s in d.detect(text)] == [(text, "PERSON")]
    # normalize=False: the model reads the raw characters (the ZWSP splits the name into unknown tokens)
    assert ModelDetector(folder, threads=1, normalize=False).detect(text) != d.detect(text)


def test_ordinary_text_gets_an_identity_view():
    text = "김철수는 서울시 강남구 테헤란로 42에 산다. 010-1234-5678"
    v = detection_view(text, spaced_digits=True)
    assert not v.changed and v.text == text


def test_view_offsets_map_back_exactly():
    rng = np.random.default_rng(3)
    parts = ["김철수", "\u200b", "\u00ad", unicodedata.normalize("NFD", "한국"), " ", "9 0 1 2 3 4 5", "abc",
             "\ufeff", "e\u0301"]
    for _ in range(50):
        text = "".join(rng.choice(parts, 12))
        v = detection_view(text, spaced_digits=True)
        if not v.changed:
            continue
        assert len(v.starts) == len(v.ends) == len(v.text)
        assert (np.diff(v.starts) >= 0).all() and (v.ends > v.starts).all()
        # every original visible character is reachable from the view
        a, b = v.to_original(0, len(v.text))
        assert text[:a].strip("\u200b\u00ad\ufeff ") == "" and text[b:].strip("\u200b\u00ad\ufeff ") == ""
        # each view character comes from the original characters it is mapped to
        for j in range(len(v.text)):
            piece = "".join(c for c in text[v.starts[j]:v.ends[j]] if c not in "\u200b\u00ad\ufeff")
            assert v.text[j] in unicodedata.normalize("NFC", piece)
