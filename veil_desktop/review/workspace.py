"""A workspace of documents under review: the queue, each document's state, background detection into
sessions, and "export all reviewed". Pure Python, no Qt (``ui/workspace_panel.py`` is the adapter).

States (``DocStatus``), in the order a document normally goes through them:
``queued`` (not detected yet) → ``detecting`` → ``pending`` (``pending`` > 0 suggestions to decide) or
``reviewed`` (detection finished and nothing pending) → ``exported``; ``failed`` when the file cannot be
read or detection fails (``message`` says why).

A document's review lives where it always lives: its session file (``review/session.py``, keyed by the
hash of its text). Background detection (``detect_document``) opens the file, runs the detector, applies
the term lists and writes the session with ``detection_complete``; when the reviewer opens that document
the window restores the session and does not detect again.

``export_reviewed`` writes every *reviewed* document (through the one export core,
``review.export_job.export_review``, as a single export and ``veil-redact redact`` do: same plan, copies
check, atomic write, re-read leak check, decision record and report) into one folder and a
summary ``veil-export-summary.json`` (file names, counts and check results; never document text).
Documents still pending, queued or failed are listed in the summary as not exported.

Threading: a ``Workspace`` is owned by one thread (the GUI thread); ``detect_document`` and
``export_reviewed`` take no workspace and may run on a worker thread.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Callable, Iterable, Sequence

from ..detect.driver import DetectionCancelled
from .session import SessionInfo, document_hash, load_session, take_snapshot, write_atomic
from .state import ReviewState, Status

SUMMARY_NAME = "veil-export-summary.json"


class DocStatus(str, Enum):
    QUEUED = "queued"
    DETECTING = "detecting"
    PENDING = "pending"
    REVIEWED = "reviewed"
    EXPORTED = "exported"
    FAILED = "failed"


@dataclass
class DocEntry:
    path: Path
    base: Path | None = None          # the folder it was found in (output names keep the relative path)
    status: DocStatus = DocStatus.QUEUED
    pending: int = 0
    message: str = ""
    output: Path | None = None

    @property
    def rel(self) -> Path:
        if self.base is not None:
            try:
                return self.path.relative_to(self.base)
            except ValueError:
                pass
        return Path(self.path.name)


def _supported() -> tuple[str, ...]:
    from ..documents import supported_suffixes

    return supported_suffixes()


def expand_paths(paths: Iterable["str | os.PathLike[str]"]) -> tuple[list[tuple[Path, Path | None]], list[str]]:
    """Files (with the folder they came from) for ``paths``: folders are searched recursively for supported
    files (hidden files, our temp files, reports and our own earlier outputs — a file whose report beside
    it names it — skipped), in name order. Returns ``(found, problems)``."""
    from ..documents.export import is_own_output
    from ..documents.formats import is_sidecar

    suffixes = set(_supported())
    found: list[tuple[Path, Path | None]] = []
    problems: list[str] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            n = 0
            for f in sorted(p.rglob("*")):
                rel = f.relative_to(p)
                if any(part.startswith(".") for part in rel.parts):
                    continue
                if (f.is_file() and f.suffix.lower() in suffixes and not is_sidecar(f)
                        and not is_own_output(f)):
                    found.append((f, p))
                    n += 1
            if not n:
                problems.append(f"{p.name}: no supported documents in this folder")
        elif p.is_file():
            if p.suffix.lower() in suffixes:
                found.append((p, None))
            else:
                problems.append(f"{p.name}: unsupported file type {p.suffix or '(none)'}")
        else:
            problems.append(f"{p}: no such file or folder")
    return found, problems


class Workspace:
    """The documents of one working session, in list order, and which one is on screen."""

    def __init__(self) -> None:
        self.entries: list[DocEntry] = []
        self.current: int = -1
        self._listeners: list[Callable[[int], None]] = []

    # -- listeners: called with the index of a changed entry, or -1 when rows were added ---------------
    def add_listener(self, fn: Callable[[int], None]) -> None:
        self._listeners.append(fn)

    def _emit(self, index: int) -> None:
        for fn in list(self._listeners):
            fn(index)

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, i: int) -> DocEntry:
        return self.entries[i]

    def index_of(self, path: "str | os.PathLike[str]") -> int:
        key = _key(Path(path))
        for i, e in enumerate(self.entries):
            if _key(e.path) == key:
                return i
        return -1

    def add(self, paths: Iterable["str | os.PathLike[str]"]) -> tuple[list[int], list[str]]:
        """Add files and folders (duplicates of documents already listed are skipped).
        Returns ``(indices of the new entries, problems)``."""
        found, problems = expand_paths(paths)
        new: list[int] = []
        known = {_key(e.path) for e in self.entries}
        for f, base in found:
            k = _key(f)
            if k in known:
                continue
            known.add(k)
            self.entries.append(DocEntry(f, base))
            new.append(len(self.entries) - 1)
        if new:
            self._emit(-1)
        return new, problems

    def set_current(self, index: int) -> None:
        if not -1 <= index < len(self.entries):
            raise IndexError(index)
        self.current = index

    def step(self, delta: int) -> int | None:
        """The index ``delta`` entries away from the current one, or None past either end."""
        if not self.entries:
            return None
        i = (self.current if self.current >= 0 else (-1 if delta > 0 else len(self.entries))) + delta
        return i if 0 <= i < len(self.entries) else None

    def next_to_detect(self) -> int | None:
        """The document to detect next: the one on screen first, then the first queued in list order."""
        if 0 <= self.current < len(self.entries) and self.entries[self.current].status is DocStatus.QUEUED:
            return self.current
        for i, e in enumerate(self.entries):
            if e.status is DocStatus.QUEUED:
                return i
        return None

    def update(self, index: int, status: DocStatus | None = None, *, pending: int | None = None,
               message: str | None = None, output: Path | None = None) -> None:
        e = self.entries[index]
        before = (e.status, e.pending, e.message, e.output)
        if status is not None:
            e.status = status
        if pending is not None:
            e.pending = pending
        if message is not None:
            e.message = message
        if output is not None:
            e.output = output
        if (e.status, e.pending, e.message, e.output) != before:
            self._emit(index)

    def update_from_state(self, index: int, state: ReviewState, detection_complete: bool) -> None:
        """Set a document's state from its review (the document on screen)."""
        status, pending = review_status(state, detection_complete)
        e = self.entries[index]
        if e.status is DocStatus.EXPORTED and status is DocStatus.REVIEWED:
            status = DocStatus.EXPORTED           # still as exported
        self.update(index, status, pending=pending, message="")

    def reviewed(self) -> list[int]:
        return [i for i, e in enumerate(self.entries) if e.status in (DocStatus.REVIEWED, DocStatus.EXPORTED)]

    def not_reviewed(self) -> list[int]:
        return [i for i, e in enumerate(self.entries)
                if e.status not in (DocStatus.REVIEWED, DocStatus.EXPORTED)]


def _key(p: Path) -> str:
    try:
        return str(p.resolve())
    except OSError:
        return str(p.absolute())


def review_status(state: ReviewState, detection_complete: bool) -> tuple[DocStatus, int]:
    """``(status, pending)`` of a review. "Reviewed" means every suggestion has a decision: pending
    suggestions the threshold hides count as pending too (issue 22: a threshold of 1.00 hid every
    suggestion and the document was listed as reviewed, then exported unmasked by *Export all*)."""
    pending = state.pending_count() + state.hidden_pending_count()
    if pending:
        return DocStatus.PENDING, pending
    if not detection_complete:
        return DocStatus.QUEUED, 0
    return DocStatus.REVIEWED, 0


# ---------------------------------------------------------------------------------- background detection
@dataclass
class DetectOutcome:
    status: DocStatus
    pending: int = 0
    message: str = ""
    items: int = 0
    from_session: bool = False


@dataclass
class PreparedDocument:
    """A document read for background detection (``prepare_document``): its text, a fresh review state
    (with whatever its session held) and a note about a corrupt session."""
    path: Path
    text: str
    state: ReviewState
    note: str = ""


def prepare_document(path: Path, *, threshold: float = 0.5) -> PreparedDocument | DetectOutcome:
    """Read ``path`` and its session. Returns a ``DetectOutcome`` when there is nothing to detect (the file
    cannot be read: ``FAILED``; its session says detection finished), else the ``PreparedDocument``."""
    from ..documents import open_document
    from ..documents.errors import DocumentError

    try:
        doc = open_document(path)
    except DocumentError as e:
        return DetectOutcome(DocStatus.FAILED, message=str(e))
    except OSError as e:
        return DetectOutcome(DocStatus.FAILED, message=f"{path.name}: {e.strerror or e}")
    state = ReviewState(doc.text, threshold=threshold)
    try:
        info = load_session(state)
    except Exception as e:  # noqa: BLE001 - a corrupt session is kept aside by load_session
        info = None
        note = str(e)
    else:
        note = ""
    if info is not None and info.detection_complete:
        status, pending = review_status(state, True)
        return DetectOutcome(status, pending, note, len(state), from_session=True)
    return PreparedDocument(path, doc.text, state, note)


def finish_document(prep: PreparedDocument, spans, *, detector_id: str = "", terms=None) -> DetectOutcome:
    """Merge the detector's ``spans`` (over the whole ``prep.text``) into ``prep.state``, apply ``terms``
    and write the session with ``detection_complete``."""
    state, text = prep.state, prep.text
    spans = list(spans)
    if terms:
        applied = terms.apply(text, spans)
        spans = applied.spans
        accept_list_hits(state, applied.list_spans)
    state.add_detected(spans)        # after the list items: a detection of a listed value is not pending
    info = SessionInfo(document_hash(text), str(prep.path), detector_id or "", state.threshold, True)
    snap = take_snapshot(state, info)
    write_atomic(snap.path, snap.to_bytes())
    status, pending = review_status(state, True)
    return DetectOutcome(status, pending, prep.note, len(state))


def detect_document(path: Path, detector, *, threshold: float = 0.5, terms=None,
                    cancelled: Callable[[], bool] = lambda: False) -> DetectOutcome:
    """Open ``path``, detect (unless its session says detection finished), apply ``terms``
    (``review.terms.TermList``: keep-term detections dropped, mask-term hits added as accepted items with
    source ``list``) and save the session. Never raises for a bad document: returns ``FAILED``.
    Raises ``DetectionCancelled`` when ``cancelled()`` turns true (nothing is saved then).

    The window does not call this: its background queue runs ``prepare_document`` → the detection pool's
    sliced worker → ``finish_document`` (``ui/detection.py``); this whole-text form is for the core."""
    prep = prepare_document(path, threshold=threshold)
    if isinstance(prep, DetectOutcome):
        return prep
    from ..detect.driver import detect_spans

    try:
        spans = detect_spans(detector, prep.text, cancelled=cancelled)    # the one detector driver
    except DetectionCancelled:
        raise
    except Exception as e:  # noqa: BLE001 - a detector failure is a message for this document
        return DetectOutcome(DocStatus.FAILED, message=f"detection failed: {e}")
    return finish_document(prep, spans, detector_id=getattr(detector, "id", "") or "", terms=terms)


def accept_list_hits(state: ReviewState, list_spans, *, undoable: bool = False) -> int:
    """Deny-list hits as accepted items with source ``list``; a pending item already on the same span and
    label (a detector suggestion restored from a session) is accepted instead (as one undoable step when
    ``undoable``). Returns the number of items added or accepted."""
    added = state.add_detected(list_spans, Status.ACCEPTED)
    waiting = [it.id for s in list_spans if (it := state.find(s.start, s.end, s.label)) is not None
               and it.status is Status.PENDING]
    if waiting:
        if undoable:
            state.set_status(waiting, Status.ACCEPTED, description="term list: mask")
        else:  # not shown anywhere yet: no history to keep
            from dataclasses import replace as _replace

            ids = set(waiting)
            state.restore_items([_replace(it, status=Status.ACCEPTED) if it.id in ids else it for it in state])
    return len(added) + len(waiting)


# ---------------------------------------------------------------------------------- export all reviewed
@dataclass
class ExportRow:
    source: Path
    output: Path | None
    status: str                      # "exported", "failed", "not_reviewed"
    message: str = ""
    counts: dict = field(default_factory=dict)
    leak_check: str = ""
    below_threshold: int = 0         # pending suggestions hidden below the threshold, left unmasked
    #: why it was not exported, for the UI's own words: exists / no_session / not_finished / copies / leak /
    #: pending / error / queued / detecting / unreadable / cancelled / same_name / original; ``copies``: how many
    code: str = ""
    copies: int = 0


@dataclass
class ExportAllSummary:
    folder: Path
    rows: list[ExportRow]
    summary_path: Path | None = None

    @property
    def exported(self) -> list[ExportRow]:
        return [r for r in self.rows if r.status == "exported"]

    @property
    def failed(self) -> list[ExportRow]:
        return [r for r in self.rows if r.status == "failed"]

    @property
    def not_reviewed(self) -> list[ExportRow]:
        return [r for r in self.rows if r.status == "not_reviewed"]


def output_path_for(entry: DocEntry, folder: Path) -> Path:
    """``folder/<relative name>`` by the one naming rule (``documents.formats.output_name``: HWP, read-only
    for now, becomes ``<name>.hwp.txt``)."""
    from ..documents import output_name

    return folder / output_name(entry.rel)


def export_one(entry: DocEntry, out: Path, *, styles=None, default_style=None, lang: str | None = None,
               allow_below_threshold: bool = False, overwrite: bool = False, second_opinion=None,
               disclosure: dict | None = None) -> ExportRow:
    """Export one reviewed document from its session through the export core (``second_opinion``: the
    detector's ``detect``, run over the output as the window and the CLI do; ``disclosure``: the
    ``ExportRequest`` fields a single export takes from the settings, ``AppSettings.disclosure_fields()``, so
    export all writes the same reasons and redaction log). Failures
    become a row with a message."""
    from ..documents import open_document
    from ..documents.errors import DocumentError, LeakDetected
    from ..masking import DEFAULT_MASK_STYLE
    from .export import PendingPolicy, PendingSpansError
    from .export_job import CopiesFound, ExportRequest, export_review

    try:
        if out.exists() and not overwrite:
            return ExportRow(entry.path, None, "failed", f"{out.name} already exists (not replaced)", code="exists")
        doc = open_document(entry.path)
        state = ReviewState(doc.text)
        info = load_session(state)
        if info is None:
            return ExportRow(entry.path, None, "not_reviewed",
                             "no saved review for this content (the file changed since it was reviewed?)",
                             code="no_session")
        if not info.detection_complete:
            return ExportRow(entry.path, None, "not_reviewed", "detection has not finished", code="not_finished")
        out.parent.mkdir(parents=True, exist_ok=True)
        req = ExportRequest(out, dict(styles or {}), default_style or DEFAULT_MASK_STYLE.value,
                            PendingPolicy.BLOCK, info.model_id, allow_below_threshold=allow_below_threshold,
                            tag_lang=lang, review={"export_all": True}, overwrite=overwrite,
                            second_opinion=second_opinion, **(disclosure or {}))
        res = export_review(doc, state, req)
        if isinstance(res, CopiesFound):
            where = res.examples[0][0] if res.examples else ""
            return ExportRow(entry.path, None, "failed",
                             f"leak check: {res.count} unmasked cop{'y' if res.count == 1 else 'ies'} of masked "
                             f"values remain{f' (first in {where})' if where else ''}; open the document and "
                             "mask them too", code="copies", copies=res.count)
        return ExportRow(entry.path, out, "exported", "", dict(res.counts),
                         str(res.leak_check.get("result", "")), state.hidden_pending_count())
    except PendingSpansError as e:
        return ExportRow(entry.path, None, "not_reviewed", str(e), code="pending")
    except LeakDetected as e:
        return ExportRow(entry.path, None, "failed", f"leak check: {e}", code="leak")
    except (DocumentError, OSError, ValueError) as e:
        return ExportRow(entry.path, None, "failed", str(e), code="error")


def export_reviewed(entries: Sequence[DocEntry], folder: Path, *, styles=None, default_style=None,
                    lang: str | None = None, allow_below_threshold: bool = False, overwrite: bool = False,
                    second_opinion=None, disclosure: dict | None = None, cancelled: Callable[[], bool] = lambda: False,
                    progress: Callable[[int, int], None] | None = None) -> ExportAllSummary:
    """Export every reviewed entry into ``folder`` and write the summary; others are listed only."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rows: list[ExportRow] = []
    # pending documents are tried too: the saved review decides (visible pending -> not exported; only
    # suggestions hidden below the threshold -> exported when the reviewer confirmed leaving them)
    todo = [e for e in entries if e.status in (DocStatus.REVIEWED, DocStatus.EXPORTED, DocStatus.PENDING)]
    for e in entries:
        if e.status not in (DocStatus.REVIEWED, DocStatus.EXPORTED, DocStatus.PENDING):
            why = {DocStatus.PENDING: f"{e.pending} suggestion(s) pending",
                   DocStatus.QUEUED: "not detected yet", DocStatus.DETECTING: "detection running",
                   DocStatus.FAILED: e.message or "could not be read"}[e.status]
            rows.append(ExportRow(e.path, None, "not_reviewed", why, code={
                DocStatus.QUEUED: "queued", DocStatus.DETECTING: "detecting"}.get(e.status, "unreadable")))
    outs: dict[str, Path] = {}
    for n, e in enumerate(todo, 1):
        if cancelled():
            rows.append(ExportRow(e.path, None, "failed", "cancelled before export", code="cancelled"))
            continue
        out = output_path_for(e, folder)
        if _key(out) in outs:
            rows.append(ExportRow(e.path, None, "failed", f"same output name as {outs[_key(out)].name}",
                                  code="same_name"))
            continue
        outs[_key(out)] = e.path
        if _key(out) == _key(e.path):
            rows.append(ExportRow(e.path, None, "failed", "the output would overwrite the original",
                                  code="original"))
            continue
        rows.append(export_one(e, out, styles=styles, default_style=default_style, lang=lang,
                               allow_below_threshold=allow_below_threshold, overwrite=overwrite,
                               second_opinion=second_opinion, disclosure=disclosure))
        if progress is not None:
            progress(n, len(todo))
    order = {_key(e.path): i for i, e in enumerate(entries)}
    rows.sort(key=lambda r: order.get(_key(r.source), 0))
    summary = ExportAllSummary(folder, rows)
    summary.summary_path = write_summary(summary)
    return summary


def write_summary(summary: ExportAllSummary) -> Path:
    """``<folder>/veil-export-summary.json``: one entry per document; file names, counts, checks."""
    def name(p: Path | None) -> str | None:
        if p is None:
            return None
        try:
            return str(p.relative_to(summary.folder))
        except ValueError:
            return p.name

    data = {
        "created_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "exported": len(summary.exported), "failed": len(summary.failed),
        "not_exported": len(summary.not_reviewed),
        "documents": [{"source": r.source.name, "output": name(r.output), "status": r.status,
                       "message": r.message, "counts": r.counts, "leak_check": r.leak_check,
                       "pending_below_threshold": r.below_threshold}
                      for r in summary.rows],
    }
    path = summary.folder / SUMMARY_NAME
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))
    return path
