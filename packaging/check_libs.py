"""Check that every native library in a Linux bundle can resolve its dependencies (``ldd``).

    .venv/bin/python packaging/check_libs.py [dist/veil-desktop]

A dependency that is missing *and* would have to come from the bundle (Qt, PySide6/shiboken, ICU,
Python, onnxruntime, OpenBLAS ...) means pruning went too far: exit status 1. Missing *system* libraries
(e.g. ``libxcb-icccm.so.4`` for the X11 platform plugin on a server without X) are listed as information:
desktop Linux installs have them, and the offscreen self-test does not need them.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: Dependencies that only the bundle can provide (a miss here is a packaging bug).
BUNDLED = re.compile(r"^(libQt6|libpyside6|libshiboken6|libicu|libpython|libonnxruntime|libscipy_openblas|"
                     r"libgfortran|libquadmath|libllvmlite|libpdfium)")
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found")


def _is_elf(p: Path) -> bool:
    try:
        with open(p, "rb") as fh:
            return fh.read(4) == b"\x7fELF"
    except OSError:
        return False


def unresolved(bundle: Path) -> dict[str, set[str]]:
    """``{missing library: {bundle files that need it}}`` for every ELF file in ``bundle``."""
    if not shutil.which("ldd"):
        raise RuntimeError("ldd not found (this check is for Linux bundles)")
    internal = bundle / "_internal"
    env = dict(os.environ, LD_LIBRARY_PATH=str(internal if internal.is_dir() else bundle))
    missing: dict[str, set[str]] = {}
    for dirpath, _dirs, files in os.walk(bundle):
        for f in files:
            p = Path(dirpath) / f
            if p.is_symlink() or not _is_elf(p):
                continue
            out = subprocess.run(["ldd", str(p)], capture_output=True, text=True, env=env).stdout
            for line in out.splitlines():
                m = _NOT_FOUND.match(line)
                if m:
                    missing.setdefault(m.group(1), set()).add(str(p.relative_to(bundle)))
    return missing


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    bundle = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "dist" / "veil-desktop"
    missing = unresolved(bundle)
    bad = {k: v for k, v in missing.items() if BUNDLED.match(k)}
    for lib, users in sorted(missing.items()):
        kind = "BUNDLE BUG" if lib in bad else "system lib not on this machine"
        print(f"  {kind}: {lib} needed by {', '.join(sorted(users)[:3])}{' ...' if len(users) > 3 else ''}")
    if bad:
        print(f"FAIL: {len(bad)} library(ies) that must come from the bundle are missing")
        return 1
    print(f"ok: every bundled-library dependency resolves ({len(missing)} system libraries absent here)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
