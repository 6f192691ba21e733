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
import math
import os
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..documents import limits as _limits
from ..detect.span import Span
from ..paths import user_data_dir
from .state import ReviewItem, ReviewState, Status

SCHEMA_VERSION = 1


def document_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def sessions_dir() -> Path:
    p = user_data_dir() / "sessions"
    if p.exists() and not p.is_dir():   # a file where the folder belongs: keep it aside, start afresh
        try:
            os.replace(p, p.with_name(f"sessions.corrupt-{int(time.time())}"))
        except OSError:
            pass
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
                {"id": it.id, "status": it.status.value, **it.span.to_json(), "score": float(it.score),
                 **({"reason": it.reason} if it.reason else {}),
                 **({"by": it.by, "at": it.at} if it.at else {}),
                 **({"via": it.via} if it.via else {})}
                for it in self.items
            ],
        }

    def to_bytes(self) -> bytes:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def take_snapshot(state: ReviewState, info: SessionInfo, seq: int = 0) -> Snapshot:
    return Snapshot(seq, session_path(info.doc_hash), tuple(state), len(state.text), state.threshold,
                    replace(info))


MAX_SESSION_BYTES = _limits.MAX_SESSION_BYTES


def _int(v, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{what} is not an integer")
    return v


def _number(v, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(float(v)):
        raise ValueError(f"{what} is not a finite number")
    return float(v)


def parse_session(data: object, text: str) -> tuple[list[ReviewItem], float, SessionInfo]:
    """Validate a decoded session for ``text`` completely, touching nothing. Raises ``ValueError``
    naming the first problem (wrong shape, wrong document, spans outside the text, bad values)."""
    if not isinstance(data, dict):
        raise ValueError(f"the file holds a JSON {type(data).__name__}, not a session")
    if data.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"unsupported session schema {data.get('schema')!r:.40}")
    doc_hash = document_hash(text)
    if data.get("doc_hash") != doc_hash or data.get("doc_length") != len(text):
        raise ValueError("the session belongs to a different document")
    raw_items = data.get("items")
    if not isinstance(raw_items, list):
        raise ValueError("'items' is not a list")
    items = []
    for n, d in enumerate(raw_items):
        if not isinstance(d, dict):
            raise ValueError(f"item {n} is not an object")
        start, end = _int(d.get("start"), "start"), _int(d.get("end"), "end")
        if not 0 <= start < end <= len(text):
            raise ValueError(f"item {n} lies outside the document")
        label, source = d.get("label"), d.get("source", "model")
        if not isinstance(label, str) or not label or not isinstance(source, str):
            raise ValueError(f"item {n} has no valid label/source")
        score = _number(d.get("score"), "score")
        span = Span(start, end, label, score, source)
        reason = d.get("reason")
        if reason is not None:
            from .reasons import ReasonError, normalize_reason

            try:
                reason = normalize_reason(reason)
            except ReasonError:
                raise ValueError(f"item {n} has an invalid reason") from None
        by, at = d.get("by", ""), d.get("at", 0.0)
        if not isinstance(by, str) or isinstance(at, bool) or not isinstance(at, (int, float)) \
                or not math.isfinite(at):
            raise ValueError(f"item {n} has an invalid audit stamp")
        via = d.get("via", "")
        if via not in ("", "duplicate"):
            raise ValueError(f"item {n} has an invalid 'via'")
        items.append(ReviewItem(_int(d.get("id"), "id"), span, Status(d.get("status")), reason, by[:200],
                                float(at), via))
    threshold = min(1.0, max(0.0, _number(data.get("threshold", 0.0), "threshold")))
    doc_path, model_id = data.get("doc_path", ""), data.get("model_id", "")
    saved_at = data.get("saved_at", 0.0)
    info = SessionInfo(doc_hash, doc_path if isinstance(doc_path, str) else "",
                       model_id if isinstance(model_id, str) else "", threshold,
                       data.get("detection_complete") is True,
                       float(saved_at) if isinstance(saved_at, (int, float)) and not isinstance(saved_at, bool)
                       and math.isfinite(saved_at) else 0.0)
    return items, threshold, info


def restore_into(state: ReviewState, data: dict) -> SessionInfo:
    """Load ``data`` (a saved session) into ``state``; raises ``ValueError`` if it is not for this text
    or is malformed in any way — then ``state`` is left as it was."""
    items, threshold, info = parse_session(data, state.text)
    state.set_threshold(threshold)
    state.restore_items(items)
    info.threshold = state.threshold
    return info


class SessionCorruptError(Exception):
    """A saved session exists for this document but cannot be read. It was moved aside (not deleted)
    and the document starts on defaults; ``str(exc)`` is a one-line message for the reviewer, also in
    ``.message``; ``.aside`` is where the file went (``None`` if it could not be moved)."""

    def __init__(self, message: str, aside: Path | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.aside = aside


def load_session(state: ReviewState) -> SessionInfo | None:
    """Restore the saved session for ``state.text`` if there is one; ``None`` otherwise.

    Anything wrong with the file — not JSON, JSON of the wrong shape (``[]``, ``42``, ``null``), nested
    too deeply, values out of range, a folder in its place — moves it aside (``<hash>.corrupt-<time>``)
    and raises ``SessionCorruptError``; ``state`` then holds no restored items (the defaults).
    """
    path = session_path(document_hash(state.text))
    if not os.path.lexists(path):
        return None
    try:
        if path.is_dir():
            raise ValueError("a folder is in place of the session file")
        if path.stat().st_size > MAX_SESSION_BYTES:
            raise ValueError("the file is too large")
        data = json.loads(path.read_bytes().decode("utf-8"))
        items, threshold, info = parse_session(data, state.text)
    except (ValueError, KeyError, TypeError, OSError, RecursionError, MemoryError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else (
            "too large" if isinstance(exc, MemoryError) else str(exc) or type(exc).__name__)
        aside: Path | None = path.with_name(f"{path.stem}.corrupt-{int(time.time())}")
        try:
            os.replace(path, aside)
        except OSError:
            aside = None
        where = f"kept it as {aside.name}" if aside else "it could not be moved aside"
        raise SessionCorruptError(f"The saved review of this document could not be read ({reason:.200}); "
                                  f"{where} and started a fresh review.", aside) from None
    try:
        state.set_threshold(threshold)
        state.restore_items(items)
    except (ValueError, TypeError) as exc:      # e.g. duplicate/overlapping spans the state refuses
        state.restore_items([])
        raise SessionCorruptError(f"The saved review of this document could not be restored ({exc}); "
                                  "started a fresh review.") from None
    info.threshold = state.threshold
    return info


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
