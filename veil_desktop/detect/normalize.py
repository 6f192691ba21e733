"""Offset-preserving text normalisation for the model's view of a text.

Full-width ASCII forms (U+FF01–U+FF5E: ``１２３``, ``ＡＢＣ``, ``－``, …) map one-to-one to their ASCII
counterparts and the ideographic space U+3000 to a space. Never a length-changing NFKC: the result has
exactly the same length as the input, so every offset computed on it is an offset into the original.
"""
from __future__ import annotations

import re

FULLWIDTH_TABLE: dict[int, int] = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}
FULLWIDTH_TABLE[0x3000] = 0x20

_HAS_FULLWIDTH = re.compile("[\uff01-\uff5e\u3000]")


#: decimal digits of other scripts and styles (mathematical bold ``𝟎𝟏𝟎``, Arabic-Indic ``٠١٠``, …): a reader
#: reads them as digits, so the detectors see ASCII digits (one character each: offsets unchanged)
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")


def normalize_text(text: str) -> str:
    """``text`` with full-width ASCII forms and non-ASCII decimal digits replaced one-to-one;
    ``len(result) == len(text)``."""
    out = text.translate(FULLWIDTH_TABLE) if _HAS_FULLWIDTH.search(text) else text
    if _OTHER_DIGIT.search(out):
        out = _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group(), 0)), out)
    return out


#: ASCII identifier-like runs: 6+ characters of letters/digits (``-``/``_`` inside allowed) mixing letters
#: and digits, not glued to other ASCII letters/digits.
ID_LIKE = re.compile(
    r"(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*[A-Za-z])(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9][A-Za-z0-9_-]{4,}[A-Za-z0-9]"
    r"(?![A-Za-z0-9_-])"
)


def id_like_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges of ASCII identifier-like strings (order numbers, hashes, codes) in ``text``."""
    return [m.span() for m in ID_LIKE.finditer(text)]


# ---------------------------------------------------------------------------------------------- views
# Unicode tricks that hide a value from a detector without changing what a reader sees (issue 10):
# decomposed (NFD) Hangul, zero-width space/joiner/non-joiner, word joiner, BOM, soft hyphen, bidi marks
# inside values, and letter-spaced digits (``9 0 0 1 0 1 - 1 2 3 …``, also what PDF extraction yields).
# A *detection view* is a normalised copy (NFC, invisibles dropped, optionally letter-spaced digit runs
# joined, full-width folded) with a map from every view character back to the original characters it
# came from, so a span found on the view covers the ORIGINAL characters, the dropped invisible ones inside
# it included. Text without any of these characters gets an identity view (no copy, no map).

import unicodedata  # noqa: E402
from dataclasses import dataclass  # noqa: E402

import numpy as np  # noqa: E402

#: characters that render as nothing (or nothing visible inside a word)
INVISIBLES = ("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e"
              "\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0")
# characters that combine with the one before them under NFC (Hangul vowel/final jamo, combining marks)
_COMBINING = ("\u0300-\u036f\u1161-\u11ff\ud7b0-\ud7ff\u3099\u309a\u1ab0-\u1aff\u1dc0-\u1dff"
              "\u20d0-\u20ff\ufe20-\ufe2f")
_INVIS_RE = re.compile(f"[{INVISIBLES}]")
# one unit to rewrite: a run of invisibles, or a base character followed by combining marks (invisibles
# interleaved: ``ᄒ\u200bᅡᆫ`` composes to ``한`` too)
_UNIT = re.compile(f"[{INVISIBLES}]+|[^{INVISIBLES}][{INVISIBLES}{_COMBINING}]*[{_COMBINING}]", re.S)
_NEEDS_VIEW = re.compile(f"[{INVISIBLES}{_COMBINING}]")
#: letter-spaced digits: at least 6 one-character items (digits, ``-``, ``.``), each followed by one space
#: or tab, ending in a digit, standing alone (``9 0 0 1 0 1 - 1 2 3 4 5 6 7``, ``0 1 0 - 1 2 3 4 - 5 6 7 8``)
#: standing alone = not glued to a letter or digit; punctuation around it is fine (``(9 0 0 1 0 1 - …),``)
_SPACED_DIGITS = re.compile(r"(?<![0-9A-Za-z])(?:[0-9.\-][ \t]){5,}[0-9](?![0-9A-Za-z])")
_SPACE_IN_RUN = re.compile(r"[ \t]")
#: a number broken over two lines at a hyphen (``010-7385⏎-2946``, ``900101-⏎1234567``: a quoted CSV cell,
#: a PDF line end): the line break is dropped in the rule stage's view
_BROKEN_NUMBER = re.compile(r"(?<=[0-9]-)[ \t]*(?:\r\n|\r|\n)[ \t]*(?=[0-9])"
                            r"|(?<=[0-9])[ \t]*(?:\r\n|\r|\n)[ \t]*(?=-[0-9])")
#: tabs between digit groups (``010⇥7385⇥2946``: a DOCX ``w:tab``) read as one space
_TAB_IN_NUMBER = re.compile(r"(?<=[0-9])\t+(?=[0-9])")
#: other separators between digit groups read as a hyphen: spaced hyphens (``010 - 7385``), underscores,
#: dashes and the Hangul vowel ㅡ typed as a dash (``900101ㅡ1234567``), a dot between the halves of an RRN
_ODD_SEPARATOR = re.compile(r"(?<=[0-9])(?:[ \t]+-[ \t]*|[ \t]*-[ \t]+|[ \t]*[ㅡ_\u2010-\u2015\u2212\ufe63\uff0d][ \t]*)"
                            r"(?=[0-9])|(?<=(?<![0-9])[0-9]{6})\.(?=[0-9]{7}(?![0-9]))")
#: an e-mail address written out against harvesters: ``minjun.kim [at] example [dot] com``, ``(at)``, `` at ``
_OBF_AT = r"(?:[ \t]*[\[\(\{<][ \t]*(?:at|AT|At|골뱅이)[ \t]*[\]\)\}>][ \t]*|[ \t]+(?:at|AT)[ \t]+)"
_OBF_DOT = r"(?:[ \t]*[\[\(\{<][ \t]*(?:dot|DOT|Dot|점)[ \t]*[\]\)\}>][ \t]*|[ \t]+(?:dot|DOT)[ \t]+)"
_OBF_EMAIL = re.compile(rf"[A-Za-z0-9._%+-]+(?P<at>{_OBF_AT})[A-Za-z0-9-]+(?:(?:{_OBF_DOT}|\.)[A-Za-z0-9-]+)*"
                        rf"(?:{_OBF_DOT}|\.)[A-Za-z]{{2,}}(?![A-Za-z0-9])")
_OBF_DOT_RE = re.compile(_OBF_DOT)


def _email_edits(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    if "at" not in text and "AT" not in text and "At" not in text and "골뱅이" not in text:
        return out
    for m in _OBF_EMAIL.finditer(text):
        if "@" in m.group():
            continue
        out.append((m.start("at"), m.end("at"), "@"))
        out.extend((d.start(), d.end(), ".") for d in _OBF_DOT_RE.finditer(text, m.end("at"), m.end()))
    return out


@dataclass(frozen=True)
class TextView:
    """``text`` as detectors should read it, and the way back to ``original``.

    ``starts[j]``/``ends[j]``: the original characters ``[starts[j], ends[j])`` that view character ``j``
    came from (``None`` when the view has the same length as the original: identity offsets)."""

    original: str
    text: str
    starts: np.ndarray | None = None
    ends: np.ndarray | None = None

    @property
    def changed(self) -> bool:
        return self.starts is not None

    def to_original(self, a: int, b: int) -> tuple[int, int]:
        """View range ``[a, b)`` (``b > a``) -> the original range covering every character it came from."""
        if self.starts is None:
            return a, b
        return int(self.starts[a]), int(self.ends[b - 1])

    def to_view(self, i: int) -> int:
        """The view offset of original offset ``i`` (the first view character at or after it)."""
        if self.starts is None:
            return i
        return int(np.searchsorted(self.ends, i, side="right"))

    def span_to_original(self, s):
        if self.starts is None:
            return s
        a, b = self.to_original(s.start, s.end)
        return type(s)(a, b, s.label, s.score, s.source)


def _rebuild(text: str, edits: list[tuple]) -> tuple[str, np.ndarray, np.ndarray]:
    """Apply non-overlapping ``(a, b, replacement[, positions])`` edits (sorted); every replacement
    character maps to the whole original range ``[a, b)`` (or to its own original character when
    ``positions`` is given); untouched characters map to themselves."""
    parts: list[str] = []
    s_parts: list[np.ndarray] = []
    e_parts: list[np.ndarray] = []
    pos = 0
    for a, b, rep, *where in edits:
        if a > pos:
            parts.append(text[pos:a])
            r = np.arange(pos, a, dtype=np.int64)
            s_parts.append(r)
            e_parts.append(r + 1)
        if rep and where:  # one original character per replacement character
            parts.append(rep)
            r = np.asarray(where[0], dtype=np.int64)
            s_parts.append(r)
            e_parts.append(r + 1)
        elif rep:
            parts.append(rep)
            s_parts.append(np.full(len(rep), a, dtype=np.int64))
            e_parts.append(np.full(len(rep), b, dtype=np.int64))
        pos = b
    if pos < len(text):
        parts.append(text[pos:])
        r = np.arange(pos, len(text), dtype=np.int64)
        s_parts.append(r)
        e_parts.append(r + 1)
    empty = np.zeros(0, dtype=np.int64)
    return ("".join(parts), np.concatenate(s_parts) if s_parts else empty,
            np.concatenate(e_parts) if e_parts else empty)


def _compose_edits(text: str) -> list[tuple[int, int, str]]:
    edits = []
    for m in _UNIT.finditer(text):
        unit = m.group()
        clean = _INVIS_RE.sub("", unit)
        rep = unicodedata.normalize("NFC", clean) if clean else ""
        if rep != unit:
            edits.append((m.start(), m.end(), rep))
    return edits


def detection_view(text: str, *, fullwidth: bool = True, spaced_digits: bool = False) -> TextView:
    """The detection view of ``text`` (see above). ``fullwidth``: fold full-width forms one-to-one;
    ``spaced_digits``: also join letter-spaced digit runs (for the rule stage: the model has no number
    labels and reads the text as written). Identity (``changed`` False) when nothing applies."""
    edits: list[tuple[int, int, str]] = []
    if _NEEDS_VIEW.search(text):
        edits = _compose_edits(text)
    if spaced_digits:
        base = text
        if edits:  # join spaced digits on the composed text: compose first, then map through both
            inner = detection_view(text, fullwidth=False)
            base = inner.text
        sp = [(m.start(), m.end(), _SPACE_IN_RUN.sub("", m.group()),
               [m.start() + i for i, c in enumerate(m.group()) if c not in " \t"])
              for m in _SPACED_DIGITS.finditer(base)]
        breaks = [(m.start(), m.end(), "") for m in _BROKEN_NUMBER.finditer(base)]
        breaks += [(m.start(), m.end(), " ") for m in _TAB_IN_NUMBER.finditer(base)]
        breaks += [(m.start(), m.end(), "-") for m in _ODD_SEPARATOR.finditer(base)]
        breaks += _email_edits(base)
        if breaks:
            taken = [(a, b) for a, b, *_ in sp]
            kept = []
            for e in sorted(breaks, key=lambda e: (e[0], e[1])):
                if not any(a < e[1] and e[0] < b for a, b in taken):
                    kept.append(e)
                    taken.append((e[0], e[1]))
            sp = sorted(sp + kept, key=lambda e: e[0])
        if sp:
            joined, s2, e2 = _rebuild(base, sp)
            if edits:
                s2, e2 = inner.starts[s2], inner.ends[e2 - 1]
            if fullwidth:
                joined = normalize_text(joined)
            return TextView(text, joined, s2, e2)
    if not edits:
        return TextView(text, normalize_text(text) if fullwidth else text)
    view, starts, ends = _rebuild(text, edits)
    if fullwidth:
        view = normalize_text(view)
    if len(view) == len(text) and view == text:
        return TextView(text, view)
    return TextView(text, view, starts, ends)
