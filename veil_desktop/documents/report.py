"""The redaction report written beside every export (``<output>.report.json``).

It records what was done and with what, so an export can be audited later: input/output SHA-256,
detector/model id, threshold, masking styles, counts per label, every decision with offsets, score and
source, and the leak-check summary. It never contains document text: no values, no replacement text
(a partial mask keeps part of the value), no context. Offsets refer to ``Document.text`` of the input.
"""
from __future__ import annotations

import datetime as _dt
import json
from collections import Counter
from typing import Any, Iterable, Mapping

from ..masking import MaskStyle, Replacement
from .model import Document

REPORT_VERSION = 1
_DECISION_KEYS = ("start", "end", "label", "score", "source", "decision", "reason", "by", "at", "via")


def _decision(item: Any) -> dict[str, Any]:
    if isinstance(item, Mapping):
        get = item.get
    else:
        def get(key, default=None):
            return getattr(item, key, default)
    d: dict[str, Any] = {"start": int(get("start")), "end": int(get("end")), "label": str(get("label"))}
    score = get("score")
    if score is not None:
        d["score"] = round(float(score), 4)
    source = get("source")
    if source is not None:
        d["source"] = str(source)
    decision = get("decision") or get("status") or "accepted"
    d["decision"] = getattr(decision, "value", decision) if not isinstance(decision, str) else decision
    d["decision"] = str(d["decision"])
    reason = get("reason")
    if isinstance(reason, str) and reason:
        d["reason"] = reason       # the disclosure reason (review.reasons), never a value
    for key in ("by", "at", "via"):   # the audit trail: who decided, when (ISO time), how (duplicate)
        v = get(key)
        if isinstance(v, str) and v:
            d[key] = v
    return {k: d[k] for k in _DECISION_KEYS if k in d}


def build_report(doc: Document, plan: list[Replacement], *, output_name: str, output_format: str,
                 output_sha256: str, output_size: int, detector_id: str, threshold: float | None,
                 styles: Mapping[str, Any] | None, default_style: Any, decisions: Iterable[Any] | None,
                 leak_check: dict[str, Any], warnings: Iterable[str],
                 propagated: Iterable[Replacement] = (),
                 review: Mapping[str, Any] | None = None,
                 tag_language: str | None = None) -> dict[str, Any]:
    counts = Counter(r.label for r in plan)
    if decisions is None:
        decision_list = [{"start": r.start, "end": r.end, "label": r.label, "decision": "masked"}
                         for r in plan]
    else:
        decision_list = [_decision(d) for d in decisions]
    style_map = {k: MaskStyle.parse(v).value for k, v in (styles or {}).items()}
    return {
        "report_version": REPORT_VERSION,
        "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "input": {"name": doc.path.name, "format": doc.format, "sha256": doc.sha256, "size": doc.size,
                  "encoding": doc.encoding, "text_length": len(doc.text)},
        "output": {"name": output_name, "format": output_format, "sha256": output_sha256,
                   "size": output_size},
        "detector": detector_id,
        "threshold": threshold,
        "masking": {"default": MaskStyle.parse(default_style).value if default_style else None,
                    "per_label": style_map,
                    # language of [TAG] replacements ("ko" -> [인명], "en" -> [PERSON]); None = not recorded
                    "tag_language": tag_language},
        "counts": dict(sorted(counts.items())),
        "replacements": len(plan),
        "decisions": decision_list,
        "propagated": [{"start": r.start, "end": r.end, "label": r.label} for r in propagated],
        "parts": [{"name": p.name, "source": p.source, "start": p.start, "end": p.end}
                  for p in doc.parts],
        "leak_check": leak_check,
        # pages/parts that could not be read as text (scans, pictures, a lying text layer): exported as
        # they look, so a person must have checked them (the batch CLI needs --allow-unreadable)
        "needs_review": bool(_unreadable(doc)),
        "unreadable": _unreadable(doc),
        # OCR (images, scanned PDF pages): engine, pages read, mean word confidence — never the text
        "ocr": dict(doc.extra["ocr"]) if doc.extra.get("ocr") else None,
        "warnings": list(warnings),
        # the window's review: detection status (a partial export is recorded), pending policy, pending
        # suggestions left unmasked below the threshold (``review.summary.report_fields``); None from the CLI
        "review": dict(review) if review is not None else None,
    }


def _unreadable(doc: Document) -> list[dict[str, Any]]:
    out = [{"where": u.where, "reason": u.reason, "page": u.page} for u in getattr(doc, "unreadable", ())]
    seen = {u["page"] for u in out}
    out += [{"where": f"page {p}", "reason": "unreadable", "page": int(p)}
            for p in doc.extra.get("unreadable_pages", ()) if int(p) not in seen]
    return out


def dumps(report: dict[str, Any]) -> bytes:
    """JSON, one top-level key and one decision per line (readable, and fast for 100k decisions:
    ``json.dumps`` without ``indent`` uses the C encoder)."""
    lines = []
    for k, v in report.items():
        if isinstance(v, list) and v:
            # one C-encoder call for the whole list; entries hold no strings containing "}, {"
            inner = json.dumps(v, ensure_ascii=False)[1:-1].replace("}, {", "},\n    {")
            lines.append(f"  {json.dumps(k)}: [\n    {inner}\n  ]")
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}")
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode("utf-8")
