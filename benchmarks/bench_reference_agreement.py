"""Span agreement of the engine with a plain implementation of the reference pipeline, on the twin.

The real model cannot be downloaded here; the random-weight twin (``bench_detect.build_twin``: same
architecture, same KoELECTRA tokenizer) stands in, since the question is whether the *pipeline* (windows,
special tokens, Viterbi, spans, post-processing) matches, whatever the weights. The reference side is
``tests/test_pipeline_reference.reference_pieces`` (one window at a time, Python loops, written from
../shared/docs/PIPELINE.md) followed by the post-processing steps in PIPELINE order.

Texts (about 300): ko-pii synthetic documents, KLUE sentences, multi-window KLUE paragraphs, texts cut at
125–131 tokens, and edge cases (empty, whitespace only, one character, particles, brackets at the start).

Prints, for ``o_bias`` values that give realistic to dense span densities:
- **rules off**: spans of ``ModelDetector`` equal to the reference's (exact start, end, label) / union;
- **rules on**: of the bare model's spans that overlap no rule span, the share found unchanged in the
  default detector's output (the contract: rule spans are added on top, never replacing model spans that
  do not overlap them); texts whose model input would differ from the original (none, by construction)
  are counted too.

Run: ``nice .venv/bin/python benchmarks/bench_reference_agreement.py [--limit N]``
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))


def texts(limit: int, tok) -> list[tuple[str, str]]:
    from veil_desktop.datasets import load_klue, load_ko_pii

    rng = random.Random(15)
    kopii = [d.text for d in load_ko_pii()]
    klue = [d.text for d in load_klue()]
    out = [("ko-pii", t) for t in rng.sample(kopii, min(limit // 3, len(kopii)))]
    out += [("klue", t) for t in rng.sample(klue, min(limit // 3, len(klue)))]
    for i in range(limit // 10):  # multi-window paragraphs
        para, n = [], 0
        while n < rng.choice([600, 1200, 2500]):
            s = rng.choice(klue)
            para.append(s)
            n += len(s) + 1
        out.append(("paragraph", " ".join(para)))
    pool = " ".join(rng.sample(klue, 200))
    for target in (125, 126, 127, 128, 129, 130, 131) * 2:  # token-count boundaries
        start = rng.randrange(0, len(pool) // 2)
        lo, hi = start + 1, min(len(pool), start + 600)
        while lo < hi:  # shortest prefix with `target` tokens
            mid = (lo + hi) // 2
            if len(tok.encode(pool[start:mid], add_special_tokens=False).ids) >= target:
                hi = mid
            else:
                lo = mid + 1
        out.append((f"{target} tokens", pool[start:lo]))
    out += [("edge", t) for t in ("", " ", "\n\n", "김", "[민원] 처리 결과", "(주)한빛은행은 서울에", "호는 일로 만",
                                  "지지율이 40%가 넘었다", "김철수가 왔다", "ＫＩＭ　철수", "주문번호 AB12CD34EF 확인")]
    return out


def main(argv=None) -> int:
    from test_pipeline_reference import reference_pieces  # noqa: E402  (tests/ on sys.path below)

    from bench_detect import build_twin
    from veil_desktop.detect.default import build_default_detector
    from veil_desktop.detect.engine import ModelDetector
    from veil_desktop.detect.postprocess import Piece, postprocess

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=270)
    ap.add_argument("--o-bias", default="0,0.6,1.0", help="comma list (the twin has +1.0 baked into O)")
    a = ap.parse_args(argv)
    twin = build_twin()
    base = ModelDetector(twin, threads=2)
    corpus = texts(a.limit, base.model.tokenizer)
    print(f"twin {twin}, {len(corpus)} texts, {sum(len(t) for _, t in corpus):,} characters")
    for ob in (float(x) for x in a.o_bias.split(",")):
        eng = ModelDetector(twin, model=base.model, o_bias=ob)
        default = build_default_detector(twin, threads=2, o_bias=ob)
        default.model = eng
        same = union = 0
        kept = eligible = 0
        by_kind: dict[str, list[int]] = {}
        for kind, text in corpus:
            pieces, seams = reference_pieces(twin, text, o_bias=ob, skip_ids=True)
            ref = {(p.start, p.end, p.label) for p in postprocess(
                [Piece(q[0], q[1], q[2], q[3], q[4], q[5], q[6]) for q in pieces], text, seams)}
            got_spans = eng.detect(text)
            got = {(s.start, s.end, s.label) for s in got_spans}
            same += len(ref & got)
            union += len(ref | got)
            k = by_kind.setdefault(kind.split()[0] if "tokens" not in kind else "boundary", [0, 0])
            k[0] += len(ref & got)
            k[1] += len(ref | got)
            rules = default.rule_spans(text)
            out = {(s.start, s.end, s.label) for s in default.detect(text)}
            for s in got_spans:
                if not any(r.start < s.end and s.start < r.end for r in rules):
                    eligible += 1
                    kept += (s.start, s.end, s.label) in out
        print(f"o_bias {ob:+.1f}: rules off agreement {same}/{union} = {same / max(union, 1):.2%} "
              f"({', '.join(f'{k} {v[0] / v[1]:.1%}' if v[1] else f'{k} no spans' for k, v in by_kind.items())}); "
              f"rules on: model spans away from rule spans kept unchanged {kept}/{eligible} = "
              f"{kept / max(eligible, 1):.2%}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "tests"))
    sys.exit(main())
