"""``veil-redact redact --workers N`` throughput: the same 200-file corpus with 1 and 2 local workers, and
the per-task overhead of the Dask scheduler on this machine.

    nice .venv/bin/python benchmarks/bench_cluster.py [--files 200] [--workers 1 2] [--model DIR] [--json F]

The corpus is generated (no ../shared needed): dense administrative Korean text with names, RRNs, phones,
addresses and e-mails, as TXT and CSV, ~1,000 characters a file. Each run goes through the real CLI
(``veil_desktop.cli.main``, default detector unless ``--model``) into a fresh ``--out`` and reads its
``--summary-json``: ``processing_seconds`` runs from the first task submitted to the last result (cluster
start and detector loading excluded, reported apart). The overhead probe submits ``--ping`` no-op tasks to a
2-worker LocalCluster and divides the wall time by their number; the manifest probe times one SQLite commit
per result. The load average (``os.getloadavg``) is printed beside every figure: on a shared machine the
1→2 worker ratio says little unless the load is below the core count.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SURNAMES = "김이박최정강조윤장임한오서신권황안송류홍"
GIVEN = ["민준", "서연", "도윤", "지우", "하준", "서윤", "예준", "하은", "시우", "지민", "주원", "수아"]
ROADS = ["세종대로 110", "월드컵북로 396", "테헤란로 152", "중앙대로 1001", "한누리대로 2130"]
CITIES = ["서울특별시 중구", "서울특별시 마포구", "서울특별시 강남구", "부산광역시 연제구", "세종특별자치시"]


def load() -> str:
    a, b, c = os.getloadavg()
    return f"load {a:.2f}/{b:.2f}/{c:.2f} on {os.cpu_count()} cores"


def person(rng) -> str:
    return rng.choice(SURNAMES) + rng.choice(GIVEN)


def line(rng, i: int) -> str:
    rrn = f"{rng.randint(60, 99):02d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}-{rng.choice('12')}{rng.randint(0, 999999):06d}"
    return (f"{i}. 민원인 {person(rng)}(주민등록번호 {rrn})은 {rng.choice(CITIES)} {rng.choice(ROADS)}에 거주하며 "
            f"연락처 010-{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)}, 이메일 user{rng.randint(1, 9999)}"
            f"@example.com 으로 회신을 요청하였다. 담당 주무관 {person(rng)}이 처리 결과를 통보함.\n")


def build_corpus(folder: Path, n: int, seed: int = 23) -> int:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    chars = 0
    for k in range(n):
        if k % 4 == 3:
            rows = "".join(f"{j},{person(rng)},010-{rng.randint(1000, 9999)}-{rng.randint(1000, 9999)},"
                           f"{rng.choice(CITIES)} {rng.choice(ROADS)}\n" for j in range(18))
            text = "번호,성명,연락처,주소\n" + rows
            (folder / f"list{k:03d}.csv").write_text(text, encoding="utf-8")
        else:
            text = "".join(line(rng, i) for i in range(6))
            (folder / f"memo{k:03d}.txt").write_text(text, encoding="utf-8")
        chars += len(text)
    return chars


def run_cli(src: Path, out: Path, workers: int, model: str | None) -> dict:
    from veil_desktop.cli import main

    summary = out.parent / f"{out.name}.summary.json"
    args = ["redact", str(src), "--out", str(out), "--workers", str(workers), "--quiet",
            "--summary-json", str(summary)]
    if model:
        args += ["--model", model]
    before = load()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):        # the per-file table: not needed here
        code = main(args)
    wall = time.perf_counter() - t0
    data = json.loads(summary.read_text("utf-8"))
    data.pop("rows")
    data.update(code=code, wall=wall, load_before=before, load_after=load())
    return data


def ping_overhead(n: int) -> dict:
    from distributed import Client

    from veil_desktop.cluster.plugin import ping
    from veil_desktop.cluster.run import local_cluster

    before = load()
    with local_cluster(2, 1) as cluster, Client(cluster) as client:
        client.gather(client.map(ping, range(50), pure=False))           # warm the connections
        t0 = time.perf_counter()
        futs = [client.submit(ping, i, pure=False) for i in range(n)]
        client.gather(futs)
        dt = time.perf_counter() - t0
    return {"tasks": n, "seconds": dt, "ms_per_task": 1000 * dt / n, "load_before": before, "load_after": load()}


def manifest_overhead(n: int) -> dict:
    from veil_desktop.cluster.manifest import Manifest

    with tempfile.TemporaryDirectory() as d:
        m = Manifest(Path(d))
        t0 = time.perf_counter()
        for i in range(n):
            m.record([{"source": f"{d}/f{i}", "job_output": f"{d}/o{i}", "status": "ok", "counts": {"PERSON": 1}}],
                     "bench")
        dt = time.perf_counter() - t0
        m.close()
    return {"commits": n, "ms_per_commit": 1000 * dt / n}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--model", help="model folder (default: the embedded default detector)")
    ap.add_argument("--ping", type=int, default=2000, help="no-op tasks for the overhead probe")
    ap.add_argument("--json", help="write the figures to this file")
    a = ap.parse_args()
    res: dict = {"machine": load()}
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as d:
        root = Path(d)
        chars = build_corpus(root / "in", a.files)
        print(f"corpus: {a.files} files, {chars:,} characters ({load()})", flush=True)
        runs = {}
        for w in a.workers:
            r = run_cli(root / "in", root / f"out{w}", w, a.model)
            runs[w] = r
            ps = r["processing_seconds"]
            print(f"workers {w}: exit {r['code']}, {r['ok']}/{r['files']} ok, {r['tasks']} tasks; processing "
                  f"{ps:.1f} s = {r['processed'] / ps:.2f} files/s, {r['chars'] / ps:,.0f} chars/s; end to end "
                  f"{r['wall']:.1f} s (start + detector load {r['wall'] - ps:.1f} s) [{r['load_before']} -> "
                  f"{r['load_after']}]", flush=True)
        res["runs"] = runs
        if 1 in runs and 2 in runs:
            ratio = runs[1]["processing_seconds"] / runs[2]["processing_seconds"]
            res["ratio_2_over_1"] = ratio
            print(f"2 workers / 1 worker throughput: {ratio:.2f}x (processing time)", flush=True)
        per_file = {w: r["processing_seconds"] * w / max(1, r["processed"]) for w, r in runs.items()}
        res["worker_seconds_per_file"] = per_file
        print("worker-seconds per file: " + ", ".join(f"{w} worker(s) {v * 1000:.0f} ms" for w, v in per_file.items()))
    ov = ping_overhead(a.ping)
    res["task_overhead"] = ov
    print(f"per-task overhead: {ov['tasks']} no-op tasks on 2 workers in {ov['seconds']:.2f} s = "
          f"{ov['ms_per_task']:.2f} ms/task [{ov['load_before']} -> {ov['load_after']}]", flush=True)
    mo = manifest_overhead(500)
    res["manifest"] = mo
    print(f"manifest: {mo['ms_per_commit']:.2f} ms per result commit ({load()})")
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1, ensure_ascii=False), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
