"""The term lists tool (``review/terms.py``, ``ui/terms_dialog.py``): the user's list is applied to every
detection (the detector is wrapped so suggestions inside ``keep`` terms never reach the review; ``mask``
terms' occurrences become accepted items with source ``list`` when a document is shown). Saving a changed
list applies it to the document on screen. A mixin of ``ReviewTools``; attributes declared below.
Threading: GUI thread.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...review.state import Status
from ...review.terms import TermList, save_user_terms
from ...review.workspace import accept_list_hits
from ..i18n import tr
from ...review.review_session import ReviewSession

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow as MainWindow  # the window (no import of main_window: no loop)


class TermsTool:
    """Mixin for ``ReviewTools``; see the module docstring."""

    w: "MainWindow"
    review: ReviewSession
    lang: str
    terms: TermList
    terms_error: str

    def _apply_mask_terms(self) -> int:
        st = self.review.state
        if st is None or not self.terms.mask_terms:
            return 0
        return accept_list_hits(st, self.terms.mask_spans(st.text), undoable=True)

    def set_terms(self, terms: TermList, *, save: bool = True) -> tuple[int, int]:
        """Use ``terms`` from now on (saved to the user's list) and apply them to the document on screen:
        returns ``(mask items added, pending suggestions rejected by keep terms)``."""
        if save:
            save_user_terms(terms)
        self.terms = terms
        added = self._apply_mask_terms()
        rejected = 0
        st = self.review.state
        if st is not None and terms.keep_terms:
            keep = terms.keep_ranges(st.text)
            ids = [it.id for it in st if it.status is Status.PENDING and it.source not in ("manual", "list")
                   and terms.is_kept(it.span, keep)]
            if ids:
                cmd = st.set_status(ids, Status.REJECTED, description="term list: keep")
                rejected = len(cmd.changes) if cmd else 0
        self.w.statusBar().showMessage(tr("terms.applied", self.lang).format(mask=added, keep=rejected), 6000)
        return added, rejected

    def _on_terms(self) -> None:
        from ..terms_dialog import TermsDialog

        dlg = TermsDialog(self.w, self.terms, self.lang)
        if self.terms_error:
            self.w.show_error(self.terms_error)
            self.terms_error = ""
        if dlg.exec() and dlg.result_terms() is not None:
            try:
                self.set_terms(dlg.result_terms())
            except OSError as e:
                self.w.show_error(str(e))
