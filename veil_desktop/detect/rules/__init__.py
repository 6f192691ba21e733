"""The rule stage: validated structured PII, the Korean address grammar and spacing robustness.

``RuleDetector`` implements the ``Detector`` protocol (``detect/events.py``) so it can run alone or beside a
model (``detect/default.py``). It is pure Python + ``re``; every pattern is compiled once at import.

Pipeline for one text:
1. ``fold`` full-width digits/letters, odd spaces and dashes to ASCII (same length: offsets unchanged);
2. structured finders (``numbers.py``) and other identifiers (``identifiers.py``: URL, health-insurance,
   medical, employee / student, court-case, document numbers, dates of birth) on the folded text; values
   split over adjacent CSV/TSV cells (``tabular.py``) and, with ``entities``, Hanja-only names (``hanja.py``);
3. address grammar (``address.py``) on a copy whose split syllables are joined (``spacing.py``), spans
   mapped back to original offsets, and romanised addresses (``address_romanised.py``: ``284 Uchi-ro,
   Buk-gu, Gwangju``); postal codes next to addresses;
4. overlaps among rule candidates resolved: higher score wins, then the longer span, then the earlier.

Output: sorted, non-overlapping ``Span(..., source="rule")``; ``text[s.start:s.end]`` is the entity.
Thread-safety: a ``RuleDetector`` holds no mutable state after construction; share it freely.
"""
from __future__ import annotations

from typing import Iterable, Iterator

from ..events import Cancelled, Event, Progress, SpansFound, never_cancelled
from ..span import Span, sort_spans
from .address import find_addresses, find_postal_codes
from .address_romanised import find_romanised_addresses
from .context import ContextIndex
from .identifiers import IDENTIFIER_FINDERS, IDENTIFIER_LABELS
from .refine import ENTITY_FINDERS, ENTITY_LABELS
from .names import NAME_FINDERS
from .fold import fold
from .numbers import NUMBER_FINDERS
from .spacing import join_split_syllables
from .hanja import HANJA_FINDERS
from .tabular import TABULAR_FINDERS

__all__ = ["RuleDetector", "RULE_DETECTOR_LABELS", "resolve_overlaps"]

#: every label the rule stage can emit: from the one label catalogue (``veil_desktop.labels``)
from ...labels import RULE_DETECTOR_LABELS  # noqa: E402

if not set(IDENTIFIER_LABELS) <= set(RULE_DETECTOR_LABELS):  # pragma: no cover - a developer's slip
    raise ImportError("a rule label is missing from the label catalogue (veil_desktop/labels.py)")


def resolve_overlaps(spans: Iterable[Span]) -> list[Span]:
    """Sorted, non-overlapping subset of ``spans``: within each cluster of overlapping spans the best
    (score, then length, then earliest) is kept first, then every span not overlapping a kept one."""
    ordered = sorted(spans, key=lambda s: (s.start, s.end))
    out: list[Span] = []
    i, n = 0, len(ordered)
    while i < n:
        j, end = i + 1, ordered[i].end
        while j < n and ordered[j].start < end:  # grow the cluster of (transitively) overlapping spans
            end = max(end, ordered[j].end)
            j += 1
        if j == i + 1:
            out.append(ordered[i])  # the common case: no overlap at all
        else:
            kept: list[Span] = []
            for s in sorted(ordered[i:j], key=lambda s: (-s.score, -(s.end - s.start), s.start)):
                if not any(s.overlaps(k) for k in kept):
                    kept.append(s)
            out.extend(sorted(kept, key=lambda s: s.start))
        i = j
    return out


class RuleDetector:
    """Rule-based detector for structured PII and addresses.

    ``enabled``: the labels to report (``None`` = all of ``RULE_DETECTOR_LABELS``); a finder runs only
    when one of its labels is enabled. ``spacing``: also find addresses whose syllables are split by
    spaces. ``min_score``: drop candidates scored below it (format-only matches score 0.75–0.85).
    ``entities``: also report PERSON / ORGANIZATION found from context (``refine.py``: surname + title,
    a Latin name after a name field, gazetteers; ``names.py``: a name beside a job title, in a table's name
    column, after an account number, romanised Korean names) — the default detector turns it on; alone it is off.
    """

    id = "veil-rules-1"

    def __init__(self, enabled: set[str] | frozenset[str] | None = None, *, spacing: bool = True,
                 min_score: float = 0.0, entities: bool = False) -> None:
        if enabled is None:
            enabled = set(RULE_DETECTOR_LABELS)
        unknown = set(enabled) - set(RULE_DETECTOR_LABELS)
        if unknown:
            raise ValueError(f"unknown rule labels {sorted(unknown)}; known: {', '.join(RULE_DETECTOR_LABELS)}")
        self.entities = entities
        self.enabled = frozenset(enabled) | (frozenset(ENTITY_LABELS) if entities else frozenset())
        self.labels = tuple(label for label in RULE_DETECTOR_LABELS if label in self.enabled) + (
            ENTITY_LABELS if entities else ())
        self.spacing = spacing
        self.min_score = min_score
        families = [*NUMBER_FINDERS.values(), *IDENTIFIER_FINDERS.values(), *TABULAR_FINDERS.values()]
        if entities:
            families += [*ENTITY_FINDERS.values(), *NAME_FINDERS.values(), *HANJA_FINDERS.values()]
        self._finders = [f for labels, f in families if self.enabled.intersection(labels)]

    # -- Detector protocol -----------------------------------------------------------------
    def detect(self, text: str) -> list[Span]:
        if not text:
            return []
        t = fold(text)
        ctx = ContextIndex(t)  # keywords found once per text, on first use
        cands: list[Span] = []
        for finder in self._finders:
            cands.extend(finder(t, ctx))
        if "ADDRESS" in self.enabled or "POSTAL_CODE" in self.enabled:
            addresses = self._addresses(t) + list(find_romanised_addresses(t))
            if "POSTAL_CODE" in self.enabled:
                cands.extend(find_postal_codes(t, addresses, ctx))
            if "ADDRESS" in self.enabled:
                cands.extend(addresses)
        kept = resolve_overlaps(s for s in cands if s.label in self.enabled and s.score >= self.min_score)
        return sort_spans(kept)

    def stream(self, text: str, *, cancelled: Cancelled = never_cancelled,
               first: tuple[int, int] | None = None) -> Iterator[Event]:
        """Rules are fast (≥1 M chars/s): one batch for the whole text; ``first`` needs no special order."""
        yield Progress(0, 1)
        if cancelled():
            return
        spans = self.detect(text)
        if cancelled():
            return
        if spans:
            yield SpansFound(tuple(spans))
        yield Progress(1, 1)

    # -- internals -------------------------------------------------------------------------
    def _addresses(self, t: str) -> list[Span]:
        if not self.spacing:
            return find_addresses(t)
        jt = join_split_syllables(t)
        if not jt.changed:
            return find_addresses(t)
        return [jt.span_to_original(s) for s in find_addresses(jt.joined)]
