"""Client side of ``veil-redact redact --workers N | --scheduler ADDR | --scheduler-file F``.

1. the scheduler target is checked (``security``) before anything connects; 2. the manifest in ``--out``
says which files are finished (skipped) and the rest are marked ``pending``; 3. a ``LocalCluster`` on
127.0.0.1 (processes, one task thread each, native thread caps, a memory limit per worker, no dashboard)
is started, or the named scheduler is reached; 4. the detector plugin is registered (one detector per
worker process); 5. files are grouped into tasks by size (big files alone) and submitted; 6. results (rows
only) are written to the manifest as they arrive, with a progress line; 7. the summary table (the
single-process one), ``--summary-json`` and the exit code (0, 1, 2, 130/143).

Isolation: a task whose worker died (crash, memory limit, ``--file-timeout``) comes back as ``KilledWorker``;
a group is split into one task per file, a single file is retried (up to ``MAX_ATTEMPTS``) unless its worker
logged that this file ran past the time limit; then it becomes that file's ``FAILED`` row. The nanny restarts
the worker; the run goes on.
"""
from __future__ import annotations

import json
import logging
import os
import signal
import sys
import time
from collections import Counter
from pathlib import Path

from .security import SchedulerRefused, check_scheduler, read_scheduler_file

MAX_ATTEMPTS = 3               # a file alone in its task, killed by something else than its time limit
GROUP_MAX_FILES = 32
GROUP_MAX_BYTES = 1 << 20      # files at least this big go alone
GROUP_MIN_BYTES = 8 << 10      # a task smaller than this is not worth its ~3 ms of scheduling and manifest
GROUPS_PER_WORKER = 16         # tasks per worker's share (balance at the end of a run)
DEFAULT_FILE_TIMEOUT = 600.0
WORKERLESS_S = 120.0          # no worker at all for this long: the files left become FAILED


def wanted(args) -> bool:
    return bool(getattr(args, "workers", None) is not None or getattr(args, "scheduler", None)
                or getattr(args, "scheduler_file", None))


def cluster_only(args) -> str:
    """A usage message when a cluster-only flag is given without --workers/--scheduler, else ''."""
    flags = [f for f, v in (("--file-timeout", args.file_timeout),
                            ("--tls-ca", args.tls_ca), ("--tls-cert", args.tls_cert), ("--tls-key", args.tls_key),
                            ("--insecure", args.insecure)) if v]
    return f"{', '.join(flags)}: only with --workers, --scheduler or --scheduler-file" if flags else ""


def _err(msg: str) -> int:
    print(f"veil-redact redact: {msg}", file=sys.stderr)
    return 2


def resolve_target(args):
    """``None`` for a local cluster, else the checked :class:`SchedulerTarget` (raises SchedulerRefused)."""
    given = [f for f, v in (("--workers", args.workers), ("--scheduler", args.scheduler),
                            ("--scheduler-file", args.scheduler_file)) if v]
    if len(given) > 1:
        raise SchedulerRefused(f"give only one of {', '.join(given)}")
    if args.workers is not None:
        if args.workers < 1:
            raise SchedulerRefused("--workers must be at least 1")
        if any((args.tls_ca, args.tls_cert, args.tls_key)):
            raise SchedulerRefused("--tls-* flags are for --scheduler/--scheduler-file")
        return None
    addr = args.scheduler or read_scheduler_file(args.scheduler_file)
    return check_scheduler(addr, tls_ca=args.tls_ca, tls_cert=args.tls_cert, tls_key=args.tls_key,
                           insecure=args.insecure)


def make_groups(jobs: list, sizes: list[int], n_workers: int) -> list[list[int]]:
    """Indexes of ``jobs`` per task, largest task first: small files together up to a byte target of
    1/``GROUPS_PER_WORKER`` of each worker's share (many tasks per worker, so that the last ones are small and
    the workers finish together: with four a worker, two workers on 200 files waited up to a quarter of a
    share on the slower one), at least ``GROUP_MIN_BYTES`` (a task costs the scheduler and the manifest
    ~3 ms), at most ``GROUP_MAX_FILES``; files of ``GROUP_MAX_BYTES`` or more alone. Tasks are returned
    biggest first (longest-processing-time order: the big files start first, the small groups fill the
    tail); files keep their name order inside a task."""
    total = sum(s for s in sizes if s < GROUP_MAX_BYTES)      # the big files go alone anyway
    target = max(GROUP_MIN_BYTES, min(GROUP_MAX_BYTES, total // max(1, GROUPS_PER_WORKER * n_workers)))
    groups: list[list[int]] = []
    cur: list[int] = []
    cur_bytes = 0
    for i in sorted(range(len(jobs)), key=lambda i: str(jobs[i].source)):
        if sizes[i] >= GROUP_MAX_BYTES:
            groups.append([i])
            continue
        cur.append(i)
        cur_bytes += sizes[i]
        if cur_bytes >= target or len(cur) >= GROUP_MAX_FILES:
            groups.append(cur)
            cur, cur_bytes = [], 0
    if cur:
        groups.append(cur)
    weight = {id(g): sum(sizes[i] for i in g) for g in groups}
    groups.sort(key=lambda g: -weight[id(g)])        # stable: equal weights keep name order
    return groups


#: what a local worker does besides our tasks, turned down: Dask's statistical profiler samples every
#: thread's stack every 10 ms and the GIL monitor every 1 ms (diagnostics for a dashboard we do not run);
#: the system monitor (CPU/memory history) every 2 s instead of 0.5 s. The memory limit is enforced by the
#: nanny's own monitor, which stays as it is. (``benchmarks/bench_cluster.py --probe-quiet`` measures it.)
WORKER_QUIET = {"distributed.worker.profile.enabled": False,
                "distributed.admin.system-monitor.gil.enabled": False,
                "distributed.admin.system-monitor.interval": "2s"}


def local_cluster(n_workers: int, threads: int):
    import dask
    from distributed import LocalCluster

    dask.config.set({"distributed.scheduler.allowed-failures": 0,        # the client decides retries
                     **WORKER_QUIET,
                     "distributed.nanny.pre-spawn-environ": dict(
                         dask.config.get("distributed.nanny.pre-spawn-environ", {}) or {}, **_thread_env())})
    return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, memory_limit="auto", silence_logs=logging.CRITICAL,
                        env=_thread_env())


def _thread_env() -> dict:
    from .plugin import THREAD_ENV

    return dict(THREAD_ENV)


class _Progress:
    def __init__(self, total: int, quiet: bool):
        self.total, self.quiet = total, quiet
        self.t0 = time.monotonic()
        self.done = 0
        self.chars = 0
        self.status = Counter()
        self.bar = None
        if not quiet:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, unit="file", file=sys.stderr, dynamic_ncols=True, smoothing=0.1)
            except ImportError:
                pass

    def add(self, res: dict) -> None:
        self.done += 1
        self.chars += int(res.get("chars", 0))
        self.status[res["status"]] += 1
        if self.quiet:
            return
        el = max(1e-6, time.monotonic() - self.t0)
        post = (f"{self.chars / el:,.0f} chars/s ok {self.status['ok']} REVIEW {self.status['REVIEW']} "
                f"FAILED {self.status['FAILED']}")
        if self.bar is not None:
            self.bar.set_postfix_str(post, refresh=False)
            self.bar.update(1)
        else:
            eta = (self.total - self.done) * el / self.done
            sys.stderr.write(f"\r{self.done}/{self.total} files, {post}, ETA {eta:,.0f} s ")
            sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif not self.quiet:
            sys.stderr.write("\n")


def run_cluster(args, jobs: list, rows: list, out_dir: Path) -> int:
    """Hand-over from ``redact_cli.run`` (usage already checked there, ``jobs`` collected)."""
    from .. import batch as rc

    try:
        target = resolve_target(args)
    except SchedulerRefused as e:
        return _err(str(e))
    timeout = args.file_timeout if args.file_timeout is not None else DEFAULT_FILE_TIMEOUT
    if timeout <= 0:
        return _err("--file-timeout must be positive")
    try:
        import distributed  # noqa: F401
    except ImportError:
        return _err("--workers/--scheduler need Dask distributed: pip install 'veil-desktop[cluster]'")
    if args.model and not Path(args.model).is_dir() and target is None:
        return _err(f"no model folder at {args.model}")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return _err(f"cannot create {out_dir}: {e.strerror or e}")

    from .manifest import Manifest, settings_fingerprint

    t_start = time.monotonic()
    settings = settings_fingerprint(args)
    manifest = Manifest(out_dir)
    skipped: dict[str, object] = {}
    todo: list = []
    for j in jobs:
        done = manifest.is_done(j.source, j.output, settings)
        if done is not None:
            skipped[str(j.source)] = (rc.Row(j.source, j.output if done["status"] == "ok" else None, done["status"],
                                  (done["message"] + "; " if done["message"] else "") + "unchanged, done earlier",
                                  Counter(json.loads(done["counts"])), 0.0))
        else:
            todo.append(j)
    manifest.mark_pending(todo, settings)
    rc._sweep_out_tree(out_dir)

    results: dict[str, dict] = {}
    info = {"scheduler": None, "workers": 0}
    code = 0
    # Ctrl+C / SIGTERM set a flag that the wait loop checks (Dask's client may swallow a KeyboardInterrupt
    # raised inside its calls)
    old_handlers = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            old_handlers[sig] = signal.signal(sig, _on_signal)
    except ValueError:          # not the main thread (embedded use): no handlers
        pass
    _STOP.clear()
    cluster = client = None
    progress = _Progress(len(todo), args.quiet)
    try:
        if todo:
            cluster, client, info = _connect(args, target)
            _check_stop()
            progress.t0 = info["t_submit"] = time.monotonic()
            _run_tasks(client, todo, args, timeout, manifest, settings, results, progress, info)
            info["t_end"] = time.monotonic()
    except (KeyboardInterrupt, rc.Terminated) as e:
        code = 143 if isinstance(e, rc.Terminated) else 130
    except _Fatal as e:
        progress.close()
        manifest.close()
        _shutdown(client, cluster)
        return _err(str(e))
    finally:
        for sig, h in old_handlers.items():
            signal.signal(sig, h)
        progress.close()
    _shutdown(client, cluster)
    rc._sweep_out_tree(out_dir)            # temp folders of killed workers (their pids are gone)
    manifest.close()

    for j in jobs:                          # the single-process order: collect failures, then jobs
        if str(j.source) in skipped:
            rows.append(skipped[str(j.source)])
            continue
        r = results.get(str(j.source))
        if r is None:
            rows.append(rc.Row(j.source, None, "FAILED", "not processed: the run was interrupted"))
        else:
            rows.append(rc.Row(j.source, Path(r["output"]) if r.get("output") else None, r["status"],
                               r.get("message", ""), Counter(r.get("counts", {})), float(r.get("seconds", 0))))
    if code:
        sys.stderr.write("\nveil-redact: interrupted; no partial output was left behind; rerun the same "
                         "command to finish (finished files are skipped)\n")
    rc.print_summary(rows)
    wall = time.monotonic() - t_start
    if args.summary_json:
        _write_summary(Path(args.summary_json), rows, results, len(skipped), wall, info, code)
    if code:
        return code
    return 0 if all(r.status == "ok" for r in rows) else 1


class _Fatal(Exception):
    pass


_STOP: list[int] = []


def _on_signal(signum, frame):
    _STOP.append(signum)


def _check_stop() -> None:
    from .. import batch as rc

    if _STOP:
        raise rc.Terminated() if _STOP[0] == signal.SIGTERM else KeyboardInterrupt()


def _connect(args, target):
    from distributed import Client

    from .plugin import DetectorPlugin

    cluster = None
    if target is None:
        n = args.workers
        cores = os.cpu_count() or 1
        threads = args.threads or max(1, cores // n)
        cluster = local_cluster(n, threads)
        client = Client(cluster)
    else:
        threads = args.threads or 1
        try:
            client = Client(target.address, security=target.security(), timeout="30s")
        except (OSError, TimeoutError) as e:
            raise _Fatal(f"cannot reach the scheduler at {target.address}: {e}") from None
    try:
        client.register_plugin(DetectorPlugin(args.model, threads, args.terms), name="veil-detector")
    except Exception as e:  # noqa: BLE001 - a model/terms problem on the workers
        _shutdown(client, cluster)
        raise _Fatal(f"the workers could not load the detector: {e}") from None
    workers = client.scheduler_info().get("workers", {})
    return cluster, client, {"scheduler": client.scheduler.address, "workers": len(workers),
                             "worker_addresses": sorted(workers), "threads_per_detector": threads}


def _shutdown(client, cluster) -> None:
    for x in (client, cluster):
        if x is not None:
            try:
                x.close()
            except Exception:  # noqa: BLE001
                pass


def _run_tasks(client, todo, args, timeout, manifest, settings, results, progress, info) -> None:
    from distributed import wait
    from distributed.scheduler import KilledWorker

    from .plugin import TIMEOUT_TOPIC, redact_group

    opts = {"style": list(args.style), "min_score": args.min_score, "overwrite": bool(args.overwrite),
            "allow_unreadable": bool(args.allow_unreadable), "tag_lang": args.tag_lang, "file_timeout": timeout,
            "pictures": getattr(args, "pictures", "review") or "review",
            "reason": list(getattr(args, "reason", []) or []),
            "reason_in_output": getattr(args, "reason_in_output", None) or "",
            "redaction_log": bool(getattr(args, "reason", None)) or bool(getattr(args, "redaction_log", False))}
    sizes = []
    for j in todo:
        try:
            sizes.append(j.source.stat().st_size)
        except OSError:
            sizes.append(0)
    groups = make_groups(todo, sizes, max(1, info["workers"]))
    info["tasks"] = len(groups)
    meta = {}
    seq = [0]

    def submit(files: list, attempt: int):
        seq[0] += 1
        spec = [(str(j.source), str(j.output)) for j in files]
        fut = client.submit(redact_group, spec, opts, key=f"veil-redact-{seq[0]}", pure=False, retries=0)
        meta[fut.key] = (files, attempt)
        return fut

    def finish(res_list: list[dict]) -> None:
        manifest.record(res_list, settings)
        for r in res_list:
            results[r["source"]] = r
            progress.add(r)

    def failed(j, msg: str) -> dict:
        return {"source": str(j.source), "job_output": str(j.output), "output": None, "status": "FAILED",
                "message": msg, "counts": {}, "seconds": 0.0, "chars": 0}

    def timed_out() -> set[str]:
        return {m["source"] for _, m in client.get_events(TIMEOUT_TOPIC) if isinstance(m, dict) and "source" in m}

    def over_limit(j) -> dict:
        return failed(j, f"took longer than the per-file time limit ({timeout:g} s, --file-timeout); its "
                         "worker was restarted")

    pending = {submit([todo[i] for i in g], 1) for g in groups}
    workerless_since = None
    while pending:
        _check_stop()
        try:
            done, pending = wait(pending, timeout=0.5, return_when="FIRST_COMPLETED")
        except TimeoutError:
            done = set()
        if not done:
            # no worker at all for a while (every one died and none came back): fail what is left
            if not client.scheduler_info().get("workers"):
                workerless_since = workerless_since or time.monotonic()
                if time.monotonic() - workerless_since > WORKERLESS_S:
                    for fut in pending:
                        finish([failed(j, "not processed: no worker left in the cluster") for j in meta.pop(fut.key)[0]])
                        fut.release()
                    return
            else:
                workerless_since = None
            continue
        pending = set(pending)
        for fut in done:
            files, attempt = meta.pop(fut.key)
            try:
                finish(fut.result())
            except KilledWorker:
                late = timed_out()
                if len(files) > 1:
                    for j in files:
                        if str(j.source) in late:
                            finish([over_limit(j)])
                        else:
                            pending.add(submit([j], 1))
                    continue
                j = files[0]
                if str(j.source) in late:
                    finish([over_limit(j)])
                elif attempt < MAX_ATTEMPTS:
                    pending.add(submit([j], attempt + 1))
                else:
                    finish([failed(j, "the worker processing this file died (crash or the worker memory limit, "
                                      f"{attempt} attempts); the worker was restarted")])
            except Exception as e:  # noqa: BLE001 - a task error (should not happen: redact_one catches)
                msg = " ".join(f"worker error ({type(e).__name__}): {e}".split())[:300]
                finish([failed(j, msg) for j in files])
            finally:
                fut.release()


def _write_summary(path: Path, rows, results, n_skipped: int, wall: float, info: dict, code: int) -> None:
    from ..batch import write_summary_json

    chars = sum(int(r.get("chars", 0)) for r in results.values())
    write_summary_json(
        path, rows, code, wall, chars,
        skipped_done_earlier=n_skipped, processed=len(results),
        # from the first task submitted to the last result (cluster start and detector load excluded)
        processing_seconds=round(info["t_end"] - info["t_submit"], 3) if "t_end" in info else None,
        files_per_s=round(len(results) / wall, 3) if wall else None,
        scheduler=info.get("scheduler"), workers=info.get("workers"),
        worker_addresses=info.get("worker_addresses", []), tasks=info.get("tasks", 0))
