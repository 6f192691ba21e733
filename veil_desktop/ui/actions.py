"""Every user command of the window, declared once as data: id, shortcuts, menu, when it is enabled and
who handles it. This table is the one source of truth for the window's shortcuts.

``owner="window"``: ``ui/menus.py`` builds the ``QAction`` (handler ``MainWindow._on_x``) and one
``update_actions()`` keeps the enabled state in sync with ``enabled_when``. ``owner="tools"``:
``ui/review_tools.py`` builds it (handler ``ReviewTools._on_x``). Either way the text is
``tr("action.x")``, and the F1 cheat sheet (``ui/dialogs.py``) lists every spec with shortcuts.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ActionSpec:
    id: str
    shortcuts: tuple[str, ...] = ()
    menu: str = "review"
    #: "" always; "doc" a document is open; "item" an item is current; "selection" text is selected;
    #: "undo"/"redo" history available; "detecting" a detection job is running
    enabled_when: str = ""
    separator_before: bool = False
    #: who builds the QAction and handles it: "window" (ui/menus.py), "tools" (ui/review_tools.py) or
    #: "disclosure" (ui/tools/disclosure.py)
    owner: str = "window"


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("open", ("Ctrl+O",), "file"),
    ActionSpec("open_files", ("Ctrl+Alt+O",), "file", owner="tools"),
    ActionSpec("open_folder", ("Ctrl+Shift+O",), "file", owner="tools"),
    ActionSpec("export", ("Ctrl+E",), "file", "doc"),
    ActionSpec("export_all", ("Ctrl+Shift+E",), "file", owner="tools"),
    ActionSpec("next_doc", ("Ctrl+PgDown",), "file", owner="tools"),
    ActionSpec("prev_doc", ("Ctrl+PgUp",), "file", owner="tools"),
    ActionSpec("settings", ("Ctrl+,",), "file", separator_before=True),
    ActionSpec("quit", ("Ctrl+Q",), "file", separator_before=True),
    ActionSpec("undo", ("Ctrl+Z",), "edit", "undo"),
    ActionSpec("redo", ("Ctrl+Shift+Z", "Ctrl+Y"), "edit", "redo"),
    ActionSpec("find", ("Ctrl+F",), "edit", owner="tools"),
    ActionSpec("next_pending", ("J", "N"), "review", "doc"),
    ActionSpec("prev_pending", ("K", "P"), "review", "doc"),
    ActionSpec("accept", ("A", "Return", "Enter"), "review", "item", separator_before=True),
    ActionSpec("reject", ("R", "Delete"), "review", "item"),
    ActionSpec("reset_pending", ("U",), "review", "item"),
    ActionSpec("accept_all_same", ("Shift+A",), "review", "item", separator_before=True),
    ActionSpec("reject_all_same", ("Shift+R",), "review", "item"),
    ActionSpec("accept_above", ("Ctrl+Shift+A",), "review", "doc"),
    ActionSpec("mark", ("M",), "review", "selection", separator_before=True),
    ActionSpec("mark_person", ("Alt+1",), "review", "selection"),
    ActionSpec("mark_address", ("Alt+2",), "review", "selection"),
    ActionSpec("mark_organization", ("Alt+3",), "review", "selection"),
    ActionSpec("change_label", ("L",), "review", "item", separator_before=True),
    ActionSpec("adjust_to_selection", ("B",), "review", "item"),
    ActionSpec("grow_end", ("Alt+Right",), "review", "item"),
    ActionSpec("shrink_end", ("Alt+Left",), "review", "item"),
    ActionSpec("grow_start", ("Alt+Shift+Left",), "review", "item"),
    ActionSpec("shrink_start", ("Alt+Shift+Right",), "review", "item"),
    ActionSpec("terms", (), "review", owner="tools"),
    ActionSpec("pdf_pages", ("F6",), "review", owner="tools"),
    # the page view's zoom (ui/pdf_view.py; handled in ui/tools/pages.py); Ctrl+wheel zooms there too
    ActionSpec("zoom_in", ("Ctrl+=", "Ctrl++"), "review", owner="tools"),
    ActionSpec("zoom_out", ("Ctrl+-",), "review", owner="tools"),
    ActionSpec("zoom_fit", ("Ctrl+0",), "review", owner="tools"),
    # the disclosure workflow (issue 24): ui/tools/disclosure.py builds and handles these
    ActionSpec("set_reason", ("G",), "review", owner="disclosure"),
    ActionSpec("duplicates", (), "review", owner="disclosure"),
    ActionSpec("export_review", (), "file", owner="disclosure"),
    ActionSpec("import_review", (), "file", owner="disclosure"),
    ActionSpec("merge_review", (), "file", owner="disclosure"),
    ActionSpec("export_xfdf", (), "file", owner="disclosure"),
    ActionSpec("import_xfdf", (), "file", owner="disclosure"),
    ActionSpec("run_detection", ("F5",), "detect", "doc"),
    ActionSpec("cancel_detection", ("Esc",), "detect", "detecting"),
    ActionSpec("shortcuts", ("F1",), "help"),
    ActionSpec("about", (), "help"),
)

def owned_by(owner: str) -> tuple[ActionSpec, ...]:
    return tuple(s for s in ACTIONS if s.owner == owner)


MENUS = ("file", "edit", "review", "detect", "help")

_MODIFIERS = ("Ctrl+", "Alt+", "Meta+")


def focus_scoped(spec: ActionSpec) -> bool:
    """Single-key shortcuts (``A``, ``Shift+R``, ``Return``, ``Delete`` …) act only while the document or
    the table has focus: typed into the label filter or a text field they must not decide an item."""
    return bool(spec.shortcuts) and all(
        not any(m in s for m in _MODIFIERS) and not (s.startswith("F") and s[1:].isdigit()) and s != "Esc"
        for s in spec.shortcuts)
