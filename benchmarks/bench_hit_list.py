"""How long the bulk-action hit list takes to build and refilter on the GUI thread (prints; asserts nothing).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_hit_list.py [--hits 15000]

A synthetic state with N pending PERSON suggestions (one per sentence); times ``accept_above_hits`` (the
Qt-free list with contexts), opening ``HitListDialog`` over it, and one refilter by score.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hits", type=int, default=15000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from veil_desktop.detect.span import Span
    from veil_desktop.review.hits import accept_above_hits
    from veil_desktop.review.state import ReviewState
    from veil_desktop.ui.hit_list import HitListDialog

    app = QApplication.instance() or QApplication([])
    unit = "담당 김민준 주무관이 강남구청에서 처리. "
    st = ReviewState(unit * args.hits)
    st.add_detected([Span(i * len(unit) + 3, i * len(unit) + 6, "PERSON", 0.9) for i in range(args.hits)])
    rows = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        hits = accept_above_hits(st, 0.0)
        t1 = time.perf_counter()
        dlg = HitListDialog(None, "t", hits, "accept", "ko", min_score=0.5)
        t2 = time.perf_counter()
        dlg.set_min_score(0.95)
        t3 = time.perf_counter()
        dlg.deleteLater()
        app.processEvents()
        rows.append((t1 - t0, t2 - t1, t3 - t2))
    for name, k in (("build hits (Qt-free)", 0), ("open dialog", 1), ("refilter by score", 2)):
        vals = sorted(r[k] for r in rows)
        print(f"{name:22s} {args.hits} hits: median {vals[len(vals) // 2] * 1000:7.1f} ms "
              f"(min {vals[0] * 1000:.1f}, max {vals[-1] * 1000:.1f}, {args.repeats} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
