"""Entry script of the frozen ``veil-desktop`` executable (PyInstaller builds it; see veil-desktop.spec).

Order matters here, which is why the frozen app has its own entry instead of ``veil_desktop.launcher:main``:

0. Switch onnxruntime's telemetry off (before anything can import onnxruntime).
1. Point numba's cache at a user-writable directory *before* numba is imported (numba reads
   ``NUMBA_CACHE_DIR`` once, at import). Nothing is ever written next to the executable.
2. Import onnxruntime (and numba, when bundled) *before* PySide6: on Windows, loading Qt's DLLs first can
   make onnxruntime's DLL initialisation fail (onnxruntime#26127, #16116, #25193).
3. (Detection runs on a ``QThreadPool`` worker in this process: no child process, no ``freeze_support``.)
4. Dispatch:
   ``--self-test``      -> :func:`veil_desktop.selftest.main` (no window unless the self-test builds one);
   ``--startup-time``   -> start the normal UI, print the time from process start until the main window is
                           exposed with a running event loop, then quit (used by packaging/ci_bundle.sh);
   ``--bench-detect``   -> time the default detector (model + rules) on the Korean sample repeated to
                           ``--chars`` characters, ``--repeat`` times, and print one ``BENCH_DETECT`` line
                           with the Viterbi kernel that ran (packaging/bench_bundle.py compares kernels
                           with it, e.g. the bundle's numba-aot against ``VEIL_NO_NUMBA=1``);
   anything else        -> :func:`veil_desktop.ui.app.main` with the remaining arguments.

The same script runs from a source checkout (``.venv/bin/python packaging/entry.py --startup-time``), which
gives a like-for-like start-up figure for the unfrozen app.
"""
from __future__ import annotations

import os

# onnxruntime >= 1.2x on Linux/macOS carries Microsoft's 1DS telemetry client (libcurl, HTTPS uploads) and,
# at import, writes a device id and an event store under ~/.cache/Microsoft/DeveloperTools/.onnxruntime/.
# Only this variable, set before the first `import onnxruntime`, switches it off (calling
# onnxruntime.disable_telemetry_events() afterwards does not). An offline PII tool sends nothing: forced on.
os.environ["ORT_DISABLE_TELEMETRY"] = "1"

import importlib.util  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

_ENTRY_T = time.time()  # wall-clock when the entry script began (after the bootloader and interpreter start)

if not getattr(sys, "frozen", False):  # running from a checkout: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _writable_dir(path: Path) -> bool:
    """True when ``path`` exists (or can be created) and a file can be written in it."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".probe-"):
            pass
        return True
    except OSError:
        return False


def configure_numba_cache() -> str | None:
    """Set ``NUMBA_CACHE_DIR`` to a writable per-user directory; return it, or None when there is none.

    A value already in the environment wins when it is writable. Candidates: the app's user cache
    (``paths.user_cache_dir()/numba``), then a per-user folder in the system temp dir. When none is
    writable the variable is removed, so numba falls back to its own locators and
    ``veil_desktop.detect.viterbi`` to an uncached (or numpy) path; start-up must not crash on it.
    """
    candidates: list[Path] = []
    if os.environ.get("NUMBA_CACHE_DIR"):
        candidates.append(Path(os.environ["NUMBA_CACHE_DIR"]))
    try:
        from veil_desktop import paths

        candidates.append(paths.user_cache_dir(create=False) / "numba")
    except Exception:  # noqa: BLE001 - an unusable profile dir must not stop the app
        pass
    user = os.environ.get("USER") or os.environ.get("USERNAME") or "user"
    try:
        candidates.append(Path(tempfile.gettempdir()) / f"veil-desktop-numba-{user}")
    except OSError:  # gettempdir() raises when no temp location at all is writable
        pass
    for cand in candidates:
        if _writable_dir(cand):
            os.environ["NUMBA_CACHE_DIR"] = str(cand)
            return str(cand)
    os.environ.pop("NUMBA_CACHE_DIR", None)
    return None


def use_numba_cache_dir_when_frozen() -> bool:
    """Make numba cache frozen-app functions in ``NUMBA_CACHE_DIR``, and never inside the bundle.

    numba's own locators need the function's ``.py`` file to exist (there is none in a bundle: the code is
    in the PYZ archive, and ``co_filename`` is a path relative to the *current directory*), so in a frozen
    app ``NUMBA_CACHE_DIR`` is ignored and only the user-wide ``~/.cache/numba`` works — or, depending on
    the cwd, a source tree that happens to be there. This installs a locator that uses ``NUMBA_CACHE_DIR``
    with a fixed sub-folder per module, and drops the in-tree locator (``__pycache__`` next to the code).
    The cache is keyed by a hash of the executable, so every rebuild starts a fresh cache (numba's rule for
    frozen apps). Returns True when installed; on any surprise numba's defaults stay (still no crash:
    ``detect.viterbi`` compiles uncached when no locator works).
    """
    if not getattr(sys, "frozen", False) or not os.environ.get("NUMBA_CACHE_DIR"):
        return False
    try:
        from numba.core import caching, config

        base = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator
        in_tree = getattr(caching, "InTreeCacheLocator", None) or getattr(caching, "_InTreeCacheLocator", None)

        class FrozenAppCacheLocator(base):  # type: ignore[misc, valid-type]
            def __init__(self, py_func, py_file):
                self._py_file = py_file
                self._lineno = py_func.__code__.co_firstlineno
                module = (py_func.__module__ or "app").replace(".", "_")
                self._cache_path = os.path.join(config.CACHE_DIR, "frozen-" + module)

            @classmethod
            def from_function(cls, py_func, py_file):
                if not config.CACHE_DIR:
                    return None
                self = cls(py_func, py_file)
                try:
                    self.ensure_cache_path()
                except OSError:
                    return None
                return self

        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        impl._locator_classes = [FrozenAppCacheLocator] + [
            c for c in impl._locator_classes if c is not in_tree and c is not base]
        return True
    except Exception:  # noqa: BLE001 - an unexpected numba layout must not stop the app
        return False


def preload_native() -> dict[str, str]:
    """Import the native-code packages that must initialise before Qt; return ``{name: version|error}``."""
    loaded: dict[str, str] = {}
    for name in ("onnxruntime", "numba"):
        try:
            mod = __import__(name)
            loaded[name] = getattr(mod, "__version__", "?")
        except ImportError as exc:  # numba is optional: the Viterbi has a numpy fallback
            loaded[name] = f"not available ({exc})"
    return loaded


def _process_start_epoch() -> tuple[float, str]:
    """Wall-clock time at which this process started, and how it was obtained.

    ``VEIL_STARTUP_T0`` (epoch seconds, set by the launcher right before exec) is the most faithful;
    on Linux /proc gives the kernel's process start time (10 ms resolution); elsewhere the entry
    script's own start (which excludes the bootloader and interpreter start-up) is the fallback.
    """
    env = os.environ.get("VEIL_STARTUP_T0")
    if env:
        try:
            return float(env), "launcher (VEIL_STARTUP_T0)"
        except ValueError:
            pass
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            start_ticks = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as fh:
            uptime = float(fh.read().split()[0])
        ticks = os.sysconf("SC_CLK_TCK")
        return time.time() - uptime + start_ticks / ticks, "kernel process start (/proc)"
    except (OSError, ValueError, IndexError, AttributeError):
        return _ENTRY_T, "entry script start (bootloader not counted)"


def install_startup_probe(timeout_s: float = 60.0) -> None:
    """Make the next ``QApplication.exec()`` report when the main window is interactive, then quit.

    "Interactive" = a visible top-level ``QMainWindow`` whose native window is exposed, observed from a
    timer *inside* the running event loop (so the loop is processing events). The figure printed is
    seconds since process start. The UI's ``main()`` is not modified: ``exec`` is wrapped on the class.
    """
    from PySide6 import QtCore, QtWidgets

    original_exec = QtWidgets.QApplication.exec
    t0, how = _process_start_epoch()

    def probing_exec(*_args):  # called as app.exec() (bound) or QApplication.exec() (static)
        app = QtWidgets.QApplication.instance()
        deadline = time.monotonic() + timeout_s
        timer = QtCore.QTimer(app)
        timer.setInterval(5)

        def poll() -> None:
            for w in QtWidgets.QApplication.topLevelWidgets():
                handle = w.windowHandle()
                if isinstance(w, QtWidgets.QMainWindow) and w.isVisible() and handle and handle.isExposed():
                    timer.stop()
                    elapsed = time.time() - t0
                    print(f"STARTUP_SECONDS={elapsed:.3f} (main window exposed, event loop running; "
                          f"t0 = {how}; window: {w.windowTitle()!r})", flush=True)
                    QtCore.QTimer.singleShot(0, app.quit)
                    return
            if time.monotonic() > deadline:
                timer.stop()
                print(f"STARTUP_SECONDS=FAIL (no main window exposed within {timeout_s:.0f} s)", flush=True)
                app.exit(3)

        timer.timeout.connect(poll)
        timer.start()
        return original_exec()

    QtWidgets.QApplication.exec = probing_exec


def bench_detect(argv: list[str]) -> int:
    """``--bench-detect [--chars N] [--repeat R] [--threads T]``: detection throughput of this build."""
    import argparse

    ap = argparse.ArgumentParser(prog="veil-desktop --bench-detect")
    ap.add_argument("--chars", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args(argv)
    from veil_desktop import paths
    from veil_desktop.detect import viterbi
    from veil_desktop.detect.default import build_default_detector

    # time spent inside the Viterbi (the engine calls viterbi.viterbi through the module: wrapping it counts
    # every call), so the kernel's own share of detection can be printed next to the total
    decode = [0.0]
    inner = viterbi.viterbi

    def timed_viterbi(*a, **kw):
        t = time.perf_counter()
        try:
            return inner(*a, **kw)
        finally:
            decode[0] += time.perf_counter() - t

    viterbi.viterbi = timed_viterbi
    sample = (paths.resources_dir() / "samples" / "sample_ko.txt").read_text(encoding="utf-8")
    text = (sample * (args.chars // len(sample) + 1))[: args.chars]
    detector = build_default_detector(threads=args.threads)
    viterbi.warm_up()  # load the kernel first: every timed run decodes with the same one
    n_spans = len(detector.detect(text[:5000]))  # warm-up run (sessions, caches), not timed
    walls, cpus = [], []
    decode[0] = 0.0
    for _ in range(args.repeat):
        w, c = time.perf_counter(), time.process_time()
        n_spans = len(detector.detect(text))
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    print(f"BENCH_DETECT kernel={viterbi.last_ran()} backend={viterbi.backend()!r} chars={len(text)} "
          f"spans={n_spans} wall={','.join(f'{x:.4f}' for x in walls)} cpu={','.join(f'{x:.4f}' for x in cpus)} "
          f"viterbi_s={decode[0]:.4f}",
          flush=True)
    return 0


def run(argv: list[str]) -> int:
    """Entry logic; ``argv`` excludes the program name. Returns the process exit code."""
    # find_spec does not import: in the default bundle (no numba) no cache folder is created at all
    if importlib.util.find_spec("numba") is not None:
        configure_numba_cache()
    loaded = preload_native()
    if not loaded.get("numba", "").startswith("not available"):
        use_numba_cache_dir_when_frozen()
    # (No multiprocessing.freeze_support(): the UI detects on a QThreadPool worker, no child process.)
    if "--self-test" in argv:
        from veil_desktop import selftest

        rest = [a for a in argv if a != "--self-test"]
        return selftest.main(rest)
    if "--bench-detect" in argv:
        return bench_detect([a for a in argv if a != "--bench-detect"])
    if "--startup-time" in argv:
        argv = [a for a in argv if a != "--startup-time"]
        install_startup_probe()
    from veil_desktop.ui import app as ui_app

    sys.argv = [sys.argv[0], *argv]  # the UI parses sys.argv itself (argparse); hide our flags from it
    rc = ui_app.main()
    return int(rc or 0)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
