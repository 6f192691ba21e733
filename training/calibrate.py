"""Choose the compact model's operating point on the *dev* splits and fold it into the ONNX file.

    # scan: leak / false positives / F1 on KLUE dev and ko-pii dev for a grid of per-label biases
    .venv/bin/python -m training.calibrate scan --model DIR [--person 0,0.5,1] [--org 0,0.5,1]
    # fold: write a copy of the folder whose logits already carry the chosen shift
    .venv/bin/python -m training.calibrate fold --model DIR --out DIR2 --person 0.5 --org 0.5

A bias ``b`` for a label adds ``b`` to that label's B/I/E/S logits (the same shift relative to ``O`` as
``ModelDetector(o_bias={label: b})``). ``fold`` adds it to the constant bias of the graph's final ``Add``
(the output layer), so the shipped folder is an ordinary model folder: the engine runs it unchanged, with no
operating-point setting to get wrong, and app, CLI and evaluator all see the same model. ``fold`` checks that
the folded file's logits equal the original's plus the shift on random input.

Only dev splits are read here (KLUE dev hash split, ko-pii dev hash split minus the held-out domains); the
held-out figures are printed afterwards by :mod:`training.eval_disjoint`.
"""
from __future__ import annotations

import argparse
import itertools
import json
import shutil
import sys
from pathlib import Path

import numpy as np

from .labels import LABELS


def _shift_vector(person: float, org: float, address: float = 0.0) -> np.ndarray:
    vec = np.zeros(len(LABELS), dtype=np.float32)
    for i, tag in enumerate(LABELS):
        if tag.endswith("-PERSON"):
            vec[i] = person
        elif tag.endswith("-ORGANIZATION"):
            vec[i] = org
        elif tag.endswith("-ADDRESS"):
            vec[i] = address
    return vec


def fold(src: Path, dst: Path, person: float, org: float, address: float = 0.0) -> dict:
    import onnx
    import onnxruntime as ort
    from onnx import numpy_helper

    m = onnx.load(str(src / "model.onnx"))
    last = m.graph.node[-1]
    if last.op_type != "Add" or last.output[0] != m.graph.output[0].name:
        raise SystemExit(f"{src}: the graph does not end in the output layer's Add ({last.op_type})")
    inits = {i.name: i for i in m.graph.initializer}
    name = next((n for n in last.input if n in inits), None)
    if name is None:
        raise SystemExit(f"{src}: the final Add has no constant bias")
    bias = numpy_helper.to_array(inits[name]).astype(np.float32)
    if bias.shape != (len(LABELS),):
        raise SystemExit(f"{src}: final bias has shape {bias.shape}, expected ({len(LABELS)},)")
    shift = _shift_vector(person, org, address)
    inits[name].CopyFrom(numpy_helper.from_array(bias + shift, name))
    if dst.resolve() != src.resolve():
        shutil.copytree(src, dst, dirs_exist_ok=True)
    tmp = dst / "model.onnx.tmp"
    onnx.save(m, str(tmp))
    # verify on random ids before replacing: folded logits == original logits + shift
    rng = np.random.default_rng(0)
    ids = rng.integers(5, 1500, size=(2, 64)).astype(np.int64)
    mask = np.ones_like(ids)
    a = ort.InferenceSession(str(src / "model.onnx"), providers=["CPUExecutionProvider"]).run(
        None, {"input_ids": ids, "attention_mask": mask})[0]
    b = ort.InferenceSession(str(tmp), providers=["CPUExecutionProvider"]).run(
        None, {"input_ids": ids, "attention_mask": mask})[0]
    err = float(np.abs(b - (a + shift)).max())
    if err > 1e-4:
        tmp.unlink()
        raise SystemExit(f"folded logits differ from original + shift by {err}")
    tmp.replace(dst / "model.onnx")
    cfg_path = dst / "config.json"
    cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
    prev = cfg.get("compact_folded_bias", {"PERSON": 0.0, "ORGANIZATION": 0.0, "ADDRESS": 0.0})
    cfg["compact_folded_bias"] = {"PERSON": prev["PERSON"] + person, "ORGANIZATION": prev["ORGANIZATION"] + org,
                                  "ADDRESS": prev["ADDRESS"] + address}
    cfg_path.write_text(json.dumps(cfg, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return {"max_abs_error": err, **cfg["compact_folded_bias"]}


def scan(model: Path, persons: list[float], orgs: list[float], threads: int) -> list[dict]:
    from veil_desktop import evaluate as E
    from veil_desktop.datasets import is_heldout, iter_split
    from veil_desktop.detect.default import build_default_detector
    from veil_desktop.detect.engine import ModelDetector

    corpora = {name: E.load_corpus(name) for name in ("klue", "ko-pii")}
    base = ModelDetector(model, threads=threads)
    rows = []
    for p, o in itertools.product(persons, orgs):
        det = build_default_detector(model, threads=threads, model=base.model,
                                     o_bias={"PERSON": p, "ORGANIZATION": o} if (p or o) else 0.0)
        row = {"person": p, "org": o}
        for name in ("klue", "ko-pii"):
            docs, scored = corpora[name]
            dev = [d for d in iter_split(docs, "dev") if not is_heldout(d)]
            rep = E.evaluate(det, dev, scored, min_score=E.DEFAULT_MIN_SCORE)
            js = E.to_json(rep)
            for lab in ("PERSON", "ORGANIZATION"):
                r = js["labels"].get(lab)
                if r:
                    row[f"{name}/{lab}"] = (round(r["exact"]["f1"], 4), round(r["leak_rate"], 4), round(r["fp_per_1000_chars"], 3))
        rows.append(row)
        print(json.dumps(row, ensure_ascii=False), flush=True)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("scan")
    s.add_argument("--model", required=True)
    s.add_argument("--person", default="0,0.5,1")
    s.add_argument("--org", default="0,0.5,1")
    s.add_argument("--threads", type=int, default=2)
    f = sub.add_parser("fold")
    f.add_argument("--model", required=True)
    f.add_argument("--out", required=True)
    f.add_argument("--person", type=float, default=0.0)
    f.add_argument("--org", type=float, default=0.0)
    f.add_argument("--address", type=float, default=0.0)
    a = ap.parse_args(argv)
    if a.cmd == "scan":
        scan(Path(a.model), [float(x) for x in a.person.split(",")], [float(x) for x in a.org.split(",")],
             a.threads)
    else:
        print(json.dumps(fold(Path(a.model), Path(a.out), a.person, a.org, a.address)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
