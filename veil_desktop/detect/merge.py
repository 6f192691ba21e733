"""Merge model spans with rule spans into one sorted, non-overlapping list.

Priority (applied in this order; every output span keeps the ``source`` of the span it came from):

1. **Structured rule spans win.** A rule span whose label is not ADDRESS (PHONE, RRN, CARD, … — formats a
   model over PERSON/ADDRESS/ORGANIZATION never owns) is kept unchanged. A model span overlapping it is
   *cut*: the parts outside the rule span survive, trimmed of spaces and punctuation at their edges, if they
   still hold at least ``MIN_PIECE`` letters or digits (a model ADDRESS swallowing ``(06234)`` keeps the
   address; a model PERSON over ``010-1234-5678`` disappears).
2. **ADDRESS + ADDRESS → union.** A rule ADDRESS and the model ADDRESS pieces overlapping it (transitively)
   become one span covering all of them: the grammar's full ``…로 12, 102동 304호`` and the model's view of
   the same address never leave a gap. Score = the highest; source = the member covering most characters.
3. **Anything else that still overlaps** (a rule ADDRESS against a model PERSON/ORGANIZATION piece): an
   ADDRESS that *contains* the other span wins (``정부세종청사`` inside ``…도움6로 11, 정부세종청사 5동``
   is part of the address); otherwise the higher score wins, then the longer span, then the earlier. The
   loser is **cut, not dropped**: its parts outside the winner survive like in rule 1, so resolving an
   overlap never unmasks a character that either span covered.

Model spans must not overlap each other (the Detector contract); rule spans are resolved among themselves
first (as ``RuleDetector`` does). ``split_model_span`` and ``resolve_with_addresses`` are the two steps the
streaming ``CombinedDetector`` (``detect/default.py``) uses, so a stream and ``merge_spans`` agree exactly.
"""
from __future__ import annotations

import re
from typing import Iterable

from .span import MODEL_LABELS, Span, sort_spans

#: a cut model piece must keep at least this many letters/digits to survive
MIN_PIECE = 2
_WORDCHAR = re.compile(r"[0-9A-Za-z가-힣ㄱ-ㅎㅏ-ㅣ一-鿿０-９Ａ-Ｚａ-ｚ]")
_EDGE = " \t\r\n,.;:()[]{}<>\"'“”‘’·-/"


def is_structured(span: Span) -> bool:
    """A rule span that always beats model spans: a validated identifier. The rule stage's spans of the
    model's own labels (its address grammar; context names and organisations, ``rules/names.py``) are not:
    they compete with model spans like addresses do (score, then length; a full tie keeps the model's)."""
    return span.source == "rule" and span.label not in MODEL_LABELS


class StructuredIndex:
    """Sorted structured rule spans with a start index for fast overlap queries."""

    def __init__(self, spans: Iterable[Span]) -> None:
        self.spans = sort_spans(spans)
        self.starts = [s.start for s in self.spans]

    def overlapping(self, a: int, b: int) -> list[Span]:
        import bisect

        i = max(0, bisect.bisect_right(self.starts, a) - 1)
        out = []
        while i < len(self.spans) and self.spans[i].start < b:
            if self.spans[i].end > a:
                out.append(self.spans[i])
            i += 1
        return out


def _trimmed(text: str | None, a: int, b: int) -> tuple[int, int] | None:
    if text is None:
        return (a, b) if b - a >= MIN_PIECE else None
    while a < b and text[a] in _EDGE:
        a += 1
    while b > a and text[b - 1] in _EDGE:
        b -= 1
    if len(_WORDCHAR.findall(text, a, b)) < MIN_PIECE:
        return None
    return a, b


def split_model_span(span: Span, structured: StructuredIndex, text: str | None = None) -> list[Span]:
    """``span`` minus every structured rule span it overlaps (priority 1). Without ``text`` pieces are kept
    when at least ``MIN_PIECE`` characters long."""
    hits = structured.overlapping(span.start, span.end)
    return _cut(span, hits, text) if hits else [span]


def resolve_with_addresses(pieces: Iterable[Span], addresses: Iterable[Span], text: str | None = None
                           ) -> list[Span]:
    """Priorities 2 and 3 over model ``pieces`` (already cut) and rule ADDRESS spans."""
    spans = sorted([*pieces, *addresses], key=lambda s: (s.start, s.end))
    out: list[Span] = []
    i, n = 0, len(spans)
    while i < n:
        j, end = i + 1, spans[i].end
        while j < n and spans[j].start < end:
            end = max(end, spans[j].end)
            j += 1
        cluster = spans[i:j]
        i = j
        if len(cluster) == 1:
            out.append(cluster[0])
            continue
        out.extend(_resolve_cluster(cluster, text))
    return sort_spans(out)


def _cut(span: Span, blockers: list[Span], text: str | None) -> list[Span]:
    """The parts of ``span`` outside every blocker (trimmed, at least ``MIN_PIECE`` word characters)."""
    pieces, pos = [], span.start
    for b in sorted(blockers, key=lambda b: b.start):
        if b.end <= pos or b.start >= span.end:
            continue
        if b.start > pos:
            pieces.append((pos, b.start))
        pos = max(pos, b.end)
    if pos < span.end:
        pieces.append((pos, span.end))
    out = []
    for a, b in pieces:
        t = _trimmed(text, a, b)
        if t is not None:
            out.append(Span(t[0], t[1], span.label, span.score, span.source))
    return out


def _trim_union(text: str, a: int, b: int) -> tuple[int, int]:
    """Drop spaces, commas and unbalanced brackets at the edges of a union (a model span may end in
    ``…11,`` or ``…미래빌딩)``); a ``)`` closing a ``(`` inside the span stays (``…11(어진동)``)."""
    while b > a:
        ch = text[b - 1]
        if ch in " \t,;:·" or (ch == ")" and text.count("(", a, b) < text.count(")", a, b)) or ch == "(":
            b -= 1
        else:
            break
    while a < b and text[a] in " \t,;:·)":
        a += 1
    return a, b


def _resolve_cluster(cluster: list[Span], text: str | None) -> list[Span]:
    # 2. union overlapping ADDRESS spans (rule with model), transitively
    addr = sorted((s for s in cluster if s.label == "ADDRESS"), key=lambda s: s.start)
    others = [s for s in cluster if s.label != "ADDRESS"]
    unions: list[list[Span]] = []
    for s in addr:
        if unions and s.start < max(m.end for m in unions[-1]):
            unions[-1].append(s)
        else:
            unions.append([s])
    merged = []
    for group in unions:
        if len(group) == 1:
            merged.append(group[0])
            continue
        a, b = min(m.start for m in group), max(m.end for m in group)
        if text is not None:
            a, b = _trim_union(text, a, b)
        main = max(group, key=lambda m: (m.end - m.start, m.source == "rule"))
        merged.append(Span(a, b, "ADDRESS", max(m.score for m in group), main.source))
    # 2b. union overlapping PERSON spans in Latin script (the romanised-name rule's `LEE JAEHOON` with the
    # model's `JAEHOON`): one name, not a surname left over from a cut
    latin = sorted((s for s in others if s.label == "PERSON" and text is not None
                    and text[s.start:s.end].isascii()), key=lambda s: s.start)
    if len(latin) > 1:
        others = [s for s in others if s not in latin]
        group = [latin[0]]
        for s in latin[1:] + [None]:
            if s is not None and s.start < max(m.end for m in group):
                group.append(s)
                continue
            a, b = min(m.start for m in group), max(m.end for m in group)
            main = max(group, key=lambda m: (m.end - m.start, m.source == "rule"))
            others.append(Span(a, b, "PERSON", max(m.score for m in group), main.source))
            if s is not None:
                group = [s]
    # 3. remaining overlaps: a containing ADDRESS first, then score, length, earliest; losers are cut
    cands = merged + others

    def contains_other(x: Span) -> bool:
        return x.label == "ADDRESS" and any(
            y is not x and x.start <= y.start and y.end <= x.end and (x.start, x.end) != (y.start, y.end)
            for y in cands)

    kept: list[Span] = []
    # on a full tie (the same span, the same score) the model's span is kept: a rule-stage context span
    # (a name after a title) that repeats a model span changes nothing, not even the span's source
    for s in sorted(cands, key=lambda s: (not contains_other(s), -s.score, -(s.end - s.start), s.start,
                                          s.source == "rule")):
        blockers = [k for k in kept if s.overlaps(k)]
        kept.extend(_cut(s, blockers, text) if blockers else [s])
    return kept


def merge_spans(model_spans: Iterable[Span], rule_spans: Iterable[Span], text: str | None = None) -> list[Span]:
    """One sorted, non-overlapping list from model and rule spans (see the module docstring).

    ``text`` (optional) lets cut model pieces be trimmed of edge punctuation; without it, a piece survives
    when it is at least ``MIN_PIECE`` characters long."""
    from .rules import resolve_overlaps

    rules = resolve_overlaps(rule_spans)
    structured = StructuredIndex(s for s in rules if is_structured(s))
    addresses = [s for s in rules if not is_structured(s)]
    pieces: list[Span] = []
    for m in _non_overlapping_model(model_spans):
        pieces.extend(split_model_span(m, structured, text))
    return sort_spans([*structured.spans, *resolve_with_addresses(pieces, addresses, text)])


def _non_overlapping_model(spans: Iterable[Span]) -> list[Span]:
    """Defensive: the contract says model spans never overlap; if they do, keep the better one."""
    spans = sort_spans(spans)
    if all(a.end <= b.start for a, b in zip(spans, spans[1:])):
        return spans
    from .rules import resolve_overlaps

    return resolve_overlaps(spans)
