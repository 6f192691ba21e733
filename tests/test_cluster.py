"""``veil-redact redact --workers N``: the batch on a real Dask ``LocalCluster`` (2 worker processes on
127.0.0.1, the tiny real ONNX model + the rule stage in each), compared with the single-process run; a
worker killed mid-run, an interrupted run resumed, a file over its time limit, and scheduler addresses
that must be refused before anything connects (no test ever connects to a non-loopback address)."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is part of the dev extra")
psutil = pytest.importorskip("psutil")

from tests.fixtures.tiny_model import build_tiny_model  # noqa: E402
from tests.test_documents_docx import build_docx  # noqa: E402
from veil_desktop.cli import main  # noqa: E402
from veil_desktop.cluster.manifest import MANIFEST_NAME  # noqa: E402
from veil_desktop.cluster.run import make_groups  # noqa: E402
from veil_desktop.cluster.security import SchedulerRefused, check_scheduler  # noqa: E402

NAMES = ["홍길동", "김민수", "이영희", "장보고", "안중근"]
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    folder = tmp_path_factory.mktemp("model") / "tiny"
    return build_tiny_model(folder, entities={n: "PERSON" for n in NAMES}, score=0.9)


def build_corpus(src: Path, n: int = 30, docx: bool = True) -> Path:
    """``n`` small files: TXT (UTF-8 and CP949), CSV and DOCX, in two folders, plus nothing else."""
    (src / "sub").mkdir(parents=True, exist_ok=True)
    for i in range(n):
        name = NAMES[i % len(NAMES)]
        kind = 3 if docx and i % 10 == 3 else i % 3  # 3 DOCX (the slowest kind), the rest TXT and CSV
        folder = src / "sub" if i % 3 == 0 else src
        if kind == 0:
            (folder / f"memo{i:02d}.txt").write_text(
                f"담당자 {name} 연락처 010-1234-{5600 + i}\n메일 user{i}@example.com\n민원 {i}호 처리\n" * (1 + i % 5),
                encoding="utf-8")
        elif kind == 1:
            (folder / f"old{i:02d}.txt").write_bytes(f"신청인 {name} (010-2345-{6700 + i})\r\n".encode("cp949"))
        elif kind == 2:
            rows = "".join(f"{j},{NAMES[(i + j) % 5]},010-3456-{7000 + j},서울\n" for j in range(3 + i % 7))
            (folder / f"list{i:02d}.csv").write_text("번호,이름,전화,주소\n" + rows, encoding="utf-8")
        else:
            build_docx(folder / f"form{i:02d}.docx")
            (folder / f"form{i:02d}.png").unlink()       # the builder's picture source, not an input
    return src


def slow(path: Path, lines: int = 1500) -> None:
    """A text file that takes the tiny model a few seconds (1,500 lines, ~50k characters)."""
    path.write_text("담당자 홍길동 010-1234-5678 민원 처리 결과 통보\n" * lines, encoding="utf-8")


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith(".veil-") and not p.name.endswith(".report.json")}


def reports(folder: Path) -> dict[str, dict]:
    out = {}
    for p in sorted(folder.rglob("*.report.json")):
        d = json.loads(p.read_text("utf-8"))
        d.pop("created_utc")
        out[str(p.relative_to(folder))] = d
    return out


def manifest_rows(out: Path) -> list[dict]:
    for _ in range(50):
        try:
            db = sqlite3.connect(out / MANIFEST_NAME, timeout=5)
            try:
                cur = db.execute("SELECT source, status, attempts, updated, output_sha256 FROM files")
                return [dict(zip(("source", "status", "attempts", "updated", "output_sha256"), r))
                        for r in cur.fetchall()]
            finally:
                db.close()
        except sqlite3.OperationalError:
            time.sleep(0.05)
    raise AssertionError("manifest stayed locked")


@pytest.fixture(scope="module")
def baseline(tmp_path_factory, model):
    """The corpus and its single-process redaction (the reference)."""
    root = tmp_path_factory.mktemp("base")
    src = build_corpus(root / "in")
    out = root / "single"
    code = main(["redact", str(src), "--out", str(out), "--model", str(model), "--threads", "1", "--quiet"])
    assert not (out / MANIFEST_NAME).exists()          # the single-process path is unchanged: no manifest
    ok = set(tree(out))                                # the files it published (same names as the inputs)
    assert len(ok) >= 27 and code == (0 if len(ok) == 30 else 1)
    BASE.update(code=code, ok=ok)
    return src, out


BASE: dict = {}


def ok_sources(out: Path, src: Path) -> set[str]:
    """The inputs whose manifest row is ok, relative to ``src`` (= their output names)."""
    return {str(Path(r["source"]).relative_to(src.resolve())) for r in manifest_rows(out) if r["status"] == "ok"}


def cluster_args(src, out, model, *extra):
    return ["redact", str(src), "--out", str(out), "--model", str(model), "--workers", "2", "--quiet", *extra]


def test_cluster_matches_single_process_and_resumes_without_redoing(tmp_path, model, baseline, capsys):
    base, single = baseline
    src = tmp_path / "in"
    shutil.copytree(base, src)
    out = tmp_path / "out"
    summary = tmp_path / "summary.json"
    assert main(cluster_args(src, out, model, "--summary-json", str(summary))) == BASE["code"]
    text = capsys.readouterr().out
    n_ok = len(BASE["ok"])
    assert f"{n_ok} of 30 file(s) redacted; {30 - n_ok} failed" in text
    assert tree(out) == tree(single)                     # the same bytes, file by file
    assert reports(out) == reports(single)               # the same reports, timestamps aside
    assert ok_sources(out, src) == BASE["ok"]
    data = json.loads(summary.read_text("utf-8"))
    assert (data["files"], data["ok"], data["failed"], data["processed"], data["exit_code"]) == (
        30, n_ok, 30 - n_ok, 30, BASE["code"])
    assert data["workers"] == 2 and 1 < data["tasks"] < 30                # small files were grouped
    assert data["scheduler"].startswith("tcp://127.0.0.1:")               # loopback only
    assert all(a.startswith("tcp://127.0.0.1:") for a in data["worker_addresses"])
    assert data["chars"] > 0 and data["chars_per_s"] > 0
    rows = manifest_rows(out)
    assert len(rows) == 30 and {r["attempts"] for r in rows} == {1}
    for r in rows:                                      # output hash recorded = the output on disk
        if r["status"] != "ok":
            continue
        rel = Path(r["source"]).relative_to(src.resolve())
        assert hashlib.sha256((out / rel).read_bytes()).hexdigest() == r["output_sha256"]
    mtimes = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file() and p.name != MANIFEST_NAME}

    # the same command again: nothing redone (no cluster started, outputs untouched)
    edited = src / "old04.txt"
    assert edited.is_file()
    edited.write_text("새 담당자 장보고 010-9999-0000\n", encoding="utf-8")   # one input changed
    assert main(cluster_args(src, out, model, "--summary-json", str(summary))) == BASE["code"]
    data = json.loads(summary.read_text("utf-8"))
    assert (data["skipped_done_earlier"], data["processed"]) == (n_ok - 1, 30 - n_ok + 1)  # FAILED: redone
    for p, m in mtimes.items():
        if p.name.startswith("old04.txt"):
            assert p.stat().st_mtime_ns != m
        else:
            assert p.stat().st_mtime_ns == m, p
    assert (out / "old04.txt").read_text("utf-8") == "새 담당자 [인명] [전화번호]\n"


def test_worker_killed_mid_run_every_file_done_once(tmp_path, model, baseline, capsys):
    base, single = baseline
    src = tmp_path / "in"
    shutil.copytree(base, src)                       # the same input bytes as the reference run
    slow(src / "aa_slow.txt")                         # keeps a worker busy: the kill lands mid-run
    out = tmp_path / "out"
    me = psutil.Process()
    killed: list[int] = []
    listening: list[str] = []

    def killer():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if (out / MANIFEST_NAME).exists():
                rows = manifest_rows(out)
                done = sum(r["status"] == "ok" for r in rows)
                if done >= 1 and done < len(rows):
                    # a worker process: spawned by a LocalCluster nanny (which runs in this process)
                    workers = [c for c in me.children(recursive=True)
                               if "spawn_main" in " ".join(c.cmdline())]
                    if workers:
                        for p in [me, *me.children(recursive=True)]:      # every listening socket: loopback
                            listening.extend(c.laddr.ip for c in p.net_connections("inet")
                                             if c.status == psutil.CONN_LISTEN)
                        os.kill(workers[0].pid, signal.SIGKILL)
                        killed.append(done)
                        return
            time.sleep(0.01)

    t = threading.Thread(target=killer, daemon=True)
    t.start()
    summary = tmp_path / "s.json"
    code = main(cluster_args(src, out, model, "--summary-json", str(summary)))
    t.join(5)
    assert killed and killed[0] < 31, "the worker was killed before the end of the run"
    assert code == BASE["code"], capsys.readouterr().out
    assert listening and set(listening) == {"127.0.0.1"}      # scheduler, nannies, workers, HTTP: loopback
    mine = tree(out)
    assert "aa_slow.txt" in mine and b"\xed\x99\x8d\xea\xb8\xb8\xeb\x8f\x99" not in mine["aa_slow.txt"]  # 홍길동
    del mine["aa_slow.txt"]
    assert mine == tree(single)
    rep = reports(out)
    del rep["aa_slow.txt.report.json"]
    assert rep == reports(single)
    rows = manifest_rows(out)
    assert len(rows) == 31 and ok_sources(out, src) == BASE["ok"] | {"aa_slow.txt"}   # every file, one row each
    assert not [p for p in out.rglob(".veil-tmp-*")]            # no half-written output left behind
    assert json.loads(summary.read_text("utf-8"))["ok"] == len(BASE["ok"]) + 1


def test_interrupted_run_resumes_and_redoes_nothing_finished(tmp_path, model, baseline):
    src, single = baseline
    work = tmp_path / "in"
    shutil.copytree(src, work)
    slow(work / "zz_slow.txt", 30000)       # alone in its task: keeps the run going while we interrupt it
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "veil_desktop.cli", *cluster_args(work, out, model)],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        done = []
        while time.monotonic() < deadline and proc.poll() is None:
            if (out / MANIFEST_NAME).exists():
                now = manifest_rows(out)
                done = [r for r in now if r["status"] == "ok"]
                slow_row = [r for r in now if r["source"].endswith("zz_slow.txt")]
                if len(done) >= 3 and slow_row and slow_row[0]["status"] == "pending":
                    break
            time.sleep(0.02)
        assert proc.poll() is None and len(done) >= 3, "the run ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "not processed: the run was interrupted" in stdout
    before = {r["source"]: r for r in manifest_rows(out)}
    finished = {s: r for s, r in before.items() if r["status"] == "ok"}
    assert 3 <= len(finished) < 31 and "pending" in {r["status"] for r in before.values()}
    n_fin = len([r for r in before.values() if r["status"] in ("ok", "REVIEW")])
    mt = {s: (out / Path(s).relative_to(work.resolve())).stat().st_mtime_ns for s in finished}

    summary = tmp_path / "s.json"
    assert main(cluster_args(work, out, model, "--summary-json", str(summary))) == BASE["code"]
    after = {r["source"]: r for r in manifest_rows(out)}
    assert len(after) == 31 and ok_sources(out, work) == BASE["ok"] | {"zz_slow.txt"}
    for s, r in finished.items():                     # nothing finished was redone
        assert after[s]["updated"] == r["updated"] and after[s]["attempts"] == 1
        assert (out / Path(s).relative_to(work.resolve())).stat().st_mtime_ns == mt[s]
    data = json.loads(summary.read_text("utf-8"))
    assert data["skipped_done_earlier"] == n_fin and data["processed"] == 31 - n_fin
    small = {k: v for k, v in tree(out).items() if not k.startswith("zz_slow")}
    assert small == tree(single)
    assert not [p for p in out.rglob(".veil-tmp-*")]


def test_file_over_time_limit_and_damaged_file_fail_alone(tmp_path, model, capsys):
    src = tmp_path / "in"
    build_corpus(src, n=8, docx=False)
    (src / "zz_big.txt").write_text("담당자 홍길동 010-1234-5678 민원 처리 결과 통보\n" * 40000, encoding="utf-8")
    (src / "broken.docx").write_bytes(b"PK\x03\x04 this is not a real zip")
    out = tmp_path / "out"
    summary = tmp_path / "s.json"
    code = main(cluster_args(src, out, model, "--file-timeout", "6", "--summary-json", str(summary)))
    text = capsys.readouterr().out
    assert code == 1
    data = json.loads(summary.read_text("utf-8"))
    status = {Path(r["source"]).name: (r["status"], r["message"]) for r in data["rows"]}
    assert status["zz_big.txt"][0] == "FAILED" and "time limit (6 s" in status["zz_big.txt"][1]
    assert status["broken.docx"][0] == "FAILED" and "damaged" in status["broken.docx"][1]
    assert sum(s == "ok" for s, _ in status.values()) == 8 and (data["ok"], data["failed"]) == (8, 2), status
    assert "8 of 10 file(s) redacted; 2 failed" in text
    assert not (out / "zz_big.txt").exists() and not (out / "broken.docx").exists()
    assert not [p for p in out.rglob(".veil-tmp-*")]
    rows = {Path(r["source"]).name: r["status"] for r in manifest_rows(out)}
    assert rows["zz_big.txt"] == "FAILED" and list(rows.values()).count("ok") == 8


def test_make_groups_by_size():
    class J:
        def __init__(self, n):
            self.source = Path(f"f{n:03d}")
    jobs = [J(i) for i in range(100)]
    sizes = [1000] * 98 + [5 << 20, 2 << 20]
    groups = make_groups(jobs, sizes, 2)
    assert sorted(i for g in groups for i in g) == list(range(100))        # every file exactly once
    assert [98] in groups and [99] in groups                               # big files alone
    assert all(len(g) <= 32 for g in groups) and len(groups) < 20
    assert groups[0] == [98] and groups[1] == [99]                         # biggest first


def test_make_groups_many_small_tasks_for_the_tail():
    class J:
        def __init__(self, n):
            self.source = Path(f"f{n:03d}")
    jobs = [J(i) for i in range(200)]
    sizes = [2600 + 40 * (i % 7) for i in range(200)]                     # ~1,000 Hangul characters a file
    groups = make_groups(jobs, sizes, 2)
    assert sorted(i for g in groups for i in g) == list(range(200))
    weights = [sum(sizes[i] for i in g) for g in groups]
    assert weights == sorted(weights, reverse=True)
    # 16 tasks per worker's share (~17 KB here, above GROUP_MIN_BYTES): 6-7 files a task, the rest last
    assert 28 <= len(groups) <= 33 and all(6 <= len(g) <= 7 for g in groups[:-1])
    assert max(weights) < sum(sizes) / 20                                   # no task is a big share of the run
    assert all(g == sorted(g) for g in groups)                             # name order inside a task
    tiny = make_groups(jobs[:10], [300] * 10, 4)                            # 3 KB in all: one task
    assert tiny == [list(range(10))]


@pytest.mark.parametrize("addr", ["tcp://10.1.2.3:8786", "10.1.2.3:8786", "tcp://scheduler.example:8786",
                                  "tcp://[2001:db8::1]:8786"])
def test_non_loopback_plain_tcp_refused_before_connecting(tmp_path, model, addr, capsys):
    with pytest.raises(SchedulerRefused, match="--insecure"):
        check_scheduler(addr)
    assert check_scheduler(addr, insecure=True).loopback is False      # pure: opens no connection
    f = tmp_path / "a.txt"
    f.write_text("홍길동", encoding="utf-8")
    out = tmp_path / "out"
    t0 = time.monotonic()
    assert main(["redact", str(f), "--out", str(out), "--model", str(model), "--scheduler", addr]) == 2
    assert time.monotonic() - t0 < 5
    assert "refusing plain tcp://" in capsys.readouterr().err
    assert not out.exists()                                              # nothing written, nothing started
    sf = tmp_path / "scheduler.json"
    sf.write_text(json.dumps({"type": "Scheduler", "address": addr}), encoding="utf-8")
    assert main(["redact", str(f), "--out", str(out), "--model", str(model), "--scheduler-file", str(sf)]) == 2
    assert "refusing plain tcp://" in capsys.readouterr().err and not out.exists()


def test_scheduler_address_rules(tmp_path):
    assert check_scheduler("tcp://127.0.0.1:8786").address == "tcp://127.0.0.1:8786"
    assert check_scheduler("localhost:8786").loopback and check_scheduler("[::1]:8786").loopback
    with pytest.raises(SchedulerRefused, match="needs --tls-ca"):
        check_scheduler("tls://10.1.2.3:8786")
    with pytest.raises(SchedulerRefused, match="no such file"):
        check_scheduler("tls://10.1.2.3:8786", tls_ca=str(tmp_path / "ca.pem"), tls_cert="c", tls_key="k")
    for name in ("ca.pem", "c.pem", "k.pem"):
        (tmp_path / name).write_text("-----BEGIN CERTIFICATE-----\n")
    t = check_scheduler("tls://10.1.2.3:8786", tls_ca=str(tmp_path / "ca.pem"), tls_cert=str(tmp_path / "c.pem"),
                        tls_key=str(tmp_path / "k.pem"))
    assert t.protocol == "tls" and t.tls[0].endswith("ca.pem")
    with pytest.raises(SchedulerRefused, match="need a tls://"):
        check_scheduler("tcp://127.0.0.1:8786", tls_ca="x", tls_cert="y", tls_key="z")
    for bad in ("ws://127.0.0.1:8786", "inproc://x", "127.0.0.1", "tcp://:8786", "tcp://h:99999"):
        with pytest.raises(SchedulerRefused):
            check_scheduler(bad)


def test_cluster_flags_without_a_cluster_are_usage_errors(tmp_path, model, capsys):
    f = tmp_path / "a.txt"
    f.write_text("홍길동", encoding="utf-8")
    for extra in (["--file-timeout", "5"], ["--insecure"]):
        assert main(["redact", str(f), "--out", str(tmp_path / "o"), "--model", str(model), *extra]) == 2
        assert "only with --workers" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
    assert main(["redact", str(f), "--out", str(tmp_path / "o"), "--model", str(model), "--workers", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_local_workers_run_without_dask_diagnostics():
    """The local cluster's workers do not run Dask's statistical profiler or GIL monitor (they sample every
    thread every 10 ms / 1 ms for a dashboard nobody sees): the setting reaches the worker processes."""
    from distributed import Client

    from veil_desktop.cluster.run import local_cluster

    def settings(dask_worker):
        import dask as d

        return (d.config.get("distributed.worker.profile.enabled"),
                d.config.get("distributed.admin.system-monitor.gil.enabled"),
                sorted(dask_worker.periodic_callbacks), os.getpid())

    with local_cluster(2, 1) as cluster, Client(cluster) as client:
        got = client.run(settings)
    assert len(got) == 2
    assert {v[:2] for v in got.values()} == {(False, False)}
    for _, _, callbacks, _ in got.values():
        # Dask's defaults add "profile" and "profile-cycle"; the memory monitor (the memory limit) stays
        assert "profile" not in callbacks and "profile-cycle" not in callbacks, callbacks
        assert "memory_monitor" in callbacks and "heartbeat" in callbacks, callbacks
    assert len({v[3] for v in got.values()} | {os.getpid()}) == 3        # separate processes


def test_summary_json_without_a_cluster(tmp_path, model, capsys):
    """--summary-json on the single-process run: the same fields as on a cluster, from this run's rows."""
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text("담당자 홍길동 입니다.", encoding="utf-8")
    (src / "b.txt").write_bytes(b"\xff\xfe\x00\xd8broken")            # a lone surrogate: not text
    summary = tmp_path / "s.json"
    code = main(["redact", str(src), "--out", str(tmp_path / "o"), "--model", str(model), "--threads", "1",
                 "--summary-json", str(summary)])
    data = json.loads(summary.read_text("utf-8"))
    rows = {Path(r["source"]).name: r for r in data["rows"]}
    assert data["exit_code"] == code and data["files"] == 2 and data["processed"] == 2
    assert rows["a.txt"]["status"] == "ok" and rows["a.txt"]["counts"].get("PERSON") == 1
    assert data["ok"] + data["review"] + data["failed"] == 2 and data["ok"] >= 1
    assert data["chars"] >= len("담당자 홍길동 입니다.") and data["seconds"] > 0
    err = capsys.readouterr().err
    assert err.count("a.txt") == 1 and "a.txt ok" in err           # one progress line per file off a terminal
