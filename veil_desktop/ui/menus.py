"""Builds the window's ``QAction``s and menus from ``ui.actions.ACTIONS`` and keeps them up to date.

The handler of action ``x`` is ``window._on_x``; its text is ``tr("action.x")``; its enabled state follows
``ActionSpec.enabled_when`` through ``update(conditions)``. Also the small menus built on demand: the
"mark as" label menu, the recent-files menu and the document view's context menu.

Threading: GUI thread only.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from ..labels import display_name
from .actions import MENUS, focus_scoped, owned_by
from .i18n import tr, undo_description
from .span_panel import LABEL_CHOICES

#: the actions built here (the reviewer's tools build theirs: ``ui/review_tools.py``)
WINDOW_ACTIONS = owned_by("window")

#: the document view's context menu for a clicked item
ITEM_CONTEXT_ACTIONS = ("accept", "reject", "reset_pending", "accept_all_same", "reject_all_same",
                        "change_label", "adjust_to_selection")


class WindowActions:
    def __init__(self, window: QMainWindow, open_recent: Callable[[str], object]) -> None:
        self.window = window
        self._open_recent = open_recent
        self.actions_by_id: dict[str, QAction] = {}
        self.menus: dict[str, QMenu] = {}
        for name in MENUS:
            self.menus[name] = window.menuBar().addMenu("")
        self.recent_menu = QMenu(window)
        self.recent_menu.aboutToShow.connect(lambda: self.fill_recent(window.settings.recent_files, window.lang))
        for spec in WINDOW_ACTIONS:
            act = QAction(window)
            act.setShortcuts([QKeySequence(s) for s in spec.shortcuts])
            act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            act.triggered.connect(getattr(window, f"_on_{spec.id}"))
            menu = self.menus[spec.menu]
            if spec.separator_before:
                menu.addSeparator()
            menu.addAction(act)
            if spec.id == "open":
                self.recent_action = menu.addMenu(self.recent_menu)
            if focus_scoped(spec):
                # single keys only while the document or the table has focus (see ``scope_to``)
                act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            else:
                window.addAction(act)  # shortcuts work even when the menu bar is hidden
            self.actions_by_id[spec.id] = act

    def scope_to(self, *widgets) -> None:
        """Make the single-key actions (``actions.focus_scoped``) work while one of ``widgets`` has focus."""
        for spec in WINDOW_ACTIONS:
            if focus_scoped(spec):
                for w in widgets:
                    w.addAction(self.actions_by_id[spec.id])

    def retranslate(self, lang: str) -> None:
        for name, menu in self.menus.items():
            menu.setTitle(tr(f"menu.{name}", lang))
        self.recent_menu.setTitle(tr("menu.recent", lang))
        for spec in WINDOW_ACTIONS:
            act = self.actions_by_id[spec.id]
            act.setText(tr(f"action.{spec.id}", lang))
            if spec.shortcuts:
                act.setToolTip(f"{tr(f'action.{spec.id}', lang)} ({spec.shortcuts[0]})")

    def update(self, conditions: dict[str, bool], state, lang: str) -> None:
        """Enable each action per its ``enabled_when``; undo/redo texts name the step."""
        for spec in WINDOW_ACTIONS:
            self.actions_by_id[spec.id].setEnabled(conditions[spec.enabled_when])
        if state is not None:
            self.actions_by_id["undo"].setText(tr("action.undo", lang)
                                               + (f": {undo_description(state.undo_text(), lang)}"
                                                  if state.can_undo else ""))
            self.actions_by_id["redo"].setText(tr("action.redo", lang)
                                               + (f": {undo_description(state.redo_text(), lang)}"
                                                  if state.can_redo else ""))

    def label_menu(self, lang: str, mark: Callable[[str], object]) -> QMenu:
        menu = QMenu(self.window)
        menu.setTitle(tr("menu.mark_as", lang))
        for label in LABEL_CHOICES:
            act = menu.addAction(f"{display_name(label, lang)} ({label})")
            act.triggered.connect(lambda _=False, l=label: mark(l))
        return menu

    def fill_recent(self, recent_files, lang: str) -> None:
        self.recent_menu.clear()
        for p in recent_files:
            act = self.recent_menu.addAction(p)
            act.triggered.connect(lambda _=False, path=p: self._open_recent(path))
        if not recent_files:
            self.recent_menu.addAction(tr("menu.recent_empty", lang)).setEnabled(False)

    def view_context_menu(self, lang: str, has_item: bool, has_selection: bool, mark: Callable[[str], object],
                          copy: Callable[[], object]) -> QMenu:
        menu = QMenu(self.window)
        if has_item:
            for aid in ITEM_CONTEXT_ACTIONS:
                menu.addAction(self.actions_by_id[aid])
            menu.addSeparator()
        if has_selection:
            menu.addMenu(self.label_menu(lang, mark))
        act = menu.addAction(tr("action.copy", lang))
        act.triggered.connect(copy)
        act.setEnabled(has_selection)
        return menu

