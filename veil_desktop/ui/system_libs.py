"""Start-up check for the Qt platform plugin's system libraries (no Qt import).

Under X11 (``xcb``) Qt aborts with a generic "xcb-cursor0 or libxcb-cursor0 is needed" even when that one
is installed and another library is missing. ``missing_platform_libraries()`` runs ``ldd`` on the
PySide6 ``xcb`` plugin and its ``libQt6XcbQpa`` and returns the Debian/Ubuntu packages of every library
``ldd`` cannot find; ``startup_message()`` turns them into the message ``veil-desktop`` prints before it
creates the application (``ui/app.main``). Offline: ``ldd`` only; nothing is installed.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: library file -> Debian/Ubuntu package (the ones Qt's xcb platform needs beyond a bare system)
PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-shape.so.0": "libxcb-shape0", "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1", "libxcb-sync.so.1": "libxcb-sync1", "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-render.so.0": "libxcb-render0", "libxcb-util.so.1": "libxcb-util1", "libxcb.so.1": "libxcb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0", "libxkbcommon.so.0": "libxkbcommon0",
    "libX11-xcb.so.1": "libx11-xcb1", "libX11.so.6": "libx11-6", "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1", "libOpenGL.so.0": "libopengl0", "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6", "libdbus-1.so.3": "libdbus-1-3", "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0", "libSM.so.6": "libsm6", "libICE.so.6": "libice6",
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.M)


def platform_plugin_files() -> list[Path]:
    try:
        import PySide6
    except ImportError:
        return []
    qt = Path(PySide6.__file__).parent / "Qt"
    return [p for p in (qt / "plugins" / "platforms" / "libqxcb.so", qt / "lib" / "libQt6XcbQpa.so.6")
            if p.is_file()]


def missing_libraries(files: list[Path]) -> list[str]:
    """Library names ``ldd`` reports as ``not found`` for ``files`` (sorted, unique)."""
    ldd = shutil.which("ldd")
    if ldd is None or not files:
        return []
    out = set()
    for f in files:
        try:
            res = subprocess.run([ldd, str(f)], capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.SubprocessError):
            continue
        out.update(_NOT_FOUND.findall(res.stdout))
    return sorted(out)


def packages_for(libs: list[str]) -> list[str]:
    return sorted(dict.fromkeys(PACKAGES.get(lib, lib) for lib in libs))


def wants_xcb(env=os.environ) -> bool:
    """Qt will load the xcb plugin: Linux, no other platform asked for, an X display (and no Wayland one)."""
    if not sys.platform.startswith("linux"):
        return False
    platform = env.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.split(":")[0] == "xcb"
    return bool(env.get("DISPLAY")) and not env.get("WAYLAND_DISPLAY")


def startup_message(lang: str = "ko", *, files: list[Path] | None = None, env=os.environ) -> str:
    """The message naming the missing libraries and the apt line, or "" when nothing is missing."""
    if files is None and not wants_xcb(env):
        return ""
    libs = missing_libraries(platform_plugin_files() if files is None else files)
    if not libs:
        return ""
    from .i18n import tr

    pkgs = packages_for(libs)
    return tr("startup.missing_libs", lang).format(libs=", ".join(libs), apt="sudo apt-get install -y " + " ".join(pkgs))
