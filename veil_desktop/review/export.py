"""From a review to a masking plan. Pure Python, no Qt, no file formats.

Which spans get masked:
- accepted items (visible or not — a decided item is always visible, see ``ReviewState.is_visible``);
- visible *pending* items according to the ``PendingPolicy``: ``BLOCK`` refuses to build a plan while any
  remain (the safe default), ``ACCEPT`` masks them, ``REJECT`` leaves them;
- rejected items and pending items hidden by the threshold are never masked — but the hidden ones are
  never let through silently either: while any exist, ``spans_to_mask`` raises ``PendingSpansError``
  (``below_threshold`` > 0) unless the caller passes ``allow_below_threshold=True``, which the window
  does only after the reviewer confirmed "N suggestions under 0.90 will stay unmasked" in the export
  summary; the report records the count (``review.pending_below_threshold``).

The plan itself comes from ``veil_desktop.masking.Masker`` so the UI preview, the TXT export and every
document writer produce the same replacements.
"""
from __future__ import annotations

from dataclasses import replace
from enum import Enum
from typing import Iterable, Mapping

from ..detect.span import Span
from ..masking import MaskStyle, Replacement, export_masker
from .state import Command, ReviewItem, ReviewState, Status


class PendingPolicy(str, Enum):
    BLOCK = "block"
    ACCEPT = "accept"
    REJECT = "reject"


class PendingSpansError(Exception):
    """Raised by ``spans_to_mask`` while suggestions would leave unreviewed: visible pending items under
    ``PendingPolicy.BLOCK`` (``count``), or pending items hidden below the threshold that the reviewer has
    not agreed to leave unmasked (``below_threshold``), whatever the policy."""

    def __init__(self, count: int, below_threshold: int = 0, threshold: float | None = None) -> None:
        parts = []
        if count:
            parts.append(f"{count} suggestion(s) are still pending; review them or choose how to treat them")
        if below_threshold:
            parts.append(f"{below_threshold} suggestion(s) under {threshold or 0:.2f} would stay unmasked; "
                         "lower the threshold to review them or confirm leaving them")
        super().__init__("; ".join(parts) or "suggestions are still pending")
        self.count = count
        self.below_threshold = below_threshold
        self.threshold = threshold


def spans_to_mask(state: ReviewState, policy: PendingPolicy | str = PendingPolicy.BLOCK, *,
                  allow_below_threshold: bool = False) -> list[Span]:
    """Spans the export masks. ``allow_below_threshold``: the reviewer confirmed that the pending
    suggestions hidden below the threshold stay unmasked (they are never masked by this function)."""
    policy = PendingPolicy(policy)
    pending = [it for it in state.visible_items() if it.status is Status.PENDING]
    hidden = 0 if allow_below_threshold else state.hidden_pending_count()
    blocked = len(pending) if policy is PendingPolicy.BLOCK else 0
    if blocked or hidden:
        raise PendingSpansError(blocked, hidden, state.threshold)
    spans = [it.span for it in state if it.status is Status.ACCEPTED]
    if policy is PendingPolicy.ACCEPT:
        spans += [it.span for it in pending]
    return sorted(spans, key=lambda s: (s.start, s.end, s.label))


def build_plan(state: ReviewState, styles: Mapping[str, MaskStyle | str] | None = None,
               policy: PendingPolicy | str = PendingPolicy.BLOCK,
               default: MaskStyle | str | None = None, *, allow_below_threshold: bool = False,
               lang: str | None = None) -> list[Replacement]:
    """The masking plan for ``state.text`` (a fresh ``Masker``, so pseudonyms restart at 1 per export).

    ``default``: ``None`` -> ``masking.DEFAULT_MASK_STYLE``. ``lang``: the language of tags
    (``[주민등록번호]`` / ``[RRN]``); ``None``/``"auto"`` -> ``masking.resolve_tag_language(text)`` (Korean
    tags in a Korean document) — the same default as ``veil-redact redact`` (``masking.export_masker``)."""
    return export_masker(state.text, styles, default, lang).plan(
        state.text, spans_to_mask(state, policy, allow_below_threshold=allow_below_threshold))


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
