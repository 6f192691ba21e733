"""A small, bounded rasteriser for Windows metafiles (EMF, MS-EMF; WMF, MS-WMF, with or without the
placeable header), so that a metafile picture can be read by OCR like a raster picture. Pure Python and
numpy (Pillow decodes embedded bitmaps). No Qt.

What is drawn (white paper, the picture's frame scaled to about :data:`TARGET_LONG_SIDE` pixels):

- EMF: POLYGON/POLYLINE/POLYBEZIER(+TO)/POLYLINETO/POLYPOLYGON/POLYPOLYLINE (16- and 32-bit points),
  MOVETOEX/LINETO, SETPIXELV, RECTANGLE/ROUNDRECT/ELLIPSE, ARC/CHORD/PIE/ARCTO/ANGLEARC (SETARCDIRECTION), paths (BEGINPATH … ENDPATH, CLOSEFIGURE,
  FILLPATH/STROKEPATH/STROKEANDFILLPATH, ABORTPATH, FLATTENPATH), window/viewport origin and extents
  (SET…, SCALE…), SETMAPMODE (all eight modes), SETWORLDTRANSFORM/MODIFYWORLDTRANSFORM, SAVEDC/RESTOREDC,
  solid brushes and pens (CREATEBRUSHINDIRECT, CREATEPEN, EXTCREATEPEN with a solid brush, stock objects,
  null brush/pen), SETPOLYFILLMODE (alternate/winding), rectangular and path clipping
  (INTERSECTCLIPRECT, EXCLUDECLIPRECT, SELECTCLIPPATH, EXTSELECTCLIPRGN), embedded bitmaps
  (STRETCHDIBITS, BITBLT, STRETCHBLT: SRCCOPY/SRCAND/SRCPAINT; BITBLT without a source: PATCOPY,
  BLACKNESS, WHITENESS), under any affine world transform.
- WMF: the same shapes (META_POLYGON/POLYLINE/POLYPOLYGON, RECTANGLE, ROUNDRECT, ELLIPSE, ARC/CHORD/PIE,
  MOVETO/LINETO,
  SETPIXEL, PATBLT), window origin/extents (SET/OFFSET/SCALE), CREATEBRUSHINDIRECT/CREATEPENINDIRECT/
  SELECTOBJECT/DELETEOBJECT with the WMF object table (every CREATE record takes the lowest free slot),
  SAVEDC/RESTOREDC, clip rectangles, META_DIBSTRETCHBLT/META_STRETCHDIB/META_DIBBITBLT bitmaps.

Default deny: every record that puts ink on the page and is not drawn here — text records, flood fills, regions painted, gradient fills, pattern or hatched brushes actually used, raster
operations other than those above, EMF+ records, escapes that embed another metafile, a right-to-left
layout — is listed in :attr:`Rendering.unrendered`; a caller must not take the rendering as what the
picture shows then. State records that change nothing a viewer shows on a white page (text colour, fonts,
palettes, stretch mode, ICM) are skipped.

Caps: records, points (after curves are flattened), scanline crossings per fill, objects, saved states,
bitmap pixels (``limits.MAX_PICTURE_PIXELS``) and output pixels. A record that does not fit its size, a
count past the record's end or a cap reached raises :class:`MetafileError` (the picture is held).
"""
from __future__ import annotations

import copy
import io
import math
import struct
import zlib
from dataclasses import dataclass, field

import numpy as np

from . import limits

#: the frame's long side is scaled to this many pixels (Tesseract read the 72-unit glyphs of red team 7 1a
#: surely at 1600, 72 px, and as noise at 2000, 90 px) ...
TARGET_LONG_SIDE = 1600
#: ... unless its short side would be under this many (then up to MAX_LONG_SIDE on the long side)
MIN_SHORT_SIDE = 240
MAX_LONG_SIDE = 8000
#: output pixels of one rendered frame (and the supersampled canvas stays under MAX_PICTURE_PIXELS)
MAX_OUTPUT_PIXELS = 12_000_000
SUPERSAMPLE = 2
MAX_RECORDS = 500_000
MAX_POINTS = 4_000_000          # points after flattening, all records together
MAX_CROSSINGS = 40_000_000      # scanline crossings of all fills together
BAND_CROSSINGS = 1_000_000      # scanline crossings filled at once (rows are filled in bands)
MAX_OBJECTS = 65_536
MAX_SAVED = 1_024
BEZIER_STEPS = 16
ELLIPSE_STEPS = 72
#: the content is also rendered on its own when it reaches past the frame or fills less than this share of
#: it on a side (a crop can show a small corner of a large frame enlarged)
CONTENT_SHARE = 0.25


class MetafileError(Exception):
    """A metafile that cannot be rendered safely (damaged, hostile, over a cap)."""


@dataclass
class Rendering:
    """``frames``: RGB images (the picture's frame; then, where the drawing reaches past it or fills a
    small part of it, the drawing's own extent); ``frame_boxes``: each frame's box in the metafile's
    device units; ``unrendered``: record name -> count of ink records not drawn (then no frame is rendered); ``text``: a text record
    was met; ``inked``: something was drawn."""

    frames: list = field(default_factory=list, repr=False)
    frame_boxes: list = field(default_factory=list)
    unrendered: dict = field(default_factory=dict)
    text: bool = False
    inked: bool = False


# ---------------------------------------------------------------------------------------- geometry
def _bezier(p0, rest: np.ndarray) -> np.ndarray:
    """Cubic Bézier segments from ``p0`` through ``rest`` (3k points: c1, c2, end …), flattened."""
    k = len(rest) // 3
    if k == 0:
        return np.asarray([p0], dtype=np.float64)
    ctrl = rest[:3 * k].reshape(k, 3, 2)
    starts = np.vstack([np.asarray(p0, dtype=np.float64)[None], ctrl[:-1, 2]])
    t = np.linspace(0, 1, BEZIER_STEPS + 1)[1:][:, None, None]
    m = 1 - t
    pts = (m ** 3 * starts[None] + 3 * m * m * t * ctrl[None, :, 0] + 3 * m * t * t * ctrl[None, :, 1]
           + t ** 3 * ctrl[None, :, 2])                                 # (steps, k, 2)
    pts = pts.transpose(1, 0, 2).reshape(-1, 2)
    return np.vstack([np.asarray(p0, dtype=np.float64)[None], pts])


def _ellipse(x0, y0, x1, y1) -> np.ndarray:
    cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, abs(x1 - x0) / 2, abs(y1 - y0) / 2
    a = np.linspace(0, 2 * math.pi, ELLIPSE_STEPS, endpoint=False)
    return np.stack([cx + rx * np.cos(a), cy + ry * np.sin(a)], axis=1)


def _roundrect(x0, y0, x1, y1, w, h) -> np.ndarray:
    x0, x1 = min(x0, x1), max(x0, x1)
    y0, y1 = min(y0, y1), max(y0, y1)
    rx, ry = min(abs(w) / 2, (x1 - x0) / 2), min(abs(h) / 2, (y1 - y0) / 2)
    if rx <= 0 or ry <= 0:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)
    q = ELLIPSE_STEPS // 4
    out = []
    for cx, cy, a0 in ((x1 - rx, y0 + ry, -90), (x1 - rx, y1 - ry, 0), (x0 + rx, y1 - ry, 90), (x0 + rx, y0 + ry, 180)):
        a = np.radians(np.linspace(a0, a0 + 90, q + 1))
        out.append(np.stack([cx + rx * np.cos(a), cy + ry * np.sin(a)], axis=1))
    return np.vstack(out)


def _rect(x0, y0, x1, y1) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


class _Budget:
    def __init__(self) -> None:
        self.points = 0
        self.crossings = 0

    def points_add(self, n: int) -> None:
        self.points += int(n)
        if self.points > MAX_POINTS:
            raise MetafileError(f"more than {MAX_POINTS:,} points")


# ------------------------------------------------------------------------------------ rasterising
def _edges(polys: list, closed: bool = True):
    """``(x0, y0, x1, y1)`` arrays of every edge of ``polys``: each item an ``(n, 2)`` polygon or an
    ``(m, k, 2)`` stack of ``m`` polygons of ``k`` points."""
    xs0, ys0, xs1, ys1 = [], [], [], []
    for p in polys:
        p = np.asarray(p, dtype=np.float64)
        if p.ndim == 2:
            if len(p) < 2:
                continue
            a, b = (p, np.roll(p, -1, axis=0)) if closed else (p[:-1], p[1:])
        elif p.ndim == 3 and p.shape[0] and p.shape[1] >= 2:
            a, b = p.reshape(-1, 2), np.roll(p, -1, axis=1).reshape(-1, 2)
        else:
            continue
        xs0.append(a[:, 0]); ys0.append(a[:, 1]); xs1.append(b[:, 0]); ys1.append(b[:, 1])   # noqa: E702
    if not xs0:
        return None
    return tuple(np.concatenate(v) for v in (xs0, ys0, xs1, ys1))


def fill_mask(polys: list, winding: bool, w: int, h: int, budget: _Budget | None = None):
    """``(x0, y0, mask)``: the pixels of a ``w``×``h`` canvas whose centres lie inside ``polys`` (each
    closed implicitly) by the non-zero winding rule (``winding``) or the even-odd rule, as a boolean
    array over the polygons' bounding box clipped to the canvas (``x0``, ``y0`` its corner); None when
    nothing is covered. Rows are filled in bands of at most :data:`BAND_CROSSINGS` scanline crossings
    (memory stays bounded whatever the polygons)."""
    e = _edges(polys, closed=True)
    if e is None:
        return None
    X0, Y0, X1, Y1 = e
    keep = (Y0 != Y1) & np.isfinite(X0) & np.isfinite(X1) & np.isfinite(Y0) & np.isfinite(Y1)
    X0, Y0, X1, Y1 = X0[keep], Y0[keep], X1[keep], Y1[keep]
    if not len(X0):
        return None
    d = np.where(Y1 > Y0, 1, -1).astype(np.int8)
    ya, yb = np.minimum(Y0, Y1), np.maximum(Y0, Y1)
    r0 = np.clip(np.ceil(ya - 0.5), 0, h).astype(np.int64)
    r1 = np.clip(np.ceil(yb - 0.5), 0, h).astype(np.int64)     # rows r0 .. r1-1
    n = r1 - r0
    live = n > 0
    if not live.any():
        return None
    X0, Y0, X1, Y1, d, r0, r1, n = X0[live], Y0[live], X1[live], Y1[live], d[live], r0[live], r1[live], n[live]
    total = int(n.sum())
    if budget is not None:
        budget.crossings += total
        if budget.crossings > MAX_CROSSINGS:
            raise MetafileError(f"more than {MAX_CROSSINGS:,} scanline crossings")
    lo_row, hi_row = int(r0.min()), int(r1.max())
    xmin = max(0, int(np.floor(min(X0.min(), X1.min()))))
    xmax = min(w, int(np.ceil(max(X0.max(), X1.max()))) + 1)
    if xmax <= xmin:
        return None
    out = np.zeros((hi_row - lo_row, xmax - xmin), dtype=bool)
    bands = [(lo_row, hi_row)]
    any_ink = False
    while bands:
        b0, b1 = bands.pop()
        s0, s1 = np.maximum(r0, b0), np.minimum(r1, b1)
        cnt = np.maximum(s1 - s0, 0)
        tot = int(cnt.sum())
        if tot == 0:
            continue
        if tot > BAND_CROSSINGS and b1 - b0 > 1:
            mid = (b0 + b1) // 2
            bands += [(b0, mid), (mid, b1)]
            continue
        sel = np.flatnonzero(cnt)
        cnt = cnt[sel]
        idx = np.repeat(sel, cnt)
        first = np.cumsum(cnt) - cnt
        rows = s0[idx] + (np.arange(tot) - np.repeat(first, cnt))
        yc = rows + 0.5
        xs = X0[idx] + (yc - Y0[idx]) * (X1[idx] - X0[idx]) / (Y1[idx] - Y0[idx])
        order = np.lexsort((xs, rows))
        rows, xs, dirs = rows[order], xs[order], d[idx][order]
        del idx, order, yc
        if winding:
            inside = np.cumsum(dirs, dtype=np.int64) != 0
        else:
            starts = np.r_[0, np.flatnonzero(np.diff(rows)) + 1]
            rank = np.arange(len(rows)) - np.repeat(starts, np.diff(np.r_[starts, len(rows)]))
            inside = rank % 2 == 0
        same = np.r_[rows[1:] == rows[:-1], False]
        k = np.flatnonzero(inside & same)
        if not len(k):
            continue
        c0 = np.clip(np.ceil(xs[k] - 0.5), xmin, xmax).astype(np.int64) - xmin
        c1 = np.clip(np.ceil(xs[k + 1] - 0.5), xmin, xmax).astype(np.int64) - xmin
        ok = c1 > c0
        if not ok.any():
            continue
        rr, c0, c1 = rows[k][ok] - b0, c0[ok], c1[ok]
        diff = np.zeros((b1 - b0, xmax - xmin + 1), dtype=np.int32)
        np.add.at(diff, (rr, c0), 1)
        np.add.at(diff, (rr, c1), -1)
        out[b0 - lo_row:b1 - lo_row] |= np.cumsum(diff, axis=1)[:, :-1] > 0
        any_ink = True
    if not any_ink:
        return None
    return xmin, lo_row, out


def stroke_polys(lines: list[np.ndarray], width: float, closed: list[bool]) -> list[np.ndarray]:
    """Polygons covering ``lines`` drawn with a pen ``width`` pixels wide (a quadrilateral per segment and
    a square at every vertex, all wound alike, so that the non-zero rule gives their union), as stacks of
    4-point polygons."""
    hw = max(0.5, width / 2)
    out = []
    for p, c in zip(lines, closed):
        if len(p) == 0:
            continue
        if c and len(p) > 2:
            p = np.vstack([p, p[:1]])
        a, b = p[:-1], p[1:]
        dv = b - a
        ln = np.hypot(dv[:, 0], dv[:, 1])
        ok = ln > 1e-9
        a, b, dv, ln = a[ok], b[ok], dv[ok], ln[ok]
        if len(a):
            nx, ny = -dv[:, 1] / ln * hw, dv[:, 0] / ln * hw
            q = np.stack([np.stack([a[:, 0] + nx, a[:, 1] + ny], 1), np.stack([b[:, 0] + nx, b[:, 1] + ny], 1),
                          np.stack([b[:, 0] - nx, b[:, 1] - ny], 1), np.stack([a[:, 0] - nx, a[:, 1] - ny], 1)], 1)
            # every quad wound as (0, h) (1, h) (1, -h) (0, -h) for a segment along +x
            out.append(q)
        v = p
        sq = np.stack([np.stack([v[:, 0] - hw, v[:, 1] + hw], 1), np.stack([v[:, 0] + hw, v[:, 1] + hw], 1),
                       np.stack([v[:, 0] + hw, v[:, 1] - hw], 1), np.stack([v[:, 0] - hw, v[:, 1] - hw], 1)], 1)
        out.append(sq)
    return out


# ---------------------------------------------------------------------------------------- drawing ops
@dataclass
class _Op:
    kind: str                       # fill, stroke, bitmap, clip, save, restore
    polys: list = field(default_factory=list)
    closed: list = field(default_factory=list)
    winding: bool = False
    colour: tuple = (0, 0, 0)
    width: float = 1.0              # pen width in device units (stroke); 0: one pixel
    image: object = None            # bitmap: PIL RGB image
    corners: object = None          # bitmap: device positions of its top-left, top-right, bottom-left
    rop: str = "copy"               # bitmap: copy / and / or
    mode: int = 5                   # clip: RGN_AND 1, OR 2, XOR 3, DIFF 4, COPY 5; 0: reset
    n: int = 0                      # restore: how many


def _bbox(ops: list[_Op]):
    lo = np.array([np.inf, np.inf])
    hi = -lo
    for op in ops:
        if op.kind in ("fill", "stroke"):
            pad = op.width / 2 if op.kind == "stroke" else 0.0
            for p in op.polys:
                if len(p):
                    lo = np.minimum(lo, p.min(0) - pad)
                    hi = np.maximum(hi, p.max(0) + pad)
        elif op.kind == "bitmap":
            c = np.asarray(op.corners)
            c = np.vstack([c, c[1] + c[2] - c[0]])
            lo = np.minimum(lo, c.min(0))
            hi = np.maximum(hi, c.max(0))
    if not np.all(np.isfinite(lo)) or not np.all(np.isfinite(hi)):
        return None
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


def _scale_for(bw: float, bh: float) -> float:
    long_, short = max(bw, bh), min(bw, bh)
    s = TARGET_LONG_SIDE / long_
    if short * s < MIN_SHORT_SIDE:
        s = min(MIN_SHORT_SIDE / max(short, 1e-9), MAX_LONG_SIDE / long_)
    if bw * s * bh * s > MAX_OUTPUT_PIXELS:
        s = math.sqrt(MAX_OUTPUT_PIXELS / (bw * bh))
    return s


def _raster(ops: list[_Op], box, budget: _Budget):
    """The ops drawn over ``box`` (device units) on white paper: an RGB PIL image."""
    from PIL import Image

    x0, y0, x1, y1 = box
    bw, bh = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
    s = _scale_for(bw, bh)
    w, h = max(1, int(math.ceil(bw * s))), max(1, int(math.ceil(bh * s)))
    ss = SUPERSAMPLE if w * h * SUPERSAMPLE ** 2 <= limits.MAX_PICTURE_PIXELS else 1
    k = s * ss
    W, H = w * ss, h * ss
    if W * H > limits.MAX_PICTURE_PIXELS:
        raise MetafileError("the rendering would be too large")
    canvas = np.full((H, W, 3), 255, dtype=np.uint8)
    clip = None                      # None: the whole canvas
    stack: list = []

    def tr(p):
        return np.stack([(p[:, 0] - x0) * k, (p[:, 1] - y0) * k], axis=1)

    def paint(got, colour):
        if got is None:
            return
        cx, cy, m = got
        if clip is not None:
            m = m & clip[cy:cy + m.shape[0], cx:cx + m.shape[1]]
        canvas[cy:cy + m.shape[0], cx:cx + m.shape[1]][m] = colour

    def full_mask(got):
        out = np.zeros((H, W), dtype=bool)
        if got is not None:
            cx, cy, m = got
            out[cy:cy + m.shape[0], cx:cx + m.shape[1]] = m
        return out

    for op in ops:
        if op.kind == "fill":
            paint(fill_mask([tr(p) for p in op.polys], op.winding, W, H, budget), op.colour)
        elif op.kind == "stroke":
            width = max(float(ss), op.width * k)
            width = min(width, 4.0 * (W + H))
            polys = stroke_polys([tr(p) for p in op.polys], width, op.closed)
            budget.points_add(sum(4 * len(q) for q in polys))
            paint(fill_mask(polys, True, W, H, budget), op.colour)
        elif op.kind == "bitmap":
            got = _place(op, tr, W, H)
            if got is None:
                continue
            cx, cy, img, m = got
            if clip is not None:
                m = m & clip[cy:cy + m.shape[0], cx:cx + m.shape[1]]
            region = canvas[cy:cy + m.shape[0], cx:cx + m.shape[1]]
            if op.rop == "copy":
                region[m] = img[m]
            elif op.rop == "and":
                region[m] = np.minimum(region, img)[m]
            else:
                region[m] = np.maximum(region, img)[m]
        elif op.kind == "clip":
            if op.mode == 0:
                clip = None
                continue
            m = full_mask(fill_mask([tr(p) for p in op.polys], op.winding, W, H, budget))
            cur = clip if clip is not None else np.ones((H, W), dtype=bool)
            clip = {1: cur & m, 2: cur | m, 3: cur ^ m, 4: cur & ~m, 5: m}.get(op.mode, cur & m)
        elif op.kind == "save":
            stack.append(clip)
        elif op.kind == "restore":
            for _ in range(op.n):
                if stack:
                    clip = stack.pop()
    img = Image.fromarray(canvas, "RGB")
    if ss != 1:
        img = img.reduce(ss)
    return img


def _place(op: _Op, tr, W: int, H: int):
    """``(x, y, pixels, mask)`` of a bitmap op's parallelogram on the canvas (its bounding box clipped)."""
    from PIL import Image

    c = tr(np.asarray(op.corners, dtype=np.float64))
    p0, p1, p3 = c[0], c[1], c[2]
    quad = np.vstack([p0, p1, p1 + p3 - p0, p3])
    lo = np.floor(quad.min(0)).astype(np.int64)
    hi = np.ceil(quad.max(0)).astype(np.int64)
    bx0, by0 = max(0, int(lo[0])), max(0, int(lo[1]))
    bx1, by1 = min(W, int(hi[0])), min(H, int(hi[1]))
    if bx1 <= bx0 or by1 <= by0:
        return None
    sw, sh = op.image.size
    A = np.array([[(p1 - p0)[0] / sw, (p3 - p0)[0] / sh], [(p1 - p0)[1] / sw, (p3 - p0)[1] / sh]])
    if abs(np.linalg.det(A)) < 1e-12:
        return None
    Ai = np.linalg.inv(A)
    off = np.array([bx0 - p0[0], by0 - p0[1]])
    coeffs = (Ai[0, 0], Ai[0, 1], float(Ai[0] @ off), Ai[1, 0], Ai[1, 1], float(Ai[1] @ off))
    size = (bx1 - bx0, by1 - by0)
    img = op.image.transform(size, Image.AFFINE, coeffs, resample=Image.BILINEAR, fillcolor=(255, 255, 255))
    m = Image.new("L", op.image.size, 255).transform(size, Image.AFFINE, coeffs, resample=Image.NEAREST,
                                                     fillcolor=0)
    return bx0, by0, np.asarray(img), np.asarray(m) > 127


# ---------------------------------------------------------------------------------------- bitmaps
def decode_dib(bmi: bytes, bits: bytes):
    """A device-independent bitmap (BITMAPINFO + bits) as an RGB PIL image; MetafileError if it does not
    decode or is over the pixel cap."""
    from PIL import Image

    if len(bmi) < 12:
        raise MetafileError("a bitmap header is truncated")
    hsize = struct.unpack_from("<I", bmi, 0)[0]
    if hsize == 12:
        w, h = struct.unpack_from("<HH", bmi, 4)
        comp = 0
    elif hsize >= 40 and len(bmi) >= 40:
        w, h = struct.unpack_from("<ii", bmi, 4)
        comp = struct.unpack_from("<I", bmi, 16)[0]
    else:
        raise MetafileError("a bitmap header is not one of BITMAPCOREHEADER/BITMAPINFOHEADER")
    if w <= 0 or h == 0 or abs(w) * abs(h) > limits.MAX_PICTURE_PIXELS:
        raise MetafileError(f"a bitmap of {w}×{h} pixels")
    try:
        if comp in (4, 5):                                  # BI_JPEG, BI_PNG: the bits are that file
            im = Image.open(io.BytesIO(bits), formats=["JPEG", "PNG"])
        else:
            head = b"BM" + struct.pack("<IHHI", 14 + len(bmi) + len(bits), 0, 0, 14 + len(bmi))
            im = Image.open(io.BytesIO(head + bmi + bits), formats=["BMP", "DIB"])
        if im.width * im.height > limits.MAX_PICTURE_PIXELS:
            raise MetafileError("a bitmap over the pixel cap")
        im.load()
        if im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info:
            rgba = im.convert("RGBA")
            bg = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            bg.alpha_composite(rgba)
            im = bg
        return im.convert("RGB")
    except MetafileError:
        raise
    except Exception as e:  # noqa: BLE001 - a damaged or hostile bitmap: fail closed
        raise MetafileError(f"an embedded bitmap does not decode ({type(e).__name__})") from None


# ------------------------------------------------------------------------------------------ state
STOCK = {0: ("brush", (255, 255, 255)), 1: ("brush", (192, 192, 192)), 2: ("brush", (128, 128, 128)),
         3: ("brush", (64, 64, 64)), 4: ("brush", (0, 0, 0)), 5: ("brush", None), 6: ("pen", (255, 255, 255)),
         7: ("pen", (0, 0, 0)), 8: ("pen", None), 18: ("brush", (255, 255, 255)), 19: ("pen", (0, 0, 0))}


@dataclass
class _DC:
    world: tuple = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)     # eM11 eM12 eM21 eM22 eDx eDy
    map_mode: int = 1
    win_org: tuple = (0.0, 0.0)
    win_ext: tuple = (1.0, 1.0)
    vp_org: tuple = (0.0, 0.0)
    vp_ext: tuple = (1.0, 1.0)
    brush: tuple = ("solid", (255, 255, 255))       # ("solid", rgb) | ("null",) | ("other", why)
    pen: tuple = ("solid", (0, 0, 0), 0.0)          # ("solid", rgb, width logical) | ("null",) | ("other", why)
    winding: bool = False
    cur: tuple = (0.0, 0.0)                          # current position, logical units
    rop2: int = 13                                   # R2_COPYPEN
    clockwise: bool = False                          # arc direction (EMR_SETARCDIRECTION)


def _colour(ref: int):
    """A COLORREF as RGB, or None when it names a palette entry (not drawn here)."""
    if (ref >> 24) & 0xFF not in (0, 2):
        return None
    return (ref & 0xFF, (ref >> 8) & 0xFF, (ref >> 16) & 0xFF)


class _Player:
    """What EMF and WMF players share: the DC, the op list, the path and the unrendered records."""

    def __init__(self) -> None:
        self.dc = _DC()
        self.saved: list[_DC] = []
        self.ops: list[_Op] = []
        self.unrendered: dict[str, int] = {}
        self.text = False
        self.budget = _Budget()
        self.path: list | None = None            # figures (points device, closed) while a path is open
        self.figure: list | None = None          # the open figure: list of device points arrays
        self.px_per_mm = (1.0, 1.0)

    def miss(self, what: str) -> None:
        self.unrendered[what] = self.unrendered.get(what, 0) + 1

    # -- coordinates --------------------------------------------------------------------------------
    def to_device(self, pts) -> np.ndarray:
        p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        self.budget.points_add(len(p))
        m11, m12, m21, m22, dx, dy = self.dc.world
        x = p[:, 0] * m11 + p[:, 1] * m21 + dx
        y = p[:, 0] * m12 + p[:, 1] * m22 + dy
        sx, sy = self.page_scale()
        (wx, wy), (vx, vy) = self.dc.win_org, self.dc.vp_org
        out = np.stack([(x - wx) * sx + vx, (y - wy) * sy + vy], axis=1)
        if not np.all(np.isfinite(out)):
            raise MetafileError("coordinates that are not finite")
        return out

    def page_scale(self) -> tuple[float, float]:
        dc = self.dc
        mm = dc.map_mode
        if mm == 1:
            return 1.0, 1.0
        if mm in (7, 8):
            sx, sy = dc.vp_ext[0] / dc.win_ext[0], dc.vp_ext[1] / dc.win_ext[1]
            if mm == 7:
                a = min(abs(sx), abs(sy))
                sx, sy = math.copysign(a, sx), math.copysign(a, sy)
            return sx, sy
        mm_per_unit = {2: 0.1, 3: 0.01, 4: 0.254, 5: 0.0254, 6: 25.4 / 1440}.get(mm, 1.0)
        return mm_per_unit * self.px_per_mm[0], -mm_per_unit * self.px_per_mm[1]

    def pen_width(self) -> float:
        pen = self.dc.pen
        if pen[0] != "solid" or pen[2] <= 1:
            return 0.0
        m11, m12, m21, m22 = self.dc.world[:4]
        sx, sy = self.page_scale()
        det = abs((m11 * m22 - m12 * m21) * sx * sy)
        return float(pen[2] * math.sqrt(det))

    # -- drawing ------------------------------------------------------------------------------------
    def _inked(self, name: str) -> bool:
        """Whether drawing may go ahead under the current raster operation (else it is unrendered)."""
        if self.dc.rop2 != 13:
            self.miss(f"{name} (raster operation {self.dc.rop2})")
            return False
        return True

    def draw(self, name: str, polys: list[np.ndarray], fill: bool, stroke: bool, closed: bool = True) -> None:
        """Fill (brush) and/or stroke (pen) device-space ``polys`` — or add them to the open path."""
        if self.path is not None:
            for p in polys:
                self.path.append((p, closed))
            return
        if self._inked(name):
            self._paint(name, polys, [closed] * len(polys), fill, stroke)

    def _paint(self, name: str, polys: list[np.ndarray], closed: list[bool], fill: bool, stroke: bool) -> None:
        """Queue the fill (current brush) and/or stroke (current pen) of ``polys``; a brush or pen this
        renderer cannot draw is listed as not drawn."""
        if fill:
            b = self.dc.brush
            if b[0] == "solid":
                self.ops.append(_Op("fill", polys=polys, winding=self.dc.winding, colour=b[1]))
            elif b[0] == "other":
                self.miss(f"{name} ({b[1]})")
        if stroke:
            pen = self.dc.pen
            if pen[0] == "solid":
                self.ops.append(_Op("stroke", polys=polys, closed=closed, colour=pen[1], width=self.pen_width()))
            elif pen[0] == "other":
                self.miss(f"{name} ({pen[1]})")

    def figure_add(self, pts: np.ndarray, start_new: bool = False) -> None:
        if self.figure is None or start_new:
            self.figure_close(False)
            self.figure = [pts]
        else:
            self.figure.append(pts)

    def figure_close(self, closed: bool) -> None:
        if self.figure:
            pts = np.vstack(self.figure)
            if len(pts) >= 2 and self.path is not None:
                self.path.append((pts, closed))
        self.figure = None

    def line_to(self, name: str, logical_pts) -> None:
        """Lines from the current position through ``logical_pts`` (which becomes the last of them)."""
        pts = np.asarray(logical_pts, dtype=np.float64).reshape(-1, 2)
        if not len(pts):
            return
        dev = self.to_device(np.vstack([np.asarray(self.dc.cur)[None], pts]))
        self.dc.cur = (float(pts[-1, 0]), float(pts[-1, 1]))
        if self.path is not None:
            if self.figure is None:
                self.figure = [dev]
            else:
                self.figure.append(dev[1:])
            return
        self.draw(name, [dev], fill=False, stroke=True, closed=False)

    def move_to(self, x: float, y: float) -> None:
        self.dc.cur = (float(x), float(y))
        if self.path is not None:
            self.figure_close(False)

    def bezier_to(self, name: str, logical_pts, from_current: bool) -> None:
        pts = np.asarray(logical_pts, dtype=np.float64).reshape(-1, 2)
        if from_current:
            start, rest = np.asarray(self.dc.cur, dtype=np.float64), pts
        else:
            if not len(pts):
                return
            start, rest = pts[0], pts[1:]
        k = len(rest) // 3
        self.budget.points_add(k * BEZIER_STEPS)
        dev = self.to_device(_bezier(start, rest[:3 * k]))
        if from_current:
            if k:
                self.dc.cur = (float(rest[3 * k - 1, 0]), float(rest[3 * k - 1, 1]))
            if self.path is not None:
                if self.figure is None:
                    self.figure = [dev]
                else:
                    self.figure.append(dev[1:])
                return
        elif self.path is not None:
            self.figure_close(False)
            self.path.append((dev, False))
            return
        self.draw(name, [dev], fill=False, stroke=True, closed=False)

    def shape(self, name: str, logical_pts) -> None:
        """A closed shape (rectangle, ellipse, round rectangle) filled and outlined, in logical points."""
        dev = self.to_device(logical_pts)
        if self.path is not None:
            self.figure_close(False)
            self.path.append((dev, True))
            return
        self.draw(name, [dev], fill=True, stroke=True, closed=True)

    def pixel(self, x: float, y: float, ref: int) -> None:
        col = _colour(ref)
        if col is None:
            self.miss("SETPIXEL (palette colour)")
            return
        d = self.to_device([[x, y]])[0]
        self.ops.append(_Op("fill", polys=[_rect(d[0] - 0.5, d[1] - 0.5, d[0] + 0.5, d[1] + 0.5)], colour=col))

    def arc_points(self, box, start, end) -> np.ndarray:
        """Logical points of the arc of the ellipse in ``box`` from its radial through ``start`` to the one
        through ``end``, counter-clockwise as shown (y down) or clockwise (EMR_SETARCDIRECTION); the whole
        ellipse when the two radials coincide."""
        x0, y0, x1, y1 = (float(v) for v in box)
        cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, abs(x1 - x0) / 2, abs(y1 - y0) / 2
        if rx <= 0 or ry <= 0:
            return np.array([[x0, y0], [x1, y1]], dtype=np.float64)
        ts = math.atan2(-(start[1] - cy) / ry, (start[0] - cx) / rx)
        te = math.atan2(-(end[1] - cy) / ry, (end[0] - cx) / rx)
        if self.dc.clockwise:
            sweep = te - ts if te < ts else te - ts - 2 * math.pi
        else:
            sweep = te - ts if te > ts else te - ts + 2 * math.pi
        return self._arc(cx, cy, rx, ry, ts, sweep)

    def _arc(self, cx, cy, rx, ry, t0, sweep) -> np.ndarray:
        n = max(2, int(math.ceil(abs(sweep) / (2 * math.pi) * ELLIPSE_STEPS))) + 1
        self.budget.points_add(n)
        t = t0 + np.linspace(0.0, sweep, n)
        return np.stack([cx + rx * np.cos(t), cy - ry * np.sin(t)], axis=1)

    def arc(self, name: str, box, start, end) -> None:
        """ARC (open, pen), CHORD (closed by its chord) and PIE (closed through the centre): filled and
        outlined as GDI draws them; ARCTO: a line from the current position to the arc's start, the arc,
        and the current position moved to its end."""
        pts = self.arc_points(box, start, end)
        if name.endswith("ARCTO"):
            self.line_to(name, pts)
        elif name.endswith("ARC"):
            self.draw(name, [self.to_device(pts)], fill=False, stroke=True, closed=False)
        else:
            if name.endswith("PIE"):
                pts = np.vstack([pts, [[(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]]])
            self.draw(name, [self.to_device(pts)], fill=True, stroke=True, closed=True)

    # -- paths --------------------------------------------------------------------------------------
    def begin_path(self) -> None:
        self.path, self.figure = [], None

    def end_path(self) -> None:
        if self.path is not None:
            self.figure_close(False)
            self.closed_path = self.path
        self.path = None

    closed_path: list | None = None

    def use_path(self, name: str, fill: bool, stroke: bool) -> None:
        figs = self.closed_path or []
        self.closed_path = None
        if not figs:
            return
        if self._inked(name):
            self._paint(name, [p for p, _ in figs], [c for _, c in figs], fill, stroke)

    def clip_path(self, mode: int) -> None:
        figs = self.closed_path or []
        self.closed_path = None
        self.ops.append(_Op("clip", polys=[p for p, _ in figs], winding=self.dc.winding, mode=mode or 1))

    def clip_rect(self, x0, y0, x1, y1, exclude: bool) -> None:
        dev = self.to_device(_rect(x0, y0, x1, y1))
        self.ops.append(_Op("clip", polys=[dev], mode=4 if exclude else 1))

    def save(self) -> None:
        if len(self.saved) >= MAX_SAVED:
            raise MetafileError(f"more than {MAX_SAVED} saved states")
        self.saved.append(copy.copy(self.dc))
        self.ops.append(_Op("save"))

    def restore(self, rel: int) -> None:
        n = -rel if rel < 0 else len(self.saved) - rel + 1 if rel > 0 else 0
        if n <= 0 or n > len(self.saved):
            return                                 # GDI fails the call: nothing changes
        for _ in range(n):
            self.dc = self.saved.pop()
        self.ops.append(_Op("restore", n=n))

    def bitmap(self, name: str, rop: int, image, corners_logical) -> None:
        mode = {0x00CC0020: "copy", 0x008800C6: "and", 0x00EE0086: "or"}.get(rop)
        if mode is None:
            self.miss(f"{name} (raster operation {rop:#010x})")
            return
        self.ops.append(_Op("bitmap", image=image, corners=self.to_device(corners_logical), rop=mode))

    def patblt(self, name: str, rop: int, x, y, w, h) -> None:
        if rop == 0x00000042:
            col = (0, 0, 0)
        elif rop == 0x00FF0062:
            col = (255, 255, 255)
        elif rop == 0x00F00021:
            b = self.dc.brush
            if b[0] == "null":
                return
            if b[0] != "solid":
                self.miss(f"{name} ({b[1]})")
                return
            col = b[1]
        elif rop == 0x00AA0029:                    # D: nothing changes
            return
        else:
            self.miss(f"{name} (raster operation {rop:#010x})")
            return
        self.ops.append(_Op("fill", polys=[self.to_device(_rect(x, y, x + w, y + h))], colour=col))

    # -- result -------------------------------------------------------------------------------------
    def render(self, frame) -> Rendering:
        out = Rendering(unrendered=dict(self.unrendered), text=self.text)
        ink = [op for op in self.ops if op.kind in ("fill", "stroke", "bitmap")]
        out.inked = bool(ink)
        if not ink or out.unrendered:
            return out                   # nothing drawn, or not all of it: not rendered (the caller holds)
        content = _bbox(self.ops)
        if content is None:
            raise MetafileError("the drawing has no finite extent")
        boxes = []
        if frame is not None and frame[2] > frame[0] and frame[3] > frame[1]:
            boxes.append(frame)
            fw, fh = frame[2] - frame[0], frame[3] - frame[1]
            cw, ch = content[2] - content[0], content[3] - content[1]
            tol_x, tol_y = 0.02 * fw, 0.02 * fh
            beyond = (content[0] < frame[0] - tol_x or content[1] < frame[1] - tol_y
                      or content[2] > frame[2] + tol_x or content[3] > frame[3] + tol_y)
            if beyond or cw < CONTENT_SHARE * fw or ch < CONTENT_SHARE * fh:
                boxes.append(content)
        else:
            boxes.append(content)
        for b in boxes:
            if b[2] - b[0] <= 0 or b[3] - b[1] <= 0:
                # a drawing with no width or height (one line): give it a little of the other side
                pad = max(b[2] - b[0], b[3] - b[1], 1.0) * 0.01
                b = (b[0] - pad, b[1] - pad, b[2] + pad, b[3] + pad)
            out.frames.append(_raster(self.ops, b, self.budget))
            out.frame_boxes.append(b)
        return out


# ------------------------------------------------------------------------------------------------ EMF
EMF_TEXT = {83: "EXTTEXTOUTA", 84: "EXTTEXTOUTW", 96: "POLYTEXTOUTA", 97: "POLYTEXTOUTW", 108: "SMALLTEXTOUT"}
#: EMF records that change nothing drawn on a white page here (state a viewer uses for text, palettes,
#: colour management, stretching) — skipped
EMF_SKIP = {13, 16, 18, 21, 22, 23, 24, 25, 28, 48, 49, 50, 51, 52, 58, 65, 82, 98, 99, 100, 101, 104,
            109, 111, 112, 113, 119, 120, 121, 122}
EMF_INK = {53: "EXTFLOODFILL", 56: "POLYDRAW",
           66: "WIDENPATH", 71: "FILLRGN", 72: "FRAMERGN", 73: "INVERTRGN", 74: "PAINTRGN", 78: "MASKBLT",
           79: "PLGBLT", 80: "SETDIBITSTODEVICE", 92: "POLYDRAW16", 93: "CREATEMONOBRUSH",
           94: "CREATEDIBPATTERNBRUSHPT", 102: "GLSRECORD", 103: "GLSBOUNDEDRECORD", 105: "DRAWESCAPE",
           106: "EXTESCAPE", 110: "NAMEDESCAPE", 114: "ALPHABLEND", 116: "TRANSPARENTBLT", 118: "GRADIENTFILL",
           26: "OFFSETCLIPRGN"}


def _records_emf(data: bytes):
    n = len(data)
    pos = 0
    count = 0
    while pos + 8 <= n:
        typ, size = struct.unpack_from("<II", data, pos)
        if size < 8 or pos + size > n:
            raise MetafileError(f"record at {pos} does not fit (size {size})")
        count += 1
        if count > MAX_RECORDS:
            raise MetafileError(f"more than {MAX_RECORDS:,} records")
        yield pos, typ, size
        if typ == 14:
            return
        pos += size
    raise MetafileError("no end-of-file record")


class _Emf(_Player):
    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = data
        self.objects: dict[int, tuple] = {}

    def u(self, fmt: str, pos: int, size: int, off: int):
        end = off + struct.calcsize(fmt)
        if end > size:
            raise MetafileError(f"record at {pos} is truncated")
        return struct.unpack_from(fmt, self.data, pos + off)

    def points(self, pos: int, size: int, off: int, count: int, small: bool) -> np.ndarray:
        item = 4 if small else 8
        if count < 0 or off + count * item > size:
            raise MetafileError(f"record at {pos}: {count} points do not fit in it")
        self.budget.points_add(count)
        a = np.frombuffer(self.data, dtype="<i2" if small else "<i4", count=2 * count, offset=pos + off)
        return a.reshape(-1, 2).astype(np.float64)

    def play(self) -> Rendering:
        data = self.data
        frame = None
        for pos, typ, size in _records_emf(data):
            if typ == 1:
                if pos != 0 or size < 88:
                    raise MetafileError("a header record that is not the first or is too short")
                bounds = self.u("<4i", pos, size, 8)
                fr = self.u("<4i", pos, size, 24)
                dev = self.u("<2i", pos, size, 72)
                mm = self.u("<2i", pos, size, 80)
                if dev[0] > 0 and dev[1] > 0 and mm[0] > 0 and mm[1] > 0:
                    self.px_per_mm = (dev[0] / mm[0], dev[1] / mm[1])
                    if fr[2] > fr[0] and fr[3] > fr[1]:
                        kx, ky = self.px_per_mm[0] / 100, self.px_per_mm[1] / 100
                        frame = (fr[0] * kx, fr[1] * ky, (fr[2] + 1) * kx, (fr[3] + 1) * ky)
                if frame is None and bounds[2] > bounds[0] and bounds[3] > bounds[1]:
                    frame = (float(bounds[0]), float(bounds[1]), bounds[2] + 1.0, bounds[3] + 1.0)
                continue
            if typ == 14:
                break
            self.record(pos, typ, size)
        return self.render(frame)

    def record(self, pos: int, typ: int, size: int) -> None:  # noqa: C901 - one dispatch over record types
        u = lambda fmt, off: self.u(fmt, pos, size, off)    # noqa: E731
        dc = self.dc
        if typ in EMF_TEXT:
            self.text = True
            self.miss(EMF_TEXT[typ])
        elif typ in (2, 3, 4, 5, 6, 85, 86, 87, 88, 89):
            small = typ >= 85
            base = typ - 83 if small else typ
            (count,) = u("<I", 24)
            pts = self.points(pos, size, 28, count, small)
            name = {2: "POLYBEZIER", 3: "POLYGON", 4: "POLYLINE", 5: "POLYBEZIERTO", 6: "POLYLINETO"}[base]
            if base == 2:
                self.bezier_to(name, pts, from_current=False)
            elif base == 5:
                self.bezier_to(name, pts, from_current=True)
            elif base == 6:
                self.line_to(name, pts)
            elif base == 3:
                if self.path is not None:
                    self.figure_close(False)
                self.draw(name, [self.to_device(pts)], fill=True, stroke=True, closed=True)
            else:
                if self.path is not None:
                    self.figure_close(False)
                self.draw(name, [self.to_device(pts)], fill=False, stroke=True, closed=False)
        elif typ in (7, 8, 90, 91):
            small = typ >= 90
            npolys, count = u("<II", 24)
            if 32 + 4 * npolys > size:
                raise MetafileError(f"record at {pos}: {npolys} polygon counts do not fit in it")
            counts = np.frombuffer(self.data, dtype="<u4", count=npolys, offset=pos + 32).astype(np.int64)
            if int(counts.sum()) != count:
                raise MetafileError(f"record at {pos}: polygon counts do not add up to its point count")
            pts = self.to_device(self.points(pos, size, 32 + 4 * npolys, count, small))
            polys = np.split(pts, np.cumsum(counts)[:-1]) if npolys else []
            polygon = typ in (8, 91)
            if self.path is not None:
                self.figure_close(False)
            self.draw("POLYPOLYGON" if polygon else "POLYPOLYLINE", [p for p in polys if len(p)],
                      fill=polygon, stroke=True, closed=polygon)
        elif typ == 27:                                         # MOVETOEX
            self.move_to(*u("<ii", 8))
        elif typ == 54:                                         # LINETO
            self.line_to("LINETO", [u("<ii", 8)])
        elif typ == 15:                                         # SETPIXELV
            x, y, ref = u("<iiI", 8)
            self.pixel(x, y, ref)
        elif typ == 43:                                         # RECTANGLE
            x0, y0, x1, y1 = u("<4i", 8)
            self.shape("RECTANGLE", _rect(x0, y0, x1, y1))
        elif typ == 42:                                         # ELLIPSE
            x0, y0, x1, y1 = u("<4i", 8)
            self.budget.points_add(ELLIPSE_STEPS)
            self.shape("ELLIPSE", _ellipse(x0, y0, x1, y1))
        elif typ == 44:                                         # ROUNDRECT
            x0, y0, x1, y1, cw, ch = u("<6i", 8)
            self.budget.points_add(ELLIPSE_STEPS + 4)
            self.shape("ROUNDRECT", _roundrect(x0, y0, x1, y1, cw, ch))
        elif typ in (45, 46, 47, 55):                           # ARC, CHORD, PIE, ARCTO
            box = u("<4i", 8)
            sx, sy, ex, ey = u("<4i", 24)
            self.arc({45: "ARC", 46: "CHORD", 47: "PIE", 55: "ARCTO"}[typ], box, (sx, sy), (ex, ey))
        elif typ == 41:                                         # ANGLEARC: centre, radius, start, sweep (degrees)
            cx, cy, r = u("<iiI", 8)
            a0, sweep = u("<ff", 20)
            if not (math.isfinite(a0) and math.isfinite(sweep)):
                raise MetafileError(f"record at {pos}: angles that are not finite")
            sweep = max(-3600.0, min(3600.0, sweep))
            self.line_to("ANGLEARC", self._arc(cx, cy, r, r, math.radians(a0), math.radians(sweep)))
        elif typ == 57:                                         # SETARCDIRECTION
            (d,) = u("<I", 8)
            dc.clockwise = d == 2
        elif typ == 9:                                          # SETWINDOWEXTEX
            x, y = u("<ii", 8)
            if x and y:
                dc.win_ext = (float(x), float(y))
        elif typ == 10:
            dc.win_org = tuple(float(v) for v in u("<ii", 8))
        elif typ == 11:                                         # SETVIEWPORTEXTEX
            x, y = u("<ii", 8)
            if x and y:
                dc.vp_ext = (float(x), float(y))
        elif typ == 12:
            dc.vp_org = tuple(float(v) for v in u("<ii", 8))
        elif typ in (31, 32):                                   # SCALEVIEWPORTEXTEX, SCALEWINDOWEXTEX
            xn, xd, yn, yd = u("<4i", 8)
            if xd and yd and xn and yn:
                attr = "vp_ext" if typ == 31 else "win_ext"
                ex, ey = getattr(dc, attr)
                setattr(dc, attr, (ex * xn / xd, ey * yn / yd))
        elif typ == 17:                                         # SETMAPMODE
            (mode,) = u("<I", 8)
            if 1 <= mode <= 8:
                dc.map_mode = mode
        elif typ == 19:                                         # SETPOLYFILLMODE
            (mode,) = u("<I", 8)
            dc.winding = mode == 2
        elif typ == 20:                                         # SETROP2
            (dc.rop2,) = u("<I", 8)
        elif typ == 35:                                         # SETWORLDTRANSFORM
            xf = u("<6f", 8)
            if all(math.isfinite(v) for v in xf):
                dc.world = tuple(float(v) for v in xf)
        elif typ == 36:                                         # MODIFYWORLDTRANSFORM
            xf = u("<6f", 8)
            (mode,) = u("<I", 32)
            if not all(math.isfinite(v) for v in xf):
                return
            if mode == 1:
                dc.world = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            elif mode in (2, 3, 4):
                a = _mat(xf)
                b = _mat(dc.world)
                m = a @ b if mode == 2 else b @ a if mode == 3 else a
                dc.world = (m[0, 0], m[0, 1], m[1, 0], m[1, 1], m[2, 0], m[2, 1])
        elif typ == 33:
            self.save()
        elif typ == 34:
            (rel,) = u("<i", 8)
            self.restore(rel)
        elif typ == 37:                                         # SELECTOBJECT
            (ih,) = u("<I", 8)
            if ih & 0x80000000:
                kind, col = STOCK.get(ih & 0x7FFFFFFF, (None, None))
                if kind == "brush":
                    dc.brush = ("solid", col) if col is not None else ("null",)
                elif kind == "pen":
                    dc.pen = ("solid", col, 0.0) if col is not None else ("null",)
            else:
                obj = self.objects.get(ih)
                if obj is not None:
                    if obj[0] == "brush":
                        dc.brush = obj[1]
                    elif obj[0] == "pen":
                        dc.pen = obj[1]
        elif typ == 38:                                         # CREATEPEN
            ih, style, wx, _wy, ref = u("<IIiiI", 8)
            self.obj(ih, ("pen", _pen(style, wx, ref)))
        elif typ == 95:                                         # EXTCREATEPEN
            ih, _ob, _cb, _obits, _cbits, style, width, bstyle, ref = u("<IIIIIIIII", 8)
            pen = _pen(style, width, ref) if bstyle == 0 else ("other", "pattern pen")
            self.obj(ih, ("pen", pen))
        elif typ == 39:                                         # CREATEBRUSHINDIRECT
            ih, style, ref, _hatch = u("<IIII", 8)
            self.obj(ih, ("brush", _brush(style, ref)))
        elif typ in (93, 94):                                   # pattern brushes: filled with, not drawn
            (ih,) = u("<I", 8)
            self.obj(ih, ("brush", ("other", "pattern brush")))
        elif typ == 40:                                         # DELETEOBJECT
            (ih,) = u("<I", 8)
            self.objects.pop(ih, None)
        elif typ == 59:
            self.begin_path()
        elif typ == 60:
            self.end_path()
        elif typ == 61:                                         # CLOSEFIGURE
            if self.path is not None:
                self.figure_close(True)
        elif typ == 68:                                         # ABORTPATH
            self.path, self.figure, self.closed_path = None, None, None
        elif typ == 62:
            self.use_path("FILLPATH", True, False)
        elif typ == 63:
            self.use_path("STROKEANDFILLPATH", True, True)
        elif typ == 64:
            self.use_path("STROKEPATH", False, True)
        elif typ == 67:                                         # SELECTCLIPPATH
            (mode,) = u("<I", 8)
            self.clip_path(mode)
        elif typ == 30 or typ == 29:                            # INTERSECTCLIPRECT, EXCLUDECLIPRECT
            x0, y0, x1, y1 = u("<4i", 8)
            self.clip_rect(x0, y0, x1, y1, exclude=typ == 29)
        elif typ == 75:                                         # EXTSELECTCLIPRGN
            cb, mode = u("<II", 8)
            if mode == 5 and cb == 0:
                self.ops.append(_Op("clip", mode=0))
                return
            if cb < 32 or 16 + cb > size:
                raise MetafileError(f"record at {pos}: region data do not fit")
            (_hs, _it, nrect, _rs) = u("<IIII", 16)
            if 48 + 16 * nrect > size:
                raise MetafileError(f"record at {pos}: {nrect} region rectangles do not fit")
            self.budget.points_add(4 * nrect)
            r = np.frombuffer(self.data, dtype="<i4", count=4 * nrect, offset=pos + 48).reshape(-1, 4)
            polys = [_rect(float(a), float(b), float(c), float(d)) for a, b, c, d in r]
            self.ops.append(_Op("clip", polys=polys, winding=True, mode=mode if 1 <= mode <= 5 else 1))
        elif typ == 81:                                         # STRETCHDIBITS
            (xd, yd, xs, ys, cxs, cys, ob, cbb, obits, cbbits, _usage, rop, cxd, cyd) = u("<iiiiiiIIIIIIii", 24)
            img = self.dib(pos, size, ob, cbb, obits, cbbits)
            if img is None:
                self.patblt("STRETCHDIBITS", rop, xd, yd, cxd, cyd)
                return
            img = _crop(img, xs, ys, cxs, cys, bottom_up=True)
            self.bitmap("STRETCHDIBITS", rop, img, [[xd, yd], [xd + cxd, yd], [xd, yd + cyd]])
        elif typ in (76, 77):                                   # BITBLT, STRETCHBLT
            (xd, yd, cxd, cyd, rop, xs, ys) = u("<iiiiIii", 24)
            _xf = u("<6f", 52)
            (_bk, _usage, ob, cbb, obits, cbbits) = u("<IIIIII", 76)
            if typ == 77:
                cxs, cys = u("<ii", 100)
            else:
                cxs, cys = cxd, cyd
            img = self.dib(pos, size, ob, cbb, obits, cbbits)
            name = "BITBLT" if typ == 76 else "STRETCHBLT"
            if img is None:
                self.patblt(name, rop, xd, yd, cxd, cyd)
                return
            img = _crop(img, xs, ys, cxs, cys, bottom_up=False)
            self.bitmap(name, rop, img, [[xd, yd], [xd + cxd, yd], [xd, yd + cyd]])
        elif typ == 70:                                         # COMMENT
            (cb,) = u("<I", 8)
            ident = bytes(self.data[pos + 12:pos + min(size, 16)])
            if ident == b"EMF+":
                self.miss("EMF+ records")
            elif ident == b"GDIC" and size >= 20 and u("<I", 16)[0] == 0x40000004:
                self.miss("COMMENT_MULTIFORMATS")
        elif typ == 115:                                        # SETLAYOUT
            (layout,) = u("<I", 8)
            if layout & 1:
                self.miss("SETLAYOUT (right to left)")
        elif typ in EMF_INK:
            self.miss(EMF_INK[typ])
        elif typ in EMF_SKIP:
            pass
        else:
            self.miss(f"record type {typ}")

    def obj(self, ih: int, obj: tuple) -> None:
        if ih >= MAX_OBJECTS or ih & 0x80000000:
            raise MetafileError(f"object index {ih}")
        self.objects[ih] = obj

    def dib(self, pos: int, size: int, ob: int, cbb: int, obits: int, cbbits: int):
        if cbb == 0:
            return None
        if ob + cbb > size or obits + cbbits > size or ob < 8 or obits < 8:
            raise MetafileError(f"record at {pos}: its bitmap does not fit in it")
        return decode_dib(bytes(self.data[pos + ob:pos + ob + cbb]), bytes(self.data[pos + obits:pos + obits + cbbits]))


def _mat(xf) -> np.ndarray:
    m11, m12, m21, m22, dx, dy = xf
    return np.array([[m11, m12, 0.0], [m21, m22, 0.0], [dx, dy, 1.0]])


def _pen(style: int, width: int, ref: int) -> tuple:
    kind = style & 0x0F
    if kind == 5:
        return ("null",)
    col = _colour(ref)
    if col is None:
        return ("other", "palette colour")
    return ("solid", col, float(abs(width)))           # dashes and dots are drawn solid (more ink, not less)


def _brush(style: int, ref: int) -> tuple:
    if style == 1:
        return ("null",)
    if style != 0:
        return ("other", "hatched or pattern brush")
    col = _colour(ref)
    return ("solid", col) if col is not None else ("other", "palette colour")


def _crop(img, xs: int, ys: int, cxs: int, cys: int, bottom_up: bool):
    """The source rectangle of a blit out of its bitmap (the whole bitmap when it covers it)."""
    w, h = img.size
    if cxs <= 0 or cys <= 0 or (xs, ys, cxs, cys) == (0, 0, w, h):
        return img
    top = h - ys - cys if bottom_up else ys
    box = (max(0, xs), max(0, top), min(w, xs + cxs), min(h, top + cys))
    if box[2] <= box[0] or box[3] <= box[1]:
        return img
    return img.crop(box)


# ------------------------------------------------------------------------------------------------ WMF
WMF_TEXT = {0x0521: "META_TEXTOUT", 0x0A32: "META_EXTTEXTOUT"}
WMF_CREATE = {0x00F7, 0x01F9, 0x02FA, 0x02FB, 0x02FC, 0x06FF, 0x0142}
WMF_SKIP = {0x0035, 0x0037, 0x0102, 0x0103, 0x0105, 0x0107, 0x0108, 0x0139, 0x0201, 0x0209, 0x020A, 0x0231,
            0x0234, 0x012E, 0x020D, 0x020E, 0x0211, 0x0412}
WMF_INK = {0x0419: "META_FLOODFILL",
           0x0548: "META_EXTFLOODFILL", 0x0228: "META_FILLREGION", 0x0429: "META_FRAMEREGION",
           0x012A: "META_INVERTREGION", 0x012B: "META_PAINTREGION", 0x0922: "META_BITBLT",
           0x0B23: "META_STRETCHBLT", 0x0D33: "META_SETDIBTODEV", 0x0436: "META_ANIMATEPALETTE",
           0x0220: "META_OFFSETCLIPRGN", 0x0149: "META_SETLAYOUT"}


class _Wmf(_Player):
    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = data
        self.table: list = []
        self.dest: tuple | None = None          # the player's rectangle: the frame
        self.dc.map_mode = 8

    def page_scale(self) -> tuple[float, float]:
        dest = self.dest or (1.0, 1.0)
        return dest[0] / self.dc.win_ext[0], dest[1] / self.dc.win_ext[1]

    def play(self) -> Rendering:
        d = self.data
        n = len(d)
        pos = 0
        if d[:4] == b"\xd7\xcd\xc6\x9a":
            if n < 22:
                raise MetafileError("a placeable header that is truncated")
            left, top, right, bottom = struct.unpack_from("<4h", d, 6)
            if right != left and bottom != top:
                self.dc.win_org = (float(left), float(top))
                self.dc.win_ext = (float(right - left), float(bottom - top))
                self.dest = (abs(float(right - left)), abs(float(bottom - top)))
            pos = 22
        if n < pos + 18:
            raise MetafileError("a header that is truncated")
        hdr_words = struct.unpack_from("<H", d, pos + 2)[0]
        if hdr_words != 9:
            raise MetafileError("not a WMF header")
        pos += 18
        count = 0
        while True:
            if pos + 6 > n:
                raise MetafileError("no end-of-file record")
            words, func = struct.unpack_from("<IH", d, pos)
            size = 2 * words
            if words < 3 or pos + size > n:
                raise MetafileError(f"record at {pos} does not fit (size {size})")
            count += 1
            if count > MAX_RECORDS:
                raise MetafileError(f"more than {MAX_RECORDS:,} records")
            if func == 0:
                break
            self.record(pos, func, size)
            pos += size
        frame = (0.0, 0.0, self.dest[0], self.dest[1]) if self.dest else None
        return self.render(frame)

    def h(self, pos: int, size: int, k: int, signed: bool = True) -> list[int]:
        """``k`` 16-bit parameters after the record's 6-byte header."""
        if 6 + 2 * k > size:
            raise MetafileError(f"record at {pos} is truncated")
        return list(struct.unpack_from(("<%dh" if signed else "<%dH") % k, self.data, pos + 6))

    def pts(self, pos: int, size: int, off: int, count: int) -> np.ndarray:
        if count < 0 or off + 4 * count > size:
            raise MetafileError(f"record at {pos}: {count} points do not fit in it")
        self.budget.points_add(count)
        return np.frombuffer(self.data, dtype="<i2", count=2 * count, offset=pos + off).reshape(-1, 2).astype(np.float64)

    def add_obj(self, obj) -> None:
        for i, o in enumerate(self.table):
            if o is None:
                self.table[i] = obj
                return
        if len(self.table) >= MAX_OBJECTS:
            raise MetafileError(f"more than {MAX_OBJECTS} objects")
        self.table.append(obj)

    def record(self, pos: int, func: int, size: int) -> None:  # noqa: C901 - one dispatch over functions
        dc = self.dc
        h = lambda k, signed=True: self.h(pos, size, k, signed)   # noqa: E731
        if func in WMF_TEXT:
            self.text = True
            self.miss(WMF_TEXT[func])
        elif func in (0x0324, 0x0325):                          # POLYGON, POLYLINE
            (count,) = h(1, False)
            pts = self.to_device(self.pts(pos, size, 8, count))
            if func == 0x0324:
                self.draw("META_POLYGON", [pts], fill=True, stroke=True, closed=True)
            else:
                self.draw("META_POLYLINE", [pts], fill=False, stroke=True, closed=False)
        elif func == 0x0538:                                    # POLYPOLYGON
            (k,) = h(1, False)
            if 8 + 2 * k > size:
                raise MetafileError(f"record at {pos}: {k} polygon counts do not fit in it")
            counts = np.frombuffer(self.data, dtype="<u2", count=k, offset=pos + 8).astype(np.int64)
            pts = self.to_device(self.pts(pos, size, 8 + 2 * k, int(counts.sum())))
            polys = np.split(pts, np.cumsum(counts)[:-1]) if k else []
            self.draw("META_POLYPOLYGON", [p for p in polys if len(p)], fill=True, stroke=True, closed=True)
        elif func == 0x041B:                                    # RECTANGLE: bottom, right, top, left
            b, r, t, left = h(4)
            self.shape("META_RECTANGLE", _rect(left, t, r, b))
        elif func == 0x0418:                                    # ELLIPSE
            b, r, t, left = h(4)
            self.budget.points_add(ELLIPSE_STEPS)
            self.shape("META_ELLIPSE", _ellipse(left, t, r, b))
        elif func == 0x061C:                                    # ROUNDRECT: height, width, b, r, t, l
            hh, ww, b, r, t, left = h(6)
            self.budget.points_add(ELLIPSE_STEPS + 4)
            self.shape("META_ROUNDRECT", _roundrect(left, t, r, b, ww, hh))
        elif func in (0x0817, 0x0830, 0x081A):                  # ARC, CHORD, PIE: yend, xend, ystart, xstart, b, r, t, l
            ye, xe, ys, xs, b, r, t, left = h(8)
            self.arc({0x0817: "META_ARC", 0x0830: "META_CHORD", 0x081A: "META_PIE"}[func], (left, t, r, b),
                     (xs, ys), (xe, ye))
        elif func == 0x0214:                                    # MOVETO: y, x
            y, x = h(2)
            self.move_to(x, y)
        elif func == 0x0213:                                    # LINETO: y, x
            y, x = h(2)
            self.line_to("META_LINETO", [[x, y]])
        elif func == 0x041F:                                    # SETPIXEL: colorref, y, x
            if size < 14:
                raise MetafileError(f"record at {pos} is truncated")
            ref, y, x = struct.unpack_from("<Ihh", self.data, pos + 6)
            self.pixel(x, y, ref)
        elif func == 0x061D:                                    # PATBLT: rop, height, width, y, x
            if size < 16:
                raise MetafileError(f"record at {pos} is truncated")
            rop, hh, ww, y, x = struct.unpack_from("<Ihhhh", self.data, pos + 6)
            self.patblt("META_PATBLT", rop, x, y, ww, hh)
        elif func == 0x020B:                                    # SETWINDOWORG: y, x
            y, x = h(2)
            dc.win_org = (float(x), float(y))
        elif func == 0x020C:                                    # SETWINDOWEXT: y, x
            y, x = h(2)
            if x and y:
                dc.win_ext = (float(x), float(y))
                if self.dest is None:
                    self.dest = (abs(float(x)), abs(float(y)))
        elif func == 0x020F:                                    # OFFSETWINDOWORG: y, x
            y, x = h(2)
            dc.win_org = (dc.win_org[0] + x, dc.win_org[1] + y)
        elif func == 0x0410:                                    # SCALEWINDOWEXT: yd, yn, xd, xn
            yd, yn, xd, xn = h(4)
            if xd and yd and xn and yn:
                dc.win_ext = (dc.win_ext[0] * xn / xd, dc.win_ext[1] * yn / yd)
        elif func == 0x0106:                                    # SETPOLYFILLMODE
            (mode,) = h(1, False)
            dc.winding = mode == 2
        elif func == 0x0104:                                    # SETROP2
            (dc.rop2,) = h(1, False)
        elif func == 0x001E:
            self.save()
        elif func == 0x0127:                                    # RESTOREDC
            (rel,) = h(1)
            self.restore(rel)
        elif func == 0x02FC:                                    # CREATEBRUSHINDIRECT: style, colorref, hatch
            if size < 14:
                raise MetafileError(f"record at {pos} is truncated")
            style, ref = struct.unpack_from("<HI", self.data, pos + 6)
            self.add_obj(("brush", _brush(style, ref)))
        elif func == 0x02FA:                                    # CREATEPENINDIRECT: style, width (x, y), colorref
            if size < 16:
                raise MetafileError(f"record at {pos} is truncated")
            style, wx, _wy, ref = struct.unpack_from("<HhhI", self.data, pos + 6)
            self.add_obj(("pen", _pen(style, wx, ref)))
        elif func in (0x01F9, 0x0142):                          # pattern brushes
            self.add_obj(("brush", ("other", "pattern brush")))
        elif func in WMF_CREATE:                                # palettes, fonts, regions: take a slot
            self.add_obj(("other", func))
        elif func == 0x012D:                                    # SELECTOBJECT
            (i,) = h(1, False)
            obj = self.table[i] if i < len(self.table) else None
            if obj is not None:
                if obj[0] == "brush":
                    dc.brush = obj[1]
                elif obj[0] == "pen":
                    dc.pen = obj[1]
        elif func == 0x01F0:                                    # DELETEOBJECT
            (i,) = h(1, False)
            if i < len(self.table):
                self.table[i] = None
        elif func in (0x0416, 0x0415):                          # INTERSECTCLIPRECT, EXCLUDECLIPRECT
            b, r, t, left = h(4)
            self.clip_rect(left, t, r, b, exclude=func == 0x0415)
        elif func == 0x012C:                                    # SELECTCLIPREGION
            self.miss("META_SELECTCLIPREGION")
        elif func in (0x0B41, 0x0F43, 0x0940):                  # DIBSTRETCHBLT, STRETCHDIB, DIBBITBLT
            self.wmf_blit(pos, func, size)
        elif func == 0x0626:                                    # ESCAPE
            if size >= 14:
                fn, _cnt = struct.unpack_from("<HH", self.data, pos + 6)
                if fn == 0x000F and bytes(self.data[pos + 10:pos + 14]) == b"WMFC":
                    self.miss("META_ESCAPE (embedded EMF)")
        elif func in WMF_INK:
            self.miss(WMF_INK[func])
        elif func in WMF_SKIP:
            pass
        else:
            self.miss(f"record function {func:#06x}")

    def wmf_blit(self, pos: int, func: int, size: int) -> None:
        d = self.data
        name = {0x0B41: "META_DIBSTRETCHBLT", 0x0F43: "META_STRETCHDIB", 0x0940: "META_DIBBITBLT"}[func]
        no_bitmap = size // 2 == (func >> 8) + 3
        if func == 0x0F43:
            if size < 28:
                raise MetafileError(f"record at {pos} is truncated")
            rop, _usage, sh, sw, ys, xs, dh, dw, yd, xd = struct.unpack_from("<IHhhhhhhhh", d, pos + 6)
            off = 28
        elif func == 0x0B41:
            if no_bitmap:
                if size < 28:
                    raise MetafileError(f"record at {pos} is truncated")
                rop, sh, sw, ys, xs, _r, dh, dw, yd, xd = struct.unpack_from("<Ihhhhhhhhh", d, pos + 6)
                self.patblt(name, rop, xd, yd, dw, dh)
                return
            if size < 26:
                raise MetafileError(f"record at {pos} is truncated")
            rop, sh, sw, ys, xs, dh, dw, yd, xd = struct.unpack_from("<Ihhhhhhhh", d, pos + 6)
            off = 26
        else:
            if no_bitmap:
                if size < 24:
                    raise MetafileError(f"record at {pos} is truncated")
                rop, ys, xs, _r, dh, dw, yd, xd = struct.unpack_from("<Ihhhhhhh", d, pos + 6)
                self.patblt(name, rop, xd, yd, dw, dh)
                return
            if size < 22:
                raise MetafileError(f"record at {pos} is truncated")
            rop, ys, xs, dh, dw, yd, xd = struct.unpack_from("<Ihhhhhh", d, pos + 6)
            sh, sw = dh, dw
            off = 22
        dib = bytes(d[pos + off:pos + size])
        if len(dib) < 12:
            raise MetafileError(f"record at {pos}: its bitmap is truncated")
        hsize = struct.unpack_from("<I", dib, 0)[0]
        bmi_len = _bmi_len(dib, hsize)
        img = decode_dib(dib[:bmi_len], dib[bmi_len:])
        img = _crop(img, xs, ys, sw, sh, bottom_up=True)
        self.bitmap(name, rop, img, [[xd, yd], [xd + dw, yd], [xd, yd + dh]])


def _bmi_len(dib: bytes, hsize: int) -> int:
    """The length of a packed DIB's BITMAPINFO (header, masks and colour table)."""
    if hsize == 12:
        bits = struct.unpack_from("<H", dib, 10)[0]
        return 12 + (3 * (1 << bits) if bits <= 8 else 0)
    if hsize < 40 or len(dib) < 40:
        raise MetafileError("a bitmap header is not one of BITMAPCOREHEADER/BITMAPINFOHEADER")
    bits, comp = struct.unpack_from("<HI", dib, 14)
    used = struct.unpack_from("<I", dib, 32)[0]
    if used > 256:
        raise MetafileError("a colour table of more than 256 entries")
    n = used or ((1 << bits) if bits <= 8 else 0)
    masks = 12 if comp == 3 and hsize == 40 else 0
    return hsize + masks + 4 * n


# ------------------------------------------------------------------------------------------------ API
def render_metafile(data: bytes) -> Rendering:
    """Render an EMF/WMF (or its gzip form, EMZ/WMZ). Raises :class:`MetafileError` when it does not parse
    or goes over a cap; records not drawn are listed in ``unrendered`` (see the module docstring)."""
    data = bytes(data)
    if data[:2] == b"\x1f\x8b":
        try:
            d = zlib.decompressobj(31)
            data = d.decompress(data, limits.MAX_METAFILE)
            if d.unconsumed_tail:
                raise MetafileError("over the metafile size cap when inflated")
        except zlib.error:
            raise MetafileError("the gzip wrapper does not inflate") from None
    if len(data) > limits.MAX_METAFILE:
        raise MetafileError("over the metafile size cap")
    try:
        if len(data) >= 44 and data[:4] == b"\x01\x00\x00\x00" and data[40:44] == b" EMF":
            return _Emf(data).play()
        if data[:4] == b"\xd7\xcd\xc6\x9a" or data[:6] in (b"\x01\x00\x09\x00\x00\x03", b"\x02\x00\x09\x00\x00\x03"):
            return _Wmf(data).play()
    except MetafileError:
        raise
    except (MemoryError, ValueError, OverflowError, struct.error, ZeroDivisionError) as e:
        raise MetafileError(f"cannot be rendered ({type(e).__name__})") from None
    raise MetafileError("not an EMF or WMF")
