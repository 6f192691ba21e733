"""The window's slice-by-slice detection (``ui/slicing.py``): where it cuts, and that it finds what the
whole-text detector finds (production detector over a tiny real model folder, plus the rule stage)."""
from __future__ import annotations

import random

import pytest

from tests.fixtures.tiny_model import build_tiny_model
from tests.ui_helpers import ENTITIES, production_detector, sample_text
from veil_desktop.detect.events import Progress, SpansFound
from veil_desktop.detect.driver import FIRST_SLICE_CHARS, slice_bounds, drive

SAMPLE = sample_text()


@pytest.fixture(scope="module")
def detector(tmp_path_factory):
    return production_detector(build_tiny_model(tmp_path_factory.mktemp("tiny") / "model", entities=ENTITIES))


def check_bounds(text, bounds):
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    for (a, b), (c, _d) in zip(bounds, bounds[1:]):
        assert a < b == c
        assert text[b - 1] == "\n"  # every cut is right after a line break, never inside a line


def test_slice_bounds_cut_after_line_breaks_and_prefer_blank_lines():
    rng = random.Random(7)
    for _ in range(200):
        lines = ["".join(rng.choice("가나다 라마바사\t") for _ in range(rng.randint(0, 120)))
                 for _ in range(rng.randint(1, 80))]
        text = "".join(line + rng.choice(["\n", "\n", "\n\n", "\n \n"]) for line in lines)
        bounds = slice_bounds(text, size=rng.randint(1, 400))
        check_bounds(text, bounds)
    # a blank line within reach wins over the first plain line break after the target size
    text = "a" * 6 + "\n" + "b" + "\n\n" + "c" * 10
    assert slice_bounds(text, size=5) == [(0, 10), (10, 20)]
    # no blank line within one more slice length: the first line break after the target size
    text = "a" * 10 + "\n" + "b" * 10 + "\n\n" + "c" * 10
    assert slice_bounds(text, size=8) == [(0, 11), (11, 23), (23, 33)]
    # one long line stays whole (an address or a name may contain spaces, never a line break)
    line = "서울특별시 강남구 테헤란로 152 " * 50
    assert slice_bounds(line, size=100) == [(0, len(line))]
    assert slice_bounds("", size=10) == [(0, 0)]


def test_sliced_stream_finds_what_the_whole_text_detector_finds(detector):
    text = "\n\n".join(f"[{i}]\n{SAMPLE}" for i in range(30))
    whole = sorted(detector.detect(text))
    for size, first in ((2_000, (len(text) // 2, len(text) // 2 + 500)), (700, None), (10**9, (5, 9)),
                        (10**9, (len(text) // 2, len(text) // 2 + 500))):
        spans, progress = [], []
        for ev in drive(detector, text, first=first, size=size):
            if isinstance(ev, SpansFound):
                spans.extend(ev.spans)
            else:
                assert isinstance(ev, Progress)
                progress.append((ev.done, ev.total))
        assert sorted(spans) == whole, size
        assert len(spans) == len(set(spans))  # each span once
        assert progress[-1] == (len(text), len(text))
        assert all(d <= t for d, t in progress)
    # the visible slice comes first, and inside it the ~FIRST_SLICE_CHARS piece on screen: the first spans
    # delivered are near ``first``
    mid = len(text) // 2
    for size in (2_000, 10**9):
        first_batch = next(ev for ev in drive(detector, text, first=(mid, mid + 10), size=size)
                           if isinstance(ev, SpansFound))
        assert all(abs(s.start - mid) < min(size, FIRST_SLICE_CHARS) + 2 * len(SAMPLE) for s in first_batch.spans)


def test_sliced_stream_stops_between_slices_when_cancelled(detector):
    text = "\n\n".join(f"[{i}]\n{SAMPLE}" for i in range(30))
    stop = {"now": False}
    seen = []
    for ev in drive(detector, text, cancelled=lambda: stop["now"], size=2_000):
        if isinstance(ev, SpansFound):
            seen.extend(ev.spans)
            stop["now"] = True
    assert seen and max(s.end for s in seen) <= 2_000 + len(SAMPLE) + 10  # nothing past the first slice
