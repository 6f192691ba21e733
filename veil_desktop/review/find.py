"""Find text in a document: literal or regular expression, with case, width and spacing tolerance. No Qt.

Used by the window's find bar (Ctrl+F, "mark all as LABEL") and by the term lists (``review/terms.py``).

Matching options (``FindOptions``):
- ``regex``: the query is a Python regular expression; otherwise a literal;
- ``case_sensitive``: off by default (``re.IGNORECASE``);
- ``width_insensitive``: full-width ASCII forms (``ＡＢＣ１２３``) and the ideographic space match their
  half-width forms. Done by folding the text with the same one-to-one table the detector uses
  (``detect.normalize``), so offsets are unchanged;
- ``spacing_tolerant`` (literal queries only): whitespace, zero-width characters (U+200B–U+200D, U+2060,
  U+FEFF) and soft hyphens between the query's characters are ignored on both sides: ``김 민 준`` finds
  ``김민준`` and ``김민준`` finds ``김 민준`` or ``김\\u200b민준``.

Responsiveness: ``MatchScanner`` searches a bounded window of the text per call (``CHUNK`` characters), so
a caller can spread a search over event-loop turns with a time budget (``scan(budget_s)``) and a 1M-character
document never blocks for long. A regular-expression match is searched within ``CHUNK + MAX_MATCH``
characters, so a regex match longer than ``MAX_MATCH`` characters is cut there (literal queries are never
that long). A pathological regex (catastrophic backtracking) can still be slow inside one window: Python's
``re`` cannot be interrupted.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass

from ..documents import limits as _limits
from ..detect.normalize import FULLWIDTH_TABLE, normalize_text

#: Characters ignored between the characters of a spacing-tolerant query.
GAP_CHARS = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
_GAP_CLASS = r"[\s" + GAP_CHARS + r"]"
_GAP = _GAP_CLASS + "*"
_GAP_RE = re.compile(_GAP_CLASS + "+")

CHUNK = 65_536
MAX_MATCH = _limits.MAX_FIND_MATCH
MAX_QUERY = _limits.MAX_FIND_QUERY


class FindError(ValueError):
    """A query that cannot be searched (bad regex, matches empty text, too long); message is for users."""


@dataclass(frozen=True)
class FindOptions:
    regex: bool = False
    case_sensitive: bool = False
    width_insensitive: bool = True
    spacing_tolerant: bool = True


def fold_width(text: str) -> str:
    """``text`` with full-width ASCII forms folded to half-width; same length (offsets unchanged)."""
    return normalize_text(text)


def strip_gaps(text: str) -> str:
    """``text`` without whitespace, zero-width characters and soft hyphens."""
    return _GAP_RE.sub("", text)


def _ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def literal_pattern(query: str, *, width_insensitive: bool = True, spacing_tolerant: bool = True,
                    ascii_boundaries: bool = False) -> str:
    """A regex source for the literal ``query`` (to be run over ``fold_width(text)`` when
    ``width_insensitive``). ``ascii_boundaries``: a query starting/ending with an ASCII letter or digit
    does not match inside a longer ASCII word (``Kim`` not in ``Kimberly``)."""
    q = fold_width(query) if width_insensitive else query
    if spacing_tolerant:
        chars = strip_gaps(q)
        body = _GAP.join(re.escape(c) for c in chars)
    else:
        chars = q
        body = re.escape(q)
    if not chars:
        return ""
    if ascii_boundaries:
        if _ascii_alnum(chars[0]):
            body = r"(?<![A-Za-z0-9])" + body
        if _ascii_alnum(chars[-1]):
            body += r"(?![A-Za-z0-9])"
    return body


def compile_query(query: str, options: FindOptions = FindOptions()) -> re.Pattern[str]:
    """The compiled pattern for ``query``; raises ``FindError`` with a message for the reviewer."""
    if not query or not query.strip():
        raise FindError("Type something to find.")
    if len(query) > MAX_QUERY:
        raise FindError(f"The search text is too long (at most {MAX_QUERY} characters).")
    flags = 0 if options.case_sensitive else re.IGNORECASE
    if options.regex:
        source = query.translate(FULLWIDTH_TABLE) if options.width_insensitive else query
    else:
        source = literal_pattern(query, width_insensitive=options.width_insensitive,
                                 spacing_tolerant=options.spacing_tolerant)
        if not source:
            raise FindError("Type something to find.")
    try:
        pattern = re.compile(source, flags)
    except re.error as e:
        raise FindError(f"Not a valid regular expression: {e}") from None
    except (OverflowError, RecursionError):
        raise FindError("The regular expression is too complex.") from None
    if pattern.match("") is not None:
        raise FindError("The pattern matches empty text; make it match at least one character.")
    return pattern


class MatchScanner:
    """All matches of ``pattern`` in ``text``, found window by window (see the module docstring).

    ``text`` must already be folded when the pattern was compiled width-insensitive (``fold_width``).
    ``matches`` grows in text order; ``done`` when the whole text was searched.
    """

    def __init__(self, text: str, pattern: re.Pattern[str], *, chunk: int = CHUNK,
                 max_match: int = MAX_MATCH, limit: int | None = None) -> None:
        self.text = text
        self.pattern = pattern
        self.chunk = max(1, chunk)
        self.max_match = max_match
        self.limit = limit
        self.matches: list[tuple[int, int]] = []
        self.pos = 0          # everything before ``pos`` has been searched
        self.done = not text

    def step(self) -> int:
        """Search one window; returns the number of new matches."""
        if self.done:
            return 0
        n = len(self.text)
        stop = min(n, self.pos + self.chunk)
        endpos = min(n, stop + self.max_match)
        found = 0
        pos = self.pos
        search = self.pattern.search
        while pos < stop:
            m = search(self.text, pos, endpos)
            if m is None or m.start() >= stop:
                pos = stop
                break
            a, b = m.span()
            if b == a:          # cannot happen with compile_query; guard against hand-made patterns
                pos = a + 1
                continue
            self.matches.append((a, b))
            found += 1
            pos = b
            if self.limit is not None and len(self.matches) >= self.limit:
                self.done = True
                break
        self.pos = max(pos, stop) if not self.done else pos
        if self.pos >= n:
            self.done = True
        return found

    def scan(self, budget_s: float | None = None) -> bool:
        """Search windows until done or ``budget_s`` seconds have passed; returns ``done``."""
        deadline = None if budget_s is None else time.perf_counter() + budget_s
        while not self.done:
            self.step()
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return self.done

    def first_at_or_after(self, pos: int) -> int | None:
        """Index into ``matches`` of the first match starting at or after ``pos`` (None: not found yet)."""
        import bisect

        i = bisect.bisect_left(self.matches, (pos, -1))
        return i if i < len(self.matches) else None


def find_all(text: str, query: str, options: FindOptions = FindOptions()) -> list[tuple[int, int]]:
    """Every match of ``query`` in ``text`` (offsets into ``text``) in one call."""
    pattern = compile_query(query, options)
    scanner = MatchScanner(fold_width(text) if options.width_insensitive else text, pattern)
    scanner.scan()
    return scanner.matches

