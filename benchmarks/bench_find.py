"""Find-bar search cost on a 1,000,000-character document (prints figures; asserts nothing).

    .venv/bin/python benchmarks/bench_find.py

The sample document repeated to 1M characters; for each query: the whole scan (median of 5), the longest
single 64k-character window (what one event-loop turn of the find bar can cost), and the match count.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from veil_desktop.review.find import FindOptions, MatchScanner, compile_query, fold_width  # noqa: E402

QUERIES = [
    ("literal, spacing-tolerant", "김민준", FindOptions()),
    ("literal, exact", "김민준", FindOptions(spacing_tolerant=False, width_insensitive=False, case_sensitive=True)),
    ("literal, Latin, ignore case", "minjun.kim", FindOptions()),
    ("regex: phone", r"01[016789]-?\d{3,4}-?\d{4}", FindOptions(regex=True)),
    ("regex: name + title", r"[가-힣]{2,4}\s*주무관", FindOptions(regex=True)),
]


def main() -> None:
    sample = (ROOT / "resources" / "samples" / "sample_ko.txt").read_text("utf-8")
    text = (sample * (1_000_000 // len(sample) + 1))[:1_000_000]
    t = time.perf_counter()
    folded = fold_width(text)
    print(f"text: {len(text):,} chars; fold_width: {1000 * (time.perf_counter() - t):.1f} ms")
    print(f"{'query':<30} {'matches':>8} {'whole scan ms (median/5)':>26} {'max window ms':>14}")
    for name, q, opts in QUERIES:
        pattern = compile_query(q, opts)
        src = folded if opts.width_insensitive else text
        totals, worst, n = [], 0.0, 0
        for _ in range(5):
            sc = MatchScanner(src, pattern)
            t0 = time.perf_counter()
            while not sc.done:
                t = time.perf_counter()
                sc.step()
                worst = max(worst, time.perf_counter() - t)
            totals.append(time.perf_counter() - t0)
            n = len(sc.matches)
        print(f"{name:<30} {n:>8,} {1000 * statistics.median(totals):>26.1f} {1000 * worst:>14.2f}")


if __name__ == "__main__":
    main()
