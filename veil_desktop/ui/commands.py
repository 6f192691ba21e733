"""What the reviewer can do in the window: navigation, decisions, marking, and the action slots.

``WindowCommands`` is a mixin of ``MainWindow`` (``ui/main_window.py``): the handler of action ``x``
(``ui/actions.py``) is ``_on_x``, defined here, with the current item (``current_item``, ``select_item``).
The methods work on the ``ReviewSession``'s state (``self.review.state`` shows ``review.state``), the window's
``view`` and ``panel`` (the window attributes used are declared below); every change goes through the
state, whose listeners update the table, highlights, status bar and autosave.

Threading: GUI thread only.
"""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QFileDialog, QInputDialog

from ..review.review_session import ReviewSession
from ..review.settings import AppSettings
from ..review.state import ReviewItem, Status
from .bulk import BulkActions
from .document_view import DocumentView
from .export_flow import ExportFlow
from .highlighter import SpanHighlighter
from .i18n import tr
from .menus import WindowActions
from .settings_store import SettingsStore
from .span_panel import SpanPanel


class WindowCommands:
    """Mixin for ``MainWindow``; see the module docstring."""

    review: ReviewSession
    settings: AppSettings
    _store: SettingsStore
    lang: str
    view: DocumentView
    panel: SpanPanel
    menu: WindowActions
    bulk: BulkActions
    exporter: ExportFlow
    highlighter: SpanHighlighter | None
    _current_id: int | None

    # -- the current item ------------------------------------------------------------------------------
    def current_item(self) -> ReviewItem | None:
        if self.review.state is None or self._current_id is None or self._current_id not in self.review.state:
            return None
        return self.review.state.item(self._current_id)

    def select_item(self, item_id: int | None, *, scroll_view: bool = True) -> None:
        """Make ``item_id`` current: select its table row and outline it in the document."""
        self._current_id = item_id
        item = self.current_item()
        if item is not None:
            self.panel.select_item(item.id)
        self.view.show_current(item, scroll=scroll_view)
        self.update_actions()

    def _on_table_current(self, item_id: int) -> None:
        if item_id != self._current_id:
            self._current_id = item_id
            self.view.show_current(self.current_item())
            self.update_actions()

    def selected_ids(self) -> list[int]:
        """Items selected in the table, or the current item."""
        ids = self.panel.selected_ids()
        if not ids and self._current_id is not None and self.current_item() is not None:
            ids = [self._current_id]
        return ids

    # -- navigation ------------------------------------------------------------------------------------
    def _go_pending(self, forward: bool) -> None:
        if self.review.state is None:
            return
        cur = self.current_item()
        pos = cur.start if cur else (self.view.cursor_offset() if forward else self.view.cursor_offset() + 1)
        if cur is None and forward:
            pos -= 1
        nxt = self.review.state.next_pending(pos, forward=forward, exclude=cur.id if cur else None)
        if nxt is not None:
            # next_pending wraps around: say so, or the reviewer thinks the list goes on
            if cur is not None and (nxt.start < cur.start if forward else nxt.start > cur.start):
                self.statusBar().showMessage(tr("status.wrapped_end" if forward else "status.wrapped_start",
                                                self.lang), 4000)
            self.select_item(nxt.id)
        elif cur is not None:
            self.statusBar().showMessage(tr("status.all_reviewed", self.lang), 4000)

    # -- decisions -------------------------------------------------------------------------------------
    def decide(self, status: Status, *, propagate: bool = False, advance: bool = True) -> None:
        if self.review.state is None:
            return
        ids = self.selected_ids()
        if not ids:
            return
        anchor = self.current_item()
        self.review.state.set_status(ids, status, propagate=propagate)
        if advance and anchor is not None:
            nxt = self.review.state.next_pending(anchor.start, exclude=anchor.id)
            self.select_item(nxt.id if nxt else anchor.id)
        else:
            self.select_item(self._current_id, scroll_view=False)

    def accept_above(self, score: float) -> int:
        if self.review.state is None:
            return 0
        cmd = self.review.state.accept_above(score)
        return len(cmd.changes) if cmd else 0

    def mark_selection(self, label: str) -> ReviewItem | None:
        rng = self.view.selection_range() if self.review.state is not None else None
        if rng is None:
            return None
        try:
            item = self.review.state.add_manual(rng[0], rng[1], label)
        except ValueError as exc:
            self.show_error(_message(exc, self.lang))
            return None
        self.select_item(item.id, scroll_view=False)
        return item

    def adjust_current(self, start: int, end: int) -> None:
        item = self.current_item()
        if item is None or self.review.state is None:
            return
        try:
            self.review.state.adjust(item.id, start, end)
        except ValueError as exc:
            self.statusBar().showMessage(_message(exc, self.lang), 5000)
            return
        self.select_item(item.id, scroll_view=False)

    def _nudge(self, d_start: int, d_end: int) -> None:
        item = self.current_item()
        if item is not None:
            self.adjust_current(item.start + d_start, item.end + d_end)

    # -- action slots (``_on_<action id>``) -------------------------------------------------------------
    def _on_open(self) -> None:
        from .dialogs import open_filters

        here = self.review.path
        path, _ = QFileDialog.getOpenFileName(self, tr("action.open", self.lang), str(here.parent if here else ""),
                                              open_filters(self.lang))
        if path:
            self.open_path(path)

    def _on_export(self) -> None:
        from .dialogs import ExportDialog

        if self.review.state is None:
            return
        dlg = ExportDialog(self, self.review.state, self.settings, self.review.path, self.review.document, self.lang)
        if dlg.exec():
            # masking styles are a preference that carries over; the pending policy never does (every
            # export dialog starts at BLOCK). Next: the summary, where the reviewer decides (export_flow.py)
            self.settings = replace(self.settings, styles=dlg.styles(), default_style=dlg.default_style(),
                                    **dlg.disclosure.values())   # reason in the output, redaction log
            self._store.save(self.settings)
            self.exporter.review_and_export(dlg.out_path(), styles=dlg.styles(), default_style=dlg.default_style(),
                                            policy=dlg.policy(), tag_lang=dlg.tag_lang())

    def _on_settings(self) -> None:
        from .dialogs import SettingsDialog

        dlg = SettingsDialog(self, self.settings, self.lang)
        if dlg.exec():
            self.apply_settings(dlg.result_settings())
            self.tools.disclosure.apply_settings()   # reviewer name, default reasons (ui/tools/disclosure.py)

    def _on_shortcuts(self) -> None:
        from .dialogs import ShortcutsDialog

        ShortcutsDialog(self, self.lang).exec()

    def _on_about(self) -> None:
        from .about import show_about

        show_about(self, self.lang)  # NOTICE, LICENSE and the font's OFL.txt, as shipped

    def _on_quit(self) -> None: self.close()
    def _on_undo(self) -> None: self._history(undo=True)
    def _on_redo(self) -> None: self._history(undo=False)
    def _on_next_pending(self) -> None: self._go_pending(True)
    def _on_prev_pending(self) -> None: self._go_pending(False)
    def _on_accept(self) -> None: self.decide(Status.ACCEPTED)
    def _on_reject(self) -> None: self.decide(Status.REJECTED)
    def _on_reset_pending(self) -> None: self.decide(Status.PENDING, advance=False)
    # bulk actions show their hit list first (ui/bulk.py); applying it is one undo step
    def _on_accept_all_same(self) -> None: self.bulk.occurrences(Status.ACCEPTED)
    def _on_reject_all_same(self) -> None: self.bulk.occurrences(Status.REJECTED)
    def _on_mark_person(self) -> None: self.mark_selection("PERSON")
    def _on_mark_address(self) -> None: self.mark_selection("ADDRESS")
    def _on_mark_organization(self) -> None: self.mark_selection("ORGANIZATION")
    def _on_grow_end(self) -> None: self._nudge(0, +1)
    def _on_shrink_end(self) -> None: self._nudge(0, -1)
    def _on_grow_start(self) -> None: self._nudge(-1, 0)
    def _on_shrink_start(self) -> None: self._nudge(+1, 0)
    def _on_run_detection(self) -> None: self.run_detection()
    def _on_cancel_detection(self) -> None: self.cancel_detection()

    def _history(self, *, undo: bool) -> None:
        st = self.review.state
        cmd = (st.undo() if undo else st.redo()) if st is not None else None
        if not cmd:
            return
        target = next((b if undo else a) for b, a in cmd.changes) if cmd.changes else None
        if target is None:
            target = next((a if undo else b) for b, a in cmd.changes)
        self.select_item(target.id if target is not None and target.id in self.review.state else None)

    def _on_accept_above(self) -> None:
        self.bulk.accept_above()

    def _on_change_label(self) -> None:
        """Give the current item another label (a decision: the item becomes accepted; one undo step)."""
        from ..labels import display_name
        from .span_panel import LABEL_CHOICES

        item = self.current_item()
        if item is None:
            return
        names = [f"{display_name(l, self.lang)} ({l})" for l in LABEL_CHOICES]
        current = LABEL_CHOICES.index(item.label) if item.label in LABEL_CHOICES else 0
        dlg = QInputDialog(self)
        dlg.setObjectName("changeLabel")
        dlg.setWindowTitle(tr("action.change_label", self.lang))
        dlg.setLabelText(tr("dialog.change_label", self.lang))
        dlg.setComboBoxItems(names)
        dlg.setComboBoxEditable(False)
        dlg.setTextValue(names[current])
        dlg.setOkButtonText(tr("ok", self.lang))
        dlg.setCancelButtonText(tr("cancel", self.lang))
        item_id = item.id

        def done(result: int) -> None:
            if not result or self.review.state is None or item_id not in self.review.state:
                return
            label = LABEL_CHOICES[names.index(dlg.textValue())] if dlg.textValue() in names else None
            if label is None:
                return
            try:
                self.review.state.relabel(item_id, label)
            except ValueError as exc:
                self.statusBar().showMessage(_message(exc, self.lang), 5000)
                return
            self.select_item(item_id, scroll_view=False)

        dlg.finished.connect(done)
        dlg.open()
        self.change_label_dialog = dlg

    def _on_mark(self) -> None:
        at = self.view.viewport().mapToGlobal(self.view.cursorRect().bottomLeft())
        self.label_menu(at).popup(at)

    def _on_adjust_to_selection(self) -> None:
        rng = self.view.selection_range()
        if rng is not None:
            self.adjust_current(*rng)

    # -- other slots -----------------------------------------------------------------------------------
    def _on_view_update(self, _rect, _dy) -> None:
        if self.highlighter is not None and self.highlighter.dirty_blocks:
            self.highlighter.flush_visible()

    def _on_threshold(self, value: float) -> None:
        # the state owns the threshold of this document (saved with its session); the settings keep only
        # the configured default a new document starts from, which the slider never changes
        if self.review.state is not None:
            self.review.state.set_threshold(value)

    def label_menu(self, _pos: QPoint):
        return self.menu.label_menu(self.lang, self.mark_selection)

    def show_context_menu(self, global_pos: QPoint, item_id: int | None) -> None:
        if item_id is not None:
            self.select_item(item_id, scroll_view=False)
        self.menu.view_context_menu(self.lang, item_id is not None, self.view.selection_range() is not None,
                                    self.mark_selection, self.view.copy).popup(global_pos)

    def fill_recent_menu(self) -> None:
        self.menu.fill_recent(self.settings.recent_files, self.lang)


def _message(exc: Exception, lang: str) -> str:
    """A review-state error in the UI language (``SpanExistsError`` / ``EmptySelectionError`` carry a
    catalogue key); anything else as it is."""
    key = getattr(exc, "ui_key", None)
    return tr(key, lang) if key else str(exc)
