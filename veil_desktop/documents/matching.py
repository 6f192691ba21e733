"""Finding masked values again: one matcher shared by the leak check and by value propagation.

A value is searched in its *separator-stripped* form: separators (whitespace, hyphens, dots, commas,
slashes, brackets, colons, underscores, tildes) are removed from the value and from the text searched, so
``010-1234-5678`` is also found as ``010 1234 5678``, ``01012345678`` or split across XML runs, and
``홍 길동`` as ``홍길동``. Matches are mapped back to offsets in the original text.

Short values (how false alarms are avoided without missing leaks):
- a value whose stripped core is shorter than the minimum is *not checkable*: one Hangul syllable
  (``김``), one or two Latin letters, or fewer than four digits occur in almost every document, so
  searching for them would fail every export. Such values are still masked by the writers; the report
  counts them under ``leak_check.unverifiable`` so the reviewer knows they were not re-verified;
- minimum core length: 2 for values containing Hangul/CJK, 4 for digit-only values, 3 otherwise;
- a value that starts or ends with an ASCII letter or digit only matches where the *original* text has
  no ASCII letter or digit right before/after it (``Kim`` is not found in ``Kimberly``, ``1234-5678`` not
  inside ``91234-56789``); Hangul values match anywhere, because Korean particles attach directly to a
  name (``홍길동은``).

- a value that is only a short Latin word or acronym (at most four ASCII letters: ``PDF``, ``HWP``,
  ``Even``) or a common English word (``COMMON_WORDS``: ``Ones``, ``Report``) matches as a *whole word*
  only: the letters contiguous in the original text (no separator inside: ``P-D-F`` or ``e v e n`` is
  not a copy) and no ASCII letter or digit on either side (issue 26, class 6: false alarms).

Propagation (batch mode) uses the same matcher, so every copy the leak check would flag is masked first.
The pattern is a trie of literal cores (compiles in milliseconds even for thousands of values).
"""
from __future__ import annotations

import re
import unicodedata
from typing import Iterable, Iterator

import numpy as np

from ..detect.span import Span
from ..detect.trie import literal_alternation
from ..masking import Replacement

SEPARATOR_CHARS = " \t\r\n\u00a0\u3000-\u2010\u2011\u2012\u2013\u2014\u2015.·,/()[]_:~\"'`"
#: characters a reader does not show (or shows as nothing): soft hyphen, zero-width space/joiners,
#: directional marks, word joiner, invisible operators, BOM/ZWNBSP, variation selectors, Hangul fillers.
#: They are removed like separators, so ``홍\u200b길동`` or ``010\u00ad1234-5678`` still match.
INVISIBLE_CHARS = ("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e"
                   "\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u202f\u2060\u2061\u2062"
                   "\u2063\u2064\u2066\u2067\u2068\u2069\u206a\u206b\u206c\u206d\u206e\u206f"
                   "\u3164\ufeff\uffa0" + "".join(chr(c) for c in range(0xFE00, 0xFE10)))
_REMOVED = SEPARATOR_CHARS + INVISIBLE_CHARS
_SEP_RUN = re.compile("[" + re.escape(_REMOVED) + "]+")
_SEP_CODES = np.array(sorted({ord(c) for c in _REMOVED}), dtype=np.uint32)


def _unstable_class() -> str:
    """A regex class of the characters NFKC may change or combine with their neighbour: every BMP
    character that is not NFKC-stable on its own, every combining mark, the conjoining Hangul jamo, plus
    the astral blocks of compatibility characters (mathematical alphanumerics, enclosed alphanumerics,
    CJK compatibility ideographs). Everything else is left as it is without a Python-level look."""
    codes = []
    for c in range(0x80, 0x10000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        ch = chr(c)
        if unicodedata.combining(ch) or unicodedata.normalize("NFKC", ch) != ch \
                or 0x1100 <= c <= 0x11FF or 0xD7B0 <= c <= 0xD7FF:
            codes.append(c)
    ranges, start, prev = [], None, None
    for c in codes:
        if start is None:
            start = prev = c
        elif c == prev + 1:
            prev = c
        else:
            ranges.append((start, prev))
            start = prev = c
    if start is not None:
        ranges.append((start, prev))
    body = "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                   for a, b in ranges)
    return "[" + body + "\U0001D400-\U0001D7FF\U0001F100-\U0001F1FF\U0002F800-\U0002FA1F]"


# characters NFKC may change, with one character before each run (a syllable + a final jamo composes)
_SUSPECT = re.compile(".?" + _unstable_class() + "+", re.S)


def _ascii_alnum(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _cluster_start(ch: str) -> bool:
    """True if ``ch`` starts a new normalisation cluster (not a combining mark / Hangul vowel or final)."""
    if "\u1160" <= ch <= "\u11ff" or "\ud7b0" <= ch <= "\ud7ff":
        return False
    return not unicodedata.combining(ch)


def _normalize(text: str) -> tuple[str, "np.ndarray | None", "np.ndarray | None"]:
    """NFKC of ``text`` computed per cluster, with the original ``[start, end)`` of each output character.

    Returns ``(normalized, starts, ends)``; ``starts``/``ends`` are ``None`` when nothing changed (the
    map is the identity). A *cluster* is a starter and the marks/jamo after it, so decomposed Hangul
    (NFD: ``ᄒ ᅩ ᆼ``) becomes one syllable mapped to the three original characters, and a full-width
    ``９`` becomes ``9``.
    """
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        return text, None, None
    out: list[str] = []
    starts: list[np.ndarray] = []
    ends: list[np.ndarray] = []
    pos = 0
    changed = False
    for m in _SUSPECT.finditer(text):
        a, b = m.start(), m.end()
        region = text[a:b]
        if unicodedata.is_normalized("NFKC", region):
            continue
        if a > pos:
            out.append(text[pos:a])
            r = np.arange(pos, a, dtype=np.int64)
            starts.append(r)
            ends.append(r + 1)
        rs: list[int] = []
        re_: list[int] = []
        pieces: list[str] = []
        cs = a
        normalize, is_start = unicodedata.normalize, _cluster_start
        for i in range(a + 1, b + 1):
            if i == b or is_start(text[i]):
                n = normalize("NFKC", text[cs:i])
                if n:
                    pieces.append(n)
                    k = len(n)
                    if k == 1:
                        rs.append(cs)
                        re_.append(i)
                    else:
                        rs.extend([cs] * k)
                        re_.extend([i] * k)
                cs = i
        out.append("".join(pieces))
        starts.append(np.array(rs, dtype=np.int64))
        ends.append(np.array(re_, dtype=np.int64))
        pos = b
        changed = True
    if not changed:
        return text, None, None
    if pos < len(text):
        out.append(text[pos:])
        r = np.arange(pos, len(text), dtype=np.int64)
        starts.append(r)
        ends.append(r + 1)
    return "".join(out), np.concatenate(starts), np.concatenate(ends)


def strip_separators(value: str) -> str:
    """The matching form of ``value``: NFKC (per cluster), separators and invisible characters removed."""
    return _SEP_RUN.sub("", _normalize(value)[0])


def matching_form(text: str) -> tuple[str, "np.ndarray | None", "np.ndarray | None"]:
    """``(core, starts, ends)``: ``strip_separators(text)`` and, for each of its characters, the
    ``[start, end)`` it came from in ``text`` (``None, None`` when ``core`` is ``text`` itself)."""
    norm, st, en = _normalize(text)
    core = _SEP_RUN.sub("", norm)
    if len(core) == len(norm):
        return core, st, en
    kept = _kept_index(norm)
    if st is None:
        return core, kept, kept + 1
    return core, st[kept], en[kept]


def _kept_index(text: str) -> np.ndarray:
    """Original offset of each character of ``_SEP_RUN.sub("", text)``."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    return np.flatnonzero(~np.isin(codes, _SEP_CODES))


def _is_wide(ch: str) -> bool:
    o = ord(ch)
    return (0x1100 <= o <= 0x11FF or 0x2E80 <= o <= 0xA4CF or 0xAC00 <= o <= 0xD7AF
            or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF or 0x3130 <= o <= 0x318F)


#: common English words: a value that is one of them is matched as a whole word only (see above)
COMMON_WORDS = frozenset("""
about above after again against all also and another any area back because been before being below
between both business but call can case change child city come company could country day does down
during each early end even every fact family few file files first for form from general give good
government great group hand have head high home house how important information into issue its just
keep kind know large last later left life like line little local long look made make many might money
month more most much must name national never new next night none not now number off office often old
once one ones only open order other others our out over own page part people place point power present
problem program public question rather read really report right room same school see service should
show side since small social some state still story student study such system take than that the their
them then there these they thing think this those three through time today together too under until
upon very want water way week well were what when where which while who whole why will with within
without word work world would write year years your even odd default first last normal title subject
text body header footer section table figure chart note notes summary contents index appendix draft
final version copy sample test data document documents attached attachment print total
""".split())


def whole_word_only(core: str) -> bool:
    """Whether a value (its lower-cased matching form) matches as a whole word only."""
    return core.isascii() and core.isalpha() and (len(core) <= 4 or core in COMMON_WORDS)


def min_core_length(core: str) -> int:
    if any(_is_wide(c) for c in core):
        return 2
    if core.isdigit():
        return 4
    return 3


def checkable(value: str) -> bool:
    core = strip_separators(value)
    return bool(core) and len(core) >= min_core_length(core)


class ValueMatcher:
    """Finds any of a set of values (separator-insensitive, see module docstring) in a text."""

    def __init__(self, values: Iterable[str]):
        cores: set[str] = set()
        skipped: set[str] = set()
        for v in set(values):
            core = strip_separators(v).lower()   # Latin letters match in any case (Kim = KIM)
            if not core:
                continue
            (cores if len(core) >= min_core_length(core) else skipped).add(core)
        self.cores = sorted(cores)
        self._core_set = cores
        self._whole = {c for c in cores if whole_word_only(c)}
        self.unverifiable = len(skipped)
        # a lookahead finds the longest value at *every* position, so overlapping copies ("사무" and
        # "무관" in "사무관") are all reported
        self._re = (re.compile("(?=(" + literal_alternation(self.cores) + "))", re.IGNORECASE)
                    if self.cores else None)

    def __bool__(self) -> bool:
        return self._re is not None

    def finditer(self, text: str) -> Iterator[tuple[int, int]]:
        """``(start, end)`` in ``text`` of every match (longest per start position; may overlap).

        ``text`` is searched in its matching form (``matching_form``: NFKC per cluster, separators and
        invisible characters removed); matches are mapped back to the original characters."""
        if self._re is None:
            return
        stripped, starts, ends = matching_form(text)
        for m in self._re.finditer(stripped):
            pos, core = m.start(), m.group(1)
            if not core:
                continue
            # the longest value here may fail an ASCII boundary while a shorter one passes
            # ("무관0" in "무관02" vs "무관"): try the values that are prefixes of it, longest first
            for k in range(len(core), 0, -1):
                c = core[:k]
                if k < len(core) and c.lower() not in self._core_set:
                    continue
                if starts is None:
                    a, b = pos, pos + k
                else:
                    a, b = int(starts[pos]), int(ends[pos + k - 1])
                if _ascii_alnum(c[0]) and a > 0 and _ascii_alnum(text[a - 1]):
                    break  # the left boundary is the same for every prefix
                if _ascii_alnum(c[-1]) and b < len(text) and _ascii_alnum(text[b]):
                    continue
                if self._whole and c.lower() in self._whole and not (b - a == k and text[a:b].isalpha()):
                    continue   # a short Latin word: whole word only, no separator inside
                yield a, b
                break

    def search(self, text: str) -> tuple[int, int] | None:
        return next(self.finditer(text), None)


def masked_values(text: str, plan: Iterable[Replacement], content_of=None) -> list[str]:
    """The distinct original values a plan masks, without no-op masks (a style that kept the value).

    ``content_of(start, end)`` (``Document.content_of``) leaves out boilerplate such as part headers.
    """
    out: dict[str, None] = {}
    seen: set[tuple[str, str]] = set()
    for r in plan:
        v = content_of(r.start, r.end) if content_of else text[r.start:r.end]
        if (v, r.text) in seen:
            continue
        seen.add((v, r.text))
        core = strip_separators(v)
        if core and core not in strip_separators(r.text):
            out[v] = None
    return list(out)


def find_unmasked_copies(text: str, plan: list[Replacement],
                         values: Iterable[str] | None = None) -> list[tuple[int, int]]:
    """Ranges of ``text`` that repeat a value the plan masks but that no replacement touches.

    Exporting with such a copy would leave the value in the output, so ``export_document`` refuses;
    the UI can call this first and offer to mask the copies (see ``propagate_spans``).
    """
    matcher = ValueMatcher(masked_values(text, plan) if values is None else values)
    if not matcher:
        return []
    rs = sorted((r.start, r.end) for r in plan)
    out, j = [], 0
    for a, b in matcher.finditer(text):
        while j < len(rs) and rs[j][1] <= a:
            j += 1
        if j < len(rs) and rs[j][0] < b:
            continue  # overlaps a replacement: masked here
        out.append((a, b))
    return out


def propagate_spans(text: str, spans: Iterable[Span]) -> list[Span]:
    """``spans`` plus a span over every other copy of each span's value (same label, score, source).

    Used by the batch CLI: a value accepted once is masked everywhere, as the leak check requires.
    """
    spans = list(spans)
    by_core: dict[str, Span] = {}
    for s in sorted(spans, key=lambda s: -s.score):
        by_core.setdefault(strip_separators(text[s.start:s.end]), s)
    matcher = ValueMatcher(text[s.start:s.end] for s in spans)
    if not matcher:
        return spans
    taken = {(s.start, s.end) for s in spans}
    out = list(spans)
    core_of: dict[str, str] = {}
    for a, b in matcher.finditer(text):
        if (a, b) in taken:
            continue
        # copies that overlap other spans are added too: Masker.plan merges overlaps into one
        # replacement, so no part of either survives
        m = text[a:b]
        core = core_of.get(m)
        if core is None:
            core = core_of[m] = strip_separators(m)
        src = by_core.get(core)
        if src is not None:
            out.append(Span(a, b, src.label, src.score, src.source))
            taken.add((a, b))
    return out
