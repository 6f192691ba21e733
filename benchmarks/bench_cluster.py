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
import itertools
import json
import os
import random
import shutil
import statistics
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


def run_cli(src: Path, out: Path, workers: int, model: str | None, diagnostics: bool = False,
            threads: int | None = None, groups_per_worker: int | None = None) -> dict:
    """One CLI run; ``diagnostics``: with Dask's worker profiler / GIL monitor / 0.5 s system monitor on
    (Dask's defaults, i.e. without ``cluster.run.WORKER_QUIET``) for the comparison."""
    import resource

    from veil_desktop.cli import main
    from veil_desktop.cluster import run as cluster_run

    if out.exists():
        shutil.rmtree(out)
    saved = cluster_run.WORKER_QUIET
    saved_gpw = cluster_run.GROUPS_PER_WORKER
    if groups_per_worker:
        cluster_run.GROUPS_PER_WORKER = groups_per_worker
    if diagnostics:
        cluster_run.WORKER_QUIET = {}
    ru0c, ru0s = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)

    summary = out.parent / f"{out.name}.summary.json"
    args = ["redact", str(src), "--out", str(out), "--workers", str(workers), "--quiet",
            "--summary-json", str(summary)]
    if model:
        args += ["--model", model]
    if threads:
        args += ["--threads", str(threads)]
    before = load()
    t0 = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()):        # the per-file table: not needed here
            code = main(args)
    finally:
        cluster_run.WORKER_QUIET = saved
        cluster_run.GROUPS_PER_WORKER = saved_gpw
    wall = time.perf_counter() - t0
    ru1c, ru1s = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    data = json.loads(summary.read_text("utf-8"))
    data.pop("rows")
    # CPU seconds of the worker + nanny processes (reaped children) and of this client/scheduler process,
    # start-up and detector loading included: less sensitive to other jobs than wall-clock time
    data.update(code=code, wall=wall, load_before=before, load_after=load(),
                cpu_workers=(ru1c.ru_utime + ru1c.ru_stime) - (ru0c.ru_utime + ru0c.ru_stime),
                cpu_client=(ru1s.ru_utime + ru1s.ru_stime) - (ru0s.ru_utime + ru0s.ru_stime))
    return data


def _matmul_loop(reps: int = 1200) -> float:
    import numpy as np

    a = np.random.default_rng(0).random((256, 256), dtype=np.float32)
    t0 = time.perf_counter()
    for _ in range(reps):
        a @ a
    return time.perf_counter() - t0


def core_probe() -> dict:
    """How many cores two processes really get: a single-threaded float32 matrix-product loop alone, then two
    at once in separate processes; 2 x alone / at-once is the ceiling of any 2-process ratio on this machine."""
    import multiprocessing as mp

    os.environ.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    ctx = mp.get_context("spawn")
    with ctx.Pool(2) as pool:
        pool.map(_matmul_loop, [10, 10])                               # start-up out of the timing
        alone = min(pool.apply(_matmul_loop) for _ in range(2))
        both = max(pool.map(_matmul_loop, [1200, 1200]))
    return {"alone_s": alone, "two_at_once_s": both, "ceiling": 2 * alone / both}


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
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds; each round runs every worker count (and variant) once, interleaved; medians")
    ap.add_argument("--diagnostics", choices=["off", "on", "both"], default="off",
                    help="Dask's worker diagnostics (profiler, GIL monitor): off = the product's setting "
                         "(cluster.run.WORKER_QUIET), on = Dask's defaults, both = interleaved comparison")
    ap.add_argument("--threads", type=int,
                    help="ONNX Runtime threads per worker's detector in every run (default: the CLI's own "
                         "choice, cores // workers: 2 for one worker here, 1 each for two). --threads 1 "
                         "compares scale-out at equal threads per worker")
    ap.add_argument("--groups-per-worker", type=int, nargs="+",
                    help="tasks per worker's share (cluster.run.GROUPS_PER_WORKER, the product's is 16; 4 before "
                         "4 December); several values are run interleaved in every round")
    ap.add_argument("--no-core-probe", action="store_true", help="skip the two-process arithmetic ceiling probe")
    a = ap.parse_args()
    res: dict = {"machine": load(), "threads": a.threads or "cores // workers"}
    if not a.no_core_probe:
        cp = core_probe()
        res["core_probe"] = cp
        print(f"core probe: a 1-thread matrix-product loop {cp['alone_s']:.2f} s alone, {cp['two_at_once_s']:.2f} s "
              f"two at once -> 2-process ceiling {cp['ceiling']:.2f}x ({load()})", flush=True)
    variants = {"off": [False], "on": [True], "both": [True, False]}[a.diagnostics]
    gpws = a.groups_per_worker or [None]
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as d:
        root = Path(d)
        chars = build_corpus(root / "in", a.files)
        print(f"corpus: {a.files} files, {chars:,} characters ({load()}); ONNX threads per worker: "
              f"{a.threads or 'cores // workers'}", flush=True)
        runs: dict = {}
        for rnd in range(a.repeat):
            for diag, gpw in itertools.product(variants, gpws):
                for w in a.workers:
                    r = run_cli(root / "in", root / f"out{w}", w, a.model, diagnostics=diag, threads=a.threads,
                                groups_per_worker=gpw)
                    key = ("diag-on " if diag else "") + (f"gpw{gpw} " if gpw else "") + f"{w}"
                    runs.setdefault(key, []).append(r)
                    ps = r["processing_seconds"]
                    print(f"round {rnd + 1} {'diagnostics on ' if diag else ''}"
                          f"{f'{gpw} tasks per worker ' if gpw else ''}workers {w}: exit {r['code']}, "
                          f"{r['ok']}/{r['files']} ok, {r['tasks']} tasks; processing {ps:.1f} s = "
                          f"{r['processed'] / ps:.2f} files/s, {r['chars'] / ps:,.0f} chars/s; end to end "
                          f"{r['wall']:.1f} s (start + detector load {r['wall'] - ps:.1f} s); CPU s workers "
                          f"{r['cpu_workers']:.1f}, client {r['cpu_client']:.1f} [{r['load_before']} -> "
                          f"{r['load_after']}]", flush=True)
        res["runs"] = runs
        med = {k: statistics.median(x["processing_seconds"] for x in v) for k, v in runs.items()}
        prefixes = [d + (f"gpw{g} " if g else "") for d in ("diag-on ", "") for g in gpws]
        for prefix in prefixes:
            if prefix + "1" in med and prefix + "2" in med:
                # each round runs 1 then 2 workers back to back: the ratio of a round's pair sees the same
                # machine load on both sides; the median of those pairs is the figure (a ratio of medians
                # mixes rounds run under different loads)
                ratios = [x["processing_seconds"] / y["processing_seconds"]
                          for x, y in zip(runs[prefix + "1"], runs[prefix + "2"])]
                ratio = statistics.median(ratios)
                tag = prefix.strip().replace(" ", "_").replace("-", "_")
                res[(tag + "_" if tag else "") + "ratio_2_over_1"] = ratio
                res[(tag + "_" if tag else "") + "ratios_per_round"] = ratios
                print(f"{prefix.strip() + ': ' if prefix else ''}2 workers / 1 worker throughput: {ratio:.2f}x "
                      f"(median of {len(ratios)} interleaved rounds: {', '.join(f'{q:.2f}' for q in ratios)}; "
                      f"ratio of median times {med[prefix + '1'] / med[prefix + '2']:.2f})", flush=True)
        per_file = {k: statistics.median(x["processing_seconds"] * int(k.split()[-1]) / max(1, x["processed"])
                                         for x in v) for k, v in runs.items()}
        cpu_file = {k: statistics.median((x["cpu_workers"]) / max(1, x["processed"]) for x in v)
                    for k, v in runs.items()}
        res["worker_seconds_per_file"] = per_file
        res["worker_cpu_seconds_per_file"] = cpu_file
        print("worker-seconds per file: " + ", ".join(f"{k} worker(s) {v * 1000:.0f} ms" for k, v in per_file.items()))
        print("worker CPU seconds per file (start-up included): "
              + ", ".join(f"{k} worker(s) {v * 1000:.0f} ms" for k, v in cpu_file.items()))
    if a.ping > 0:
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
