"""The one export core: plan once -> copies -> write -> verify -> decision record -> report. No Qt.

Three callers, one function (``export_review``): the window's export job (on a pool thread, over a
snapshot of the review), *Export all reviewed* (``review.workspace.export_one``, from a saved session) and
``veil-redact redact`` (``redact_cli.redact_one``, from a review it builds: detections at or above
``--min-score`` accepted, the rest pending below the threshold). Whatever a caller is, the same decisions
give the same output bytes and the same report (``tests/test_export_core.py``).

Stages:
1. **plan** — ``masking.export_masker`` (the product's default styles and tag language) over the spans
   ``review.export.spans_to_mask`` selects; built once;
2. **copies** — masked values that still occur unmasked elsewhere (outside removed parts). Unless the
   request agrees to mask them (``mask_copies``), nothing is written and a ``CopiesFound`` goes back for
   the reviewer to decide; with it, they are recorded in the review as accepted items (one undo step,
   ``review.export.accept_copies``) and the plan is extended with them;
3. **write + verify** — ``documents.export_document``: the format's writer, atomic write, the
   independent fail-closed leak check, the report;
4. **decision record** — :func:`decision_records`, one schema for every caller;
5. **report** — the review section computed here from the state (``review.summary``), plus what the
   request adds (term-list counts, *export all*), never document text.
"""
from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ..detect.span import Span
from ..masking import export_masker
from .export import PendingPolicy, accept_copies, spans_to_mask
from .state import ReviewState, Status
from .summary import DetectionStatus, build_summary


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
    #: extra fields of the report's ``review`` section (the window's choices; ``export_all``); the counts
    #: themselves are computed by the core from the state
    review: dict | None = None
    #: the reviewer agreed to replace an existing output file
    overwrite: bool = False
    #: how far detection got; anything but COMPLETE is a *partial* export, recorded in the report
    detection: DetectionStatus = DetectionStatus.COMPLETE
    #: the reviewer chose to export although detection did not finish
    partial_ok: bool = False
    #: top-level report sections the caller adds (e.g. ``term_list`` counts of the batch CLI); no text
    report_extra: Mapping[str, Any] = field(default_factory=dict)
    #: term-list ``keep`` hits the caller suppressed (recorded as ``kept_by_list`` decisions)
    kept_by_list: tuple[Span, ...] = ()
    #: disclosure reasons per label (``review.reasons``), over ``default_reasons()``; an item's own
    #: reason wins
    reasons: Mapping[str, str | None] | None = None
    #: print each part's reason in the output beside its mask: "" (no), "long" ([비공개 제9조제1항제6호]),
    #: "short" ((6호))
    reason_in_output: str = ""
    #: write the redaction log (``<output>.redaction-log.csv``: where, label, reason, masked form)
    redaction_log: bool = False
    #: the detector's ``detect(text)`` for the second opinion over the output (``documents.second_opinion``);
    #: None: no second opinion (callers without a detector)
    second_opinion: Any = None
    #: the reviewer (settings) and the SHA-256 of the review file the decisions came from, if any
    reviewer: str = ""
    review_file_sha256: str = ""


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


def decision_records(state: ReviewState, kept_by_list: tuple[Span, ...] = (),
                     reasons: Mapping[str, str | None] | None = None) -> list[dict]:
    """One decision record per review item (and per suppressed term-list hit), in text order — the one
    schema of every export's report: ``start``, ``end``, ``label``, ``score``, ``source``,
    ``decision`` = ``accepted`` | ``rejected`` | ``pending`` | ``below_threshold`` (pending, hidden by the
    threshold, left unmasked) | ``kept_by_list``, and ``reason`` (the disclosure reason of an accepted
    item: its own or its label's default; ``review.reasons``). Offsets and labels only, never the value."""
    from .reasons import effective_reason

    defaults = reasons or {}
    out = []
    for it in state.in_text_order(visible_only=False):
        decision = "below_threshold" if state.is_hidden_pending(it) else it.status.value
        out.append({"start": it.start, "end": it.end, "label": it.label, "score": round(float(it.score), 4),
                    "source": it.source, "decision": decision,
                    "reason": effective_reason(it.reason, it.label, defaults)
                    if it.status is Status.ACCEPTED else None,
                    "by": it.by or None, "at": _iso(it.at) if it.at else None, "via": it.via or None})
    out += [{"start": s.start, "end": s.end, "label": s.label, "score": round(float(s.score), 4),
             "source": s.source, "decision": "kept_by_list"} for s in kept_by_list]
    out.sort(key=lambda d: (d["start"], d["end"], d["label"]))
    return out


def _iso(t: float) -> str:
    import datetime as _dt

    return _dt.datetime.fromtimestamp(t, _dt.timezone.utc).isoformat(timespec="seconds")


def _left_unmasked(state: ReviewState, plan: list) -> list:
    """Hidden pending items no replacement of ``plan`` covers (plan: sorted, non-overlapping): a copy the
    copies step masked is not counted as left in clear."""
    starts = [r.start for r in plan]
    out = []
    for it in state.hidden_pending():
        i = bisect.bisect_right(starts, it.start) - 1
        if not (i >= 0 and plan[i].start <= it.start and it.end <= plan[i].end):
            out.append(it)
    return out


def export_review(document: Any, state: ReviewState, req: ExportRequest) -> Any:
    """Run the export of ``state`` over ``document`` to ``req.out_path`` (see the module docstring).

    The window calls it on a pool thread with a *snapshot* state; the copies step may add accepted items
    to ``state`` (``mask_copies``). Returns the ``documents.ExportResult``, or a ``CopiesFound`` (nothing
    written). Raises ``PendingSpansError`` under the block policy, ``DocumentError``/``LeakDetected`` from
    the writer; nothing is written in any of those cases.
    """
    from ..documents import export_document

    text = state.text
    masker = export_masker(text, req.styles, req.default_style, req.tag_lang)
    masked = spans_to_mask(state, req.policy, allow_below_threshold=req.allow_below_threshold)
    plan = masker.plan(text, masked)
    copies = _unmasked_copies(document, text, plan)
    if copies:
        found = _copies_found(document, text, masked, copies, req)
        if not req.mask_copies:
            return found
        accept_copies(state, found.spans, description="mask copies")
        masked = spans_to_mask(state, req.policy, allow_below_threshold=req.allow_below_threshold)
        masker = export_masker(text, req.styles, req.default_style, req.tag_lang)   # pseudonyms from 1
        plan = masker.plan(text, masked)
    reasons = _reasons(req)
    part_reasons = _plan_reasons(state, plan, reasons)
    if req.reason_in_output:
        from ..masking import Replacement
        from .reasons import reason_text

        plan = [Replacement(r.start, r.end, f"{r.text} {reason_text(code, req.reason_in_output, masker.lang)}",
                            r.label) if (code := part_reasons[i]) else r for i, r in enumerate(plan)]
    left = _left_unmasked(state, plan)
    review = build_summary(state, req.policy, req.detection, document, req.styles, req.default_style,
                           masker.lang).report_fields(partial_ok=req.partial_ok)
    review.update(req.review or {})
    # the share of the text detection covered (the window passes its figure; whole when detection finished)
    review.setdefault("coverage", 1.0 if req.detection is DetectionStatus.COMPLETE else None)
    review["pending_below_threshold"] = len(left)
    review["pending_below_threshold_per_label"] = dict(sorted(Counter(it.label for it in left).items()))
    review["reasons"] = dict(sorted(Counter(c or "none" for c in part_reasons).items()))
    review["reason_in_output"] = req.reason_in_output or None
    review["applied_by_duplication"] = sum(1 for it in state if it.via == "duplicate")
    review["reviewer"] = req.reviewer or state.reviewer or None
    review["review_file_sha256"] = req.review_file_sha256 or None
    result = export_document(document, plan, req.out_path, detector_id=req.detector_id,
                             threshold=state.threshold, styles=masker,
                             decisions=decision_records(state, req.kept_by_list, reasons),
                             mask_copies=req.mask_copies, review=review, overwrite=req.overwrite,
                             report_extra=req.report_extra,
                             second_opinion=_opinion(req.second_opinion, plan))
    if req.redaction_log:
        _write_redaction_log(document, plan, part_reasons, req, masker.lang, review.get("reviewer") or "")
    return result


def _opinion(detect, plan):
    """The second-opinion callable of ``documents.export_document`` over ``detect`` (None: none)."""
    if detect is None:
        return None
    from ..detect.rules import RuleDetector
    from ..documents.second_opinion import second_opinion, text_views

    rules = RuleDetector().detect
    masks = {r.text for r in plan}
    return lambda data, kind: second_opinion(text_views(data, kind), detect, rules, masks)


def _reasons(req: ExportRequest) -> dict[str, str | None]:
    from .reasons import default_reasons

    out = default_reasons()
    out.update(req.reasons or {})
    return out


def _plan_reasons(state: ReviewState, plan: list, reasons: Mapping[str, str | None]) -> list[str | None]:
    """The reason of each replacement of ``plan``: that of the first accepted item it covers (an item's
    own reason, else its label's default)."""
    from .reasons import effective_reason

    items = sorted((it for it in state if it.status is Status.ACCEPTED), key=lambda it: (it.start, it.end))
    starts = [it.start for it in items]
    out: list[str | None] = []
    for r in plan:
        i = bisect.bisect_left(starts, r.start)
        code = None
        while i < len(items) and items[i].start < r.end:
            if items[i].end <= r.end:
                code = effective_reason(items[i].reason, items[i].label, reasons)
                if code:
                    break
            i += 1
        if code is None:
            code = reasons.get(r.label)
        out.append(code)
    return out


def _write_redaction_log(document: Any, plan: list, part_reasons: list, req: ExportRequest, lang: str,
                         reviewer: str = "") -> None:
    """``<output>.redaction-log.csv`` and the printable ``<output>.redaction-log.pdf`` (both atomic): one
    row per masked part, never the original value."""
    from datetime import datetime

    from .reasons import log_path_for, redaction_log_csv
    from .redaction_log_pdf import write_redaction_log_pdf
    from .session import write_atomic

    rows = []
    for r, code in zip(plan, part_reasons):
        part = document.part_at(r.start) if hasattr(document, "part_at") else None
        rows.append({"where": part.name if part is not None else "", "start": r.start, "end": r.end,
                     "label": r.label, "reason": code, "masked": r.text})
    write_atomic(log_path_for(Path(req.out_path)), redaction_log_csv(rows, lang))
    write_redaction_log_pdf(Path(req.out_path), rows, document_name=Path(getattr(document, "path", "")).name,
                            document_sha256=getattr(document, "sha256", "") or "", reviewer=reviewer,
                            date=datetime.now().astimezone().strftime("%Y-%m-%d %H:%M"), lang=lang)


def _unmasked_copies(document: Any, text: str, plan: list) -> list[tuple[int, int]]:
    from ..documents import find_unmasked_copies

    from ..documents.ocr_copies import lookalike_copies

    removed = [(p.start, p.end) for p in getattr(document, "parts", ()) if p.removed]
    misread = [(a, b) for a, b, _ in lookalike_copies(document, text, plan)]   # OCR read the same value otherwise
    return [(a, b) for a, b in sorted(find_unmasked_copies(text, plan) + misread)
            if not any(s <= a and b <= e for s, e in removed)]  # removed parts are not written


def _misread_source(by_core: dict, copy: str):
    """The masked item an OCR-misread copy (``documents.ocr_copies``: same length, at most a third of its
    characters different) stands for, or None."""
    for core, span in by_core.items():
        if len(core) == len(copy) >= 2:
            diff = sum(1 for x, y in zip(core, copy) if x != y)
            if 0 < diff <= max(1, len(core) // 3) and diff < len(core):
                return span
    return None


def _copies_found(document: Any, text: str, masked: list[Span], copies: list[tuple[int, int]],
                  req: ExportRequest) -> CopiesFound:
    from ..documents.matching import strip_separators

    # which masked item each copy repeats: matching is separator-insensitive, so compare stripped cores;
    # the highest-scoring masked item of a value lends its label, score and source
    by_core: dict[str, Span] = {}
    for s in sorted(masked, key=lambda s: -s.score):
        by_core.setdefault(strip_separators(text[s.start:s.end]), s)
    spans = []
    for a, b in copies:
        src = by_core.get(strip_separators(text[a:b])) or _misread_source(by_core, text[a:b])
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
