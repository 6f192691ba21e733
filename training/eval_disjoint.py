"""Every figure of the issue-17 evaluation in one run: the disjoint split, per label, three detectors.

    .venv/bin/python -m training.eval_disjoint --threads 2 [--json out.json]

Runs ``veil_desktop.evaluate`` (the project's one scoring implementation) for

* detectors: ``rules`` (rule stage alone), ``default-no-context`` (embedded model + rules, without
  ``rules/refine.py``: the baseline of the context fixes) and ``default`` (what users get);
* corpora / splits (``veil_desktop.datasets``):
  - ``ko-pii heldout``: the 7 whole ko-pii domains in ``datasets.HELDOUT_DOMAINS`` (350 documents), never used
    to write or tune the issue-17 rules; the shipped model *did* see their train-hash documents;
  - ``ko-pii heldout-test``: the same domains AND the hash test split (67 documents): unseen by the model too;
  - ``klue heldout``: the KLUE hash test split (820 sentences; KLUE has only two sources, both used in training).

and prints one markdown table per run (exact / partial P R F1, leaks, false positives per 1,000 characters).
Predictions count as users get them: score ≥ ``--min-score`` (default ``DEFAULT_MIN_SCORE`` = 0.5, the batch
CLI's and the window's default; ``--min-score 0`` scores every span, demoted ones included).
Reads ``../shared/data`` only; writes nothing unless ``--json``.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from veil_desktop import evaluate as E
from veil_desktop.datasets import iter_split

RUNS = (
    ("rules", "ko-pii", "heldout"),
    ("default-no-context", "ko-pii", "heldout"),
    ("default", "ko-pii", "heldout"),
    ("default-no-context", "ko-pii", "heldout-test"),
    ("default", "ko-pii", "heldout-test"),
    ("default-no-context", "klue", "heldout"),
    ("default", "klue", "heldout"),
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", help="also write every run's figures to this file")
    ap.add_argument("--only", help="comma-separated detector names to run (default: all)")
    ap.add_argument("--model", help="model folder instead of the embedded compact model (candidates)")
    ap.add_argument("--data", help="comma-separated corpora to run (default: all)")
    ap.add_argument("--min-score", type=float, default=E.DEFAULT_MIN_SCORE,
                    help="score only predictions with score >= S (default: the product's default threshold)")
    a = ap.parse_args(argv)
    only = set(a.only.split(",")) if a.only else None
    corpora = {}
    out = {}
    for det_name, data, split in RUNS:
        if only and det_name not in only or a.data and data not in a.data.split(","):
            continue
        if data not in corpora:
            corpora[data] = E.load_corpus(data)
        docs, scored = corpora[data]
        docs = list(iter_split(docs, split))
        det = E.make_detector(det_name, a.model, threads=a.threads)
        t0 = time.perf_counter()
        rep = E.evaluate(det, docs, scored, min_score=a.min_score)
        print(E.markdown(rep, f"{getattr(det, 'id', det_name)} on {data} / {split} (min score {a.min_score:g})"),
              flush=True)
        print(f"({time.perf_counter() - t0:.1f} s)\n", flush=True)
        out[f"{det_name} {data} {split}"] = E.to_json(rep)
    if a.json:
        Path(a.json).write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
