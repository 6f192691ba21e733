"""Quick scorer for iteration: run a model folder through the project's unchanged ``ModelDetector`` (and
optionally the default detector = model + rules) on a split and print exact / partial F1 per label and
PERSON leaks. Used on **dev** while developing; the model card's held-out figures come from
``python -m veil_desktop.evaluate`` (KLUE, ko-pii) and from this scorer for the synthetic held-out documents
(a corpus the project evaluator does not read).

Definitions follow ``veil_desktop.evaluate``: exact = same (start, end, label); partial = a prediction
overlapping a same-label gold span is correct (precision side), a gold span overlapped by a same-label
prediction is found (recall side); labels a corpus does not annotate are not scored; a PERSON gold span
*leaks* when ≥2 of its letters/syllables are covered by no prediction at all.

    python -m training.score --model resources/models/veil-compact-ko --split dev
"""
from __future__ import annotations

import argparse
import re
import time
from dataclasses import dataclass

from veil_desktop.datasets import Doc, load_klue, load_ko_pii
from veil_desktop.detect.span import Span

from . import synth

_ALNUM = re.compile(r"[0-9A-Za-z가-힣]")


@dataclass
class Tally:
    tp: int = 0
    n_pred: int = 0
    n_gold: int = 0
    p_ok: int = 0
    g_found: int = 0
    leaks: int = 0

    def exact(self):
        p = self.tp / self.n_pred if self.n_pred else 0.0
        r = self.tp / self.n_gold if self.n_gold else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)

    def partial(self):
        p = self.p_ok / self.n_pred if self.n_pred else 0.0
        r = self.g_found / self.n_gold if self.n_gold else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def synth_docs(split: str, n: int = 300) -> list[Doc]:
    """Synthetic documents as ``Doc``s: ``test`` = held-out templates (seed 777), ``dev`` = train
    templates with a seed the training run never uses (seed 555)."""
    held = split == "test"
    out = []
    for i, d in enumerate(synth.generate(n, seed=777 if held else 555, heldout=held)):
        spans = sorted(Span(s, e, lab, 1.0, "model") for s, e, lab in d.spans)
        out.append(Doc(f"synth-{split}-{i:04d}", d.text, spans, "synthetic", "synth", set()))
    return out


def corpus(name: str, split: str) -> tuple[list[Doc], tuple[str, ...]]:
    if name == "klue":
        return [d for d in load_klue() if d.split == split], ("PERSON", "ORGANIZATION")
    if name == "ko-pii":
        return [d for d in load_ko_pii() if d.split == split], ("PERSON", "ADDRESS")
    if name == "synth":
        return synth_docs(split), ("PERSON", "ADDRESS", "ORGANIZATION")
    raise ValueError(name)


def score(detector, docs: list[Doc], labels: tuple[str, ...]) -> tuple[dict[str, Tally], float]:
    tallies = {lab: Tally() for lab in labels}
    n_chars, t0 = 0, time.perf_counter()
    for d in docs:
        pred_all = detector.detect(d.text)
        n_chars += len(d.text)
        for lab in labels:
            t = tallies[lab]
            gold = [s for s in d.spans if s.label == lab]
            pred = [s for s in pred_all if s.label == lab]
            gk = {(s.start, s.end) for s in gold}
            t.n_gold += len(gold)
            t.n_pred += len(pred)
            t.tp += sum((s.start, s.end) in gk for s in pred)
            t.p_ok += sum(any(p.overlaps(g) for g in gold) for p in pred)
            t.g_found += sum(any(p.overlaps(g) for p in pred) for g in gold)
            if lab == "PERSON":
                for g in gold:
                    covered = [False] * (g.end - g.start)
                    for p in pred_all:
                        for i in range(max(p.start, g.start), min(p.end, g.end)):
                            covered[i - g.start] = True
                    left = sum(1 for i, c in enumerate(d.text[g.start:g.end]) if not covered[i] and _ALNUM.match(c))
                    t.leaks += left >= 2
    return tallies, n_chars / max(1e-9, time.perf_counter() - t0)


def report(name: str, tallies: dict[str, Tally], speed: float) -> str:
    lines = [f"## {name}  ({speed:,.0f} chars/s)",
             "| label | gold | exact P | exact R | exact F1 | partial P | partial R | partial F1 | leaks |",
             "|---|---|---|---|---|---|---|---|---|"]
    for lab, t in tallies.items():
        e, p = t.exact(), t.partial()
        leak = f"{t.leaks} ({t.leaks / t.n_gold:.1%})" if lab == "PERSON" and t.n_gold else "-"
        lines.append(f"| {lab} | {t.n_gold} | {e[0]:.3f} | {e[1]:.3f} | {e[2]:.3f} | {p[0]:.3f} | {p[1]:.3f} | "
                     f"{p[2]:.3f} | {leak} |")
    return "\n".join(lines)


def project_report(detector, name: str, split: str) -> str:
    """The same corpus scored by the project's evaluator (``veil_desktop.evaluate``: identical definitions,
    plus its leak counts for every label); used for the synthetic corpus, which its CLI does not load."""
    from veil_desktop.evaluate import evaluate, markdown

    docs, labels = corpus(name, split)
    rep = evaluate(detector, docs, frozenset(labels))
    return markdown(rep, f"{getattr(detector, 'id', 'detector')} on {name} / {split} (veil_desktop.evaluate)")


def make(kind: str, model: str, threads: int, onnx_file: str | None = None):
    from veil_desktop.detect.engine import ModelDetector

    if kind == "model":
        return ModelDetector(model, threads=threads, onnx_file=onnx_file)
    from veil_desktop.detect.default import build_default_detector  # rules issue

    return build_default_detector(model_dir=model, threads=threads)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="resources/models/veil-compact-ko")
    ap.add_argument("--onnx", default=None, help="ONNX file inside the folder (default: the loader's choice)")
    ap.add_argument("--split", default="dev", choices=["dev", "test"])
    ap.add_argument("--data", default="klue,ko-pii,synth")
    ap.add_argument("--detector", default="model", choices=["model", "default"])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--project", action="store_true",
                    help="score with veil_desktop.evaluate's functions (exact/partial/leaks for all labels)")
    a = ap.parse_args(argv)
    det = make(a.detector, a.model, a.threads, a.onnx)
    for name in a.data.split(","):
        if a.project:
            print(project_report(det, name, a.split), flush=True)
            continue
        docs, labels = corpus(name, a.split)
        tallies, speed = score(det, docs, labels)
        print(report(f"{name} / {a.split} / {a.detector} ({len(docs)} docs)", tallies, speed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
