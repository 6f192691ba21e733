"""UI responsiveness of the window as shipped (prints figures; asserts only what the setup must be).

    QT_QPA_PLATFORM=offscreen nice .venv/bin/python benchmarks/bench_ui.py [--model DIR] [--threads N]

One run, the real ``MainWindow`` shown offscreen at 1280x800, detecting with what the app ships: the
default detector (``build_default_detector``: the embedded compact model + rule stage, built by the
window's own factory) in a ``QRunnable`` on ``QThreadPool``. A 10 ms ``QTimer`` records the gaps between
its ticks (and the GUI thread's own CPU time inside each gap):

1. idle: a small document open, nothing running, for ``--idle-s`` seconds;
2. opening and detecting a 200,000-character document (to the end);
3. opening and detecting a 1,000,000-character document (to the end, or cut off after ``--max-detect-s``):
   open -> first highlighted span, and the largest gap;
4. cancel: detection of the 1M document re-run, cancelled after 2 s; time until the pool worker returned;
5. slice agreement: on ``--agreement-chars`` characters, spans of the window's slice-by-slice detection vs
   one whole-text ``detector.detect`` call (same detector).

Whole-app memory: the RSS of this process plus all its children, sampled every 100 ms (on a sampler thread)
while detecting.
The run asserts there is no child process and that at least one pool thread is busy while detecting.

The document is the bundled sample (resources/samples/sample_ko.txt) repeated with numbered headers.
Targets (issue 11): detecting-minus-idle largest gap <= 50 ms; first highlight <= 0.5 s at 1M characters;
whole-app RSS <= 600 MB at 1M characters.
"""
from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["ORT_DISABLE_TELEMETRY"] = "1"
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_tmp = Path(tempfile.mkdtemp(prefix="veil-bench-ui-"))
os.environ["VEIL_DATA_DIR"] = str(_tmp / "data")      # never touch the real profile / sessions
os.environ["VEIL_CONFIG_DIR"] = str(_tmp / "config")

import onnxruntime  # noqa: E402,F401  # (before Qt, as in the app)
import psutil  # noqa: E402
from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

GAP_TARGET_MS = 50.0
FIRST_TARGET_S = 0.5
RSS_TARGET_MB = 600.0


def make_document(n_chars: int) -> str:
    sample = (ROOT / "resources" / "samples" / "sample_ko.txt").read_text(encoding="utf-8")
    parts, total, i = [], 0, 0
    while total < n_chars:
        chunk = f"\n[{i + 1}번째 통보서]\n{sample}"
        parts.append(chunk)
        total += len(chunk)
        i += 1
    return "".join(parts)[:n_chars]


def app_rss_mb() -> tuple[float, int]:
    """RSS of this process and all its children (MB), and the number of children."""
    me = psutil.Process()
    kids = me.children(recursive=True)
    total = me.memory_info().rss
    for k in kids:
        try:
            total += k.memory_info().rss
        except psutil.Error:
            pass
    return total / 2**20, len(kids)


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


class GapMeter:
    """A 10 ms QTimer; records the wall-clock gaps between consecutive ticks (ms) and, per gap, the CPU
    time the GUI thread itself used (ms). A long gap with little GUI-thread CPU means the thread was
    waiting (for a CPU or the GIL), not working. For gaps over the target it also notes where the
    detection worker was when the GUI thread got its turn back (a hint at who held the GIL)."""

    def __init__(self, window) -> None:
        self.window = window
        self.timer = QTimer(interval=10)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[float] = []
        self.cpu: list[float] = []
        self.where: collections.Counter = collections.Counter()
        self._last = self._last_cpu = 0.0

    def start(self) -> None:
        self.gaps.clear()
        self.cpu.clear()
        self.where.clear()
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        gap = (now - self._last) * 1000
        self.gaps.append(gap)
        self.cpu.append((cpu - self._last_cpu) * 1000)
        if gap > GAP_TARGET_MS:
            worker = self.window.detection.worker
            frame = sys._current_frames().get(worker.thread_id) if worker and worker.thread_id else None
            if frame is not None:
                st = traceback.extract_stack(frame)[-2:]
                self.where[" <- ".join(f"{Path(f.filename).name}:{f.name}" for f in reversed(st))] += 1
        self._last, self._last_cpu = time.perf_counter(), time.thread_time()

    def max_gap(self) -> float:
        return max(self.gaps) if self.gaps else 0.0

    def summary(self) -> str:
        if not self.gaps:
            return "no ticks"
        gaps = sorted(self.gaps)
        worst = max(range(len(self.gaps)), key=self.gaps.__getitem__)
        over = sum(1 for g in self.gaps if g > GAP_TARGET_MS)
        return (f"max gap {gaps[-1]:.1f} ms (GUI thread ran {self.cpu[worst]:.1f} ms of it), "
                f"p99 {gaps[int(0.99 * (len(gaps) - 1))]:.1f} ms, median {statistics.median(gaps):.1f} ms, "
                f"{len(gaps)} ticks, {over} gaps > {GAP_TARGET_MS:.0f} ms; largest GUI-thread CPU in one gap "
                f"{max(self.cpu):.1f} ms")


class Sampler:
    """Every 100 ms, on its own thread (not on the GUI thread, whose gaps are being measured): whole-app
    RSS, child processes, busy pool threads (maxima)."""

    def __init__(self, pool) -> None:
        self.pool = pool  # the detection pool
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.reset()

    def reset(self) -> None:
        self.rss_max = 0.0
        self.children_max = 0
        self.busy_max = 0

    def start(self) -> None:
        self.reset()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="bench-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.sample()

    def _run(self) -> None:
        while not self._stop.wait(0.1):
            self.sample()

    def sample(self) -> None:
        rss, kids = app_rss_mb()
        self.rss_max = max(self.rss_max, rss)
        self.children_max = max(self.children_max, kids)
        self.busy_max = max(self.busy_max, self.pool.activeThreadCount())


def run_open(window, path: Path, *, max_s: float, meter: GapMeter | None, sampler: Sampler) -> dict:
    loop = QEventLoop()
    out: dict = {}
    t0 = time.perf_counter()

    def loaded(_p):
        out["shown_s"] = time.perf_counter() - t0

    def finished(cancelled):
        out["detect_s"] = time.perf_counter() - t0
        out["cancelled"] = cancelled
        loop.quit()

    def error(msg):
        out["error"] = msg
        loop.quit()

    window.documentLoaded.connect(loaded)
    window.detectionFinished.connect(finished)
    window.errorShown.connect(error)
    cutoff = QTimer(singleShot=True, interval=int(max_s * 1000))
    cutoff.timeout.connect(lambda: (out.setdefault("cut_off", True), window.cancel_detection()))
    cutoff.start()
    sampler.start()
    if meter:
        meter.start()
    window.open_path(path)
    loop.exec()
    cutoff.stop()
    sampler.stop()
    if meter:
        meter.stop()
    for sig, slot in ((window.documentLoaded, loaded), (window.detectionFinished, finished),
                      (window.errorShown, error)):
        sig.disconnect(slot)
    out["first_highlight_s"] = window.first_highlight_s
    out["items"] = len(window.state) if window.state else 0
    out["rss_max_mb"], out["children_max"], out["busy_max"] = sampler.rss_max, sampler.children_max, sampler.busy_max
    return out


def spin(app, seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.001)


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", help="model folder (default: the embedded model, as the app ships)")
    ap.add_argument("--threads", type=int, default=0, help="inference threads (0 = engine default, as shipped)")
    ap.add_argument("--chars", type=int, default=200_000)
    ap.add_argument("--big-chars", type=int, default=1_000_000)
    ap.add_argument("--idle-s", type=float, default=20.0)
    ap.add_argument("--max-detect-s", type=float, default=900.0, help="cut detection of the big doc off after this")
    ap.add_argument("--agreement-chars", type=int, default=50_000)
    ap.add_argument("--viterbi", choices=("jit", "aot", "numpy"), default="jit",
                    help="Viterbi kernel: jit (source checkout), aot (what the bundle ships, from build/aot/)")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_detect import use_viterbi

    use_viterbi(args.viterbi)

    from veil_desktop.detect.events import SpansFound
    from veil_desktop.review.settings import AppSettings
    from veil_desktop.ui.fonts import korean_font_family
    from veil_desktop.ui.main_window import MainWindow
    from veil_desktop.ui.settings_store import SettingsStore
    from veil_desktop.detect.driver import SLICE_CHARS, drive

    app = QApplication.instance() or QApplication(["bench"])
    korean_font_family()
    store = SettingsStore(_tmp / "settings.ini")
    store.save(AppSettings(model_dir=str(Path(args.model).resolve()) if args.model else "", threads=args.threads))
    window = MainWindow(store)  # no injected factory: the app's own detector and path
    window.resize(1280, 800)
    window.show()
    app.processEvents()
    sampler = Sampler(window.detection.pool)
    ran_on: set[str] = set()  # Qt name of the thread each detection job ran on
    window.detection.started.connect(lambda _id: ran_on.add(window.detection.worker.thread_name))

    warm = _tmp / "warm.txt"
    warm.write_text(make_document(2000), encoding="utf-8")
    r = run_open(window, warm, max_s=300, meter=None, sampler=sampler)
    if "error" in r:
        print("error:", r["error"])
        return 1
    print(f"machine: {os.cpu_count()} logical cores; load average {loadavg()}; Qt platform "
          f"{os.environ['QT_QPA_PLATFORM']}; detector {window.detector_id}; threads "
          f"{args.threads or 'engine default'}; slices of ~{SLICE_CHARS:,} chars")
    print(f"first job incl. detector load (2,000 chars): {r['detect_s']:.2f} s; app RSS {app_rss_mb()[0]:.0f} MB")

    meter = GapMeter(window)
    meter.start()
    spin(app, args.idle_s)
    meter.stop()
    idle_gap = meter.max_gap()
    print(f"\nidle ({args.idle_s:.0f} s, document open, nothing running): {meter.summary()}")

    results = {}
    for label, n in (("200k", args.chars), ("1M", args.big_chars)):
        doc = _tmp / f"doc_{label}.txt"
        doc.write_text(make_document(n), encoding="utf-8")
        meter = GapMeter(window)
        r = run_open(window, doc, max_s=args.max_detect_s, meter=meter, sampler=sampler)
        if "error" in r:
            print("error:", r["error"])
            return 1
        r["gap"] = meter.max_gap()
        results[label] = r
        state = "cut off" if r.get("cut_off") else ("finished" if not r.get("cancelled") else "cancelled")
        print(f"\n{n:,}-char document: {r['items']:,} items, detection {state} after {r['detect_s']:.1f} s "
              f"(shown after {r['shown_s'] * 1000:.0f} ms); load average now {loadavg()}")
        print(f"  open -> first highlight: {r['first_highlight_s'] * 1000:.0f} ms")
        print(f"  10 ms timer: {meter.summary()}")
        print(f"  detecting minus idle largest gap: {r['gap'] - idle_gap:.1f} ms")
        if meter.where:
            print("  where the worker was after gaps > 50 ms: "
                  + "; ".join(f"{n}x {w}" for w, n in meter.where.most_common(4)))
        print(f"  whole-app RSS max {r['rss_max_mb']:.0f} MB; child processes max {r['children_max']}; "
              f"busy pool threads max {r['busy_max']}")
        assert r["children_max"] == 0, "a child process was started"
        assert r["busy_max"] >= 1, "no pool thread was busy while detecting"

    # cancel latency on the big document
    window.run_detection()
    spin(app, 2.0)
    worker = window.detection.worker
    t = time.perf_counter()
    window.cancel_detection()
    stopped = worker.ended.wait(30) if worker else False
    cancel_ms = (time.perf_counter() - t) * 1000
    print(f"\ncancel after 2 s of detecting {args.big_chars:,} chars: the pool worker returned after "
          f"{cancel_ms:.0f} ms ({'stopped' if stopped else 'still running'}); detection jobs ran on {sorted(ran_on)}")

    # agreement of the slice-by-slice window path with one whole-text detect() call
    det = window.detection.detectors.current()
    text = make_document(args.agreement_chars)
    whole = {(s.start, s.end, s.label) for s in det.detect(text)}
    sliced = set()
    for ev in drive(det, text):
        if isinstance(ev, SpansFound):
            sliced.update((s.start, s.end, s.label) for s in ev.spans)
    print(f"\nslice agreement on {len(text):,} chars (spans as start, end, label): {len(whole)} whole-text, "
          f"{len(sliced)} sliced, {len(whole - sliced)} only whole-text, {len(sliced - whole)} only sliced")

    big = results["1M"]
    excess = max(results["200k"]["gap"], big["gap"]) - idle_gap
    print("\nverdicts:")
    print(f"  detecting-minus-idle largest gap {excess:.1f} ms (200k {results['200k']['gap'] - idle_gap:.1f}, "
          f"1M {big['gap'] - idle_gap:.1f}; target <= {GAP_TARGET_MS:.0f} ms): {verdict(excess <= GAP_TARGET_MS)}")
    print(f"  first highlight at 1M {big['first_highlight_s']:.3f} s (target <= {FIRST_TARGET_S} s): "
          f"{verdict(big['first_highlight_s'] <= FIRST_TARGET_S)}")
    print(f"  whole-app RSS at 1M {big['rss_max_mb']:.0f} MB (target <= {RSS_TARGET_MB:.0f} MB): "
          f"{verdict(big['rss_max_mb'] <= RSS_TARGET_MB)}")
    print(f"  cancel -> worker stopped {cancel_ms:.0f} ms (target <= 100 ms): {verdict(stopped and cancel_ms <= 100)}")
    from veil_desktop.detect import viterbi as _vit

    print(f"  viterbi kernel: {_vit.backend()}; load average at the end {os.getloadavg()[0]:.2f}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
