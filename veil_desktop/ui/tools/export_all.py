"""*Export all reviewed* of the workspace: every document's saved review read first on the pool
(``review.export_all_check``), one summary of all documents before writing (``ExportAllDialog``: pending,
hidden, partial, unreadable per document, the same explicit choices as a single export), the export core for
each (``review.workspace.export_reviewed``, with the window's second opinion), the result in the UI language
(``ExportAllResultDialog``) and the fix-up of a document stopped by unmasked copies. A mixin of
``ReviewTools`` beside ``WorkspaceTool``. Threading: GUI thread; the work on the window's pools.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFileDialog

from ...review.export_all_check import check_entries
from ...review.workspace import DocStatus, Workspace, export_reviewed, output_path_for
from ..export_all_dialog import ExportAllDialog, ExportAllResultDialog
from ..i18n import tr
from .workspace import _key

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow as MainWindow  # the window (no import of main_window: no loop)


class ExportAllTool:
    """Mixin for ``ReviewTools``; see the module docstring."""

    w: "MainWindow"
    lang: str
    ws: Workspace
    last_export: object
    exportAllFinished: Signal
    exportAllChecked: Signal
    export_all_dialog: object
    export_all_result: object
    _below_ok_last: bool

    def _on_export_all(self) -> None:
        if not len(self.ws):
            self.w.show_error(tr("ws.export_none", self.lang))
            return
        folder = QFileDialog.getExistingDirectory(self.w, tr("ws.export_folder", self.lang))
        if folder:
            self.check_export_all(folder)

    def check_export_all(self, folder: str | Path) -> int:
        """Read every listed document's saved review on the pool, then show ONE summary of them all
        (``ExportAllDialog``: pending, hidden, partial, unreadable) before anything is written."""
        w = self.w
        w.flush_autosave(even_empty=True)      # the document on screen: its latest decisions
        entries = list(self.ws.entries)
        w.statusBar().showMessage(tr("exportall.checking", self.lang))
        return w.jobs.start(lambda: check_entries(entries), lambda checks: self._show_export_all(checks, folder),
                            w.show_error, channel="export_all").id

    def _show_export_all(self, checks, folder) -> None:
        self.w.statusBar().clearMessage()
        dlg = ExportAllDialog(self.w, checks, Path(folder), self.lang)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.export_all_dialog = dlg

        def done(result: int) -> None:
            self.export_all_dialog = None
            if result and dlg.to_export():
                self.export_all_to(folder, below_threshold_ok=dlg.below_threshold_ok())

        dlg.finished.connect(done)
        dlg.open()
        self.exportAllChecked.emit(dlg)

    def export_all_to(self, folder: str | Path, *, below_threshold_ok: bool = False) -> int:
        """Export every reviewed document into ``folder`` on the pool; ``exportAllFinished`` reports.
        Documents with suggestions hidden below the threshold are exported only with ``below_threshold_ok``
        (the reviewer's counted tick in the summary)."""
        w = self.w
        self._below_ok_last = below_threshold_ok
        w.flush_autosave(even_empty=True)      # the document on screen: its latest decisions (nothing found
                                               # is a review too)
        entries = [e for e in self.ws.entries]
        settings = w.settings
        styles = dict(settings.styles)

        cache = w.detection.detectors          # the second opinion over every output, as a single export

        def run():
            return export_reviewed(entries, Path(folder), styles=styles, default_style=settings.default_style,
                                   allow_below_threshold=below_threshold_ok,
                                   second_opinion=lambda text: cache.get(settings).detect(text),
                                   disclosure=settings.disclosure_fields())

        return w.jobs.start(run, self._on_export_done, w.show_error, channel="export_all").id

    def _on_export_done(self, summary) -> None:
        for row in summary.exported:
            i = self.ws.index_of(row.source)
            if i >= 0:
                self.ws.update(i, DocStatus.EXPORTED, output=row.output)
        dlg = ExportAllResultDialog(self.w, summary, self.lang)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.fixRequested.connect(lambda source: self.fix_copies(source, summary.folder))
        dlg.finished.connect(lambda _r: setattr(self, "export_all_result", None))
        self.export_all_result = dlg
        dlg.open()
        self.last_export = summary
        self._export_folder = Path(summary.folder)
        self.exportAllFinished.emit(summary)

    def fix_copies(self, source, folder) -> None:
        """A document *Export all* stopped for unmasked copies: open it and run the single export to the
        same output, which shows the copies list (mask them, or go back); nothing is written before."""
        w = self.w
        i = self.ws.index_of(source)
        if i < 0:
            return
        out = output_path_for(self.ws[i], Path(folder))

        connected = []

        def go(*_a) -> None:
            if self.review.path is None or _key(self.review.path) != _key(source):
                return
            if connected:
                w.documentLoaded.disconnect(go)
                connected.clear()
            w.exporter.export_to(out, policy="block", below_threshold_ok=self._below_ok_last, overwrite=False)

        if self.review.path is not None and _key(self.review.path) == _key(source) and not w.opening:
            go()
        else:
            w.documentLoaded.connect(go)
            connected.append(True)
            self.goto(i)
