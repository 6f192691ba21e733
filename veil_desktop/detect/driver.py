"""Detection over bounded slices of a long text, so the pool worker never holds the GIL for long and the
first highlight does not wait for the whole document. No Qt here.

``slice_bounds`` cuts a text at paragraph boundaries into slices of about ``SLICE_CHARS`` characters:
preferably at a blank line (looked for up to one more slice length), else at the first line break after
the target size; never inside a line (an address or a name never spans a
line break in one piece, but does span spaces). A single line longer than the limit stays whole.

``sliced_stream`` runs ``detector.stream`` slice by slice — the slice holding the visible range first
(itself cut into ~``FIRST_SLICE_CHARS`` pieces, the one on screen first), then the rest in document order — shifting spans to text offsets, checking ``cancelled()`` between slices
(and the detector checks it between batches), and reporting ``Progress`` in characters.

Why at this level: the default detector runs its rule stage over the whole text before the first model
batch, and tokenises all of it first; over 1M characters that is seconds of mostly GIL-holding work before
anything can be highlighted, and regular-expression calls that hold the GIL for a quarter of a second at a
time. Per slice both are bounded. The price: the model's context stops at a slice boundary (a paragraph
break), so a span right at a boundary can differ from whole-text detection; ``benchmarks/bench_ui.py``
counts how often on the shipped model. Export checks the whole text for unmasked copies regardless.
"""
from __future__ import annotations

import re
from typing import Iterator

from ..detect.events import Cancelled, Detector, Event, Progress, SpansFound, never_cancelled

#: target slice size in characters (a slice ends at the first paragraph break after this many)
SLICE_CHARS = 16_384
#: the slice holding the visible range is cut finer: the first highlight waits for one of these
FIRST_SLICE_CHARS = 4_096
_BLANK = re.compile(r"\n[ \t\r\f\v]*\n")


def slice_bounds(text: str, size: int = SLICE_CHARS) -> list[tuple[int, int]]:
    """``[(a, b), ...]`` covering ``text`` in order; every cut is right after a line break."""
    n = len(text)
    bounds: list[tuple[int, int]] = []
    a = 0
    while n - a > size:
        m = _BLANK.search(text, a + size, min(n, a + 2 * size))
        if m is not None:
            cut = m.end()
        else:
            nl = text.find("\n", a + size)
            if nl < 0:
                break
            cut = nl + 1
        if cut >= n:
            break
        bounds.append((a, cut))
        a = cut
    bounds.append((a, n))
    return bounds


def sliced_stream(detector: Detector, text: str, *, cancelled: Cancelled = never_cancelled,
                  first: tuple[int, int] | None = None, size: int = SLICE_CHARS) -> Iterator[Event]:
    """``detector.stream`` over ``slice_bounds(text, size)`` (see the module docstring)."""
    bounds = slice_bounds(text, size)
    if first is not None:
        lead = next((i for i, (a, b) in enumerate(bounds) if a <= first[0] < b), 0)
        # the slice on screen is cut finer, so the first highlight waits for a few thousand characters
        la, lb = bounds[lead]
        pieces = [(la + a, la + b) for a, b in slice_bounds(text[la:lb], min(size, FIRST_SLICE_CHARS))]
        on_screen = next((i for i, (a, b) in enumerate(pieces) if a <= first[0] < b), 0)
        bounds = ([pieces[on_screen]] + pieces[:on_screen] + pieces[on_screen + 1:]
                  + bounds[:lead] + bounds[lead + 1:])
    total = max(1, len(text))
    done = 0
    yield Progress(0, total)
    for a, b in bounds:
        if cancelled():
            return
        local_first = None
        if first is not None and a <= first[0] < b:
            local_first = (first[0] - a, min(first[1], b) - a)
        part = b - a
        for ev in detector.stream(text[a:b], cancelled=cancelled, first=local_first):
            if isinstance(ev, SpansFound):
                yield SpansFound(tuple(s.shifted(a) for s in ev.spans) if a else ev.spans)
            elif isinstance(ev, Progress) and ev.total > 0:
                yield Progress(done + part * min(ev.done, ev.total) // ev.total, total)
        done += part
        yield Progress(done, total)
