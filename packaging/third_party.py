"""``THIRD-PARTY-LICENSES.txt`` for the offline bundle: the licences of the Python packages it carries.

A wheel install gets each dependency's licence from that dependency's own wheel; a PyInstaller bundle does
not (it copies no ``.dist-info``), so ``build.py`` writes this file and the spec ships it as
``resources/licenses/THIRD-PARTY-LICENSES.txt`` (the About box shows it as a fourth tab).

Contents: the run-time requirement closure of ``pyproject.toml``'s ``[project] dependencies`` as installed
in the build environment (extras and non-matching environment markers left out), restricted to the
distributions whose top-level modules the bundle really contains (the spec passes the names it collected:
numba/llvmlite drop out of the AOT build, tokenizers' optional hub client is not collected), each with its version, the licence its
metadata declares (``License-Expression``, ``License`` or the trove classifiers) and the full text of every
licence/notice file the distribution installs (``.dist-info/licenses/*``, ``LICENSE*``, ``COPYING*``,
``NOTICE*``, ``ThirdPartyNotices*``), then Python's own licence when the interpreter ships it. Several
wheels (PySide6, shiboken6, tokenizers) carry no licence file at all: for those only the declared licence
is listed, which the file says.
"""
from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE_NAME = "THIRD-PARTY-LICENSES.txt"
_LICENCE_FILE = re.compile(r"^(licen[cs]e|copying|notice|thirdpartynotices|authors)", re.IGNORECASE)
_MAX_FILE = 512 * 1024
#: standard licence texts for wheels that declare a licence but ship no text (PySide6/shiboken6: LGPL-3.0,
#: which is a set of additional permissions on top of the GPL-3.0; tokenizers/flatbuffers: Apache-2.0)
_STANDARD_TEXTS = (("LGPL-3.0", (Path(__file__).resolve().parent / "licences" / "LGPL-3.0.txt",
                                 Path(__file__).resolve().parent / "licences" / "GPL-3.0.txt")),
                   ("Apache", (ROOT / "LICENSE",)))


def _name(req: str) -> str:
    return re.split(r"[\s<>=!~;\[(]", req.strip(), maxsplit=1)[0]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _applies(req: str) -> bool:
    """False for requirements behind an extra or an environment marker that does not hold here."""
    if ";" not in req:
        return True
    marker = req.split(";", 1)[1]
    if "extra" in marker:
        return False
    try:
        from packaging.markers import Marker

        return Marker(marker).evaluate()
    except Exception:  # noqa: BLE001 - no `packaging` or an odd marker: keep the requirement (list too much)
        return True


def project_requirements(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    import tomllib

    return list(tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"])


def top_level_names(dist: metadata.Distribution) -> set[str]:
    """Import names a distribution installs (``top_level.txt``, else the first part of its file paths)."""
    text = dist.read_text("top_level.txt")
    if text:
        return {ln.strip() for ln in text.splitlines() if ln.strip()}
    names = set()
    for f in dist.files or []:
        first = f.parts[0] if f.parts else ""
        if first and not first.endswith((".dist-info", ".data")) and first not in ("..", "bin", "share"):
            names.add(first.split(".")[0] if f.suffix in (".py", ".so", ".pyd") and len(f.parts) == 1 else first)
    return names


def closure(requirements: list[str], exclude: set[str] = frozenset(),
            shipped: set[str] | None = None) -> list[metadata.Distribution]:
    """Installed distributions reachable from ``requirements`` (run-time only), sorted by name; with
    ``shipped`` (top-level names present in the bundle) only those that put something into the bundle."""
    excluded = {_norm(e) for e in exclude}
    seen: dict[str, metadata.Distribution] = {}
    todo = [r for r in requirements if _applies(r)]
    while todo:
        name = _norm(_name(todo.pop()))
        if name in seen or name in excluded:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen[name] = dist
        todo += [r for r in (dist.requires or []) if _applies(r)]
    keep = [seen[k] for k in sorted(seen)]
    if shipped is not None:
        keep = [d for d in keep if top_level_names(d) & shipped]
    return keep


def declared_licence(dist: metadata.Distribution) -> str:
    m = dist.metadata
    expr = m.get("License-Expression")
    if expr:
        return expr
    text = (m.get("License") or "").strip()
    if text and len(text) < 200 and "\n" not in text:
        return text
    classifiers = [c.split("::")[-1].strip() for c in (m.get_all("Classifier") or []) if c.startswith("License")]
    return ", ".join(classifiers) or ("see the licence text below" if text else "not declared")


def licence_files(dist: metadata.Distribution) -> list[Path]:
    out = []
    for f in dist.files or []:
        parts = f.parts
        in_licenses = any(p.endswith(".dist-info") for p in parts) and "licenses" in parts
        if (in_licenses or _LICENCE_FILE.match(f.name)) and len(parts) <= 6 and not f.name.endswith((".py", ".pyc")):
            p = Path(str(f.locate()))
            if p.is_file() and p.stat().st_size <= _MAX_FILE:
                out.append(p)
    return sorted(set(out))


def standard_texts(dist: metadata.Distribution) -> list[Path]:
    """Standard licence texts for a distribution that ships none (empty when it ships its own)."""
    if licence_files(dist):
        return []
    declared = declared_licence(dist)
    for key, texts in _STANDARD_TEXTS:
        if key in declared:
            return [p for p in texts if p.is_file()]
    return []


def render(dists: list[metadata.Distribution]) -> str:
    rule = "=" * 100
    lines = ["Third-party software in the veil-desktop offline bundle", "",
             "Python packages (name, version, declared licence) and the licence texts they ship; packages",
             "marked 'no licence file in the wheel' ship none: their declared licence applies, and its",
             "standard text follows (LGPL-3.0 with the GPL-3.0 it amends; Apache-2.0).", ""]
    for d in dists:
        files = licence_files(d)
        note = "" if files else "   (no licence file in the wheel)"
        lines.append(f"  {d.metadata['Name']} {d.version}: {declared_licence(d)}{note}")
    py_licence = Path(sys.base_prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "LICENSE.txt"
    if not py_licence.is_file():
        py_licence = Path(sys.base_prefix) / "LICENSE.txt"  # Windows python.org layout
    lines.append(f"  Python {sys.version.split()[0]}: PSF-2.0" + ("" if py_licence.is_file() else "   (licence text not found)"))
    for d in dists:
        for p in licence_files(d):
            lines += ["", rule, f"{d.metadata['Name']} {d.version}: {p.name}", rule, "",
                      p.read_text(encoding="utf-8", errors="replace").rstrip()]
    standard: dict[Path, list[str]] = {}
    for d in dists:
        for p in standard_texts(d):
            standard.setdefault(p, []).append(f"{d.metadata['Name']} {d.version}")
    for p, users in standard.items():
        title = p.stem if p.parent.name == "licences" else "Apache-2.0"
        lines += ["", rule, f"{title} (standard text) — applies to: {', '.join(users)}", rule, "",
                  p.read_text(encoding="utf-8", errors="replace").rstrip()]
    if py_licence.is_file():
        lines += ["", rule, f"Python {sys.version.split()[0]}: LICENSE.txt", rule, "",
                  py_licence.read_text(encoding="utf-8", errors="replace").rstrip()]
    return "\n".join(lines) + "\n"


def write(path: Path, exclude: set[str] = frozenset(), shipped: set[str] | None = None) -> Path:
    dists = closure(project_requirements(), exclude, shipped)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(dists), encoding="utf-8")
    return path


if __name__ == "__main__":
    out = write(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "build" / FILE_NAME)
    print(out, f"{out.stat().st_size / 1e3:.0f} kB")
