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

from enum import Enum
from typing import Mapping

from ..detect.span import Span
from ..masking import Masker, MaskStyle, Replacement
from .state import ReviewState, Status


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
