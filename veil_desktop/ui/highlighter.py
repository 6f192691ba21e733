"""Highlights review items in the document view.

A ``QSyntaxHighlighter`` asks for one block (paragraph) at a time; ``highlightBlock`` looks up the items
touching that block in the state's position index (bisect, O(log n + k)). When items change, only the
blocks they touch are re-highlighted — never the whole document per batch — and only those on screen (plus
a margin) right away: the others are remembered as *dirty* and re-highlighted when they scroll into view
(``flush_visible``, driven by the view's ``updateRequest``). So a burst of spans all over a long document
costs the GUI thread a set insertion per off-screen block, not a re-layout.

Threading: GUI thread only (it is a ``StateListener`` of the GUI-owned ``ReviewState``).
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

from PySide6.QtGui import QSyntaxHighlighter, QTextDocument

from ..review.state import ReviewItem, ReviewState, StateListener, Status
from .colors import FormatCache
from .offsets import Utf16Map


class SpanHighlighter(QSyntaxHighlighter, StateListener):
    #: blocks above/below the visible range that are still re-highlighted eagerly
    MARGIN_BLOCKS = 30

    def __init__(self, document: QTextDocument, state: ReviewState, offsets: Utf16Map,
                 visible_blocks: Callable[[], tuple[int, int]] | None = None) -> None:
        QSyntaxHighlighter.__init__(self, document)
        self._state = state
        self._offsets = offsets
        self._visible_blocks = visible_blocks
        self._dirty: set[int] = set()
        self._formats = FormatCache()
        self._threshold = state.threshold
        state.add_listener(self)

    def detach(self) -> None:
        self._state.remove_listener(self)
        self.setDocument(None)

    # -- Qt ---------------------------------------------------------------------------------------
    def highlightBlock(self, text: str) -> None:  # noqa: N802 (Qt name)
        if not len(self._state):
            return  # a fresh document: Qt walks every block once, keep that walk cheap
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
    def _eager_range(self) -> tuple[int, int]:
        if self._visible_blocks is None:
            return 0, 1 << 62  # no view to ask: everything is eager
        first, last = self._visible_blocks()
        return first - self.MARGIN_BLOCKS, last + self.MARGIN_BLOCKS

    def rehighlight_ranges(self, ranges: Iterable[tuple[int, int]]) -> None:
        """Re-highlight the blocks touched by the given (python-offset) ranges: visible ones now, each
        once; the others are marked dirty for ``flush_visible``."""
        doc = self.document()
        if doc is None:
            return
        lo, hi = self._eager_range()
        seen: set[int] = set()
        dirty = self._dirty
        for a, b in ranges:
            block = doc.findBlock(self._offsets.to_qt(a))
            end_q = self._offsets.to_qt(b)
            while block.isValid() and block.position() < end_q:
                n = block.blockNumber()
                if n not in seen:
                    seen.add(n)
                    if lo <= n <= hi:
                        dirty.discard(n)
                        self.rehighlightBlock(block)
                    else:
                        dirty.add(n)
                block = block.next()

    def flush_visible(self) -> int:
        """Re-highlight dirty blocks that are now on screen (call on scroll/resize). Returns how many."""
        if not self._dirty or self.document() is None:
            return 0
        lo, hi = self._eager_range()
        doc = self.document()
        todo = [n for n in range(max(0, lo), hi + 1) if n in self._dirty]
        for n in todo:
            self._dirty.discard(n)
            self.rehighlightBlock(doc.findBlockByNumber(n))
        return len(todo)

    @property
    def dirty_blocks(self) -> int:
        return len(self._dirty)

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
        self._dirty.clear()
        self.rehighlight()

    def threshold_changed(self, threshold: float) -> None:
        # only pending detector suggestions scoring between the old and new threshold change visibility
        lo, hi = sorted((self._threshold, threshold))
        self._threshold = threshold
        self.rehighlight_ranges((it.start, it.end) for it in self._state
                                if it.status is Status.PENDING and it.source != "manual" and lo <= it.score <= hi)
