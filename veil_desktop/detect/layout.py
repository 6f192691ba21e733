"""Where the order or the grouping a reader sees is not the order the characters are stored in (issue 26 class 5).

Three edit producers for ``normalize.detection_view``; each returns edits ``(a, b, replacement, where[, ends])``
(``where``: for each replacement character the original character it shows; ``ends``: where the character's
original range ends, when it is more than that one character), so a span found on the view maps back to the
characters it was written with:

- :func:`markup_edits` — HTML/XML markup left in a text or CSV cell (``<span>정</span><span>하</span>``,
  ``haram<wbr>.jung``, ``<u>둔산</u><u>대로</u>``): a browser shows the text between the tags glued. Known HTML
  element names only; inline elements read as nothing, block elements as a space; a tag whose attribute
  values could hold personal data (an ``@``, Hangul, a run of 4+ digits) reads as those values between
  spaces (never hidden). ``<bdo dir=rtl>`` and ``dir=`` attributes read as the bidi controls they are.
- :func:`bidi_edits` — the Unicode Bidirectional Algorithm (UAX #9: explicit embeddings, overrides and isolates,
  weak and neutral types, implicit levels, reordering, mirrored brackets) on every line holding an explicit
  bidi control or a right-to-left mark: ``\\u202e8503-4926-010\\u202c`` is stored reversed and shown as
  ``010-6294-3058``; the view holds the display order (a permutation: the view's map is not monotone).
- :func:`box_table_edits` — text tables drawn with box-drawing or ASCII rules (``│ 성  명 │ 정 │`` over three
  lines, one syllable per line; an address wrapped inside its cell): the lines of one table row are read as
  one line, each cell's pieces joined in order (``│ 성  명 │ 정하람 │``).
"""
from __future__ import annotations

import re
import unicodedata

__all__ = ["markup_edits", "bidi_edits", "box_table_edits", "BIDI_CONTROLS", "has_bidi_controls",
           "direction_marks", "reordered_lines"]

# ----------------------------------------------------------------------------------------------- markup
_INLINE = frozenset((
    "a abbr acronym b bdi bdo big blink cite code data del dfn em font i ins kbd label mark nobr q rb rp rt rtc "
    "ruby s samp small span strike strong sub sup time tt u var wbr").split())
_BLOCK = frozenset((
    "address article aside blockquote br caption center dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 "
    "header hr li main nav ol p pre section table tbody td tfoot th thead tr ul").split())
_VOID = frozenset(("br", "wbr", "hr"))
#: an attribute value: quoted (also CSV-doubled ``""c""``) or bare
_VALUE = r"""(?:""[^"<>]*""|"[^"<>]*"|'[^'<>]*'|[^\s"'<>=`]+)"""
_ATTR = rf"[A-Za-z_:][-A-Za-z0-9_:.]*(?:[ \t]*=[ \t]*{_VALUE})?"
_TAG = re.compile(rf"<(/?)([A-Za-z][A-Za-z0-9]{{0,9}})((?:[ \t\r\n]+{_ATTR})*)[ \t\r\n]*/?>")
_ATTR_RE = re.compile(rf"([A-Za-z_:][-A-Za-z0-9_:.]*)(?:[ \t]*=[ \t]*({_VALUE}))?")
_PERSONAL = re.compile(r"@|[가-힣ㄱ-ㅣ]|[0-9]{4}")


def _attributes(s: str) -> dict[str, str]:
    out = {}
    for m in _ATTR_RE.finditer(s):
        v = m.group(2) or ""
        out[m.group(1).lower()] = v.strip("\"'")
    return out


def _direction(name: str, attrs: dict[str, str]) -> str | None:
    """The bidi control an opening tag stands for (``<bdo dir=rtl>``: RLO; ``dir=rtl``: RLI), or None."""
    d = attrs.get("dir", "").lower()
    style = attrs.get("style", "").replace(" ", "").lower()
    if "direction:rtl" in style:
        d = d or "rtl"
    elif "direction:ltr" in style:
        d = d or "ltr"
    if d not in ("rtl", "ltr", "auto"):
        return None
    if name == "bdo" or "bidi-override" in style:
        return "\u202e" if d == "rtl" else "\u202d"
    return {"rtl": "\u2067", "ltr": "\u2066", "auto": "\u2068"}[d]


def markup_edits(text: str) -> list[tuple]:
    """Edits reading HTML tags as a browser shows them (see the module docstring)."""
    if "<" not in text:
        return []
    out: list[tuple] = []
    opened: list[tuple[str, str]] = []   # (element, control) of open elements that set a direction
    for m in _TAG.finditer(text):
        name = m.group(2).lower()
        if name not in _INLINE and name not in _BLOCK:
            continue
        a, b = m.span()
        if m.group(1):                     # a closing tag
            rep = ""
            if opened and opened[-1][0] == name:
                rep = "\u202c" if opened.pop()[1] in "\u202d\u202e" else "\u2069"
            elif name in _BLOCK:
                rep = " "
            out.append((a, b, rep))
            continue
        attrs = _attributes(m.group(3))
        values = [v for v in attrs.values() if v]
        if any(_PERSONAL.search(v) for v in values):
            out.append((a, b, " " + " ".join(values) + " "))   # what it holds stays readable
            continue
        control = _direction(name, attrs) if name not in _VOID else None
        if control:
            opened.append((name, control))
            out.append((a, b, control))
        else:
            out.append((a, b, " " if name in _BLOCK and name != "wbr" else ""))
    return out


# ------------------------------------------------------------------------------------------------- bidi
#: explicit bidi formatting characters and the right-to-left / Arabic letter marks
BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069\u200f\u061c"
_HAS_BIDI = re.compile(f"[{BIDI_CONTROLS}]")
_MAX_DEPTH = 125
_EMBED = {"LRE", "RLE", "LRO", "RLO"}
_ISOLATE = {"LRI", "RLI", "FSI"}
_NI = {"B", "S", "WS", "ON", "LRI", "RLI", "FSI", "PDI"}
_MIRROR = dict(zip("()[]{}<>«»‹›⁅⁆⁽⁾₍₎〈〉《》「」『』【】〔〕〖〗〘〙〚〛", ")(][}{><»«›‹⁆⁅⁾⁽₎₍〉〈》《」「』『】【〕〔〗〖〙〘〛〚"))


def has_bidi_controls(text: str) -> bool:
    return _HAS_BIDI.search(text) is not None


#: characters that may be shown right to left without any control: UAX #9 types R, AL and AN live in these
#: blocks (Hebrew, Arabic, Syriac, Thaana, NKo, ..., their presentation forms, the SMP right-to-left scripts);
#: a match is confirmed by ``unicodedata.bidirectional``
_RTL_BLOCKS = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff]")


def _markup_view(text: str):
    """``text`` as the detection view reads it before its bidi stage: character references decoded, HTML
    tags read as the bidi controls they stand for (``normalize.detection_view``'s first two stages)."""
    from .normalize import TextView, _apply, _entity_edits

    cur = TextView(text, text)
    cur = _apply(cur, _entity_edits(text))
    return _apply(cur, markup_edits(cur.text))


def direction_marks(text: str) -> list[tuple[int, int, str]]:
    """Every place of ``text`` that sets or ends a direction, in stored order: ``(start, end, control)`` with
    ``control`` one of ``BIDI_CONTROLS`` — a control character itself, a character reference to one
    (``&#x202E;``) or an HTML tag read as one (``<bdo dir=rtl>``: RLO, its ``</bdo>``: PDF; ``dir=rtl``: RLI),
    as ``normalize.detection_view`` reads them."""
    if not (_HAS_BIDI.search(text) or ("<" in text or "&" in text)):
        return []
    view = _markup_view(text)
    out = []
    for m in _HAS_BIDI.finditer(view.text):
        a, b = view.to_original(m.start(), m.end())
        out.append((a, b, m.group()))
    out.sort()
    return out


def reordered_lines(text: str, marks: list[tuple[int, int, str]] | None = None) -> list[tuple[int, int]]:
    """The ``[start, end)`` (sorted, merged; a line without its ``\\n``) of every line of ``text`` whose
    characters may be shown in another order than they are stored in: a line holding a direction mark
    (:func:`direction_marks`: a bidi control, a reference to one, a direction tag) or a right-to-left character
    (UAX #9 types R, AL, AN: a Hebrew or Arabic letter, an Arabic-Indic digit), and every line from a direction
    tag to the tag that closes it (to the end of ``text`` when none does; a browser keeps it open).
    ``bidi_edits`` reads such a line in its display order; a masking style that keeps part of a value there
    would keep it on the side the reader does not expect (``masking.Masker.plan``). ``marks``: the text's
    :func:`direction_marks`, when the caller has them."""
    hits: list[tuple[int, int]] = []
    marks = direction_marks(text) if marks is None else marks
    for a, b, _ in marks:
        hits.append((a, b))
    for m in _RTL_BLOCKS.finditer(text):
        if unicodedata.bidirectional(m.group()) in ("R", "AL", "AN"):
            hits.append((m.start(), m.end()))
    # a direction tag open over several lines (``<bdo dir=rtl>`` ... ``</bdo>`` in a multi-line CSV cell)
    stack: list[int] = []
    for a, b, c in marks:
        if b - a > 1:                      # a tag (or a reference): not bound to its line
            if c in "\u202c\u2069":
                if stack:
                    hits.append((stack.pop(), b))
            else:
                stack.append(a)
    hits += [(a, len(text)) for a in stack]
    if not hits:
        return []
    out: list[tuple[int, int]] = []
    for a, b in sorted(hits):
        a = text.rfind("\n", 0, a) + 1
        e = text.find("\n", max(a, b - 1))
        b = len(text) if e < 0 else e
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


#: how far an FSI looks for its first strong character (the algorithm reads up to the matching PDI; bounded so
#: that a line of FSIs stays linear)
_FSI_LOOKAHEAD = 256


def _first_strong(types: list[str], i: int, n: int, stop_at_pdi: bool) -> int | None:
    """P2/P3: 0 or 1 for the first strong type from ``i`` (isolates skipped), None when there is none."""
    depth = 0
    for k in range(i, n if not stop_at_pdi else min(n, i + _FSI_LOOKAHEAD)):
        t = types[k]
        if t in _ISOLATE:
            depth += 1
        elif t == "PDI":
            if depth:
                depth -= 1
            elif stop_at_pdi:
                return None
        elif depth == 0 and t == "L":
            return 0
        elif depth == 0 and t in ("R", "AL"):
            return 1
    return None


def _levels(line: str) -> tuple[list[int], list[bool], list[str], int]:
    """Resolved embedding levels (X1-I2), removed (X9) flags, original bidi types and the paragraph level."""
    n = len(line)
    orig = [unicodedata.bidirectional(c) or "L" for c in line]
    types = list(orig)
    para = _first_strong(types, 0, n, False) or 0
    levels = [para] * n
    removed = [False] * n
    stack: list[tuple[int, str | None, bool]] = [(para, None, False)]
    over_iso = over_emb = valid_iso = 0
    for i, t in enumerate(orig):           # X1-X8
        lvl, ovr, _ = stack[-1]
        if t in _EMBED:
            new = (lvl + 1) | 1 if t in ("RLE", "RLO") else (lvl + 2) & ~1
            if new <= _MAX_DEPTH and not over_iso and not over_emb:
                stack.append((new, "R" if t == "RLO" else "L" if t == "LRO" else None, False))
            elif not over_iso:
                over_emb += 1
            removed[i], levels[i] = True, lvl
        elif t in _ISOLATE:
            levels[i] = lvl
            if ovr:
                types[i] = ovr
            rtl = t == "RLI" or (t == "FSI" and _first_strong(orig, i + 1, n, True) == 1)
            new = (lvl + 1) | 1 if rtl else (lvl + 2) & ~1
            if new <= _MAX_DEPTH and not over_iso and not over_emb:
                valid_iso += 1
                stack.append((new, None, True))
            else:
                over_iso += 1
        elif t == "PDI":
            if over_iso:
                over_iso -= 1
            elif valid_iso:
                over_emb = 0
                while not stack[-1][2]:
                    stack.pop()
                stack.pop()
                valid_iso -= 1
            lvl, ovr, _ = stack[-1]
            levels[i] = lvl
            if ovr:
                types[i] = ovr
        elif t == "PDF":
            if not over_iso:
                if over_emb:
                    over_emb -= 1
                elif not stack[-1][2] and len(stack) >= 2:
                    stack.pop()
            removed[i], levels[i] = True, lvl
        elif t == "BN":
            removed[i], levels[i] = True, lvl
        elif t == "B":
            levels[i] = para
        else:
            levels[i] = lvl
            if ovr:
                types[i] = ovr
    kept = [i for i in range(n) if not removed[i]]
    # level runs of the kept characters (isolating run sequences approximated by level runs)
    k = 0
    while k < len(kept):
        j = k
        while j + 1 < len(kept) and levels[kept[j + 1]] == levels[kept[k]]:
            j += 1
        run = kept[k:j + 1]
        lvl = levels[run[0]]
        before = levels[kept[k - 1]] if k > 0 else para
        after = levels[kept[j + 1]] if j + 1 < len(kept) else para
        _resolve(types, run, lvl, "R" if max(before, lvl) % 2 else "L", "R" if max(after, lvl) % 2 else "L")
        for i in run:                      # I1, I2
            t = types[i]
            if lvl % 2 == 0:
                levels[i] = lvl + (1 if t == "R" else 2 if t in ("AN", "EN") else 0)
            elif t in ("L", "EN", "AN"):
                levels[i] = lvl + 1
        k = j + 1
    # L1: segment separators and trailing whitespace (with isolate controls) go back to the paragraph level
    trailing = True
    for i in range(n - 1, -1, -1):
        t = orig[i]
        if t in ("S", "B"):
            levels[i] = para
            trailing = True
        elif t in ("WS", "LRI", "RLI", "FSI", "PDI") or removed[i]:
            if trailing:
                levels[i] = para
        else:
            trailing = False
    return levels, removed, orig, para


def _resolve(types: list[str], run: list[int], lvl: int, sos: str, eos: str) -> None:
    """W1-W7 and N1-N2 over one level run (in place; bracket pairs, N0, are not paired)."""
    seq = [types[i] for i in run]
    m = len(seq)
    prev = sos
    for k in range(m):                     # W1
        if seq[k] == "NSM":
            seq[k] = "ON" if prev in _ISOLATE or prev == "PDI" else prev
        prev = seq[k]
    last = sos
    for k in range(m):                     # W2, W3
        t = seq[k]
        if t in ("L", "R", "AL"):
            last = t
        elif t == "EN" and last == "AL":
            seq[k] = "AN"
        if t == "AL":
            seq[k] = "R"
    for k in range(1, m - 1):              # W4
        if seq[k] == "ES" and seq[k - 1] == "EN" == seq[k + 1]:
            seq[k] = "EN"
        elif seq[k] == "CS" and seq[k - 1] == seq[k + 1] and seq[k - 1] in ("EN", "AN"):
            seq[k] = seq[k - 1]
    k = 0
    while k < m:                           # W5
        if seq[k] == "ET":
            j = k
            while j < m and seq[j] == "ET":
                j += 1
            if (k > 0 and seq[k - 1] == "EN") or (j < m and seq[j] == "EN"):
                seq[k:j] = ["EN"] * (j - k)
            k = j
        else:
            k += 1
    for k in range(m):                     # W6
        if seq[k] in ("ES", "ET", "CS"):
            seq[k] = "ON"
    last = sos
    for k in range(m):                     # W7
        if seq[k] in ("L", "R"):
            last = seq[k]
        elif seq[k] == "EN" and last == "L":
            seq[k] = "L"
    e = "R" if lvl % 2 else "L"
    k = 0
    while k < m:                           # N1, N2
        if seq[k] in _NI or seq[k] == "BN":
            j = k
            while j < m and (seq[j] in _NI or seq[j] == "BN"):
                j += 1
            lead = sos if k == 0 else ("L" if seq[k - 1] == "L" else "R")
            trail = eos if j == m else ("L" if seq[j] == "L" else "R")
            seq[k:j] = [lead if lead == trail else e] * (j - k)
            k = j
        else:
            k += 1
    for k, i in enumerate(run):
        types[i] = seq[k]


def _visual(line: str) -> tuple[list[int], list[int], list[bool]] | None:
    """``(order, levels, removed)``: the logical indices of ``line``'s shown characters in display order (L2),
    controls left out; None when the line is shown as stored."""
    levels, removed, _, _ = _levels(line)
    order = [i for i in range(len(line)) if not removed[i]]
    if order:
        top = max(levels[i] for i in order)
        low = min((levels[i] for i in order if levels[i] % 2), default=None)
        if low is not None:
            # reversing at levels L and L-1 touches the same runs when no character has level L-1 exactly:
            # only the levels present count, each as often as the levels it stands for (twice = not at all)
            present = sorted({levels[i] for i in order if levels[i] >= low})
            steps = [lvl for x, lvl in enumerate(present)
                     if (lvl - (present[x - 1] if x else low - 1)) % 2]
            for lvl in reversed(steps):
                k = 0
                while k < len(order):
                    if levels[order[k]] >= lvl:
                        j = k
                        while j < len(order) and levels[order[j]] >= lvl:
                            j += 1
                        order[k:j] = order[k:j][::-1]
                        k = j
                    else:
                        k += 1
    if not any(removed) and order == list(range(len(line))):
        return None
    return order, levels, removed


def bidi_edits(text: str) -> list[tuple]:
    """Per line with a bidi control: the line in display order (see the module docstring). The controls are
    left out; an opening control is covered by the shown character stored after it, a closing one by the
    character stored before it, so masking a whole run replaces its controls too."""
    if not has_bidi_controls(text):
        return []
    out = []
    pos = 0
    for line in text.split("\n"):
        a = pos
        pos += len(line) + 1
        if not has_bidi_controls(line):
            continue
        body = line.rstrip("\r")
        res = _visual(body)
        if res is None:
            continue
        order, levels, removed = res
        n = len(body)
        at = [-1] * n                       # logical index -> position in the display order
        for k, i in enumerate(order):
            at[i] = k
        where = [a + i for i in order]
        ends = [a + i + 1 for i in order]
        nxt = [-1] * (n + 1)                # the next shown character at or after each index
        for i in range(n - 1, -1, -1):
            nxt[i] = i if not removed[i] else nxt[i + 1]
        prv = -1
        for i in range(n):
            if not removed[i]:
                prv = i
                continue
            if body[i] not in "\u202c\u2069" and nxt[i] >= 0:   # an opening control: the character after it
                where[at[nxt[i]]] = min(where[at[nxt[i]]], a + i)
            elif prv >= 0:                                     # a closing one: the character before it
                ends[at[prv]] = max(ends[at[prv]], a + i + 1)
        rep = "".join(_MIRROR.get(body[i], body[i]) if levels[i] % 2 else body[i] for i in order)
        out.append((a, a + n, rep, where, ends))
    return out


# ------------------------------------------------------------------------------------------ box tables
_VBARS = "│┃║┆┇┊┋╎╏|"
_HAS_TABLE = re.compile(f"(?m)^[ \\t]*[{_VBARS}].*[{_VBARS}][ \\t\\r]*$")
_VERTICAL_RULES = "│┃┆┇┊┋║╎╏"
_HORIZONTAL = "".join(chr(c) for c in range(0x2500, 0x2580) if chr(c) not in _VERTICAL_RULES) + "=\\-"
#: a rule line: box-drawing characters, ``+``, ``|``, ``:``, ``=``, ``-`` and spaces, one horizontal piece at least
_RULE_LINE = re.compile(f"[ \\t\u2500-\u257f+|:=\\-]*[{_HORIZONTAL}][ \\t\u2500-\u257f+|:=\\-]*\r?")
_LATIN = re.compile(r"[A-Za-z]")


def _cells(line: str, a: int) -> list[tuple[int, int]] | None:
    """The cells of a table line (ranges of the stripped content, original offsets), or None when the line is
    not a table row (it must start and end with a vertical rule)."""
    s = line.rstrip(" \t\r")
    lead = len(s) - len(s.lstrip(" \t"))
    if len(s) - lead < 2 or s[lead] not in _VBARS or s[-1] not in _VBARS:
        return None
    bars = [k for k in range(lead, len(s)) if s[k] in _VBARS]
    if len(bars) < 2:
        return None
    cells = []
    for x, y in zip(bars, bars[1:]):
        i, j = x + 1, y
        while i < j and s[i] in " \t":
            i += 1
        while j > i and s[j - 1] in " \t":
            j -= 1
        cells.append((a + i, a + j))
    return cells


def _joiner(prev: str, nxt: str) -> str:
    """How a cell's piece on the next line joins the piece above: Hangul, digits, punctuation glue (a CJK cell
    wraps anywhere; vertical writing puts one syllable per line); two Latin words are two words."""
    return " " if _LATIN.match(prev) and _LATIN.match(nxt) else ""


def box_table_edits(text: str) -> list[tuple]:
    """Edits reading each multi-line row of a text table as one line (see the module docstring).

    A table is a run of lines that start and end with a vertical rule (``│``, ``┃``, ``║``, ``|`` …) or are rule
    lines (``├──┼──┤``, ``+----+``), with two rows at least. A line continues the row above it when no rule
    line comes between them, it has as many cells, some of them empty (a wrapped cell, a name written
    downwards, under an empty label), and either rule lines separate the table's rows (two or more inside
    it: each row ends at a rule) or its first cell is empty and every cell of the row holds one character
    (vertical writing). A line whose cells are all filled is a row of its own (``| 총무 | 김철수 |`` then
    ``|      | 이영희 |`` under a header rule only: two rows, not one name)."""
    if _HAS_TABLE.search(text) is None:
        return []
    lines = []
    pos = 0
    for line in text.split("\n"):
        lines.append((pos, line))
        pos += len(line) + 1
    out: list[tuple] = []
    k = 0
    while k < len(lines):
        block = []                          # (line index, cells or None for a rule line)
        while k < len(lines):
            a, line = lines[k]
            cells = _cells(line, a)
            if cells is not None and not _RULE_LINE.fullmatch(line):
                block.append((k, cells))
            elif line.strip() and _RULE_LINE.fullmatch(line):
                block.append((k, None))
            else:
                break
            k += 1
        if not block:
            k += 1
            continue
        out.extend(_table_rows(text, lines, block))
    return out


def _vertical(row: list, cells: list[tuple[int, int]]) -> bool:
    """Whether ``cells`` go on writing ``row`` one character per line: each non-empty cell holds one character,
    and so does the same cell on the lines above (``정`` / ``하`` / ``람``)."""
    for c, (a, b) in enumerate(cells):
        if b - a > 1 or (b > a and any(line[c][1] - line[c][0] > 1 for _, line in row)):
            return False
    return True


def _table_rows(text: str, lines, block) -> list[tuple]:
    content = [x for x in block if x[1] is not None]
    if len(content) < 2:
        return []
    first = block.index(content[0])
    last = block.index(content[-1])
    grid = sum(1 for x in block[first:last] if x[1] is None) >= 2
    rows: list[list] = []
    prev_rule = True
    for idx, cells in block:
        if cells is None:
            prev_rule = True
            continue
        joins = (not prev_rule and rows and len(rows[-1][0][1]) == len(cells)
                 and any(c[0] == c[1] for c in cells) and any(c[0] < c[1] for c in cells)
                 and (grid or (cells[0][0] == cells[0][1] and _vertical(rows[-1], cells))))
        if joins:
            rows[-1].append((idx, cells))
        else:
            rows.append([(idx, cells)])
        prev_rule = False
    out = []
    for row in rows:
        if len(row) < 2 or not any(c[0] < c[1] for _, cells in row[1:] for c in cells):
            continue
        (i0, head), rest = row[0], row[1:]
        a, line = lines[i0]
        end = lines[row[-1][0]][0] + len(lines[row[-1][0]][1].rstrip("\r"))
        rep: list[str] = []
        where: list[int] = []
        pos = a
        for c, (cs, ce) in enumerate(head):
            stop = ce if ce > cs else cs
            rep.append(text[pos:stop])
            where.extend(range(pos, stop))
            tail = text[cs:ce]
            for _, cells in rest:
                ps, pe = cells[c]
                if ps == pe:
                    continue
                j = _joiner(tail[-1], text[ps]) if tail else ""
                if j:
                    rep.append(j)
                    where.append(ps)
                rep.append(text[ps:pe])
                where.extend(range(ps, pe))
                tail = text[ps:pe]
            pos = stop
        line_end = a + len(line.rstrip("\r"))
        rep.append(text[pos:line_end])
        where.extend(range(pos, line_end))
        out.append((a, end, "".join(rep), where))
    return out
