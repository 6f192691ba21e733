"""Highlights review items in the document view.

A ``QSyntaxHighlighter`` asks for one block (paragraph) at a time; ``highlightBlock`` looks up the items
touching that block in the state's position index (bisect, O(log n + k)), so the cost of highlighting is
proportional to what Qt lays out, not to the document. When items change, only the blocks they touch are
re-highlighted — never the whole document per batch.

Threading: GUI thread only (it is a ``StateListener`` of the GUI-owned ``ReviewState``).
"""
from __future__ import annotations

from typing import Iterable, Sequence

from PySide6.QtGui import QSyntaxHighlighter, QTextDocument

from ..review.state import ReviewItem, ReviewState, StateListener, Status
from .colors import FormatCache
from .offsets import Utf16Map


class SpanHighlighter(QSyntaxHighlighter, StateListener):
    def __init__(self, document: QTextDocument, state: ReviewState, offsets: Utf16Map) -> None:
        QSyntaxHighlighter.__init__(self, document)
        self._state = state
        self._offsets = offsets
        self._formats = FormatCache()
        self._threshold = state.threshold
        state.add_listener(self)

    def detach(self) -> None:
        self._state.remove_listener(self)
        self.setDocument(None)

    # -- Qt ---------------------------------------------------------------------------------------
    def highlightBlock(self, text: str) -> None:  # noqa: N802 (Qt name)
        block = self.currentBlock()
        qa = block.position()
        qb = qa + block.length()  # includes the block separator
        off = self._offsets
        a, b = off.from_qt(qa), off.from_qt(qb)
        # longer spans first, so a shorter (more specific) span nested inside stays visible on top
        items = sorted(self._state.items_overlapping(a, b), key=lambda it: it.start - it.end)
        limit = block.length() - 1
        for it in items:
            s = max(off.to_qt(it.start), qa) - qa
            e = min(off.to_qt(it.end), qb) - qa
            e = min(e, limit)
            if e > s:
                self.setFormat(s, e - s, self._formats.get(it.label, it.status))

    # -- targeted re-highlighting --------------------------------------------------------------------
    def rehighlight_ranges(self, ranges: Iterable[tuple[int, int]]) -> None:
        """Re-highlight every block touched by the given (python-offset) ranges, each block once."""
        doc = self.document()
        if doc is None:
            return
        seen: set[int] = set()
        for a, b in ranges:
            block = doc.findBlock(self._offsets.to_qt(a))
            end_q = self._offsets.to_qt(b)
            while block.isValid() and block.position() < end_q:
                n = block.blockNumber()
                if n not in seen:
                    seen.add(n)
                    self.rehighlightBlock(block)
                block = block.next()

    def _items_ranges(self, items: Sequence[ReviewItem]) -> list[tuple[int, int]]:
        return [(it.start, it.end) for it in items]

    # -- StateListener --------------------------------------------------------------------------------
    def rows_inserted(self, first: int, last: int) -> None:
        st = self._state
        self.rehighlight_ranges((st.item_at_row(r).start, st.item_at_row(r).end) for r in range(first, last + 1))

    def row_removed(self, row: int, item: ReviewItem) -> None:
        self.rehighlight_ranges([(item.start, item.end)])

    def items_changed(self, before: Sequence[ReviewItem], after: Sequence[ReviewItem]) -> None:
        self.rehighlight_ranges(self._items_ranges(before) + self._items_ranges(after))

    def reset(self) -> None:
        self.rehighlight()

    def threshold_changed(self, threshold: float) -> None:
        # only pending detector suggestions scoring between the old and new threshold change visibility
        lo, hi = sorted((self._threshold, threshold))
        self._threshold = threshold
        self.rehighlight_ranges((it.start, it.end) for it in self._state
                                if it.status is Status.PENDING and it.source != "manual" and lo <= it.score <= hi)
