"""Own windows: 126+2 tokens, step 110, 8/8 overlap split, every token decided exactly once."""
import numpy as np
import pytest

from veil_desktop.detect.windows import CONTENT_TOKENS, STEP, Window, build_batch, plan_windows, windows_order


@pytest.mark.parametrize("n", [1, 2, 125, 126, 127, 128, 236, 237, 238, 346, 347, 1000, 4999, 5000])
def test_every_token_decided_exactly_once(n):
    ws = plan_windows(n)
    decided = np.zeros(n, dtype=int)
    for w in ws:
        decided[w.keep_start:w.keep_end] += 1
        assert w.start <= w.keep_start < w.keep_end <= w.end
        assert 0 < w.length <= CONTENT_TOKENS
    assert (decided == 1).all()
    assert ws[-1].end == n and ws[0].start == 0


def test_all_lengths_up_to_5000_tile_exactly():
    for n in range(1, 5001):
        ws = plan_windows(n)
        assert ws[0].keep_start == 0 and ws[-1].keep_end == n
        for a, b in zip(ws, ws[1:]):
            assert a.keep_end == b.keep_start  # contiguous: no gap, no double decision
            assert b.start - a.start == STEP
            assert a.end - b.start == CONTENT_TOKENS - STEP or a.end == n  # 16-token overlap
            assert a.keep_end - b.start == 8 and a.end - a.keep_end == 8  # 8/8 split


def test_geometry_of_a_long_sequence():
    ws = plan_windows(1000)
    assert [(w.start, w.end) for w in ws[:3]] == [(0, 126), (110, 236), (220, 346)]
    assert [(w.keep_start, w.keep_end) for w in ws[:3]] == [(0, 118), (118, 228), (228, 338)]
    assert len(ws) == 9 and ws[-1].start == 880 and ws[-1].end == 1000
    assert plan_windows(0) == []
    assert plan_windows(126) == [Window(0, 0, 126, 0, 126)]


def test_first_range_windows_come_first():
    n = 1000
    starts = np.arange(n) * 2
    ends = starts + 1  # token i covers character 2i
    ws = plan_windows(n)
    # characters 1000..1010 are tokens 500..505: decided by window 4 (keep 448..558)
    order = windows_order(ws, starts, ends, (1000, 1010))
    assert order[0].index == 4 and sorted(w.index for w in order) == list(range(len(ws)))
    assert [w.index for w in order[1:]] == [0, 1, 2, 3, 5, 6, 7, 8]
    # a range across a decision boundary (token 558 = character 1116) needs both windows
    order = windows_order(ws, starts, ends, (1110, 1120))
    assert [w.index for w in order[:2]] == [4, 5]
    assert windows_order(ws, starts, ends, None) == ws
    assert windows_order(ws, starts, ends, (5, 5)) == ws


def test_build_batch_pads_only_as_needed_and_feeds_declared_inputs():
    ids = np.arange(10, 310, dtype=np.int64)
    ws = plan_windows(300)
    last = ws[-2:]  # a full window and the short last one
    feed = build_batch(ids, last, cls_id=2, sep_id=3, pad_id=0,
                       input_names=("input_ids", "attention_mask", "token_type_ids"),
                       input_dtypes=(np.int64, np.int64, np.int32))
    x = feed["input_ids"]
    assert x.shape == (2, 128)
    assert x[0, 0] == 2 and x[0, 127] == 3 and list(x[0, 1:127]) == list(ids[last[0].start:last[0].end])
    n = last[1].length
    assert x[1, n + 1] == 3 and (x[1, n + 2:] == 0).all()
    assert feed["attention_mask"][1].sum() == n + 2 and feed["attention_mask"][0].sum() == 128
    assert feed["token_type_ids"].dtype == np.int32 and not feed["token_type_ids"].any()
    short = build_batch(ids, [ws[-1]], cls_id=2, sep_id=3, pad_id=0, input_names=("input_ids",),
                        input_dtypes=(np.int64,))
    assert set(short) == {"input_ids"} and short["input_ids"].shape == (1, ws[-1].length + 2)
