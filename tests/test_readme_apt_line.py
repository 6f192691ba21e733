"""Issue 22: the README's one apt line for `make run` and `.ci/run`'s apt line name the same system
libraries and fonts (the README's list was checked on a bare Debian 12, see README), and every package the
start-up check (`ui/system_libs.py`) may ask for beyond a bare system's own libraries is in that line."""
from __future__ import annotations

import re
from pathlib import Path

from veil_desktop.ui import system_libs

ROOT = Path(__file__).resolve().parents[1]


def _packages(text: str) -> set[str]:
    text = text.replace("\\\n", " ")
    out: set[str] = set()
    for m in re.finditer(r"apt-get install -y[^\n]*", text):
        out |= {w for w in m[0].split() if re.fullmatch(r"(?:lib|fonts-)[a-z0-9.+-]+", w)}
    return out


def test_readme_and_ci_install_the_same_libraries():
    readme = _packages((ROOT / "README.md").read_text(encoding="utf-8").split("```sh", 2)[2].split("```")[0])
    ci = _packages((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    assert "libxcb-cursor0" in readme and "fonts-noto-cjk" in readme and len(readme) >= 18
    ci_only_for_tests = {"libc6-dev",                       # the C compiler's headers for `make test`
                         "libreoffice-writer-nogui"}        # the independent DOCX re-reader of the tests
    assert readme == ci - ci_only_for_tests


def test_the_start_up_check_asks_only_for_packages_of_the_readme_line():
    readme = _packages((ROOT / "README.md").read_text(encoding="utf-8").split("```sh", 2)[2].split("```")[0])
    # dependencies of the line's packages (installed with them on a bare Debian 12: debootstrap
    # --variant=minbase bookworm + the line, checked with dpkg -s)
    pulled_in = {"libx11-6", "libxcb1", "libxcb-render0", "libxcb-shm0", "libxcb-sync1", "libxcb-util1",
                 "libfreetype6"}
    # in the table for other Qt builds, not in this PySide6's ldd closure (not installed there either)
    not_linked = {"libsm6", "libice6", "libopengl0"}
    asked = set(system_libs.PACKAGES.values())
    assert asked - readme - pulled_in - not_linked == set(), asked - readme - pulled_in - not_linked
