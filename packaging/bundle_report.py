"""Size of a built bundle, broken down by component.

    .venv/bin/python packaging/bundle_report.py [dist/veil-desktop]

Sizes are apparent file sizes (``st_size``) summed per component, in MB (10^6 bytes); "unpacked" = the
folder as it lies on disk after copying, which is what the 300 MB target is about.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path, PurePosixPath

# (component, predicate on the path relative to the bundle's content root) — first match wins.
_RULES: list[tuple[str, tuple[str, ...]]] = [
    ("Qt plugins", ("PySide6/Qt/plugins/", "PySide6/plugins/")),
    ("Qt translations", ("PySide6/Qt/translations/", "PySide6/translations/")),
    ("Qt libraries (Core/Gui/Widgets/ICU...)", ("PySide6/Qt/lib/", "PySide6/Qt6", "PySide6/icu")),
    ("PySide6 + shiboken6 bindings", ("PySide6/", "shiboken6/")),
    ("llvmlite (numba's LLVM)", ("llvmlite/",)),
    ("numba", ("numba/",)),
    ("onnxruntime", ("onnxruntime/",)),
    ("numpy (+ OpenBLAS)", ("numpy/", "numpy.libs/")),
    ("tokenizers", ("tokenizers/",)),
    ("lxml", ("lxml/",)),
    ("pypdfium2", ("pypdfium2", "pypdfium2_raw/")),
    ("Pillow", ("PIL/", "pillow.libs/")),
    ("tesserocr (OCR: Tesseract + Leptonica)", ("tesserocr",)),
    ("Viterbi, numba AOT (veil_desktop/detect/_viterbi_aot)", ("veil_desktop/detect/_viterbi_aot",)),
    ("embedded model(s)", ("resources/models/",)),
    ("font", ("resources/fonts/",)),
    ("OCR language data (resources/tessdata)", ("resources/tessdata/",)),
    ("other resources", ("resources/",)),
    ("Python runtime + stdlib", ("libpython", "python3", "base_library.zip", "lib-dynload/", "python",
                                 "_internal/lib", "vcruntime", "ucrtbase", "api-ms-win")),
]


def content_root(bundle: Path) -> Path:
    """PyInstaller >= 6 puts everything but the executable in ``_internal/``."""
    internal = bundle / "_internal"
    return internal if internal.is_dir() else bundle


def component_of(rel: str) -> str:
    rel = rel.replace("\\", "/")
    for name, prefixes in _RULES:
        if rel.startswith(prefixes):
            return name
    top = PurePosixPath(rel).parts[0]
    if top.startswith(("libQt6", "Qt6")):
        return "Qt libraries (Core/Gui/Widgets/ICU...)"
    return "other (system libs, small packages, PYZ app code)"


def breakdown(bundle: Path) -> tuple[int, list[tuple[str, int, int]]]:
    """(total bytes, [(component, bytes, files)] sorted by size, largest first)."""
    root = content_root(bundle)
    sizes: dict[str, list[int]] = {}
    total = 0
    for dirpath, _dirs, files in os.walk(bundle):
        for f in files:
            p = Path(dirpath) / f
            if p.is_symlink():
                continue
            size = p.stat().st_size
            total += size
            if root != bundle and p.parent == bundle:
                comp = "executable (bootloader)"  # next to _internal/
            else:
                comp = component_of(p.relative_to(root).as_posix())
            acc = sizes.setdefault(comp, [0, 0])
            acc[0] += size
            acc[1] += 1
    rows = sorted(((k, v[0], v[1]) for k, v in sizes.items()), key=lambda r: -r[1])
    return total, rows


def format_breakdown(bundle: Path) -> str:
    total, rows = breakdown(bundle)
    width = max(len(r[0]) for r in rows) if rows else 10
    lines = [f"bundle: {bundle}", f"{'component'.ljust(width)}  {'MB':>8}  {'files':>6}"]
    for name, size, files in rows:
        lines.append(f"{name.ljust(width)}  {size / 1e6:8.1f}  {files:6d}")
    lines.append(f"{'TOTAL (unpacked)'.ljust(width)}  {total / 1e6:8.1f}  {sum(r[2] for r in rows):6d}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    bundle = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "dist" / "veil-desktop"
    if not bundle.is_dir():
        print(f"no bundle at {bundle}; build it with packaging/build.py", file=sys.stderr)
        return 2
    print(format_breakdown(bundle))
    return 0


if __name__ == "__main__":
    sys.exit(main())
