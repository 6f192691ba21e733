"""One UI catalogue (``veil_desktop/ui/i18n.py``): every key the UI code asks for by a literal name is in it,
in both languages, and no other module patches its table (the reviewer's tools used to, from a second
module ``i18n_tools.py``, merged into it)."""
from __future__ import annotations

import ast
from pathlib import Path

from veil_desktop.ui import i18n

UI = Path(i18n.__file__).parent


def _literal_keys(source: str) -> list[str]:
    """The keys of every ``tr("key", ...)`` / ``i18n.tr("key")`` call whose key is one string literal
    (``tr("caption." + key)`` is not; docstrings are not calls)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == "tr") or (isinstance(f, ast.Attribute) and f.attr == "tr"):
                out.append(node.args[0].value)
    return out


def test_every_literal_tr_key_of_the_ui_is_in_the_one_catalogue():
    used: dict[str, str] = {}
    for path in sorted(UI.glob("*.py")):
        for key in _literal_keys(path.read_text(encoding="utf-8")):
            used.setdefault(key, path.name)
    assert len(used) > 100                               # the scan really reads the UI's calls (152 now)
    missing = {k: f for k, f in used.items() if k not in i18n.keys()}
    assert missing == {}
    for key in used:
        ko, en = i18n.tr(key, "ko"), i18n.tr(key, "en")
        assert ko and en and ko != key and en != key


def test_the_tools_strings_live_in_the_catalogue_itself():
    assert not (UI / "i18n_tools.py").exists()
    patched = [p.name for p in UI.glob("*.py") if p.name != "i18n.py" and "_CATALOGUE" in p.read_text("utf-8")]
    assert patched == []
    # a few of the tools' strings (find bar, term lists, workspace, page view), both languages
    assert i18n.tr("find.placeholder", "ko") == "찾을 텍스트 또는 정규식"
    assert i18n.tr("find.placeholder", "en") == "Text or regular expression to find"
    assert (i18n.tr("action.terms", "ko"), i18n.tr("action.terms", "en")) == ("용어 목록…", "Term lists…")
    assert (i18n.tr("ws.problems", "ko"), i18n.tr("ws.problems", "en")) == ("추가하지 못한 항목:", "Not added:")
    assert i18n.tr("pdf.page_n", "en").format(i=2, n=5) == "Page 2 of 5"
