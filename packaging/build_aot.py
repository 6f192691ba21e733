"""Compile the Viterbi kernel ahead of time with ``numba.pycc`` for the offline bundle.

    python packaging/build_aot.py [--out DIR]        # -> DIR/_viterbi_aot<EXT_SUFFIX> (default build/aot/)

The extension module ``veil_desktop.detect._viterbi_aot`` exports ``viterbi(emis, lengths, trans, start, end,
out)``, compiled from the very function the JIT compiles (``detect.viterbi._viterbi_loops``), with the same
explicit signature. At run time it needs only numpy: neither numba nor llvmlite (the bundle leaves both out,
-164 MB). ``detect.viterbi`` prefers it when it is importable and reports ``numba-aot``.

Code is generated for the generic CPU of the build machine's architecture (``CC.target_cpu`` left empty),
so a bundle built on one x86-64 PC runs on any other. Needs a C compiler at build time (gcc/clang on
Linux and macOS, "Build Tools for Visual Studio" on Windows) and the Python headers (python.org and pyenv
builds have them; Debian's system Python needs ``python3-dev``).

After compiling, the module is imported in a child interpreter in which ``numba``/``llvmlite`` cannot be
imported, and its tags are compared with the numpy kernel's on random log-probabilities: a broken or
wrong module fails the build here, not at the reviewer's desk.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import sysconfig
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MODULE = "_viterbi_aot"
#: the JIT's signature (detect/viterbi.py ``_compile``), written as pycc wants it
SIGNATURE = "void(float32[:,:,::1], int64[::1], float32[:,::1], float32[::1], float32[::1], int32[:,::1])"
#: where the module goes inside the bundle (next to detect/viterbi.py, so ``from . import`` finds it)
BUNDLE_DEST = "veil_desktop/detect"

_VERIFY = r"""
import sys
sys.modules["numba"] = None      # any import of numba/llvmlite now raises ImportError
sys.modules["llvmlite"] = None
sys.path.insert(0, sys.argv[1])  # the freshly built module
sys.path.insert(1, sys.argv[2])  # the checkout (for the numpy reference kernel)
import numpy as np
import _viterbi_aot
from veil_desktop.detect import viterbi as V
kinds = np.array([0] + [1, 2, 3, 4] * 3, dtype=np.int8)
types = np.array([-1] + [0] * 4 + [1] * 4 + [2] * 4, dtype=np.int16)
trans, start, end = V.transitions(kinds, types)
rng = np.random.default_rng(12)
for rows, seq in ((1, 1), (7, 128), (33, 57)):
    emis = V.log_softmax(rng.normal(size=(rows, seq, len(kinds))).astype(np.float32) * 3)
    lengths = rng.integers(0, seq + 1, size=rows).astype(np.int64)
    lengths[0] = seq
    a = np.zeros((rows, seq), np.int32)
    b = np.zeros((rows, seq), np.int32)
    _viterbi_aot.viterbi(emis, lengths, trans, start, end, a)
    V.viterbi_numpy(emis, lengths, trans, start, end, b)
    assert (a == b).all(), (rows, seq)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("numba", "llvmlite") and sys.modules[m] is not None)
assert not loaded, loaded
print("verified: identical tags to the numpy kernel, no numba/llvmlite loaded")
"""


def output_name() -> str:
    return MODULE + sysconfig.get_config_var("EXT_SUFFIX")


def build(out_dir: Path) -> Path:
    """Compile the kernel into ``out_dir``; return the extension module's path."""
    sys.path.insert(0, str(ROOT))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc is marked pending-deprecation; it still works
        from numba.pycc import CC

    from veil_desktop.detect.viterbi import _viterbi_loops

    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / output_name()
    target.unlink(missing_ok=True)
    cc = CC(MODULE)
    cc.output_dir = str(out_dir)
    cc.verbose = False
    cc.export("viterbi", SIGNATURE)(_viterbi_loops)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cc.compile()
    if not target.is_file():
        raise SystemExit(f"numba.pycc did not produce {target}")
    return target


def verify(module: Path) -> None:
    """Import the module without numba/llvmlite and compare it with the numpy kernel (raises on failure)."""
    proc = subprocess.run([sys.executable, "-c", _VERIFY, str(module.parent), str(ROOT)],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise SystemExit(f"AOT Viterbi module failed verification:\n{proc.stdout}{proc.stderr}")
    print(proc.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "aot")
    args = ap.parse_args(argv)
    t = time.perf_counter()
    module = build(args.out.resolve())
    print(f"AOT Viterbi: {module} ({module.stat().st_size / 1e3:.0f} kB) in {time.perf_counter() - t:.1f} s")
    verify(module)
    return 0


if __name__ == "__main__":
    sys.exit(main())
