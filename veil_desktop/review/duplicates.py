"""Duplicates in a disclosure bundle (issue 24): identical and near-identical pages (PDF, scans), documents
and repeated paragraphs, found once, decided once, applied to every copy. No Qt.

A *unit* is a page (``Part`` whose source is ``page N``: PDFs and OCR'd images) or, in other documents, a
paragraph of at least ``MIN_UNIT_CHARS`` characters. Units are compared on their normalised text (NFKC,
whitespace collapsed): equal -> an *identical* group; else a Jaccard similarity of character 4-gram
shingles (whitespace left out) >= ``NEAR`` (units of similar length only) -> a *near-identical* group.

``copy_decisions`` carries the decided items of one unit to another: the k-th occurrence of a decided
value (same label) inside the source unit decides the k-th occurrence of that value inside the target
unit — an existing item there is decided, a missing one is added — as one undoable step per target
state, each such item recorded with ``via="duplicate"`` (the report counts them).
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

from ..documents import limits as _limits
from ..detect.span import Span
from .state import Command, ReviewItem, ReviewState, Status

MIN_UNIT_CHARS = 40
NEAR = 0.8
SHINGLE = 4
#: comparisons of near-duplicates are bounded (n units -> at most this many pairs looked at)
MAX_PAIRS = _limits.MAX_DUPLICATE_PAIRS
_WS = re.compile(r"\s+")
_PARA = re.compile(r"\n[ \t]*\n|\n")


@dataclass(frozen=True)
class Unit:
    doc: str            # a key of the document (its path)
    index: int          # page number (1-based) or paragraph number
    kind: str           # "page" or "paragraph"
    start: int
    end: int
    norm: str

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(self.norm.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Group:
    units: tuple[Unit, ...]
    identical: bool


def _norm(text: str) -> str:
    return _WS.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def units_of(doc_key: str, text: str, parts: Sequence[Any] = ()) -> list[Unit]:
    """Pages (parts named by their source ``page N``) or paragraphs of ``text``."""
    pages = [p for p in parts if str(getattr(p, "source", "")).startswith("page ")]
    out: list[Unit] = []
    if pages:
        for p in pages:
            body_start = text.find("\n", p.start, p.end)      # skip the part's header line
            a = body_start + 1 if 0 <= body_start < p.end else p.start
            norm = _norm(text[a:p.end])
            if len(norm) >= MIN_UNIT_CHARS:
                out.append(Unit(doc_key, int(str(p.source).split()[1]), "page", a, p.end, norm))
        return out
    pos, n = 0, 0
    for m in list(_PARA.finditer(text)) + [None]:
        end = m.start() if m is not None else len(text)
        norm = _norm(text[pos:end])
        if len(norm) >= MIN_UNIT_CHARS:
            n += 1
            out.append(Unit(doc_key, n, "paragraph", pos, end, norm))
        pos = m.end() if m is not None else len(text)
    return out


def _shingles(s: str) -> frozenset[int]:
    s = s.replace(" ", "")
    return frozenset(hash(s[i:i + SHINGLE]) for i in range(max(1, len(s) - SHINGLE + 1)))


def find_duplicates(units: Iterable[Unit], near: float = NEAR) -> list[Group]:
    """Groups of two or more units: identical first, then near-identical (each unit in one group)."""
    units = list(units)
    by_fp: dict[str, list[Unit]] = {}
    for u in units:
        by_fp.setdefault(u.fingerprint, []).append(u)
    groups = [Group(tuple(g), True) for g in by_fp.values() if len(g) > 1]
    # near-identical among the representatives (one per fingerprint), similar lengths only
    reps = sorted((g[0] for g in by_fp.values()), key=lambda u: len(u.norm))
    sh = {id(u): _shingles(u.norm) for u in reps}
    parent = {id(u): id(u) for u in reps}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    pairs = 0
    for i, a in enumerate(reps):
        for b in reps[i + 1:]:
            if len(b.norm) > len(a.norm) / near:
                break
            pairs += 1
            if pairs > MAX_PAIRS:
                break
            sa, sb = sh[id(a)], sh[id(b)]
            if len(sa & sb) / max(1, len(sa | sb)) >= near:
                parent[find(id(a))] = find(id(b))
    clusters: dict[int, list[Unit]] = {}
    for u in reps:
        clusters.setdefault(find(id(u)), []).append(u)
    for members in clusters.values():
        if len(members) > 1:
            everyone = [x for m in members for x in by_fp[m.fingerprint]]
            groups = [g for g in groups if not any(x in everyone for x in g.units)]
            groups.append(Group(tuple(everyone), False))
    return sorted(groups, key=lambda g: (g.units[0].doc, g.units[0].start))


def _occurrences(text: str, value: str, a: int, b: int) -> list[int]:
    out, pos = [], a
    while (i := text.find(value, pos, b)) >= 0:
        out.append(i)
        pos = i + 1
    return out


def copy_decisions(src: ReviewState, src_unit: Unit, dst: ReviewState, dst_unit: Unit) -> Command | None:
    """Decide in ``dst_unit`` what ``src_unit`` decided (see the module docstring); one undoable step."""
    changes: list[tuple[ReviewItem | None, ReviewItem | None]] = []
    seen: set[tuple[int, int, str]] = set()
    for it in src.items_overlapping(src_unit.start, src_unit.end, visible_only=False):
        if it.status is Status.PENDING or not (src_unit.start <= it.start and it.end <= src_unit.end):
            continue
        value = src.value(it)
        k = _occurrences(src.text, value, src_unit.start, src_unit.end).index(it.start) \
            if it.start in _occurrences(src.text, value, src_unit.start, src_unit.end) else 0
        targets = _occurrences(dst.text, value, dst_unit.start, dst_unit.end)
        if k >= len(targets):
            continue
        a = targets[k]
        key = (a, a + len(value), it.label)
        if key in seen:
            continue
        seen.add(key)
        existing = dst.find(*key)
        if existing is None:
            changes.append((None, ReviewItem(dst._take_id(), Span(a, a + len(value), it.label, it.score, it.source),
                                             it.status, it.reason, via="duplicate")))
        elif (existing.status, existing.reason) != (it.status, it.reason):
            changes.append((existing, replace(existing, status=it.status, reason=it.reason, via="duplicate")))
    return dst._do(Command(f"duplicate {len(changes)}", tuple(changes)))


def apply_to_group(states: dict[str, ReviewState], group: Group, source: Unit) -> dict[str, int]:
    """Carry ``source``'s decisions to every other unit of ``group`` (documents in ``states``, keyed like
    ``Unit.doc``). Returns items decided per document."""
    out: dict[str, int] = {}
    for u in group.units:
        if u == source or u.doc not in states:
            continue
        cmd = copy_decisions(states[source.doc], source, states[u.doc], u)
        out[u.doc] = out.get(u.doc, 0) + (len(cmd.changes) if cmd is not None else 0)
    return out
