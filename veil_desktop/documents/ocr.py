"""Offline OCR of page images (Tesseract through ``tesserocr``, Korean + English LSTM models) — no Qt.

What it gives a reader: an ``OcrPage`` — the page's reviewable text (reading order kept, the lines of a
paragraph joined with a space so the detectors see sentences, paragraphs separated by a line break) and,
for every character of that text, a box in the pixels of the *source* image (``None`` for the spaces and
line breaks the OCR layout inserted). A writer burns opaque boxes over the pixels of the characters a plan
masks (``burn``), and the export's fail-closed check runs OCR again on the output (``recognisable``).

Layout: page segmentation mode 4 (one column of text of variable sizes): on drawn Korean forms the
automatic mode (3) dropped whole lines, mode 4 read them all (see benchmarks/bench_ocr.py).

Orientation and skew: the page is first deskewed (projection-profile search over ±``MAX_SKEW_DEG``) and,
when the upright reading is poor, the four orientations (0/90/180/270) are compared by Tesseract's mean
word confidence on a reduced copy; the winner is recognised at full size. Boxes are mapped back through the
inverse rotation, so they land on the source pixels, whatever the page's orientation.

Extra views (``read_views``, issue 26 class 4): a colour stamp over black text, dot-matrix print and comb
boxes (one ruled box per digit) garble the page reading; a cheap test on the pixels finds each, and only then
are the lines it covers read again in a view made for it (colour dropped out / the seal alone, dots joined,
comb cells set side by side). What a view reads surely joins the page text with its boxes (its whole line:
the label with the value); what it reads unsurely where the page reading is not sure either holds the page
(``OcrPage.disputed``: not ``readable``). Digits read between bars (``9|5|0|8``) are one word.

Models: ``resources/tessdata/{kor,eng}.traineddata`` (tessdata_fast, Apache-2.0; see the folder's README).
Tesseract's Hangul *script* model read the drawn pages' characters slightly better but split every Korean
word into syllables, which the detectors cannot use (docs/DOCUMENTS.md).
Nothing is downloaded; without ``tesserocr`` or the models ``available()`` is False and callers mark such
pages *needs review* instead of OCR'ing them.

Thread-safety: Tesseract's API object is not thread-safe, so every thread gets its own (``threading.local``);
module state is that cache only.
"""
from __future__ import annotations

import dataclasses
import math
import os
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from . import limits as _limits
from .errors import DocumentError

LANG = "kor+eng"
#: Tesseract page segmentation mode (see the module docstring)
PSM = 6
MAX_SKEW_DEG = 5.0
SKEW_STEP_DEG = 0.25
#: below this mean word confidence (0..100) an upright reading is compared with the other orientations
ORIENTATION_RETRY_CONF = 65.0
#: below this mean confidence a page counts as unreadable (it keeps the *needs review* status)
MIN_PAGE_CONFIDENCE = 45.0
#: most pixels a page image may have for OCR (a larger page is scaled down first)
MAX_OCR_PIXELS = _limits.MAX_OCR_PIXELS
#: padding around burned boxes: a fraction of the line height plus a few pixels (blur, skew)
PAD_FRACTION = 0.18
PAD_MIN_PX = 3

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in source-image pixels


def tessdata_dir() -> Path:
    from ..paths import resources_dir

    return resources_dir() / "tessdata"


def available() -> bool:
    """True when tesserocr imports and the language models are present."""
    try:
        import tesserocr  # noqa: F401
    except Exception:  # noqa: BLE001 - a missing or broken native library means "no OCR"
        return False
    d = tessdata_dir()
    return all((d / f"{lang}.traineddata").is_file() for lang in LANG.split("+"))


@dataclass
class OcrPage:
    """The OCR of one page image. ``boxes[i]`` is the source-pixel box of ``text[i]`` (or None)."""

    text: str
    boxes: list[Box | None]
    confidence: float                  # mean word confidence 0..100 (0 when nothing was read)
    width: int                         # source image size
    height: int
    rotation: int = 0                  # orientation applied before recognition (degrees, counter-clockwise)
    skew: float = 0.0                  # deskew angle applied (degrees, counter-clockwise)
    words: int = 0
    line_heights: list[float] = field(default_factory=list, repr=False)  # per character (for padding)
    #: symbols added by the second look at ink the first reading left unexplained (``_second_look``)
    second_look: int = 0
    #: per character: the confidence (0..100) of the word it belongs to (100 for inserted separators)
    confidences: list[float] = field(default_factory=list, repr=False)
    #: the extra views of the page that were read (``read_views``: ``colour``, ``seal``, ``dots``, ``comb``),
    #: the letters/digits they read unsurely where the page reading is not sure of anything, and those words'
    #: boxes with their letters/digits (``(box, n)``)
    views: tuple[str, ...] = ()
    disputed: int = 0
    disputes: tuple = ()

    @property
    def readable(self) -> bool:
        return (self.words > 0 and self.confidence >= MIN_PAGE_CONFIDENCE
                and self.disputed <= VIEW_MAX_DISPUTED)


# -- Tesseract --------------------------------------------------------------------------------------------
_local = threading.local()


class pages_progress:
    """``with pages_progress(fn):`` — readers that OCR pages on this thread call ``fn(done, total)`` before
    each page and between recognition passes (``done`` pages finished of ``total``); ``fn`` returning True
    cancels (``OcrCancelled``). The window uses it for OCR progress and Cancel while a scan opens."""

    def __init__(self, fn: Callable[[int, int], bool]) -> None:
        self.fn = fn

    def __enter__(self) -> "pages_progress":
        self._old = getattr(_local, "progress", None)
        _local.progress = self.fn
        return self

    def __exit__(self, *exc) -> None:
        _local.progress = self._old


def report_page(done: int, total: int) -> None:
    """Readers call this before OCR'ing page ``done + 1`` of ``total`` (and with done == total at the end)."""
    fn = getattr(_local, "progress", None)
    if fn is not None and fn(done, total):
        raise OcrCancelled()


def _cancel_requested() -> bool:
    fn = getattr(_local, "progress", None)
    return bool(fn is not None and fn(-1, -1))


#: Tesseract's page segmentation mode for "sparse text": find as much text as possible in no particular
#: order (a business card photographed on a desk, labels scattered over a picture), where PSM 6's single
#: uniform block finds nothing
PSM_SPARSE = 11


#: Tesseract's ``thresholding_method`` for a *local* binarisation (Sauvola): Otsu's one global threshold
#: (the default, 0) turns a sky gradient behind black type into one dark mass and reads nothing of it
SAUVOLA = "2"


def _api(psm: int | None = None, local_threshold: bool = False):
    """This thread's Tesseract engine for page segmentation mode ``psm`` (default :data:`PSM`, or
    ``$VEIL_OCR_PSM``), binarising with one global threshold or, with ``local_threshold``, Sauvola's
    local one (:data:`SAUVOLA`); one engine per mode and thread, created on first use."""
    mode = int(os.environ.get("VEIL_OCR_PSM", PSM)) if psm is None else int(psm)
    apis = getattr(_local, "apis", None)
    if apis is None:
        apis = _local.apis = {}
    key = (mode, True) if local_threshold else mode
    api = apis.get(key)
    if api is None:
        import tesserocr

        if not available():
            raise RuntimeError("OCR is not available: tesserocr or the models in resources/tessdata are missing.")
        api = tesserocr.PyTessBaseAPI(path=str(tessdata_dir()) + os.sep, lang=LANG, psm=mode,
                                      oem=tesserocr.OEM.LSTM_ONLY)
        api.SetVariable("debug_file", os.devnull)
        if local_threshold:
            api.SetVariable("thresholding_method", SAUVOLA)
        apis[key] = api
    return api


#: Pillow modes whose samples are wider than 8 bits
HIGH_DEPTH_MODES = ("I;16", "I;16L", "I;16B", "I;16N", "I", "F")


def eight_bit(img):
    """``img`` as an 8-bit grey image when its samples are wider (16-bit grey PNG/TIFF, 32-bit integer,
    float), scaled by the range its depth implies, as a viewer shows it; any other image unchanged.
    Pillow's own ``convert("L")``/``("RGB")`` clips such samples at 255, which turns a 16-bit grey page
    (0..65535) white: OCR then reads nothing of a picture a person reads at once."""
    if img.mode not in HIGH_DEPTH_MODES:
        return img
    import numpy as np
    from PIL import Image

    a = np.asarray(img.convert("I") if img.mode.startswith("I;16") else img, dtype=np.float64)
    if a.size == 0:
        return Image.new("L", img.size, 255)
    a = np.nan_to_num(a, nan=0.0, posinf=0.0, neginf=0.0)
    hi = float(a.max())
    if img.mode == "F" and hi <= 1.0:
        a = a * 255.0
    elif img.mode.startswith("I;16") or 255 < hi <= 65535:
        a = a / 257.0
    elif hi > 65535:
        a = a * (255.0 / hi)
    return Image.fromarray(np.clip(np.rint(a), 0, 255).astype(np.uint8), "L")


def _gray(img):
    from PIL import Image

    img = eight_bit(img)
    if img.mode not in ("L", "RGB"):
        img = img.convert("RGBA") if "A" in img.getbands() or img.mode == "P" else img.convert("RGB")
        if img.mode == "RGBA":  # transparent background -> white, not black
            bg = Image.new("RGB", img.size, (255, 255, 255))
            bg.paste(img, mask=img.getchannel("A"))
            img = bg
    return img.convert("L")


#: a page whose background (median grey) is darker than this is a negative (white on black): read inverted
NEGATIVE_BACKGROUND = 110


def _positive(gray):
    """``gray``, inverted when it is a negative (a dark page with light text): the geometry is unchanged,
    so the boxes still land on the source pixels."""
    import numpy as np
    from PIL import ImageOps

    from .ink import background

    return ImageOps.invert(gray) if background(np.asarray(gray)) < NEGATIVE_BACKGROUND else gray


def estimate_skew(gray) -> float:
    """Deskew angle (degrees, counter-clockwise rotation that makes text lines horizontal)."""
    import numpy as np
    from PIL import Image

    small = gray
    scale = min(1.0, 1000.0 / max(gray.size))
    if scale < 1.0:
        small = gray.resize((max(1, int(gray.width * scale)), max(1, int(gray.height * scale))),
                            Image.BILINEAR)
    ink = small.point(lambda v: 255 if v < 160 else 0)
    if not ink.getbbox():
        return 0.0
    best, best_score = 0.0, -1.0
    steps = int(round(MAX_SKEW_DEG / SKEW_STEP_DEG))
    for k in range(-steps, steps + 1):
        angle = k * SKEW_STEP_DEG
        rot = ink.rotate(angle, resample=Image.NEAREST, expand=False, fillcolor=0)
        rows = np.asarray(rot, dtype=np.float32).sum(axis=1)
        score = float(np.square(np.diff(rows)).sum())
        if score > best_score + 1e-6 or (abs(score - best_score) <= 1e-6 and abs(angle) < abs(best)):
            best, best_score = angle, score
    return best


def clean(gray):
    """Speckle removal (3×3 median, ``ink.median3``: Pillow's ``MedianFilter(3)``, pixel for pixel) then
    ``remove_rules``: what Tesseract is given to read.

    The median is skipped when it would take away more than ``MEDIAN_MAX_TEXT_LOSS`` of the ink off the
    rules: there it is not removing specks but the strokes themselves — one-pixel strokes of a 100-150 dpi
    page or a 1-bit fax (80 % of the ink of 10 pt type at 100 dpi; Tesseract then read nothing of such a
    page). On the 200/300 dpi benchmark pages, clean or degraded, it takes at most 16 %."""
    import numpy as np
    from PIL import Image

    from .ink import median3, rule_mask

    a = np.asarray(gray if gray.mode == "L" else gray.convert("L"))
    med = median3(a)
    ink = med < 160
    rules = rule_mask(ink) if ink.any() else None
    if rules is not None and not rules.any():
        rules = None
    before = a < 160
    text = before if rules is None else before & ~rules
    n = int(np.count_nonzero(text))
    if n and np.count_nonzero(text & ~ink) > MEDIAN_MAX_TEXT_LOSS * n:
        return remove_rules(gray if gray.mode == "L" else Image.fromarray(a))   # thin strokes: no median
    if rules is None:
        return Image.fromarray(med)
    med[rules] = 255                    # remove_rules of the filtered page
    return Image.fromarray(med)


#: ``clean`` skips the median when it would remove more than this share of the ink off the rules
MEDIAN_MAX_TEXT_LOSS = 0.3


def remove_rules(gray):
    """A copy of ``gray`` (mode L) with long horizontal and vertical lines (form boxes, table grids) painted white.

    A pixel is part of a rule when it lies on a straight run of ink at least ``max(60, width / 25)`` pixels
    long (a morphological opening along rows and columns); glyph strokes are far shorter at any usual size.
    Tesseract reads boxed forms and tables poorly with the grid in place (the benchmark's degraded form page
    went from 41 % to over 90 % character accuracy)."""
    import numpy as np
    from PIL import Image

    from .ink import rule_mask

    a = np.asarray(gray)
    ink = a < 160
    if not ink.any():
        return gray
    grown = rule_mask(ink)
    if not grown.any():
        return gray
    out = a.copy()
    out[grown] = 255
    return Image.fromarray(out)


def _rotate(gray, angle: float):
    from PIL import Image

    if not angle:
        return gray
    if angle in (90, 180, 270):
        return gray.transpose({90: Image.ROTATE_90, 180: Image.ROTATE_180, 270: Image.ROTATE_270}[angle])
    return gray.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255)


def _inverse(point: tuple[float, float], src_size: tuple[int, int], angle: float
             ) -> tuple[float, float]:
    """Map a point of ``rotate(src, angle, expand=True)`` back to ``src`` coordinates."""
    w, h = src_size
    a = math.radians(angle)
    cos, sin = math.cos(a), math.sin(a)
    # size of the expanded image, computed as PIL's ``rotate(expand=True)`` does
    if angle % 90 == 0:
        ow, oh = (w, h) if int(angle) % 180 == 0 else (h, w)
    else:
        xs = [x * cos + y * sin for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
        ys = [-x * sin + y * cos for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
        ow = math.ceil(max(xs)) - math.floor(min(xs))
        oh = math.ceil(max(ys)) - math.floor(min(ys))
    x, y = point[0] - ow / 2.0, point[1] - oh / 2.0
    # PIL rotates counter-clockwise on screen (y down): dst = R(-a) * src  =>  src = R(a) * dst
    sx = x * cos - y * sin
    sy = x * sin + y * cos
    return sx + w / 2.0, sy + h / 2.0


def _recognise(api, img) -> tuple[list, float]:
    """Symbols of ``img`` as ``(char, box, space_before, line_start, para_start, line_height, confidence)``
    + the mean word confidence.

    Spacing comes from Tesseract's own text of the page (with the ``kor`` model it keeps Korean words
    whole; the per-symbol "beginning of word" flag, and the text of a single line, split them into
    syllables). A symbol's right edge
    is clamped to the next symbol's left edge on the same line: LSTM symbol boxes often stretch to the end
    of the word, while their left edges are reliable.
    """
    import tesserocr

    api.SetImage(img)
    api.Recognize()
    conf = float(api.MeanTextConf())
    page_text = api.GetUTF8Text() or ""
    ri = api.GetIterator()
    if ri is None:
        return [], 0.0
    RIL = tesserocr.RIL
    lines: list[tuple[str, bool, float, list]] = []   # (line text, para start, height, symbols)
    for r in tesserocr.iterate_level(ri, RIL.SYMBOL):
        try:
            ch = r.GetUTF8Text(RIL.SYMBOL)
            box = r.BoundingBox(RIL.SYMBOL)
        except RuntimeError:
            continue
        if r.IsAtBeginningOf(RIL.TEXTLINE) or not lines:
            lb = r.BoundingBox(RIL.TEXTLINE)
            lines.append(("", bool(r.IsAtBeginningOf(RIL.PARA)),
                          float(lb[3] - lb[1]) if lb else 0.0, []))
        if not ch or not ch.strip() or box is None:
            continue
        try:
            sconf = float(r.Confidence(RIL.WORD))      # the word's: a symbol's own is near 99 even on garbage
        except RuntimeError:
            sconf = 0.0
        lines[-1][3].append((ch, box, bool(r.IsAtBeginningOf(RIL.WORD)), sconf))
    spaces = _spaces_from_text(page_text, [c for *_, syms in lines for c, *_ in syms])
    out = []
    i = 0
    for _, para, line_h, syms in lines:
        for k, (ch, (x0, y0, x1, y1), word, sconf) in enumerate(syms):
            if k + 1 < len(syms):
                nx0 = syms[k + 1][1][0]
                if x0 < nx0 < x1:
                    x1 = nx0
            space = spaces[i] if spaces is not None else word
            i += 1
            out.append((ch, (x0, y0, x1, y1), space and k > 0, k == 0, para and k == 0,
                        line_h or float(y1 - y0), sconf))
    return out, conf


def _spaces_from_text(line: str, symbols: list[str]) -> list[bool] | None:
    """For each symbol: is there white space before it in ``line``? None if the two disagree."""
    out: list[bool] = []
    pos, n = 0, len(line)
    for sym in symbols:
        space = False
        while pos < n and line[pos].isspace():
            space = True
            pos += 1
        if not line.startswith(sym, pos):
            return None
        out.append(space)
        pos += len(sym)
    return out


def _scaled_gray(image):
    """``(grey copy of image, factor)``: scaled down by ``factor`` when it holds more than
    :data:`MAX_OCR_PIXELS` pixels."""
    from PIL import Image

    src_w, src_h = image.size
    gray = _gray(image)
    factor = 1.0
    if src_w * src_h > MAX_OCR_PIXELS:
        factor = math.sqrt(MAX_OCR_PIXELS / float(src_w * src_h))
        gray = gray.resize((max(1, int(src_w * factor)), max(1, int(src_h * factor))), Image.BILINEAR)
    return gray, factor


#: pixels whose resolution differs by more than this ratio across and down (a fine-mode fax: 204 × 98 dpi)
#: are made square before OCR; up to MAX_PIXEL_ASPECT (beyond it the resolution tag is not believed)
PIXEL_ASPECT_TOLERANCE = 1.1
MAX_PIXEL_ASPECT = 4.0


def pixel_stretch(image) -> tuple[float, float]:
    """``(sx, sy)``: how much to stretch ``image`` across and down for square pixels, from its resolution
    tag (``info["dpi"]``: TIFF/PNG/JPEG). A fine-mode fax is 204 × 98 dpi — every pixel twice as tall as
    wide; a viewer shows it stretched back, OCR read it squashed (half an e-mail address went unread)."""
    dpi = (getattr(image, "info", None) or {}).get("dpi")
    if not isinstance(dpi, (tuple, list)) or len(dpi) != 2:
        return 1.0, 1.0
    try:
        xd, yd = float(dpi[0]), float(dpi[1])
    except (TypeError, ValueError):
        return 1.0, 1.0
    if not (xd > 0 and yd > 0 and math.isfinite(xd) and math.isfinite(yd)):
        return 1.0, 1.0
    r = xd / yd
    if not (1 / MAX_PIXEL_ASPECT <= r <= MAX_PIXEL_ASPECT) or 1 / PIXEL_ASPECT_TOLERANCE <= r <= PIXEL_ASPECT_TOLERANCE:
        return 1.0, 1.0
    return (1.0, r) if r > 1 else (1 / r, 1.0)


def _squared(image, sx: float, sy: float):
    from PIL import Image
    w, h = image.size
    nw, nh = max(1, round(w * sx)), max(1, round(h * sy))
    if nw * nh > MAX_OCR_PIXELS:
        return None
    src = image.convert("L") if image.mode in ("1", "P") else image
    out = src.resize((nw, nh), Image.LANCZOS)
    out.info.pop("dpi", None)         # square now (a copied tag would stretch it again)
    return out


def ocr_image(image, *, progress: Callable[[], bool] | None = None, views: bool = True,
              colour=None, flatten: bool = False) -> OcrPage:
    """OCR one page image (a PIL image). ``progress()`` returning True cancels (``OcrCancelled``).
    ``views``: parts of the page holding a colour stamp, dot-matrix print or comb boxes are read again in
    a view made for them (:func:`read_views`); pictures' own readings (``pictures.ocr_readings``) ask for
    them once, not in each of their readings. ``colour``: the page in its colours for those views, when
    ``image`` is a grey copy of it (default: ``image`` itself). Pixels that are not square (its resolution
    tag: :func:`pixel_stretch`) are read stretched square, as a viewer shows them; boxes come back in the
    image's own pixels. ``flatten``: a page read unsurely whose paper level varies strongly (a photo under
    uneven light) is read divided by its paper level too (:func:`_flattened`; for images opened as
    documents: pictures inside documents have readings of their own for that, ``pictures.ocr_readings``)."""
    sx, sy = pixel_stretch(image)
    if (sx, sy) != (1.0, 1.0):
        view = _squared(image, sx, sy)
        if view is not None:
            page = ocr_image(view, progress=progress, views=views,
                             colour=None if colour is None else _squared(colour, sx, sy), flatten=flatten)
            w, h = image.size

            def back(b):
                return None if b is None else (b[0] / sx, b[1] / sy, b[2] / sx, b[3] / sy)

            return dataclasses.replace(
                page, boxes=[back(b) for b in page.boxes], width=w, height=h,
                line_heights=[v / sy for v in page.line_heights],
                disputes=tuple((back(b), n) for b, n in page.disputes))
    return _ocr_image(image, progress=progress, views=views, colour=colour, flatten=flatten)


def _ocr_image(image, *, progress: Callable[[], bool] | None = None, views: bool = True,
               colour=None, flatten: bool = False) -> OcrPage:
    from PIL import Image

    src_w, src_h = image.size
    plain, factor = _scaled_gray(image)
    gray = _positive(plain)
    api = _api()

    def cancelled() -> None:
        if (progress is not None and progress()) or _cancel_requested():
            raise OcrCancelled()

    page = _ocr_gray(api, gray, factor, src_w, src_h, cancelled)
    heights = sorted(h * factor for h in page.line_heights if h > 0)
    small_print = page.words >= UPSCALE_MIN_WORDS and bool(heights) and heights[len(heights) // 2] < UPSCALE_BELOW_PX
    if small_print and page.confidence < UPSCALE_BELOW_CONF and gray.width * gray.height * 4 <= MAX_OCR_PIXELS:
        # a poor reading of a small page (a 100 dpi fax, small print): read it again at twice the size
        cancelled()
        big = gray.resize((gray.width * 2, gray.height * 2), Image.LANCZOS)
        again = _ocr_gray(api, big, factor * 2, src_w, src_h, cancelled)
        if again.confidence > page.confidence + 5:
            page = again
    positive = gray is plain
    screen = False
    if flatten and page.confidence < FLAT_BELOW_CONF:
        # a photo under uneven light (a label on a cardboard box, a page in a lamp's cone): the global
        # binarisation loses the print on the shaded side. Read the page divided by its paper level
        # too; the reading with clearly more sure letters wins. A dim photo taken for a negative (a phone
        # photo of a screen: grey paper under 110 with black type, vignetted corners) is flattened as it
        # is too, not only inverted; a photo of a screen (its sub-pixel stripes: ``_screen_period``) is
        # read low-passed at the stripes' period as well. Of the views with enough sure letters, the one
        # with the most sure letters times its mean confidence wins (an LCD photo flattened: 39 letters at
        # conf 70 with the header's garbage; low-passed too: 38 at conf 90, every value whole)
        need, best, score = FLAT_BETTER * _sure_letters(page) + 3, None, 0.0
        for base in ([gray] if positive else [gray, plain]):
            views_, found = _flat_views(base)
            screen = screen or found
            for view in views_:
                cancelled()
                again = _ocr_gray(api, view, factor, src_w, src_h, cancelled)
                n = _sure_letters(again)
                if n >= need and n * again.confidence > score:
                    best, score = (again, view), n * again.confidence
        if best is not None:
            page, gray, positive = best[0], best[1], False
    if views:
        page = read_views(api, (image if colour is None else colour) if positive else None, gray, factor,
                          page, cancelled)
    if screen and page.confidence < SCREEN_HOLD_CONF:
        # a photo of a screen none of whose readings is sure: what it shows is not known (default deny);
        # its unsure letters are disputed, which holds the page (``OcrPage.readable``)
        unsure = sum(1 for k, ch in enumerate(page.text) if ch.isalnum()
                     and (k >= len(page.confidences) or page.confidences[k] < VIEW_CONFIDENCE))
        page = dataclasses.replace(page, disputed=page.disputed + max(unsure, VIEW_MAX_DISPUTED + 1))
    return page


#: a page read with less mean confidence than this whose paper level (``_paper_level``) spans at least
#: FLAT_MIN_SPREAD grey levels (5th to 95th percentile: a scan's paper spans under 20) is read again divided
#: by its paper level; that reading is kept when it has FLAT_BETTER times the sure letters (and 3 more)
FLAT_BELOW_CONF = 85.0
FLAT_MIN_SPREAD = 60
FLAT_BETTER = 1.2


def _flattened(gray):
    """``gray`` divided by its paper level (paper white, print as dark as it is against the paper beside it),
    or None when the paper level is even (spans under :data:`FLAT_MIN_SPREAD` levels)."""
    import numpy as np
    from PIL import Image

    a = np.asarray(gray)
    if min(a.shape) < 32:
        return None
    paper = _paper_level(a)
    lo, hi = np.percentile(paper[::4, ::4], (5, 95))
    if hi - lo < FLAT_MIN_SPREAD:
        return None
    return Image.fromarray(np.clip(a.astype(np.float32) * 255.0 / np.maximum(paper, 1.0), 0, 255).astype(np.uint8))


def _flat_views(gray) -> tuple[list, bool]:
    """``(views, screen)``: the flattened views of ``gray`` to read (:func:`_flattened`): none on even paper;
    on a photo of a screen (:func:`_screen_period`: ``screen``) the page low-passed at the stripes' period
    and flattened, then as it is."""
    from PIL import ImageFilter

    flat = _flattened(gray)
    if flat is None:
        return [], False
    period = _screen_period(flat)
    if period is None:
        return [flat], False
    soft = _flattened(gray.filter(ImageFilter.GaussianBlur(period * SCREEN_SIGMA)))
    return [v for v in (soft, flat) if v is not None], True


#: a photo of a screen: in the paper of its flattened page (well away from ink), the column or row profile of
#: what a Gaussian blur (radius 2) takes out has SCREEN_SHARE of its power in periods 2-10 px within two bins of
#: one period, at least SCREEN_MIN_RMS grey levels strong, that is not JPEG's 8 × 8 grid (4 or 8 px). Paper
#: scanned or photographed has grain, not a period (shares 0.04-0.14 on red teams 6-7's scans; an LCD photo's
#: stripes 0.24 at 5 px). The page is then blurred with sigma SCREEN_SIGMA × the period before flattening.
SCREEN_SHARE = 0.2
SCREEN_MIN_RMS = 0.5
SCREEN_SIGMA = 0.4
#: a photo of a screen whose kept reading has less mean confidence than this is held for review
SCREEN_HOLD_CONF = 60.0


def _screen_period(flat) -> float | None:
    """The period (px) of a screen's sub-pixel stripes or moiré in the flattened grey page ``flat``, or None."""
    import numpy as np
    from PIL import ImageFilter

    from . import ink

    a = np.asarray(flat, dtype=np.float32)
    if min(a.shape) < 64:
        return None
    near = ink.dilate(ink.dilate(ink.dilate(a < 150)))
    ok = ~near
    r = np.where(ok, a - np.asarray(flat.filter(ImageFilter.GaussianBlur(2)), dtype=np.float32), 0)
    found = None
    for ax in (0, 1):
        n = ok.sum(ax)
        prof = (r.sum(ax) / np.maximum(n, 1))[n > 0.2 * ok.shape[ax]]
        if len(prof) < 64:
            continue
        prof = prof - prof.mean()
        f = np.abs(np.fft.rfft(prof * np.hanning(len(prof)))) ** 2
        fr = np.fft.rfftfreq(len(prof))
        band = (fr >= 0.1) & (fr <= 0.5)
        total = float(f[band].sum())
        if total <= 0:
            continue
        i = int(np.argmax(np.where(band, f, 0)))
        share = float(f[max(i - 2, 0):i + 3].sum()) / total
        period = 1.0 / float(fr[i])
        rms = float(np.sqrt((prof ** 2).mean()))
        if share >= SCREEN_SHARE and rms >= SCREEN_MIN_RMS and min(abs(period - 4), abs(period - 8)) > 0.3:
            found = max(found or 0.0, period)
    return found


def _sure_letters(page: OcrPage) -> int:
    """Letters and digits ``page`` read with :data:`VIEW_CONFIDENCE` or more."""
    confs = page.confidences
    return sum(1 for k, ch in enumerate(page.text) if ch.isalnum() and k < len(confs) and confs[k] >= VIEW_CONFIDENCE)


def ocr_plain(image, *, psm: int = PSM_SPARSE, local_threshold: bool = False) -> OcrPage:
    """One Tesseract reading of ``image`` as it is (grey, no deskew, despeckle, rule removal, inversion or
    second look) in page segmentation mode ``psm``. For pictures, a view beside :func:`ocr_image`'s: a
    photographed business card on a dark desk is taken for a negative page and its desk for rules there,
    and reads as nothing; read as it is in sparse mode it reads whole. ``local_threshold``: binarised by
    Sauvola's local threshold (black type on a photo's sky gradient, which the global one loses)."""
    if _cancel_requested():
        raise OcrCancelled()
    gray, factor = _scaled_gray(image)
    symbols, conf = _recognise(_api(psm, local_threshold), gray)
    return _page(symbols, conf, image.width, image.height, factor, 0, 0.0, extra=0)


#: a page read with less mean confidence than this, whose lines (median) are under UPSCALE_BELOW_PX high and
#: that gave at least UPSCALE_MIN_WORDS words (small print, not a photo), is read again at twice its size
UPSCALE_BELOW_CONF = 65.0
UPSCALE_BELOW_PX = 24.0
UPSCALE_MIN_WORDS = 5


def _ocr_gray(api, gray, factor: float, src_w: int, src_h: int, cancelled: Callable[[], None]) -> OcrPage:
    """``ocr_image`` of the grey page ``gray`` (the source scaled by ``factor``)."""
    symbols, conf, rotation, skew, extra = _read_gray(api, gray, cancelled)
    symbols = _join_bars(symbols)
    return _page(symbols, conf, src_w, src_h, factor, rotation, skew, extra=extra)


def _read_gray(api, gray, cancelled: Callable[[], None], again: bool = True) -> tuple[list, float, int, float, int]:
    """(symbols with boxes in ``gray`` pixels, mean confidence, rotation, skew, symbols added by the second
    look) of the grey page ``gray``.

    Text set at an angle on an upright page also disturbs the upright reading (Tesseract finds the lines of
    the whole page at once: upright lines came out split and merged around a 30° line). When the second look
    read a block at an angle, the page is read once more (``again``) with that block's ink painted out, and
    that reading, with the angled blocks' symbols added, is kept when it is at least as confident."""
    import numpy as np
    from PIL import Image

    skew = estimate_skew(gray)
    cancelled()
    rotation = 0
    view = clean(_rotate(gray, skew))
    symbols, conf = _recognise(api, view)
    if conf < ORIENTATION_RETRY_CONF:
        # compare the orientations on a reduced copy (cheap), then read the winner at full size
        small = gray.resize((max(1, gray.width // 2), max(1, gray.height // 2)), Image.BILINEAR)
        scores = {}
        for rot in (0, 90, 180, 270):
            cancelled()
            sk = estimate_skew(_rotate(small, rot))
            _, c = _recognise(api, clean(_rotate(_rotate(small, rot), sk)))
            scores[rot] = c
        best = max(scores, key=lambda k: (scores[k], -k))
        if best != 0 and scores[best] > scores[0] + 5:
            rotation = best
            rotated = _rotate(gray, rotation)
            skew = estimate_skew(rotated)
            cancelled()
            view = clean(_rotate(rotated, skew))
            symbols, conf = _recognise(api, view)
    cancelled()
    symbols = _reread_lines(api, view, symbols)

    # map boxes back: deskewed -> rotated -> the (scaled) grey image; ``factor`` is undone at the end
    back = _back(gray.size, rotation, skew)
    placed = [(ch, _map_box(box, back), space, line, para, line_h, c)
              for ch, box, space, line, para, line_h, c in symbols]
    # a page read without confidence stays *needs review* as a whole; a second look adds nothing there
    extra, dropped, (angled, angled_syms) = _second_look(api, gray, placed, cancelled) \
        if conf >= MIN_PAGE_CONFIDENCE else ([], set(), (None, []))
    kept = [p for k, p in enumerate(placed) if k not in dropped]
    if angled is not None and again:
        from . import ink

        cancelled()
        a = np.array(gray)
        a[ink.dilate(ink.dilate(angled))] = ink.background(a)
        syms2, conf2, rot2, skew2, extra2 = _read_gray(api, Image.fromarray(a), cancelled, again=False)
        if conf2 >= conf:
            return syms2 + angled_syms, conf2, rot2, skew2, extra2 + len(angled_syms)
    return kept + extra, conf, rotation, skew, len(extra)


#: a line whose reading holds a bar, or a lone Latin letter beside Hangul or digits (``O| 1``: a Korean name read in English by the
#: page's language context) is read again on its own; the new reading replaces it when it is more confident
_SUSPECT_LINE = re.compile(r"[|¦]|(?<![A-Za-z])[A-Za-z](?![A-Za-z]).*[0-9가-힣]|[0-9가-힣].*(?<![A-Za-z])[A-Za-z](?![A-Za-z])")


def _reread_lines(api, view, symbols: list) -> list:
    """``symbols`` with suspect lines (``_SUSPECT_LINE``) replaced by a reading of the line alone."""
    lines: list[list] = []
    for sym in symbols:
        if sym[3] or not lines:
            lines.append([])
        lines[-1].append(sym)
    out: list = []
    for line in lines:
        text = "".join(("" if not k or not sym[2] else " ") + sym[0] for k, sym in enumerate(line))
        if not _SUSPECT_LINE.search(text):
            out.extend(line)
            continue
        x0 = min(sym[1][0] for sym in line)
        y0 = min(sym[1][1] for sym in line)
        x1 = max(sym[1][2] for sym in line)
        y1 = max(sym[1][3] for sym in line)
        m = max(4, int(0.3 * (y1 - y0)))
        box = (max(0, x0 - m), max(0, y0 - m), min(view.width, x1 + m), min(view.height, y1 + m))
        syms, _ = _recognise(api, view.crop(box))
        old_conf = sum(sym[6] for sym in line) / len(line)
        new_conf = sum(sym[6] for sym in syms) / len(syms) if syms else 0.0
        new_text = "".join(sym[0] for sym in syms)
        if syms and new_conf >= old_conf - 5 and not _SUSPECT_LINE.search(new_text) \
                and _texty(syms) >= _texty(line):
            first = line[0]
            for k, (ch, (a, b, c, d), space, start, para, lh, conf) in enumerate(syms):
                out.append((ch, (a + box[0], b + box[1], c + box[0], d + box[1]), space if k else first[2],
                            k == 0, first[4] if k == 0 else False, first[5], conf))
        else:
            out.extend(line)
    return out


def _back(size: tuple[int, int], rotation: int, skew: float) -> Callable[[float, float], tuple[float, float]]:
    """Maps a point of the reading frame (``_rotate(_rotate(gray, rotation), skew)``) back to ``gray``
    (of ``size``)."""
    rot_size = size if rotation in (0, 180) else (size[1], size[0])

    def back(px: float, py: float) -> tuple[float, float]:
        x, y = _inverse((px, py), rot_size, skew) if skew else (px, py)
        if rotation:
            x, y = _inverse((x, y), size, rotation)
        return x, y

    return back


def _map_box(box, back) -> Box:
    x0, y0, x1, y1 = box
    corners = [back(x0, y0), back(x1, y0), back(x0, y1), back(x1, y1)]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return (min(xs), min(ys), max(xs), max(ys))


def _page(symbols: list, conf: float, src_w: int, src_h: int, factor: float, rotation: int, skew: float,
          extra: int = 0) -> OcrPage:
    """The ``OcrPage`` of ``symbols`` (boxes in the grey image scaled by ``factor``)."""
    text: list[str] = []
    boxes: list[Box | None] = []
    heights: list[float] = []
    confs: list[float] = []
    words = 0
    for ch, (x0, y0, x1, y1), space, line, para, line_h, sconf in symbols:
        if text:
            if para:
                sep = "\n"
            elif line:
                sep = " "          # lines of one paragraph read as one sentence
            elif space:
                sep = " "
            else:
                sep = ""
            for s in sep:
                text.append(s)
                boxes.append(None)
                heights.append(0.0)
                confs.append(100.0)
        if space or line or not text:
            words += 1
        box = (max(0.0, x0 / factor), max(0.0, y0 / factor), min(float(src_w), x1 / factor),
               min(float(src_h), y1 / factor))
        ch = unicodedata.normalize("NFC", ch)
        # a symbol may hold more than one code point (rare): every one gets the symbol's box
        for c in ch:
            text.append(c)
            boxes.append(box)
            heights.append(line_h / factor)
            confs.append(sconf)
    joined = "".join(text)
    return OcrPage(text=joined, boxes=boxes, confidence=conf if words else 0.0, width=src_w, height=src_h,
                   rotation=rotation, skew=skew, words=words, line_heights=heights, second_look=extra,
                   confidences=confs)


#: second look (``_second_look``): unexplained ink of at least this many pixels per 1,000 × 1,000 is read again
SECOND_LOOK_MIN_PX = 150
#: ... and what a second reading adds must have at least this mean confidence and this many letters/digits
SECOND_LOOK_MIN_CONF = 70.0
SECOND_LOOK_MIN_TEXTY = 3
#: a second reading replaces the first reading's symbols under it when this much more confident
SECOND_LOOK_BETTER = 15.0
#: the second look takes the line height as at most this many times the median letter's height
LINE_MAX_GLYPHS = 1.5
#: a block is read again only when at least this share of its ink is unexplained
SECOND_LOOK_MIN_SHARE = 0.15
#: unexplained ink over this share of the page is a photo or a noise field: no second look
SECOND_LOOK_MAX_SHARE = 0.2


def _texty(symbols: list) -> int:
    return sum(1 for ch, *_ in symbols if any(c.isalnum() for c in ch))


def _inside(box: Box, boxes: list, pad: float) -> bool:
    cx, cy = (box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0
    return any(b[0] - pad <= cx <= b[2] + pad and b[1] - pad <= cy <= b[3] + pad for b in boxes)


def _words(placed: list) -> list[list[int]]:
    """Indices of ``placed`` grouped by word (a symbol that starts a word or a line starts a new one)."""
    out: list[list[int]] = []
    for k, sym in enumerate(placed):
        if not out or sym[2] or sym[3]:
            out.append([])
        out[-1].append(k)
    return out


def _stacked(placed: list, words: list[list[int]], line_h: float) -> set[int]:
    """Symbols of narrow words stacked one under another in a column (three or more): the signature of
    turned text read upright (``oe) ™ Ne) …`` off a margin note), whatever confidence Tesseract gives it."""
    boxes = [_union([placed[k][1] for k in w]) for w in words]
    out: set[int] = set()
    n = len(words)
    for i in range(n):
        col = [i]
        for j in range(i + 1, n):
            a, b = boxes[col[-1]], boxes[j]
            if b[1] < a[1]:
                continue
            ov = min(a[2], b[2]) - max(a[0], b[0])
            narrow = min(a[2] - a[0], b[2] - b[0])
            if ov > 0.5 * narrow and b[1] >= a[3] - 0.2 * line_h and b[1] - a[3] < line_h:
                col.append(j)
        if len(col) >= 3 and all(boxes[c][2] - boxes[c][0] < 2.0 * line_h for c in col):
            for c in col:
                out.update(words[c])
    return out


def _second_look(api, gray, placed: list, cancelled: Callable[[], None]) -> tuple[list, set[int]]:
    """Read the ink the first reading did not explain (``ink.residue``, grown to the block of ink it
    touches and split into blocks: ``ink.regions``) again, each block on its own, contrast stretched
    (light-grey text, text on a dark bar that Otsu binarisation drops); a tall block also turned 90° and
    270° (margin notes), the most confident reading winning. Explained means: under a word of the first
    reading that is not part of a turned-text stack (``_stacked``); a word's confidence is no guide (garbage
    read off turned text scored 22-89, real words of a degraded page as low).

    Returns (new symbols, boxes in ``gray`` pixels, each reading its own paragraph; indices of ``placed``
    they replace; (the ink of the blocks read at an angle other than the 90° steps, or None; the symbols
    read there)). A reading counts with ``SECOND_LOOK_MIN_CONF`` mean confidence and
    ``SECOND_LOOK_MIN_TEXTY`` letters/digits; it replaces the first reading's symbols under it only when it
    is ``SECOND_LOOK_BETTER`` points more confident than they are, else only its symbols outside them are
    added."""
    import numpy as np
    from PIL import Image, ImageOps

    from . import ink

    a = np.asarray(gray)
    heights = sorted(s[5] for s in placed if s[5] > 0)
    line_h = heights[len(heights) // 2] if heights else 20.0
    glyphs = sorted(s[1][3] - s[1][1] for s in placed if any(c.isalnum() for c in s[0]))
    if glyphs and glyphs[len(glyphs) // 2] > 0:
        # lines of a confused layout (upright lines merged around a slanted one) are several lines high:
        # the letters' own height bounds the line height (1.0-1.2 of it on the benchmark pages)
        line_h = min(line_h, LINE_MAX_GLYPHS * glyphs[len(glyphs) // 2])
    pad = max(PAD_MIN_PX, 0.25 * line_h)
    words = _words(placed)
    # the page's ink and its rules, computed once: the residue, its blocks and the dark bars all use them
    inked = ink.ink_mask(a)
    rules = ink.rule_mask(inked, fast=True) if inked.any() else np.zeros_like(inked)
    slanted, slant_blocks = _slanted(placed, words, line_h, inked & ~rules)
    turned = _stacked(placed, words, line_h) | slanted
    explained = [s[1] for k, s in enumerate(placed) if k not in turned]
    min_px = max(40, int(SECOND_LOOK_MIN_PX * a.size / 1e6))
    found: list = []
    dropped: set[int] = set()
    angled, angled_syms = None, []
    res = ink.residue(a, explained, pad, speckle=True, mask=inked, rules=rules)
    # nothing left, or a photo / noise field rather than text: no block is read again
    blocks = ink.regions(res, inked, reach=max(4.0, 0.6 * line_h)) \
        if min_px <= int(res.sum()) <= SECOND_LOOK_MAX_SHARE * a.size else []
    if slant_blocks:
        # the slanted blocks are read whatever the residue holds of them (its despeckling takes the one-pixel
        # strokes of a fax), and not a second time as part of a block of the residue
        taken = np.zeros_like(inked)
        for (sx0, sy0, sx1, sy1), m in slant_blocks:
            taken[sy0:sy1, sx0:sx1] |= m
        blocks = slant_blocks + [(b, m) for b, m in blocks if not (m & taken[b[1]:b[3], b[0]:b[2]]).any()]
    bg = ink.background(a)
    for n_block, ((rx0, ry0, rx1, ry1), region) in enumerate(blocks):
        left = int((region & res[ry0:ry1, rx0:rx1]).sum())
        if n_block >= len(slant_blocks) and (left < min_px // 2 or left < SECOND_LOOK_MIN_SHARE * int(region.sum())):
            continue    # a few specks beside words already read (noise, a stray stroke): not worth a reading
        cancelled()
        # the block's box (block-aligned, so it has a margin) with its marks (and a 2 px fringe:
        # anti-aliasing) kept; everything else becomes background
        bx0, by0, bx1, by1 = ink.bbox(region, margin=int(2 * pad) + 4)   # clamped to the block's box
        x0, y0, x1, y1 = rx0 + bx0, ry0 + by0, rx0 + bx1, ry0 + by1
        crop = a[y0:y1, x0:x1].copy()
        crop[~ink.dilate(ink.dilate(region[by0:by1, bx0:bx1]))] = bg
        img = Image.fromarray(crop)
        if bg < 128:
            img = ImageOps.invert(img)          # light text on a dark ground: make it dark on light
        img = ImageOps.autocontrast(img, cutoff=1)
        best = None
        rots = [0, 90, 270] if (y1 - y0) >= 1.5 * (x1 - x0) else [0]
        slant = _block_angle(img)
        if min(abs(slant), abs(abs(slant) - 90)) > MAX_SKEW_DEG:
            rots += [slant, slant + 180]        # a line set at an angle (a slanted stamp, a 30° note), or
            #                                     the same upside down: the more confident reading wins
        for rot in rots:
            syms, conf = _recognise(api, _rotate(img, rot))
            if conf >= SECOND_LOOK_MIN_CONF and _texty(syms) >= SECOND_LOOK_MIN_TEXTY \
                    and (best is None or conf > best[2]):
                best = (rot, syms, conf)
        if best is None:
            continue
        rot, syms, conf = best
        size = img.size

        def back(px: float, py: float, rot=rot, size=size, ox=x0, oy=y0) -> tuple[float, float]:
            x, y = _inverse((px, py), size, rot) if rot else (px, py)
            return x + ox, y + oy

        new = [(ch, _map_box(box, back), space, line, para, lh, c) for ch, box, space, line, para, lh, c in syms]
        new_boxes = [t[1] for t in new]
        under = [k for k, p in enumerate(placed) if k not in dropped and _inside(p[1], new_boxes, pad)]
        # what the first reading made of turned or slanted text is garbage however confident: replaced
        dropped.update(k for k in under if k in turned)
        under = [k for k in under if k not in turned]
        old_conf = sum(placed[k][6] for k in under) / len(under) if under else 0.0
        if under and conf >= old_conf + SECOND_LOOK_BETTER:
            dropped.update(under)              # the first reading of this block was garbage: replaced
        else:
            old_boxes = [placed[k][1] for k in under]
            new = [t for t in new if not _inside(t[1], old_boxes, pad)]
        if _texty(new) < SECOND_LOOK_MIN_TEXTY:
            continue
        new[0] = new[0][:4] + (True,) + new[0][5:]
        found.extend(new)
        if rot % 90:                            # read at an angle: its ink and symbols, for ``_ocr_gray``
            if angled is None:
                angled = np.zeros_like(inked)
            angled[y0:y1, x0:x1] |= region[by0:by1, bx0:bx1]
            angled_syms.extend(new)
    found.extend(_dark_bars(api, a, inked & rules, placed + found, line_h, pad, cancelled))
    return found, dropped, (angled, angled_syms)


#: a solid area darker than this (mean grey) is taken out with the rules before the first reading (``clean``
#: paints ink under 160 on long runs white), with any text on it: such areas are read again on their own
DARK_BAR_MEAN = 160


def _block_angle(img) -> float:
    """The angle (degrees, counter-clockwise, in (-90, 90]) that makes a block's text lines horizontal: the
    projection-profile search of ``estimate_skew`` over every direction, coarse (5°) then fine (0.5°), on a
    copy of the block at most ``BLOCK_ANGLE_PX`` pixels on its longer side (ink kept by a max-pool, so the
    one-pixel strokes of a fax stay). Text at any angle between the 90° steps is found, and the upside-down
    reading of that angle is ``angle + 180``."""
    import numpy as np
    from PIL import Image

    from .ink import pool as ink_pool

    mask = np.asarray(img) < 160
    if not mask.any():
        return 0.0
    k = -(-max(mask.shape) // BLOCK_ANGLE_PX)
    if k > 1:
        h, w = mask.shape
        p = np.zeros((-(-h // k) * k, -(-w // k) * k), dtype=bool)
        p[:h, :w] = mask
        mask = ink_pool(p, k)
    ink = Image.fromarray(mask.astype(np.uint8) * 255)

    def score(angle: float) -> float:
        rot = ink.rotate(angle, resample=Image.NEAREST, expand=True, fillcolor=0)
        return float(np.square(np.diff(np.asarray(rot, dtype=np.float32).sum(axis=1))).sum())

    best = max(range(-85, 91, 5), key=lambda a: (score(a), -abs(a)))
    fine = [best + d / 2.0 for d in range(-5, 6)]
    angle = max(fine, key=lambda a: (score(a), -abs(a)))
    return angle - 180 if angle > 90 else angle + 180 if angle <= -90 else angle


#: ``_block_angle`` looks at a block at most this many pixels on its longer side
BLOCK_ANGLE_PX = 400


def _slanted(placed: list, words: list[list[int]], line_h: float, marks) -> tuple[set[int], list]:
    """Symbols read off text set at an angle (a line written at 30°, a slanted stamp): read upright, such a
    line gives garbage whose boxes cover its ink, so the ink looks explained and the block is never read at
    its own angle. A block of ink (``ink.regions`` of ``marks``, the page's ink off the rules) is slanted
    when at least ``SLANT_MIN_SHARE`` of its ink lies under weakly read words (word confidence under
    ``SLANT_SUSPECT_CONF``), it is at least ``SLANT_MIN_LINES`` line heights long, and its lines run at an
    angle (``_block_angle`` beyond ``MAX_SKEW_DEG`` of the 90° steps). Returns the symbols on the ink of
    such blocks, and the blocks (as ``ink.regions`` gives them). A page without weakly read words costs
    nothing here."""
    import numpy as np

    from . import ink

    weak = [w for w in words if placed[w[0]][6] < SLANT_SUSPECT_CONF]
    if not weak:
        return set(), []
    h, w = marks.shape
    seed = np.zeros_like(marks)
    for word in weak:
        x0, y0, x1, y1 = _union([placed[k][1] for k in word])
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(w, int(math.ceil(x1))), min(h, int(math.ceil(y1)))
        seed[y0:y1, x0:x1] = marks[y0:y1, x0:x1]
    if not seed.any():
        return set(), []
    out: set[int] = set()
    blocks = []
    for (bx0, by0, bx1, by1), region in ink.regions(seed, marks, reach=max(4.0, 0.6 * line_h),
                                                     limit=SLANT_MAX_BLOCKS):
        if max(bx1 - bx0, by1 - by0) < SLANT_MIN_LINES * line_h:
            continue
        total = int(region.sum())
        if int((region & seed[by0:by1, bx0:bx1]).sum()) < SLANT_MIN_SHARE * total:
            continue
        angle = _block_angle(_mask_image(region))
        if min(abs(angle), abs(abs(angle) - 90)) <= MAX_SKEW_DEG:
            continue                                    # upright (or turned 90°: ``_stacked``'s case)
        blocks.append(((bx0, by0, bx1, by1), region))
        for k, sym in enumerate(placed):
            x0, y0, x1, y1 = sym[1]
            x0, y0 = max(bx0, int(x0)), max(by0, int(y0))
            x1, y1 = min(bx1, int(math.ceil(x1))), min(by1, int(math.ceil(y1)))
            if x0 < x1 and y0 < y1 and region[y0 - by0:y1 - by0, x0 - bx0:x1 - bx0].any():
                out.add(k)
    return out, blocks


def _mask_image(mask):
    """A mask as a grey image: black ink on white."""
    import numpy as np
    from PIL import Image

    return Image.fromarray(np.where(mask, 0, 255).astype(np.uint8))


#: ``_slanted``: words read with less confidence than this are suspects ...
SLANT_SUSPECT_CONF = 70.0
#: ... a block at least this share of whose ink they cover, ...
SLANT_MIN_SHARE = 0.5
#: ... at least this many line heights long, ...
SLANT_MIN_LINES = 4.0
#: ... of at most this many blocks (the largest) is checked for an angle
SLANT_MAX_BLOCKS = 6


#: ``_dark_bars``: an area whose fill (median grey) is at least this light, with ink darker than the fill by
#: ``ink.INK_CONTRAST`` on at least this share of its pixels, is also read cut below its fill (a translucent
#: marker band over text, black type on a mid-grey bar)
BAND_MIN_FILL = 60
BAND_MIN_TEXT = 0.03


def _dark_bars(api, a, solid, placed: list, line_h: float, pad: float, cancelled: Callable[[], None]) -> list:
    """Text on dark solid areas (a white-on-navy title bar, a black box with a white phone number, black
    on a blue band): the rule step takes a filled area for drawing and paints it out with its text, so the
    first reading never sees it. Each solid area at least a line high and two wide, darker than
    ``DARK_BAR_MEAN`` on average, is read again on its own, its text made dark on light; symbols kept as
    in ``_second_look``. ``solid``: the page's ink on rules (``ink.ink_mask`` and ``ink.rule_mask(fast=True)``
    of ``a``, as ``_second_look`` computed them)."""
    import numpy as np
    from PIL import Image, ImageOps

    from . import ink

    if not solid.any():
        return []
    found: list = []
    for (x0, y0, x1, y1), m in ink.regions(solid, solid, reach=max(2.0, 0.2 * line_h), limit=12):
        if y1 - y0 < 0.8 * line_h or x1 - x0 < 2 * line_h or m.mean() < 0.5:
            continue          # a rule, a grid, a thin frame: not an area that can hold a line of text
        bx0, by0, bx1, by1 = ink.bbox(m)              # the area itself, not its block-aligned box
        m = m[by0:by1, bx0:bx1]
        x0, y0, x1, y1 = x0 + bx0, y0 + by0, x0 + bx1, y0 + by1
        crop = a[y0:y1, x0:x1].copy()
        if float(crop.mean()) >= DARK_BAR_MEAN:
            continue          # a light fill: the rule step left it, and its text, to the first reading
        cancelled()
        # the text is the minority of the area's pixels: lighter than the fill (white on navy) or darker
        # (black on blue); make it dark on light either way
        med = float(np.median(crop[m]))
        lighter = int((crop > med + ink.INK_CONTRAST).sum())
        darker = int((crop < med - ink.INK_CONTRAST).sum())
        img = Image.fromarray(crop)
        img = ImageOps.autocontrast(ImageOps.invert(img) if lighter >= darker else img, cutoff=1)
        syms, conf = _recognise(api, img)
        if med >= BAND_MIN_FILL and darker and darker >= BAND_MIN_TEXT * int(m.sum()):
            # a translucent band (a felt marker drawn over the digits, black type on a mid-grey fill): the
            # paper around the band's strokes is lighter than the fill and outnumbers the text, so the area
            # was read inverted (garbage); its text is the ink darker than the fill itself. Read too with
            # the band and everything lighter made paper: a cut halfway between the fill and the text
            dark = float(np.percentile(crop[crop < med - ink.INK_CONTRAST], 10))
            cut = (med + dark) / 2.0
            syms2, conf2 = _recognise(api, Image.fromarray(np.where(crop < cut, 0, 255).astype(np.uint8)))
            if _texty(syms2) >= SECOND_LOOK_MIN_TEXTY and (conf2 > conf or _texty(syms) < SECOND_LOOK_MIN_TEXTY):
                syms, conf = syms2, conf2
        if conf < SECOND_LOOK_MIN_CONF or _texty(syms) < SECOND_LOOK_MIN_TEXTY:
            continue
        new = [(ch, (b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0), space, line, para, lh, c)
               for ch, b, space, line, para, lh, c in syms]
        new = [t for t in new if not any(w[0] == t[0] and _inside(t[1], [w[1]], pad) for w in placed)]
        if _texty(new) < SECOND_LOOK_MIN_TEXTY:
            continue
        new[0] = new[0][:4] + (True,) + new[0][5:]
        found.extend(new)
    return found


# -- extra views: colour stamps, dot-matrix print, comb boxes (issue 26, class 4) -----------------------------
# The page reading reads the page's grey levels as they are. Three kinds of print defeat it: a red seal
# (직인) stamped over a black name (the seal's strokes cross the name's: the line comes out as garbage, the
# label beside it misread), a dot-matrix printout (letters made of separate dots) and comb boxes (one ruled
# box per digit: the rulings' JPEG fringe and the wide spacing split the digits into fragments no detector
# reads as one number). For each a cheap test on the pixels says whether the page holds it, and only then
# are the lines it covers read again in a view made for it; what a view reads surely that the page reading
# did not becomes part of the page's text (its whole line: the label travels with the value), with its
# boxes, so detection sees it and masking burns its pixels; what a view reads unsurely there, where the page
# reading is not sure of anything either, is disputed and holds the page (``OcrPage.readable``).

#: colour ink: a pixel whose channels differ by at least this many levels (a red seal 180, its anti-aliased
#: edge 90; grey paper, black type and JPEG colour noise stay under 30)
COLOUR_CHROMA = 60
#: the colour views are read when the page holds at least this many colour-ink pixels per 1,000 × 1,000, and
#: at most this share of colour (more is a photo or coloured paper, not ink stamped on a page)
COLOUR_MIN_PX = 300
COLOUR_MAX_SHARE = 0.2
#: dot-matrix print, one of two signs per cell (a line height square): at least DOT_SHARE of its ink lies on
#: runs shorter than DOT_RUN line heights both across and down (dots standing apart: a stroke of type is
#: long one way or the other), or background runs of at most a sixteenth of the line height (the holes
#: between dots that touch) make up DOT_GAPS of its ink both across and down (small type has them across,
#: between letters, hardly ever down as well); at least DOT_MIN_PAIRS pairs of such cells side by side (a
#: line of print, not a stray mark)
DOT_RUN = 0.25
DOT_SHARE = 0.8
DOT_GAPS = 0.1
DOT_MIN_PAIRS = 3
#: comb boxes: between two horizontal rules, at least COMB_MIN_CELLS cells (a name takes three) divided by
#: rulings that span the whole height, each at most COMB_MAX_ASPECT times as wide as high (one character
#: each; a table's cells are wider)
COMB_MIN_CELLS = 3
COMB_MAX_ASPECT = 2.0
#: a view's word the page reading did not read is added when read with this confidence ...
VIEW_CONFIDENCE = 70.0
#: ... and the page needs review when views read more than this many letters/digits unsurely (in the shape
#: of a value: two Hangul syllables, three digits) where the page reading read nothing surely
VIEW_MAX_DISPUTED = 2
#: colour blocks read on their own (a seal, a stamp): at most this many, each at most this share of the page
SEAL_MAX_BLOCKS = 4
SEAL_MAX_SHARE = 0.25


def read_views(api, image, gray, factor: float, page: OcrPage, cancelled: Callable[[], None]) -> OcrPage:
    """``page`` (the reading of ``gray``, the page scaled by ``factor``) with what the views the page needs
    read merged in (:func:`_merge_views`); ``image``: the page in its own colours (None: a negative page,
    read inverted, or no colour to go by). Views (each read only where its test fires):

    - ``colour``: colour ink painted paper and each other pixel as light as its lightest channel (a colour
      scanner's drop-out: red, blue and green ink go, black stays), read on the lines of colour ink — the
      black text under and beside a seal;
    - ``seal``: the colour ink alone, dark on white, each block of it (a seal) read on its own;
    - ``dots``: where the ink is dot-matrix print (:func:`_dot_cells`, looked for off the words the page
      reading read surely), the page blurred by half the dots' spacing and thresholded, so the dots join into
      strokes;
    - ``comb``: each row of comb boxes (:func:`_comb_rows`) read as its cells' contents set side by side
      (:func:`_read_combs`), so the digits of neighbouring boxes are one number.

    The tests cost a few array passes per page (tens of milliseconds at 300 dpi); a view costs a reading of
    the lines it covers."""
    import numpy as np

    a = np.asarray(gray)
    if a.size == 0 or min(a.shape) < 16:
        return page
    line_h = _view_line_height(page, factor, a.shape)
    todo: list[tuple[str, Any, Any, Any]] = []
    if image is not None:
        todo += _colour_views(image, gray.size, line_h)
    todo += _dot_views(a, line_h, _sure_boxes(page, factor))
    todo += _comb_views(gray, page, line_h)
    todo += _faint_views(a, line_h, _sure_boxes(page, factor))
    if not todo:
        return page
    found = []
    for name, view, region, how in todo:
        cancelled()
        found.append((region, _read_view(api, view, region, page, gray.size, line_h, how)))
    merged = _merge_views(page, found, factor)
    return dataclasses.replace(merged, views=page.views + tuple(n for n, *_ in todo))


def _sure_boxes(page: OcrPage, factor: float) -> list[Box]:
    """Boxes (in the pixels of the page scaled by ``factor``) of the words ``page`` read with
    :data:`VIEW_CONFIDENCE` or more."""
    from .pictures import _word_runs

    confs = page.confidences
    return [(x0 * factor, y0 * factor, x1 * factor, y1 * factor) for a, b, (x0, y0, x1, y1) in _word_runs(page)
            if min(confs[a:b] or [0.0]) >= VIEW_CONFIDENCE]


def _view_line_height(page: OcrPage, factor: float, shape: tuple[int, int]) -> float:
    """The page's median line height in ``gray`` pixels (1/60 of its height when nothing was read)."""
    hs = sorted(h * factor for h in page.line_heights if h > 0)
    return max(8.0, hs[len(hs) // 2] if hs else shape[0] / 60.0)


def _cells(mask, c: int):
    """Per ``c`` × ``c`` cell of ``mask``: the number of set pixels (the last row/column of cells partial)."""
    import numpy as np

    h, w = mask.shape
    p = np.zeros((-(-h // c) * c, -(-w // c) * c), dtype=np.int32)
    p[:h, :w] = mask
    return p.reshape(p.shape[0] // c, c, p.shape[1] // c, c).sum(axis=(1, 3))


def _from_cells(cells, c: int, shape: tuple[int, int], grow: int = 0):
    """A pixel mask of ``shape`` from a cell mask (cells of ``c`` pixels), grown by ``grow`` cells first."""
    import numpy as np

    from . import ink

    m = cells.astype(bool)
    for _ in range(grow):
        m = ink.dilate(m)
    return np.repeat(np.repeat(m, c, axis=0), c, axis=1)[:shape[0], :shape[1]]


def _rgb(image):
    """``image`` as RGB on white, or None when it has no colour to go by (grey modes)."""
    from PIL import Image

    img = eight_bit(image)
    if img.mode in ("1", "L", "LA", "I", "I;16", "F"):
        return None
    if "A" in img.getbands() or img.mode == "P":
        rgba = img.convert("RGBA")
        bg = Image.new("RGB", img.size, (255, 255, 255))
        bg.paste(rgba, mask=rgba.getchannel("A"))
        return bg
    return img.convert("RGB")


def _colour_views(image, size: tuple[int, int], line_h: float) -> list:
    """The ``colour`` and ``seal`` views when the page holds colour ink (:data:`COLOUR_CHROMA`,
    :data:`COLOUR_MIN_PX`, :data:`COLOUR_MAX_SHARE`); none for a grey page."""
    import numpy as np
    from PIL import Image

    rgb = _rgb(image)
    if rgb is None:
        return []
    if rgb.size != size:
        rgb = rgb.resize(size, Image.BILINEAR)
    a = np.asarray(rgb)
    hi = a.max(axis=2)
    chroma = hi.astype(np.int16) - a.min(axis=2)
    colour = chroma >= COLOUR_CHROMA
    n = int(np.count_nonzero(colour))
    if n < max(60, COLOUR_MIN_PX * colour.size / 1e6) or n > COLOUR_MAX_SHARE * colour.size:
        return []
    # the lines under the colour ink and beside it: half a line above and below, three lines either side
    c = max(4, int(line_h / 2))
    cells = _cells(colour, c) > 0
    tall = cells.copy()
    tall[1:] |= cells[:-1]
    tall[:-1] |= cells[1:]
    near = tall.copy()
    for k in range(1, 7):
        near[:, k:] |= tall[:, :-k]
        near[:, :-k] |= tall[:, k:]
    near = _from_cells(near, c, colour.shape)
    # colour ink as paper (black under it stays: multiplied, it is black), the rest as light as its lightest
    # channel (a pale pink fringe is paper too)
    dropped = Image.fromarray(np.where(chroma >= COLOUR_CHROMA // 2, 255, hi).astype(np.uint8))
    alone = Image.fromarray(np.clip(255 - 3 * (chroma - 20), 0, 255).astype(np.uint8))
    return [("colour", dropped, near, None), ("seal", alone, colour, "blocks")]


def _dot_cells(a, line_h: float, sure: list | None = None):
    """``(cells, c)``: the cells (``c`` pixels square, about a line height) of grey page ``a`` that hold
    dot-matrix print (:data:`DOT_RUN`, :data:`DOT_SHARE`, :data:`DOT_GAPS`) beside another such cell;
    None when fewer than :data:`DOT_MIN_PAIRS` pairs of them do. ``sure``: boxes (``a``'s pixels) of the
    words the page reading read surely; only the rows of cells holding ink outside them are looked at
    (print the page reading read surely needs no other view; a clean page costs two array passes)."""
    import numpy as np

    from . import ink

    m = a < 160
    c = max(8, int(line_h) // 2 * 2)
    inked = _cells(m[::2, ::2], c // 2) >= 0.03 * c * c / 4     # every other pixel: a quarter of the work
    todo = inked.copy()
    for x0, y0, x1, y1 in sure or ():
        # cells whose middle a surely read word covers
        cx0, cy0 = int(math.ceil(x0 / c - 0.5)), int(math.ceil(y0 / c - 0.5))
        cx1, cy1 = int(math.floor(x1 / c - 0.5)) + 1, int(math.floor(y1 / c - 0.5)) + 1
        if cx0 < cx1 and cy0 < cy1:
            todo[max(0, cy0):cy1, max(0, cx0):cx1] = False
    rows = np.flatnonzero(todo.any(axis=1))
    if rows.size == 0:
        return None
    cells = np.zeros_like(inked)
    run = max(4, int(DOT_RUN * line_h))
    gap = max(2, round(line_h / 16))
    for r0, r1 in _spans(rows):                        # bands of cell rows, each checked on its own
        band = m[r0 * c:(r1 + 1) * c]
        if not band.any():
            continue
        short = band & ~ink._runs(band, run) & ~ink._runs(band.T, run).T
        bg = ~band
        across = _cells(bg & ~ink._runs(bg, gap + 1), c)
        down = _cells(bg & ~ink._runs(bg.T, gap + 1).T, c)
        n = _cells(band, c)
        cells[r0:r1 + 1] = (n >= 0.03 * c * c) & ((_cells(short, c) >= DOT_SHARE * n)
                                               | ((across >= DOT_GAPS * n) & (down >= DOT_GAPS * n)))
    pairs = cells[:, 1:] & cells[:, :-1]
    if int(pairs.sum()) < DOT_MIN_PAIRS:
        return None
    paired = np.zeros_like(cells)
    paired[:, 1:] |= pairs
    paired[:, :-1] |= pairs
    return paired, c


def _spans(values, gap: int = 1) -> list[tuple[int, int]]:
    """Runs of the sorted integers ``values`` in which each follows the last within ``gap`` (1:
    consecutive), as ``(first, last)``."""
    out: list[tuple[int, int]] = []
    for v in values:
        v = int(v)
        if out and v <= out[-1][1] + gap:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out


def _dot_pitch(a, most: int) -> int:
    """The spacing (pixels) of the dots of dot-matrix print ``a`` (grey): the lag, up to ``most``, at which
    its darkness best repeats across and down (autocorrelation: the most prominent peak, or where it stops
    falling when the dots touch and it has none)."""
    import numpy as np

    d = 255.0 - a.astype(np.float64)
    d -= d.mean()
    most = max(3, min(most, min(d.shape) // 2))
    corr = np.zeros(most + 1)
    for x in (d, d.T):
        den = float((x * x).sum()) or 1.0
        corr[1:] += [float((x[:, :-k] * x[:, k:]).sum()) / den for k in range(1, most + 1)]
    best, prominence = 0, 0.05 * 2
    for k in range(2, most):
        if corr[k] >= corr[k - 1] and corr[k] >= corr[k + 1] and corr[k] - corr[1:k].min() > prominence:
            best, prominence = k, corr[k] - corr[1:k].min()
    if best:
        return best
    for k in range(2, most + 1):
        if corr[k] >= corr[k - 1] - 0.02:
            while k < most and corr[k + 1] >= corr[k]:
                k += 1
            return k
    return most


def _dot_views(a, line_h: float, sure: list | None = None) -> list:
    """The ``dots`` view when the page holds dot-matrix print (:func:`_dot_cells`): there, the page blurred
    by half the dots' spacing (:func:`_dot_pitch`) and thresholded halfway between its darkest and the
    paper, so the dots merge into strokes of even width."""
    import numpy as np
    from PIL import Image, ImageFilter

    from . import ink

    found = _dot_cells(a, line_h, sure)
    if found is None:
        return []
    cells, c = found
    region = _from_cells(cells, c, a.shape, grow=1)
    x0, y0, x1, y1 = ink.bbox(region)
    pitch = _dot_pitch(a[y0:y1, x0:x1], max(4, int(line_h / 3)))
    m = int(2 * pitch)
    x0, y0 = max(0, x0 - m), max(0, y0 - m)
    x1, y1 = min(a.shape[1], x1 + m), min(a.shape[0], y1 + m)
    blurred = np.asarray(Image.fromarray(np.ascontiguousarray(a[y0:y1, x0:x1]))
                         .filter(ImageFilter.GaussianBlur(0.5 * pitch)))
    paper = ink.background(a)
    level = (int(blurred.min()) + paper) // 2
    joined = np.where(blurred < level, 0, 255).astype(np.uint8)
    view = a.copy()
    sub = region[y0:y1, x0:x1]
    view[y0:y1, x0:x1][sub] = joined[sub]
    return [("dots", Image.fromarray(view), region, None)]


#: faint ink (a back side bleeding through a thin sheet, mirrored; a faded pencil note): a pixel at most
#: FAINT_RATIO of the local paper level (the page divided by its background: ``_paper_level``) and not within
#: FAINT_GROW pixels of ink darker than FAINT_STRONG of it (the type of the page and its anti-aliased fringe);
#: the view is read when at least FAINT_MIN_CHARS characters' worth of it (a fifth of a line height squared
#: each) lies off the words the page reading read surely, and at most FAINT_MAX_SHARE of the page (more is a
#: photo's shading, not ink)
FAINT_RATIO = 0.94
FAINT_STRONG = 0.6
FAINT_GROW = 3
FAINT_MIN_CHARS = 6
FAINT_MAX_SHARE = 0.1
#: ... each of at most FAINT_MAX_BLOCKS blocks read as it is and mirrored: the mirrored reading is kept when
#: this much more confident (real text read mirrored scored 0-64 where read the right way round scored 74-96)
FAINT_MAX_BLOCKS = 8
FAINT_MIRROR_BETTER = 15.0


def _paper_level(a, k: int = 4):
    """The paper's grey level around each pixel of grey page ``a``: the page reduced ``k`` times, its
    lightest pixel within 5 (ink removed), blurred and scaled back (float32, ``a``'s shape)."""
    import numpy as np
    from PIL import Image, ImageFilter

    h, w = a.shape
    small = np.asarray(Image.fromarray(a).reduce(k))
    for axis in (0, 1):                  # a 5 × 5 maximum, separably (Pillow's rank filter sorts: 5× slower)
        p = np.pad(small, [(2, 2) if d == axis else (0, 0) for d in (0, 1)], mode="edge")
        n = small.shape[axis]
        small = np.max([p[j:j + n] if axis == 0 else p[:, j:j + n] for j in range(5)], axis=0)
    small = Image.fromarray(np.ascontiguousarray(small)).filter(ImageFilter.GaussianBlur(2))
    return np.asarray(small.resize((w, h), Image.BILINEAR), dtype=np.float32)


def _faint_views(a, line_h: float, sure: list | None = None) -> list:
    """The ``faint`` view when the page holds faint ink off its own type and off what the page reading read
    surely (:data:`FAINT_RATIO` ...), in cells a line height square at least a tenth faint (scattered
    specks are noise): the page with its strong ink painted its paper level, each block of the faint ink
    read as it is and mirrored (``_read_blocks``). A page over 4 M pixels (300 dpi A4 is 8.7 M) is tested on
    a half-size copy; a page without such ink costs a background estimate and a few array passes."""
    import numpy as np
    from PIL import Image

    from . import ink

    k = 2 if a.size > 4_000_000 else 1
    s = np.asarray(Image.fromarray(a).reduce(k)) if k > 1 else a
    paper = _paper_level(s, 4 // k)
    ratio = s.astype(np.float32) / np.maximum(paper, 1.0)
    strong = ratio < FAINT_STRONG
    for _ in range(max(1, FAINT_GROW // k)):
        strong = ink.dilate(strong)
    faint = (ratio < FAINT_RATIO) & ~strong
    lh = line_h / k
    need = FAINT_MIN_CHARS * 0.2 * lh * lh
    if faint.sum() < need:
        return []
    for x0, y0, x1, y1 in sure or []:
        faint[max(0, int(y0 / k)):max(0, int(math.ceil(y1 / k))),
              max(0, int(x0 / k)):max(0, int(math.ceil(x1 / k)))] = False
    if faint.sum() < need:
        return []
    c = max(4, int(lh))
    faint &= _from_cells(_cells(faint, c) >= 0.1 * c * c, c, faint.shape)
    if faint.sum() < need:
        return []
    faint &= ~ink.rule_mask(faint, fast=True)           # a photo's edges, a grey frame: drawing, not text
    n = int(faint.sum())
    if n < need or n > FAINT_MAX_SHARE * faint.size:
        return []
    if k > 1:
        h, w = a.shape

        def up(m):
            return np.repeat(np.repeat(m, k, axis=0), k, axis=1)[:h, :w]

        pad = ((0, max(0, h - k * s.shape[0])), (0, max(0, w - k * s.shape[1])))
        faint, strong = np.pad(up(faint), pad), np.pad(up(strong), pad)
        paper = np.pad(up(paper), pad, mode="edge")
    view = np.where(strong, paper, a).astype(np.uint8)
    return [("faint", Image.fromarray(view), faint, "faint")]


def _comb_rows(a, line_h: float, length: int | None = None) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """Comb boxes of grey page ``a``: ``(top, bottom, cells)`` for each pair of horizontal rules with at least
    :data:`COMB_MIN_CELLS` cells between them (``(x0, x1)``: the columns inside the dividers, rulings that
    span the whole height; none wider than :data:`COMB_MAX_ASPECT` heights); ``top``/``bottom``: the first
    and last row between the two rules. ``length``: the shortest horizontal rule (default: the rule length
    of ``ink.rule_mask``)."""
    import numpy as np

    from . import ink

    m = a < 160
    h, w = m.shape
    if length is None:
        length = max(ink.MIN_RULE_PX, w // 25)
    horiz = ink._runs(m, length)
    rows = np.flatnonzero(horiz.any(axis=1))
    if rows.size < 2:
        return []
    lines = _spans(rows)                         # (first row, last row) of each horizontal rule
    out = []
    for (t0, t1), (b0, b1) in zip(lines, lines[1:]):
        d = b0 - t1 - 1
        if d < 8 or d > 4 * line_h + 8:
            continue
        both = horiz[t0:t1 + 1].any(axis=0) & horiz[b0:b1 + 1].any(axis=0)
        if int(both.sum()) < COMB_MIN_CELLS * d // 2:
            continue
        span = m[t1 + 1:b0].mean(axis=0) >= 0.9      # columns inked the whole height: the dividers
        span &= both | np.concatenate(([False], both[:-1])) | np.concatenate((both[1:], [False]))
        xs = np.flatnonzero(span)
        if xs.size < 2:
            continue
        dividers = _spans(xs, gap=2)             # (first, last) column of each divider
        cells = [(l1 + 1, r0) for (_, l1), (r0, _) in zip(dividers, dividers[1:])
                 if 0.3 * d <= r0 - l1 - 1 <= COMB_MAX_ASPECT * d and both[l1 + 1:r0].mean() > 0.9]
        if len(cells) >= COMB_MIN_CELLS:
            out.append((t1 + 1, b0 - 1, cells))
    return out


def _comb_views(gray, page: OcrPage, line_h: float) -> list:
    """The ``comb`` view when the page, turned as its reading turned it, holds comb boxes (:func:`_comb_rows`):
    each comb row read as a strip of its cells' contents set side by side (:func:`_read_combs`)."""
    import numpy as np
    from PIL import Image

    from . import ink

    if min(gray.size) >= 2 * COMB_HALF_SIDE or page.skew:
        # looked for first on a half-size copy turned the cheap way (nearest pixels): the page is turned in
        # full only when it holds some
        small = gray.resize((max(1, gray.width // 2), max(1, gray.height // 2)), Image.NEAREST)
        small = _rotate(small, page.rotation)
        if page.skew:
            small = small.rotate(page.skew, resample=Image.NEAREST, expand=True, fillcolor=255)
        if not _comb_rows(np.asarray(small), line_h / 2, max(ink.MIN_RULE_PX, gray.width // 25) // 2):
            return []
    rv = _rotate(_rotate(gray, page.rotation), page.skew)
    a = np.asarray(rv)
    combs = _comb_rows(a, line_h)
    if not combs:
        return []
    back = _back(gray.size, page.rotation, page.skew)
    region = np.zeros((gray.height, gray.width), dtype=bool)
    for top, bottom, cells in combs:
        x0 = max(0, cells[0][0] - COMB_LABEL * (bottom - top))
        gx0, gy0, gx1, gy1 = _map_box((x0, top, cells[-1][1], bottom), back)
        region[max(0, int(gy0)):int(math.ceil(gy1)) + 1, max(0, int(gx0)):int(math.ceil(gx1)) + 1] = True
    return [("comb", a, region, ("combs", combs, back))]


#: a comb row's label is looked for up to this many row heights left of its first cell
COMB_LABEL = 6
#: pages whose shorter side is at least twice this (pixels), or that were deskewed, are first looked at in half
COMB_HALF_SIDE = 500


def _read_combs(api, a, combs: list, back) -> list:
    """Symbols (boxes in ``gray`` pixels through ``back``) of each comb row of ``a`` (the page in its reading
    frame): the contents of its cells, of the gaps between them (a hyphen) and of what stands left of the
    first cell (its label), each cut to its ink with the rulings' remains (lines across a whole piece, the
    fringe lighter than ink) painted paper, set side by side a narrow gap apart and read as one line
    (:func:`_strip`; the label on its own), label first. Tesseract reads ``950822-2419075`` there, where
    the boxes spread the same digits a box apart and the rulings between them split them into fragments."""
    import numpy as np

    out = []
    for top, bottom, cells in combs:
        d = bottom - top + 1
        inset = max(2, int(0.05 * d))                  # the rulings' anti-aliased edge
        y0, y1 = top + inset, bottom + 1 - inset
        if y1 - y0 < 6:
            continue
        spans: list[tuple[int, int, int]] = []       # (x0, x1, 0 for the label / 1) in page pixels
        label0 = max(0, cells[0][0] - COMB_LABEL * d)
        spans.append((label0, cells[0][0] - 2 * inset, 0))
        prev = None
        for x0, x1 in cells:
            if prev is not None and x0 - prev > 0.3 * d:
                spans.append((prev + 2 * inset, x0 - 2 * inset, 1))    # between two combs: a hyphen
            spans.append((x0 + inset, x1 - inset, 1))
            prev = x1
        gap = max(3, int(0.12 * (y1 - y0)))
        pieces = []                                    # (page x0, array, 0 for the label / 1)
        for x0, x1, before in spans:
            if x1 - x0 < 2:
                continue
            sub = a[y0:y1, x0:x1].copy()
            inked = sub < 160
            sub[:, inked.mean(axis=0) >= 0.9] = 255    # a divider's remains
            sub[inked.mean(axis=1) >= 0.9, :] = 255    # a rule's remains
            sub[sub >= 160] = 255
            cols = np.flatnonzero((sub < 160).any(axis=0))
            if cols.size == 0:
                continue
            c0, c1 = max(0, int(cols[0]) - 2), min(sub.shape[1], int(cols[-1]) + 3)
            pieces.append((x0 + c0, sub[:, c0:c1], before))
        label = [pc for pc in pieces if pc[2] == 0]
        digits = [pc for pc in pieces if pc[2]]
        if len(digits) < 2:
            continue
        # the label read on its own: set beside type of another size it reads worse
        row = _strip(api, label, y0, y1, gap) if label else []
        more = _strip(api, digits, y0, y1, gap)
        if row and more:
            more[0] = more[0][:2] + (True, False, False) + more[0][5:]
        for k, (ch, box, space, line, para, lh, c) in enumerate(row + more):
            out.append((ch, _map_box(box, back), space, line or k == 0, para or k == 0, lh, c))
    return _join_bars(out)


def _strip(api, pieces: list, y0: int, y1: int, gap: int) -> list:
    """Symbols of ``pieces`` (``(page x0, grey array of rows y0..y1, _)``) set side by side ``gap`` pixels
    apart and read as one line; boxes mapped back to the page (each symbol through the piece it lies on)."""
    import numpy as np
    from PIL import Image

    h = y1 - y0
    strip = np.full((h + 2 * gap, gap + sum(p.shape[1] + gap for _, p, _ in pieces)), 255, dtype=np.uint8)
    where = []                                     # (strip x0, strip x1, page x0)
    x = gap
    for px0, p, _ in pieces:
        strip[gap:gap + h, x:x + p.shape[1]] = p
        where.append((x, x + p.shape[1], px0))
        x += p.shape[1] + gap
    syms, _ = _recognise(api, Image.fromarray(strip))

    def page_x(sx: float, cx: float) -> float:
        for s0, s1, px0 in where:
            if s0 - gap <= cx < s1 + gap:
                return px0 + min(max(sx, s0), s1) - s0
        return where[-1][2] + where[-1][1] - where[-1][0] if cx >= where[-1][1] else where[0][2]

    out = []
    for ch, (bx0, by0, bx1, by1), space, line, para, lh, c in syms:
        cx = (bx0 + bx1) / 2.0
        out.append((ch, (page_x(bx0, cx), by0 - gap + y0, page_x(bx1, cx), by1 - gap + y0), space, line, para,
                    lh, c))
    return out


def _read_view(api, view, region, page: OcrPage, size: tuple[int, int], line_h: float, how) -> list:
    """Symbols (boxes in ``gray`` pixels, as ``_recognise`` gives them) of ``view`` (grey, ``gray``'s
    size) read in the page reading's frame (its rotation and deskew), in full-width bands of the rows of
    ``region`` (the block reading, or the sparse one where it is surer: :func:`_band_score`); ``how``:
    ``"blocks"`` — each block of ``region`` read on its own instead (:func:`_read_blocks`); ``("combs",
    rows, back)`` — comb rows read as strips (:func:`_read_combs`; ``view`` is the page in its reading
    frame)."""
    import numpy as np
    from PIL import Image

    if how == "blocks":
        return _read_blocks(api, view, region, page.rotation, line_h, size)
    if how == "faint":
        return _read_blocks(api, view, region, page.rotation, line_h, size, mirrored=True)
    if how is not None and how[0] == "combs":
        return _read_combs(api, view, how[1], how[2])
    rotation, skew = page.rotation, page.skew
    rv, rm = view, region
    if rotation or skew:
        rv = _rotate(_rotate(view, rotation), skew)
        mask = Image.fromarray(np.where(region, 0, 255).astype(np.uint8))
        rm = np.asarray(_rotate(_rotate(mask, rotation), skew)) < 128
    rows = np.flatnonzero(rm.any(axis=1))
    if rows.size == 0:
        return []
    margin = int(0.6 * line_h) + 4
    bands: list[list[int]] = []
    for r in rows:
        r = int(r)
        if bands and r - bands[-1][1] <= line_h:
            bands[-1][1] = r
        else:
            bands.append([r, r])
    # each band's edges moved off the lines above and below to the nearest blank row (a line cut through
    # garbles the band's reading), at most a line height further
    inked = (np.asarray(rv) < 160).any(axis=1)
    reach = int(line_h) + 1

    def blank(r: int, step: int, stop: int) -> int:
        for k in range(reach):
            if r == stop or not inked[r]:
                return r
            r += step
        return r

    bands = [[blank(max(0, b0 - margin), -1, 0), blank(min(rv.height - 1, b1 + margin), 1, rv.height - 1) + 1]
             for b0, b1 in bands]
    if sum(b1 - b0 for b0, b1 in bands) > 0.6 * rv.height:
        bands = [[0, rv.height]]
    back = _back(size, rotation, skew)
    out = []
    for b0, b1 in bands:
        crop = clean(rv.crop((0, b0, rv.width, b1)))
        syms, _ = _recognise(api, crop)
        score = _band_score(syms, rm[b0:b1])
        if score < VIEW_CONFIDENCE:
            # a label and its value far apart, in type of other sizes (dot-matrix digits beside a typed
            # label): the block reading garbles one of them, the sparse reading reads each on its own
            again = _rows(_recognise(_api(PSM_SPARSE), crop)[0])
            if _band_score(again, rm[b0:b1]) > score:
                syms = again
        for ch, (x0, y0, x1, y1), space, line, para, lh, c in syms:
            out.append((ch, _map_box((x0, y0 + b0, x1, y1 + b0), back), space, line, para, lh, c))
    return _join_bars(out)


def _band_score(symbols: list, region) -> float:
    """The lowest word confidence of ``symbols`` (boxes in the pixels of ``region``, a mask) among the words of
    two letters/digits or more on ``region``; 100 when there are none."""
    h, w = region.shape
    confs = []
    for idx in _words(symbols):
        if sum(1 for k in idx for c in symbols[k][0] if c.isalnum()) < 2:
            continue
        x0, y0, x1, y1 = _union([symbols[k][1] for k in idx])
        x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), min(w, int(math.ceil(x1))), min(h, int(math.ceil(y1)))
        if x0 < x1 and y0 < y1 and region[y0:y1, x0:x1].any():
            confs.append(min(symbols[k][6] for k in idx))
    return min(confs) if confs else 100.0


def _rows(symbols: list) -> list:
    """``symbols`` as Tesseract's sparse mode reads them (each run of text a line of its own: a label and its
    value two lines) regrouped into rows: runs whose middles lie within half a run's height of each other
    are one line, left to right, so that the label travels with its value."""
    chunks: list[list] = []
    for sym in symbols:
        if sym[3] or not chunks:
            chunks.append([])
        chunks[-1].append(sym)
    boxes = [_union([sym[1] for sym in ch]) for ch in chunks]
    order = sorted(range(len(chunks)), key=lambda k: ((boxes[k][1] + boxes[k][3]) / 2, boxes[k][0]))
    rows: list[list[int]] = []
    for k in order:
        mid = (boxes[k][1] + boxes[k][3]) / 2
        if rows:
            first = boxes[rows[-1][0]]
            if abs(mid - (first[1] + first[3]) / 2) <= 0.5 * max(1.0, first[3] - first[1]):
                rows[-1].append(k)
                continue
        rows.append([k])
    out = []
    for row in rows:
        for n, k in enumerate(sorted(row, key=lambda k: boxes[k][0])):
            for i, (ch, box, space, line, para, lh, c) in enumerate(chunks[k]):
                start = i == 0
                out.append((ch, box, space or (start and n > 0), start and n == 0, start and n == 0, lh, c))
    return out


def _read_blocks(api, view, region, rotation: int, line_h: float, size: tuple[int, int],
                 mirrored: bool = False) -> list:
    """Symbols (boxes in ``gray`` pixels) of each block of ``region`` (a seal, a stamp: ``ink.regions``, at
    most :data:`SEAL_MAX_BLOCKS`, none over :data:`SEAL_MAX_SHARE` of the page) read on its own in ``view``,
    turned as the page reading turned the page. ``mirrored`` (the faint view: a back side showing through
    reads mirrored): each block (at most :data:`FAINT_MAX_BLOCKS`) contrast stretched and read flipped left
    to right too, that reading kept (boxes flipped back) when :data:`FAINT_MIRROR_BETTER` points more
    confident than the one as it is."""
    from PIL import Image, ImageOps

    from . import ink

    out = []
    area = size[0] * size[1]
    for (rx0, ry0, rx1, ry1), m in ink.regions(region, region, reach=max(4.0, 0.6 * line_h),
                                               limit=FAINT_MAX_BLOCKS if mirrored else SEAL_MAX_BLOCKS):
        if (rx1 - rx0) * (ry1 - ry0) > SEAL_MAX_SHARE * area or max(rx1 - rx0, ry1 - ry0) < 0.8 * line_h:
            continue
        pad = int(0.3 * line_h) + 4
        x0, y0 = max(0, rx0 - pad), max(0, ry0 - pad)
        x1, y1 = min(size[0], rx1 + pad), min(size[1], ry1 + pad)
        crop = _rotate(view.crop((x0, y0, x1, y1)), rotation)
        flip = False
        if mirrored:
            crop = ImageOps.autocontrast(crop, cutoff=1)
            syms, conf = _recognise(api, crop)
            syms2, conf2 = _recognise(api, crop.transpose(Image.FLIP_LEFT_RIGHT))
            if conf2 >= conf + FAINT_MIRROR_BETTER and _texty(syms2) >= SECOND_LOOK_MIN_TEXTY:
                syms, flip = syms2, True
        else:
            syms, _ = _recognise(api, crop)

        def back(px: float, py: float, w=x1 - x0, h=y1 - y0, ox=x0, oy=y0, cw=crop.width,
                 flip=flip) -> tuple[float, float]:
            if flip:
                px = cw - px
            x, y = _inverse((px, py), (w, h), rotation) if rotation else (px, py)
            return x + ox, y + oy

        out += [(ch, _map_box(box, back), space, line, para, lh, c) for ch, box, space, line, para, lh, c in syms]
    return out


#: a run of single digits between bars (``|9|5|0|8|``, ``2|2-2|4``): the rulings between comb boxes read as ``|``
_BARRED = re.compile(r"(?<![\d|¦])[|¦]*\d(?:[|¦-]+\d(?!\d))+[|¦]*")


def _join_bars(symbols: list) -> list:
    """``symbols`` with the bars dropped from every run of at least three single digits between at least two
    bars (:data:`_BARRED`) on a line, its digits one word (the run's first symbol's spacing and line start
    carried to its first digit). Anything else is left as read."""
    out: list = []
    lines: list[list] = []
    for sym in symbols:
        if sym[3] or not lines:
            lines.append([])
        lines[-1].append(sym)
    for line in lines:
        chars = "".join(sym[0] if len(sym[0]) == 1 else "\x00" for sym in line)
        first: dict[int, tuple] = {}           # index of a run's first kept symbol -> the run's first symbol
        drop: set[int] = set()
        glue: set[int] = set()
        for m in _BARRED.finditer(chars):
            part = m.group(0)
            if sum(ch.isdigit() for ch in part) < 3 or sum(ch in "|¦" for ch in part) < 2:
                continue
            keep = [k for k in range(m.start(), m.end()) if chars[k] not in "|¦"]
            drop.update(k for k in range(m.start(), m.end()) if chars[k] in "|¦")
            glue.update(keep[1:])
            first[keep[0]] = line[m.start()]
        for k, sym in enumerate(line):
            if k in drop:
                continue
            if k in first:
                sym = sym[:2] + first[k][2:5] + sym[5:]
            elif k in glue:
                sym = sym[:2] + (False,) + sym[3:]
            out.append(sym)
    return out


def _merge_views(page: OcrPage, found: list, factor: float) -> OcrPage:
    """``page`` with the views' readings merged in. ``found``: ``(region, symbols)`` per view (region and
    boxes in ``gray`` pixels, the page scaled by ``factor``). A word a view read inside its region (two
    letters/digits at least) that no word the page reading read there holds is *new*: read with
    :data:`VIEW_CONFIDENCE`, the view's whole line (its label with it) is appended to the text on a line of
    its own, with boxes and confidences; read less surely, in a value's shape (``pictures.value_shaped``'s
    Hangul pair or three digits, legible in its box), and where neither the page reading nor another view is
    sure of a word, its letters are *disputed* (``OcrPage.disputed``)."""
    from .pictures import _DISPUTABLE, _TEXTY, _covered, _squash, _word_runs, legible_box

    n = len(page.text)
    confs = list(page.confidences) + [100.0] * (n - len(page.confidences))
    mine = [(box, _squash(page.text[a:b]), min(confs[a:b] or [0.0])) for a, b, box in _word_runs(page)]
    # what the page reading is sure of: words of two letters/digits or more (a lone ``@`` or ``8`` read off
    # a box's ruling proves nothing about the ink beside it)
    surely = [box for box, t, c in mine if c >= VIEW_CONFIDENCE and len(_TEXTY.findall(t)) >= 2]
    views = []                                    # per view line: [(word indices, source box, squashed, conf)]
    for region, syms in found:
        h, w = region.shape
        lines: list[list] = []
        for sym in syms:
            if sym[3] or not lines:
                lines.append([])
            lines[-1].append(sym)
        for line in lines:
            words = []
            for idx in _words(line):
                gx0, gy0, gx1, gy1 = _union([line[k][1] for k in idx])
                x0, y0 = max(0, int(gx0)), max(0, int(gy0))
                x1, y1 = min(w, int(math.ceil(gx1)) + 1), min(h, int(math.ceil(gy1)) + 1)
                inside = x0 < x1 and y0 < y1 and bool(region[y0:y1, x0:x1].any())
                box = (gx0 / factor, gy0 / factor, gx1 / factor, gy1 / factor)
                sq = _squash("".join(line[k][0] for k in idx))
                words.append((idx, box, sq, min(line[k][6] for k in idx), inside))
            views.append((line, words))
    sure = surely + [box for _, words in views for _, box, sq, c, inside in words
                     if inside and c >= VIEW_CONFIDENCE and len(_TEXTY.findall(sq)) >= 2]
    text, boxes = page.text, list(page.boxes)
    heights = list(page.line_heights) + [0.0] * (n - len(page.line_heights))
    added_words = 0
    disputes: list[tuple[Box, int]] = []
    seen: list[tuple[Box, str]] = []
    for line, words in views:
        new = False
        for idx, box, sq, c, inside in words:
            if not inside or len(_TEXTY.findall(sq)) < 2:
                continue
            pad = 0.25 * max(1.0, box[3] - box[1])
            under = [t for bx, t, _ in mine if _covered(bx, [box], pad) or _covered(box, [bx], pad)]
            if any(sq in t for t in under):
                continue                          # the page reading read the same word there (read as
                #                                   pieces — ``8703 14-1 53 8`` — it is no value to detection)
            if c >= VIEW_CONFIDENCE:
                if not any(sq == t and _covered(box, [bx], pad) for bx, t in seen):
                    seen.append((box, sq))
                    new = True
            elif (_DISPUTABLE.search(sq) and legible_box(box, sq)
                  and not any(_covered(box, [sb], pad) or _covered(sb, [box], pad) for sb in sure)):
                disputes.append((box, len(_TEXTY.findall(sq))))
        if not new:
            continue
        for k, (ch, (x0, y0, x1, y1), space, start, _para, lh, c) in enumerate(line):
            sep = ("\n" if text and not text.endswith("\n") else "") if k == 0 else (" " if space else "")
            for s in sep:
                text += s
                boxes.append(None)
                confs.append(100.0)
                heights.append(0.0)
            if k == 0 or space:
                added_words += 1
            box = (max(0.0, x0 / factor), max(0.0, y0 / factor), min(float(page.width), x1 / factor),
                   min(float(page.height), y1 / factor))
            for ch1 in unicodedata.normalize("NFC", ch):
                text += ch1
                boxes.append(box)
                confs.append(c)
                heights.append(lh / factor)
    if not added_words and not disputes:
        return page
    return dataclasses.replace(page, text=text, boxes=boxes, confidences=confs, line_heights=heights,
                               words=page.words + added_words,
                               disputed=page.disputed + sum(n for _, n in disputes),
                               disputes=page.disputes + tuple(disputes))



class OcrCancelled(DocumentError):
    """Raised inside ``ocr_image``/readers when a progress callback asked to stop (a ``DocumentError``, so
    every caller shows it as a message)."""

    def __init__(self, message: str = "Reading the scanned pages (OCR) was cancelled; nothing was opened.") -> None:
        super().__init__(message)


# -- burning and checking --------------------------------------------------------------------------------
def boxes_for(page: OcrPage, ranges: Iterable[tuple[int, int]]) -> list[Box]:
    """Padded source-pixel boxes covering ``page.text[a:b]`` for each range (one box per character run on
    a line, so a span wrapped over two lines gets two boxes)."""
    return [_pad(box, line_h, page) for box, _n, line_h in _runs(page, ranges)]


#: a word touching a masked value (or one space away on its line) read with less confidence than this is
#: burned with it: a value's misread tail (``010-1234-56 7ㅂ``) is part of the value more often than not
NEAR_LOW_CONF = 60.0
#: fitting a burn box to the pixels: glyph runs up to this fraction of the line height away are the same word
FIT_GAP = 0.4


def _widen(page: OcrPage, ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ranges`` grown over a weakly read neighbouring word on the same line (``NEAR_LOW_CONF``)."""
    text, confs = page.text, page.confidences
    if len(confs) != len(text):
        return list(ranges)

    def weak(i: int, j: int) -> bool:
        return j > i and sum(confs[i:j]) / (j - i) < NEAR_LOW_CONF

    out = []
    for a, b in ranges:
        j = a - 1 if a > 0 and text[a - 1] == " " else a     # one space before the value, not a line break
        k = j
        while k > 0 and not text[k - 1].isspace():
            k -= 1
        if weak(k, j):
            a = k
        j = b + 1 if b < len(text) and text[b] == " " else b
        k = j
        while k < len(text) and not text[k].isspace():
            k += 1
        if weak(j, k):
            b = k
        out.append((a, b))
    return out


def _fit(a, box: Box, n: int, line_h: float) -> Box:
    """``box`` (a run of ``n`` characters, unpadded, in the pixels of grey array ``a``) grown to the ink
    it must cover: every glyph run it touches whole, and neighbouring glyph runs (gaps under ``FIT_GAP`` line
    heights) while it holds fewer glyph runs than characters — an OCR box that starts two glyphs late."""
    import numpy as np

    from . import ink

    h, w = a.shape
    lh = max(4.0, line_h, box[3] - box[1])
    y0, y1 = max(0, int(box[1] - 0.1 * lh)), min(h, int(math.ceil(box[3] + 0.1 * lh)) + 1)
    wx0, wx1 = max(0, int(box[0] - 3 * lh)), min(w, int(math.ceil(box[2] + 3 * lh)) + 1)
    if y1 <= y0 or wx1 <= wx0:
        return box
    band = ink.ink_mask(a[y0:y1, wx0:wx1]) if a.size else None
    if band is None or not band.any():
        return box
    cols = band.any(axis=0)
    runs = []                                   # [start, end) of ink columns, in page pixels
    x = 0
    while x < cols.size:
        if cols[x]:
            e = x
            while e < cols.size and cols[e]:
                e += 1
            runs.append((wx0 + x, wx0 + e))
            x = e
        else:
            x += 1
    inside = [r for r in runs if r[1] > box[0] and r[0] < box[2]]
    if not inside:
        return box
    left, right = min(r[0] for r in inside), max(r[1] for r in inside)
    count = len(inside)
    while count < n:
        before = [r for r in runs if r[1] <= left]
        after = [r for r in runs if r[0] >= right]
        gl = left - before[-1][1] if before else None
        gr = after[0][0] - right if after else None
        cands = [(g, side) for g, side in ((gl, "l"), (gr, "r")) if g is not None and g <= FIT_GAP * lh]
        if not cands:
            break
        _, side = min(cands)
        if side == "l":
            left = before[-1][0]
        else:
            right = after[0][1]
        count += 1
    # the ink rows of the chosen columns, near the line (not the next line)
    sub = band[:, left - wx0:right - wx0]
    rows = np.flatnonzero(sub.any(axis=1))
    top = min(box[1], y0 + int(rows[0])) if rows.size else box[1]
    bottom = max(box[3], y0 + int(rows[-1]) + 1) if rows.size else box[3]
    return (min(box[0], float(left)), float(top), max(box[2], float(right)), float(bottom))


def burn_boxes(page: OcrPage, ranges: Iterable[tuple[int, int]], image=None, scale: float = 1.0) -> list[Box]:
    """The boxes a writer burns for ``ranges`` of ``page.text``, in the pixels of ``image`` (the page OCR read,
    rendered ``scale`` times its OCR size): ``boxes_for`` over the ranges grown by weakly read neighbours
    (``_widen``), each fitted to the glyphs in ``image`` (``_fit``) and padded again."""
    import numpy as np

    ranges = _widen(page, ranges)
    boxes = [(x0 * scale, y0 * scale, x1 * scale, y1 * scale) for x0, y0, x1, y1 in boxes_for(page, ranges)]
    if image is None or not boxes:
        return boxes
    a = np.asarray(_gray(image))
    out = list(boxes)
    for run, n, line_h in _runs(page, ranges):
        b = (run[0] * scale, run[1] * scale, run[2] * scale, run[3] * scale)
        f = _fit(a, b, n, line_h * scale)
        if f != b:
            pad = max(PAD_MIN_PX, PAD_FRACTION * line_h * scale)
            out.append((max(0.0, f[0] - pad), max(0.0, f[1] - pad), f[2] + pad, f[3] + pad))
    return out


def _runs(page: OcrPage, ranges: Iterable[tuple[int, int]]) -> list[tuple[Box, int, float]]:
    """Per line of each range: (unpadded union box, its characters that are not white space — with a box
    or not —, line height)."""
    out = []
    for a, b in ranges:
        run: list[Box] = []
        n = 0
        hmax = 0.0
        for i in range(max(0, a), min(b, len(page.boxes))):
            bx = page.boxes[i]
            if bx is None:
                n += 0 if page.text[i].isspace() else 1
                continue
            if run and bx[0] < run[-1][0] - 1 and bx[1] > run[-1][1]:
                out.append((_union(run), n, hmax))
                run, hmax, n = [], 0.0, 0
            run.append(bx)
            n += 1
            hmax = max(hmax, page.line_heights[i] if i < len(page.line_heights) else 0.0, bx[3] - bx[1])
        if run:
            out.append((_union(run), n, hmax))
    return out


def _union(boxes: Sequence[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def _pad(box: Box, line_h: float, page: OcrPage) -> Box:
    pad = max(PAD_MIN_PX, PAD_FRACTION * max(line_h, box[3] - box[1]))
    # skew widens what a straight box must cover: half the box width times tan(skew)
    pad_y = pad + abs(math.tan(math.radians(page.skew))) * (box[2] - box[0]) / 2.0
    return (max(0.0, box[0] - pad), max(0.0, box[1] - pad_y),
            min(float(page.width), box[2] + pad), min(float(page.height), box[3] + pad_y))


def burn(image, boxes: Iterable[Box]):
    """A copy of ``image`` with opaque black rectangles over ``boxes`` (source pixels)."""
    from PIL import ImageDraw

    out = image.copy()
    if out.mode not in ("RGB", "L", "RGBA", "CMYK", "I;16", "I", "F", "1"):
        out = out.convert("RGB")
    draw = ImageDraw.Draw(out)
    black = {"RGB": (0, 0, 0), "RGBA": (0, 0, 0, 255), "CMYK": (0, 0, 0, 255), "1": 0}.get(out.mode, 0)
    for x0, y0, x1, y1 in boxes:
        draw.rectangle([int(math.floor(x0)), int(math.floor(y0)), int(math.ceil(x1)), int(math.ceil(y1))],
                       fill=black)
    return out


def _squash(s: str) -> str:
    s = unicodedata.normalize("NFKC", s)
    return "".join(ch for ch in s if ch.isalnum())


def recognisable(values: Iterable[str], ocr_text: str) -> list[int]:
    """Indices of ``values`` still readable in ``ocr_text`` (compared without spaces and punctuation).

    The leak rule counts a value as leaked when enough of it survives to identify it; OCR output of a burned
    page should hold nothing of a masked value, so any whole value found again is a leak. Values shorter than
    2 characters after squashing are not checked (they would match ordinary text)."""
    hay = _squash(ocr_text)
    hits = []
    for i, v in enumerate(values):
        key = _squash(v)
        if len(key) >= 2 and key in hay:
            hits.append(i)
    return hits
