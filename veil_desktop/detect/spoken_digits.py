"""Identifiers dictated as Korean number words, read as digits in the rule view (issue 26, class 5).

A call-centre transcript or a voice-guidance dictation writes a number the way it is said:
``공일공 일이삼사 오육칠팔`` (Sino-Korean, one syllable a digit), ``구 하나 공 둘 둘 넷 다시 여섯 공 일곱 …``
(native words 하나 둘 셋 넷 다섯 여섯 일곱 여덟 아홉, 공/영 for zero), the dash said as 다시 / 대시 / 빼기 /
하이픈 / 하고 / 에 / 의, groups apart or glued. :func:`spoken_digit_edits` yields edits for
``normalize.detection_view`` (rule view only) that replace such a run by the digits it stands for, each digit
mapped back to its own word, so a span the rules find covers the whole word run.

Ordinary prose is full of these words (``이 사람``, ``사 월 이 일``, ``하나 둘 셋 넷`` as a drill call, ``일이삼 쪽``),
so a run is read only when all of these hold:
- every word of it is made of number words and spoken separators alone (only its last word may carry an
  ending: ``…오육칠팔입니다``), the first word starts a word (no syllable glued before it), one line;
- it holds >= 9 digits (>= 4 of them number words), or >= 6 when a number word (``주민``, ``등록번호``,
  ``전화``, ``연락처``, ``계좌`` …) stands before it on its line within 24 characters; never after a NEG word
  (``주문번호``, ``송장번호`` …: ``rules.context``);
- its digits have an identifier's shape: 13 digits with a birth date and a sex digit 1-8 (RRN / foreigner
  number: shown ``YYMMDD-NNNNNNN``), a Korean phone number (valid area code and length: shown
  ``0AA-MMMM-NNNN``), 16 digits passing Luhn (a card: ``4-4-4-4``); with a number word before it also 6
  digits of a birth date after an RRN word, and 10-16 digits (an account: the spoken groups kept, joined by
  ``-``). The identifier rule (``rules/numbers.py``) then decides as it does for typed digits.
Whole words at either end (two digits at most) that keep the run from such a shape are left out
(``이 공일공 …``: "this 010…"; ``… 팔 이에요``), and the last digit of a word an ending is glued to. The counting
drill ``하나 둘 셋 … 아홉`` is ``123456789``: no identifier's shape; a digit string repeating 1-3 digits
(``하나 둘 하나 둘 …`` = 1212…) is never read. A run longer than one identifier (two phone numbers said in a
row) is read as windows of whole words (<= 16 digits) with a self-checking shape; runs are read in bounded
pieces (64 words, the last 20 read again), so a hostile run costs linear time and bounded memory.
"""
from __future__ import annotations

import re

from .rules.context import kind_before
from .rules.numbers import birth_date_ok, luhn_ok

#: number words -> digit; multi-syllable words first (the regex alternation tries them first)
NATIVE = {"하나": "1", "다섯": "5", "여섯": "6", "일곱": "7", "여덟": "8", "아홉": "9", "둘": "2", "셋": "3", "넷": "4"}
SINO = {"공": "0", "영": "0", "일": "1", "이": "2", "삼": "3", "사": "4", "오": "5", "육": "6", "륙": "6", "칠": "7",
        "팔": "8", "구": "9",
        # the letter ㅇ for zero, as chats write it to get past a filter (``공1ㅇ 98구9 사96이``, red team 6 5b):
        # a number word like the others (it counts towards the words a run needs)
        "ㅇ": "0"}
#: the dash said aloud (다시 / 대시 / 하이픈 / 빼기), or a particle between groups (에, 의, 하고)
SEPARATORS = ("하이픈", "다시", "대시", "빼기", "하고", "에", "의")
DIGIT_OF = {**NATIVE, **SINO}

_UNIT = ("(?:" + "|".join(sorted((*NATIVE, *SEPARATORS), key=len, reverse=True))
         + "|[" + "".join(SINO) + "]|[0-9]{1,16}|-)")
#: a run of words made of units; the last may be followed by an ending glued to it (left out). Bounded
#: (32 units a word, 64 words a run): a longer run is read on in overlapping pieces
_RUN_WORDS = 64
_RUN = re.compile(rf"(?<![가-힣A-Za-z0-9]){_UNIT}{{1,32}}"
                  rf"(?:(?:[ \t]+|[ \t]*,[ \t]*){_UNIT}{{1,32}}){{0,{_RUN_WORDS - 1}}}")
_HAS_HANGUL = re.compile("[가-힣]")
#: how many words of a run read in pieces are read again at the start of the next piece
_OVERLAP_WORDS = 20
_UNIT_RE = re.compile(_UNIT)
_SINO_CLASS = "[" + "".join(SINO) + "]"
_HAS_WORD = re.compile(f"하나|다섯|여섯|일곱|여덟|아홉|둘|셋|넷|{_SINO_CLASS}{{2}}|{_SINO_CLASS} {_SINO_CLASS}"
                       f"|[0-9]{_SINO_CLASS}[0-9]|{_SINO_CLASS}[0-9]{_SINO_CLASS}")  # words and digits mixed
#: a number word before the run (the ``_DW_CONTEXT`` words of ``normalize``)
_LABEL = re.compile(r"전화|연락처|연락|휴대|핸드폰|폰|번호|주민|등록|생년|계좌|통장|입금|송금|은행|농협|신한|카카오|카드"
                    r"|phone|tel|mobile|account|acct", re.I)
_MIN_DIGITS, _MIN_DIGITS_LABELLED, _MIN_WORDS = 9, 6, 4
_AREA = re.compile(r"0(?:1[016789]|2|[3-6][1-5]|70|50[2-8]|80)")


def _units(run: str, base: int) -> list[tuple[str, int, int, bool]]:
    """``(char, start, end, is_word)`` for each unit of ``run`` (offset ``base``): ``char`` is a digit (of a
    number word, ``is_word``, or an ASCII digit), ``"-"`` for a separator (spoken or a comma), ``" "`` for
    spaces."""
    out: list[tuple[str, int, int, bool]] = []
    i = 0
    while i < len(run):
        c = run[i]
        if c in " \t":
            j = i
            while j < len(run) and run[j] in " \t":
                j += 1
            out.append((" ", base + i, base + j, False))
            i = j
            continue
        if c == ",":
            out.append(("-", base + i, base + i + 1, False))
            i += 1
            continue
        m = _UNIT_RE.match(run, i)
        u = m.group()
        if u in DIGIT_OF:
            out.append((DIGIT_OF[u], base + i, base + m.end(), True))
        elif u[0].isdigit():
            out.extend((d, base + i + k, base + i + k + 1, False) for k, d in enumerate(u))
        else:
            out.append(("-", base + i, base + m.end(), False))
        i = m.end()
    return out


def _phone_groups(d: str) -> list[str] | None:
    m = _AREA.match(d)
    if m is None:
        return None
    area, rest = m.group(), d[m.end():]
    if len(rest) not in (7, 8) or (area == "010" and len(rest) != 8) or (area in ("070",) and len(rest) != 8):
        return None
    return [area, rest[:-4], rest[-4:]]


def _shape(d: str, groups: list[str], label: str | None, strict: bool) -> list[str] | None:
    """The digit groups ``d`` is shown in, or None when it has no identifier's shape (``strict``: the
    shapes that check themselves; else the looser ones a number word before the run allows)."""
    if len(set(d)) <= 3 and any(d == (d[:p] * len(d))[:len(d)] for p in (1, 2, 3)):
        return None  # a drill call (하나 둘 하나 둘 …), one word said over and over: no one's number
    shown = None
    if strict:
        if len(d) == 13 and birth_date_ok(d[:6]) and d[6] in "12345678":
            shown = [d[:6], d[6:]]
        elif len(d) == 16 and luhn_ok(d):
            shown = [d[:4], d[4:8], d[8:12], d[12:]]
        elif len(d) == 6 and birth_date_ok(d) and label in ("RRN", "FOREIGNER_RN", "ID_CARD"):
            shown = [d]
        else:
            shown = _phone_groups(d)
    elif label is not None and 10 <= len(d) <= 16:
        shown = groups
    return shown


def _word_ends(units) -> list[int]:
    """Indices into ``units`` just after each word's last digit (a word: digits between spaces/separators)."""
    out = []
    for k, u in enumerate(units):
        if u[0].isdigit() and (k + 1 == len(units) or not units[k + 1][0].isdigit()):
            out.append(k + 1)
    return out


def _cuts(units, tail: bool):
    """``(lo, hi)`` ranges of ``units`` to try, the whole run first: whole words off either end, at most
    two digits in all (``이 공일공 …``: "this 010…", ``… 팔 이에요``), and with an ending glued to the last word
    (``tail``) its last digit alone (``…오육칠팔이에요``: the ending's 이)."""
    starts = [0] + [e for e in _word_ends(units)[:-1]]
    ends = _word_ends(units)
    digits = [k for k, u in enumerate(units) if u[0].isdigit()]
    out = []
    for i in range(min(3, len(starts))):
        for j in range(min(3, len(ends))):
            lo, hi = starts[i], ends[len(ends) - 1 - j]
            dropped = sum(1 for k in digits if k < lo or k >= hi)
            if lo < hi and dropped <= 2:
                out.append((dropped, j, lo, hi))
    if tail and len(digits) > 1:
        out.append((1, 0, 0, digits[-2] + 1))
    return [(lo, hi) for _, _, lo, hi in sorted(set(out))]


def _edit(units, label, tail: bool = False):
    """The edit for ``units`` (trimmed as :func:`_cuts` allows until it has a shape), or None: a
    self-checking shape under any cut first, then (after a number word) the whole run as an account."""
    for strict in (True, False):
        for lo, hi in (_cuts(units, tail) if strict else [(0, len(units))]):
            part = units[lo:hi]
            while part and not part[0][0].isdigit():
                part = part[1:]
            d = "".join(u[0] for u in part if u[0].isdigit())
            if len(d) < (_MIN_DIGITS_LABELLED if label else _MIN_DIGITS):
                continue
            if sum(u[3] for u in part) < min(_MIN_WORDS, len(d)):
                continue
            groups = _shape(d, _spoken_groups(part), label, strict)
            if groups is not None:
                return _render(part, groups)
    return None


def _spoken_groups(part) -> list[str]:
    """The digit groups as said: split at a separator, and at a space beside a word of 2+ digits (a
    space between one-digit words is the dictation's, not the number's)."""
    groups: list[list[str]] = []
    prev = None
    for w in _words(part):
        digits = "".join(part[k][0] for k in range(w[0], w[1]))
        if w[2] and prev is not None and len(digits) == 1 and len(prev) == 1:
            groups[-1].append(digits)
        else:
            groups.append([digits])
        prev = digits
    return ["".join(g) for g in groups]


def _words(units) -> list[tuple[int, int, bool]]:
    """``(first, end, joined)``: the unit ranges of ``units``' words (digits with nothing between them);
    ``joined``: only spaces stand between it and the word before (no separator)."""
    out = []
    start = None
    sep = True
    for k, u in enumerate(units):
        if u[0].isdigit():
            if start is None:
                start = k
            continue
        if start is not None:
            out.append((start, k, not sep))
            start, sep = None, False
        if u[0] == "-":
            sep = True
    if start is not None:
        out.append((start, len(units), not sep))
    return out


#: a run longer than one identifier (two phone numbers said in a row, a hostile run): windows of whole
#: words holding at most this many digits are read instead
_MAX_DIGITS = 16


def _windows(units) -> list[tuple]:
    """Edits for a long run: windows of whole words (<= 16 digits) with a self-checking shape, taken
    greedily from the left, the longest from each word; first those whose spoken groups agree with the
    shape (``… 공 공일공 칠칠팔팔 일구이삼``: the phone, not ``000107-7881923`` over the word before it), then the
    others where no window was taken. Linear: the word that ends a window of a given length is looked up
    in the running digit counts."""
    words = _words(units)
    digits = ["".join(units[k][0] for k in range(w[0], w[1])) for w in words]
    ends_at: dict[int, int] = {}        # digits up to the end of word j -> j
    before = [0]
    for j, d in enumerate(digits):
        before.append(before[-1] + len(d))
        ends_at[before[-1]] = j
    cands: dict[int, list[tuple[int, list[str], bool]]] = {}

    def candidates(i: int) -> list[tuple[int, list[str], bool]]:
        """``(last word, groups, agrees)`` of the windows from word ``i``, the longest first."""
        if i not in cands:
            out = []
            for n in (16, 13, 12, 11, 10, 9):
                j = ends_at.get(before[i] + n)
                if j is None or (n not in (13, 16) and not digits[i].startswith("0")):
                    continue
                groups = _shape("".join(digits[i:j + 1]), [], None, True)
                part = units[words[i][0]:words[j][1]] if groups is not None else ()
                if groups is not None and sum(u[3] for u in part) >= _MIN_WORDS:
                    out.append((j, groups, _agrees(part, groups)))
            cands[i] = out
        return cands[i]

    taken = [False] * len(words)
    chosen: list[tuple[int, int, list[str]]] = []
    for agreeing in (True, False):
        i = 0
        while i < len(words):
            best = None
            if not taken[i]:
                best = next(((j, g) for j, g, ok in candidates(i)
                             if (ok or not agreeing) and not any(taken[i:j + 1])), None)
            if best is None:
                i += 1
                continue
            j, groups = best
            taken[i:j + 1] = [True] * (j + 1 - i)
            chosen.append((i, j, groups))
            i = j + 1
    return [_render(units[words[i][0]:words[j][1]], groups) for i, j, groups in sorted(chosen)]


def _agrees(part, groups: list[str]) -> bool:
    """Whether every split of the spoken groups of ``part`` is a split of ``groups`` too."""
    cut, spoken = 0, set()
    for g in _spoken_groups(part)[:-1]:
        cut += len(g)
        spoken.add(cut)
    cut, shown = 0, set()
    for g in groups[:-1]:
        cut += len(g)
        shown.add(cut)
    return spoken <= shown


def _render(part, groups) -> tuple[int, int, str, list[int], list[int]]:
    """The edit showing ``part``'s digits in ``groups`` joined by ``-``: each digit maps to its own word,
    each dash to the characters between the digits it stands between (or to the next digit's word)."""
    digits = [u for u in part if u[0].isdigit()]
    rep: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    k = 0
    for gi, g in enumerate(groups):
        if gi:
            prev, nxt = digits[k - 1], digits[k]
            rep.append("-")
            if prev[2] < nxt[1]:
                starts.append(prev[2])
                ends.append(nxt[1])
            else:
                starts.append(nxt[1])
                ends.append(nxt[2])
        for _ in g:
            u = digits[k]
            rep.append(u[0])
            starts.append(u[1])
            ends.append(u[2])
            k += 1
    return (part[0][1], part[-1][2], "".join(rep), starts, ends)


def spoken_digit_edits(text: str) -> list[tuple[int, int, str, list[int], list[int]]]:
    """Edits ``(a, b, digits, starts, ends)`` over ``text`` for the number-word runs described above
    (sorted, not overlapping)."""
    if not _HAS_WORD.search(text):
        return []
    out: list[tuple] = []
    pos = 0
    while True:
        m = _RUN.search(text, pos)
        if m is None:
            return out
        pos = m.end()
        if m.end() - m.start() < _MIN_DIGITS_LABELLED or _HAS_HANGUL.search(m.group()) is None:
            continue
        units = _units(m.group(), m.start())
        words = _words(units)
        if len(words) >= _RUN_WORDS and _RUN.match(text, m.end()) is None and m.end() < len(text):
            # cut by the bound, not by the text: read on from a few words back (a number across the cut)
            nxt = re.match(r"[ \t]*,?[ \t]*", text[m.end():m.end() + 64])
            if _UNIT_RE.match(text, m.end() + nxt.end()):
                pos = units[words[-_OVERLAP_WORDS][0]][1]
        for e in _run_edits(text, m, units):
            if not out or e[0] >= out[-1][1]:
                out.append(e)


def _run_edits(text: str, m: re.Match, units) -> list[tuple]:
    while units and not units[0][0].isdigit():
        units = units[1:]
    while units and not units[-1][0].isdigit():
        units = units[:-1]
    n_digits = sum(u[0].isdigit() for u in units)
    if n_digits < _MIN_DIGITS_LABELLED or sum(u[3] for u in units) < _MIN_WORDS:
        return []
    a = m.start()
    kind = kind_before(text, a)
    if kind == "NEG":
        return []
    if n_digits > _MAX_DIGITS + 2:
        return _windows(units)
    line_start = text.rfind("\n", 0, a) + 1
    label = None
    if _LABEL.search(text, max(line_start, a - 24), a) is not None:
        label = kind or "NUMBER"
    tail = m.end() < len(text) and "가" <= text[m.end()] <= "힣"
    e = _edit(units, label, tail)
    return [] if e is None else [e]
