"""Term lists: words an office always masks (deny list) or never wants suggested (allow list). No Qt.

A ``TermList`` holds ``Term(term, action, label)`` entries:
- ``mask``: every occurrence of the term is masked with ``label`` (any label the app knows, or ``OTHER``);
  occurrences become spans with source ``"list"`` and score 1.0;
- ``keep``: a detector suggestion lying entirely inside an occurrence of the term is dropped.

Matching is tolerant to spacing and width (``review/find.py``): whitespace, zero-width characters and soft
hyphens between characters are ignored, full-width forms match half-width ones, Latin letters match in any
case; a term starting/ending with an ASCII letter or digit does not match inside a longer ASCII word.
A ``mask`` term wins over a ``keep`` term where their occurrences overlap (nothing leaks). A value masked
elsewhere in a document is still masked inside a kept term by the batch redaction's propagation (the
export refuses a value left in clear anywhere): the leak rule beats the allow list.

File format (import/export): UTF-8 CSV (a BOM is accepted) with the header ``term,action,label``; one
term per line; errors name the line. The user's list lives in ``<user config dir>/terms.csv``
(``user_terms_path``), written atomically.
"""
from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from ..documents import limits as _limits
from ..detect.span import Span
from ..labels import LABELS
from .find import fold_width, literal_pattern, strip_gaps
from .session import write_atomic

HEADER = ("term", "action", "label")
ACTIONS = ("mask", "keep")
MAX_TERMS = _limits.MAX_TERMS
MAX_TERM_CHARS = _limits.MAX_TERM_CHARS
MAX_FILE_BYTES = _limits.MAX_TERM_FILE_BYTES
LIST_SOURCE = "list"


class Problem(str):
    """One problem of a term list: the English sentence (``str``: CLI, logs, tests) with its ``code`` and
    ``fields`` (``line``, ``term`` …) so that the window says it in its own language
    (``ui/i18n.terms_problem_text``) without parsing the English."""

    code: str
    fields: dict

    def __new__(cls, code: str, text: str, **fields) -> "Problem":
        self = super().__new__(cls, text)
        self.code, self.fields = code, fields
        return self

    def at_line(self, line: int) -> "Problem":
        return Problem(self.code, f"line {line}: {self}", **{**self.fields, "line": line})


class TermsError(ValueError):
    """A term list that cannot be used; ``errors`` holds one message per bad line (``Problem``s when the
    core wrote them; ``problem`` is the message's own ``Problem``, if it has one)."""

    def __init__(self, message: str, errors: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.problem = message if isinstance(message, Problem) else None
        self.errors = list(errors) or [message]


@dataclass(frozen=True)
class Term:
    term: str
    action: str          # "mask" | "keep"
    label: str = ""      # required for "mask"; "" for "keep"


def term_key(term: str) -> str:
    """What two spellings of a term have in common: width-folded, without gaps, lower case."""
    return strip_gaps(fold_width(term)).lower()


def resolve_label(value: str) -> str | None:
    """A label name from ``value``: a label name in any case, or its Korean/English display name."""
    v = value.strip()
    if not v:
        return None
    if v.upper() in LABELS:
        return v.upper()
    for info in LABELS.values():
        if v == info.ko or v.lower() == info.en.lower():
            return info.name
    return None


@dataclass
class TermsResult:
    """What ``TermList.apply`` did to one text's detections."""

    spans: list[Span]                                       # detector spans that stay
    list_spans: list[Span] = field(default_factory=list)    # mask-term occurrences (source "list")
    kept: list[Span] = field(default_factory=list)          # detector spans dropped by keep terms

    def report(self, terms: "TermList") -> dict:
        """Counts for a report: never the terms themselves."""
        per_label: dict[str, int] = {}
        for s in self.list_spans:
            per_label[s.label] = per_label.get(s.label, 0) + 1
        return {"mask_terms": len(terms.mask_terms), "keep_terms": len(terms.keep_terms),
                "mask_hits": len(self.list_spans), "mask_hits_per_label": dict(sorted(per_label.items())),
                "keep_hits": len(self.kept)}


class TermList:
    """An immutable, validated list of terms with compiled matchers."""

    def __init__(self, terms: Iterable[Term] = ()) -> None:
        items: list[Term] = []
        seen: dict[str, Term] = {}
        errors: list[str] = []
        for t in terms:
            problem = _check_term(t)
            if problem:
                errors.append(problem)
                continue
            t = Term(t.term.strip(), t.action, t.label if t.action == "mask" else "")
            k = term_key(t.term)
            prev = seen.get(k)
            if prev is not None:
                if prev.action != t.action or prev.label != t.label:
                    errors.append(Problem("duplicate", f"{t.term!r} is listed twice with different actions or labels",
                                          term=t.term))
                continue
            seen[k] = t
            items.append(t)
        if errors:
            raise TermsError(errors[0], errors)
        if len(items) > MAX_TERMS:
            raise TermsError(Problem("too_many", f"Too many terms ({len(items)}; at most {MAX_TERMS}).",
                                    n=len(items), max=MAX_TERMS))
        self.terms: tuple[Term, ...] = tuple(items)
        self.mask_terms = tuple(t for t in items if t.action == "mask")
        self.keep_terms = tuple(t for t in items if t.action == "keep")
        self._label_of = {term_key(t.term): t.label for t in self.mask_terms}
        self._mask_re = _alternation(self.mask_terms)
        self._keep_re = _alternation(self.keep_terms)

    def __len__(self) -> int:
        return len(self.terms)

    def __bool__(self) -> bool:
        return bool(self.terms)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TermList) and other.terms == self.terms

    # -- matching ---------------------------------------------------------------------------------
    def mask_spans(self, text: str, *, folded: str | None = None) -> list[Span]:
        """Every occurrence of a mask term as a span (label of the term, score 1.0, source ``list``)."""
        if self._mask_re is None:
            return []
        folded = fold_width(text) if folded is None else folded
        out: list[Span] = []
        for m in self._mask_re.finditer(folded):
            a, b = m.span()
            if b <= a:
                continue
            label = self._label_of.get(term_key(m.group()))
            if label is None:   # a case-insensitive match whose lower() differs (rare Unicode cases)
                label = next((t.label for t in self.mask_terms
                              if re.fullmatch(_term_source(t), m.group(), re.IGNORECASE)), "OTHER")
            out.append(Span(a, b, label, 1.0, LIST_SOURCE))  # type: ignore[arg-type]
        return out

    def keep_ranges(self, text: str, *, folded: str | None = None) -> list[tuple[int, int]]:
        if self._keep_re is None:
            return []
        folded = fold_width(text) if folded is None else folded
        return [m.span() for m in self._keep_re.finditer(folded) if m.end() > m.start()]

    def is_kept(self, span: Span, keep: Sequence[tuple[int, int]]) -> bool:
        """``span`` lies entirely inside one of the ``keep`` ranges (sorted)."""
        import bisect

        i = bisect.bisect_right(keep, (span.start, float("inf"))) - 1
        return i >= 0 and keep[i][0] <= span.start and span.end <= keep[i][1]

    def apply(self, text: str, spans: Iterable[Span]) -> TermsResult:
        """Drop detections inside keep-term occurrences (unless a mask term overlaps them) and add the
        mask-term occurrences."""
        spans = list(spans)
        if not self.terms:
            return TermsResult(spans)
        folded = fold_width(text)
        masks = self.mask_spans(text, folded=folded)
        keep = self.keep_ranges(text, folded=folded)
        if masks and keep:  # a mask term overlapping a keep occurrence cancels that keep occurrence
            starts = [s.start for s in masks]
            longest = max(s.end - s.start for s in masks)
            keep = [(a, b) for a, b in keep if not _overlaps_any(masks, starts, longest, a, b)]
        stay, kept = [], []
        for s in spans:
            (kept if keep and self.is_kept(s, keep) else stay).append(s)
        return TermsResult(stay, masks, kept)

    # -- files ----------------------------------------------------------------------------------------
    @classmethod
    def from_csv_text(cls, text: str) -> "TermList":
        if text.startswith("\ufeff"):
            text = text[1:]
        rows = csv.reader(io.StringIO(text, newline=""))
        errors: list[str] = []
        terms: list[Term] = []
        header_seen = False
        for row in rows:
            line = rows.line_num
            if not header_seen:
                cells = [c.strip().lower() for c in row]
                if tuple(cells) != HEADER:
                    raise TermsError(Problem("header", f"the first line must be the header "
                                             f"'{','.join(HEADER)}' (found {','.join(row)!r})",
                                             header=",".join(HEADER)).at_line(line))
                header_seen = True
                continue
            if not row or all(not c.strip() for c in row):
                continue
            if len(row) != 3:
                errors.append(Problem("columns", f"expected 3 columns (term,action,label), found {len(row)}",
                                      found=len(row)).at_line(line))
                continue
            term, action, label = row[0].strip(), row[1].strip().lower(), row[2].strip()
            if action not in ACTIONS:
                errors.append(Problem("action", f"action must be 'mask' or 'keep' (found {row[1].strip()!r})",
                                      found=row[1].strip()).at_line(line))
                continue
            if action == "mask":
                name = resolve_label(label)
                if not label:
                    errors.append(Problem("needs_label", "a mask term needs a label (e.g. PERSON, ORGANIZATION, "
                                          "OTHER)").at_line(line))
                    continue
                if name is None:
                    errors.append(Problem("unknown_label", f"unknown label {label!r}; use one of "
                                          + ", ".join(LABELS), label=label).at_line(line))
                    continue
                label = name
            else:
                label = ""
            t = Term(term, action, label)
            problem = _check_term(t)
            if problem:
                errors.append(problem.at_line(line))
                continue
            terms.append(t)
            if len(terms) > MAX_TERMS:
                raise TermsError(Problem("too_many", f"too many terms (at most {MAX_TERMS})", n=len(terms),
                                        max=MAX_TERMS).at_line(line))
        if not header_seen:
            raise TermsError(Problem("empty_file", f"The file is empty; the first line must be the header "
                                    f"'{','.join(HEADER)}'.", header=",".join(HEADER)))
        try:
            result = cls(terms)
        except TermsError as e:
            errors.extend(e.errors)
            result = None
        if errors:
            raise TermsError(Problem("lines", f"{len(errors)} line(s) could not be read: {errors[0]}",
                                    n=len(errors), first=errors[0]), errors)
        assert result is not None
        return result

    @classmethod
    def load(cls, path: "str | os.PathLike[str]") -> "TermList":
        p = Path(path)
        try:
            size = p.stat().st_size
            if size > MAX_FILE_BYTES:
                raise TermsError(Problem("too_large", f"{p.name} is too large for a term list ({size // 1024} KB).",
                                        name=p.name, kb=size // 1024))
            data = p.read_bytes()
        except FileNotFoundError:
            raise TermsError(Problem("missing", f"{p} does not exist.", name=str(p))) from None
        except IsADirectoryError:
            raise TermsError(Problem("folder", f"{p} is a folder, not a CSV file.", name=str(p))) from None
        except OSError as e:
            raise TermsError(Problem("unreadable", f"Cannot read {p.name}: {e.strerror or e}.", name=p.name)) from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise TermsError(Problem("not_utf8", f"{p.name} is not UTF-8 text (byte {e.start}); save it as "
                                     "UTF-8 CSV.", name=p.name, byte=e.start)) from None
        return cls.from_csv_text(text)

    def to_csv_text(self) -> str:
        out = io.StringIO(newline="")
        w = csv.writer(out, lineterminator="\n")
        w.writerow(HEADER)
        for t in self.terms:
            w.writerow([t.term, t.action, t.label])
        return out.getvalue()

    def save(self, path: "str | os.PathLike[str]") -> None:
        """Write the list as UTF-8 CSV atomically (temp file + rename)."""
        write_atomic(Path(path), self.to_csv_text().encode("utf-8"))


def _check_term(t: Term) -> Problem | None:
    if t.action not in ACTIONS:
        return Problem("action", f"action must be 'mask' or 'keep' (found {t.action!r})", found=t.action)
    term = t.term.strip()
    if not strip_gaps(term):
        return Problem("empty_term", "empty term")
    if len(term) > MAX_TERM_CHARS:
        return Problem("too_long", f"term longer than {MAX_TERM_CHARS} characters", max=MAX_TERM_CHARS)
    if any(ord(c) < 0x20 for c in term):
        return Problem("control", "term contains a line break or control character")
    if t.action == "mask" and t.label not in LABELS:
        return Problem("unknown_label", f"unknown label {t.label!r}", label=t.label)
    return None


def _term_source(t: Term) -> str:
    return literal_pattern(t.term, ascii_boundaries=True)


def _alternation(terms: Sequence[Term]) -> re.Pattern[str] | None:
    if not terms:
        return None
    ordered = sorted(terms, key=lambda t: -len(term_key(t.term)))  # longest first at one position
    return re.compile("|".join(f"(?:{_term_source(t)})" for t in ordered), re.IGNORECASE)


def _overlaps_any(spans: list[Span], starts: list[int], longest: int, a: int, b: int) -> bool:
    """Whether any of ``spans`` (sorted by start; ``starts`` their starts) overlaps ``a..b``."""
    import bisect

    for s in spans[bisect.bisect_left(starts, a - longest):]:
        if s.start >= b:
            return False
        if s.end > a:
            return True
    return False


# ------------------------------------------------------------------------------------------ user list
def user_terms_path() -> Path:
    from ..paths import user_config_dir

    return user_config_dir() / "terms.csv"


def load_user_terms() -> TermList:
    """The user's term list (empty when none was saved). Raises ``TermsError`` for a damaged file."""
    p = user_terms_path()
    if not p.exists():
        return TermList()
    return TermList.load(p)


def save_user_terms(terms: TermList) -> Path:
    p = user_terms_path()
    terms.save(p)
    return p
