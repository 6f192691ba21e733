"""Post-processing of model spans, in the order PIPELINE.md prescribes.

1. trim whitespace at both ends of each span;
2. merge same-label spans that touch across a window boundary (gap: whitespace only, at most 1 char);
3. resolve remaining overlaps by keeping the higher-scoring span;
4. strip particles (조사) — PERSON: strong particles (이라고/에게/한테/님/씨) when ≥2 characters remain, weak
   one-syllable ones (은/는/을/를/의/도/과/와/랑 — no bare 이/가, as in the reference) when ≥3 remain,
   vocative 아/야 only when it agrees with the preceding syllable's final consonant (지훈아, 철수야; 수아
   keeps its 아); other labels drop a trailing particle (their list includes 만) only after a digit or a
   counter syllable (일/년/월/호/번/층/동/실) and only when at least 2 characters remain: ``…79에`` →
   ``…79``, but ``호는`` stays ``호는``;
5. merge adjacent ADDRESS spans separated by at most one whitespace character.

Every step is *local*: a span only interacts with spans it overlaps or touches. The streaming engine
relies on this to finalise the spans of a run of finished windows without waiting for the rest.

A :class:`Piece` is the working form of a span: character offsets plus the token extent and the sum of the
chosen tags' probabilities, so merged spans get the token-weighted mean probability as score.
"""
from __future__ import annotations

from typing import Iterable, NamedTuple

from .span import Span


class Piece(NamedTuple):
    """``text[start:end]`` labelled ``label``; tokens ``[tok_start, tok_end)``; ``prob_sum`` over ``n_tok``.

    A named tuple rather than a dataclass: thousands are made per document and tuples are cheapest."""

    start: int
    end: int
    label: str
    prob_sum: float
    n_tok: int
    tok_start: int
    tok_end: int

    @property
    def score(self) -> float:
        return min(1.0, max(0.0, self.prob_sum / self.n_tok)) if self.n_tok else 0.0

    def to_span(self) -> Span:
        score = self.prob_sum / self.n_tok if self.n_tok else 0.0
        return Span(self.start, self.end, self.label, 1.0 if score > 1.0 else (score if score > 0.0 else 0.0),
                    "model")


def _joined(a: Piece, b: Piece) -> Piece:
    return Piece(a.start, b.end, a.label, a.prob_sum + b.prob_sum, a.n_tok + b.n_tok,
                 min(a.tok_start, b.tok_start), max(a.tok_end, b.tok_end))


def _small_gap(text: str, a: Piece, b: Piece) -> bool:
    gap = text[a.end:b.start]
    return b.start >= a.end and len(gap) <= 1 and (gap == "" or gap.isspace())


# ---------------------------------------------------------------------------------------------- step 1
def trim_whitespace(pieces: Iterable[Piece], text: str) -> list[Piece]:
    out = []
    for p in pieces:
        s, e = p.start, p.end
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append(p if (s, e) == (p.start, p.end) else p._replace(start=s, end=e))
    return out


# ---------------------------------------------------------------------------------------------- step 2
def merge_across_windows(pieces: list[Piece], text: str, boundaries: set[int]) -> list[Piece]:
    """``boundaries``: token indices where one window's decided tokens end and the next window's begin.
    ``pieces`` must be sorted by position."""
    if not boundaries or len(pieces) < 2:
        return list(pieces)
    out = [pieces[0]]
    for p in pieces[1:]:
        q = out[-1]
        if (q.tok_end == p.tok_start and p.tok_start in boundaries and q.label == p.label
                and _small_gap(text, q, p)):
            out[-1] = _joined(q, p)
        else:
            out.append(p)
    return out


# ---------------------------------------------------------------------------------------------- step 3
def resolve_overlaps(pieces: list[Piece]) -> list[Piece]:
    """Keep the higher-scoring of overlapping spans (ties: the longer, then the earlier)."""
    if all(a.end <= b.start for a, b in zip(pieces, pieces[1:])):
        return list(pieces)  # the common case: already ordered, nothing to resolve
    ordered = sorted(pieces, key=lambda p: (p.start, p.end))
    kept: list[Piece] = []
    for p in sorted(ordered, key=lambda p: (-p.score, -(p.end - p.start), p.start)):
        if all(p.end <= k.start or k.end <= p.start for k in kept):
            kept.append(p)
    return sorted(kept, key=lambda p: (p.start, p.end))


# ---------------------------------------------------------------------------------------------- step 4
PERSON_STRONG = ("이라고", "에게", "한테", "님", "씨")
# The reference's PERSON list has no bare 이/가 (a name ending in 이 is common: 영희이 is not a thing to cut
# at, and 지지율이/40%가 must not be reshaped); its list for other labels includes 만.
PERSON_WEAK = ("은", "는", "을", "를", "의", "도", "과", "와", "랑")
OTHER_PARTICLES = ("에서", "으로", "에게", "까지", "부터", "에", "로", "은", "는", "이", "가", "을", "를", "의",
                   "도", "과", "와", "랑", "만")
#: a non-PERSON span is never cut to fewer characters than this (``호는`` stays ``호는``)
OTHER_MIN_CHARS = 2
COUNTERS = frozenset("일년월호번층동실")
# last characters that can end a particle: anything else is rejected without trying every particle
_PERSON_LAST = frozenset(p[-1] for p in PERSON_STRONG + PERSON_WEAK) | {"아", "야"}
_OTHER_LAST = frozenset(p[-1] for p in OTHER_PARTICLES)


def _syllable(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


def has_final_consonant(ch: str) -> bool:
    """True when the Hangul syllable ``ch`` has a 받침 (final consonant)."""
    return _syllable(ch) and (ord(ch) - 0xAC00) % 28 != 0


def _remaining(text: str, start: int, end: int) -> int:
    """End offset after dropping trailing whitespace of ``text[start:end]``."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _strip_person(text: str, start: int, end: int) -> int:
    if text[end - 1] not in _PERSON_LAST:
        return end
    for _ in range(3):  # 김철수님이 -> 김철수님 -> 김철수
        s = text[start:end]
        new = end
        for part in PERSON_STRONG:
            if s.endswith(part) and len(s) > len(part):
                cut = _remaining(text, start, end - len(part))
                if cut - start >= 2:
                    new = cut
                break
        else:
            for part in PERSON_WEAK:
                if s.endswith(part) and len(s) > len(part):
                    cut = _remaining(text, start, end - len(part))
                    if cut - start >= 3:
                        new = cut
                    break
            else:
                if len(s) >= 3 and s[-1] in "아야":
                    prev = s[-2]
                    agrees = _syllable(prev) and has_final_consonant(prev) == (s[-1] == "아")
                    if agrees:
                        new = end - 1
        if new == end:
            break
        end = new
    return end


def _strip_other(text: str, start: int, end: int) -> int:
    if text[end - 1] not in _OTHER_LAST:
        return end
    s = text[max(start, end - 4):end] if end - start > 4 else text[start:end]
    for part in OTHER_PARTICLES:
        if s.endswith(part) and len(s) > len(part):
            prev = s[-len(part) - 1]
            if (prev.isdigit() or prev in COUNTERS) and end - len(part) - start >= OTHER_MIN_CHARS:
                return end - len(part)
            return end  # the longest matching particle decides
    return end


def strip_particles(pieces: Iterable[Piece], text: str) -> list[Piece]:
    out = []
    for p in pieces:
        end = _strip_person(text, p.start, p.end) if p.label == "PERSON" else _strip_other(text, p.start, p.end)
        out.append(p if end == p.end else p._replace(end=end))
    return out


# ---------------------------------------------------------------------------------------------- step 5
def merge_addresses(pieces: list[Piece], text: str) -> list[Piece]:
    if len(pieces) < 2:
        return list(pieces)
    out = [pieces[0]]
    for p in pieces[1:]:
        q = out[-1]
        if q.label == p.label == "ADDRESS" and _small_gap(text, q, p):
            out[-1] = _joined(q, p)
        else:
            out.append(p)
    return out


def postprocess(pieces: list[Piece], text: str, boundaries: set[int] = frozenset()) -> list[Piece]:
    """All five steps, in order, over ``pieces`` (sorted by token position) of one run of windows."""
    pieces = trim_whitespace(pieces, text)
    pieces = merge_across_windows(pieces, text, set(boundaries))
    pieces = resolve_overlaps(pieces)
    pieces = strip_particles(pieces, text)
    return merge_addresses(pieces, text)
