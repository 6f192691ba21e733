"""Quick scorer for iteration: run a model folder through the project's unchanged ``ModelDetector`` (or
the default detector = model + rules) on a split of KLUE, ko-pii or the synthetic documents and print the
project evaluator's table (``veil_desktop.evaluate``: exact / partial P/R/F1 per label, leaks). Used on
**dev** while developing; it is also how the model card scores the synthetic held-out documents, a corpus
the evaluator's own command line does not read.

    python -m training.score --model resources/models/veil-compact-ko --split dev
"""
from __future__ import annotations

import argparse

from veil_desktop.datasets import Doc, load_klue, load_ko_pii
from veil_desktop.detect.span import Span

from . import synth


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


def score(detector, docs: list[Doc], labels: tuple[str, ...]):
    """Score ``detector`` on ``docs`` with the project's evaluator (``veil_desktop.evaluate``)."""
    from veil_desktop.evaluate import evaluate

    return evaluate(detector, docs, frozenset(labels))


def f1(rep, label: str) -> tuple[float, float]:
    """(exact F1, partial F1) of ``label`` in an evaluation report."""
    e, p, _ = rep.group([label])
    return e.prf()[2], p.prf()[2]


def report(detector, name: str, split: str) -> str:
    from veil_desktop.evaluate import markdown

    docs, labels = corpus(name, split)
    return markdown(score(detector, docs, labels),
                    f"{getattr(detector, 'id', 'detector')} on {name} / {split} (veil_desktop.evaluate)")


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
                    help="no effect: scoring always uses veil_desktop.evaluate (kept for documented commands)")
    a = ap.parse_args(argv)
    det = make(a.detector, a.model, a.threads, a.onnx)
    for name in a.data.split(","):
        print(report(det, name, a.split), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
