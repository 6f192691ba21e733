"""Peak RSS of ``veil-redact detect --json`` on one 1,000,000-character file (issue 15: target ≤ 450 MB).

Builds (once) the real-model-sized random-weight twin (``bench_detect.build_twin``: same architecture and
tokenizer as veil-pii-ko-small-3, so the same weight and activation memory), writes realistic Korean text
(the synthetic administrative corpus in ``../shared/data``, concatenated) to a temporary file, and runs the
CLI as users run it (default detector = twin + rule stage) under ``/usr/bin/time -v``; prints the peak
resident set size and the span count. Run with ``nice``:

    nice .venv/bin/python benchmarks/bench_cli_rss.py [--chars 1000000] [--threads 2] [--no-rules] [--dense]
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

TARGET_MB = 450


def main(argv=None) -> int:
    from bench_detect import build_twin, korean_text

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chars", type=int, default=1_000_000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--no-rules", action="store_true")
    ap.add_argument("--dense", action="store_true", help="twin without the raised O bias: a random classifier "
                    "tags most tokens, the worst case for the number of spans written")
    ap.add_argument("--default", action="store_true", help="no --model: the embedded compact model as shipped "
                    "(the twin has the real model's weight and activation memory; the compact model has 2x the "
                    "tokens per character)")
    a = ap.parse_args(argv)
    if a.default:
        twin = None
    elif a.dense:
        import bench_detect

        bench_detect.O_BIAS = 0.0
        twin = build_twin(bench_detect.CACHE / "veil-twin-dense")
    else:
        twin = build_twin()
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "doc.txt"
        f.write_text(korean_text(a.chars), encoding="utf-8")
        out = Path(tmp) / "out.jsonl"
        cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "veil_desktop.cli", "detect", "--json", "-q",
               "--threads", str(a.threads), *(["--model", str(twin)] if twin else []), str(f)] + (["--no-rules"] if a.no_rules else [])
        with out.open("w") as fh:
            r = subprocess.run(cmd, stdout=fh, stderr=subprocess.PIPE, text=True, cwd=HERE.parent)
        if r.returncode != 0:
            print(r.stderr[-3000:])
            return 1
        kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1))
        wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", r.stderr).group(1)
        line = json.loads(out.read_text(encoding="utf-8"))
    mb = kb / 1024
    print(f"veil-redact detect --json{' --no-rules' if a.no_rules else ''} on {a.chars:,} characters "
          f"({('twin ' + twin.name) if twin else 'embedded compact model'}, {a.threads} threads, "
          f"load average {__import__('os').getloadavg()[0]:.2f}): peak RSS {mb:.0f} MB "
          f"(target <= {TARGET_MB} MB: {'met' if mb <= TARGET_MB else 'NOT met'}), "
          f"{len(line['spans'])} spans, wall {wall}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
