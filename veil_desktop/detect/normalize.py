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
_OBF_AT = (r"(?:[ \t]*[\[\(\{<][ \t]*(?:at|AT|At|골뱅이|앳)[ \t]*[\]\)\}>][ \t]*|[ \t]+(?:at|AT)[ \t]+"
           r"|[ \t]*골뱅이[ \t]*)")  # ``kim골뱅이example.com``: the Korean name of the sign, bare
_OBF_DOT = r"(?:[ \t]*[\[\(\{<][ \t]*(?:dot|DOT|Dot|점|닷|쩜)[ \t]*[\]\)\}>][ \t]*|[ \t]+(?:dot|DOT)[ \t]+)"
_OBF_EMAIL = re.compile(rf"[A-Za-z0-9._%+-]+(?P<at>{_OBF_AT})[A-Za-z0-9-]+(?:(?:{_OBF_DOT}|\.)[A-Za-z0-9-]+)*"
                        rf"(?:{_OBF_DOT}|\.)[A-Za-z]{{2,}}(?![A-Za-z0-9])")
_OBF_DOT_RE = re.compile(_OBF_DOT)


_OBF_AT_RE = re.compile(_OBF_AT)


def _email_edits(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    if "at" not in text and "AT" not in text and "At" not in text and "골뱅이" not in text and "앳" not in text:
        return out
    done = -1
    for at in _OBF_AT_RE.finditer(text):  # only around an at-word (the full pattern is slow on long text)
        if at.start() < done:
            continue
        lo = at.start()
        while lo > 0 and at.start() - lo < 128 and (text[lo - 1].isascii() and (text[lo - 1].isalnum()
                                                                                 or text[lo - 1] in "._%+-")):
            lo -= 1
        m = _OBF_EMAIL.match(text, lo, min(len(text), at.end() + 256))
        if m is None or m.start("at") != at.start() or "@" in m.group():
            continue
        if m.end() < len(text) and (text[m.end()].isascii() and text[m.end()].isalnum()):
            continue
        out.append((m.start("at"), m.end("at"), "@"))
        out.extend((d.start(), d.end(), ".") for d in _OBF_DOT_RE.finditer(text, m.end("at"), m.end()))
        done = m.end()
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
    ``positions`` is given); untouched characters map to themselves.

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
        if rep and where:  # one original character per replacement character
            parts.append(rep)
            starts.extend(where[0])
            ends.extend(x + 1 for x in where[0])
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
        if rep != unit:
            edits.append((m.start(), m.end(), rep))
    return edits


# -- more ways of writing a value a reader reads at once (issue 26 class 5) --------------------------
#: HTML numeric and named character references left in a text file (``&#54861;``, ``&#x2D;``, ``&amp;``)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


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


def _circled_table() -> dict[str, str]:
    ranges = [(0x2460, 0x249B), (0x24EA, 0x24FF), (0x2776, 0x2793), (0x3251, 0x325F), (0x32B1, 0x32BF)]
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


def _ocr_digit_edits(text: str) -> list[tuple[int, int, str, list[int]]]:
    if not any(c in _OCR_DIGIT for c in text):
        return []
    out = []
    for m in _OCR_NUMBER.finditer(text):
        run = m.group()
        wrong = sum(c in _OCR_DIGIT for c in run)
        digits = sum(c.isdigit() for c in run)
        if not wrong or wrong > 2 or digits < len(run.replace("-", "")) - 2 or digits < 8:
            continue
        out.append((m.start(), m.end(), "".join(_OCR_DIGIT.get(c, c) for c in run),
                    list(range(m.start(), m.end()))))
    return out


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


def _apply(cur: TextView, edits: list[tuple]) -> TextView:
    """``cur`` with ``edits`` (on ``cur.text``) applied, its map composed back to ``cur.original``."""
    if not edits:
        return cur
    new, s2, e2 = _rebuild(cur.text, sorted(edits, key=lambda e: (e[0], e[1])))
    if cur.starts is not None:
        s2, e2 = cur.starts[s2], cur.ends[e2 - 1]
    return TextView(cur.original, new, s2, e2)


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


def detection_view(text: str, *, fullwidth: bool = True, spaced_digits: bool = False) -> TextView:
    """The detection view of ``text`` (see above). ``fullwidth``: fold full-width forms one-to-one;
    ``spaced_digits``: the rule stage's view: also join letter-spaced digit runs, numbers broken over a
    line, odd separators, written-out e-mail addresses, formula string concatenation, circled digits,
    OCR's digit confusions in phone/RRN-shaped numbers, Sino-Korean digit words after a number word
    (``공일공 오팔…``), Cyrillic/Greek look-alike letters inside Latin tokens (the model has no number labels and reads the text as written). HTML character references are
    decoded in both views. Identity (``changed`` False) when nothing applies.

    Stages, each mapped back through the ones before: entities -> NFC / invisibles -> (rule view:
    formulas and circled digits -> spaced digits, breaks, separators, e-mail words) -> full width."""
    cur = TextView(text, text)
    cur = _apply(cur, _entity_edits(text))
    if _NEEDS_VIEW.search(cur.text):
        cur = _apply(cur, _compose_edits(cur.text))
    if spaced_digits:
        cur = _apply(cur, _first_free(sorted(_formula_edits(cur.text) + _circled_edits(cur.text)
                                             + _ocr_digit_edits(cur.text) + _digit_word_edits(cur.text)
                                             + _homoglyph_edits(cur.text), key=lambda e: (e[0], e[1]))))
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
    return TextView(text, view, cur.starts, cur.ends)
