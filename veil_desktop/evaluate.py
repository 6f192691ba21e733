"""Score a detector on a corpus: exact and partial-overlap micro P/R/F1 per label, plus leaks.

    python -m veil_desktop.evaluate --detector rules   --data ko-pii --split dev
    python -m veil_desktop.evaluate --detector default --data ko-pii --split test          # embedded model + rules
    python -m veil_desktop.evaluate --detector default --model DIR --data klue --split test
    python -m veil_desktop.evaluate --detector model:DIR --data ko-pii --split test --json out.json

Corpora come from ``veil_desktop.datasets`` (``../shared/data``); the split is the fixed text-hash split
(``test`` is held out: never tune on it).

Predictions are scored as users get them: only spans scoring at least ``--min-score`` (default
``detect.span.DEFAULT_MIN_SCORE`` = 0.5, the same constant as ``veil-redact redact --min-score`` and the window's
default threshold) count; spans below it (e.g. model spans demoted by ``rules/refine.py``) are left unmasked by
the batch CLI and pending in the window, so they count as not predicted. ``--min-score 0`` scores every span.

Definitions (documented in docs/EVALUATION.md):
- **exact**: a prediction is a TP when a gold span has the same (start, end, label).
- **partial**: a prediction is correct when it overlaps a gold span of the same label (precision side);
  a gold span is found when some same-label prediction overlaps it (recall side).
- Labels a corpus does not annotate (``Doc.unlabelled``, and for KLUE everything but PERSON/ORGANIZATION)
  are not scored: their predictions are neither TP nor FP (counted as "unscored").
- **leak**: a gold span that, after masking *all* predictions (whatever their label), still exposes
    - numbers (PHONE, RRN, CARD, ACCOUNT, … POSTAL_CODE, IP): ≥4 digits in one uncovered run of the span;
    - EMAIL / PASSPORT / VEHICLE and the other identifiers (URL, HEALTH_INSURANCE, MEDICAL_ID, EMPLOYEE_ID,
      STUDENT_ID, CASE_NUMBER, DOC_NUMBER): ≥4 letters or digits in one uncovered run;
    - BIRTH_DATE: as numbers (≥4 digits in one uncovered run);
    - PERSON / ORGANIZATION: ≥2 letters/syllables uncovered in total (not necessarily adjacent);
    - ADDRESS: ≥3 non-space characters in one uncovered run, not counting leading region words
      (시/도, 시/군/구 — the "partial" masking style keeps them by design); separately, an address whose
      동·호 (dong/ho unit) number is not fully covered counts as a **unit leak**.
  An "uncovered run" is a maximal stretch of the gold span not covered by any prediction; separators
  (spaces, hyphens, dots) inside it do not break it.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from .datasets import SPLITS
from .detect.span import DEFAULT_MIN_SCORE, RULE_LABELS, Span

#: other identifiers (rules/identifiers.py): reported as their own group, "other identifiers"
OTHER_IDS = frozenset({"URL", "HEALTH_INSURANCE", "MEDICAL_ID", "EMPLOYEE_ID", "STUDENT_ID", "CASE_NUMBER",
                       "DOC_NUMBER", "BIRTH_DATE"})
ALNUM_LABELS = frozenset({"EMAIL", "PASSPORT", "VEHICLE"}) | (OTHER_IDS - {"BIRTH_DATE"})
NUMBER_LABELS = frozenset(RULE_LABELS) - ALNUM_LABELS
NAME_LABELS = frozenset({"PERSON", "ORGANIZATION"})
#: the 13 structured labels of the original rule stage (phones, RRNs, … postal codes)
STRUCTURED = frozenset(RULE_LABELS) - OTHER_IDS

_REGION_WORD = re.compile(r"[가-힣]+(?:특별시|광역시|특별자치시|특별자치도|도|시|군|구)")
_UNIT = re.compile(r"(?:[0-9]+|[A-Za-z])동|[0-9]+(?:-[0-9]+)?호")
_DIGIT = re.compile(r"[0-9０-９]")
_ALNUM = re.compile(r"[0-9A-Za-z０-９Ａ-Ｚａ-ｚ가-힣]")
_NONSPACE = re.compile(r"[^\s,.()\-·]")
#: public service numbers (1588-1234, 1330, 110, 119 …): business / emergency lines, not personal; the rules
#: keep them on purpose, so a corpus that annotates them as PHONE counts them as leaks — reported separately
SERVICE_NUMBER = re.compile(r"1[5-9][0-9]{2}-?[0-9]{4}|1[0-9]{2,3}")


# ------------------------------------------------------------------------------------------------
# scoring


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def prf(self) -> tuple[float, float, float]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return p, r, f


@dataclass
class PartialCounts:
    pred_ok: int = 0     # predictions overlapping a same-label gold span
    pred: int = 0
    gold_found: int = 0  # gold spans overlapped by a same-label prediction
    gold: int = 0

    def prf(self) -> tuple[float, float, float]:
        p = self.pred_ok / self.pred if self.pred else 0.0
        r = self.gold_found / self.gold if self.gold else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return p, r, f


@dataclass
class Report:
    exact: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    partial: dict[str, PartialCounts] = field(default_factory=lambda: defaultdict(PartialCounts))
    leaks: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    unit_leaks: int = 0
    units: int = 0
    service_gold: int = 0   # gold PHONE spans that are public service numbers
    service_kept: int = 0   # ... of them left unmasked (by design)
    unscored: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    docs: int = 0
    chars: int = 0
    seconds: float = 0.0
    errors: list[dict] = field(default_factory=list)

    def labels(self) -> list[str]:
        return sorted(set(self.exact) | set(self.partial), key=_label_order)

    def group(self, labels: Iterable[str]) -> tuple[Counts, PartialCounts, int]:
        e, p, leaks = Counts(), PartialCounts(), 0
        for lab in labels:
            if lab in self.exact:
                c = self.exact[lab]
                e.tp += c.tp
                e.fp += c.fp
                e.fn += c.fn
            if lab in self.partial:
                c2 = self.partial[lab]
                p.pred_ok += c2.pred_ok
                p.pred += c2.pred
                p.gold_found += c2.gold_found
                p.gold += c2.gold
            leaks += self.leaks.get(lab, 0)
        return e, p, leaks


def _label_order(label: str) -> tuple[int, str]:
    order = ("PERSON", "ADDRESS", "ORGANIZATION") + tuple(RULE_LABELS)
    return (order.index(label) if label in order else len(order), label)


def _uncovered_runs(gold: Span, preds: Sequence[Span]) -> list[tuple[int, int]]:
    """Maximal sub-ranges of ``gold`` covered by no prediction."""
    runs, pos = [], gold.start
    for p in preds:  # sorted by start
        if p.end <= pos or p.start >= gold.end:
            continue
        if p.start > pos:
            runs.append((pos, p.start))
        pos = max(pos, p.end)
        if pos >= gold.end:
            break
    if pos < gold.end:
        runs.append((pos, gold.end))
    return runs


def is_leak(text: str, gold: Span, preds: Sequence[Span]) -> bool:
    """See the module docstring for the per-label thresholds."""
    runs = _uncovered_runs(gold, preds)
    if not runs:
        return False
    lab = gold.label
    if lab in NAME_LABELS:
        return sum(len(_ALNUM.findall(text[a:b])) for a, b in runs) >= 2
    if lab == "ADDRESS":
        for a, b in runs:
            chunk = text[a:b]
            if a == gold.start:  # leading region words are kept by the partial style: not a leak
                m = re.match(rf"(?:\s*{_REGION_WORD.pattern}(?![가-힣0-9]))+", chunk)
                if m:
                    chunk = chunk[m.end():]
            if len(_NONSPACE.findall(chunk)) >= 3:
                return True
        return False
    if lab in ALNUM_LABELS:
        return any(len(_ALNUM.findall(text[a:b])) >= 4 for a, b in runs)
    # numbers (and anything else): 4+ digits in one uncovered run
    return any(len(_DIGIT.findall(text[a:b])) >= 4 for a, b in runs)


def unit_exposed(text: str, gold: Span, preds: Sequence[Span]) -> tuple[int, int]:
    """(units in the gold address, units not fully covered by predictions)."""
    units = exposed = 0
    for m in _UNIT.finditer(text, gold.start, gold.end):
        units += 1
        a, b = m.span()
        cov = a
        for p in preds:
            if p.start <= cov < p.end:
                cov = p.end
        if cov < b:
            exposed += 1
    return units, exposed


def score_doc(report: Report, text: str, gold: Sequence[Span], pred: Sequence[Span],
              scored_labels: set[str] | frozenset[str] | None, doc_id: str = "", keep_errors: int = 0) -> None:
    """Add one document to ``report``. ``scored_labels``: labels the corpus annotates (None = all)."""
    preds_sorted = sorted(pred, key=lambda s: (s.start, s.end))
    scored_pred = []
    for p in preds_sorted:
        if scored_labels is not None and p.label not in scored_labels:
            report.unscored[p.label] += 1
        else:
            scored_pred.append(p)
    gold_keys = {(g.start, g.end, g.label) for g in gold}
    pred_keys = {(p.start, p.end, p.label) for p in scored_pred}
    for g in gold:
        ex = report.exact[g.label]
        pa = report.partial[g.label]
        pa.gold += 1
        if (g.start, g.end, g.label) in gold_keys & pred_keys:
            ex.tp += 1
        else:
            ex.fn += 1
        found = any(p.label == g.label and p.overlaps(g) for p in scored_pred)
        if found:
            pa.gold_found += 1
        leak = is_leak(text, g, preds_sorted)
        if leak:
            report.leaks[g.label] += 1
        if g.label == "PHONE" and SERVICE_NUMBER.fullmatch(text[g.start:g.end].strip()):
            report.service_gold += 1
            report.service_kept += bool(leak)
        if g.label == "ADDRESS":
            u, e = unit_exposed(text, g, preds_sorted)
            report.units += u
            report.unit_leaks += e
        if (not found or leak) and len(report.errors) < keep_errors:
            report.errors.append({"doc": doc_id, "kind": "leak" if found else "miss", "label": g.label,
                                  "gold": text[g.start:g.end], "context": _ctx(text, g)})
    for p in scored_pred:
        if (p.start, p.end, p.label) not in gold_keys:
            report.exact[p.label].fp += 1
        pa = report.partial[p.label]
        pa.pred += 1
        ok = any(g.label == p.label and g.overlaps(p) for g in gold)
        if ok:
            pa.pred_ok += 1
        elif len(report.errors) < keep_errors:
            report.errors.append({"doc": doc_id, "kind": "false positive", "label": p.label,
                                  "pred": text[p.start:p.end], "context": _ctx(text, p)})


def _ctx(text: str, s: Span, w: int = 25) -> str:
    return (text[max(0, s.start - w):s.start] + "⟦" + text[s.start:s.end] + "⟧" + text[s.end:s.end + w]
            ).replace("\n", " ")


# ------------------------------------------------------------------------------------------------
# detectors and corpora


def make_detector(spec: str, model: str | None = None, threads: int | None = None, o_bias: float = 0.0,
                  rule_labels: set[str] | None = None, spacing: bool = True):
    """``rules`` | ``default`` (embedded model or ``--model``) + rules | ``model`` / ``model:DIR`` alone."""
    if spec == "rules":
        from .detect.rules import RuleDetector

        return RuleDetector(rule_labels, spacing=spacing)
    if spec.startswith("model"):
        folder = spec.partition(":")[2] or model
        if not folder:
            raise SystemExit("--detector model needs a folder: --detector model:DIR or --model DIR")
        from .detect.engine import ModelDetector

        return ModelDetector(folder, threads=threads, o_bias=o_bias)
    if spec == "default":
        from .detect.default import build_default_detector

        return build_default_detector(Path(model) if model else None, threads=threads, o_bias=o_bias,
                                      rule_labels=rule_labels, spacing=spacing)
    if spec == "default-no-context":
        return _without_context(make_detector("default", model, threads, o_bias, rule_labels, spacing))
    raise SystemExit(f"unknown detector {spec!r}: choose rules, default, default-no-context or model:DIR")


def _without_context(det):
    """The default detector without ``rules/refine.py`` (no model-span refinement, no context entities):
    the baseline the context fixes are measured against. Evaluation only (``detect``, not ``stream``)."""
    from .detect import default as D
    from .detect.rules import RuleDetector

    class NoContext(D.CombinedDetector):
        def model_spans(self, text):
            return D.union_spacing(list(self.model.detect(text)), self.spacing_spans(text), text)

    r = det.rules
    rules = RuleDetector(set(r.enabled) - {"PERSON", "ORGANIZATION"}, spacing=r.spacing, min_score=r.min_score)
    out = NoContext(det.model, rules, spacing=det.spacing)
    out.id = det.id + "-no-context"
    return out


def load_corpus(name: str, path: str | None = None):
    """(docs, scored-label set or None for 'per doc') for a corpus name."""
    from . import datasets

    if name == "ko-pii":
        docs = datasets.load_ko_pii(Path(path) if path else None)
        return docs, frozenset(datasets.KO_PII_LABELS.values())
    if name == "klue":
        docs = datasets.load_klue(Path(path) if path else None)
        return docs, frozenset({"PERSON", "ORGANIZATION"})
    raise SystemExit(f"unknown corpus {name!r}: choose ko-pii or klue")


def evaluate(detector, docs, scored: frozenset[str] | None, keep_errors: int = 0,
             only_detector_labels: bool = True, min_score: float = DEFAULT_MIN_SCORE) -> Report:
    """Run ``detector`` over ``docs`` and score it. With ``only_detector_labels`` (default) gold spans of
    labels the detector cannot emit (e.g. PERSON for the rules alone) are left out of the table. Only
    predictions scoring ``>= min_score`` count (default: the product's default threshold; 0 = all)."""
    rep = Report()
    can = frozenset(getattr(detector, "labels", ()) or ())
    t0 = time.perf_counter()
    for d in docs:
        pred = [s for s in detector.detect(d.text) if s.score >= min_score]
        labels = None if scored is None else (scored - set(d.unlabelled))
        gold = d.spans
        if only_detector_labels and can:
            labels = (labels if labels is not None else can) & can
            gold = [g for g in gold if g.label in can]
        score_doc(rep, d.text, gold, pred, labels, d.id, keep_errors)
        rep.docs += 1
        rep.chars += len(d.text)
    rep.seconds = time.perf_counter() - t0
    return rep


# ------------------------------------------------------------------------------------------------
# output


def _fmt(x: float) -> str:
    return f"{x:.3f}"


def markdown(rep: Report, title: str = "") -> str:
    lines = []
    if title:
        lines += [f"### {title}", ""]
    lines.append("| label | gold | pred | exact P | exact R | exact F1 | partial P | partial R | partial F1 | leaks |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    def row(name: str, e: Counts, p: PartialCounts, leaks: int) -> str:
        ep, er, ef = e.prf()
        pp, pr, pf = p.prf()
        leak = f"{leaks} ({leaks / p.gold:.1%})" if p.gold else str(leaks)
        return (f"| {name} | {p.gold} | {p.pred} | {_fmt(ep)} | {_fmt(er)} | {_fmt(ef)} | {_fmt(pp)} | "
                f"{_fmt(pr)} | {_fmt(pf)} | {leak} |")

    for lab in rep.labels():
        e, p, leaks = rep.group([lab])
        if p.gold == 0 and p.pred == 0:
            continue
        lines.append(row(lab, e, p, leaks))
    labs = rep.labels()
    structured = [lab for lab in labs if lab in STRUCTURED]
    if structured:
        lines.append(row("**structured (micro)**", *rep.group(structured)))
    others = [lab for lab in labs if lab in OTHER_IDS]
    if others:
        lines.append(row("**other identifiers (micro)**", *rep.group(others)))
    lines.append(row("**all (micro)**", *rep.group(labs)))
    lines.append("")
    if rep.chars:
        fps = [(lab, rep.partial[lab].pred - rep.partial[lab].pred_ok) for lab in labs if lab in rep.partial]
        lines.append("False positives per 1,000 characters (predictions overlapping no gold span of their label): "
                     + ", ".join(f"{lab} {n * 1000 / rep.chars:.2f}" for lab, n in fps if n or lab in NAME_LABELS)
                     + ".")
    if rep.units:
        lines.append(f"ADDRESS 동·호 units in gold: {rep.units}; left (partly) unmasked: {rep.unit_leaks}.")
    if rep.service_gold:
        lines.append(f"Public service numbers annotated as PHONE (1588-…, 1330, 110 …): {rep.service_gold}; left "
                     f"unmasked by design (not personal): {rep.service_kept} — included in the PHONE leaks above.")
    if rep.unscored:
        lines.append("Unscored predictions (label not annotated in this corpus): "
                     + ", ".join(f"{k} {v}" for k, v in sorted(rep.unscored.items())) + ".")
    if rep.seconds:
        lines.append(f"{rep.docs} documents, {rep.chars:,} characters, {rep.seconds:.2f} s "
                     f"({rep.chars / rep.seconds:,.0f} chars/s including scoring).")
    return "\n".join(lines)


def to_json(rep: Report) -> dict:
    out: dict = {"docs": rep.docs, "chars": rep.chars, "seconds": round(rep.seconds, 3), "labels": {},
                 "address_units": rep.units, "address_unit_leaks": rep.unit_leaks,
                 "service_numbers": rep.service_gold, "service_numbers_kept": rep.service_kept,
                 "unscored": dict(rep.unscored)}
    groups = {lab: [lab] for lab in rep.labels()}
    groups["_structured"] = [lab for lab in rep.labels() if lab in STRUCTURED]
    groups["_other_ids"] = [lab for lab in rep.labels() if lab in OTHER_IDS]
    groups["_all"] = rep.labels()
    for name, labs in groups.items():
        e, p, leaks = rep.group(labs)
        ep, er, ef = e.prf()
        pp, pr, pf = p.prf()
        out["labels"][name] = {"gold": p.gold, "pred": p.pred, "exact": {"p": ep, "r": er, "f1": ef},
                               "partial": {"p": pp, "r": pr, "f1": pf}, "leaks": leaks,
                               "leak_rate": leaks / p.gold if p.gold else 0.0,
                               "fp_per_1000_chars": (p.pred - p.pred_ok) * 1000 / rep.chars if rep.chars else 0.0}
    if rep.errors:
        out["errors"] = rep.errors
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m veil_desktop.evaluate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--detector", default="default",
                    help="rules | default (embedded model, or --model, + rules) | model:DIR (model alone) | "
                         "default-no-context (default without rules/refine.py: the baseline of the context fixes)")
    ap.add_argument("--model", help="model folder for --detector default/model")
    ap.add_argument("--data", default="ko-pii", choices=["ko-pii", "klue"])
    ap.add_argument("--data-path", help="corpus file (default: ../shared/data/...)")
    ap.add_argument("--split", default="test", choices=list(SPLITS),
                    help="hash split (test/dev/train/all) or the disjoint domain split: heldout (whole held-out "
                         "ko-pii domains), heldout-test (those AND test: unseen by the shipped model), tuning, "
                         "tuning-dev (docs/EVALUATION.md)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--o-bias", type=float, default=0.0,
                    help="subtracted from the O logit (reference sign): positive = more entities")
    ap.add_argument("--labels", help="comma-separated rule labels to enable (rules / default)")
    ap.add_argument("--no-spacing", action="store_true",
                    help="do not join split syllables (rules' address pass; the model's input for default)")
    ap.add_argument("--all-labels", action="store_true",
                    help="also score gold labels the detector cannot emit (they count as misses)")
    ap.add_argument("--limit", type=int, default=0, help="score only the first N documents of the split")
    ap.add_argument("--errors", type=int, default=0, help="print up to N error cases (never do this on test "
                                                          "while tuning)")
    ap.add_argument("--min-score", type=float, default=DEFAULT_MIN_SCORE, metavar="S",
                    help=f"score only predictions with score >= S, as users get them (default {DEFAULT_MIN_SCORE}, "
                         "the batch CLI's --min-score and the window's default threshold; 0 = every span)")
    ap.add_argument("--json", nargs="?", const="-", help="also write JSON (to a path, or '-' for stdout)")
    a = ap.parse_args(argv)
    if not 0.0 <= a.min_score <= 1.0:
        ap.error("--min-score must be between 0 and 1")

    from .datasets import iter_split

    try:
        docs, scored = load_corpus(a.data, a.data_path)
    except OSError as e:
        raise SystemExit(f"cannot read the {a.data} corpus: {e} (set --data-path, or VEIL_SHARED_DATA to the folder "
                         "holding ../shared/data)") from None
    if a.split != "all":
        docs = list(iter_split(docs, a.split))
    if a.limit:
        docs = docs[:a.limit]
    rule_labels = set(a.labels.split(",")) if a.labels else None
    from .detect.model_folder import ModelFolderError

    try:
        det = make_detector(a.detector, a.model, a.threads, a.o_bias, rule_labels, spacing=not a.no_spacing)
    except (ModelFolderError, ValueError) as e:
        raise SystemExit(str(e)) from None
    rep = evaluate(det, docs, scored, keep_errors=a.errors, only_detector_labels=not a.all_labels,
                   min_score=a.min_score)
    title = f"{getattr(det, 'id', a.detector)} on {a.data} / {a.split} (min score {a.min_score:g})"
    print(markdown(rep, title))
    if a.errors:
        print("\nError cases:")
        for e in rep.errors:
            print(f"- [{e['kind']}] {e['label']}: {e.get('gold') or e.get('pred')!r}  …{e['context']}…")
    if a.json:
        blob = json.dumps({"detector": getattr(det, "id", a.detector), "data": a.data, "split": a.split,
                           "min_score": a.min_score,
                           **to_json(rep)}, ensure_ascii=False, indent=2)
        if a.json == "-":
            print(blob)
        else:
            Path(a.json).write_text(blob + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
