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
_OBF_AT = (r"(?:[ \t]*[\[\(\{<][ \t]*(?:at|AT|At|골뱅이|앳)[ \t]*[\]\)\}>][ \t]*|[ \t]+(?:at|AT|앳)[ \t]+"
           r"|[ \t]*골뱅이[ \t]*)")  # ``kim골뱅이example.com``: the Korean name of the sign, bare
#: ``[dot]``, `` dot ``, and the Korean words said for the dot standing alone between the pieces (a chat:
#: ``bluepine 쩜 lim 앳 example 쩜 org``, red team 6 5b); only inside the shape below (ASCII pieces around)
_OBF_DOT = (r"(?:[ \t]*[\[\(\{<][ \t]*(?:dot|DOT|Dot|점|닷|쩜)[ \t]*[\]\)\}>][ \t]*|[ \t]+(?:dot|DOT|점|닷|쩜)[ \t]+)")
_OBF_EMAIL = re.compile(rf"[A-Za-z0-9._%+-]+(?P<at>{_OBF_AT})[A-Za-z0-9-]+(?:(?:{_OBF_DOT}|\.)[A-Za-z0-9-]+)*"
                        rf"(?:{_OBF_DOT}|\.)[A-Za-z]{{2,}}(?![A-Za-z0-9])")
#: a spoken dot ending just before a position: the local part's pieces (``bluepine 쩜 lim 앳 …``)
_OBF_DOT_BEFORE = re.compile(rf"(?:{_OBF_DOT})$")
_OBF_DOT_RE = re.compile(_OBF_DOT)


_OBF_AT_RE = re.compile(_OBF_AT)


def _local_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c in "._%+-")


def _email_edits(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    if "at" not in text and "AT" not in text and "At" not in text and "골뱅이" not in text and "앳" not in text:
        return out
    done = -1
    for at in _OBF_AT_RE.finditer(text):  # only around an at-word (the full pattern is slow on long text)
        if at.start() < done:
            continue
        lo = at.start()
        while lo > 0 and at.start() - lo < 128 and _local_char(text[lo - 1]):
            lo -= 1
        local = lo  # where the pieces before the at-word start: spoken dots between them (``bluepine 쩜 lim``)
        while local < at.start():
            d = _OBF_DOT_BEFORE.search(text, max(0, local - 16), local)
            if d is None or d.start() == 0 or not _local_char(text[d.start() - 1]):
                break
            k = d.start()
            while k > 0 and at.start() - k < 128 and _local_char(text[k - 1]):
                k -= 1
            if at.start() - k >= 128:
                break
            local = k
        m = _OBF_EMAIL.match(text, lo, min(len(text), at.end() + 256))
        if m is None or m.start("at") != at.start() or "@" in m.group():
            continue
        if m.end() < len(text) and (text[m.end()].isascii() and text[m.end()].isalnum()):
            continue
        if local < lo and (local == 0 or not _local_char(text[local - 1])):
            out.extend((d.start(), d.end(), ".") for d in _OBF_DOT_RE.finditer(text, local, lo))
        out.append((m.start("at"), m.end("at"), "@"))
        out.extend((d.start(), d.end(), ".") for d in _OBF_DOT_RE.finditer(text, m.end("at"), m.end()))
        done = m.end()
    return out


@dataclass(frozen=True)
class TextView:
    """``text`` as detectors should read it, and the way back to ``original``.

    ``starts[j]``/``ends[j]``: the original characters ``[starts[j], ends[j])`` that view character ``j``
    came from (``None`` when the view has the same length as the original: identity offsets).
    ``monotone``: the map never goes backwards (False where the view shows characters in another order
    than they are stored: a bidi override, a box-table row read across its lines; see ``layout.py``).
    ``reordered``: a line was read in its bidi display order."""

    original: str
    text: str
    starts: np.ndarray | None = None
    ends: np.ndarray | None = None
    monotone: bool = True
    reordered: bool = False

    @property
    def changed(self) -> bool:
        return self.starts is not None

    def to_original(self, a: int, b: int) -> tuple[int, int]:
        """View range ``[a, b)`` (``b > a``) -> the original range covering every character it came from."""
        if self.starts is None:
            return a, b
        if self.monotone:
            return int(self.starts[a]), int(self.ends[b - 1])
        return int(self.starts[a:b].min()), int(self.ends[a:b].max())

    def to_view(self, i: int) -> int:
        """The view offset of original offset ``i`` (the first view character at or after it)."""
        if self.starts is None:
            return i
        if not self.monotone:
            after = np.flatnonzero(self.ends > i)
            return int(after[0]) if len(after) else len(self.text)
        return int(np.searchsorted(self.ends, i, side="right"))

    def span_to_original(self, s):
        if self.starts is None:
            return s
        a, b = self.to_original(s.start, s.end)
        return type(s)(a, b, s.label, s.score, s.source)

    def pieces(self, a: int, b: int) -> list[tuple[int, int]]:
        """The original ranges view range ``[a, b)`` came from: one range, unless the view joined characters
        of different lines across other text (a box-table cell written over several lines: one range per
        line, so masking the cell leaves the table's rules and the other cells as they are)."""
        if self.starts is None:
            return [(a, b)]
        if self.monotone:
            return [(int(self.starts[a]), int(self.ends[b - 1]))]
        st, en, text = self.starts, self.ends, self.original
        out = []
        lo, hi = int(st[a]), int(en[a])
        for j in range(a + 1, b):
            x, y = int(en[j - 1]), int(st[j])
            gap = text[x:y] if y >= x else text[y:x]
            if "\n" in gap and (y < x or gap.strip()):
                out.append((lo, hi))
                lo, hi = y, int(en[j])
            else:
                lo, hi = min(lo, y), max(hi, int(en[j]))
        out.append((lo, hi))
        return out

    def spans_to_original(self, spans) -> list:
        """``spans`` (over the view) over the original, sorted: each span's :meth:`pieces` (a piece without a
        letter or digit is left out); spans that overlap once mapped back (a non-monotone map) become one."""
        if self.starts is None:
            return sorted(spans, key=lambda s: (s.start, s.end))
        if self.monotone:
            return sorted((self.span_to_original(s) for s in spans), key=lambda s: (s.start, s.end))
        out = []
        for s in spans:
            for a, b in self.pieces(s.start, s.end):
                if a < b and any(c.isalnum() for c in self.original[a:b]):
                    out.append(type(s)(a, b, s.label, s.score, s.source))
        out.sort(key=lambda s: (s.start, s.end))
        merged: list = []
        for s in out:
            if merged and s.start < merged[-1].end:
                m = merged[-1]
                keep = m if (m.end - m.start) >= (s.end - s.start) else s
                merged[-1] = type(s)(m.start, max(m.end, s.end), keep.label, max(m.score, s.score), keep.source)
            else:
                merged.append(s)
        return merged


def _rebuild(text: str, edits: list[tuple]) -> tuple[str, np.ndarray, np.ndarray]:
    """Apply non-overlapping ``(a, b, replacement[, positions[, ends]])`` edits (sorted); every replacement
    character maps to the whole original range ``[a, b)`` (or to its own original character when
    ``positions`` is given, to ``[positions[k], ends[k])`` with ``ends``); untouched characters map to
    themselves.

    Linear in the number of edits: the maps are built in Python lists (``range`` extends run in C) and
    converted once, so a text with hundreds of thousands of edits costs no per-edit array."""
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for a, b, rep, *where in edits:
        if a > pos:
            parts.append(text[pos:a])
            starts.extend(range(pos, a))
            ends.extend(range(pos + 1, a + 1))
        if rep and where:  # one original character per replacement character (or the range where[0..1])
            parts.append(rep)
            starts.extend(where[0])
            ends.extend(where[1] if len(where) > 1 else (x + 1 for x in where[0]))
        elif rep:
            parts.append(rep)
            starts.extend([a] * len(rep))
            ends.extend([b] * len(rep))
        pos = b
    if pos < len(text):
        parts.append(text[pos:])
        starts.extend(range(pos, len(text)))
        ends.extend(range(pos + 1, len(text) + 1))
    return "".join(parts), np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64)


def _compose_edits(text: str) -> list[tuple[int, int, str]]:
    edits = []
    for m in _UNIT.finditer(text):
        unit = m.group()
        clean = _INVIS_RE.sub("", unit)
        rep = unicodedata.normalize("NFC", clean) if clean else ""
        if len(rep) > 1:
            rep = _without_marks(rep)
        if rep != unit:
            edits.append((m.start(), m.end(), rep))
    return edits


def _without_marks(s: str) -> str:
    """A composed unit without the marks a reader reads through: enclosing marks (the keycap ``1️⃣`` is
    ``1`` + U+FE0F + U+20E3, ``①``-like ``1⃝``) always, and combining marks left on an ASCII letter or digit
    (``0̲1̲0̲``: underlined digits); accents that compose (``é``) were composed by NFC already."""
    out = []
    for c in s:
        cat = unicodedata.category(c)
        if cat == "Me" or (cat == "Mn" and out and out[-1].isascii() and out[-1].isalnum()):
            continue
        out.append(c)
    return "".join(out)


# -- Hangul spelt in compatibility jamo (issue 26 class 5) ------------------------------------------
#: ``ㅈㅓㅇㅎㅏㄹㅏㅁ`` (also ``ㅈ ㅓ ㅇ …``, ``ㅈㅓㅇ ㅎㅏ ㄹㅏㅁ``, half-width ``ﾸﾓﾷ``) reads as ``정하람``: composed as a
#: two-set keyboard composes (lead + vowel [+ tail], compound vowels ``ㅗㅏ`` -> ``ㅘ`` and tails ``ㄹㄱ`` -> ``ㄺ``;
#: a consonant before a vowel starts the next syllable). Runs of consonants alone (``ㅋㅋ``, ``ㅇㅇ``) are left.
_LEADS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
_VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_TAILS = ("", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ",
          "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ")
_TAIL_INDEX = {t: i for i, t in enumerate(_TAILS) if t}
_VOWEL_PAIRS = {("ㅗ", "ㅏ"): "ㅘ", ("ㅗ", "ㅐ"): "ㅙ", ("ㅗ", "ㅣ"): "ㅚ", ("ㅜ", "ㅓ"): "ㅝ", ("ㅜ", "ㅔ"): "ㅞ",
                ("ㅜ", "ㅣ"): "ㅟ", ("ㅡ", "ㅣ"): "ㅢ"}
_TAIL_PAIRS = {("ㄱ", "ㅅ"): "ㄳ", ("ㄴ", "ㅈ"): "ㄵ", ("ㄴ", "ㅎ"): "ㄶ", ("ㄹ", "ㄱ"): "ㄺ", ("ㄹ", "ㅁ"): "ㄻ",
               ("ㄹ", "ㅂ"): "ㄼ", ("ㄹ", "ㅅ"): "ㄽ", ("ㄹ", "ㅌ"): "ㄾ", ("ㄹ", "ㅍ"): "ㄿ", ("ㄹ", "ㅎ"): "ㅀ",
               ("ㅂ", "ㅅ"): "ㅄ"}
_JAMO = "\u3131-\u3163\uffa1-\uffbe\uffc2-\uffc7\uffca-\uffcf\uffd2-\uffd7\uffda-\uffdc"
_HAS_JAMO_SYLLABLE = re.compile(f"[{_JAMO}][ \t]?[{_JAMO}]")
_JAMO_RUN = re.compile(f"[{_JAMO}]+(?:[ \t][{_JAMO}]+)*")


#: half-width Hangul letters -> the compatibility jamo of the same name (NFKC would give conjoining jamo)
_HALF_JAMO = {chr(c): unicodedata.lookup(unicodedata.name(chr(c))[len("HALFWIDTH "):])
              for c in range(0xFFA1, 0xFFDD) if unicodedata.name(chr(c), "").startswith("HALFWIDTH HANGUL LETTER")}


def _compat(c: str) -> str:
    return _HALF_JAMO.get(c, c)


def _compose_jamo(chars: list[str]) -> list[tuple[str, int, int]]:
    """``(character, first, end)`` over ``chars`` (compatibility jamo): syllables where a lead and a vowel
    meet, the jamo left as they are elsewhere."""
    out = []
    i, n = 0, len(chars)
    vowel = lambda k: k < n and chars[k] in _VOWELS  # noqa: E731
    while i < n:
        c = chars[i]
        if c in _LEADS and vowel(i + 1):
            v, j = chars[i + 1], i + 2
            if j < n and (v, chars[j]) in _VOWEL_PAIRS:
                v, j = _VOWEL_PAIRS[(v, chars[j])], j + 1
            tail = ""
            if j < n and chars[j] in _TAIL_INDEX and not vowel(j + 1):
                tail, j = chars[j], j + 1
                if j < n and (tail, chars[j]) in _TAIL_PAIRS and not vowel(j + 1):
                    tail, j = _TAIL_PAIRS[(tail, chars[j])], j + 1
            code = 0xAC00 + (_LEADS.index(c) * 21 + _VOWELS.index(v)) * 28 + (_TAIL_INDEX[tail] if tail else 0)
            out.append((chr(code), i, j))
            i = j
        else:
            out.append((c, i, i + 1))
            i += 1
    return out


def _jamo_edits(text: str) -> list[tuple[int, int, str]]:
    if not _HAS_JAMO_SYLLABLE.search(text):
        return []
    out: list[tuple[int, int, str]] = []
    for m in _JAMO_RUN.finditer(text):
        run, base = m.group(), m.start()
        groups = [(g.start(), g.group()) for g in re.finditer(r"[^ \t]+", run)]
        spaced = len(groups) >= 3 and all(len(g) == 1 for _, g in groups)
        if spaced:
            groups = [(groups[0][0], "".join(g for _, g in groups))]     # letter-spaced: ㅈ ㅓ ㅇ ㅎ ㅏ …
            offsets = [[k for k, c in enumerate(run) if c not in " \t"]]
        else:
            offsets = [list(range(o, o + len(g))) for o, g in groups]
        composed = []
        for (o, g), offs in zip(groups, offsets):
            syl = _compose_jamo([_compat(c) for c in g])
            # letter-spaced: a syllable covers the space after it (the spaces were between letters, not words)
            composed.append([(c, base + offs[x], base + (offs[y] if spaced and y < len(offs) else offs[y - 1] + 1))
                             for c, x, y in syl])
        # a group read as one syllable joins its neighbours (``ㅈㅓㅇ ㅎㅏ ㄹㅏㅁ``: the lone-syllable rule of
        # rules/spacing.py), only between groups that composed whole
        whole = [all("\uac00" <= c <= "\ud7a3" for c, _, _ in g) for g in composed]
        for k, g in enumerate(composed):
            for idx, (c, a, b) in enumerate(g):
                last = idx == len(g) - 1
                if last and k + 1 < len(composed) and whole[k] and whole[k + 1] and (
                        len(g) == 1 or len(composed[k + 1]) == 1):
                    b = composed[k + 1][0][1]        # the space after it goes with it
                if text[a:b] != c:
                    out.append((a, b, c))
    return out


# -- digits of other writing systems read in the rule view (issue 26 class 5) -------------------------
#: Hanja numerals (``〇一〇-六二九四-三〇五八``, ``零``, the financial ``壹貳參``) and super/subscript digits
#: (``M⁵⁷¹⁸⁰³⁹²``, ``₀₁₀``) read as digits, one character each, inside a run of digits and separators that has
#: enough of them to be a number: 2 Hanja numerals and 4 digits in all (``一般``, ``三國``, ``第一`` are
#: words), 4 super/subscript digits (a footnote mark ``¹``, ``²³`` or a unit ``m²``, ``CO₂`` is no number).
HANJA_DIGITS = {"〇": "0", "零": "0", "一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7",
                "八": "8", "九": "9", "壹": "1", "弌": "1", "貳": "2", "贰": "2", "弍": "2", "參": "3", "参": "3",
                "弎": "3", "肆": "4", "伍": "5", "陸": "6", "陆": "6", "柒": "7", "捌": "8", "玖": "9",
                # Suzhou (Hangzhou) numerals, U+3021..U+3029 (〇 is U+3007 above)
                **{chr(0x3020 + d): str(d) for d in range(1, 10)}}
#: Braille digits (the cells of a-j after the number sign ⠼, U+283C): read as digits in a run that holds
#: the number sign and 4 digit cells (Korean Braille prose does not use these cells for words)
BRAILLE_DIGITS = {"⠁": "1", "⠃": "2", "⠉": "3", "⠙": "4", "⠑": "5", "⠋": "6", "⠛": "7", "⠓": "8", "⠊": "9",
                  "⠚": "0", "⠼": " ", "⠤": "-"}
SCRIPT_DIGITS = {**{chr(0x2070 + d): str(d) for d in (0, 4, 5, 6, 7, 8, 9)}, "¹": "1", "²": "2", "³": "3",
                 **{chr(0x2080 + d): str(d) for d in range(10)}, "⁻": "-", "₋": "-"}


def _digit_run_edits(text: str, table: dict[str, str], min_own: int, min_digits: int, run_re, has_re):
    if not has_re.search(text):
        return []
    out = []
    for m in run_re.finditer(text):
        run = m.group()
        own = sum(c in table and table[c] != "-" for c in run)
        if own < min_own:
            continue
        rep = "".join(table.get(c, c) for c in run)
        if sum(c.isdigit() for c in rep) < min_digits:
            continue
        out.append((m.start(), m.end(), rep, list(range(m.start(), m.end()))))
    return out


_HJ = re.escape("".join(HANJA_DIGITS))
_HAS_HANJA_DIGIT = re.compile(f"[{_HJ}]")
_HANJA_RUN = re.compile(f"[0-9{_HJ}](?:[0-9 .\\-{_HJ}]*[0-9{_HJ}])?")
_SC = re.escape("".join(SCRIPT_DIGITS))
_HAS_SCRIPT_DIGIT = re.compile(f"[{_SC}]")
_SCRIPT_RUN = re.compile(f"[0-9{_SC}](?:[0-9 .\\-{_SC}]*[0-9{_SC}])?")


#: a label justified over its cell, one syllable at a time (``성  명``, ``계  좌``, ``주   소``, ``연 락 처 :``): read as
#: the word in the rule view, so the keyword before a number is seen. Two spaces or more between lone
#: syllables (prose has one), or one when a colon or a table rule follows the label.
_SPACED_LABEL = re.compile(r"(?<![가-힣])[가-힣](?:[ \t]{2,}[가-힣])+(?![가-힣])"
                           r"|(?<![가-힣])[가-힣](?:[ \t][가-힣])+(?=[ \t]*[:：│┃║|])")
_HAS_SPACED_LABEL = re.compile(r"[가-힣][ \t]+[가-힣](?![가-힣])")


def _spaced_label_edits(text: str) -> list[tuple[int, int, str]]:
    if not _HAS_SPACED_LABEL.search(text):
        return []
    return [(m.start() + g.start(), m.start() + g.end(), "")
            for m in _SPACED_LABEL.finditer(text) for g in re.finditer(r"[ \t]+", m.group())]


_BR = re.escape("".join(BRAILLE_DIGITS))
_HAS_BRAILLE_SIGN = re.compile("⠼")
_BRAILLE_RUN = re.compile(f"[0-9{_BR}](?:[0-9 .\\-{_BR}]*[0-9{_BR}])?")


def _braille_digit_edits(text: str) -> list[tuple]:
    return [e for e in _digit_run_edits(text, BRAILLE_DIGITS, 4, 4, _BRAILLE_RUN, _HAS_BRAILLE_SIGN)
            if "⠼" in text[e[0]:e[1]]]


def _hanja_digit_edits(text: str) -> list[tuple]:
    return _digit_run_edits(text, HANJA_DIGITS, 2, 4, _HANJA_RUN, _HAS_HANJA_DIGIT)


def _script_digit_edits(text: str) -> list[tuple]:
    return _digit_run_edits(text, SCRIPT_DIGITS, 4, 4, _SCRIPT_RUN, _HAS_SCRIPT_DIGIT)


# -- more ways of writing a value a reader reads at once (issue 26 class 5) --------------------------
#: HTML numeric and named character references left in a text file (``&#54861;``, ``&#x2D;``, ``&amp;``)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


#: an escaped quote of a quoted CSV cell (RFC 4180 §2.7: ``""`` stands for ``"``) between two Hangul
#: syllables: ``"백""승""현"`` is a name a spreadsheet shows as 백"승"현 — both views read it without them
_DOUBLED_QUOTE = re.compile(r'(?<=[가-힣])""(?=[가-힣])')


def _entity_edits(text: str) -> list[tuple[int, int, str]]:
    if "&" not in text:
        return []
    from html.entities import html5

    out = []
    for m in _ENTITY.finditer(text):
        body = m.group()[1:]
        if body[0] == "#":
            try:
                cp = int(body[2:-1], 16) if body[1] in "xX" else int(body[1:-1])
            except ValueError:
                continue
            if not (0 < cp <= 0x10FFFF) or 0xD800 <= cp <= 0xDFFF:
                continue
            rep = chr(cp)
        else:
            rep = html5.get(body)
            if rep is None:
                continue
        out.append((m.start(), m.end(), rep))
    return out


#: JSON / JavaScript string escapes (RFC 8259 section 7: ``\uXXXX``, a surrogate pair for a character past
#: U+FFFF) in a text file: an API response saved as text (red team 7 5b) holds every Hangul syllable, digit and
#: ``@`` of a value as an escape. Read as the characters they stand for in both views (each maps back to its
#: six or twelve characters); an escaped backslash (``\\u0041``: the text ``\u0041``) is not an escape.
_JSON_ESCAPE = re.compile(r"\\u(?P<hi>[dD][89abAB][0-9A-Fa-f]{2})\\u(?P<lo>[dD][c-fC-F][0-9A-Fa-f]{2})"
                          r"|\\u(?P<one>[0-9A-Fa-f]{4})")


def _json_escape_edits(text: str) -> list[tuple[int, int, str]]:
    if "\\u" not in text:
        return []
    out = []
    for m in _JSON_ESCAPE.finditer(text):
        k = m.start()
        while k > 0 and text[k - 1] == "\\":
            k -= 1
        if (m.start() - k) % 2:
            continue  # the backslash is itself escaped
        if m.group("one") is not None:
            cp = int(m.group("one"), 16)
            if 0xD800 <= cp <= 0xDFFF or cp < 0x20:
                continue  # a lone surrogate, a control character: left as written
        else:
            cp = 0x10000 + ((int(m.group("hi"), 16) - 0xD800) << 10) + (int(m.group("lo"), 16) - 0xDC00)
        out.append((m.start(), m.end(), chr(cp)))
    return out


# -- keys typed with the keyboard in the wrong mode (red team 7 5c) -----------------------------------------
#: the Korean standard (두벌식) layout: the Hangul letter of each Latin key, and of the shifted keys that have one
DUBEOLSIK = dict(zip("qwertyuiopasdfghjklzxcvbnm", "ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔㅁㄴㅇㄹㅎㅗㅓㅏㅣㅋㅌㅊㅍㅠㅜㅡ"))
DUBEOLSIK.update(zip("QWERTOP", "ㅃㅉㄸㄲㅆㅒㅖ"))
#: a word of Latin letters standing alone (not part of an address, an identifier, a file name or a URL)
_LATIN_WORD = re.compile(r"(?<![A-Za-z0-9@._%+\-/:\\])[A-Za-z]{4,24}(?![A-Za-z0-9@_%+\-/\\]|\.[A-Za-z0-9])")


def _ime_edits(text: str) -> list[tuple[int, int, str, list[int]]]:
    """``qhdcofls`` is ``봉채린`` typed with the input method left in English mode: a word of Latin letters that
    the 두벌식 layout turns into whole Hangul syllables and nothing else (every key a letter, no letter left
    over, 2+ syllables, each one of KS X 1001's 2,350, not all capitals) is read as those syllables, each mapped
    back to its keys. English words seldom compose so (their vowels are consonant keys: ``that`` -> ``솜ㅅ``):
    of 834 k English word tokens of 5+ letters (the standard library's sources) 2.7 % compose, 1.3 % into
    KS X 1001 syllables, before the rule that the word stands alone on a Hangul line."""
    if not _HAS_LATIN4.search(text) or not _HAS_HANGUL.search(text):
        return []
    out = []
    for m in _LATIN_WORD.finditer(text):
        w = m.group()
        if len(w) < 5 or w.isupper() or any(c.isupper() and c not in "QWERTOP" for c in w):
            continue
        a, b = _line_at(text, m.start())
        if not _HAS_HANGUL.search(text, a, b) or _LATIN_NEIGHBOUR.search(text[max(a, m.start() - 24):m.start()]) \
                or _LATIN_NEIGHBOUR_AFTER.match(text, m.end(), min(b, m.end() + 24)):
            continue  # a Latin word among Latin words is English (or a romanisation), not Korean typed in English mode
        syl = _compose_jamo([DUBEOLSIK[c.lower()] if c.islower() else DUBEOLSIK[c] for c in w])
        if len(syl) < 2 or not all("\uac00" <= c <= "\ud7a3" for c, _, _ in syl):
            continue
        rep = "".join(c for c, _, _ in syl)
        if len(rep.encode("euc_kr")) != 2 * len(rep):
            continue  # a syllable outside KS X 1001's 2,350 (``abcabc`` -> 뮻뮻): a random word, not typed Korean
        where = [m.start() + a for _, a, _ in syl]
        ends = [m.start() + b for _, _, b in syl]
        out.append((m.start(), m.end(), rep, where, ends))
    return out


_HAS_LATIN4 = re.compile(r"[A-Za-z]{4}")
_HAS_HANGUL = re.compile("[가-힣]")
#: another Latin word on the line just before / after (``check the title``): English, not a mistyped word
_LATIN_NEIGHBOUR = re.compile(r"[A-Za-z]{2,}[^A-Za-z가-힣\n]{0,3}$")
_LATIN_NEIGHBOUR_AFTER = re.compile(r"[^A-Za-z가-힣\n]{0,3}[A-Za-z]{2,}")
#: digits typed with Shift held (US layout: ``!@#$%^&*()`` for ``1234567890``): a run of those signs alone
#: (hyphens between groups allowed) with the length of a phone or an RRN, rule view only
_SHIFT_DIGIT = dict(zip("!@#$%^&*()", "1234567890"))
_SHIFT_RUN = re.compile(r"(?<![\w!@#$%^&*()])[!@#$%^&*()]{2,8}(?:-[!@#$%^&*()]{3,8}){0,2}(?![\w!@#$%^&*()])")


def _shift_digit_edits(text: str) -> list[tuple[int, int, str, list[int]]]:
    if "!" not in text and ")" not in text and "^" not in text:
        return []
    out = []
    for m in _SHIFT_RUN.finditer(text):
        run = m.group()
        digits = "".join(_SHIFT_DIGIT.get(c, c) for c in run)
        flat = digits.replace("-", "")
        if not 9 <= len(flat) <= 13 or len(set(flat)) < 4:
            continue  # ``!!!!!!!!!`` is emphasis, not a number
        if not (flat.startswith("0") or len(flat) == 13):
            continue  # a phone starts with its area code's 0; an RRN has 13 digits
        out.append((m.start(), m.end(), digits, list(range(m.start(), m.end()))))
    return out


#: a passport number's letter typed with the input method in Korean mode (``ㅡ86288922``: M is the ㅡ key): read
#: as the letter before 8 digits (Korean passports: M, S, R, G, D + 8 digits)
_KOREAN_MODE_LETTER = re.compile(r"(?<![가-힣ㄱ-ㅣA-Za-z0-9])[ㅡㄴㄱㅎ](?=[0-9]{8}(?![0-9]))")
_LETTER_OF_KEY = {"ㅡ": "M", "ㄴ": "S", "ㄱ": "R", "ㅎ": "G"}


def _korean_mode_letter_edits(text: str) -> list[tuple[int, int, str, list[int]]]:
    if not any(c in text for c in _LETTER_OF_KEY):
        return []
    return [(m.start(), m.end(), _LETTER_OF_KEY[m.group()], [m.start()]) for m in _KOREAN_MODE_LETTER.finditer(text)]


def _circled_table() -> dict[str, str]:
    ranges = [(0x2460, 0x249B), (0x24EA, 0x24FF), (0x2776, 0x2793), (0x3251, 0x325F), (0x32B1, 0x32BF),
              (0x1F100, 0x1F10C)]     # digit full stop/comma ``🄁``, dingbat circled sans-serif zero ``🄋``/``🄌``
    table = {}
    for a, b in ranges:
        for cp in range(a, b + 1):
            ch = chr(cp)
            v = unicodedata.numeric(ch, None)
            if v is not None and v == int(v):
                table[ch] = str(int(v))
    return table


#: circled ``①``, parenthesised ``⑴``, digit-full-stop ``⒈``, negative circled ``❶`` … -> their digits
CIRCLED_DIGITS: dict[str, str] = {}
_CIRCLED_CLASS = ""


def _init_circled() -> None:
    global _CIRCLED_CLASS
    CIRCLED_DIGITS.update(_circled_table())
    _CIRCLED_CLASS = "".join(sorted(CIRCLED_DIGITS))


_init_circled()
_HAS_CIRCLED = re.compile(f"[{re.escape(_CIRCLED_CLASS)}]")
#: a run of digits (circled or not) with separators inside; a run is rewritten only when it holds at least
#: two circled digits (a lone ``①`` before a word is a list marker, not part of a number)
_CIRCLED_RUN = re.compile("[0-9" + re.escape(_CIRCLED_CLASS) + "](?:[0-9 .\\-" + re.escape(_CIRCLED_CLASS) + "]*"
                          f"[0-9{re.escape(_CIRCLED_CLASS)}])?")


def _circled_edits(text: str) -> list[tuple[int, int, str]]:
    if not _HAS_CIRCLED.search(text):
        return []
    out = []
    for m in _CIRCLED_RUN.finditer(text):
        run = m.group()
        if sum(c in CIRCLED_DIGITS for c in run) < 2:
            continue
        rep = "".join(CIRCLED_DIGITS.get(c, c) for c in run)   # ⑩ -> "10": both map to the one original
        where = [m.start() + i for i, c in enumerate(run) for _ in CIRCLED_DIGITS.get(c, c)]
        out.append((m.start(), m.end(), rep, where))
    return out


#: OCR's digit confusions inside numbers shaped like a phone or an RRN (issue 22: OCR read ``010-1234-5678``
#: as ``)10-1234-5678``): ``)``/``(`` and ``O``/``o`` for 0, ``l``/``I``/``|`` for 1, ``/`` for 7, ``S`` for 5,
#: ``B`` for 8, ``Z`` for 2 (redteam3: an inverted image mask read ``010-5823-/461``) — read as those digits,
#: one to one, only when most of the run is digits and the groups have a phone's or an RRN's lengths
_CONF = "0-9OoIl|)(/SBZ"
_OCR_NUMBER = re.compile(
    rf"(?<![0-9A-Za-z])(?:[{_CONF}]{{2,3}}-[{_CONF}]{{3,4}}-[{_CONF}]{{4}}|[{_CONF}]{{6}}-[{_CONF}]{{7}})(?![0-9A-Za-z])")
_OCR_DIGIT = {")": "0", "(": "0", "O": "0", "o": "0", "I": "1", "l": "1", "|": "1", "/": "7", "S": "5",
              "B": "8", "Z": "2"}


#: the same letters in a bank account's groups (``국민 496736-O2-l4936l``: O and l typed for 0 and 1 to get past
#: a chat filter, red team 6 5b): 2-4 hyphenated groups, 10-14 characters, read only after an account word or
#: a bank's name (``rules.context``), at most 3 letters and at least 8 real digits
_OCR_ACCOUNT = re.compile(rf"(?<![0-9A-Za-z])[{_CONF}]{{2,6}}(?:-[{_CONF}]{{2,8}}){{1,3}}(?![0-9A-Za-z])")


def _ocr_digit_edits(text: str) -> list[tuple[int, int, str, list[int]]]:
    if not any(c in _OCR_DIGIT for c in text):
        return []
    out = []
    taken = -1
    for m in _OCR_NUMBER.finditer(text):
        run = m.group()
        wrong = sum(c in _OCR_DIGIT for c in run)
        digits = sum(c.isdigit() for c in run)
        if not wrong or wrong > 2 or digits < len(run.replace("-", "")) - 2 or digits < 8:
            continue
        out.append((m.start(), m.end(), "".join(_OCR_DIGIT.get(c, c) for c in run),
                    list(range(m.start(), m.end()))))
        taken = m.end()
    if "-" in text:
        from .rules.context import kind_before  # noqa: PLC0415 - rules import normalize: late, no cycle

        for m in _OCR_ACCOUNT.finditer(text):
            run = m.group()
            if m.start() < taken or not 10 <= len(run.replace("-", "")) <= 14:
                continue
            wrong = sum(c in _OCR_DIGIT for c in run)
            digits = sum(c.isdigit() for c in run)
            if not wrong or wrong > 3 or digits < 8 or kind_before(text, m.start()) != "ACCOUNT":
                continue
            out.append((m.start(), m.end(), "".join(_OCR_DIGIT.get(c, c) for c in run),
                        list(range(m.start(), m.end()))))
    return sorted(out)


#: spreadsheet formula concatenation: ``="851203-"&"1234567"`` (CSV-quoted: ``""&""``), ``"010-"&4821``,
#: ``CONCATENATE("851203","-","1234567")`` / ``CONCAT(…)``: the pieces are read joined
_FORMULA_AMP = re.compile(r'(?<=[0-9A-Za-z@.\-])(?:"{1,2}[ \t]*&[ \t]*"{0,2}|"{0,2}[ \t]*&[ \t]*"{1,2})'
                          r'(?=[0-9A-Za-z@.\-])')
_CONCAT_CALL = re.compile(r'CONCAT(?:ENATE)?\((?P<args>[^()\n]{3,200})\)', re.I)
_CONCAT_SEP = re.compile(r'"{1,2}[ \t]*[,;][ \t]*"{1,2}')


def _formula_edits(text: str) -> list[tuple[int, int, str]]:
    if '"' not in text:
        return []
    out = []
    if "&" in text:
        out = [(m.start(), m.end(), "") for m in _FORMULA_AMP.finditer(text)]
    if "(" in text:
        for m in _CONCAT_CALL.finditer(text):
            a = m.start("args")
            out.extend((a + s.start(), a + s.end(), "") for s in _CONCAT_SEP.finditer(m.group("args")))
    return out


#: an e-mail address broken over a line: after the ``@`` (``kim@exam⏎ple.com``), or in the local part when
#: the break is inside a quoted CSV cell (``"minjun.⏎kim@example.com"``)
_EMAIL_FULL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
_EMAIL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+@-")
_LINE_BREAK_IN_WORD = re.compile(r"(?<=[A-Za-z0-9._%+@-])[ \t]*(?:\r\n|\r|\n)[ \t]*(?=[A-Za-z0-9._%+@-])")


def _broken_email_edits(text: str) -> list[tuple[int, int, str]]:
    if "@" not in text or "\n" not in text and "\r" not in text:
        return []
    out = []
    for m in _LINE_BREAK_IN_WORD.finditer(text):
        i = m.start()
        while i > 0 and m.start() - i < 128 and text[i - 1] in _EMAIL_CHARS:
            i -= 1
        j = m.end()
        while j < len(text) and j - m.end() < 128 and text[j] in _EMAIL_CHARS:
            j += 1
        a, b = text[i:m.start()], text[m.end():j]
        if "@" not in a and "@" not in b:
            continue
        joined = a + b
        if joined.count("@") != 1 or not _EMAIL_FULL.fullmatch(joined):
            continue
        if "@" in a:
            if _EMAIL_FULL.fullmatch(a) and not b.startswith("."):
                continue  # a whole address, then a word on the next line
        else:  # the break is in the local part: only inside a quoted cell
            line_start = max(text.rfind("\n", 0, i), text.rfind("\r", 0, i)) + 1
            if text.count('"', line_start, i) % 2 != 1:
                continue
        out.append((m.start(), m.end(), ""))
    return out


def _line_at(text: str, i: int) -> tuple[int, int]:
    a = text.rfind("\n", 0, i) + 1
    b = text.find("\n", i)
    return a, (len(text) if b < 0 else b)


def _in_tsv_row(text: str, i: int, last: list) -> bool:
    """Whether the tab at ``i`` separates the cells of a TSV row: the line above or below has as many
    tabs (a header, another row). A tab between digit groups elsewhere (a DOCX ``w:tab``) reads as a space;
    in a TSV row the tabular finder (``rules/tabular.py``) joins the cells with their header."""
    if last and last[0] <= i < last[1]:
        return last[2]
    a, b = _line_at(text, i)
    last[:] = [a, b, _tsv_line(text, a, b)]
    return last[2]


def _tsv_line(text: str, a: int, b: int) -> bool:
    n = text.count("\t", a, b)
    if a > 0:
        pa, pb = _line_at(text, a - 1)
        if text.count("\t", pa, pb) == n:
            return True
    if b < len(text):
        na, nb = _line_at(text, b + 1)
        if text.count("\t", na, nb) == n:
            return True
    return False


# -- Cyrillic / Greek letters that look Latin inside a Latin-looking token (issue 26 class 5) -----------
#: ``сhаеwоn.уооn@example.net`` (Cyrillic с а е о у): a reader reads Latin, the e-mail finder saw a word break.
#: Folded for the rule view only, one to one, and only inside a token that also holds a Latin letter or
#: ``@`` and touches no other Cyrillic/Greek letter (a Russian or Greek word is left as written).
HOMOGLYPHS: dict[str, str] = {
    # Cyrillic lower / upper
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
    "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ѵ": "v", "к": "k",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ү": "Y",
    # Greek lower / upper
    "ο": "o", "α": "a", "ρ": "p", "ν": "v", "ι": "i", "υ": "u", "κ": "k", "τ": "t", "ϲ": "c", "ϳ": "j",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
}
_HOMO_CLASS = "".join(HOMOGLYPHS)
_HAS_HOMO = re.compile(f"[{_HOMO_CLASS}]")
_HOMO_TOKEN = re.compile(f"[A-Za-z0-9\uff10-\uff19\uff21-\uff3a\uff41-\uff5a._%+@\uff20\\-{_HOMO_CLASS}]+")
_LATIN_OR_AT = re.compile("[A-Za-z\uff21-\uff3a\uff41-\uff5a@\uff20]")


def _greek_or_cyrillic(c: str) -> bool:
    return "\u0370" <= c <= "\u052f" or "\u1f00" <= c <= "\u1fff"


def _homoglyph_edits(text: str) -> list[tuple[int, int, str, list[int]]]:
    if not _HAS_HOMO.search(text):
        return []
    out = []
    for m in _HOMO_TOKEN.finditer(text):
        tok = m.group()
        if not _HAS_HOMO.search(tok) or not _LATIN_OR_AT.search(tok):
            continue
        a, b = m.span()
        if (a > 0 and _greek_or_cyrillic(text[a - 1])) or (b < len(text) and _greek_or_cyrillic(text[b])):
            continue  # part of a real Cyrillic/Greek word
        out.append((a, b, "".join(HOMOGLYPHS.get(c, c) for c in tok), list(range(a, b))))
    return out


# -- Sino-Korean digit words (issue 26 class 5) ------------------------------------------------------
#: ``구이공사일칠 다시 일육삼사팔오육`` (an RRN), ``공구일칠 사팔이육 일삼`` (an account): a number read out digit by
#: digit, ``다시``/``에``/``의`` for the dash. Read as digits (one syllable, one digit) only when (a) every
#: group has 2+ syllables, one 3+, and the run stands alone (no Hangul glued before or after it), (b) it
#: has 8+ digits in all or one group of 6+ (an RRN's first half), and (c) a number word (전화, 연락처, 주민, 계좌, 번호 …) stands before it on its line, within
#: 24 characters (not 우리/하나/국민: ordinary words), and (d) at most one group is an ordinary word spelt
#: with digit syllables (``삼삼오오 일일이`` is not a number): prose such as ``일이 삼일 만에`` or ``이사 오일`` has no such run.
DIGIT_WORDS = {"공": "0", "영": "0", "일": "1", "이": "2", "삼": "3", "사": "4", "오": "5", "육": "6", "륙": "6",
               "칠": "7", "팔": "8", "구": "9"}
_DW = "".join(DIGIT_WORDS)
_HAS_DW_RUN = re.compile(f"[{_DW}]{{2}}")
_DW_GROUP = f"(?:[{_DW}]{{2,}}|[0-9]{{2,}})"  # words or digits, never glued (``1234567이``: a particle)
_DW_SEP = r"(?:[ ]?(?:다시|에|의)[ ]?|[ ]?-[ ]?|[ ])"
_DW_NUMBER = re.compile(f"(?<![가-힣0-9A-Za-z]){_DW_GROUP}(?:{_DW_SEP}{_DW_GROUP})*(?![가-힣0-9A-Za-z])")
_DW_CONTEXT = re.compile(r"전화|연락처|연락|휴대|핸드폰|폰|번호|주민|등록|생년|계좌|통장|입금|송금|은행|농협|신한|카카오"
                         r"|phone|tel|mobile|account|acct", re.I)  # not 우리/하나/국민: ordinary words too
#: words spelt only with digit syllables (in groups, in a row, one by one)
_DW_VETO = frozenset(("삼삼오오", "일일이", "사이사이", "사이", "이사", "오일", "구이", "일일"))
_DW_GROUP_RE = re.compile(_DW_GROUP)
_DW_SEP_RE = re.compile(r"[ ]?(?:다시|에|의)[ ]?|[ ]?-[ ]?")


def _digit_word_edits(text: str) -> list[tuple[int, int, str, list[int]]]:
    if not _HAS_DW_RUN.search(text):
        return []
    out = []
    for m in _DW_NUMBER.finditer(text):
        run = m.group()
        n_words = sum(c in DIGIT_WORDS for c in run)
        n_digits = n_words + sum(c.isdigit() for c in run)
        groups = _DW_GROUP_RE.findall(run)
        words = sum(g in _DW_VETO for g in groups)
        if words >= 2 or words == len(groups):
            continue  # two such words (a real number's groups are seldom both words), or nothing else
        longest = max(len(g) for g in groups)
        if not n_words or longest < 3 or (n_digits < 8 and longest < 6):
            continue  # ``이사 오일 구이`` (moving, five days, grill): short words, not a number
        a = m.start()
        line_start = text.rfind("\n", 0, a) + 1
        if _DW_CONTEXT.search(text, max(line_start, a - 24), a) is None:
            continue
        rep: list[str] = []
        where: list[int] = []
        i = 0
        while i < len(run):
            sep = _DW_SEP_RE.match(run, i)
            if sep is not None and sep.end() > i and not run[i].isdigit() and run[i] not in DIGIT_WORDS:
                rep.append("-")
                where.append(a + i)
                i = sep.end()
                continue
            rep.append(DIGIT_WORDS.get(run[i], run[i]))
            where.append(a + i)
            i += 1
        out.append((a, m.end(), "".join(rep), where))
    return out


#: a number read out in English words (red team 8: "zero one zero dash three eight six one dash …" after
#: "연락처 (영어로 불러 주심)"): digit words, "double"/"triple" before one, and dash/hyphen/minus as the dash
_EN_DIGITS = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
              "seven": "7", "eight": "8", "nine": "9"}
_EN_WORD = "(?:" + "|".join(_EN_DIGITS) + ")"
_EN_UNIT = rf"(?:(?:double|triple)[ ]{_EN_WORD}|{_EN_WORD}|dash|hyphen|minus)"
_EN_RUN = re.compile(rf"(?<![A-Za-z]){_EN_UNIT}(?:[ ,\-]{{1,3}}{_EN_UNIT}){{6,40}}(?![A-Za-z])", re.I)
_EN_TOKEN = re.compile(rf"(double|triple)[ ]({_EN_WORD})|({_EN_WORD})|(dash|hyphen|minus)", re.I)


def _english_digit_edits(text: str) -> list[tuple[int, int, str, list[int], list[int]]]:
    """Runs of 7+ English digit words (a phone, an RRN, an account read out) as their digits, one to one
    with the words; prose ("one or two of the three") has other words between and is no run."""
    if not re.search(r"(?i)\b(?:zero|one|two|three|four|five|six|seven|eight|nine)\b", text):
        return []
    out = []
    for m in _EN_RUN.finditer(text):
        rep: list[str] = []
        where: list[int] = []
        ends: list[int] = []
        n = 0
        for t in _EN_TOKEN.finditer(m.group()):
            at, to = m.start() + t.start(), m.start() + t.end()
            if t.group(4):
                rep.append("-")
                where.append(at)
                ends.append(to)
                continue
            d = _EN_DIGITS[(t.group(2) or t.group(3)).lower()]
            k = {"double": 2, "triple": 3}.get((t.group(1) or "").lower(), 1)
            rep += [d] * k
            where += [at] * k             # each digit stands for its whole word: a mask covers the word
            ends += [to] * k
            n += k
        if n >= 7 and "".join(rep).strip("-") == "".join(rep):
            out.append((m.start(), m.end(), "".join(rep), where, ends))
    return out


def _apply(cur: TextView, edits: list[tuple], *, reordered: bool = False) -> TextView:
    """``cur`` with ``edits`` (on ``cur.text``) applied, its map composed back to ``cur.original``."""
    if not edits:
        return cur
    new, s2, e2 = _rebuild(cur.text, sorted(edits, key=lambda e: (e[0], e[1])))
    if cur.starts is not None:
        if cur.monotone:
            s2, e2 = cur.starts[s2], cur.ends[e2 - 1]
        else:  # a view character that came from several characters covers all they came from
            lo, hi = cur.starts[s2], cur.ends[e2 - 1]
            for j in np.flatnonzero(e2 - s2 > 1).tolist():
                lo[j] = cur.starts[s2[j]:e2[j]].min()
                hi[j] = cur.ends[s2[j]:e2[j]].max()
            s2, e2 = lo, hi
    monotone = bool((s2[1:] >= s2[:-1]).all() and (e2[1:] >= e2[:-1]).all())
    return TextView(cur.original, new, s2, e2, monotone, cur.reordered or reordered)


def _first_free(edits: list[tuple], taken: list[tuple[int, int]] | None = None) -> list[tuple]:
    """The edits (sorted by start) that overlap no edit kept before them nor a ``taken`` range (sorted,
    non-overlapping). Linear: an edit can only meet the last one kept."""
    taken = sorted(taken or [])
    kept: list[tuple] = []
    last_end = -1
    ti = 0
    for e in edits:
        if e[0] < last_end:
            continue
        while ti < len(taken) and taken[ti][1] <= e[0]:
            ti += 1
        if ti < len(taken) and taken[ti][0] < e[1]:
            continue
        kept.append(e)
        last_end = e[1]
    return kept


def detection_view(text: str, *, fullwidth: bool = True, spaced_digits: bool = False,
                   bidi: bool = True) -> TextView:
    """The detection view of ``text`` (see above). ``fullwidth``: fold full-width forms one-to-one;
    ``spaced_digits``: the rule stage's view: also join letter-spaced digit runs, numbers broken over a
    line, odd separators, written-out e-mail addresses, formula string concatenation, circled digits,
    OCR's digit confusions in phone/RRN-shaped numbers, Sino-Korean digit words after a number word
    (``공일공 오팔…``), identifiers dictated in native or Sino-Korean number words (``spoken_digits.py``:
    ``구 하나 공 둘 …``), Hanja numerals and super/subscript digits in number-like runs, Cyrillic/Greek look-alike
    letters inside Latin tokens (the model has no number labels and reads the text as written). Both views:
    HTML character references decoded, HTML tags read as a browser shows them, each line with a bidi control
    in its display order (``bidi``; ``False``: as stored), keycap and other enclosing marks dropped,
    compatibility-jamo spelling composed, multi-line box-table rows read as one line (``layout.py``).
    Identity (``changed`` False) when nothing applies.

    Stages, each mapped back through the ones before: entities -> tags -> bidi -> NFC / invisibles / marks ->
    jamo -> box tables -> (rule view: formulas and circled digits -> spaced digits, breaks, separators, e-mail
    words) -> full width."""
    from . import layout

    cur = TextView(text, text)
    cur = _apply(cur, _entity_edits(text))
    cur = _apply(cur, _json_escape_edits(cur.text))
    cur = _apply(cur, _ime_edits(cur.text))
    cur = _apply(cur, [(m.start(), m.end(), "") for m in _DOUBLED_QUOTE.finditer(cur.text)])
    cur = _apply(cur, layout.markup_edits(cur.text))
    if bidi:
        cur = _apply(cur, layout.bidi_edits(cur.text), reordered=True)
    if _NEEDS_VIEW.search(cur.text):
        cur = _apply(cur, _compose_edits(cur.text))
    cur = _apply(cur, _jamo_edits(cur.text))
    cur = _apply(cur, layout.box_table_edits(cur.text))
    if spaced_digits:
        from .spoken_digits import spoken_digit_edits

        spoken = spoken_digit_edits(cur.text)  # number-word runs first: the glued-word reading below defers
        cur = _apply(cur, spoken + _first_free(sorted(_formula_edits(cur.text) + _circled_edits(cur.text)
                                             + _ocr_digit_edits(cur.text) + _digit_word_edits(cur.text)
                                             + _homoglyph_edits(cur.text) + _hanja_digit_edits(cur.text)
                                             + _script_digit_edits(cur.text) + _braille_digit_edits(cur.text)
                                             + _shift_digit_edits(cur.text) + _korean_mode_letter_edits(cur.text)
                                             + _spaced_label_edits(cur.text) + _english_digit_edits(cur.text),
                                             key=lambda e: (e[0], e[1])), [(e[0], e[1]) for e in spoken]))
        base = cur.text
        sp = [(m.start(), m.end(), _SPACE_IN_RUN.sub("", m.group()),
               [m.start() + i for i, c in enumerate(m.group()) if c not in " \t"])
              for m in _SPACED_DIGITS.finditer(base)]
        breaks = [(m.start(), m.end(), "") for m in _BROKEN_NUMBER.finditer(base)]
        tsv_rows: list = []  # the last line looked at: [start, end, is a TSV row] (matches come in order)
        breaks += [(m.start(), m.end(), " ") for m in _TAB_IN_NUMBER.finditer(base)
                   if not _in_tsv_row(base, m.start(), tsv_rows)]
        breaks += [(m.start(), m.end(), "-") for m in _ODD_SEPARATOR.finditer(base)]
        breaks += _email_edits(base)
        breaks += _broken_email_edits(base)
        if breaks:
            sp = sp + _first_free(sorted(breaks, key=lambda e: (e[0], e[1])), [(a, b) for a, b, *_ in sp])
        cur = _apply(cur, sp)
    if cur.starts is None:
        return TextView(text, normalize_text(text) if fullwidth else text)
    view = normalize_text(cur.text) if fullwidth else cur.text
    if view == text:
        return TextView(text, view)
    return TextView(text, view, cur.starts, cur.ends, cur.monotone, cur.reordered)
