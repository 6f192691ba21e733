"""The UI's only doors to the core: opening/exporting documents and building the detector.

Everything here is plain Python that runs on pool threads (no widgets). It calls the shared modules —
``veil_desktop.documents`` (``open_document`` / ``export_document``) and
``veil_desktop.detect.default.build_default_detector`` — so the app, the CLI and the tests share one
implementation of each.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..detect.events import Detector
from ..masking import MaskStyle
from ..detect.span import Span
from ..review.export import PendingPolicy, build_plan, spans_to_mask
from ..review.session import SessionCorruptError, SessionInfo, document_hash, load_session
from ..review.settings import AppSettings
from ..review.state import ReviewState, Status


@dataclass
class Loaded:
    """Result of ``load_for_review`` (built on a pool thread, then handed to the GUI thread)."""

    path: Path
    document: Any            # veil_desktop.documents.Document
    state: ReviewState       # no listeners yet; the GUI thread takes ownership
    session: SessionInfo | None
    note: str = ""


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


def new_session_info(loaded: Loaded) -> SessionInfo:
    return SessionInfo(document_hash(loaded.state.text), str(loaded.path))


@dataclass(frozen=True)
class ExportRequest:
    out_path: Path
    styles: dict[str, str]
    default_style: str
    policy: PendingPolicy
    detector_id: str = ""
    #: mask unmasked copies of masked values too (the reviewer agreed); otherwise they stop the export
    mask_copies: bool = False


#: how many copies the question shows in context (the message stays at most ~5 lines)
COPIES_SHOWN = 4
COPY_CONTEXT_CHARS = 16


@dataclass(frozen=True)
class CopiesFound:
    """``export_review``'s answer when masked values also occur unmasked elsewhere: nothing was written.

    ``spans``: one span per unmasked copy, carrying the label/score/source of the masked item whose value
    it repeats (so it can be recorded in the review as accepted); ``examples``: the first
    ``COPIES_SHOWN`` copies as one-line ``(part name, context)`` strings with the value in ``[ ]``.
    """

    request: ExportRequest
    spans: tuple[Span, ...]
    examples: tuple[tuple[str, str], ...]

    @property
    def count(self) -> int:
        return len(self.spans)


def export_review(document: Any, state: ReviewState, req: ExportRequest) -> Any:
    """Build the plan (GUI thread callers pass a *snapshot* state) and write it via ``export_document``.

    Runs on a pool thread. Unless ``req.mask_copies``, the plan is first checked for unmasked copies of
    the values it masks (``find_unmasked_copies``, outside removed parts — the same rule as the writer's);
    if there are any, nothing is written and a ``CopiesFound`` is returned for the reviewer to decide.

    Raises ``PendingSpansError`` under the block policy, ``DocumentError``/``LeakDetected`` from the
    writer; nothing is written in any of those cases.
    """
    from ..documents import export_document

    plan = build_plan(state, req.styles, req.policy, req.default_style)
    if not req.mask_copies:
        found = find_copies(document, state, plan, req)
        if found is not None:
            return found
    decisions = [{"start": it.start, "end": it.end, "label": it.label, "status": it.status.value,
                  "source": it.source, "score": round(float(it.score), 4)} for it in state]
    return export_document(document, plan, req.out_path, detector_id=req.detector_id,
                           threshold=state.threshold, styles=req.styles, default_style=req.default_style,
                           decisions=decisions, mask_copies=req.mask_copies)


def find_copies(document: Any, state: ReviewState, plan: list, req: ExportRequest) -> CopiesFound | None:
    """The unmasked copies ``export_document`` would refuse, as a ``CopiesFound`` (``None`` if none)."""
    from ..documents import find_unmasked_copies
    from ..documents.matching import strip_separators

    text = state.text
    removed = [(p.start, p.end) for p in getattr(document, "parts", ()) if p.removed]
    copies = [(a, b) for a, b in find_unmasked_copies(text, plan)
              if not any(s <= a and b <= e for s, e in removed)]  # removed parts are not written
    if not copies:
        return None
    # which masked item each copy repeats: matching is separator-insensitive, so compare stripped cores;
    # the highest-scoring masked item of a value lends its label, score and source
    masked = spans_to_mask(state, req.policy)
    by_core: dict[str, Span] = {}
    for s in sorted(masked, key=lambda s: -s.score):
        by_core.setdefault(strip_separators(text[s.start:s.end]), s)
    spans = []
    for a, b in copies:
        src = by_core.get(strip_separators(text[a:b]))
        if src is None:  # the plan merged overlapping spans into one value; fall back to an overlapping one
            src = next((s for s in masked if strip_separators(text[s.start:s.end]) in strip_separators(text[a:b])),
                       None)
        label, score, source = (src.label, src.score, src.source) if src else ("OTHER", 1.0, "manual")
        spans.append(Span(a, b, label, score, source))
    examples = []
    for a, b in copies[:COPIES_SHOWN]:
        part = document.part_at(a) if hasattr(document, "part_at") else None
        before = text[max(0, a - COPY_CONTEXT_CHARS):a]
        after = text[b:b + COPY_CONTEXT_CHARS]
        line = f"…{before}[{text[a:b]}]{after}…"
        examples.append((part.name if part is not None else "", " ".join(line.split())))
    return CopiesFound(req, tuple(spans), tuple(examples))


def snapshot_state(state: ReviewState) -> ReviewState:
    """An independent copy (items are immutable, so this is cheap) for use on another thread."""
    copy = ReviewState(state.text, threshold=state.threshold)
    copy.restore_items(list(state))
    return copy


class DetectorCache:
    """Builds the detector for the current settings once and reuses it (sessions are expensive).

    ``get()`` is called on pool threads; a lock makes concurrent first calls build only one detector.
    ``factory(model_dir or None, threads or None)`` defaults to ``build_default_detector``.
    """

    def __init__(self, factory: Callable[[Path | None, int | None], Detector] | None = None) -> None:
        self._factory = factory
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._detector: Detector | None = None

    def get(self, settings: AppSettings) -> Detector:
        key = (settings.model_dir, settings.engine_threads())
        with self._lock:
            if self._detector is None or key != self._key:
                factory = self._factory
                if factory is None:
                    from ..detect.default import build_default_detector as factory
                model_dir = Path(settings.model_dir) if settings.model_dir else None
                self._detector = factory(model_dir, settings.engine_threads())
                self._key = key
            return self._detector

    def current(self) -> Detector | None:
        return self._detector


def validate_model_folder(folder: Path) -> str:
    """Load ``folder`` as a model folder; returns a one-line description, raises ``ModelFolderError``."""
    from ..detect.model_folder import load_model_folder

    mf = load_model_folder(folder, threads=1)
    return f"{Path(folder).name}: {', '.join(mf.labels)}"


MASK_STYLES = tuple(s.value for s in MaskStyle)
STATUS_ORDER = (Status.PENDING, Status.ACCEPTED, Status.REJECTED)
