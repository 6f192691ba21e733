"""The window's export flow: summary -> replace question -> writing on the pool -> result (or hit list).

1. ``ExportFlow.review_and_export`` (the Export command, after the export dialog) shows
   ``ExportSummaryDialog``: per label accepted / rejected / pending / below threshold / manual, removed
   parts, unreadable pages, unverifiable values, detection status. An incomplete detection (running,
   cancelled, failed) and suggestions hidden below the threshold each need an explicit tick; both are
   recorded in the report's ``review`` section.
2. ``export_to`` checks the same blockers (``ExportSummary.blockers``) for callers that skip the dialog:
   nothing is written from a cancelled, failed or running detection unless ``partial_ok`` is passed.
3. An existing output file is replaced only after the reviewer says so (``overwrite_box``, Cancel is
   the default).
4. Plan, copy check and writing run on ``QThreadPool`` (``review.export_job.export_review``). Unmasked
   copies of masked values come back as a checkable hit list (whole words checked, copies inside a word
   unchecked; a checked copy inside a word masks the whole word, never a fragment): the checked ones
   become accepted items in one undo step; while an unchecked copy remains, nothing is written.
5. The result dialog (path, leak check, unverifiable values, open folder) stays until dismissed.

Signals: ``finished(path)`` (``""`` on failure or when the reviewer went back; the message is in
``review.last_error``), ``copiesFound(count)`` when the copies list is shown.

``ExportFlow(window, review, jobs)``: the document, its state and the checks before an export are the
``ReviewSession``'s (``check_export``); the window is the dialogs' parent and shows errors and status
messages; the writing runs on ``jobs``. Threading: GUI thread.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal

from ..review.export import PendingPolicy, accept_copies
from ..review.export_job import CopiesFound, ExportRequest, export_review
from ..review.hits import copy_spans, hits_for_spans
from ..review.loading import snapshot_state
from ..review.review_session import ReviewSession
from ..review.summary import ExportSummary
from .export_summary import ExportResultDialog, ExportSummaryDialog, overwrite_box
from .hit_list import HitListDialog
from .i18n import document_error_text, tr
from .jobs import Jobs


class ExportFlow(QObject):
    finished = Signal(str)
    copiesFound = Signal(int)
    #: the result dialog is on screen (tests and screenshots find it here)
    resultShown = Signal(object)

    def __init__(self, window, review: ReviewSession, jobs: Jobs) -> None:
        super().__init__(window)
        self.w = window                    # dialog parent, show_error, status bar, lang, settings
        self.review = review
        self.jobs = jobs
        self.summary_dialog: ExportSummaryDialog | None = None
        self.copies_dialog: HitListDialog | None = None
        self.result_dialog: ExportResultDialog | None = None
        self.overwrite_dialog = None
        self.last_result = None

    # -- the reviewer's path -------------------------------------------------------------------------
    def summary(self, policy: PendingPolicy | str = PendingPolicy.BLOCK, styles: dict | None = None,
                default_style: str | None = None, tag_lang: str | None = None) -> ExportSummary:
        return self.review.summary(policy, styles, default_style or self.w.settings.default_style, tag_lang)

    def review_and_export(self, out_path: str | Path, *, styles: dict[str, str], default_style: str,
                          policy: PendingPolicy, tag_lang: str) -> ExportSummaryDialog | None:
        """Show the summary (window-modal, asynchronous); Export in it continues with ``export_to``."""
        w, review = self.w, self.review
        if review.state is None or review.document is None:
            return None
        out = Path(out_path)
        dlg = ExportSummaryDialog(w, self.summary(policy, styles, default_style, tag_lang), out, w.lang,
                                  coverage=(len(review.state.text) - review.unchecked_chars, len(review.state.text)),
                                  held=review.held_items(w.lang))
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.summary_dialog = dlg
        document = review.document

        def done(result: int) -> None:
            self.summary_dialog = None
            if not result or document is not review.document:
                self.finished.emit("")
                return
            self.export_to(out, styles=styles, default_style=default_style, policy=policy,
                           partial_ok=dlg.partial_ok(), below_threshold_ok=dlg.below_threshold_ok(),
                           tag_lang=tag_lang, held_ok=dlg.held_ok())

        dlg.finished.connect(done)
        dlg.open()
        return dlg

    # -- the checked path (also for callers without the dialog) ---------------------------------------
    def export_to(self, out_path: str | Path, *, styles: dict[str, str] | None = None,
                  default_style: str | None = None, policy: PendingPolicy | str | None = None,
                  partial_ok: bool = False, below_threshold_ok: bool = False, tag_lang: str | None = None,
                  overwrite: bool | None = None, held_ok: bool = False) -> int | None:
        """Export to ``out_path`` in the background (``finished`` reports). Refuses, with a message and
        nothing written, while a blocker remains (see module docstring); asks before replacing a file
        unless ``overwrite`` says what to do."""
        w, review = self.w, self.review
        if review.state is None or review.document is None:
            return None
        out = Path(out_path)
        check = review.check_export(out, w.settings, styles=styles, default_style=default_style, policy=policy,
                                    partial_ok=partial_ok, below_threshold_ok=below_threshold_ok,
                                    tag_lang=tag_lang, overwrite=overwrite, held_ok=held_ok,
                                    second_opinion=self._second_opinion())
        if check.same_file or check.blockers:
            w.show_error(tr("error.overwrite", w.lang) if check.same_file
                         else self._blocker_message(check.summary, list(check.blockers)))
            self.finished.emit("")
            return None
        req = check.request
        if overwrite is None and (out.exists() or out.is_symlink()):
            self._ask_overwrite(req)
            return None
        return self.start(req)

    def _second_opinion(self):
        """The window's detector (the cached one detection uses) for the second opinion over the output,
        called on the pool thread — the same check ``veil-redact redact`` runs."""
        w = self.w
        cache, settings = w.detection.detectors, w.settings
        return lambda text: cache.get(settings).detect(text)

    def _blocker_message(self, summary: ExportSummary, blockers: list[str]) -> str:
        lang = self.w.lang
        lines = []
        if "detection" in blockers:
            lines.append(tr("summary.detection_incomplete", lang).format(
                status=tr(f"detection.{summary.detection.value}", lang)))
        if "pending" in blockers:
            lines.append(tr("summary.pending_blocked", lang).format(n=summary.pending))
        if "below_threshold" in blockers:
            lines.append(tr("summary.below", lang).format(n=summary.hidden, t=f"{summary.threshold:.2f}"))
        if "needs_review" in blockers:
            lines.append(tr("summary.held", lang).format(n=len(self.review.held_items(lang))))
        return tr("error.export", lang).format(message="\n".join(lines))

    def _ask_overwrite(self, req: ExportRequest) -> None:
        w = self.w
        box = overwrite_box(w, req.out_path, w.lang)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.overwrite_dialog = box
        document = self.review.document

        def done(_r: int) -> None:
            self.overwrite_dialog = None
            if box.clickedButton() is box.replace_button and document is self.review.document:
                self.start(replace(req, overwrite=True))
            else:
                self.review.last_error = tr("copies.cancelled", w.lang)
                self.finished.emit("")

        box.finished.connect(done)
        box.open()

    def start(self, req: ExportRequest) -> int:
        """Plan, copy check and writing all run on the pool, over a snapshot of the state."""
        w = self.w
        snap = snapshot_state(self.review.state)
        document = self.review.document
        w.statusBar().showMessage(tr("status.exporting", w.lang))
        return self.jobs.start(lambda: export_review(document, snap, req),
                               lambda result: self._on_exported(result, document, req), self._on_failed).id

    def _on_exported(self, result, document, req: ExportRequest | None = None) -> None:
        if isinstance(result, CopiesFound):
            self.ask_copies(result, document)
            return
        self.last_result = result
        out = str(getattr(result, "output", result))
        w = self.w
        w.statusBar().clearMessage()
        # the result stays on screen until the reviewer closes it (not a status message that fades)
        dlg = ExportResultDialog(w, result, w.lang, review=req.review if req else None)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.finished.connect(lambda _r: setattr(self, "result_dialog", None))
        self.result_dialog = dlg
        dlg.open()
        self.resultShown.emit(dlg)
        self.finished.emit(out)

    def _on_failed(self, message: str) -> None:
        self.w.statusBar().clearMessage()
        self.w.show_error(tr("error.export", self.w.lang).format(message=document_error_text(message, self.w.lang)))
        self.finished.emit("")

    # -- unmasked copies -----------------------------------------------------------------------------
    def ask_copies(self, found: CopiesFound, document) -> None:
        """Values the export masks also occur unmasked elsewhere: a checkable list of them, with context.

        Nothing has been written yet, and nothing is unless every copy ends up masked.
        """
        w, lang = self.w, self.w.lang
        w.statusBar().clearMessage()
        hits = hits_for_spans(self.review.state, found.spans, document)
        dlg = HitListDialog(w, tr("hits.copies.title", lang), hits, "mask", lang,
                            tr("hits.copies_intro", lang).format(n=found.count), copies=True)
        dlg.setObjectName("copiesList")
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.copies_dialog = dlg
        dlg.finished.connect(lambda r: self._on_copies_answer(bool(r), found, document, dlg.checked_hits(), hits))
        dlg.open()
        self.copiesFound.emit(found.count)

    def _on_copies_answer(self, mask: bool, found: CopiesFound, document, checked, hits) -> None:
        w, review = self.w, self.review
        self.copies_dialog = None
        if document is not review.document or review.state is None:
            mask = False  # another document was opened meanwhile: its review must not get these spans
        if not mask or not checked:
            review.last_error = tr("copies.cancelled", w.lang)
            w.statusBar().showMessage(review.last_error, 8000)
            self.finished.emit("")
            return
        # one undo step; the table, highlights and session follow through the state's listeners
        accept_copies(review.state, copy_spans(checked), description="mask copies")
        left = len(hits) - len(checked)
        if left:
            w.show_error(tr("hits.left_blocked", w.lang).format(n=left))
            self.finished.emit("")
            return
        self.start(replace(found.request, mask_copies=True))

