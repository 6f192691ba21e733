"""From a review to a masking plan. Pure Python, no Qt, no file formats.

Which spans get masked:
- accepted items (visible or not — a decided item is always visible, see ``ReviewState.is_visible``);
- visible *pending* items according to the ``PendingPolicy``: ``BLOCK`` refuses to build a plan while any
  remain (the safe default), ``ACCEPT`` masks them, ``REJECT`` leaves them;
- rejected items and pending items hidden by the threshold are never masked.

The plan itself comes from ``veil_desktop.masking.Masker`` so the UI preview, the TXT export and every
document writer produce the same replacements.
"""
from __future__ import annotations

from dataclasses import replace
from enum import Enum
from typing import Iterable, Mapping

from ..detect.span import Span
from ..masking import Masker, MaskStyle, Replacement
from .state import Command, ReviewItem, ReviewState, Status


class PendingPolicy(str, Enum):
    BLOCK = "block"
    ACCEPT = "accept"
    REJECT = "reject"


class PendingSpansError(Exception):
    """Raised by ``spans_to_mask`` under ``PendingPolicy.BLOCK`` while visible pending items remain."""

    def __init__(self, count: int) -> None:
        super().__init__(f"{count} suggestion(s) are still pending; review them or choose how to treat them")
        self.count = count


def spans_to_mask(state: ReviewState, policy: PendingPolicy | str = PendingPolicy.BLOCK) -> list[Span]:
    policy = PendingPolicy(policy)
    pending = [it for it in state.visible_items() if it.status is Status.PENDING]
    if pending and policy is PendingPolicy.BLOCK:
        raise PendingSpansError(len(pending))
    spans = [it.span for it in state if it.status is Status.ACCEPTED]
    if policy is PendingPolicy.ACCEPT:
        spans += [it.span for it in pending]
    return sorted(spans, key=lambda s: (s.start, s.end, s.label))


def build_plan(state: ReviewState, styles: Mapping[str, MaskStyle | str] | None = None,
               policy: PendingPolicy | str = PendingPolicy.BLOCK,
               default: MaskStyle | str = MaskStyle.TAG) -> list[Replacement]:
    """The masking plan for ``state.text`` (a fresh ``Masker``, so pseudonyms restart at 1 per export)."""
    return Masker(styles, default).plan(state.text, spans_to_mask(state, policy))


def accept_copies(state: ReviewState, spans: Iterable[Span],
                  description: str = "mask copies") -> Command | None:
    """Record copies the export masked as *accepted* items, as one undoable step.

    A span whose ``(start, end, label)`` is already an item accepts that item (a rejected or pending
    suggestion over the copy); any other span becomes a new accepted item with the span's label, score
    and source (those of the masked item whose value it repeats). Returns the command, ``None`` if
    nothing changed.
    """
    # ReviewState has no public "several inserts as one command" yet; building the Command here (same
    # package) keeps the whole answer to one question a single undo step
    changes: list[tuple[ReviewItem | None, ReviewItem | None]] = []
    seen: set[tuple[int, int, str]] = set()
    for s in spans:
        key = (s.start, s.end, s.label)
        if key in seen:
            continue
        seen.add(key)
        existing = state.find(s.start, s.end, s.label)
        if existing is None:
            changes.append((None, ReviewItem(state._take_id(), s, Status.ACCEPTED)))
        elif existing.status is not Status.ACCEPTED:
            changes.append((existing, replace(existing, status=Status.ACCEPTED)))
    return state._do(Command(f"{description} {len(changes)}", tuple(changes)))
