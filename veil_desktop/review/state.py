"""Review state: the one source of truth for a document under review. Pure Python, no Qt.

A ``ReviewState`` holds the document text and a list of ``ReviewItem``s (a ``Span`` plus a ``Status``).
The table model, the text highlighter, the status bar, export and persistence all read this object; the
Qt side is an adapter that listens to its change events (see ``StateListener``).

Invariants:
- every item has a stable integer ``id`` that never changes and is never reused within one state;
- ``rows`` is the display order of items (append order); ``row_of(id)`` is its inverse;
- no two items share the same ``(start, end, label)`` key (detected duplicates are dropped);
- every span lies inside the text: ``0 <= start < end <= len(text)``;
- ``ReviewItem`` is immutable; a change replaces the item under the same id;
- every *decision* (status change, manual span, boundary change, relabel) is one undoable ``Command``;
  adding detector output is not a decision and is not undoable;
- listeners are told *before* rows are inserted/removed and *after* the change (the Qt model needs
  ``beginInsertRows`` before the row count changes).

Threshold: the state is the one owner of the threshold of the document under review (the settings hold
only the *default* a new document starts from; the slider, the session file and the export read it here).
Pending suggestions from a detector whose score is below ``threshold`` are *hidden*: not highlighted, not
listed and not masked on export — but they are still *counted* (``hidden_pending_count``,
``counts(with_hidden=True)``) so export can refuse or ask before leaving them in clear (see
``review.export.spans_to_mask``). A decided item (accepted or rejected) and a manual span stay visible
whatever the threshold — a human looked at them.

Threading: not thread-safe; owned and mutated by one thread (the GUI thread in the app).
"""
from __future__ import annotations

import bisect
import time as _time
from dataclasses import dataclass, replace
from enum import Enum
from typing import Iterable, Iterator, Sequence

from ..detect.span import Span


class SpanExistsError(ValueError):
    """A boundary change or relabel would duplicate another item's ``(start, end, label)``."""

    ui_key = "error.span_exists"


class EmptySelectionError(ValueError):
    """A manual span over nothing but whitespace."""

    ui_key = "error.empty_selection"


class Status(str, Enum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One suggestion or manual span and the reviewer's decision on it."""

    id: int
    span: Span
    status: Status = Status.PENDING
    #: the disclosure reason (``review.reasons``: "1".."8" or "other:…"); None = the label's default
    reason: str | None = None
    #: audit trail: who made the last decision on this item and when (epoch seconds); "" / 0 = nobody yet
    #: (a detector suggestion) or a reviewer without a name
    by: str = ""
    at: float = 0.0
    #: how the last decision was made when not by hand on this item: "duplicate" (carried from an identical
    #: page or paragraph, ``review.duplicates``); "" = directly
    via: str = ""

    @property
    def start(self) -> int:
        return self.span.start

    @property
    def end(self) -> int:
        return self.span.end

    @property
    def label(self) -> str:
        return self.span.label

    @property
    def score(self) -> float:
        return self.span.score

    @property
    def source(self) -> str:
        return self.span.source

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.span.start, self.span.end, self.span.label)


@dataclass(frozen=True, slots=True)
class Command:
    """One undoable decision: ``changes`` are ``(before, after)`` item pairs for the same id.

    ``before is None`` means the item was created by the command; ``after is None`` that it was removed.
    """

    description: str
    changes: tuple[tuple[ReviewItem | None, ReviewItem | None], ...]


class StateListener:
    """Receives change notifications from a ``ReviewState``. Override what you need."""

    def rows_about_to_be_inserted(self, first: int, last: int) -> None: ...
    def rows_inserted(self, first: int, last: int) -> None: ...
    def row_about_to_be_removed(self, row: int) -> None: ...
    def row_removed(self, row: int, item: ReviewItem) -> None: ...
    def items_changed(self, before: Sequence[ReviewItem], after: Sequence[ReviewItem]) -> None: ...
    def about_to_reset(self) -> None: ...
    def reset(self) -> None: ...
    def threshold_changed(self, threshold: float) -> None: ...
    def history_changed(self) -> None: ...


class _PositionIndex:
    """Items sorted by start offset, for "which items touch characters a..b" queries in O(log n + k)."""

    def __init__(self) -> None:
        self._keys: list[tuple[int, int]] = []   # (start, id), sorted
        self._ends: dict[int, int] = {}
        self._max_len = 0

    def add(self, item: ReviewItem) -> None:
        bisect.insort(self._keys, (item.start, item.id))
        self._ends[item.id] = item.end
        self._max_len = max(self._max_len, item.end - item.start)

    def remove(self, item: ReviewItem) -> None:
        i = bisect.bisect_left(self._keys, (item.start, item.id))
        if i < len(self._keys) and self._keys[i] == (item.start, item.id):
            del self._keys[i]
        self._ends.pop(item.id, None)
        # _max_len stays an upper bound, which keeps queries correct

    def overlapping(self, a: int, b: int) -> Iterator[int]:
        """Ids of items with ``start < b`` and ``end > a``, in start order."""
        lo = bisect.bisect_left(self._keys, (a - self._max_len, -1))
        hi = bisect.bisect_left(self._keys, (b, -1))
        for start, item_id in self._keys[lo:hi]:
            if self._ends[item_id] > a:
                yield item_id

    def ordered(self) -> list[int]:
        return [i for _, i in self._keys]

    def first_at_or_after(self, pos: int) -> int:
        return bisect.bisect_left(self._keys, (pos, -1))

    def key_at(self, i: int) -> tuple[int, int]:
        return self._keys[i]

    def __len__(self) -> int:
        return len(self._keys)


class ReviewState:
    """Spans + decisions for one document. See the module docstring for the invariants."""

    def __init__(self, text: str, *, threshold: float = 0.0, reviewer: str = "") -> None:
        self.text = text
        #: the reviewer's name (settings): every decision is stamped with it and the time (audit trail)
        self.reviewer = reviewer
        self._threshold = float(threshold)
        self._items: dict[int, ReviewItem] = {}
        self._rows: list[int] = []
        self._row_of: dict[int, int] = {}
        self._by_key: dict[tuple[int, int, str], int] = {}
        self._index = _PositionIndex()
        self._next_id = 1
        self._undo: list[Command] = []
        self._redo: list[Command] = []
        self._listeners: list[StateListener] = []

    # -- listeners ------------------------------------------------------------------------------
    def add_listener(self, listener: StateListener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: StateListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _emit(self, name: str, *args) -> None:
        for listener in list(self._listeners):
            getattr(listener, name)(*args)

    # -- reading ----------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[ReviewItem]:
        return (self._items[i] for i in self._rows)

    def __contains__(self, item_id: int) -> bool:
        return item_id in self._items

    def item(self, item_id: int) -> ReviewItem:
        return self._items[item_id]

    def item_at_row(self, row: int) -> ReviewItem:
        return self._items[self._rows[row]]

    def row_of(self, item_id: int) -> int:
        return self._row_of[item_id]

    def find(self, start: int, end: int, label: str) -> ReviewItem | None:
        i = self._by_key.get((start, end, label))
        return None if i is None else self._items[i]

    def value(self, item: ReviewItem) -> str:
        return self.text[item.start:item.end]

    @property
    def threshold(self) -> float:
        return self._threshold

    def set_threshold(self, threshold: float) -> None:
        """Hide pending detector suggestions scoring below ``threshold`` (not undoable; a view setting)."""
        threshold = min(1.0, max(0.0, float(threshold)))
        if threshold != self._threshold:
            self._threshold = threshold
            self._emit("threshold_changed", threshold)

    def is_visible(self, item: ReviewItem) -> bool:
        return (item.status is not Status.PENDING or item.source == "manual"
                or item.score >= self._threshold)

    def visible_items(self) -> list[ReviewItem]:
        return [it for it in self if self.is_visible(it)]

    def items_overlapping(self, a: int, b: int, *, visible_only: bool = True) -> list[ReviewItem]:
        """Items touching characters ``a..b`` (half-open), in start order."""
        out = [self._items[i] for i in self._index.overlapping(a, b)]
        return [it for it in out if self.is_visible(it)] if visible_only else out

    def items_at(self, pos: int) -> list[ReviewItem]:
        """Visible items covering character ``pos``; the shortest first (the most specific)."""
        return sorted(self.items_overlapping(pos, pos + 1), key=lambda it: it.end - it.start)

    def in_text_order(self, *, visible_only: bool = True) -> list[ReviewItem]:
        items = (self._items[i] for i in self._index.ordered())
        return [it for it in items if self.is_visible(it)] if visible_only else list(items)

    def next_pending(self, pos: int, *, forward: bool = True, exclude: int | None = None) -> ReviewItem | None:
        """The nearest visible pending item starting after (``forward``) or before ``pos``; wraps around."""
        ordered = [it for it in self.in_text_order() if it.status is Status.PENDING and it.id != exclude]
        if not ordered:
            return None
        starts = [it.start for it in ordered]
        if forward:
            i = bisect.bisect_right(starts, pos)
            return ordered[i % len(ordered)]
        i = bisect.bisect_left(starts, pos) - 1
        return ordered[i % len(ordered)]

    def occurrences(self, item: ReviewItem) -> list[ReviewItem]:
        """Every item (visible or not) with the same label and the same text as ``item``."""
        value = self.value(item)
        return [it for it in self if it.label == item.label and self.value(it) == value]

    def counts(self) -> dict[str, dict[Status, int]]:
        """Visible items per label and status (one pass; the status bar calls this while detecting)."""
        out: dict[str, dict[Status, int]] = {}
        pending, threshold = Status.PENDING, self._threshold
        for it in self._items.values():
            span, status = it.span, it.status
            if status is pending and span.source != "manual" and span.score < threshold:
                continue
            per = out.get(span.label)
            if per is None:
                per = out[span.label] = {s: 0 for s in Status}
            per[status] += 1
        return out

    def is_hidden_pending(self, item: ReviewItem) -> bool:
        """A pending detector suggestion the threshold hides (it would stay unmasked if exported)."""
        return (item.status is Status.PENDING and item.source != "manual"
                and item.score < self._threshold)

    def hidden_pending(self) -> list[ReviewItem]:
        """Pending suggestions hidden by the threshold, in row order."""
        return [it for it in self if self.is_hidden_pending(it)]

    def hidden_pending_count(self) -> int:
        pending, threshold = Status.PENDING, self._threshold
        return sum(1 for it in self._items.values()
                   if it.status is pending and it.span.source != "manual" and it.span.score < threshold)

    def hidden_counts(self) -> dict[str, int]:
        """Pending suggestions hidden by the threshold, per label."""
        out: dict[str, int] = {}
        for it in self._items.values():
            if self.is_hidden_pending(it):
                out[it.label] = out.get(it.label, 0) + 1
        return out

    def reviewed_fraction(self, counts: dict[str, dict[Status, int]] | None = None) -> float:
        counts = self.counts() if counts is None else counts
        total = sum(sum(c.values()) for c in counts.values())
        if not total:
            return 1.0
        return 1.0 - sum(c[Status.PENDING] for c in counts.values()) / total

    def pending_count(self, counts: dict[str, dict[Status, int]] | None = None) -> int:
        counts = self.counts() if counts is None else counts
        return sum(c[Status.PENDING] for c in counts.values())

    # -- detector output (not undoable) -------------------------------------------------------------
    def add_detected(self, spans: Iterable[Span], status: Status = Status.PENDING) -> list[int]:
        """Append detector spans as items; spans whose ``(start, end, label)`` already exists are skipped
        (so re-running detection keeps earlier decisions). Returns the new ids."""
        fresh: list[Span] = []
        seen: set[tuple[int, int, str]] = set()
        for s in spans:
            self._check_span(s)
            key = (s.start, s.end, s.label)
            if key in self._by_key or key in seen:
                continue
            seen.add(key)
            fresh.append(s)
        if not fresh:
            return []
        return self._append([ReviewItem(self._take_id(), s, status) for s in fresh])

    def restore_items(self, items: Sequence[ReviewItem]) -> None:
        """Replace all items (session restore). Ids are kept; history is cleared."""
        self._emit("about_to_reset")
        self._items.clear(); self._rows.clear(); self._row_of.clear(); self._by_key.clear()
        self._index = _PositionIndex()
        for it in items:
            self._check_span(it.span)
            if it.id in self._items or it.key in self._by_key:
                continue
            self._insert_raw(it)
            self._next_id = max(self._next_id, it.id + 1)
        self._undo.clear(); self._redo.clear()
        self._emit("reset")
        self._emit("history_changed")

    # -- decisions (undoable) ------------------------------------------------------------------------
    def set_status(self, ids: Iterable[int], status: Status, *, propagate: bool = False,
                   description: str | None = None) -> Command | None:
        """Decide ``ids``; with ``propagate`` every occurrence of the same text + label is decided too."""
        targets: dict[int, ReviewItem] = {}
        for i in ids:
            it = self._items[i]
            for t in (self.occurrences(it) if propagate else [it]):
                targets[t.id] = t
        changes = tuple((it, replace(it, status=status)) for it in targets.values() if it.status is not status)
        return self._do(Command(description or f"{status.value} {len(changes)}", changes))

    def set_reason(self, ids: Iterable[int], reason: str | None, *,
                   description: str | None = None) -> Command | None:
        """Give ``ids`` the disclosure reason ``reason`` (``review.reasons.normalize_reason`` form; None =
        back to the label's default), as one undoable step."""
        from .reasons import normalize_reason

        reason = normalize_reason(reason)
        changes = tuple((it, replace(it, reason=reason)) for i in dict.fromkeys(ids)
                        if (it := self._items[i]).reason != reason)
        return self._do(Command(description or f"reason {reason or '-'} {len(changes)}", changes))

    def accept_above(self, score: float) -> Command | None:
        """Accept every visible pending item with ``score >= score``."""
        changes = tuple((it, replace(it, status=Status.ACCEPTED)) for it in self.visible_items()
                        if it.status is Status.PENDING and it.score >= score)
        return self._do(Command(f"accept >= {score:.2f}", changes))

    def add_manual(self, start: int, end: int, label: str) -> ReviewItem:
        """Mark ``text[start:end]`` as ``label`` (accepted, source ``manual``). Surrounding whitespace is
        trimmed. An existing item with the same key is accepted instead of duplicated."""
        start, end = self._trim(start, end)
        existing = self.find(start, end, label)
        if existing is not None:
            if existing.status is not Status.ACCEPTED:
                self.set_status([existing.id], Status.ACCEPTED, description="accept (manual)")
            return self._items[existing.id]
        item = ReviewItem(self._take_id(), Span(start, end, label, 1.0, "manual"), Status.ACCEPTED)
        self._do(Command(f"mark {label}", ((None, item),)))
        return item

    def add_manual_many(self, ranges: Iterable[tuple[int, int]], label: str, *, source: str = "manual",
                        description: str | None = None) -> Command | None:
        """Mark every ``(start, end)`` as ``label`` in ONE undoable step (find ▸ mark all, term lists).

        Like ``add_manual`` per range (whitespace trimmed; an existing item with the same key is accepted
        instead of duplicated; ranges holding no text are skipped); new items are accepted with score 1.0
        and ``source`` (``"manual"`` or ``"list"``). Returns the command, or None if nothing changed."""
        changes: list[tuple[ReviewItem | None, ReviewItem | None]] = []
        seen: set[tuple[int, int, str]] = set()
        for start, end in ranges:
            try:
                a, b = self._trim(start, end)
            except ValueError:
                continue
            key = (a, b, label)
            if key in seen:
                continue
            seen.add(key)
            existing = self.find(a, b, label)
            if existing is not None:
                if existing.status is not Status.ACCEPTED:
                    changes.append((existing, replace(existing, status=Status.ACCEPTED)))
                continue
            item = ReviewItem(self._take_id(), Span(a, b, label, 1.0, source), Status.ACCEPTED)  # type: ignore[arg-type]
            changes.append((None, item))
        return self._do(Command(description or f"mark {len(changes)} {label}", tuple(changes)))

    def adjust(self, item_id: int, start: int, end: int) -> ReviewItem:
        """Move an item's boundaries to ``start..end``; the reviewer's adjusted span counts as accepted."""
        it = self._items[item_id]
        s = it.span
        new_span = Span(start, end, s.label, s.score, s.source)
        self._check_span(new_span)
        if (start, end) == (s.start, s.end):
            return it
        if (start, end, s.label) in self._by_key:
            raise SpanExistsError("another item already covers exactly this span with this label")
        after = ReviewItem(it.id, new_span, Status.ACCEPTED)
        self._do(Command("adjust boundaries", ((it, after),)))
        return after

    def relabel(self, item_id: int, label: str) -> ReviewItem:
        it = self._items[item_id]
        if label == it.label:
            return it
        if (it.start, it.end, label) in self._by_key:
            raise SpanExistsError("another item already covers exactly this span with this label")
        s = it.span
        after = ReviewItem(it.id, Span(s.start, s.end, label, s.score, s.source), Status.ACCEPTED)
        self._do(Command(f"relabel {label}", ((it, after),)))
        return after

    # -- undo / redo ---------------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo_text(self) -> str | None:
        return self._undo[-1].description if self._undo else None

    def redo_text(self) -> str | None:
        return self._redo[-1].description if self._redo else None

    def undo(self) -> Command | None:
        if not self._undo:
            return None
        cmd = self._undo.pop()
        self._apply([(after, before) for before, after in cmd.changes])
        self._redo.append(cmd)
        self._emit("history_changed")
        return cmd

    def redo(self) -> Command | None:
        if not self._redo:
            return None
        cmd = self._redo.pop()
        self._apply(list(cmd.changes))
        self._undo.append(cmd)
        self._emit("history_changed")
        return cmd

    # -- internals ------------------------------------------------------------------------------------
    def _do(self, cmd: Command) -> Command | None:
        if not cmd.changes:
            return None
        now = _time.time()       # the audit trail: who decided, when (undo restores the earlier stamp)
        cmd = Command(cmd.description, tuple(
            (b, replace(a, by=self.reviewer, at=now, via=a.via if b is None or a.via != b.via else "")
             if a is not None else None) for b, a in cmd.changes))
        self._apply(list(cmd.changes))
        self._undo.append(cmd)
        self._redo.clear()
        self._emit("history_changed")
        return cmd

    def _apply(self, changes: list[tuple[ReviewItem | None, ReviewItem | None]]) -> None:
        """Move items from ``before`` to ``after`` state: insert, remove or replace, notifying listeners."""
        inserts = [after for before, after in changes if before is None and after is not None]
        removes = [before for before, after in changes if after is None and before is not None]
        updates = [(b, a) for b, a in changes if b is not None and a is not None]
        for it in removes:
            row = self._row_of[it.id]
            self._emit("row_about_to_be_removed", row)
            self._remove_raw(it.id)
            self._emit("row_removed", row, it)
        if inserts:
            self._append(inserts)
        if updates:
            olds = [self._items[b.id] for b, _ in updates]
            for old, (_, new) in zip(olds, updates):
                if old.span != new.span:
                    self._index.remove(old)
                    del self._by_key[old.key]
                    self._index.add(new)
                    self._by_key[new.key] = new.id
                self._items[new.id] = new
            self._emit("items_changed", olds, [a for _, a in updates])

    def _append(self, items: list[ReviewItem]) -> list[int]:
        first = len(self._rows)
        last = first + len(items) - 1
        self._emit("rows_about_to_be_inserted", first, last)
        for it in items:
            self._insert_raw(it)
        self._emit("rows_inserted", first, last)
        return [it.id for it in items]

    def _insert_raw(self, it: ReviewItem) -> None:
        self._items[it.id] = it
        self._row_of[it.id] = len(self._rows)
        self._rows.append(it.id)
        self._by_key[it.key] = it.id
        self._index.add(it)

    def _remove_raw(self, item_id: int) -> None:
        it = self._items.pop(item_id)
        row = self._row_of.pop(item_id)
        del self._rows[row]
        for r in range(row, len(self._rows)):
            self._row_of[self._rows[r]] = r
        self._by_key.pop(it.key, None)
        self._index.remove(it)

    def _take_id(self) -> int:
        i = self._next_id
        self._next_id += 1
        return i

    def _check_span(self, s: Span) -> None:
        if s.end > len(self.text):
            raise ValueError(f"span {s.start}..{s.end} outside text of length {len(self.text)}")

    def _trim(self, start: int, end: int) -> tuple[int, int]:
        start, end = max(0, start), min(len(self.text), end)
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        if start >= end:
            raise EmptySelectionError("the selection holds no text to mark")
        return start, end

