"""Worker side: the detector is built once per worker process by :class:`DetectorPlugin` (never pickled:
the plugin travels as its few settings and builds the detector in ``setup``), and :func:`redact_group`
redacts a group of files with it. A task returns only rows and counts (no document text).

Per-file time limit: a watchdog thread per worker process ends the process (``os._exit``) when one file runs
past ``file_timeout`` seconds, after logging a ``veil-file-timeout`` event naming the file; the nanny starts a
fresh worker and the client turns that file into a ``FAILED`` row. (A C call that holds the GIL for the whole
time stops the watchdog too; the worker memory limit and the scheduler's worker TTL are the backstop.)
"""
from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

PLUGIN_NAME = "veil-detector"
TIMEOUT_TOPIC = "veil-file-timeout"

# thread caps for native libraries: set in the worker's environment before they load (also by the nanny)
THREAD_ENV = {"OMP_NUM_THREADS": "1", "OMP_THREAD_LIMIT": "1", "MKL_NUM_THREADS": "1",
              "OPENBLAS_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}

try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # pragma: no cover - the cluster extra is not installed
    WorkerPlugin = object


class DetectorPlugin(WorkerPlugin):
    """Builds the default detector (``--model``, ``threads`` ONNX Runtime threads) and the term list once
    per worker process, and warms it up (JIT) before the first file so its time limit starts fair."""

    name = PLUGIN_NAME
    idempotent = True

    def __init__(self, model: str | None, threads: int, terms: str | None):
        self.model, self.threads, self.terms = model, int(threads), terms
        self.detector = None
        self.term_list = None

    def __getstate__(self):            # never ship a built detector, only the settings
        return {"model": self.model, "threads": self.threads, "terms": self.terms}

    def __setstate__(self, state):
        self.__init__(state["model"], state["threads"], state["terms"])

    def setup(self, worker):
        for k, v in THREAD_ENV.items():
            os.environ.setdefault(k, v)
        from ..detect.default import build_default_detector

        self.detector = build_default_detector(model_dir=self.model, threads=self.threads)
        if self.terms:
            from ..review.terms import TermList

            self.term_list = TermList.load(self.terms)
        self._warm_up()
        self.worker = worker
        _Watchdog.get(worker)


    def _warm_up(self) -> None:
        """One real redaction of a short text file in a private temp folder: imports, JIT and the export
        path are paid here, not by the first file's time limit."""
        import shutil
        import tempfile

        d = Path(tempfile.mkdtemp(prefix="veil-warmup-"))
        try:
            src = d / "warm.txt"
            src.write_text("담당자 홍길동 010-1234-5678 hong@example.com\n", encoding="utf-8")
            _redact_file(self, src, d / "out" / "warm.txt", {"style": [], "min_score": 0.5, "overwrite": False,
                                                            "allow_unreadable": False, "tag_lang": "auto"})
        finally:
            shutil.rmtree(d, ignore_errors=True)


class _Watchdog:
    """One per worker process: ends the process when the file in progress passes its deadline."""

    _instance = None
    _lock = threading.Lock()

    def __init__(self, worker):
        self.worker = worker
        self.current: tuple[str, float, float] | None = None     # (source, deadline, limit)
        threading.Thread(target=self._loop, name="veil-watchdog", daemon=True).start()

    @classmethod
    def get(cls, worker):
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls(worker)
            return cls._instance

    def _loop(self):
        while True:
            time.sleep(0.1)
            cur = self.current
            if cur is not None and time.monotonic() > cur[1]:
                try:
                    self.worker.log_event(TIMEOUT_TOPIC, {"source": cur[0], "limit": cur[2]})
                except Exception:   # noqa: BLE001 - the process ends anyway
                    pass
                time.sleep(1.0)    # let the event reach the scheduler
                os._exit(75)


def redact_group(files: list[tuple[str, str]], opts: dict) -> list[dict]:
    """Redact ``files`` (``(source, output)`` paths on storage the worker shares) with this worker's
    detector; one plain dict per file: status, message, counts, seconds, sizes and hashes (no text)."""
    from distributed import get_worker

    worker = get_worker()
    plugin = worker.plugins[PLUGIN_NAME]
    dog = _Watchdog.get(worker)
    limit = opts.get("file_timeout")
    out = []
    for source, output in files:
        if limit:
            dog.current = (source, time.monotonic() + limit, limit)
        try:
            out.append(_redact_file(plugin, Path(source), Path(output), opts))
        finally:
            dog.current = None
    return out


def _redact_file(plugin, source: Path, output: Path, opts: dict) -> dict:
    """The one place the cluster calls ``batch.redact_one``."""
    from ..documents.export import report_path_for
    from ..batch import Job, parse_styles, redact_one
    from .manifest import file_sha256

    from ..review.reasons import parse_reason_args

    styles = parse_styles(opts["style"])
    row = redact_one(Job(source, output), plugin.detector, styles, opts["min_score"], source.name, False,
                     plugin.term_list, overwrite=opts["overwrite"], allow_unreadable=opts["allow_unreadable"],
                     tag_lang=opts["tag_lang"], pictures=opts.get("pictures", "review"),
                     reasons=parse_reason_args(opts.get("reason", [])),
                     reason_in_output=opts.get("reason_in_output", ""),
                     redaction_log=bool(opts.get("redaction_log", False)))
    res = {"source": str(source), "job_output": str(output), "output": str(row.output) if row.output else None,
           "status": row.status, "message": row.message, "counts": dict(row.counts), "seconds": row.seconds,
           "chars": 0, "size": None, "sha256": None, "output_sha256": None, "report": None}
    if row.status == "ok":
        report = report_path_for(output)
        try:
            data = json.loads(report.read_text("utf-8"))
            res.update(chars=int(data["input"].get("text_length", 0)), size=data["input"].get("size"),
                       sha256=data["input"].get("sha256"), output_sha256=data["output"].get("sha256"),
                       report=str(report))
        except (OSError, ValueError, KeyError, TypeError):
            pass
    if res["sha256"] is None:
        try:
            res.update(size=source.stat().st_size, sha256=file_sha256(source))
        except OSError:
            pass
    return res


def ping(n: int) -> int:
    """A no-op task (the benchmark's per-task overhead)."""
    return n
