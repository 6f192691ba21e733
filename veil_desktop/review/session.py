"""Session persistence: a review saved as JSON under ``user_data_dir()/sessions/<document hash>.json``.

Invariants:
- a session is keyed by the SHA-256 of the document's reviewable text, so reopening the same content
  (even from another path) restores it, and a changed document never gets stale offsets applied;
- files are written atomically (temp file in the same directory, fsync, ``os.replace``): a crash leaves
  either the previous session or the new one, never a torn file;
- ``Autosaver`` serialises writes from any thread and drops a snapshot older than one already written,
  so a slow write finishing late can never overwrite a newer session.

No Qt here: the UI decides *when* to save (debounced timer); this module decides *how*.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..detect.span import Span
from ..paths import user_data_dir
from .state import ReviewItem, ReviewState, Status

SCHEMA_VERSION = 1


def document_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def sessions_dir() -> Path:
    p = user_data_dir() / "sessions"
    p.mkdir(parents=True, exist_ok=True)
    return p


def session_path(doc_hash: str) -> Path:
    if not (len(doc_hash) == 64 and all(c in "0123456789abcdef" for c in doc_hash)):
        raise ValueError("not a document hash")
    return sessions_dir() / f"{doc_hash}.json"


@dataclass
class SessionInfo:
    """What a session records besides the items."""

    doc_hash: str
    doc_path: str = ""
    model_id: str = ""
    threshold: float = 0.0
    detection_complete: bool = False
    saved_at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class Snapshot:
    """An immutable capture of a review, cheap to take on the owner thread (items are immutable, so this
    is a tuple of references), serialised later on any thread by ``to_bytes()``."""

    seq: int
    path: Path
    items: tuple[ReviewItem, ...]
    doc_length: int
    threshold: float
    info: SessionInfo

    def to_dict(self) -> dict:
        info = self.info
        return {
            "schema": SCHEMA_VERSION,
            "doc_hash": info.doc_hash,
            "doc_path": info.doc_path,
            "doc_length": self.doc_length,
            "model_id": info.model_id,
            "threshold": self.threshold,
            "detection_complete": info.detection_complete,
            "saved_at": time.time(),
            "items": [
                {"id": it.id, "status": it.status.value, **it.span.to_json(), "score": float(it.score)}
                for it in self.items
            ],
        }

    def to_bytes(self) -> bytes:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def take_snapshot(state: ReviewState, info: SessionInfo, seq: int = 0) -> Snapshot:
    return Snapshot(seq, session_path(info.doc_hash), tuple(state), len(state.text), state.threshold,
                    replace(info))


def restore_into(state: ReviewState, data: dict) -> SessionInfo:
    """Load ``data`` (a saved session) into ``state``; raises ``ValueError`` if it is not for this text."""
    if data.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"unsupported session schema {data.get('schema')!r}")
    doc_hash = document_hash(state.text)
    if data.get("doc_hash") != doc_hash or data.get("doc_length") != len(state.text):
        raise ValueError("the session belongs to a different document")
    items = []
    for d in data["items"]:
        span = Span(int(d["start"]), int(d["end"]), str(d["label"]), float(d["score"]), d.get("source", "model"))
        items.append(ReviewItem(int(d["id"]), span, Status(d["status"])))
    state.set_threshold(float(data.get("threshold", 0.0)))
    state.restore_items(items)
    return SessionInfo(doc_hash, data.get("doc_path", ""), data.get("model_id", ""),
                       state.threshold, bool(data.get("detection_complete", False)),
                       float(data.get("saved_at", 0.0)))


class SessionCorruptError(Exception):
    """A saved session exists for this document but cannot be read (it is kept aside, not deleted)."""


def load_session(state: ReviewState) -> SessionInfo | None:
    """Restore the saved session for ``state.text`` if there is one; ``None`` otherwise.

    A corrupt session file is moved aside (``.corrupt``) rather than deleted, and ``None`` is returned.
    """
    path = session_path(document_hash(state.text))
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return restore_into(state, data)
    except (ValueError, KeyError, TypeError) as exc:
        aside = path.with_suffix(f".corrupt-{int(time.time())}")
        os.replace(path, aside)
        raise SessionCorruptError(f"the saved review could not be read ({exc}); kept it as {aside.name}") from exc



def write_atomic(path: Path, payload: bytes) -> None:
    """Write ``payload`` to ``path`` via a temp file in the same directory + ``os.replace``."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Autosaver:
    """Thread-safe, ordered writer of session snapshots.

    ``snapshot()`` runs on the owner thread and only captures references (O(n) pointer copies, no
    serialisation); ``write()`` serialises and writes, on any thread. A snapshot older than the last one
    written for the same file is dropped, so a slow write finishing late never overwrites a newer session.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seq = 0
        self._written: dict[Path, int] = {}
        self.last_error: str | None = None

    def snapshot(self, state: ReviewState, info: SessionInfo) -> Snapshot:
        self._seq += 1
        return take_snapshot(state, info, self._seq)

    def write(self, snap: Snapshot) -> bool:
        payload = snap.to_bytes()  # outside the lock: serialising is the slow part
        with self._lock:
            if self._written.get(snap.path, 0) >= snap.seq:
                return False
            try:
                write_atomic(snap.path, payload)
            except OSError as exc:
                self.last_error = f"autosave failed: {exc}"
                raise
            self._written[snap.path] = snap.seq
            self.last_error = None
            return True
