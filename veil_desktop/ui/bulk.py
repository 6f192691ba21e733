"""Bulk actions through a hit list: accept above a score, accept / reject every occurrence.

Each opens ``HitListDialog`` (window-modal, asynchronous) listing what the action would touch, with
context; whole-word hits are checked, hits inside a word are not (and are hidden until asked for).
Applying the checked hits is one ``ReviewState`` command: one undo step. Nothing changes on Cancel.

``BulkActions(window, review)``: the state and the document are the ``ReviewSession``'s; the window is
the dialogs' parent, gives the selected ids and shows the status message. Threading: GUI thread.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal

from ..review.hits import accept_above_hits, occurrence_hits
from ..review.review_session import ReviewSession
from ..review.state import Status
from .hit_list import HitListDialog
from .i18n import tr

#: the score the accept-above list starts from (the reviewer can lower it in the list)
ACCEPT_ABOVE_START = 0.9


class BulkActions(QObject):
    #: the hit list was applied: number of items changed
    applied = Signal(int)

    def __init__(self, window, review: ReviewSession) -> None:
        super().__init__(window)
        self.w = window                # dialog parent, selected_ids, status bar, lang
        self.review = review
        self.dialog: HitListDialog | None = None

    def accept_above(self, start: float | None = None) -> HitListDialog | None:
        w, st = self.w, self.review.state
        if st is None:
            return None
        start = max(ACCEPT_ABOVE_START, st.threshold) if start is None else start
        hits = accept_above_hits(st, 0.0, self.review.document)   # every visible pending; the box filters
        title = tr("hits.accept_above.title", w.lang).format(score=f"{start:.2f}")
        dlg = HitListDialog(w, title, hits, "accept", w.lang, min_score=start)
        dlg.setObjectName("acceptAboveList")
        return self._open(dlg, Status.ACCEPTED)

    def occurrences(self, status: Status) -> HitListDialog | None:
        w, st = self.w, self.review.state
        if st is None:
            return None
        ids = w.selected_ids()
        if not ids:
            return None
        items = [st.item(i) for i in ids if i in st]
        # occurrences already decided this way need no decision: not listed
        hits = [h for h in occurrence_hits(st, items, self.review.document)
                if h.item_id is None or st.item(h.item_id).status is not status]
        kind = "accept" if status is Status.ACCEPTED else "reject"
        dlg = HitListDialog(w, tr(f"hits.{kind}_all_same.title", w.lang), hits, kind, w.lang)
        dlg.setObjectName(f"{kind}AllSameList")
        return self._open(dlg, status)

    def _open(self, dlg: HitListDialog, status: Status) -> HitListDialog:
        w, review = self.w, self.review
        state = review.state
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.dialog = dlg

        def done(result: int) -> None:
            self.dialog = None
            if not result or state is not review.state:
                return
            ids = [h.item_id for h in dlg.checked_hits() if h.item_id is not None and h.item_id in state]
            cmd = state.set_status(ids, status) if ids else None   # one command: one undo step
            n = len(cmd.changes) if cmd else 0
            w.statusBar().showMessage(tr("status.accepted_n" if status is Status.ACCEPTED else "status.rejected_n",
                                         w.lang).format(n=n), 5000)
            self.applied.emit(n)

        dlg.finished.connect(done)
        dlg.open()
        return dlg
