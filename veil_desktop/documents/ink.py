"""Ink accounting: which marks on a rendered page are *not* explained by the text a reader found — no Qt.

Default deny for pixels (issue 26): a reader explains ink by the characters it read (the text layer of a
PDF page, the symbols OCR recognised in a scan) and by the parts a separate rule judges (pictures). Ink
that nothing explains — glyph outlines drawn as paths, text painted through a tiling pattern or hidden
behind an ``/ActualText`` replacement, grey text Otsu binarisation drops, a margin note turned 90° — is
text a recipient reads and the reviewer never saw. Callers read that residue again (OCR) and, when it holds
text, make it reviewable; nothing here decides what the residue *is*.

What counts as ink: a pixel whose grey level differs from the page background (the median level) by at least
``INK_CONTRAST`` levels, so light-grey text on white and white text on a dark bar both count. Long straight
runs (rules, table grids, filled bars and cell shading, whose rows are long runs too) are taken out first:
they are drawing, not text (``rule_mask``).
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

#: grey levels from the background that make a pixel ink (205 grey on white differs by 50)
INK_CONTRAST = 28
#: a straight run of ink at least this long (pixels; or 1/25 of the shorter page side) is a rule, not text
MIN_RULE_PX = 60

Box = tuple[float, float, float, float]   # x0, y0, x1, y1 in the image's pixels


def background(a: np.ndarray) -> int:
    """The page's background grey level: the median of a coarse sample (robust to text and pictures)."""
    step = max(1, int((a.size / 250_000) ** 0.5))
    return int(np.median(a[::step, ::step]))


def ink_mask(a: np.ndarray, contrast: int = INK_CONTRAST) -> np.ndarray:
    """Pixels of the grey image ``a`` (uint8, H×W) that differ from the background by ``contrast`` levels."""
    bg = background(a)
    return np.abs(a.astype(np.int16) - bg) >= contrast


def _runs(mask: np.ndarray, length: int) -> np.ndarray:
    """Pixels on a horizontal run of ``mask`` at least ``length`` long (what an opening with a 1 × length
    line keeps), found from the runs' ends: the rows are laid end to end with a clear pixel between them,
    every run's start and end found in one pass, and the long runs filled in by a running sum."""
    h, w = mask.shape
    if w < length:
        return np.zeros_like(mask)
    p = np.zeros((h, w + 2), dtype=np.int8)
    p[:, 1:-1] = mask
    edge = np.diff(p.ravel())
    starts = np.flatnonzero(edge == 1)       # a run starts at flat index start + 1 and ends before end + 1
    ends = np.flatnonzero(edge == -1)
    keep = (ends - starts) >= length
    mark = np.zeros(p.size, dtype=np.int8)
    mark[starts[keep] + 1] = 1
    mark[ends[keep] + 1] = -1                # runs never touch (a clear pixel between), so each sum is 0 or 1
    return np.cumsum(mark, dtype=np.int8).view(bool).reshape(h, w + 2)[:, 1:-1]


def rule_mask(mask: np.ndarray, length: int | None = None, fast: bool = False) -> np.ndarray:
    """Pixels of ``mask`` on long horizontal or vertical runs, grown by one pixel (anti-aliased fringe).
    ``fast``: on a big page, found on a half-size copy (for deciding what is left, not for cleaning a page
    for recognition: that copy's rules come out up to a pixel wider)."""
    if length is None:
        length = max(MIN_RULE_PX, min(mask.shape) // 25)
    if fast and mask.size > 2_000_000:
        # a big page: find the rules on a half-size copy (a pixel set when any of its 2 x 2 is), twice as
        # fast per pass and four times less memory; scaled back, the rules come out a pixel wider at most
        h, w = mask.shape
        p = np.zeros((h + h % 2, w + w % 2), dtype=bool)
        p[:h, :w] = mask
        half = p[0::2, 0::2] | p[1::2, 0::2] | p[0::2, 1::2] | p[1::2, 1::2]
        small = rule_mask(half, max(2, length // 2))
        return np.repeat(np.repeat(small, 2, axis=0), 2, axis=1)[:h, :w] & dilate(mask)
    rule = _runs(mask, length) | _runs(mask.T, length).T
    if rule.any():
        grown = rule.copy()
        grown[1:, :] |= rule[:-1, :]
        grown[:-1, :] |= rule[1:, :]
        grown[:, 1:] |= rule[:, :-1]
        grown[:, :-1] |= rule[:, 1:]
        rule = grown
    return rule


def median3(a: np.ndarray) -> np.ndarray:
    """3 × 3 median of the grey image ``a`` (uint8, H×W), edges replicated: the same pixels as Pillow's
    ``ImageFilter.MedianFilter(3)``, several times faster. Each pixel's three columns are sorted once
    (shared by the neighbours), then the median is the median of the largest low, the median middle and the
    smallest high of its three columns."""
    p = np.pad(a, 1, mode="edge")
    top, mid, bot = p[:-2], p[1:-1], p[2:]
    lo1, hi1 = np.minimum(top, mid), np.maximum(top, mid)
    low, hi2 = np.minimum(lo1, bot), np.maximum(lo1, bot)
    middle, high = np.minimum(hi1, hi2), np.maximum(hi1, bot)

    def med3(x, y, z):
        return np.maximum(np.minimum(x, y), np.minimum(np.maximum(x, y), z))

    max_low = np.maximum(np.maximum(low[:, :-2], low[:, 1:-1]), low[:, 2:])
    min_high = np.minimum(np.minimum(high[:, :-2], high[:, 1:-1]), high[:, 2:])
    return med3(max_low, med3(middle[:, :-2], middle[:, 1:-1], middle[:, 2:]), min_high)


def clear_boxes(mask: np.ndarray, boxes: Iterable[Box], pad: float = 0.0) -> None:
    """Set ``mask`` False inside every box (padded by ``pad`` pixels), in place."""
    h, w = mask.shape
    for x0, y0, x1, y1 in boxes:
        a0 = max(0, int(np.floor(min(x0, x1) - pad)))
        a1 = min(w, int(np.ceil(max(x0, x1) + pad)) + 1)
        b0 = max(0, int(np.floor(min(y0, y1) - pad)))
        b1 = min(h, int(np.ceil(max(y0, y1) + pad)) + 1)
        if a0 < a1 and b0 < b1:
            mask[b0:b1, a0:a1] = False


def despeckle(mask: np.ndarray) -> np.ndarray:
    """``mask`` with only pixels of some all-set 2 × 2 square kept (an opening): scanner noise, JPEG
    ringing and the one-pixel fringe of a rule go; a glyph stroke of a scan (≥ 2 px at 200 dpi) stays."""
    sq = mask[:-1, :-1] & mask[1:, :-1] & mask[:-1, 1:] & mask[1:, 1:]
    out = np.zeros_like(mask)
    out[:-1, :-1] |= sq
    out[1:, :-1] |= sq
    out[:-1, 1:] |= sq
    out[1:, 1:] |= sq
    return out


def residue(a: np.ndarray, boxes: Iterable[Box], pad: float, *, speckle: bool = False,
            contrast: int = INK_CONTRAST, mask: np.ndarray | None = None,
            rules: np.ndarray | None = None) -> np.ndarray:
    """Ink of ``a`` not under ``boxes`` (padded) and not on rules: the marks nothing explained.
    ``mask`` (``ink_mask(a, contrast)``) and ``rules`` (``rule_mask(mask, fast=True)``): already computed
    by the caller, who needs them too (neither is changed)."""
    ink = ink_mask(a, contrast) if mask is None else mask.copy()
    if not ink.any():
        return ink
    ink &= ~(rule_mask(ink, fast=True) if rules is None else rules)
    clear_boxes(ink, boxes, pad)
    return despeckle(ink) if speckle else ink


def bbox(mask: np.ndarray, margin: int = 0) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) bounding the set pixels of ``mask`` (exclusive end), grown by ``margin``."""
    rows = np.flatnonzero(mask.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(mask.any(axis=0))
    h, w = mask.shape
    return (max(0, int(cols[0]) - margin), max(0, int(rows[0]) - margin),
            min(w, int(cols[-1]) + 1 + margin), min(h, int(rows[-1]) + 1 + margin))


def pool(m: np.ndarray, b: int) -> np.ndarray:
    """``m`` (each side a multiple of ``b``) shrunk ``b`` times: a cell is set when any of its ``b`` × ``b``
    pixels is (ORs of strided views: several times faster than ``any`` over a 4-d reshape)."""
    rows = m[0::b].copy()
    for i in range(1, b):
        rows |= m[i::b]
    out = rows[:, 0::b].copy()
    for i in range(1, b):
        out |= rows[:, i::b]
    return out


def dilate(m: np.ndarray) -> np.ndarray:
    """``m`` grown by one pixel in all eight directions (a 3 × 3 square)."""
    out = m.copy()
    out[1:, :] |= m[:-1, :]
    out[:-1, :] |= m[1:, :]
    out[:, 1:] |= out[:, :-1].copy()
    out[:, :-1] |= out[:, 1:].copy()
    return out


def grow(seed: np.ndarray, ink: np.ndarray, reach: float) -> np.ndarray:
    """The ink connected to ``seed`` across gaps of up to about ``reach`` pixels (glyphs of one line, the
    lines of one block): a morphological reconstruction done on ``reach``-sized blocks, so a block of text
    whose first reading explained only part of it (garbage read off a turned note) is read again whole."""
    b = max(2, int(reach))
    h, w = ink.shape
    hh, ww = -(-h // b), -(-w // b)

    def blocks(m: np.ndarray) -> np.ndarray:
        p = np.zeros((hh * b, ww * b), dtype=bool)
        p[:h, :w] = m
        return pool(p, b)

    allowed = dilate(blocks(ink))
    region = blocks(seed) & allowed
    for _ in range(hh + ww):
        nxt = dilate(region) & allowed
        if np.array_equal(nxt, region):
            break
        region = nxt
    full = np.repeat(np.repeat(region, b, axis=0), b, axis=1)[:h, :w]
    return ink & full


def regions(seed: np.ndarray, ink: np.ndarray, reach: float, limit: int = 16
            ) -> list[tuple[tuple[int, int, int, int], np.ndarray]]:
    """The blocks of ink ``seed`` touches (``grow``), largest first (at most ``limit``), each as its bounding
    box ``(x0, y0, x1, y1)`` and its mask cropped to that box: a light-grey line and a turned margin note are
    read apart, each in its own orientation."""
    grown = grow(seed, ink, reach)
    b = max(2, int(reach))
    h, w = ink.shape
    hh, ww = -(-h // b), -(-w // b)
    p = np.zeros((hh * b, ww * b), dtype=bool)
    p[:h, :w] = grown
    cells = dilate(pool(p, b))
    label = _components(cells)
    ids = np.unique(label[cells])              # in raster order of their first cell
    out = []
    for k in ids:
        ys, xs = np.nonzero(label == k)
        by0, by1, bx0, bx1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
        y0, y1, x0, x1 = by0 * b, min(h, by1 * b), bx0 * b, min(w, bx1 * b)
        cell = np.repeat(np.repeat(label[by0:by1, bx0:bx1] == k, b, axis=0), b, axis=1)[:y1 - y0, :x1 - x0]
        m = grown[y0:y1, x0:x1] & cell
        if m.any():
            out.append(((x0, y0, x1, y1), m))
    out.sort(key=lambda r: -int(r[1].sum()))
    return out[:limit]


def _components(cells: np.ndarray) -> np.ndarray:
    """4-connected components of ``cells``: each set cell labelled with the raster index of its component's
    first cell (unset cells: ``cells.size``). Labels spread to neighbours (the smaller wins) and jump along
    the labels they point to, until nothing changes."""
    big = cells.size
    label = np.where(cells, np.arange(big).reshape(cells.shape), big)
    while True:
        nxt = label.copy()
        np.minimum(nxt[1:, :], label[:-1, :], out=nxt[1:, :])
        np.minimum(nxt[:-1, :], label[1:, :], out=nxt[:-1, :])
        np.minimum(nxt[:, 1:], label[:, :-1], out=nxt[:, 1:])
        np.minimum(nxt[:, :-1], label[:, 1:], out=nxt[:, :-1])
        nxt[~cells] = big
        flat = np.append(nxt.ravel(), big)
        for _ in range(4):                      # a label points at a cell of the same component: follow it
            flat[:-1] = flat[flat[:-1]]
        nxt = flat[:-1].reshape(cells.shape)
        if np.array_equal(nxt, label):
            return label
        label = nxt
