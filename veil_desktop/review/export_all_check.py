"""What *Export all* would do, per document, before anything is written (no Qt).

``check_entries(entries)`` reads each listed document and its saved review (the same session
``review.workspace.export_one`` exports from) and says, per document: pending suggestions (visible),
suggestions hidden below the threshold, whether detection finished (a partial detection is never
exported by *Export all*), unreadable pages, and the outcome ``kind``:

- ``export``: every suggestion decided, detection complete: exported;
- ``hidden``: only suggestions hidden below the threshold are undecided: exported only when the reviewer
  ticks the counted below-threshold confirmation (the same choice as a single export), else not;
- ``skip``: not exported; ``reason`` says why (``pending``, ``partial``, ``queued``, ``detecting``,
  ``failed``, ``no_session``, ``unreadable_file``).

The window shows these rows in one summary dialog (``ui/export_all_dialog.py``) before writing.
Threading: any thread (reads files only).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .state import ReviewState
from .summary import unreadable_pages


@dataclass(frozen=True)
class DocCheck:
    source: Path
    kind: str                          # "export", "hidden", "skip"
    reason: str = ""                   # for "skip": pending / partial / queued / detecting / failed / no_session
    pending: int = 0                   # visible pending suggestions
    hidden: int = 0                    # pending suggestions hidden below the threshold
    partial: bool = False              # detection did not finish
    unreadable: tuple[int, ...] = ()   # 1-based pages the reader could not read
    message: str = ""                  # the reader's message for an unreadable file

    def exported(self, below_threshold_ok: bool) -> bool:
        return self.kind == "export" or (self.kind == "hidden" and below_threshold_ok)


def check_entry(entry) -> DocCheck:
    from ..documents import open_document
    from ..documents.errors import DocumentError
    from .session import load_session
    from .workspace import DocStatus

    path = Path(entry.path)
    status = entry.status
    if status in (DocStatus.QUEUED, DocStatus.DETECTING, DocStatus.FAILED):
        return DocCheck(path, "skip", status.value, pending=entry.pending, message=entry.message)
    try:
        doc = open_document(path)
    except (DocumentError, OSError, ValueError) as e:
        return DocCheck(path, "skip", "unreadable_file", message=str(e))
    state = ReviewState(doc.text)
    try:
        info = load_session(state)
    except Exception as e:  # noqa: BLE001 - a corrupt session: nothing to export from
        return DocCheck(path, "skip", "no_session", message=str(e))
    unreadable = unreadable_pages(doc)
    if info is None:
        return DocCheck(path, "skip", "no_session", unreadable=unreadable)
    pending, hidden = state.pending_count(), state.hidden_pending_count()
    partial = not info.detection_complete
    common = dict(pending=pending, hidden=hidden, partial=partial, unreadable=unreadable)
    if partial:
        return DocCheck(path, "skip", "partial", **common)
    if pending:
        return DocCheck(path, "skip", "pending", **common)
    if hidden:
        return DocCheck(path, "hidden", **common)
    return DocCheck(path, "export", **common)


def check_entries(entries: Sequence) -> list[DocCheck]:
    return [check_entry(e) for e in entries]
