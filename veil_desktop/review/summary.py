"""What an export is about to do, for the reviewer to decide on before anything is written. No Qt.

``build_summary`` counts, per label, what the review holds (accepted / rejected / pending / hidden below
the threshold / manual), lists the parts the writer removes, the pages that could not be read, how
many masked values are too short to be re-verified in the output, and whether detection finished for the
whole document. ``ExportSummary.blockers`` says what stops the export until the reviewer decides:

- ``pending``: visible pending suggestions under ``PendingPolicy.BLOCK``;
- ``detection``: detection is running, was cancelled or failed, unless the reviewer explicitly chose a
  *partial* export (recorded in the report: ``review.partial_export``);
- ``below_threshold``: pending suggestions hidden below the threshold would stay unmasked, unless the
  reviewer confirmed it (recorded: ``review.pending_below_threshold``).

``report_fields`` is what goes into the report's ``review`` section (no document text).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping

from .export import PendingPolicy, PendingSpansError, build_plan
from .state import ReviewState, Status


#: four letters/digits (in any script): such a value is always long enough for the output's leak check
_FOUR_ALNUM = re.compile(r"[^\W_](?:[\W_]*[^\W_]){3}")


class DetectionStatus(str, Enum):
    COMPLETE = "complete"
    RUNNING = "running"
    CANCELLED = "cancelled"
    FAILED = "failed"
    NOT_RUN = "not_run"


@dataclass(frozen=True)
class LabelCounts:
    label: str
    accepted: int = 0
    rejected: int = 0
    pending: int = 0    # visible pending suggestions
    hidden: int = 0     # pending suggestions hidden below the threshold (never masked)
    manual: int = 0     # manual spans (always accepted)


@dataclass(frozen=True)
class ExportSummary:
    rows: tuple[LabelCounts, ...]
    threshold: float
    policy: PendingPolicy
    detection: DetectionStatus
    removed_parts: tuple[Any, ...] = ()      # documents.Part objects (the UI names them in its language)
    unreadable_pages: tuple[int, ...] = ()
    unverifiable: int = 0
    notes: tuple[str, ...] = field(default=())

    def total(self, what: str) -> int:
        return sum(getattr(r, what) for r in self.rows)

    @property
    def pending(self) -> int:
        return self.total("pending")

    @property
    def hidden(self) -> int:
        return self.total("hidden")

    @property
    def detection_complete(self) -> bool:
        return self.detection is DetectionStatus.COMPLETE

    def blockers(self, *, partial_ok: bool = False, below_threshold_ok: bool = False) -> list[str]:
        """What stops the export now (empty: it may go ahead)."""
        out = []
        if not self.detection_complete and not partial_ok:
            out.append("detection")
        if self.pending and self.policy is PendingPolicy.BLOCK:
            out.append("pending")
        if self.hidden and not below_threshold_ok:
            out.append("below_threshold")
        return out

    def report_fields(self, *, partial_ok: bool = False) -> dict[str, Any]:
        """The report's ``review`` section: counts and the reviewer's decisions, no document text."""
        return {
            "detection": self.detection.value,
            "partial_export": not self.detection_complete and partial_ok,
            "pending_policy": self.policy.value,
            "threshold": round(self.threshold, 4),
            "pending": self.pending,
            "pending_below_threshold": self.hidden,
            "pending_below_threshold_per_label": {r.label: r.hidden for r in self.rows if r.hidden},
            "accepted": self.total("accepted"),
            "rejected": self.total("rejected"),
            "manual": self.total("manual"),
            "unreadable_pages": list(self.unreadable_pages),
        }


def unreadable_pages(document: Any) -> tuple[int, ...]:
    """1-based page numbers the reader could not read (``Document.extra["unreadable_pages"]``)."""
    if document is None:
        return ()
    pages = getattr(document, "unreadable_pages", None)
    if callable(pages):          # Document.unreadable_pages() (documents.model)
        pages = pages()
    if pages is None:
        pages = (getattr(document, "extra", None) or {}).get("unreadable_pages", ())
    try:
        return tuple(sorted(int(p) for p in pages))
    except (TypeError, ValueError):
        return ()


def build_summary(state: ReviewState, policy: PendingPolicy | str, detection: DetectionStatus | str,
                  document: Any = None, styles: Mapping[str, str] | None = None,
                  default_style: str | None = None, lang: str | None = None) -> ExportSummary:
    policy, detection = PendingPolicy(policy), DetectionStatus(detection)
    per: dict[str, dict[str, int]] = {}
    for it in state:
        c = per.setdefault(it.label, {"accepted": 0, "rejected": 0, "pending": 0, "hidden": 0, "manual": 0})
        if it.source == "manual":
            c["manual"] += 1
        if state.is_hidden_pending(it):
            c["hidden"] += 1
        elif it.status is Status.PENDING:
            c["pending"] += 1
        else:
            c[it.status.value] += 1
    rows = tuple(LabelCounts(label, **c) for label, c in sorted(per.items()))
    removed = tuple(p for p in getattr(document, "parts", ()) if getattr(p, "removed", False))
    unverifiable = 0
    if document is not None:
        # values too short for the output's leak check to find again (it counts them the same way)
        from ..documents.matching import checkable, strip_separators

        eff = PendingPolicy.REJECT if policy is PendingPolicy.BLOCK else policy
        try:
            plan = build_plan(state, styles, eff, default_style, allow_below_threshold=True, lang=lang)
        except (PendingSpansError, ValueError):
            plan = []
        content_of = getattr(document, "content_of", None)
        # counted as ``ValueMatcher.unverifiable`` over ``masked_values`` does (distinct stripped cores too
        # short to search for; masks that keep the value left out), without building its search pattern;
        # a value with 4+ letters/digits is always long enough, so only the few short ones are normalised
        seen: set[str] = set()
        short: set[str] = set()
        for r in plan:
            v = content_of(r.start, r.end) if content_of is not None else state.text[r.start:r.end]
            if v in seen:
                continue
            seen.add(v)
            if _FOUR_ALNUM.search(v):
                continue
            core = strip_separators(v)
            if core and core not in strip_separators(r.text) and not checkable(v):
                short.add(core)
        unverifiable = len(short)
    return ExportSummary(rows, state.threshold, policy, detection, removed, unreadable_pages(document),
                         unverifiable)
