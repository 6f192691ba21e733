"""Where things live: bundled resources (source tree, installed package or PyInstaller bundle) and the
user's writable directories. Nothing is ever written next to the executable or into resources.

The repository keeps its data in the top-level ``resources/`` folder. Each way of running the app finds it
in a different place; :func:`resources_dir` tries, in order:

1. ``VEIL_RESOURCES_DIR`` (tests, unusual installs);
2. frozen (PyInstaller): ``sys._MEIPASS/resources`` (the spec's ``datas``);
3. installed wheel: the package data folder ``veil_desktop/_resources`` (``setup.py``'s build step copies
   ``resources/`` there, with ``NOTICE``/``LICENSE`` in ``_resources/licenses/``), found through
   ``importlib.resources``;
4. source checkout / editable install: ``<repository>/resources`` (the folder above the package).

``VEIL_DATA_DIR`` / ``VEIL_CONFIG_DIR`` override the user directories (tests, portable installs).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "veil-desktop"
#: package-data folder of an installed wheel (``veil_desktop/_resources``)
PACKAGE_RESOURCES = "_resources"
#: the embedded default model, relative to the resources folder
EMBEDDED_MODEL = "models/veil-compact-ko"
#: licence files shipped at the repository root; in a wheel or bundle they are in ``<resources>/licenses/``
LICENCE_FILES = ("NOTICE", "LICENSE")
#: written by the bundle build only (packaging/third_party.py): licences of the bundled Python packages
THIRD_PARTY_FILE = "THIRD-PARTY-LICENSES.txt"


def _package_resources() -> Path | None:
    """``veil_desktop/_resources`` of an installed wheel, or None (checkout, editable install)."""
    try:
        from importlib.resources import files

        p = Path(str(files(__package__ or "veil_desktop") / PACKAGE_RESOURCES))
    except (ImportError, TypeError, ValueError):
        return None
    return p if p.is_dir() else None


def _checkout_resources() -> Path:
    return Path(__file__).resolve().parent.parent / "resources"


def resources_dir() -> Path:
    """The resources folder for this way of running the app (see the module docstring)."""
    override = os.environ.get("VEIL_RESOURCES_DIR")
    if override:
        return Path(override)
    if getattr(sys, "frozen", False) and hasattr(sys, "_MEIPASS"):
        return Path(sys._MEIPASS) / "resources"  # type: ignore[attr-defined]
    installed = _package_resources()
    if installed is not None:
        return installed
    return _checkout_resources()


def licence_files() -> list[Path]:
    """The licence texts to show in the About box, in order: NOTICE, LICENSE, the font's OFL.txt, and in the
    bundle ``THIRD-PARTY-LICENSES.txt`` (a wheel's dependencies carry their own).

    Wheel and bundle: ``<resources>/licenses/NOTICE`` etc.; checkout: the repository root. Only existing
    files are returned (a test checks that the first three exist in every layout)."""
    res = resources_dir()
    out: list[Path] = []
    for name in LICENCE_FILES:
        for cand in (res / "licenses" / name, res.parent / name):
            if cand.is_file():
                out.append(cand)
                break
    ofl = res / "fonts" / "OFL.txt"
    if ofl.is_file():
        out.append(ofl)
    third = res / "licenses" / THIRD_PARTY_FILE
    if third.is_file():
        out.append(third)
    return out


def default_model_dir() -> Path:
    """The embedded compact model folder (same layout as the real veil model folder)."""
    return resources_dir() / EMBEDDED_MODEL


def _user_dir(env: str, kind: str) -> Path:
    override = os.environ.get(env)
    if override:
        p = Path(override)
    else:
        import platformdirs

        p = Path(getattr(platformdirs, f"user_{kind}_dir")(APP_NAME, appauthor=False))
    return p


def user_data_dir(create: bool = True) -> Path:
    p = _user_dir("VEIL_DATA_DIR", "data")
    if create:
        p.mkdir(parents=True, exist_ok=True)
    return p


def user_config_dir(create: bool = True) -> Path:
    p = _user_dir("VEIL_CONFIG_DIR", "config")
    if create:
        p.mkdir(parents=True, exist_ok=True)
    return p


def user_cache_dir(create: bool = True) -> Path:
    p = user_data_dir(create) / "cache"
    if create:
        p.mkdir(parents=True, exist_ok=True)
    return p


def same_path(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name the same file (resolved, or the same inode when both exist); an
    unreadable path compares unequal."""
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False
