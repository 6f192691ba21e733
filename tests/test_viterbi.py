"""Constrained BIOES Viterbi: brute force agreement, numba == numpy, constraints, fallbacks."""
import itertools

import numpy as np
import pytest

from veil_desktop.detect import viterbi as V
from veil_desktop.detect.model_folder import LabelScheme
from tests.fixtures.tiny_model import BIOES_LABELS

SCHEME = LabelScheme.from_labels(BIOES_LABELS)
TRANS, START, END = V.transitions(SCHEME.kinds, SCHEME.types)
SMALL = LabelScheme.from_labels(["O", "B-A", "I-A", "E-A", "S-A", "B-B", "I-B", "E-B", "S-B"])
S_TRANS, S_START, S_END = V.transitions(SMALL.kinds, SMALL.types)


def _brute_force(emis, trans, start, end):
    """Best path by scoring every one of L**T paths (vectorised)."""
    t_len, n_lab = emis.shape
    paths = np.array(list(itertools.product(range(n_lab), repeat=t_len)), dtype=np.int64)
    score = start[paths[:, 0]] + emis[0, paths[:, 0]]
    for t in range(1, t_len):
        score = score + trans[paths[:, t - 1], paths[:, t]] + emis[t, paths[:, t]]
    score = score + end[paths[:, -1]]
    return tuple(paths[int(np.argmax(score))]), float(np.sort(score)[-1] - np.sort(score)[-2]) if len(score) > 1 else 1.0


def _valid(path, scheme):
    k, ty = scheme.kinds, scheme.types
    if k[path[0]] in (2, 3) or k[path[-1]] in (1, 2):
        return False
    for a, b in zip(path, path[1:]):
        if k[a] in (1, 2):
            if not (k[b] in (2, 3) and ty[a] == ty[b]):
                return False
        elif k[b] in (2, 3):
            return False
    return True


@pytest.mark.parametrize("use_numba", [True, False])
def test_matches_brute_force_on_short_sequences(use_numba):
    rng = np.random.default_rng(1)
    checked = 0
    for t_len in range(1, 6):
        for _ in range(6):
            logits = (rng.normal(size=(1, t_len, 9)) * 3).astype(np.float32)
            emis = V.log_softmax(logits)
            best, margin = _brute_force(emis[0], S_TRANS, S_START, S_END)
            if margin < 1e-4:
                continue  # a near-tie: either answer is right
            got = V.viterbi(emis, np.array([t_len]), S_TRANS, S_START, S_END, use_numba=use_numba)
            assert tuple(got[0, :t_len]) == best
            assert _valid(best, SMALL)
            checked += 1
    assert checked >= 25


def test_brute_force_with_the_13_label_set():
    rng = np.random.default_rng(2)
    for t_len in (1, 2, 3):
        for _ in range(5):
            emis = V.log_softmax((rng.normal(size=(1, t_len, 13)) * 2).astype(np.float32))
            best, margin = _brute_force(emis[0], TRANS, START, END)
            got = V.viterbi(emis, np.array([t_len]), TRANS, START, END)
            assert tuple(got[0, :t_len]) == best


def test_numba_and_numpy_agree_exactly_on_random_batches():
    rng = np.random.default_rng(3)
    for scale in (0.5, 2.0, 8.0):
        logits = (rng.normal(size=(16, 126, 13)) * scale).astype(np.float32)
        lengths = rng.integers(1, 127, size=16)
        lengths[0] = 126
        emis = V.log_softmax(logits)
        a = V.viterbi(emis, lengths, TRANS, START, END, use_numba=True)
        b = V.viterbi(emis, lengths, TRANS, START, END, use_numba=False)
        np.testing.assert_array_equal(a, b)
        for r in range(16):
            assert _valid(tuple(a[r, :lengths[r]]), SCHEME)
            assert not a[r, lengths[r]:].any()


def test_kernel_is_numba_here():
    assert V.backend().startswith("numba")


def test_transition_constraints():
    idx = {lab: i for i, lab in enumerate(BIOES_LABELS)}
    ok = [("O", "B-PERSON"), ("O", "S-ADDRESS"), ("E-PERSON", "B-ORGANIZATION"), ("S-PERSON", "O"),
          ("B-PERSON", "I-PERSON"), ("I-PERSON", "E-PERSON"), ("B-ADDRESS", "E-ADDRESS")]
    bad = [("O", "I-PERSON"), ("O", "E-PERSON"), ("B-PERSON", "E-ADDRESS"), ("B-PERSON", "O"),
           ("I-PERSON", "B-PERSON"), ("S-PERSON", "I-PERSON"), ("E-PERSON", "E-PERSON")]
    for a, b in ok:
        assert TRANS[idx[a], idx[b]] == 0.0, (a, b)
    for a, b in bad:
        assert TRANS[idx[a], idx[b]] == V.FORBIDDEN, (a, b)
    assert START[idx["I-PERSON"]] == V.FORBIDDEN and START[idx["B-PERSON"]] == 0.0
    assert END[idx["B-PERSON"]] == V.FORBIDDEN and END[idx["E-PERSON"]] == 0.0
    assert np.isfinite(TRANS).all()


def test_constraints_override_a_greedy_argmax():
    # token-wise argmax would be I-PERSON, O: not a valid path
    emis = np.full((1, 2, 13), -5.0, dtype=np.float32)
    emis[0, 0, 2] = -0.1  # I-PERSON
    emis[0, 0, 1] = -0.5  # B-PERSON
    emis[0, 1, 0] = -0.1  # O
    emis[0, 1, 3] = -0.3  # E-PERSON
    got = V.viterbi(emis, np.array([2]), TRANS, START, END)
    assert list(got[0]) == [1, 3]


def test_log_softmax_and_bias():
    logits = np.array([[[1.0, 2.0, 3.0]]], dtype=np.float32)
    lp = V.log_softmax(logits)
    np.testing.assert_allclose(np.exp(lp).sum(-1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(lp[0, 0], np.log(np.exp([1, 2, 3]) / np.exp([1, 2, 3]).sum()), rtol=1e-5)
    biased = V.log_softmax(logits, np.array([2.0, 0, 0], dtype=np.float32))
    assert biased[0, 0, 0] > lp[0, 0, 0]


def test_compile_falls_back_without_a_cache_then_without_numba(monkeypatch):
    numba = pytest.importorskip("numba")
    real = numba.njit

    def no_cache(*args, **kw):
        if kw.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return real(*args, **kw)

    monkeypatch.setattr(numba, "njit", no_cache)
    k, desc = V._compile()
    assert desc == "numba (not cached)"
    emis = V.log_softmax(np.random.default_rng(4).normal(size=(2, 20, 13)).astype(np.float32))
    out = np.zeros((2, 20), dtype=np.int32)
    k(emis, np.array([20, 7], dtype=np.int64), TRANS, START, END, out)
    np.testing.assert_array_equal(out, V.viterbi(emis, np.array([20, 7]), TRANS, START, END, use_numba=False))

    def broken(*args, **kw):
        raise RuntimeError("LLVM exploded")

    monkeypatch.setattr(numba, "njit", broken)
    k, desc = V._compile()
    assert k is V.viterbi_numpy and desc.startswith("numpy")
    monkeypatch.setenv("VEIL_NO_NUMBA", "1")
    assert V._compile()[0] is V.viterbi_numpy


def test_warm_up_from_a_thread():
    import threading

    result = []
    th = threading.Thread(target=lambda: result.append(V.warm_up()))
    th.start()
    th.join(60)
    assert result and result[0].startswith("numba")
