"""Events yielded by a detector's streaming generator (``Detector.stream``).

Contract (tested for every detector):
- a stream yields any number of ``Progress`` and ``SpansFound`` events, in any interleaving;
- every span is yielded exactly once, and only when it is final (later windows cannot change it);
- the union of all ``SpansFound.spans`` of a stream that was not cancelled equals ``detect(text)``;
- ``cancelled()`` is polled between batches; once it returns True the generator returns promptly
  without yielding further spans.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Protocol, Sequence, Union

from .span import Span


@dataclass(frozen=True, slots=True)
class Progress:
    """``done`` of ``total`` work units (windows for a model) are finished."""

    done: int
    total: int

    @property
    def fraction(self) -> float:
        return 1.0 if self.total <= 0 else min(1.0, self.done / self.total)


@dataclass(frozen=True, slots=True)
class SpansFound:
    """Final spans (sorted by start) that became known since the last event."""

    spans: tuple[Span, ...]


Event = Union[Progress, SpansFound]
Cancelled = Callable[[], bool]


def never_cancelled() -> bool:
    return False


class Detector(Protocol):
    """What the UI, CLI and evaluation need of a detector. Implementations know nothing of Qt."""

    #: short human-readable id recorded in reports, e.g. ``"veil-compact-ko+veil-rules-1"``.
    id: str
    #: labels this detector can emit.
    labels: Sequence[str]

    def stream(self, text: str, *, cancelled: Cancelled = never_cancelled,
               first: tuple[int, int] | None = None) -> Iterator[Event]:
        """Detect progressively; ``first`` is a character range to do before the rest."""
        ...

    def detect(self, text: str) -> list[Span]:
        ...
