"""Throughput of the rule stage (``RuleDetector.detect``) and of ``merge_spans``, in characters per second.

Texts (see docs/EVALUATION.md for results):
- ``ko-pii``  : the synthetic administrative documents of ``../shared/data/ko-pii-synthetic-1398.jsonl``,
  concatenated and repeated to the requested size (very dense: about one entity per 60 characters);
- ``klue``    : KLUE-NER sentences (news / wiki / reviews: few structured entities);
- ``plain``   : a generated Korean text without PII (the pure scanning cost; needs no shared data).

Each text is detected ``--repeat`` times after one warm-up; the best and the median wall times are
printed with the resulting chars/s, and the best *process CPU time* (``time.process_time``): the machine is
shared, so wall time also measures the other tenants' load, CPU time what the code costs. A per-stage
breakdown (each finder timed alone, wall) follows for ``ko-pii``.
Run: ``.venv/bin/python benchmarks/bench_rules.py [--size 2000000] [--repeat 5] [--json out.json]``.
Single process, single thread (the rule stage is pure Python + ``re``).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from veil_desktop.detect.merge import merge_spans  # noqa: E402
from veil_desktop.detect.rules import RuleDetector  # noqa: E402
from veil_desktop.detect.rules.address import find_addresses, find_postal_codes  # noqa: E402
from veil_desktop.detect.rules.context import ContextIndex  # noqa: E402
from veil_desktop.detect.rules.fold import fold  # noqa: E402
from veil_desktop.detect.rules.numbers import NUMBER_FINDERS  # noqa: E402
from veil_desktop.detect.rules.spacing import join_split_syllables  # noqa: E402
from veil_desktop.detect.span import Span  # noqa: E402


def _repeat_to(text: str, size: int) -> str:
    if not text:
        return ""
    return (text * (size // len(text) + 1))[:size]


def texts(size: int) -> dict[str, str]:
    out: dict[str, str] = {}
    try:
        from veil_desktop.datasets import load_klue, load_ko_pii

        out["ko-pii"] = _repeat_to("\n\n".join(d.text for d in load_ko_pii()), size)
        out["klue"] = _repeat_to("\n".join(d.text for d in load_klue()), size)
    except OSError as e:  # no ../shared here: the generated text still runs
        print(f"note: shared corpora unavailable ({e}); only the generated text is measured")
    rng = random.Random(0)
    words = ["오늘", "회의", "자료를", "검토하고", "다음", "주에", "결과를", "공유하겠습니다", "담당", "부서는", "관련",
             "내용을", "정리하여", "보고", "드립니다", "예산", "집행", "현황과", "향후", "계획을", "포함합니다", "2024년",
             "3분기", "12건", "처리", "완료"]
    plain = " ".join(rng.choice(words) + ("." if rng.random() < 0.1 else "") for _ in range(size // 4))
    out["plain"] = plain[:size]
    return out


def timed(fn, repeat: int) -> tuple[float, float, float]:
    """(best wall s, median wall s, best CPU s of this process). On a shared machine the wall time grows
    with other tenants' load; the process CPU time is what the code itself costs."""
    fn()  # warm-up
    runs, cpu = [], []
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return min(runs), statistics.median(runs), min(cpu)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=2_000_000, help="characters per text")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", help="write the figures as JSON here")
    a = ap.parse_args(argv)

    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} logical CPUs, "
          f"load avg {os.getloadavg()[0]:.2f}; size {a.size:,} chars, best/median of {a.repeat}")
    det = RuleDetector(entities=True)  # as in the default detector: identifiers and context entities included
    results: dict[str, dict] = {}
    print("\n| text | spans | wall s best | wall s median | chars/s wall best | chars/s wall median "
          "| CPU s best | chars/s per CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, text in texts(a.size).items():
        n = len(det.detect(text))
        best, med, cpu = timed(lambda: det.detect(text), a.repeat)
        results[name] = {"chars": len(text), "spans": n, "best_s": best, "median_s": med, "cpu_s": cpu,
                         "chars_per_s_best": len(text) / best, "chars_per_s_median": len(text) / med,
                         "chars_per_cpu_s": len(text) / cpu}
        print(f"| {name} | {n:,} | {best:.3f} | {med:.3f} | {len(text) / best:,.0f} | {len(text) / med:,.0f} "
              f"| {cpu:.3f} | {len(text) / cpu:,.0f} |")
    print(f"\nload average after the runs: {os.getloadavg()[0]:.2f}")

    dense = texts(a.size).get("ko-pii")
    if dense:
        folded = fold(dense)
        print("\nPer stage on ko-pii (each timed alone, best of the runs):\n")
        print("| stage | best s | chars/s |")
        print("|---|---:|---:|")
        # each finder with a fresh keyword index, so every stage pays its own context look-ups
        stages = {f"numbers/{k}": (lambda f=f: list(f(folded, ContextIndex(folded))))
                  for k, (_, f) in NUMBER_FINDERS.items()}
        stages["spacing join"] = lambda: join_split_syllables(folded)
        stages["address grammar"] = lambda: find_addresses(folded)
        addrs = find_addresses(folded)
        stages["postal codes"] = lambda: list(find_postal_codes(folded, addrs))
        rule_spans = det.detect(dense)
        fake_model = [Span(s.start, s.end, "ADDRESS", 0.8, "model") for s in rule_spans if s.label == "ADDRESS"]
        stages["merge_spans (rules + as many model spans)"] = lambda: merge_spans(fake_model, rule_spans, dense)
        stage_figs = {}
        for k, fn in stages.items():
            best, _, _ = timed(fn, a.repeat)
            stage_figs[k] = best
            print(f"| {k} | {best:.3f} | {len(dense) / best:,.0f} |")
        results["stages_ko_pii_best_s"] = stage_figs
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
