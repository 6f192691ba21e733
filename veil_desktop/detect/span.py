"""The span type every detector produces and every consumer reads.

Invariants:
- offsets are half-open character offsets into the *original* text: ``text[start:end]`` is the entity;
- ``0 <= start < end``; ``0.0 <= score <= 1.0``;
- ``source`` says who proposed it: ``"model"``, ``"rule"`` or ``"manual"``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal

Source = Literal["model", "rule", "manual"]

#: Labels the veil model family emits (BIOES over these three) and the rule stage's structured PII: both
#: from the one label catalogue (``veil_desktop.labels``).
from ..labels import MODEL_LABELS, RULE_LABELS  # noqa: E402

ALL_LABELS: tuple[str, ...] = MODEL_LABELS + RULE_LABELS

#: The product's default score threshold: ``veil-redact redact --min-score``, the window's default threshold
#: (``review.settings.AppSettings.threshold``) and ``veil_desktop.evaluate --min-score`` all start from it.
DEFAULT_MIN_SCORE: float = 0.5


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """One detected (or manually marked) entity: ``text[start:end]`` carries ``label``."""

    start: int
    end: int
    label: str
    score: float = 1.0
    source: Source = "model"

    def __post_init__(self) -> None:
        if not (0 <= self.start < self.end):
            raise ValueError(f"bad span offsets {self.start}..{self.end}")

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end

    def shifted(self, delta: int) -> "Span":
        return Span(self.start + delta, self.end + delta, self.label, self.score, self.source)

    def to_json(self, text: str | None = None) -> dict:
        d = {"start": self.start, "end": self.end, "label": self.label,
             "score": round(float(self.score), 4), "source": self.source}
        if text is not None:
            d["text"] = text[self.start:self.end]
        return d


def sort_spans(spans: Iterable[Span]) -> list[Span]:
    return sorted(spans, key=lambda s: (s.start, s.end, s.label))
