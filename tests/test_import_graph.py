"""The house's floors (issue 21): every import of the product — module-level AND function-local — goes
down a floor (or stays on its own), and no two units import each other, directly or in a loop.

Units: a top-level package (``detect``, ``documents``, ``review``, ``ui``, ``cluster``; its sub-packages
count as the package) or a top-level module (``cli``, ``masking``, ...). The floors are the architecture
of docs/ARCHITECTURE.md; a new unit must be given a floor here, so this test fails until it is placed.
Read from the source with ``ast`` (nothing is imported)."""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "veil_desktop"

#: floor of each unit, ground first; an import must go to a floor <= its own
FLOORS = {
    "__init__": 0, "_resources": 0,
    "paths": 1, "labels": 1,
    "detect": 2,
    "masking": 3, "datasets": 3,
    "documents": 4, "evaluate": 4,
    "review": 5,
    "batch": 6,
    "cluster": 7,
    "redact_cli": 8,
    "cli": 9,
    "ui": 10,
    "selftest": 11,
    "launcher": 12, "__main__": 13,
}


def _unit(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and ((ROOT / parts[1]).is_dir() or (ROOT / f"{parts[1]}.py").is_file()):
        return parts[1]
    return "__init__"          # the package itself, or a name it defines (``__version__``)


def _imports():
    """``(from_unit, to_unit, file, line)`` for every import of a product module."""
    out = []
    for f in sorted(ROOT.rglob("*.py")):
        if "_resources" in f.parts:
            continue
        rel = f.relative_to(ROOT.parent).with_suffix("")
        module = ".".join(rel.parts)
        package = module[: -len(".__init__")] if module.endswith(".__init__") else module.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(f.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                targets = ([target] if node.module else [f"{target}.{a.name}" for a in node.names])
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for t in targets:
                if t == "veil_desktop" or t.startswith("veil_desktop."):
                    out.append((_unit(module), _unit(t), str(f.relative_to(ROOT)), node.lineno))
    return out


def test_every_unit_has_a_floor():
    units = {p.stem if p.is_file() else p.name for p in ROOT.iterdir()
             if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))}
    assert units - set(FLOORS) == set(), "give the new unit a floor in FLOORS (and in docs/ARCHITECTURE.md)"


def test_no_import_runs_back_up():
    up = [f"{f}:{line}: {a} (floor {FLOORS[a]}) imports {b} (floor {FLOORS[b]})"
          for a, b, f, line in _imports() if a != b and FLOORS.get(b, 99) > FLOORS.get(a, -1)]
    assert up == []


def test_no_two_units_import_each_other():
    graph = defaultdict(set)
    for a, b, _f, _l in _imports():
        if a != b:
            graph[a].add(b)

    def reaches(start, goal):
        seen, todo = set(), [start]
        while todo:
            n = todo.pop()
            for m in graph[n]:
                if m == goal:
                    return True
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return False

    assert sorted((a, b) for a in list(graph) for b in graph[a] if reaches(b, a)) == []


def test_the_core_imports_nothing_above_review():
    """detect, documents and review never reach the CLI, the cluster runner or the window, not even from
    inside a function (the hidden documents -> review and ui <-> selftest loops of issue 21)."""
    core = {"detect", "masking", "documents", "review", "labels", "paths"}
    above = {"batch", "cluster", "redact_cli", "cli", "ui", "selftest", "launcher", "__main__"}
    assert [(a, b, f, line) for a, b, f, line in _imports() if a in core and b in above] == []
