"""Where things live: bundled resources (source tree, installed package or PyInstaller bundle) and the
user's writable directories. Nothing is ever written next to the executable or into resources.

``VEIL_DATA_DIR`` / ``VEIL_CONFIG_DIR`` override the user directories (tests, portable installs).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "veil-desktop"


def resources_dir() -> Path:
    """The ``resources/`` folder: ``sys._MEIPASS/resources`` when frozen, else the repository's."""
    override = os.environ.get("VEIL_RESOURCES_DIR")
    if override:
        return Path(override)
    if getattr(sys, "frozen", False) and hasattr(sys, "_MEIPASS"):
        return Path(sys._MEIPASS) / "resources"  # type: ignore[attr-defined]
    return Path(__file__).resolve().parent.parent / "resources"


def default_model_dir() -> Path:
    """The embedded compact model folder (same layout as the real veil model folder)."""
    return resources_dir() / "models" / "veil-compact-ko"


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
