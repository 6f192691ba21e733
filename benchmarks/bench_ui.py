"""UI responsiveness benchmark (prints figures; asserts nothing).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_ui.py [--model DIR] [--threads N]

Measures, with the main window shown offscreen at 1280x800:
1. while detecting a 200,000-character Korean document: the largest gap between ticks of a 10 ms QTimer
   (plus p99 and the tick count), the detection wall time and the number of items;
2. time from ``open_path`` to the first highlighted span (detector already loaded, as after the first
   document of a session), for 200k and 1M characters; and the one-off detector load time;
3. resident memory (RSS) with a 1,000,000-character document open: after it is shown, and after its
   detection finished (or was cut off by ``--max-detect-s``).

The document is the bundled sample (resources/samples/sample_ko.txt) repeated with numbered headers.
Without ``--model`` the app's default detector is used (``build_default_detector``).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_tmp = Path(tempfile.mkdtemp(prefix="veil-bench-ui-"))
os.environ["VEIL_DATA_DIR"] = str(_tmp / "data")      # never touch the real profile / sessions
os.environ["VEIL_CONFIG_DIR"] = str(_tmp / "config")

import onnxruntime  # noqa: E402,F401  (before Qt, as in the app)
import psutil  # noqa: E402
from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


def make_document(n_chars: int) -> str:
    sample = (ROOT / "resources" / "samples" / "sample_ko.txt").read_text(encoding="utf-8")
    parts, total, i = [], 0, 0
    while total < n_chars:
        chunk = f"\n[{i + 1}번째 통보서]\n{sample}"
        parts.append(chunk)
        total += len(chunk)
        i += 1
    return "".join(parts)[:n_chars]


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def child_rss_mb(window) -> str:
    proc = getattr(getattr(window, "_process", None), "_proc", None)
    if proc is None or not proc.is_alive():
        return "n/a"
    try:
        return f"{psutil.Process(proc.pid).memory_info().rss / 2**20:.0f} MB"
    except psutil.Error:
        return "n/a"


class GapMeter:
    """A 10 ms QTimer; records the wall-clock gaps between consecutive ticks (ms) and, per gap, the CPU
    time the GUI thread itself used (ms). A long gap with little GUI-thread CPU means the thread was
    waiting (scheduler, GIL), not working; a long gap full of CPU is the UI's own blocking work."""

    def __init__(self) -> None:
        self.timer = QTimer(interval=10)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[float] = []
        self.cpu: list[float] = []
        self._last = None
        self._last_cpu = None

    def start(self) -> None:
        self.gaps.clear()
        self.cpu.clear()
        self._last = time.perf_counter()
        self._last_cpu = time.thread_time()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        self.gaps.append((now - self._last) * 1000)
        self.cpu.append((cpu - self._last_cpu) * 1000)
        self._last, self._last_cpu = now, cpu

    def summary(self) -> str:
        gaps = sorted(self.gaps)
        p99 = gaps[int(0.99 * (len(gaps) - 1))]
        worst = max(range(len(self.gaps)), key=self.gaps.__getitem__)
        return (f"max gap {gaps[-1]:.1f} ms (GUI thread busy {self.cpu[worst]:.1f} ms of it), p99 {p99:.1f} ms, "
                f"median {statistics.median(gaps):.1f} ms, {len(gaps)} ticks; largest GUI-thread CPU in one gap "
                f"{max(self.cpu):.1f} ms")


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def run_open(app, window, path: Path, *, max_s: float, meter: GapMeter | None = None) -> dict:
    loop = QEventLoop()
    out: dict = {}
    t0 = time.perf_counter()

    def loaded(_p):
        out["shown_s"] = time.perf_counter() - t0
        out["rss_shown_mb"] = rss_mb()

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
    cutoff = QTimer(singleShot=True, interval=int(max_s * 1000))  # stopped below: must not outlive this run
    cutoff.timeout.connect(lambda: (out.setdefault("cut_off", True), window.cancel_detection()))
    cutoff.start()
    if meter:
        meter.start()
    window.open_path(path)
    loop.exec()
    cutoff.stop()
    if meter:
        meter.stop()
    for sig, slot in ((window.documentLoaded, loaded), (window.detectionFinished, finished),
                      (window.errorShown, error)):
        sig.disconnect(slot)
    out["first_highlight_s"] = window.first_highlight_s
    out["items"] = len(window.state) if window.state else 0
    out["rss_done_mb"] = rss_mb()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", help="model folder (default: the app's default detector)")
    ap.add_argument("--threads", type=int, default=0, help="inference threads (0 = engine default)")
    ap.add_argument("--chars", type=int, default=200_000)
    ap.add_argument("--big-chars", type=int, default=1_000_000)
    ap.add_argument("--max-detect-s", type=float, default=300.0, help="cut detection of the 1M doc off after this")
    args = ap.parse_args()

    from veil_desktop.ui.app import korean_font_family
    from veil_desktop.ui.main_window import MainWindow
    from veil_desktop.ui.settings_store import SettingsStore
    from veil_desktop.review.settings import AppSettings

    app = QApplication.instance() or QApplication(["bench"])
    korean_font_family()
    rss_start = rss_mb()
    store = SettingsStore(_tmp / "settings.ini")
    store.save(AppSettings(model_dir=str(Path(args.model).resolve()) if args.model else "", threads=args.threads))
    factory = None
    try:
        import veil_desktop.detect.default  # noqa: F401
    except ImportError:  # before the default detector exists: the engine alone over --model
        if not args.model:
            print("no default detector in this checkout; pass --model DIR")
            return 2
        from veil_desktop.detect.engine import ModelDetector

        factory = lambda folder, threads: ModelDetector(folder, threads=threads)  # noqa: E731
        print("note: veil_desktop.detect.default is missing; using ModelDetector(--model) without rules")
    window = MainWindow(store, detector_factory=factory)
    window.resize(1280, 800)
    window.show()
    app.processEvents()

    # warm-up: the first job starts the detection process and loads the model (once per session)
    warm = _tmp / "warm.txt"
    warm.write_text(make_document(2000), encoding="utf-8")
    r = run_open(app, window, warm, max_s=120)
    if "error" in r:
        print("error:", r["error"])
        return 1
    mode = "child process" if window._process is not None else "pool thread"
    print(f"machine: {os.cpu_count()} logical cores; detector {window.detector_id} ({mode}); threads "
          f"{args.threads or 'engine default'}; Qt platform {os.environ['QT_QPA_PLATFORM']}")
    print(f"load average (1/5/15 min) at start: {loadavg()} on {os.cpu_count()} cores")
    print(f"first job incl. detector start-up (one-off, 2,000 chars): {r['detect_s']:.2f} s; "
          f"GUI process RSS {rss_start:.0f} MB at start -> {rss_mb():.0f} MB")

    doc = _tmp / "doc_200k.txt"
    doc.write_text(make_document(args.chars), encoding="utf-8")
    meter = GapMeter()
    r = run_open(app, window, doc, max_s=600, meter=meter)
    if "error" in r:
        print("error:", r["error"])
        return 1
    print(f"\n{args.chars:,}-char document: {r['items']} items, detection {r['detect_s']:.2f} s "
          f"(shown after {r['shown_s'] * 1000:.0f} ms); load average now {loadavg()}")
    print(f"  10 ms timer during open+detection: {meter.summary()}")
    print(f"  open -> first highlight: {r['first_highlight_s'] * 1000:.0f} ms")

    big = _tmp / "doc_1m.txt"
    big.write_text(make_document(args.big_chars), encoding="utf-8")
    rss_before = rss_mb()
    meter = GapMeter()
    r = run_open(app, window, big, max_s=args.max_detect_s, meter=meter)
    if "error" in r:
        print("error:", r["error"])
        return 1
    state = f"cut off by --max-detect-s" if r.get("cut_off") else ("finished" if not r.get("cancelled") else "cancelled")
    print(f"\n{args.big_chars:,}-char document: shown after {r['shown_s'] * 1000:.0f} ms; "
          f"open -> first highlight {r['first_highlight_s'] * 1000:.0f} ms")
    print(f"  RSS: {rss_before:.0f} MB before open, {r['rss_shown_mb']:.0f} MB when shown, "
          f"{r['rss_done_mb']:.0f} MB after detection ({state} after {r['detect_s']:.1f} s, {r['items']} items)")
    print(f"  detection process RSS (model + rules, separate from the window): {child_rss_mb(window)}")
    print(f"  10 ms timer: {meter.summary()}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
