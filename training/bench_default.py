"""Throughput of the whole default detector (compact model + rules) on realistic Korean text.

    .venv/bin/python -m training.bench_default --threads 2

Text: the ko-pii synthetic documents (all splits; no labels are used) concatenated to ``--chars`` characters.
Reports the best and median of ``--repeat`` timed ``detect()`` calls after one warm-up call, for the model
alone and for the default detector, in characters per second. The machine's load average is printed too:
on a shared machine it explains most of the variance; so is the process's CPU time (characters per CPU second,
summed over threads), which does not depend on the other tenants.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=None, help="model folder (default: the embedded compact model)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--chars", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true",
                    help="also print the default detector's CPU seconds per stage (model, spacing pass, context "
                         "refinement, rule stage, merge)")
    ap.add_argument("--compare", metavar="DIR",
                    help="instead: time the default detector over DIR and over --model (or the embedded model) "
                         "in interleaved runs (--repeat each), so machine load hits both alike")
    ap.add_argument("--model-only", action="store_true", help="with --compare: time the models alone (no rules)")
    a = ap.parse_args(argv)

    from veil_desktop.datasets import load_ko_pii
    from veil_desktop.detect.default import build_default_detector

    parts, n = [], 0
    for d in load_ko_pii():
        parts.append(d.text)
        n += len(d.text) + 2
        if n >= a.chars:
            break
    text = "\n\n".join(parts)[:a.chars]
    if a.compare:
        return compare(a, text)
    for rules in (False, True):
        det = build_default_detector(a.model, threads=a.threads, rules=rules)
        det.detect(text[:5000])
        times, cpu = [], []
        for _ in range(a.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            spans = det.detect(text)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        name = "default (model + rules)" if rules else "model alone"
        print(f"{name}: {len(text):,} chars, {len(spans)} spans; best {len(text) / min(times):,.0f} chars/s, "
              f"median {len(text) / statistics.median(times):,.0f} chars/s "
              f"(threads {a.threads}, load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs); "
              f"{len(text) / statistics.median(cpu):,.0f} chars per CPU second (all threads)", flush=True)
    if a.profile:
        profile(build_default_detector(a.model, threads=a.threads), text)
    return 0


def compare(a, text: str) -> int:
    """Interleaved timing of two default detectors on the same text (a ratio takes equal repeats)."""
    from veil_desktop.detect.default import build_default_detector

    rules = not a.model_only
    dets = {a.compare: build_default_detector(a.compare, threads=a.threads, rules=rules),
            a.model or "embedded": build_default_detector(a.model, threads=a.threads, rules=rules)}
    for det in dets.values():
        det.detect(text[:5000])
    speeds: dict[str, list[float]] = {k: [] for k in dets}
    for _ in range(a.repeat):
        for k, det in dets.items():
            t0 = time.perf_counter()
            det.detect(text)
            speeds[k].append(len(text) / (time.perf_counter() - t0))
    for k, v in speeds.items():
        print(f"{k}: median {statistics.median(v):,.0f} chars/s, best {max(v):,.0f} ({a.repeat} interleaved runs, "
              f"{len(text):,} chars, threads {a.threads}, {'model alone' if a.model_only else 'default detector'}, "
              f"load average {os.getloadavg()[0]:.1f})", flush=True)
    first, second = (statistics.median(v) for v in speeds.values())
    print(f"ratio (second / first, medians): {second / first:.2f}x", flush=True)
    return 0


def profile(det, text: str) -> None:
    """CPU seconds of each stage of ``CombinedDetector.detect`` (process time: all threads, not wall)."""
    from veil_desktop.detect.default import union_spacing
    from veil_desktop.detect.merge import merge_spans
    from veil_desktop.detect.rules.refine import refine_model_spans

    def cpu(f, *args):
        c0 = time.process_time()
        r = f(*args)
        return time.process_time() - c0, r

    det.detect(text[:5000])
    c_model, main = cpu(det.model.detect, text)
    c_spacing, extra = cpu(det.spacing_spans, text)
    c_union, un = cpu(union_spacing, list(main), extra, text)
    c_refine, refined = cpu(refine_model_spans, text, un)
    c_rules, rule_spans = cpu(det.rule_spans, text)
    c_merge, _ = cpu(merge_spans, refined, rule_spans, text)
    print(f"CPU seconds for {len(text):,} chars: model {c_model:.2f}, spacing pass {c_spacing:.2f}, union "
          f"{c_union:.2f}, context refinement {c_refine:.2f}, rule stage {c_rules:.2f}, merge {c_merge:.2f}",
          flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
