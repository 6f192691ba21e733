"""Review files for a second reviewer (issue 24): export a review, import it on another PC for the same
document, merge two reviews item by item. No Qt.

``*.veil-review.json`` holds the document's SHA-256 (of its reviewable text and of the file), the
reviewer's name, the time, and per item: offsets, label, decision, reason, source, score and a **salted
hash** of the value (``sha256(salt + value)``; the salt is random per file) — never the value in clear.
Importing checks that the file is for this document (text hash) and that every item's value hash matches
the text at its offsets, so a review can never be applied to another text. ``merge`` lists the items both
reviews agree on, the ones only one has, and the **conflicts** (same span, different decision or reason;
or an accepted span overlapping a span the other review rejected), for the reviewer to resolve one by
one; ``apply`` writes the chosen decisions into a ``ReviewState`` as one undoable step.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..documents import limits as _limits
from ..detect.span import Span
from .state import Command, ReviewItem, ReviewState, Status

SCHEMA = "veil-review/1"
SUFFIX = ".veil-review.json"
MAX_REVIEW_BYTES = _limits.MAX_REVIEW_FILE_BYTES


class ReviewFileError(ValueError):
    ui_key = "error.review_file"


@dataclass(frozen=True)
class ReviewEntry:
    start: int
    end: int
    label: str
    decision: str           # accepted / rejected / pending
    reason: str | None = None
    source: str = "model"
    score: float = 1.0
    by: str = ""

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.start, self.end, self.label)


@dataclass(frozen=True)
class ReviewFile:
    reviewer: str
    created: float
    text_sha256: str
    entries: tuple[ReviewEntry, ...]
    file_sha256: str = ""


def _value_hash(salt: str, value: str) -> str:
    return hashlib.sha256((salt + "\x00" + value).encode("utf-8")).hexdigest()


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def review_to_bytes(state: ReviewState, reviewer: str, *, file_sha256: str = "", salt: str | None = None) -> bytes:
    """The review file of ``state`` (values only as salted hashes)."""
    salt = salt or os.urandom(16).hex()
    items = [{"start": it.start, "end": it.end, "label": it.label, "decision": it.status.value,
              "reason": it.reason, "source": it.source, "score": round(float(it.score), 4),
              "value_sha256": _value_hash(salt, state.value(it))}
             for it in state.in_text_order(visible_only=False)]
    data = {"schema": SCHEMA, "reviewer": reviewer, "created": time.time(), "salt": salt,
            "text_sha256": text_hash(state.text), "file_sha256": file_sha256, "items": items}
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


def export_review_file(state: ReviewState, path: Path, reviewer: str, *, file_sha256: str = "") -> Path:
    from .session import write_atomic

    path = Path(path)
    write_atomic(path, review_to_bytes(state, reviewer, file_sha256=file_sha256))
    return path


def load_review_file(path: Path, text: str) -> ReviewFile:
    """Read and validate a review file for the document whose reviewable text is ``text``."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_REVIEW_BYTES:
            raise ReviewFileError(f"{path.name}: 검토 파일이 너무 큽니다 / the review file is too large")
        data = json.loads(path.read_bytes())
    except (OSError, ValueError) as e:
        raise ReviewFileError(f"{path.name}: 검토 파일을 읽을 수 없습니다 / cannot read the review file "
                              f"({type(e).__name__})") from None
    return parse_review(data, text, name=path.name)


def parse_review(data: object, text: str, *, name: str = "review") -> ReviewFile:
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ReviewFileError(f"{name}: veil 검토 파일이 아닙니다 / not a veil review file")
    if data.get("text_sha256") != text_hash(text):
        raise ReviewFileError(f"{name}: 다른 문서의 검토 파일입니다 / the review belongs to another document")
    salt = data.get("salt")
    raw = data.get("items")
    if not isinstance(salt, str) or not isinstance(raw, list):
        raise ReviewFileError(f"{name}: 검토 파일이 손상되었습니다 / the review file is damaged")
    from .reasons import ReasonError, normalize_reason

    reviewer = data.get("reviewer") if isinstance(data.get("reviewer"), str) else ""
    entries = []
    for n, d in enumerate(raw):
        try:
            start, end, label = d["start"], d["end"], d["label"]
            if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
                raise ValueError
            if d["decision"] not in ("accepted", "rejected", "pending") or not isinstance(label, str):
                raise ValueError
            if d.get("value_sha256") != _value_hash(salt, text[start:end]):
                raise ReviewFileError(f"{name}: 항목 {n + 1}의 값이 이 문서와 다릅니다 / item {n + 1} does not "
                                      "match this document")
            entries.append(ReviewEntry(start, end, label, d["decision"], normalize_reason(d.get("reason")),
                                       str(d.get("source", "model")), float(d.get("score", 1.0)), reviewer))
        except ReviewFileError:
            raise
        except (KeyError, TypeError, ValueError, ReasonError):
            raise ReviewFileError(f"{name}: 항목 {n + 1}이 잘못되었습니다 / item {n + 1} is malformed") from None
    created = data.get("created")
    return ReviewFile(reviewer, float(created) if isinstance(created, (int, float)) else 0.0,
                      data["text_sha256"], tuple(entries),
                      data.get("file_sha256") if isinstance(data.get("file_sha256"), str) else "")


@dataclass(frozen=True)
class Conflict:
    """Two reviews disagree: ``a``/``b`` are the two sides (either may be None: only one review has a
    span there, and the other one decided an overlapping span differently)."""
    a: ReviewEntry | None
    b: ReviewEntry | None

    @property
    def start(self) -> int:
        return min(e.start for e in (self.a, self.b) if e is not None)


@dataclass
class MergeResult:
    agreed: list[ReviewEntry] = field(default_factory=list)
    only_a: list[ReviewEntry] = field(default_factory=list)
    only_b: list[ReviewEntry] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)

    def resolved(self, choices: Iterable[str]) -> list[ReviewEntry]:
        """The merged review: agreed + one-sided entries + per conflict the chosen side (``"a"``/``"b"``,
        in ``conflicts`` order). Raises ``ReviewFileError`` unless every conflict has a choice."""
        choices = list(choices)
        if len(choices) != len(self.conflicts) or any(c not in ("a", "b") for c in choices):
            raise ReviewFileError("모든 충돌을 해결하세요 / resolve every conflict (a or b)")
        out = list(self.agreed) + self.only_a + self.only_b
        for c, pick in zip(self.conflicts, choices):
            chosen = c.a if pick == "a" else c.b
            other = c.b if pick == "a" else c.a
            if chosen is not None:
                out.append(chosen)
            elif other is not None:      # the chosen review has no span here: the other's is not taken
                pass
        keys = {}
        for e in out:
            keys.setdefault(e.key, e)
        return sorted(keys.values(), key=lambda e: (e.start, e.end, e.label))


def merge(a: ReviewFile, b: ReviewFile) -> MergeResult:
    """Compare two reviews of the same document item by item."""
    if a.text_sha256 != b.text_sha256:
        raise ReviewFileError("두 검토 파일의 문서가 다릅니다 / the two reviews are of different documents")
    res = MergeResult()
    ka = {e.key: e for e in a.entries}
    kb = {e.key: e for e in b.entries}
    for key, ea in ka.items():
        eb = kb.get(key)
        if eb is None:
            continue
        if (ea.decision, ea.reason) == (eb.decision, eb.reason):
            res.agreed.append(ea)
        else:
            res.conflicts.append(Conflict(ea, eb))
    for side, mine, theirs, bucket in (("a", ka, kb, res.only_a), ("b", kb, ka, res.only_b)):
        for key, e in mine.items():
            if key in theirs:
                continue
            clash = [o for o in theirs.values() if o.start < e.end and e.start < o.end
                     and (o.decision == "accepted") != (e.decision == "accepted")]
            if clash:
                res.conflicts.append(Conflict(e, None) if side == "a" else Conflict(None, e))
            else:
                bucket.append(e)
    res.conflicts.sort(key=lambda c: c.start)
    return res


def apply_entries(state: ReviewState, entries: Iterable[ReviewEntry], description: str = "import review") \
        -> Command | None:
    """Make ``state`` hold exactly ``entries``' decisions (and reasons) as one undoable step: items with a
    key in ``entries`` get its decision and reason, new keys become items, items not in ``entries`` are
    left as they are."""
    changes: list[tuple[ReviewItem | None, ReviewItem | None]] = []
    for e in entries:
        status = Status(e.decision)
        existing = state.find(e.start, e.end, e.label)
        if existing is None:
            changes.append((None, ReviewItem(state._take_id(), Span(e.start, e.end, e.label, e.score, e.source),
                                             status, e.reason)))
        elif (existing.status, existing.reason) != (status, e.reason):
            from dataclasses import replace

            changes.append((existing, replace(existing, status=status, reason=e.reason)))
    return state._do(Command(f"{description} {len(changes)}", tuple(changes)))


def export_xfdf(document, state: ReviewState, path: Path, *, reviewer: str = "",
                reasons: dict | None = None, style: str = "short") -> int:
    """Write an XFDF beside a reviewed PDF: one Acrobat *redact* annotation per accepted item, its
    disclosure reason as the overlay text (``review.reasons.reason_text``). Returns the annotation count."""
    from ..documents.xfdf import write_xfdf, xfdf_bytes
    from .reasons import default_reasons, effective_reason, reason_text

    defaults = default_reasons()
    defaults.update(reasons or {})
    source = Path(document.path).read_bytes()
    if hashlib.sha256(source).hexdigest() != document.sha256:
        raise ReviewFileError(f"{Path(document.path).name}: 열어 둔 뒤 파일이 바뀌었습니다 / the file changed "
                              "since it was opened")
    items = [(it.start, it.end, it.label, reason_text(effective_reason(it.reason, it.label, defaults), style))
             for it in state.in_text_order(visible_only=False) if it.status is Status.ACCEPTED]
    data = xfdf_bytes(document, source, items, author=reviewer, pdf_name=Path(document.path).name)
    write_xfdf(path, data)
    from lxml import etree

    from ..documents.xfdf import NS

    return len(etree.fromstring(data).findall(f"{{{NS}}}annots/{{{NS}}}redact"))


def import_xfdf(document, state: ReviewState, path: Path) -> Command | None:
    """The ``redact`` annotations of an XFDF (e.g. made in Acrobat) as accepted items, one undoable step."""
    from ..documents.xfdf import read_xfdf_redactions

    source = Path(document.path).read_bytes()
    spans = read_xfdf_redactions(document, source, Path(path).read_bytes())
    return apply_entries(state, [ReviewEntry(a, b, label, "accepted", None, "manual", 1.0)
                                 for a, b, label in spans], description="import XFDF")
