"""Reading order of a PDF page's glyphs: the order the page *shows* them in, where the content stream draws
them in another (red team 8, 3b).

pdfium lists a page's characters in content-stream order. A hostile (or odd) file can draw the glyphs of a
line one by one, each placed with its own ``Tm``/``Td``, in a shuffled or reversed order: the page reads
``010-3861-2947``, the text layer ``-82 … 0 3 4 …``, and detection finds nothing. :func:`visual_order`
finds such lines and re-reads them by position:

- the upright glyphs of a page (baseline horizontal; right-to-left scripts, rotated and mirrored glyphs are
  left as pdfium orders them) are grouped into **lines** (their loose boxes, which pdfium derives from the
  font's ascent and descent, overlap vertically by at least half the smaller height); within a line, a
  glyph that covers more than half of an earlier glyph of the same line goes to a further **layer** (a
  copy drawn over the first, as fake bold or a shadow does), so copies are read one after the other, not
  interleaved;
- within one line and layer the glyphs are ranked by x; a **run** is a sequence of glyphs the stream draws
  one right after the other that are also neighbours, left to right, on the page. An ordinary line is one
  run, or several runs far apart drawn in page order (columns, table cells, a label and a value drawn
  later);
- two neighbouring runs are **out of order** when the right one is drawn first and they are close
  (less than ``REVERSED_GAP`` line heights apart, or either has at most ``SHORT_RUN`` glyphs: shuffled
  letter-spaced glyphs are far apart and alone), or when they are drawn in page order but *touch* (less
  than ``SPACE_GAP`` of a line height apart: the stream broke off inside a word to draw another line and
  came back). On a line with such a pair, runs chained by out-of-order neighbours or closer than
  ``JOIN_GAP`` line heights (less than a column gutter) form a **group**; each group is read left to right
  (a space where the gap is a word gap) and put where its first glyph is drawn in the stream, set apart by
  line breaks; the rest of the page keeps pdfium's order and separators untouched.

The separators this adds hold no ink and map to no pdfium character (index ``-1``); every glyph keeps its
own pdfium index, so the masks of a value land on its glyphs wherever the stream drew them.
"""
from __future__ import annotations

import bisect
import unicodedata
from dataclasses import dataclass

#: glyphs of one line at most this fraction of the line height apart touch (no word gap between them)
SPACE_GAP = 0.12
#: neighbouring runs drawn right-first are out of order when closer than this many line heights ...
REVERSED_GAP = 2.0
#: ... or when either has at most this many glyphs
SHORT_RUN = 3
#: on a line with runs out of order, runs closer than this many line heights are read together
JOIN_GAP = 3.0
#: a glyph covering more than this share of the narrower width of an earlier glyph goes to a further layer
LAYER_OVERLAP = 0.5
#: at most this many layers per line (a hostile pile of glyphs at one spot shares the last)
MAX_LAYERS = 8


@dataclass
class Reordered:
    chars: list[str]
    idx: list[int]
    gen: list[bool]
    groups: int           # groups read in visual order
    glyphs: int           # glyphs in them


def _rtl(ch: str) -> bool:
    return bool(ch) and unicodedata.bidirectional(ch[0]) in ("R", "AL", "AN")


def _lines(boxes: list[tuple[float, float, float, float]]) -> list[list[int]]:
    """Glyph numbers grouped into lines, top line first (vertical overlap ≥ half the smaller height with
    the line's first glyph, glyphs taken by their vertical centre, top first)."""
    order = sorted(range(len(boxes)), key=lambda i: -(boxes[i][1] + boxes[i][3]))
    lines: list[list[int]] = []
    band: tuple[float, float] | None = None
    for i in order:
        _l, b, _r, t = boxes[i]
        if band is not None and min(t, band[1]) - max(b, band[0]) >= 0.5 * min(t - b, band[1] - band[0]):
            lines[-1].append(i)
            continue
        lines.append([i])
        band = (b, t)
    return lines


def _layers(line: list[int], boxes, text: list[str]) -> list[list[int]]:
    """``line``'s glyphs (in stream order) split into layers: a glyph overlapping an earlier glyph *of the
    same character* in a layer by more than ``LAYER_OVERLAP`` of the narrower width (a copy: fake bold, a
    shadow) goes to the next layer. Different characters drawn over each other (an accent, jamo composed
    into an old-Hangul syllable) stay in one layer."""
    layers: list[list[int]] = []
    lefts: list[list[float]] = []        # per layer: sorted lefts
    members: list[list[int]] = []        # per layer: glyphs in the order of ``lefts``
    for i in sorted(line):
        l, _b, r, _t = boxes[i]
        placed = False
        for n in range(len(layers)):
            pos = bisect.bisect_left(lefts[n], l)
            clash = False
            for j in members[n][max(0, pos - 2):pos + 2]:
                if text[j] != text[i]:
                    continue
                jl, _, jr, _ = boxes[j]
                ov = min(r, jr) - max(l, jl)
                if ov > LAYER_OVERLAP * min(r - l, jr - jl):
                    clash = True
                    break
            if not clash or n == MAX_LAYERS - 1:
                layers[n].append(i)
                lefts[n].insert(pos, l)
                members[n].insert(pos, i)
                placed = True
                break
        if not placed:
            layers.append([i])
            lefts.append([l])
            members.append([i])
    return layers


def _groups(layer: list[int], boxes) -> list[list[int]]:
    """Groups of ``layer``'s glyphs to read in visual order (module doc), each sorted left to right."""
    if len(layer) < 2:
        return []
    xs = sorted(layer, key=lambda i: (boxes[i][0], i))
    rank = {g: n for n, g in enumerate(xs)}
    heights = sorted(boxes[i][3] - boxes[i][1] for i in layer)
    h = heights[len(heights) // 2]
    # runs: stream neighbours (consecutive glyph numbers) that are also x neighbours, left to right
    runs: list[list[int]] = []
    for g in sorted(layer):
        if runs and runs[-1][-1] == g - 1 and rank[g] == rank[runs[-1][-1]] + 1:
            runs[-1].append(g)
        else:
            runs.append([g])
    if len(runs) < 2:
        return []
    runs.sort(key=lambda run: rank[run[0]])
    gaps = [boxes[b[0]][0] - boxes[a[-1]][2] for a, b in zip(runs, runs[1:])]
    bad = [(gap < REVERSED_GAP * h or min(len(a), len(b)) <= SHORT_RUN) if b[0] < a[0]   # right run first
           else gap < SPACE_GAP * h          # in page order, but the stream left the word and came back
           for a, b, gap in zip(runs, runs[1:], gaps)]
    if not any(bad):
        return []
    out: list[list[int]] = []
    cur = [runs[0]]
    for a, b, gap, wrong in zip(runs, runs[1:], gaps, bad):
        # on a line drawn out of order, runs closer than a column gutter belong together too (words drawn
        # in page order, one line's word after another line's word, are read as one line)
        if wrong or gap < JOIN_GAP * h:
            cur.append(b)
            continue
        if len(cur) > 1:
            out.append([g for run in cur for g in run])
        cur = [b]
    if len(cur) > 1:
        out.append([g for run in cur for g in run])
    return out


#: the orientation key of upright glyphs written in columns (:func:`_vertical_writing`)
VERTICAL = 4
#: a glyph is written vertically when the glyph above or below it is at most this many heights away ...
COLUMN_GAP = 0.6
#: ... and its nearest neighbour on its line is more than twice as far, plus this many heights
ROW_MARGIN = 0.2


def _vertical_writing(upright: list[int], boxes) -> set[int]:
    """The glyphs of ``upright`` (numbers into ``boxes``) written in columns: a glyph has a neighbour
    above or below it (horizontally overlapping by half the narrower width) at most ``COLUMN_GAP`` of its
    height away, and the nearest glyph on its line (``_lines``) is more than twice as far plus
    ``ROW_MARGIN`` heights (or there is none) — text set down the page, not across it. Horizontal text
    (glyphs closer along the line than to the lines above and below) is never taken."""
    import math

    if len(upright) < 2:
        return set()
    hgap = {n: math.inf for n in upright}
    for line in _lines([boxes[n] for n in upright]):
        row = sorted((upright[j] for j in line), key=lambda n: boxes[n][0])
        for a, b in zip(row, row[1:]):
            gap = max(0.0, boxes[b][0] - boxes[a][2])
            hgap[a] = min(hgap[a], gap)
            hgap[b] = min(hgap[b], gap)
    # only glyphs with room on their line can be in a column: few on an ordinary page
    cand = [n for n in upright if hgap[n] > ROW_MARGIN * (boxes[n][3] - boxes[n][1])]
    if len(cand) < 2:
        return set()
    widths = sorted(boxes[n][2] - boxes[n][0] for n in cand)
    cell = max(widths[len(widths) // 2], 1e-6)
    bins: dict[int, list[int]] = {}
    for n in cand:
        bins.setdefault(int(((boxes[n][0] + boxes[n][2]) / 2) // cell), []).append(n)
    out = set()
    for n in cand:
        l, b, r, t = boxes[n]
        h = t - b
        k = int(((l + r) / 2) // cell)
        vgap = math.inf
        for m in (m for kk in (k - 1, k, k + 1) for m in bins.get(kk, ())):
            if m == n:
                continue
            ml, mb, mr, mt = boxes[m]
            if min(r, mr) - max(l, ml) < 0.5 * min(r - l, mr - ml):
                continue
            vgap = min(vgap, max(0.0, mb - t, b - mt))
        if vgap <= COLUMN_GAP * h and hgap[n] > 2 * vgap + ROW_MARGIN * h:
            out.add(n)
    return out


def visual_order(chars: list[str], idx: list[int], gen: list[bool], glyphs: list[tuple]) -> Reordered:
    """``chars``/``idx``/``gen`` (a page as pdfium lists it: characters, pdfium indices, generated?) with
    the out-of-order groups of ``glyphs`` read in visual order (module doc). ``glyphs``: ``(position in
    chars, loose box (l, b, r, t))`` of the glyphs to order, in stream order — or ``(position, box,
    orientation)``, the box then in the glyph's own reading frame (:func:`reading_box`: its baseline left
    to right) and lines formed among glyphs of one orientation only; horizontally the advance from the
    glyph's origin, not a sheared glyph's slanted box. Unchanged when no line is out of order."""
    # one glyph pdfium lists as several characters (a ligature "ff": the same box, one after the other)
    # is one unit: it keeps its characters together
    units: list[tuple[list[int], tuple[float, float, float, float], int]] = []
    for g in glyphs:
        p, box = g[0], g[1]
        turn = g[2] if len(g) > 2 else 0
        if units and units[-1][1] == box and units[-1][2] == turn and units[-1][0][-1] == p - 1:
            units[-1][0].append(p)
        else:
            units.append(([p], box, turn))
    boxes = [u[1] for u in units]
    # upright glyphs stacked in columns (vertical writing, 세로쓰기) are read down each column, the columns
    # right to left: in the reading frame of a line turned three quarter turns
    for n in _vertical_writing([n for n, u in enumerate(units) if u[2] == 0], boxes):
        boxes[n] = reading_box(boxes[n], 3)
        units[n] = (units[n][0], boxes[n], VERTICAL)
    text = ["".join(chars[p] for p in u[0]) for u in units]
    groups: list[list[int]] = []
    for turn in sorted({u[2] for u in units}):
        mine = [n for n, u in enumerate(units) if u[2] == turn]
        for line in _lines([boxes[n] for n in mine]):
            line = [mine[j] for j in line]
            for layer in _layers(line, boxes, text):
                groups.extend(_groups(layer, boxes))
    if not groups:
        return Reordered(chars, idx, gen, 0, 0)
    anchor: dict[int, list[int]] = {}        # position in chars -> group (glyph numbers, left to right)
    removed: set[int] = set()
    for grp in groups:
        positions = [p for g in grp for p in units[g][0]]
        anchor[min(positions)] = grp
        removed.update(positions)
    out_c: list[str] = []
    out_i: list[int] = []
    out_g: list[bool] = []

    def emit(c: str, k: int, g: bool) -> None:
        out_c.append(c)
        out_i.append(k)
        out_g.append(g)

    def sep(c: str = "\n") -> None:
        if out_c and not out_c[-1].isspace():
            emit(c, -1, True)

    after_group = False
    for p, c in enumerate(chars):
        if p in anchor:
            grp = anchor[p]
            sep()
            gaps = sorted(max(0.0, boxes[b][0] - boxes[a][2]) for a, b in zip(grp, grp[1:]))
            hs = sorted(boxes[g][3] - boxes[g][1] for g in grp)
            word = gaps[len(gaps) // 2] + SPACE_GAP * hs[len(hs) // 2]
            prev = None
            for g in grp:
                if prev is not None and boxes[g][0] - boxes[prev][2] > word:
                    emit(" ", -1, True)
                for q in units[g][0]:
                    emit(chars[q], idx[q], gen[q])
                prev = g
            after_group = True
            continue
        if p in removed:
            continue
        if after_group and not c.isspace():
            sep()
        after_group = False
        emit(c, idx[p], gen[p])
    # runs of generated separators left where glyphs were taken out: one separator (a line break if any)
    chars2: list[str] = []
    idx2: list[int] = []
    gen2: list[bool] = []
    for c, k, g in zip(out_c, out_i, out_g):
        if g and c.isspace() and chars2 and gen2[-1] and chars2[-1].isspace():
            if c == "\n" and chars2[-1] != "\n":
                chars2[-1], idx2[-1] = c, k
            continue
        chars2.append(c)
        idx2.append(k)
        gen2.append(g)
    while chars2 and gen2[0] and chars2[0].isspace():
        del chars2[0], idx2[0], gen2[0]
    return Reordered(chars2, idx2, gen2, len(groups), len(removed))


def upright(a: float, b: float) -> bool:
    """A glyph matrix whose baseline runs left to right, horizontally (shear and scaling allowed)."""
    return a > 0 and abs(b) <= 0.1 * a


def quarter_turns(a: float, b: float) -> int | None:
    """How many quarter turns (counter-clockwise, 0–3) a glyph matrix's baseline ``(a, b)`` is turned by,
    within the tolerance :func:`upright` allows (about 5.7°); None for a baseline at another angle."""
    for turn, (x, y) in enumerate(((a, b), (b, -a), (-a, -b), (-b, a))):
        if x > 0 and abs(y) <= 0.1 * x:
            return turn
    return None


def reading_box(box: tuple[float, float, float, float], turn: int) -> tuple[float, float, float, float]:
    """A page box ``(l, b, r, t)`` of a glyph turned ``turn`` quarter turns, in the glyph's reading frame
    (turned back: its baseline runs left to right, its top up), where lines and runs are found as for
    upright glyphs."""
    l, b, r, t = box
    return ((l, b, r, t), (b, -r, t, -l), (-r, -t, -l, -b), (-t, l, -b, r))[turn % 4]


#: tilted glyphs drawn backwards along their baseline by more than this share of their size are out of order
TILT_BACK = 0.3


def tilted_out_of_order(glyphs: list[tuple[int, float, tuple[float, float], float]]) -> bool:
    """Whether glyphs drawn at an angle that is not a quarter turn (``(position in the stream, baseline
    angle in degrees, centre (x, y), size)``) are drawn out of the order the page shows them in: on one
    line (same angle to the degree, centres less than half a size apart across the baseline), a glyph the
    stream draws after another lies behind it along the baseline. Such a page is not re-read here (its
    boxes are bounds of turned glyphs): the caller reads it by OCR or holds it."""
    import math

    lines: dict[int, list[tuple[float, float, int, float]]] = {}
    for p, angle, (x, y), size in glyphs:
        th = math.radians(angle)
        u = x * math.cos(th) + y * math.sin(th)
        v = -x * math.sin(th) + y * math.cos(th)
        lines.setdefault(round(angle) % 360, []).append((v, u, p, size))
    for pts in lines.values():
        pts.sort()
        band: list[tuple[float, float, int, float]] = []
        for pt in pts + [(math.inf, 0.0, 0, 0.0)]:
            if band and pt[0] - band[0][0] < 0.5 * max(band[0][3], pt[3]):
                band.append(pt)
                continue
            along = sorted(band, key=lambda q: q[2])
            if any(b[1] < a[1] - TILT_BACK * max(a[3], b[3]) for a, b in zip(along, along[1:])):
                return True
            band = [pt]
    return False


def is_rtl(ch: str) -> bool:
    return _rtl(ch)
