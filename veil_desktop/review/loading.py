"""Opening a document for review: read it, build its ``ReviewState``, restore a saved review. Pure Python.

Runs on a pool thread (the window starts it through ``ui.worker.TaskWorker``); the result is handed to the
GUI thread, which takes ownership of the state. ``snapshot_state`` makes the independent copy that export
and autosave use on another thread.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .session import SessionCorruptError, SessionInfo, load_session
from .state import ReviewState


@dataclass
class Loaded:
    """Result of ``load_for_review`` (built on a pool thread, then handed to the GUI thread)."""

    path: Path
    document: Any            # veil_desktop.documents.Document
    state: ReviewState       # no listeners yet; the GUI thread takes ownership
    session: SessionInfo | None
    note: str = ""           # a user-facing note (e.g. the saved review could not be read)


def load_for_review(path: Path, threshold: float) -> Loaded:
    """Open ``path`` and restore its saved review, if any. Raises the reader's clear error on bad input."""
    from ..documents import open_document

    doc = open_document(Path(path))
    state = ReviewState(doc.text, threshold=threshold)
    note = ""
    try:
        info = load_session(state)
    except SessionCorruptError as exc:
        info, note = None, str(exc)
    if info is not None:
        info.doc_path = str(path)
    return Loaded(Path(path), doc, state, info, note)


def snapshot_state(state: ReviewState) -> ReviewState:
    """An independent copy (items are immutable, so this is cheap) for use on another thread."""
    copy = ReviewState(state.text, threshold=state.threshold)
    copy.restore_items(list(state))
    return copy
