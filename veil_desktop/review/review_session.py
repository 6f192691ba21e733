"""The review on screen, without Qt: what the window shows and every decision it needs about it.

``ReviewSession`` owns
- the **document** (``document``, ``path``) and its **review state** (``state``: a ``ReviewState``), with
  the saved-session record ``info`` (``review.session.SessionInfo``: hash, model id, threshold,
  whether detection finished);
- the **detection status** (``detection_status``: not run / running / cancelled / failed / complete) and
  the detector's id, moved by ``detection_started`` / ``detector_loaded`` / ``detection_ended`` /
  ``detection_cancelled``;
- **autosave** (``snapshot()`` on the owner thread, ``Autosaver.write`` on any thread, ``save_now()``
  synchronously); persistence itself is ``review/session.py``;
- the **export request**: ``check_export`` builds the summary, the blockers and the ``ExportRequest``
  that ``review.export_job.export_review`` runs;
- ``last_error``: the last message shown to the reviewer.

The window (``ui/main_window.py``) holds one ``ReviewSession`` as ``window.review``, shows it, and calls
these methods from its slots; tests drive it without a window. Threading: owner (GUI) thread only, except
``Autosaver.write`` of a snapshot.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..masking import resolve_tag_language
from ..paths import same_path
from .export import PendingPolicy
from .export_job import ExportRequest
from .loading import Loaded
from .session import Autosaver, SessionInfo, Snapshot, document_hash
from .state import ReviewState, Status
from .summary import DetectionStatus, ExportSummary, build_summary


@dataclass(frozen=True)
class ExportCheck:
    """What ``ReviewSession.check_export`` decided: ``request`` is None when the export must not start
    (``same_file``: the output is the original; ``blockers``: what the reviewer has not agreed to)."""

    summary: ExportSummary | None
    blockers: tuple[str, ...] = ()
    same_file: bool = False
    request: ExportRequest | None = None


class ReviewSession:
    """The document on screen, its review, detection status, autosave and export request (no Qt)."""

    def __init__(self, autosaver: Autosaver | None = None) -> None:
        self.document: Any = None          # veil_desktop.documents.Document
        self.path: Path | None = None
        self.state: ReviewState | None = None
        self.info: SessionInfo | None = None
        #: whether detection covered the whole document (export is blocked otherwise)
        self.detection_status = DetectionStatus.NOT_RUN
        self.detector_id = ""
        self.last_error = ""
        self.autosaver = autosaver or Autosaver()
        self.restored = False              # the review was restored from a saved session
        #: characters of the text detection has covered, of ``len(text)`` (``coverage``)
        self.checked_chars = 0
        self.total_chars = 0
        #: SHA-256 of the review file imported or merged into this review (the export records it)
        self.review_file_sha256 = ""

    @property
    def has_document(self) -> bool:
        return self.state is not None

    # -- the document ----------------------------------------------------------------------------------
    def install(self, loaded: Loaded, default_threshold: float) -> ReviewState:
        """Take ownership of a freshly loaded document. Every document starts from the safe defaults: its own
        saved threshold, or ``default_threshold`` (never the previous document's); detection status afresh."""
        self.document, self.path, self.state = loaded.document, loaded.path, loaded.state
        self.review_file_sha256 = ""
        self.restored = loaded.session is not None
        self.info = loaded.session or SessionInfo(document_hash(loaded.state.text), str(loaded.path))
        if not self.restored:
            self.state.set_threshold(default_threshold)
        complete = self.restored and loaded.session.detection_complete
        self.detection_status = DetectionStatus.COMPLETE if complete else DetectionStatus.NOT_RUN
        if complete:
            self.detector_id = loaded.session.model_id
        self.total_chars = len(self.state.text)
        self.checked_chars = self.total_chars if complete else 0
        return self.state

    @property
    def needs_detection(self) -> bool:
        """A new document, or a restored one whose detection did not finish."""
        return self.state is not None and not (self.info is not None and self.restored
                                               and self.info.detection_complete)

    def decided_count(self) -> int:
        return sum(1 for it in self.state if it.status is not Status.PENDING) if self.state is not None else 0

    # -- detection status ------------------------------------------------------------------------------
    def detection_started(self) -> None:
        self.info.detection_complete = False
        self.detection_status = DetectionStatus.RUNNING
        self.checked_chars, self.total_chars = 0, len(self.state.text) if self.state is not None else 0

    def detection_progress(self, done: int, total: int) -> None:
        """The detector's progress in characters (``detect.driver.drive``)."""
        self.checked_chars = max(self.checked_chars, min(done, total))
        self.total_chars = total

    @property
    def coverage(self) -> float:
        """The share of the document detection has covered (1.0 when complete; 0.0 before any run)."""
        if self.detection_status is DetectionStatus.COMPLETE:
            return 1.0
        total = self.total_chars or (len(self.state.text) if self.state is not None else 0)
        return 1.0 if not total else min(1.0, self.checked_chars / total)

    @property
    def unchecked_chars(self) -> int:
        """Characters detection never covered (0 when complete)."""
        if self.detection_status is DetectionStatus.COMPLETE:
            return 0
        total = self.total_chars or (len(self.state.text) if self.state is not None else 0)
        return max(0, total - self.checked_chars)

    def held_items(self, lang: str = "ko") -> tuple[str, ...]:
        """What makes the document *needs review* (the batch CLI holds it back): one caption per unreadable
        page or part, in ``lang``; each needs the reviewer's own confirmation before a window export."""
        doc = self.document
        if doc is None or not getattr(doc, "needs_review", False):
            return ()
        out: list[str] = []
        for u in tuple(getattr(doc, "unreadable", ()) or ()):
            text = (u.caption_en or u.where) if lang == "en" else (u.caption or u.where)
            if text not in out:
                out.append(text)
        listed = {u.page for u in getattr(doc, "unreadable", ()) if u.page is not None}
        for p in (doc.extra or {}).get("unreadable_pages", ()) or ():
            if p not in listed:
                out.append(f"page {p}: OCR could not read it reliably" if lang == "en"
                           else f"{p}쪽: OCR로 확실히 읽지 못함")
        return tuple(out)

    def ocr_summary(self) -> dict | None:
        """``{"pages", "mean_confidence"}`` of an OCR'd document (``Document.extra["ocr"]``), else None."""
        ocr = (getattr(self.document, "extra", None) or {}).get("ocr")
        return dict(ocr) if isinstance(ocr, dict) and ocr.get("pages") else None

    def report_review(self, summary: ExportSummary, partial_ok: bool) -> dict:
        """The report's ``review`` fields from the window: the summary's, plus ``coverage`` (the share of the
        text detection covered) and ``unchecked_chars``."""
        review = summary.report_fields(partial_ok=partial_ok)
        review["coverage"] = round(self.coverage, 4)
        if self.held_items():
            review["needs_review_confirmed"] = len(self.held_items())
        if self.unchecked_chars:
            review["unchecked_chars"] = self.unchecked_chars
            review["text_chars"] = len(self.state.text)
        return review

    def detector_loaded(self, detector_id: str) -> None:
        self.detector_id = detector_id
        if self.info is not None:
            self.info.model_id = detector_id

    def detection_ended(self, cancelled: bool, error: str = "") -> DetectionStatus:
        if self.info is not None:
            self.info.detection_complete = not cancelled
        self.detection_status = (DetectionStatus.FAILED if error else DetectionStatus.CANCELLED if cancelled
                                 else DetectionStatus.COMPLETE)
        if self.detection_status is DetectionStatus.COMPLETE:
            self.checked_chars = self.total_chars = len(self.state.text) if self.state is not None else 0
        return self.detection_status

    def detection_cancelled(self) -> None:
        self.detection_status = DetectionStatus.CANCELLED

    @property
    def detection_incomplete(self) -> str | None:
        """The status to show in the banner, None when detection is complete."""
        return None if self.detection_status is DetectionStatus.COMPLETE else self.detection_status.value

    def item_count(self) -> int:
        return len(self.state) if self.state is not None else 0

    # -- autosave ----------------------------------------------------------------------------------------
    def snapshot(self, *, even_empty: bool = True) -> Snapshot | None:
        """A snapshot to write (on any thread, ``autosaver.write``); None without a document, or when the
        review is empty and ``even_empty`` is False."""
        if self.state is None or self.info is None or (not even_empty and not len(self.state)):
            return None
        self.info.threshold = self.state.threshold
        return self.autosaver.snapshot(self.state, self.info)

    def save_now(self, *, even_empty: bool = False) -> bool:
        """Write the session on this thread (closing, switching documents, export all). Raises ``OSError``."""
        snap = self.snapshot(even_empty=even_empty)
        return bool(snap is not None and self.autosaver.write(snap))

    # -- export ------------------------------------------------------------------------------------------
    def summary(self, policy: PendingPolicy | str, styles: dict | None, default_style: str,
                tag_lang: str | None) -> ExportSummary:
        return build_summary(self.state, policy, self.detection_status, self.document, styles, default_style,
                             resolve_tag_language(self.state.text, tag_lang))

    def check_export(self, out_path: str | Path, settings, *, styles: dict[str, str] | None = None,
                     default_style: str | None = None, policy: PendingPolicy | str | None = None,
                     partial_ok: bool = False, below_threshold_ok: bool = False, tag_lang: str | None = None,
                     overwrite: bool | None = None, held_ok: bool = False,
                     second_opinion=None) -> ExportCheck:
        """The checks before an export (the original is never the output; nothing is written from an
        incomplete detection, or with suggestions hidden below the threshold, unless agreed) and the request.
        ``policy`` defaults to BLOCK: never a policy left over from another export. ``second_opinion``: the
        detector's ``detect(text)``, run over the output before it is published, as ``veil-redact redact``
        does (``documents.second_opinion``)."""
        out = Path(out_path)
        if self.path is not None and same_path(out, self.path):
            return ExportCheck(None, same_file=True)
        policy = PendingPolicy(policy or PendingPolicy.BLOCK)
        styles = dict(settings.styles if styles is None else styles)
        default_style = default_style or settings.default_style
        tag_lang = resolve_tag_language(self.state.text, tag_lang)   # the CLI's default too
        summary = self.summary(policy, styles, default_style, tag_lang)
        blockers = summary.blockers(partial_ok=partial_ok, below_threshold_ok=below_threshold_ok)
        held = self.held_items()
        if held and not held_ok:      # a scan the CLI holds back: every page confirmed by the reviewer
            blockers.append("needs_review")
        if blockers:
            return ExportCheck(summary, tuple(blockers))
        req = ExportRequest(out, styles, default_style, policy, self.detector_id,
                            allow_below_threshold=below_threshold_ok, tag_lang=tag_lang,
                            review=self.report_review(summary, partial_ok), overwrite=bool(overwrite),
                            review_file_sha256=self.review_file_sha256, second_opinion=second_opinion,
                            **settings.disclosure_fields())
        return ExportCheck(summary, request=req)
