"""The inference contract (../shared/docs/PIPELINE.md) checked on a context-dependent real ONNX model.

``tests/fixtures/context_model.py`` builds a tiny encoder-like model whose logits depend on the
neighbouring tokens and on the position in the window, so window edges, seams, the 8/8 overlap split and
the special-token positions change what it outputs. Expectations are hand-computed from its tables, or
come from ``reference_spans`` below: an independent, deliberately plain implementation of PIPELINE.md
(one window at a time, Python loops), not the engine's vectorised code.
"""
from __future__ import annotations

import functools
import json
import math
from dataclasses import replace

import numpy as np
import pytest

from tests.fixtures.context_model import build_context_model
from tests.fixtures.tiny_model import BIOES_LABELS
from veil_desktop.detect.engine import ModelDetector

NEG = -1.0e4
KIND = {"O": "O", **{lab: lab[0] for lab in BIOES_LABELS if lab != "O"}}
TYPE = {lab: (lab[2:] if lab != "O" else None) for lab in BIOES_LABELS}


# ------------------------------------------------------------------------------ plain reference
def _allowed(a: str, b: str) -> bool:
    ka, kb = KIND[a], KIND[b]
    if ka in "OES":
        return kb in "OBS"
    return kb in "IE" and TYPE[a] == TYPE[b]


def _viterbi(lp: np.ndarray) -> list[int]:
    """Constrained BIOES Viterbi over the whole sequence (start only O/B/S, end only O/E/S)."""
    L = len(BIOES_LABELS)
    score = [lp[0, j] + (0.0 if KIND[BIOES_LABELS[j]] in "OBS" else NEG) for j in range(L)]
    back = []
    for t in range(1, len(lp)):
        new, bp = [], []
        for j in range(L):
            cands = [score[i] + (0.0 if _allowed(BIOES_LABELS[i], BIOES_LABELS[j]) else NEG) for i in range(L)]
            i = int(np.argmax(cands))
            new.append(cands[i] + lp[t, j])
            bp.append(i)
        score, back = new, back + [bp]
    last = int(np.argmax([score[j] + (0.0 if KIND[BIOES_LABELS[j]] in "OES" else NEG) for j in range(L)]))
    path = [last]
    for bp in reversed(back):
        path.append(bp[path[-1]])
    return path[::-1]


@functools.lru_cache(maxsize=8)
def _load(folder):
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(str(folder / "model.fp32.onnx"), sess_options=so,
                                providers=["CPUExecutionProvider"])
    return tok, sess


def reference_pieces(folder, text: str, *, o_bias: float = 0.0, skip_ids: bool = False):
    """Windows + decoding of PIPELINE.md, plainly. Returns ``(pieces, seams)``: per decided run
    ``[start_char, end_char, label, prob_sum, n_tokens, first_tok, end_tok, last_kind]`` in token order,
    and the token indices where one window's decided tokens end and the next's begin."""
    tok, sess = _load(folder)
    vocab = tok.get_vocab()
    enc = tok.encode(text, add_special_tokens=False)
    ids, offs = enc.ids, enc.offsets
    if skip_ids:  # hide tokens inside ASCII identifier-like strings from the model
        from veil_desktop.detect.normalize import id_like_ranges

        ranges = id_like_ranges(text)
        keep = [i for i, (a, b) in enumerate(offs) if not any(r0 <= a and b <= r1 for r0, r1 in ranges)]
        ids, offs = [ids[i] for i in keep], [offs[i] for i in keep]
    n = len(ids)
    if n == 0:
        return [], set()
    if n <= 126:
        wins = [(0, n, 0, n)]
    else:
        count = math.ceil((n - 126) / 110) + 1
        wins = [(110 * i, min(n, 110 * i + 126), 0 if i == 0 else 110 * i + 8, n if i == count - 1 else 110 * i + 118)
                for i in range(count)]
    pieces = []
    seams = {w[2] for w in wins[1:]}
    names = {i.name for i in sess.get_inputs()}
    for s, e, ks, ke in wins:
        row = np.array([[vocab["[CLS]"], *ids[s:e], vocab["[SEP]"]]], dtype=np.int64)
        feed = {"input_ids": row, "attention_mask": np.ones_like(row), "token_type_ids": np.zeros_like(row)}
        logits = sess.run(None, {k: v for k, v in feed.items() if k in names})[0][0].astype(np.float64)
        logits[:, 0] -= o_bias
        lp = logits - logits.max(axis=1, keepdims=True)
        lp = lp - np.log(np.exp(lp).sum(axis=1, keepdims=True))
        path = _viterbi(lp)
        cur = None
        for k in range(ks, ke):
            if offs[k][1] <= offs[k][0]:
                continue
            lab = BIOES_LABELS[path[k - s + 1]]
            p = float(np.exp(lp[k - s + 1, path[k - s + 1]]))
            kind = KIND[lab]
            if cur is not None and kind in "IE" and TYPE[lab] == cur[2] and cur[7] in "BI":
                cur[1], cur[3], cur[4], cur[6], cur[7] = offs[k][1], cur[3] + p, cur[4] + 1, k + 1, kind
                continue
            cur = None
            if kind != "O":
                cur = [offs[k][0], offs[k][1], TYPE[lab], p, 1, k, k + 1, kind]
                pieces.append(cur)
    return pieces, seams


def reference_spans(folder, text: str, *, o_bias: float = 0.0) -> list[tuple[int, int, str, float]]:
    """PIPELINE.md, plainly: encode once; windows of 126 content tokens, step 110, 8/8 overlap split;
    each window ``[CLS] … [SEP]`` run alone; o_bias subtracted from O; log-softmax; Viterbi over the whole
    window; spans = B…E runs / S tokens among the decided tokens (empty offsets skipped); same-label
    spans touching across a seam merged; ADDRESS spans within one whitespace merged. (Texts here have
    no whitespace at span edges, no particles and no overlaps, so the other steps do nothing.)"""
    pieces, seams = reference_pieces(folder, text, o_bias=o_bias)
    merged = []
    for p in pieces:
        q = merged[-1] if merged else None
        gap = text[q[1]:p[0]] if q else None
        if (q and q[6] == p[5] and p[5] in seams and q[2] == p[2] and len(gap) <= 1 and gap.strip() == ""):
            q[1], q[3], q[4], q[6] = p[1], q[3] + p[3], q[4] + p[4], p[6]
        else:
            merged.append(list(p))
    out = []
    for p in merged:
        q = out[-1] if out else None
        if q and q[2] == p[2] == "ADDRESS" and len(text[q[1]:p[0]]) <= 1 and text[q[1]:p[0]].strip() == "":
            q[1], q[3], q[4] = p[1], q[3] + p[3], q[4] + p[4]
        else:
            out.append(list(p))
    return [(p[0], p[1], p[2], p[3] / p[4]) for p in out]


def engine_spans(det, text):
    return [(s.start, s.end, s.label, s.score) for s in det.detect(text)]


def assert_same(got, want):
    assert [g[:3] for g in got] == [w[:3] for w in want]
    assert all(g[3] == pytest.approx(w[3], abs=1e-4) for g, w in zip(got, want))


# ------------------------------------------------------------------------------ random context model
ALPHABET = list("다라마바사자차카타파")  # no particle, counter or vocative syllable: post-processing stays out


@pytest.fixture(scope="module")
def random_model(tmp_path_factory):
    rng = np.random.default_rng(15)

    def tables(vocab):
        n, L = len(vocab), len(BIOES_LABELS)
        self_t = rng.normal(0.0, 2.0, (n, L)).astype(np.float32)
        self_t[:, 0] += 2.5  # mostly O, spans of a few tokens
        left = rng.normal(0.0, 1.0, (n, L)).astype(np.float32)
        right = rng.normal(0.0, 1.0, (n, L)).astype(np.float32)
        pos = rng.normal(0.0, 1.0, (512, L)).astype(np.float32)
        return self_t, left, right, pos

    return build_context_model(tmp_path_factory.mktemp("ctx") / "random", alphabet=ALPHABET, tables=tables)


def _random_text(n: int, seed: int) -> str:
    rng = np.random.default_rng(seed)
    return "".join(rng.choice(ALPHABET, n))


@pytest.mark.parametrize("n", [1, 2, 5, 60, 125, 126])
def test_one_window_equals_the_whole_sequence_decode(random_model, n):
    det = ModelDetector(random_model, threads=1)
    for seed in range(4):
        text = _random_text(n, seed)
        assert_same(engine_spans(det, text), reference_spans(random_model, text))


@pytest.mark.parametrize("n", [127, 128, 129, 236, 237, 600])
def test_windowed_pipeline_equals_the_reference_across_seams(random_model, n):
    det = ModelDetector(random_model, threads=1, batch_size=3)
    for seed in range(3):
        text = _random_text(n, 100 + seed)
        want = reference_spans(random_model, text)
        assert want, "the random model should tag something"
        assert_same(engine_spans(det, text), want)


def test_the_model_really_depends_on_context(random_model):
    # the same 20 characters, alone and after 200 others: different window positions, different tags
    det = ModelDetector(random_model, threads=1)
    tail = _random_text(20, 7)
    alone = [(s.start, s.end, s.label) for s in det.detect(tail)]
    shifted = [(s.start - 200, s.end - 200, s.label) for s in det.detect(_random_text(200, 8) + tail)
               if s.start >= 200]
    assert alone != shifted


# ------------------------------------------------------------------------------ hand-computed seams
@pytest.fixture(scope="module")
def period_model(tmp_path_factory):
    # '가' alone: O 0.6 vs S-PERSON 0.3; at window positions t % 3 == 0 S-PERSON gets +2 (log .3 + 2 > log .6)
    return build_context_model(tmp_path_factory.mktemp("ctx") / "period", tags={"가": {"O": 0.6, "S-PERSON": 0.3}},
                               position=lambda t: {"S-PERSON": 2.0} if t % 3 == 0 else None, alphabet=["가"])


def test_seam_decisions_follow_the_8_8_overlap_split(period_model):
    """400 tokens → windows start at 0, 110, 220, 330; window i decides tokens [110i+8, 110i+118) (first and
    last: to the edge). Token k decided by window i sits at position p = k − 110i + 1 ([CLS] = 0) and is a
    PERSON iff p % 3 == 0."""
    det = ModelDetector(period_model, threads=1)
    n = 400
    text = "  ".join(["가"] * n)  # two spaces: no merge step can join neighbours
    tagged = {s.start // 3 for s in det.detect(text)}

    def decider(k):
        return 0 if k < 118 else 1 if k < 228 else 2 if k < 338 else 3

    expected = {k for k in range(n) if (k - 110 * decider(k) + 1) % 3 == 0}
    assert tagged == expected
    # the first seam, by hand: tokens 110..125 are in both window 0 (p = k + 1) and window 1 (p = k − 109)
    seam = [k for k in range(110, 126) if k in tagged]
    # window 0 decides 110..117 (p 111..118: 111, 114, 117), window 1 decides 118..125 (p 9..16: 9, 12, 15)
    assert seam == [110, 113, 116, 118, 121, 124]
    assert len(tagged) == len(expected) > 120


# ------------------------------------------------------------------------------ special tokens
def test_start_constraint_applies_at_cls(tmp_path):
    # [CLS] leans B-ORGANIZATION; 가 I-ORGANIZATION .5 / B-PERSON .4; 나 E-ORG .45 / E-PERSON .45.
    # Whole window: [CLS]=B-ORG, 가=I-ORG, 나=E-ORG (log .9+.5+.45 beats log .0083+.4+.45), read with
    # [CLS] ignored: ORGANIZATION 가나. Content-only decoding would forbid I at the start: PERSON 가나.
    f = build_context_model(tmp_path / "cls", special={"[CLS]": ("B-ORGANIZATION", 0.9)},
                            tags={"가": {"I-ORGANIZATION": 0.5, "B-PERSON": 0.4},
                                  "나": {"E-ORGANIZATION": 0.45, "E-PERSON": 0.45}}, alphabet=list("가나다"))
    det = ModelDetector(f, threads=1)
    assert [(s.start, s.end, s.label) for s in det.detect("가나")] == [(0, 2, "ORGANIZATION")]
    assert_same(engine_spans(det, "가나"), reference_spans(f, "가나"))
    # away from [CLS] the same two tokens cannot continue its entity: 다(O) 가(B-PERSON) 나(E-PERSON)
    assert [(s.start, s.end, s.label) for s in det.detect("다가나")] == [(1, 3, "PERSON")]
    assert_same(engine_spans(det, "다가나"), reference_spans(f, "다가나"))


def test_end_constraint_applies_at_sep(tmp_path):
    # last token 가: B-ORGANIZATION .5 / S-PERSON .4; [SEP] leans E-ORGANIZATION .9: the path ends
    # B-ORG, E-ORG([SEP]) → ORGANIZATION 가. Content-only decoding must end in O/E/S: S-PERSON 가.
    f = build_context_model(tmp_path / "sep", special={"[SEP]": ("E-ORGANIZATION", 0.9)},
                            tags={"가": {"B-ORGANIZATION": 0.5, "S-PERSON": 0.4}}, alphabet=list("가다"))
    det = ModelDetector(f, threads=1)
    assert [(s.start, s.end, s.label) for s in det.detect("다가")] == [(1, 2, "ORGANIZATION")]
    assert_same(engine_spans(det, "다가"), reference_spans(f, "다가"))


def test_every_window_edge_sees_its_special_tokens(tmp_path):
    # [CLS] pushes the token after it (position 1) to S-ADDRESS through the neighbour table; every
    # window's first token gets it, but only window 0's first token is decided by that window
    f = build_context_model(tmp_path / "edge", left={"[CLS]": {"S-ADDRESS": 12.0}}, alphabet=["가"])
    det = ModelDetector(f, threads=1)
    text = "  ".join(["가"] * 300)
    assert [(s.start, s.label) for s in det.detect(text)] == [(0, "ADDRESS")]
    assert [(s.start, s.label) for s in det.detect("가")] == [(0, "ADDRESS")]


# ------------------------------------------------------------------------------ neighbours, particles
def test_neighbour_decides_the_tag(tmp_path):
    # 수 is O (.99) alone; 님 after it adds +8 to its E-PERSON: 철(B .85) 수(E) wins → PERSON 철수
    f = build_context_model(tmp_path / "nb", tags={"철": {"B-PERSON": 0.85, "O": 0.1}},
                            right={"님": {"E-PERSON": 8.0}}, alphabet=list("철수님 안녕"))
    det = ModelDetector(f, threads=1)
    text = "철수님 안녕"
    assert [(text[s.start:s.end], s.label) for s in det.detect(text)] == [("철수", "PERSON")]  # 님 stripped
    assert det.detect("철수 안녕") == []


def test_particles_two_character_guard_and_bare_i_ga(tmp_path):
    f = build_context_model(tmp_path / "pp", tags={
        "호": "B-ORGANIZATION", "는": "E-ORGANIZATION",            # 호는: counter + particle, 2 chars
        "김": "B-PERSON", "철": "I-PERSON", "수": "I-PERSON", "가": "E-PERSON",   # 김철수가
        "7": "B-ADDRESS", "9": "I-ADDRESS", "에": "E-ADDRESS",     # 79에
    }, alphabet=list("호는김철수가79에 "))
    det = ModelDetector(f, threads=1)
    text = "호는 김철수가 79에"
    assert [(text[s.start:s.end], s.label) for s in det.detect(text)] == [
        ("호는", "ORGANIZATION"),   # never cut to 1 character
        ("김철수가", "PERSON"),      # bare 가 is not on the reference's PERSON list
        ("79", "ADDRESS")]          # after a digit, 에 goes


# ------------------------------------------------------------------------------ o_bias, skip_ids, input
def test_o_bias_is_subtracted_from_the_o_logit(tmp_path):
    # 김: S-PERSON .35, O .55 → O wins by log(.55/.35) = 0.452; subtracting 0.5 from O flips it, 0.4 not
    f = build_context_model(tmp_path / "ob", tags={"김": {"S-PERSON": 0.35, "O": 0.55}}, alphabet=list("김"))
    assert math.log(0.55 / 0.35) == pytest.approx(0.452, abs=1e-3)
    assert ModelDetector(f, threads=1).detect("김") == []
    assert ModelDetector(f, threads=1, o_bias=0.4).detect("김") == []
    assert [s.label for s in ModelDetector(f, threads=1, o_bias=0.5).detect("김")] == ["PERSON"]
    assert ModelDetector(f, threads=1, o_bias=-0.5).detect("김") == []
    got = engine_spans(ModelDetector(f, threads=1, o_bias=0.5), "김")
    assert_same(got, reference_spans(f, "김", o_bias=0.5))


class RecordingSession:
    """Wraps the real onnxruntime session and records every ``input_ids`` batch fed to it."""

    def __init__(self, inner):
        self.inner = inner
        self.rows: list[list[int]] = []

    def run(self, names, feed):
        mask = feed.get("attention_mask")
        for r, row in enumerate(feed["input_ids"]):
            n = int(mask[r].sum()) if mask is not None else len(row)
            self.rows.append([int(x) for x in row[:n]])
        return self.inner.run(names, feed)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def _recording(det):
    rec = RecordingSession(det.model.session)
    return ModelDetector(det.model.path, model=replace(det.model, session=rec), skip_ids=det.skip_ids), rec


def _decode_rows(folder, rows):
    vocab = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))["model"]["vocab"]
    inv = {i: t for t, i in vocab.items()}
    return ["".join(inv[i] for i in row) for row in rows]


def test_skip_ids_is_on_by_default_and_hides_identifiers_from_the_model(tmp_path):
    f = build_context_model(tmp_path / "sk", tags={"김": "B-PERSON", "수": "E-PERSON"})
    text = "김수 주문 AB12CD34 김수"
    det, rec = _recording(ModelDetector(f, threads=1))
    assert det.skip_ids
    spans = det.detect(text)
    assert _decode_rows(f, rec.rows) == ["[CLS]김수주문김수[SEP]"]
    assert [(s.start, s.end) for s in spans] == [(0, 2), (15, 17)]  # offsets still into the original
    det2, rec2 = _recording(ModelDetector(f, threads=1, skip_ids=False))
    det2.detect(text)
    assert _decode_rows(f, rec2.rows) == ["[CLS]김수주문AB12CD34김수[SEP]"]


def test_the_model_reads_the_original_text_even_with_rules_and_spacing(tmp_path):
    from veil_desktop.detect.default import CombinedDetector
    from veil_desktop.detect.rules import RuleDetector

    f = build_context_model(tmp_path / "orig", tags={"김": "B-PERSON", "민": "I-PERSON", "준": "E-PERSON"})
    det, rec = _recording(ModelDetector(f, threads=1))
    text = "고객 김 민준 이요. 될 수 있으면 딸 김태은 씨에게 010-1234-5678 로 연락."
    combined = CombinedDetector(det, RuleDetector())
    spans = combined.detect(text)
    rows = _decode_rows(f, rec.rows)
    assert rows[0] == "[CLS]" + "".join(text.split()) + "[SEP]"   # main pass: the text as written
    # the extra spacing pass reads a joined copy of the split region only, and comes after
    assert all("김민준" in r for r in rows[1:]) and len(rows) == 2
    got = {text[s.start:s.end]: s.label for s in spans}
    assert got["김 민준"] == "PERSON" and got["010-1234-5678"] == "PHONE"
