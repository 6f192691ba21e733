"""The disclosure workflow in the window (issue 24): reason codes, review files, merging a second review,
XFDF for PDFs, duplicates across the workspace. The core is Qt-free (``review/reasons.py``,
``review/review_file.py``, ``review/duplicates.py``, ``review/export_job.py``); this module only wires it.

- **Reasons** (비공개 사유, 제9조제1항 1–8호 or 기타): ``G`` opens a small chooser (keys ``1``–``8``, ``0``
  back to the label's default, ``9`` 기타…) that applies to the selected items (or the current one) as one
  undo step; the table's *reason* column shows each item's reason (its label's default marked as such).
  The reviewer's name and the default reason per label are settings (``ui/dialogs.py`` SettingsDialog,
  ``disclosure_dialogs.add_settings_rows``); printing the reason in the output and the redaction log are
  chosen in the export dialog and reach the ``ExportRequest`` through ``ReviewSession.check_export``.
- **Review files** (File menu): export ``*.veil-review.json`` (values only as salted hashes), import one for
  the document on screen (another document's is refused with the core's message), merge with a second
  review: conflicts side by side in ``MergeDialog`` (``disclosure_dialogs``), resolved row by row (A / B),
  applied as one undo step. The imported file's SHA-256 is recorded in the next export's report.
- **XFDF** (PDFs only): one Acrobat *redact* annotation per accepted item; importing one adds its
  redactions as accepted items (one undo step).
- **Duplicates**: pages / paragraphs repeated across the workspace's documents (and the document on screen);
  ``DuplicatesDialog`` lists them; *Apply to all copies* carries the decisions of the chosen unit of the
  document on screen to every copy (the other documents' saved sessions are updated; items decided this way
  carry ``via="duplicate"``, which the report counts).

``DisclosureTool(window, tools)`` is created by ``ReviewTools``. Threading: GUI thread.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QCursor, QKeySequence
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu

from ...review import duplicates as dup
from ...review.reasons import OTHER_PREFIX, ReasonError, normalize_reason
from ...review.review_file import (SUFFIX, ReviewFileError, apply_entries, export_review_file, export_xfdf,
                                   import_xfdf, load_review_file, merge, parse_review, review_to_bytes)
from ..actions import owned_by
from ..i18n import tr
from .disclosure_dialogs import reason_label  # noqa: E402  (defined beside the dialogs that use it)

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow as MainWindow  # the window (no import of main_window: no loop)

DISCLOSURE_ACTIONS = owned_by("disclosure")
#: actions that need a document on screen
_NEEDS_DOC = ("set_reason", "export_review", "import_review", "merge_review", "export_xfdf", "import_xfdf")


def reason_cell(item, defaults: dict, lang: str) -> str:
    """The table's *reason* column: the item's own reason, else its label's default (marked), for
    accepted and pending items; nothing for rejected ones (they are not withheld)."""
    from ...review.state import Status

    if item.status is Status.REJECTED:
        return ""
    if item.reason:
        return reason_label(item.reason, lang)
    code = defaults.get(item.label)
    return tr("reason.default_mark", lang).format(code=reason_label(code, lang)) if code else ""


def _is_pdf(document) -> bool:
    return document is not None and str(getattr(document, "format", "")).lower() == "pdf"


class DisclosureTool(QObject):
    #: a reason was set (items changed)
    reasonApplied = Signal(int)
    #: the reason chooser / merge dialog / duplicates dialog is on screen (tests and screenshots)
    chooserShown = Signal(object)
    mergeShown = Signal(object)
    duplicatesShown = Signal(object)

    def __init__(self, window: "MainWindow", tools) -> None:
        super().__init__(window)
        self.w = window
        self.tools = tools
        self.review = window.review
        self.lang = window.lang
        self.chooser: QMenu | None = None
        self.merge_dialog = None
        self.duplicates_dialog = None
        self.actions: dict[str, QAction] = {}
        for spec in DISCLOSURE_ACTIONS:
            act = QAction(window)
            act.setShortcuts([QKeySequence(k) for k in spec.shortcuts])
            act.triggered.connect(getattr(self, f"_on_{spec.id}"))
            window.menus[spec.menu].addAction(act)
            if spec.shortcuts:
                # a single key: only while the document, the table or the page view has focus
                act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                for widget in (window.view, window.table, tools.pages):
                    widget.addAction(act)
            else:
                window.addAction(act)
            self.actions[spec.id] = act
        window.documentLoaded.connect(self._on_document_loaded)
        self.retranslate(window.lang)
        self.update_actions()

    # -- plumbing --------------------------------------------------------------------------------------
    def retranslate(self, lang: str) -> None:
        self.lang = lang
        for spec in DISCLOSURE_ACTIONS:
            text = tr(f"action.{spec.id}", lang)
            self.actions[spec.id].setText(text)
            if spec.shortcuts:
                self.actions[spec.id].setToolTip(f"{text} ({spec.shortcuts[0]})")

    def update_actions(self) -> None:
        has_doc = self.review.state is not None
        for aid in _NEEDS_DOC:
            self.actions[aid].setEnabled(has_doc)
        pdf = has_doc and _is_pdf(self.review.document)
        self.actions["export_xfdf"].setEnabled(pdf)
        self.actions["import_xfdf"].setEnabled(pdf)

    def apply_settings(self) -> None:
        """The reviewer's name and default reasons (settings) -> the review on screen and the table."""
        st = self.review.state
        if st is not None:
            st.reviewer = self.w.settings.reviewer
        model = self.w.table_model
        if model is not None:
            model.reason_defaults = self.w.settings.reason_defaults()
            if model.rowCount():
                col = model.columnCount() - 1
                model.dataChanged.emit(model.index(0, col), model.index(model.rowCount() - 1, col))

    def _on_document_loaded(self, _path: str = "") -> None:
        self.apply_settings()
        self.update_actions()

    def _message(self, text: str) -> None:
        self.w.statusBar().showMessage(text, 8000)

    # -- reasons ---------------------------------------------------------------------------------------
    def set_reason(self, code: str | None, ids: list[int] | None = None) -> int:
        """Give the selected items (or ``ids``) the reason ``code``; returns how many changed."""
        st = self.review.state
        if st is None:
            return 0
        ids = list(ids if ids is not None else self.w.selected_ids())
        if not ids:
            self._message(tr("reason.no_items", self.lang))
            return 0
        try:
            cmd = st.set_reason(ids, code)
        except ReasonError as e:
            self.w.show_error(str(e))
            return 0
        n = len(cmd.changes) if cmd is not None else 0
        self._message(tr("reason.applied", self.lang).format(
            reason=reason_label(normalize_reason(code), self.lang) or tr("reason.clear", self.lang), n=n))
        self.reasonApplied.emit(n)
        return n

    def reason_menu(self) -> QMenu:
        """The chooser: ``&1``–``&8`` (제9조제1항 각 호), ``&9`` 기타…, ``&0`` back to the label's default."""
        from ...review.reasons import ARTICLE_9

        lang, ids = self.lang, self.w.selected_ids()
        menu = QMenu(self.w)
        menu.setObjectName("reasonChooser")
        menu.setTitle(tr("reason.title", lang))
        for code, (ko, en) in ARTICLE_9.items():
            act = menu.addAction(f"&{code}  {reason_label(code, lang)} — {ko if lang == 'ko' else en}")
            act.triggered.connect(lambda _=False, c=code: self.set_reason(c, ids))
        menu.addSeparator()
        menu.addAction(f"&9  {tr('reason.other', lang)}").triggered.connect(lambda: self._ask_other(ids))
        menu.addAction(f"&0  {tr('reason.clear', lang)}").triggered.connect(lambda: self.set_reason(None, ids))
        return menu

    def other_reason_dialog(self) -> QInputDialog:
        """The "other reason" prompt, its buttons in the UI language (``QInputDialog.getText`` left Qt's
        untranslated OK/Cancel in the Korean UI)."""
        dlg = QInputDialog(self.w)
        dlg.setObjectName("otherReason")
        dlg.setWindowTitle(tr("reason.title", self.lang))
        dlg.setLabelText(tr("reason.other_prompt", self.lang))
        dlg.setOkButtonText(tr("ok", self.lang))
        dlg.setCancelButtonText(tr("cancel", self.lang))
        return dlg

    def _ask_other(self, ids: list[int]) -> None:
        dlg = self.other_reason_dialog()
        text = dlg.textValue() if dlg.exec() else ""
        if text.strip():
            self.set_reason(OTHER_PREFIX + text.strip(), ids)

    def _on_set_reason(self) -> None:
        if self.review.state is None:
            return
        self.chooser = self.reason_menu()
        self.chooser.aboutToHide.connect(lambda: setattr(self, "chooser", None))
        self.chooser.popup(QCursor.pos())
        self.chooserShown.emit(self.chooser)

    # -- review files ----------------------------------------------------------------------------------
    def _ask_path(self, save: bool, filter_key: str, suggested: str = "") -> str:
        fn = QFileDialog.getSaveFileName if save else QFileDialog.getOpenFileName
        path, _ = fn(self.w, tr(filter_key, self.lang), suggested, tr(filter_key, self.lang))
        return path

    def export_review(self, path: str | Path) -> Path | None:
        st = self.review.state
        if st is None:
            return None
        path = Path(path)
        if not path.name.endswith(SUFFIX):
            path = path.with_name(path.name + SUFFIX)
        try:
            export_review_file(st, path, self.w.settings.reviewer,
                               file_sha256=str(getattr(self.review.document, "sha256", "") or ""))
        except OSError as e:
            self.w.show_error(tr("review_file.error", self.lang).format(message=str(e)))
            return None
        self._message(tr("review_file.exported", self.lang).format(path=path, n=len(st)))
        return path

    def import_review(self, path: str | Path) -> int | None:
        """Apply a review file of the document on screen (one undo step); None when it was refused."""
        st = self.review.state
        if st is None:
            return None
        try:
            rf = load_review_file(Path(path), st.text)
            cmd = apply_entries(st, rf.entries, description="import review")
            self.review.review_file_sha256 = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except (ReviewFileError, OSError) as e:
            self.w.show_error(tr("review_file.error", self.lang).format(message=str(e)))
            return None
        n = len(cmd.changes) if cmd is not None else 0
        self._message(tr("review_file.imported", self.lang).format(reviewer=rf.reviewer or "-", n=n))
        return n

    def merge_with(self, path: str | Path):
        """Merge the review on screen (A) with a second review file (B): without conflicts at once, else
        ``MergeDialog`` (returned) whose Apply writes the resolved review as one undo step."""
        from .disclosure_dialogs import MergeDialog

        st = self.review.state
        if st is None:
            return None
        try:
            mine = parse_review(json.loads(review_to_bytes(st, self.w.settings.reviewer)), st.text)
            theirs = load_review_file(Path(path), st.text)
            result = merge(mine, theirs)
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except (ReviewFileError, OSError) as e:
            self.w.show_error(tr("review_file.error", self.lang).format(message=str(e)))
            return None
        if not result.conflicts:
            cmd = apply_entries(st, result.resolved([]), description="merge reviews")
            self.review.review_file_sha256 = digest
            self._message(tr("review_file.no_conflicts", self.lang).format(
                n=len(cmd.changes) if cmd is not None else 0))
            return None
        dlg = MergeDialog(self.w, st, result, mine.reviewer or tr("merge.this_review", self.lang),
                          theirs.reviewer or Path(path).name, self.lang, styles=self.w.settings.styles,
                          default_style=self.w.settings.default_style)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        document = self.review.document

        def done(ok: int) -> None:
            self.merge_dialog = None
            if ok and document is self.review.document and self.review.state is st:
                apply_entries(st, result.resolved(dlg.choices()), description="merge reviews")
                self.review.review_file_sha256 = digest

        dlg.finished.connect(done)
        self.merge_dialog = dlg
        dlg.open()
        self.mergeShown.emit(dlg)
        return dlg

    def _on_export_review(self) -> None:
        if self.review.path is None:
            return
        p = self._ask_path(True, "review_file.filter", str(self.review.path) + SUFFIX)
        if p:
            self.export_review(p)

    def _on_import_review(self) -> None:
        p = self._ask_path(False, "review_file.filter")
        if p:
            self.import_review(p)

    def _on_merge_review(self) -> None:
        p = self._ask_path(False, "review_file.filter")
        if p:
            self.merge_with(p)

    # -- XFDF ------------------------------------------------------------------------------------------
    def export_xfdf(self, path: str | Path) -> int | None:
        st, document = self.review.state, self.review.document
        if st is None:
            return None
        if not _is_pdf(document):
            self.w.show_error(tr("xfdf.pdf_only", self.lang))
            return None
        try:
            n = export_xfdf(document, st, Path(path), reviewer=self.w.settings.reviewer,
                            reasons=self.w.settings.reason_defaults())
        except (ReviewFileError, OSError, ValueError) as e:
            self.w.show_error(tr("xfdf.error", self.lang).format(message=str(e)))
            return None
        self._message(tr("xfdf.exported", self.lang).format(path=path, n=n))
        return n

    def import_xfdf(self, path: str | Path) -> int | None:
        st, document = self.review.state, self.review.document
        if st is None:
            return None
        if not _is_pdf(document):
            self.w.show_error(tr("xfdf.pdf_only", self.lang))
            return None
        try:
            cmd = import_xfdf(document, st, Path(path))
        except (ReviewFileError, OSError, ValueError) as e:
            self.w.show_error(tr("xfdf.error", self.lang).format(message=str(e)))
            return None
        n = len(cmd.changes) if cmd is not None else 0
        self._message(tr("xfdf.imported", self.lang).format(n=n))
        return n

    def _on_export_xfdf(self) -> None:
        if self.review.path is not None:
            p = self._ask_path(True, "xfdf.filter", str(Path(self.review.path).with_suffix(".xfdf")))
            if p:
                self.export_xfdf(p)

    def _on_import_xfdf(self) -> None:
        p = self._ask_path(False, "xfdf.filter")
        if p:
            self.import_xfdf(p)

    # -- duplicates ------------------------------------------------------------------------------------
    def collect_reviews(self) -> tuple[dict, dict, list[str]]:
        """``(states, loaded, unreadable)``: every workspace document's review (the one on screen as it is,
        the others from their files and saved sessions), keyed by path; ``loaded`` holds the ``Loaded`` of
        the others (to save their sessions after applying)."""
        from ...review.loading import load_for_review

        states: dict[str, object] = {}
        loaded: dict[str, object] = {}
        docs: dict[str, object] = {}
        bad: list[str] = []
        current = str(self.review.path) if self.review.path is not None else None
        if current is not None:
            states[current], docs[current] = self.review.state, self.review.document
        for entry in list(self.tools.ws.entries):
            key = str(entry.path)
            if key in states:
                continue
            try:
                ld = load_for_review(Path(entry.path), self.w.settings.threshold)
            except Exception as e:  # noqa: BLE001 - a reader's clear error: listed, never a traceback
                bad.append(f"{Path(entry.path).name} ({e})")
                continue
            states[key], docs[key], loaded[key] = ld.state, ld.document, ld
        self._docs = docs
        return states, loaded, bad

    def find_duplicates(self):
        states, loaded, bad = self.collect_reviews()
        units = [u for key, st in states.items()
                 for u in dup.units_of(key, st.text, getattr(self._docs[key], "parts", ()))]
        return dup.find_duplicates(units), states, loaded, bad

    def apply_duplicates(self, group, source, states: dict, loaded: dict) -> dict[str, int]:
        """Carry ``source``'s decisions to every copy in ``group``; the other documents' sessions are saved."""
        from ...review.session import Autosaver, SessionInfo, document_hash

        out = dup.apply_to_group(states, group, source)
        saver = Autosaver()
        for key, n in out.items():
            ld = loaded.get(key)
            if ld is None or not n:
                continue
            info = ld.session or SessionInfo(document_hash(ld.state.text), key)
            try:
                saver.write(saver.snapshot(ld.state, info))
            except OSError as e:
                self.w.show_error(str(e))
            i = self.tools.ws.index_of(key)
            if i >= 0:
                self.tools.ws.update_from_state(i, ld.state, info.detection_complete)
        return out

    def _on_duplicates(self) -> None:
        from .disclosure_dialogs import DuplicatesDialog

        groups, states, loaded, bad = self.find_duplicates()
        if bad:
            self._message(tr("dup.unreadable", self.lang).format(names=", ".join(bad)))
        dlg = DuplicatesDialog(self.w, groups, str(self.review.path) if self.review.path else "", self.lang)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def apply(group, unit) -> None:
            out = self.apply_duplicates(group, unit, states, loaded)
            self._message(tr("dup.applied", self.lang).format(n=sum(out.values()),
                                                              docs=sum(1 for v in out.values() if v)))
            dlg.set_result(out)

        dlg.applyRequested.connect(apply)
        dlg.finished.connect(lambda _r: setattr(self, "duplicates_dialog", None))
        self.duplicates_dialog = dlg
        dlg.open()
        self.duplicatesShown.emit(dlg)
