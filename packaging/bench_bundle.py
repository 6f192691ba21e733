"""Detection throughput of a build with its numba Viterbi vs the same build decoding with numpy, in one run.

    python packaging/bench_bundle.py [EXE ...] [--chars 100000] [--repeat 3] [--rounds 3]

``EXE`` (default ``dist/veil-desktop/veil-desktop``) is launched ``--rounds`` x 2 times, alternating
``EXE --bench-detect`` (the build's own kernel: numba-aot in the default bundle) and the same command with
``VEIL_NO_NUMBA=1`` (the numpy kernel, i.e. what the numpy-only build decoded with), so both see the same
machine load; every launch detects the Korean sample repeated to ``--chars`` characters ``--repeat`` times
after one untimed warm-up, with the default detector (embedded model + rules), the number of threads
it picks by default. Printed: chars/s per kernel (wall and process CPU, summed over all timed runs), the
Viterbi's share of detection wall time, and the ratio numba / numpy (sums, and best single detection per
kernel, which is least disturbed by other load). No assertion on time (the two kernels must find the same
spans): a figure for docs/PACKAGING.md.

A checkout works as well: ``python packaging/bench_bundle.py --source`` runs ``packaging/entry.py`` with
the project venv (numba JIT vs numpy).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_LINE = re.compile(r"BENCH_DETECT kernel=(\S+) .*chars=(\d+) spans=(\d+) wall=([\d.,]+) cpu=([\d.,]+)"
                   r"(?: viterbi_s=([\d.]+))?")


def launch(cmd: list[str], numpy: bool, args, profile: Path) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", VEIL_DATA_DIR=str(profile / "data"),
               VEIL_CONFIG_DIR=str(profile / "config"))
    env.pop("VEIL_NO_NUMBA", None)
    if numpy:
        env["VEIL_NO_NUMBA"] = "1"
    proc = subprocess.run([*cmd, "--bench-detect", "--chars", str(args.chars), "--repeat", str(args.repeat)],
                          env=env, capture_output=True, text=True, timeout=1800)
    m = _LINE.search(proc.stdout)
    if proc.returncode != 0 or not m:
        raise SystemExit(f"{cmd} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr[-3000:]}")
    return {"kernel": m.group(1), "chars": int(m.group(2)), "spans": int(m.group(3)),
            "wall": [float(x) for x in m.group(4).split(",")], "cpu": [float(x) for x in m.group(5).split(",")],
            "viterbi": float(m.group(6) or "nan")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("exe", nargs="?", type=Path, default=ROOT / "dist" / "veil-desktop" / "veil-desktop")
    ap.add_argument("--source", action="store_true", help="run packaging/entry.py with this Python instead")
    ap.add_argument("--chars", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    cmd = [sys.executable, str(ROOT / "packaging" / "entry.py")] if args.source else [str(args.exe)]
    runs: dict[bool, list[dict]] = {False: [], True: []}
    with tempfile.TemporaryDirectory(prefix="veil-bench-") as tmp:
        for r in range(args.rounds):
            for numpy in ((False, True) if r % 2 == 0 else (True, False)):  # ABBA: no order advantage
                res = launch(cmd, numpy, args, Path(tmp))
                runs[numpy].append(res)
                print(f"round {r + 1}: {res['kernel']:9s} wall {' '.join(f'{x:.3f}' for x in res['wall'])} s  "
                      f"cpu {' '.join(f'{x:.3f}' for x in res['cpu'])} s", flush=True)
    out = {}
    for numpy, rs in runs.items():
        kernels = {r["kernel"] for r in rs}
        spans = {r["spans"] for r in rs}
        n = sum(r["chars"] * len(r["wall"]) for r in rs)
        out[numpy] = (n / sum(sum(r["wall"]) for r in rs), n / sum(sum(r["cpu"]) for r in rs), kernels, spans,
                      sum(r["viterbi"] for r in rs) / sum(sum(r["wall"]) for r in rs))
    (nw, nc, nk, ns, nv), (pw, pc, pk, ps, pv) = out[False], out[True]
    print(f"\n{' '.join(cmd)}: {args.rounds} launches per kernel x {args.repeat} timed detections of "
          f"{args.chars} chars (load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs)")
    for k, w, c, s, v in ((nk, nw, nc, ns, nv), (pk, pw, pc, ps, pv)):
        print(f"  {'/'.join(sorted(k)):12s} {w:9,.0f} chars/s wall  {c:9,.0f} chars/CPU-s  "
              f"Viterbi {100 * v:4.1f} % of detection wall time  spans {sorted(s)}")
    # best-of: the fastest single detection per kernel, the figure least disturbed by other load
    best = {numpy: min(min(r["wall"]) for r in rs) for numpy, rs in runs.items()}
    print(f"THROUGHPUT_RATIO numba/numpy: wall {nw / pw:.3f}, CPU {nc / pc:.3f}, "
          f"best-of-{args.rounds * args.repeat} wall {best[True] / best[False]:.3f}")
    if ns != ps:
        print("WARNING: the two kernels found different numbers of spans")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
