"""Build the offline onedir bundle ``dist/veil-desktop/`` with PyInstaller.

    python packaging/build.py [--model DIR] [--viterbi aot|jit|numpy] [--clean]

``--viterbi`` (default ``aot``): the Viterbi kernel is compiled ahead of time with ``numba.pycc``
(``build_aot.py``; needs a C compiler here) and shipped as an extension module, so the bundle decodes with
numba-compiled code without carrying numba or llvmlite. ``jit`` bundles numba + llvmlite instead (+164 MB),
``numpy`` ships no numba code at all.

``--model DIR`` ships a veil model folder (e.g. the real ``veil-pii-ko-small-3`` downloaded on a connected
machine) inside the bundle as ``resources/models/<folder name>/``. A model folder is data, never code: only
config/tokenizer/ONNX/licence files are copied (``bundle_config.model_file_allowed``); ``.py`` files and
training checkpoints are refused and listed.

Prints the build time, what was pruned (also written to ``build/veil-desktop/pruned.txt``) and the size
breakdown of the result. Same command on Windows and Linux (run it with the project's venv Python).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import build_aot  # noqa: E402
import bundle_config as cfg  # noqa: E402
import bundle_report  # noqa: E402


def stage_model(src: Path, staging: Path) -> tuple[Path, list[str]]:
    """Copy the allowed files of model folder ``src`` into ``staging/<src.name>``; return (dest, refused)."""
    if not src.is_dir():
        raise SystemExit(f"--model: {src} is not a folder")
    if not (src / "config.json").is_file():
        raise SystemExit(f"--model: {src} has no config.json; expected a HF-layout model folder "
                         "(config.json, tokenizer.json, *.onnx)")
    try:
        json.loads((src / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"--model: {src}/config.json is not valid JSON: {exc}") from None
    dest = staging / src.name
    if dest.exists():
        shutil.rmtree(dest)
    refused: list[str] = []
    onnx = 0
    for p in sorted(src.rglob("*")):
        if not p.is_file():
            continue
        rel = PurePosixPath(p.relative_to(src).as_posix())
        if not cfg.model_file_allowed(rel):
            refused.append(str(rel))
            continue
        onnx += rel.suffix == ".onnx"
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, target)
    if not onnx:
        raise SystemExit(f"--model: no .onnx file in {src}; export the model to ONNX first")
    return dest, refused


def _is_elf(p: Path) -> bool:
    with open(p, "rb") as fh:
        return fh.read(4) == b"\x7fELF"


def strip_binaries(bundle: Path) -> tuple[int, int]:
    """``strip --strip-unneeded`` the ELF files under ``_internal/``; return (files stripped, bytes saved).

    Linux wheels ship unstripped libraries (libpython, tokenizers, llvmlite ...). Skipped: the executable
    (its archive is appended to the ELF image) and the auditwheel-patched ``*.libs/`` folders, which break
    when stripped ("ELF load command address/offset not page-aligned"). The self-test proves the result.
    """
    internal = bundle / "_internal"
    if not sys.platform.startswith("linux") or not shutil.which("strip") or not internal.is_dir():
        return 0, 0
    files = saved = 0
    for p in sorted(internal.rglob("*")):
        if p.is_symlink() or not p.is_file() or any(part.endswith(".libs") for part in p.parts):
            continue
        if not _is_elf(p):
            continue
        before = p.stat().st_size
        if subprocess.call(["strip", "--strip-unneeded", str(p)], stderr=subprocess.DEVNULL) != 0:
            print(f"strip: left {p.relative_to(bundle)} as it is (strip failed)")
            continue
        files += 1
        saved += before - p.stat().st_size
    return files, saved


def _group(reason: str) -> str:
    """Group per-plugin prune reasons by plugin folder for the summary."""
    if reason.startswith("Qt plugin"):
        folder = reason.split(" ")[-3] if reason.startswith("Qt plugin folder") else reason.split(" ")[2]
        return f"Qt plugins: {folder.split('/')[0]}/"
    return reason


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, help="a veil model folder to ship in resources/models/")
    ap.add_argument("--viterbi", choices=("aot", "jit", "numpy"), default="aot",
                    help="aot (default): numba kernel compiled ahead of time, no numba/llvmlite in the bundle; "
                         "jit: bundle numba + llvmlite (+164 MB); numpy: no numba code")
    ap.add_argument("--numba", action="store_const", const="jit", dest="viterbi", help="same as --viterbi jit")
    ap.add_argument("--clean", action="store_true", help="discard PyInstaller's cache (build/) first")
    ap.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (default: dist/)")
    ap.add_argument("--work", type=Path, default=ROOT / "build", help="work folder (default: build/)")
    args = ap.parse_args(argv)

    embedded = ROOT / "resources" / "models" / "veil-compact-ko"
    if not (embedded / "config.json").is_file():
        print(f"WARNING: the embedded default model is missing ({embedded}); the bundle will be built "
              "without it and its --self-test will FAIL", file=sys.stderr)

    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.pop("VEIL_BUNDLE_MODEL", None)
    if args.model:
        dest, refused = stage_model(args.model.resolve(), work / "model-staging")
        env["VEIL_BUNDLE_MODEL"] = str(dest)
        print(f"model: shipping {args.model} as resources/models/{dest.name}/")
        for r in refused:
            print(f"model: NOT copied (not model data): {r}")
    prune_log = work / "pruned.txt"
    env["VEIL_BUNDLE_PRUNE_LOG"] = str(prune_log)
    env["VEIL_BUNDLE_VITERBI"] = args.viterbi
    env["VEIL_BUNDLE_THIRD_PARTY"] = str(work / "THIRD-PARTY-LICENSES.txt")
    env.pop("VEIL_BUNDLE_AOT", None)
    aot_s = 0.0
    if args.viterbi == "aot":
        t = time.perf_counter()
        module = build_aot.build(work / "aot")
        build_aot.verify(module)
        aot_s = time.perf_counter() - t
        print(f"viterbi: numba-aot module {module.name} ({module.stat().st_size / 1e3:.0f} kB) in {aot_s:.0f} s")
        env["VEIL_BUNDLE_AOT"] = str(module)

    cmd = [sys.executable, "-m", "PyInstaller", str(HERE / "veil-desktop.spec"), "--noconfirm",
           "--log-level", "WARN", "--distpath", str(args.dist.resolve()), "--workpath", str(work)]
    if args.clean:
        cmd.append("--clean")
    print("running:", " ".join(cmd), flush=True)
    t = time.perf_counter()
    rc = subprocess.call(cmd, cwd=ROOT, env=env)
    build_s = time.perf_counter() - t + aot_s
    if rc != 0:
        print(f"PyInstaller failed (exit {rc}) after {build_s:.0f} s", file=sys.stderr)
        return rc
    bundle = args.dist.resolve() / cfg.APP_NAME
    t = time.perf_counter()
    n_stripped, stripped_bytes = strip_binaries(bundle)
    build_s += time.perf_counter() - t
    pruned = prune_log.read_text(encoding="utf-8").splitlines() if prune_log.is_file() else []
    reasons: dict[str, list[int]] = {}
    for line in pruned:
        _dest, size, reason = line.split("\t", 2)
        acc = reasons.setdefault(_group(reason), [0, 0])
        acc[0] += 1
        acc[1] += int(size)
    print(f"\nbuild time: {build_s:.0f} s ({os.cpu_count()} CPUs; {sys.executable})")
    print(f"pruned {len(pruned)} entries, {sum(v[1] for v in reasons.values()) / 1e6:.1f} MB, after analysis "
          f"(full list: {prune_log}):")
    for reason, (n, size) in sorted(reasons.items(), key=lambda kv: -kv[1][1]):
        print(f"  {size / 1e6:7.1f} MB  {n:4d} files  {reason}")
    if n_stripped:
        print(f"stripped {n_stripped} native libraries: -{stripped_bytes / 1e6:.1f} MB")
    print()
    print(bundle_report.format_breakdown(bundle))
    exe = bundle / (cfg.APP_NAME + (".exe" if sys.platform == "win32" else ""))
    print(f"\nexecutable: {exe}\nverify:     QT_QPA_PLATFORM=offscreen unshare -n {exe} --self-test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
