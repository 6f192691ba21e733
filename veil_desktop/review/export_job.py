"""One export of a review, as the window runs it on a pool thread. Pure Python, no Qt.

``export_review`` plans the masking (``review.export.build_plan``), stops at unmasked copies of masked
values unless the reviewer agreed to mask them (``CopiesFound``), and writes through
``documents.export_document`` — the same writer and leak check as the batch CLI.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..detect.span import Span
from ..masking import resolve_tag_language
from .export import PendingPolicy, build_plan, spans_to_mask
from .state import ReviewState


@dataclass(frozen=True)
class ExportRequest:
    out_path: Path
    styles: dict[str, str]
    default_style: str
    policy: PendingPolicy
    detector_id: str = ""
    #: mask unmasked copies of masked values too (the reviewer agreed); otherwise they stop the export
    mask_copies: bool = False
    #: the reviewer confirmed that pending suggestions hidden below the threshold stay unmasked
    allow_below_threshold: bool = False
    #: language of tag replacements ("ko": [주민등록번호], "en": [RRN]); None/"auto": the document's
    #: (``masking.resolve_tag_language``, the same default as ``veil-redact redact``)
    tag_lang: str | None = None
    #: the report's ``review`` section (``review.summary.ExportSummary.report_fields``)
    review: dict | None = None
    #: the reviewer agreed to replace an existing output file
    overwrite: bool = False


#: how many copies the question shows in context (the message stays at most ~5 lines)
COPIES_SHOWN = 4
COPY_CONTEXT_CHARS = 16


@dataclass(frozen=True)
class CopiesFound:
    """``export_review``'s answer when masked values also occur unmasked elsewhere: nothing was written.

    ``spans``: one span per unmasked copy, carrying the label/score/source of the masked item whose value
    it repeats (so it can be recorded in the review as accepted); ``examples``: the first
    ``COPIES_SHOWN`` copies as one-line ``(part name, context)`` strings with the value in ``[ ]``.
    """

    request: ExportRequest
    spans: tuple[Span, ...]
    examples: tuple[tuple[str, str], ...]

    @property
    def count(self) -> int:
        return len(self.spans)


def export_review(document: Any, state: ReviewState, req: ExportRequest) -> Any:
    """Build the plan (GUI thread callers pass a *snapshot* state) and write it via ``export_document``.

    Runs on a pool thread. Unless ``req.mask_copies``, the plan is first checked for unmasked copies of
    the values it masks (``find_copies``, outside removed parts — the same rule as the writer's); if there
    are any, nothing is written and a ``CopiesFound`` is returned for the reviewer to decide.

    Raises ``PendingSpansError`` under the block policy, ``DocumentError``/``LeakDetected`` from the
    writer; nothing is written in any of those cases.
    """
    from ..documents import export_document

    plan = build_plan(state, req.styles, req.policy, req.default_style,
                      allow_below_threshold=req.allow_below_threshold, lang=req.tag_lang)
    if not req.mask_copies:
        found = find_copies(document, state, plan, req)
        if found is not None:
            return found
    decisions = [{"start": it.start, "end": it.end, "label": it.label, "status": it.status.value,
                  "source": it.source, "score": round(float(it.score), 4)} for it in state]
    return export_document(document, plan, req.out_path, detector_id=req.detector_id,
                           threshold=state.threshold, styles=req.styles, default_style=req.default_style,
                           decisions=decisions, mask_copies=req.mask_copies, review=req.review,
                           overwrite=req.overwrite,
                           tag_language=resolve_tag_language(document.text, req.tag_lang))


def find_copies(document: Any, state: ReviewState, plan: list, req: ExportRequest) -> CopiesFound | None:
    """The unmasked copies ``export_document`` would refuse, as a ``CopiesFound`` (``None`` if none)."""
    from ..documents import find_unmasked_copies
    from ..documents.matching import strip_separators

    text = state.text
    removed = [(p.start, p.end) for p in getattr(document, "parts", ()) if p.removed]
    copies = [(a, b) for a, b in find_unmasked_copies(text, plan)
              if not any(s <= a and b <= e for s, e in removed)]  # removed parts are not written
    if not copies:
        return None
    # which masked item each copy repeats: matching is separator-insensitive, so compare stripped cores;
    # the highest-scoring masked item of a value lends its label, score and source
    masked = spans_to_mask(state, req.policy, allow_below_threshold=req.allow_below_threshold)
    by_core: dict[str, Span] = {}
    for s in sorted(masked, key=lambda s: -s.score):
        by_core.setdefault(strip_separators(text[s.start:s.end]), s)
    spans = []
    for a, b in copies:
        src = by_core.get(strip_separators(text[a:b]))
        if src is None:  # the plan merged overlapping spans into one value; fall back to an overlapping one
            src = next((s for s in masked if strip_separators(text[s.start:s.end]) in strip_separators(text[a:b])),
                       None)
        label, score, source = (src.label, src.score, src.source) if src else ("OTHER", 1.0, "manual")
        spans.append(Span(a, b, label, score, source))
    examples = []
    for a, b in copies[:COPIES_SHOWN]:
        part = document.part_at(a) if hasattr(document, "part_at") else None
        before = text[max(0, a - COPY_CONTEXT_CHARS):a]
        after = text[b:b + COPY_CONTEXT_CHARS]
        line = f"…{before}[{text[a:b]}]{after}…"
        examples.append((part.name if part is not None else "", " ".join(line.split())))
    return CopiesFound(req, tuple(spans), tuple(examples))
