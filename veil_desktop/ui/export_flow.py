"""The window's export flow: request -> plan, copy check and writing on the pool -> result or question.

``ExportFlow.export_to`` snapshots the review state on the GUI thread and runs
``review.export_job.export_review`` on ``QThreadPool`` (``TaskWorker``). When masked values also occur
unmasked elsewhere, nothing is written and the reviewer is asked (window-modal, opened asynchronously) to
mask those copies too — recorded as accepted items, one undo step — or to go back.

Signals: ``finished(path)`` (``""`` on failure or when the reviewer went back; the message is in
``window.last_error``), ``copiesFound(count)`` when the question is shown.

Threading: GUI thread; the window provides ``start_task``, ``show_error`` and the current document.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox

from ..review.export import PendingPolicy, accept_copies
from ..review.export_job import CopiesFound, ExportRequest, export_review
from ..review.loading import snapshot_state
from .i18n import tr


class ExportFlow(QObject):
    finished = Signal(str)
    copiesFound = Signal(int)

    def __init__(self, window) -> None:
        super().__init__(window)
        self.w = window

    def export_to(self, out_path: str | Path, *, styles: dict[str, str] | None = None,
                  default_style: str | None = None, policy: PendingPolicy | str | None = None) -> int | None:
        w = self.w
        if w.state is None or w.document is None:
            return None
        out = Path(out_path)
        if w.path is not None and same_path(out, w.path):
            w.show_error(tr("error.overwrite", w.lang))
            self.finished.emit("")
            return None
        s = w.settings
        req = ExportRequest(out, dict(s.styles if styles is None else styles), default_style or s.default_style,
                            PendingPolicy(policy or s.pending_policy), w.detector_id)
        return self.start(req)

    def start(self, req: ExportRequest) -> int:
        """Plan, copy check and writing all run on the pool, over a snapshot of the state."""
        w = self.w
        snap = snapshot_state(w.state)
        document = w.document
        w.statusBar().showMessage(tr("status.exporting", w.lang))
        return w.start_task(lambda: export_review(document, snap, req),
                            lambda _j, result: self._on_exported(result, document), self._on_failed)

    def _on_exported(self, result, document) -> None:
        if isinstance(result, CopiesFound):
            self.ask_copies(result, document)
            return
        out = str(getattr(result, "output", result))
        self.w.statusBar().showMessage(tr("status.exported", self.w.lang).format(path=out), 8000)
        self.finished.emit(out)

    def _on_failed(self, _job: int, message: str) -> None:
        self.w.statusBar().clearMessage()
        self.w.show_error(tr("error.export", self.w.lang).format(message=message))
        self.finished.emit("")

    def ask_copies(self, found: CopiesFound, document) -> None:
        """Values the export masks also occur unmasked elsewhere: mask those copies too, or go back.

        Nothing has been written yet, and nothing is unless the reviewer chooses to mask the copies.
        """
        w, lang = self.w, self.w.lang
        w.statusBar().clearMessage()
        lines = [f"{part}: {ctx}" if part else ctx for part, ctx in found.examples]
        if found.count > len(found.examples):
            lines.append(tr("copies.more", lang).format(n=found.count - len(found.examples)))
        box = QMessageBox(QMessageBox.Icon.Question, tr("copies.title", lang),
                          tr("copies.found", lang).format(n=found.count), QMessageBox.StandardButton.NoButton, w)
        box.setObjectName("copiesBox")
        box.setInformativeText("\n".join(lines) + "\n\n" + tr("copies.question", lang))
        mask = box.addButton(tr("copies.mask", lang), QMessageBox.ButtonRole.AcceptRole)
        mask.setObjectName("maskCopies")
        cancel = box.addButton(tr("copies.cancel", lang), QMessageBox.ButtonRole.RejectRole)
        cancel.setObjectName("cancelCopies")
        box.setDefaultButton(cancel)   # Enter must not write anything by accident
        box.setEscapeButton(cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        # ``finished`` also covers closing the box without a button: that counts as Cancel
        box.finished.connect(lambda _r: self._on_copies_answer(box.clickedButton() is mask, found, document))
        box.open()
        self.copiesFound.emit(found.count)

    def _on_copies_answer(self, mask: bool, found: CopiesFound, document) -> None:
        w = self.w
        if document is not w.document or w.state is None:
            mask = False  # another document was opened meanwhile: its review must not get these spans
        if not mask:
            w.last_error = tr("copies.cancelled", w.lang)
            w.statusBar().showMessage(w.last_error, 8000)
            self.finished.emit("")
            return
        # one undo step; the table, highlights and session follow through the state's listeners
        accept_copies(w.state, found.spans, description=tr("copies.mask", "en"))
        self.start(replace(found.request, mask_copies=True))


def same_path(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False
