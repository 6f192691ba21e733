"""The core never imports Qt: only ``veil_desktop/ui/`` may import PySide6 (checked on the AST, so a
conditional or function-local import is caught too)."""
import ast
from pathlib import Path

import veil_desktop

PACKAGE = Path(veil_desktop.__file__).resolve().parent
QT_MODULES = ("PySide6", "PyQt5", "PyQt6", "PySide2", "shiboken6", "qtpy")


def qt_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            names = [str(node.args[0].value)]
        found += [f"{path.relative_to(PACKAGE)}:{node.lineno} {n}" for n in names
                  if n.split(".")[0] in QT_MODULES]
    return found


def test_only_ui_imports_qt():
    offenders = []
    checked = 0
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "ui":
            continue
        checked += 1
        offenders += qt_imports(path)
    assert checked >= 10, "the scan found too few modules; is the package path right?"
    assert offenders == []


def test_scanner_detects_qt_imports():
    # the check above can only pass meaningfully if the scanner really sees these forms
    probe = PACKAGE / "ui" / "app.py"
    assert qt_imports(probe), "ui/app.py imports PySide6; the scanner must see it"
