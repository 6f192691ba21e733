"""Build step that puts the repository's top-level ``resources/`` folder into the wheel.

All metadata is in ``pyproject.toml``; this file only adds one thing setuptools cannot express there: the
data folder lives at the repository root (the design card lists ``resources/`` as a top-level folder), but an
installed package must carry it. ``build_py`` copies it into the built package as
``veil_desktop/_resources/`` (plus ``NOTICE`` and ``LICENSE`` as ``_resources/licenses/``), where
``veil_desktop.paths.resources_dir()`` finds it through ``importlib.resources``.

- Editable installs (``pip install -e``) copy nothing: the package then runs from the checkout and
  ``paths`` uses ``<repository>/resources`` directly.
- The sdist carries ``resources/``, ``NOTICE`` and ``LICENSE`` (``MANIFEST.in``), so a wheel built from the
  sdist is the same as one built from the checkout.
- ``build/lib/veil_desktop`` is emptied first, so a wheel built inside a checkout never carries a module
  that has since been deleted from the source tree (setuptools keeps ``build/`` between builds).
- What is copied: every file under ``resources/`` except hidden files, caches and anything executable or a
  training checkpoint (a model folder is data, never code — the same rule as the bundle's
  ``packaging/bundle_config.model_file_allowed``; ``tests/test_packaging.py`` checks the two agree on the
  shipped model).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py as _build_py

ROOT = Path(__file__).resolve().parent
PACKAGE = "veil_desktop"
TARGET = "_resources"
LICENCE_FILES = ("NOTICE", "LICENSE")
#: never shipped from resources/: code, native libraries, training checkpoints, caches
REFUSED_SUFFIXES = {".py", ".pyc", ".pyo", ".pyd", ".so", ".dll", ".dylib", ".exe", ".sh", ".bat", ".ps1",
                    ".safetensors", ".bin", ".pt", ".pth", ".ckpt", ".h5", ".msgpack", ".pkl", ".nbi", ".nbc"}


def resource_files(root: Path = ROOT) -> list[tuple[Path, str]]:
    """``(source file, path relative to veil_desktop/_resources)`` for everything the package carries."""
    res = root / "resources"
    out: list[tuple[Path, str]] = []
    for p in sorted(res.rglob("*")):
        rel = p.relative_to(res)
        if not p.is_file() or any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            continue
        if p.suffix.lower() in REFUSED_SUFFIXES:
            continue
        out.append((p, rel.as_posix()))
    for name in LICENCE_FILES:
        if (root / name).is_file():
            out.append((root / name, f"licenses/{name}"))
    return out


class build_py(_build_py):
    """``build_py`` + copy ``resources/`` (and the licence files) into ``veil_desktop/_resources/``."""

    def _resource_targets(self) -> list[tuple[Path, Path]]:
        if getattr(self, "editable_mode", False):
            return []  # editable: the package runs from the checkout and uses <repository>/resources
        base = Path(self.build_lib) / PACKAGE / TARGET
        return [(src, base / rel) for src, rel in resource_files()]

    def run(self) -> None:
        if not getattr(self, "editable_mode", False):
            # setuptools reuses <checkout>/build/lib between builds: a module deleted from the source tree
            # would otherwise live on in every later wheel built in the checkout. Start from nothing.
            stale = Path(self.build_lib) / PACKAGE
            if stale.is_dir():
                shutil.rmtree(stale)
        super().run()
        for src, dest in self._resource_targets():
            self.mkpath(str(dest.parent))
            self.copy_file(str(src), str(dest), preserve_mode=False)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return list(super().get_outputs(include_bytecode)) + [str(d) for _s, d in self._resource_targets()]


if __name__ == "__main__":  # setuptools runs this file as __main__; tests import resource_files() only
    setup(cmdclass={"build_py": build_py})
