"""The one detector driver: detection over bounded slices of a long text, with progress, cancel and the
region on screen first. Used by the window (``ui/worker.py``), the workspace's background queue,
``veil-redact detect`` and ``veil-redact redact``. No Qt here.

Every caller goes through :func:`drive` (an event stream) or :func:`detect_spans` (all spans, sorted);
the ``Detector`` protocol (``detect/events.py``) requires ``stream``, and nothing here asks whether a
detector has one. Two slice sizes: the window's (``SLICE_CHARS``, small, so the pool worker never holds
the GIL for long and the first highlight does not wait for the whole document) and the batch's
(``BATCH_SLICE_CHARS``, large, so the detector's working memory stays bounded — ~0.55 KB per character in
flight, measured — whatever the length, with a hard cap ``max_chars`` at a line break or space).

``slice_bounds`` cuts a text at paragraph boundaries into slices of about ``SLICE_CHARS`` characters:
preferably at a blank line (looked for up to one more slice length), else at the first line break after
the target size; never inside a line (an address or a name never spans a
line break in one piece, but does span spaces). A single line longer than the limit stays whole.

``drive`` runs ``detector.stream`` slice by slice — the slice holding the visible range first
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

from typing import Callable

from .events import Cancelled, Detector, Event, Progress, SpansFound, never_cancelled
from .span import Span, sort_spans

#: target slice size in characters (a slice ends at the first paragraph break after this many)
SLICE_CHARS = 16_384
#: the slice holding the visible range is cut finer: the first highlight waits for one of these
FIRST_SLICE_CHARS = 4_096
#: the batch callers' slices (CLI, workspace): a slice ends at a line break after this many characters...
BATCH_SLICE_CHARS = 300_000
#: ... and is never longer than this (cut at a line break or a space, else hard)
BATCH_MAX_CHARS = 400_000
_BLANK = re.compile(r"\n[ \t\r\f\v]*\n")


class DetectionCancelled(Exception):
    """:func:`detect_spans` was cancelled before the whole text was read."""


def slice_bounds(text: str, size: int = SLICE_CHARS, *, max_chars: int | None = None) -> list[tuple[int, int]]:
    """``[(a, b), ...]`` covering ``text`` in order; every cut is right after a line break — unless
    ``max_chars`` is given and no line break comes before it: then right after the last space before it,
    else at ``max_chars`` (a slice is then never longer than ``max_chars``)."""
    n = len(text)
    bounds: list[tuple[int, int]] = []
    a = 0
    while n - a > size:
        limit = n if max_chars is None else min(n, a + max_chars)
        m = _BLANK.search(text, a + size, min(limit, a + 2 * size))
        if m is not None:
            cut = m.end()
        else:
            nl = text.find("\n", a + size, limit)
            if nl >= 0:
                cut = nl + 1
            elif max_chars is None:
                break
            elif limit >= n:
                break
            else:
                sp = text.rfind(" ", a + size, limit)
                cut = sp + 1 if sp >= 0 else limit
        if cut >= n:
            break
        bounds.append((a, cut))
        a = cut
    bounds.append((a, n))
    return bounds


def drive(detector: Detector, text: str, *, cancelled: Cancelled = never_cancelled,
          first: tuple[int, int] | None = None, size: int = SLICE_CHARS,
          max_chars: int | None = None) -> Iterator[Event]:
    """``detector.stream`` over ``slice_bounds(text, size, max_chars=…)``, spans shifted to text offsets,
    ``Progress`` in characters, ``cancelled()`` polled between slices (the detector polls it between
    batches); ``first``: the range on screen, whose slice (cut finer) goes first."""
    bounds = slice_bounds(text, size, max_chars=max_chars)
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


def detect_spans(detector: Detector, text: str, *, cancelled: Cancelled = never_cancelled,
                 on_progress: Callable[[int, int], None] | None = None, size: int | None = None,
                 max_chars: int | None = None) -> list[Span]:
    """Every span of ``text`` in document order, read in batch slices (``BATCH_SLICE_CHARS`` /
    ``BATCH_MAX_CHARS`` unless given); ``on_progress(done, total)`` in characters. Raises
    :class:`DetectionCancelled` when ``cancelled()`` turned true before the end."""
    if not text.strip():
        return []
    spans: list[Span] = []
    if size is None:
        size, max_chars = BATCH_SLICE_CHARS, max_chars or BATCH_MAX_CHARS
    max_chars = max_chars or size * 4 // 3
    for ev in drive(detector, text, cancelled=cancelled, size=size, max_chars=max_chars):
        if isinstance(ev, SpansFound):
            spans.extend(ev.spans)
        elif on_progress is not None and isinstance(ev, Progress):
            on_progress(ev.done, ev.total)
    if cancelled():
        raise DetectionCancelled()
    return sort_spans(spans)
