"""PDF: text per page with each character's page and box (pypdfium2); export as a rasterised PDF.

Reading: every page's text layer, character by character, in pdfium's order; ``Document.text`` has one
part per page (``── 3쪽 ──``). ``extra["pdf_pages"]`` holds, per page, the pdfium character index of each
text character, so a plan over the text maps to character boxes at export time.

- **Letter-spaced glyphs** (each glyph placed on its own, ``9 0 0 1 0 1 - …`` as pdfium extracts it, or
  typed with a space between the glyphs) are re-joined: the separators pdfium *generates* (spaces and line
  breaks in no content stream), or a single real space, are dropped inside a run of ≥ 3 single glyphs on
  one line, so detection sees ``900101-…``. Separators hold no ink, so the box map stays exact.
- **Glyphs drawn out of page order** (each placed with its own ``Tm``/``Td``, the stream shuffled, lines
  interleaved: the page reads in order, pdfium's text layer scrambled; red team 8, 3b) are read in the order
  the page shows them (``pdf_order``): only the lines out of order, each glyph keeping its pdfium index, so
  detection sees the value and its masks land on its glyphs; a note names the pages. Separators added there
  map to no character (index -1: no box, nothing burned).
- **Needs review** (``Document.unreadable``): a page drawn without any text (a scan), a picture large
  enough to hold text, or a text layer that does not match the glyphs drawn. The last is checked glyph
  by glyph (``_GlyphCheck``): the ink box pdfium reports for each drawn character is compared with the
  ink box of the character the text layer claims, drawn from the same embedded font through the font's
  own ``cmap`` (FreeType via Pillow). A lying ``ToUnicode`` map (glyphs ``34567`` extracted as ``abd…``)
  gives different boxes; characters with no Unicode value or U+FFFD count as unreadable too.

Export (``write_pdf``): each page is rendered to pixels (pypdfium2), every replacement's characters are
painted black in the *pixels* — per line, one box from its first to its last glyph, padded by a fifth of
the line height (at least ``BOX_PAD_PT``), so gaps between letter-spaced glyphs are covered too — and the
pages are re-assembled into a new PDF that contains only JPEG images: no text layer, no fonts, no
annotations, no metadata (``/Info`` is absent). Annotations and form fields are not rendered, because
their text is not part of the reviewed text layer.

- **OCR** (``ocr.py``): a page with no text layer (a scan) or a garbled one is rendered at ``OCR_DPI`` and
  read by Tesseract; its OCR text becomes the page's reviewable text and the OCR boxes (``extra["pdf_ocr"]``:
  page → (``OcrPage``, render scale)) are burned at export, where such a page is rasterised at ``OCR_DPI``
  too, and the export's check reads it again by OCR (``leakcheck.check_pdf_ocr``). A page OCR cannot read
  with confidence stays **needs review**; so does a picture on a page that also has a text layer.

Limits: page count, characters and render size are bounded so a hostile file cannot exhaust memory.
"""
from __future__ import annotations

import ctypes
import hashlib
import io
import re
import math
import threading
import zlib
from dataclasses import dataclass
from array import array
from pathlib import Path

from . import limits as _limits
from . import pdf_order
from ..masking import Replacement
from .errors import DocumentError
from .limits import MAX_DOCUMENT_CHARS, MAX_PDF_PAGES, ResourceLimit
from .model import Document, TextBuilder, Unreadable, split_plan

MAX_PAGES = MAX_PDF_PAGES
DPI = 150
MAX_PAGE_PIXELS = _limits.MAX_PAGE_PIXELS   # about A0 at 150 dpi; bigger pages: lower scale
BOX_PAD_PT = 1.5                  # least padding of a burned box (points) on every side
BOX_PAD_FRACTION = 0.2            # ... or this fraction of the line's height, whichever is larger
JPEG_QUALITY = 85
#: scanned pages are OCR'd and exported at this resolution (Tesseract reads 10 pt text well from 200 dpi up)
OCR_DPI = 300
OCR_MAX_PIXELS = _limits.PDF_OCR_MAX_PIXELS
#: glyph check: ink boxes may differ by this much (in 1/1000 em) before a character counts as lying
GLYPH_TOLERANCE = 40
#: one glyph mapped to several letters (a ligature) is at least this share of their ink widths added up
LIGATURE_MIN_WIDTH = 0.7
#: a page is "garbled" from this many characters whose glyph does not match the text layer
GARBLED_MIN_CHARS = 2

#: PDFium is not thread-safe; every use of pypdfium2 in this package holds this lock (the UI may open one
#: document while another is being exported). It is the package's only shared state.
PDFIUM_LOCK = threading.RLock()


def _open(data: bytes):
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as e:
        msg = str(e)
        if "password" in msg.lower():
            raise DocumentError("The PDF is password-protected; remove the password and try again.") \
                from None
        raise DocumentError(f"The file is not a readable PDF ({msg}).") from None


def read_pdf(path: Path, data: bytes) -> Document:
    with PDFIUM_LOCK:
        return _read_pdf(path, data)


def _char_box(raw, tp, k: int, loose: bool = False) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) of character ``k``."""
    if loose:
        r = raw.FS_RECTF()
        raw.FPDFText_GetLooseCharBox(tp, k, r)
        return r.left, r.bottom, r.right, r.top
    L, R, B, T = (ctypes.c_double() for _ in range(4))
    raw.FPDFText_GetCharBox(tp, k, L, R, B, T)
    return L.value, B.value, R.value, T.value


def _same_line(a, b) -> bool:
    """Boxes ``(l, b, r, t)`` on one line: vertical overlap of at least half the smaller height."""
    ov = min(a[3], b[3]) - max(a[1], b[1])
    return ov > 0.5 * min(a[3] - a[1], b[3] - b[1]) > 0


def _rejoin(chars: list[str], idx: list[int], gen: list[bool], boxes: dict[int, tuple]) -> tuple[list[str], list[int]]:
    """Drop the separators between single glyphs of a letter-spaced run (see module doc): a run is ≥ 3
    single-glyph tokens, each separated from the next only by generated spaces/line breaks or by one
    real space, on one line, left to right (``9 0 0 1 0 1`` reads ``900101``). Separators hold no ink,
    so the character → box map stays exact."""
    n = len(chars)
    blank = [c in " \n\t" for c in chars]
    tokens: list[tuple[int, int]] = []
    i = 0
    while i < n:
        if blank[i]:
            i += 1
            continue
        j = i
        while j < n and not blank[j]:
            j += 1
        tokens.append((i, j))
        i = j
    drop = [False] * n
    run: list[tuple[int, int]] = []

    def flush() -> None:
        if len(run) >= 3:
            for (_a1, b1), (a2, _b2) in zip(run, run[1:]):
                for m in range(b1, a2):
                    drop[m] = True
        run.clear()

    for t in tokens:
        single = t[1] - t[0] == 1
        if run and single:
            prev = run[-1][1] - 1
            between = range(prev + 1, t[0])
            pb, tb = boxes.get(idx[prev]), boxes.get(idx[t[0]])
            spaced = (len(between) <= 2 and all(gen[m] for m in between)) or \
                (len(between) == 1 and chars[between[0]] == " ")      # one real space: "9 0 0 1 0 1"
            if spaced and pb and tb and _same_line(pb, tb) and tb[0] >= pb[0]:
                run.append(t)
                continue
        flush()
        if single:
            run.append(t)
    flush()
    return ([c for c, d in zip(chars, drop) if not d], [k for k, d in zip(idx, drop) if not d])


def _oriented_glyphs(raw, tp, chars: list[str], idx: list[int], gen: list[bool]) -> tuple[list, list]:
    """``(ordered, tilted)``: the glyphs ``pdf_order.visual_order`` may reorder — drawn (not generated,
    not white space), not of a right-to-left script, baseline upright or turned a quarter turn
    (``pdf_order.quarter_turns``): ``(position in chars, loose box in the glyph's reading frame, quarter
    turns)`` — and the drawn glyphs at any other angle, ``(position, angle in degrees, box centre, size)``
    for ``pdf_order.tilted_out_of_order``."""
    out, tilted = [], []
    m = raw.FS_MATRIX()
    for p, (ch, k, g) in enumerate(zip(chars, idx, gen)):
        if g or ch.isspace() or pdf_order.is_rtl(ch):
            continue
        if not raw.FPDFText_GetMatrix(tp, k, m):
            continue
        left, bottom, right, top = _char_box(raw, tp, k, loose=True)
        if right <= left or top <= bottom:
            continue
        turn = pdf_order.quarter_turns(m.a, m.b)
        if turn is None:
            if m.a or m.b:
                tilted.append((p, math.degrees(math.atan2(m.b, m.a)), ((left + right) / 2, (bottom + top) / 2),
                               math.sqrt((right - left) * (top - bottom))))
            continue
        if turn == 0 and abs(m.c) > 1e-3 * abs(m.d) and m.d:
            # a sheared glyph's loose box is the slanted box's bounds: wider by the shear over its height;
            # horizontally the glyph is its advance from its origin
            x, y = ctypes.c_double(), ctypes.c_double()
            if raw.FPDFText_GetCharOrigin(tp, k, x, y):
                w = (right - left) - abs(m.c / m.d) * (top - bottom)
                left, right = x.value, x.value + max(w, 0.01 * (top - bottom))
        out.append((p, pdf_order.reading_box((left, bottom, right, top), turn), turn))
    return out, tilted


class _GlyphCheck:
    """Does each drawn glyph look like the character the text layer claims? (module doc)"""

    def __init__(self, raw) -> None:
        self.raw = raw
        self.fonts: dict[int, object] = {}       # font handle -> ImageFont | None (not checkable)
        self.ink: dict[tuple[int, str], tuple[int, int] | None] = {}

    def _font(self, font):
        key = ctypes.cast(font, ctypes.c_void_p).value or 0
        if key in self.fonts:
            return key, self.fonts[key]
        f = None
        try:
            if self.raw.FPDFFont_GetIsEmbedded(font):
                n = ctypes.c_size_t(0)
                self.raw.FPDFFont_GetFontData(font, None, 0, ctypes.byref(n))
                if 0 < n.value <= 64 * 1024 * 1024:
                    buf = (ctypes.c_uint8 * n.value)()
                    if self.raw.FPDFFont_GetFontData(font, buf, n.value, ctypes.byref(n)):
                        from PIL import ImageFont

                        f = ImageFont.truetype(io.BytesIO(bytes(buf)), size=1000)
        except Exception:  # noqa: BLE001 - a font FreeType cannot load is just not checkable
            f = None
        self.fonts[key] = f
        return key, f

    def _ink(self, key: int, f, ch: str) -> tuple[int, int] | None:
        k = (key, ch)
        if k not in self.ink:
            try:
                bb = f.getmask(ch).getbbox()
                self.ink[k] = (bb[2] - bb[0], bb[3] - bb[1]) if bb else (0, 0)
            except Exception:  # noqa: BLE001
                self.ink[k] = None
        return self.ink[k]

    def mismatch(self, tp, k: int, ch: str, box) -> bool | None:
        """True: the glyph drawn is not ``ch``; False: it is; None: cannot tell."""
        raw = self.raw
        obj = raw.FPDFText_GetTextObject(tp, k)
        if not obj:
            return None
        font = raw.FPDFTextObj_GetFont(obj)
        if not font:
            return None
        m = raw.FS_MATRIX()
        if raw.FPDFText_GetMatrix(tp, k, m) and (abs(m.b) > 1e-3 or abs(m.c) > 1e-3 or m.a <= 0 or m.d <= 0
                                                  or abs(m.a - m.d) > 0.02 * abs(m.d)):
            return None   # rotated, skewed or stretched text: boxes are not comparable
        key, f = self._font(font)
        if f is None:
            return None
        size = raw.FPDFText_GetFontSize(tp, k)
        if size <= 0:
            return None
        scale = 1000.0 / size
        w = (box[2] - box[0]) * scale
        h = (box[3] - box[1]) * scale
        if len(ch) > 1 and not ch.isspace():
            # one glyph claimed as several letters (a ligature "fi", "ffl"): it is narrower than the letters
            # set apart, never wider, and at least LIGATURE_MIN_WIDTH of their widths together; as tall as
            # the tallest
            inks = [self._ink(key, f, c) for c in ch if not c.isspace()]
            if not inks or any(i is None for i in inks):
                return None
            total = sum(i[0] for i in inks)
            tall = max(i[1] for i in inks)
            return not (LIGATURE_MIN_WIDTH * total - GLYPH_TOLERANCE <= w <= total + GLYPH_TOLERANCE) \
                or abs(h - tall) > 2 * GLYPH_TOLERANCE
        ink = self._ink(key, f, ch)
        if ink is None:
            return None
        if ch.isspace():
            return w > GLYPH_TOLERANCE and h > GLYPH_TOLERANCE   # ink where the text says "space"
        if ink == (0, 0) or w <= 0:
            return None if w <= 0 else True
        return abs(w - ink[0]) > GLYPH_TOLERANCE or abs(h - ink[1]) > 2 * GLYPH_TOLERANCE


def _unreadable(page_no: int, reason: str) -> Unreadable:
    ko, en = {
        "no_text_layer": ("텍스트 레이어가 없습니다(스캔?): 내용을 검사할 수 없으니 직접 확인하세요",
                          "no text layer (scanned?): its content cannot be checked — review it yourself"),
        "image": ("그림 속 글자를 OCR로 확실히 읽지 못했습니다: 그림을 직접 확인하세요",
                  "has a picture whose text OCR cannot read with confidence — review the picture"),
        "garbled_text": ("텍스트 레이어가 그려진 글자와 다릅니다(글꼴 매핑 오류/위조): 직접 확인하세요",
                         "text layer does not match the glyphs drawn (broken or lying font map) — review it"),
        "vector_text": ("윤곽선으로 그린 글자(도형)가 있을 수 있습니다: 직접 확인하세요",
                        "has complex filled shapes that may be text converted to outlines — review it"),
        "ink_text": ("글자 층에 없는 잉크(도형·무늬로 그린 글자)가 있습니다: 직접 확인하세요",
                     "has ink outside the text layer (text drawn as shapes or patterns) — review it"),
        "tilted_text": ("비스듬히 그린 글자가 화면과 다른 순서로 들어 있습니다: 직접 확인하세요",
                        "draws glyphs at an angle in another order than the page shows them — review it"),
    }[reason]
    return Unreadable(where=f"page {page_no}", reason=reason, caption=f"{page_no}쪽: {ko}",
                      caption_en=f"page {page_no}: {en}", page=page_no)


#: filled vector paths with at least this many segments on a page may be text converted to outlines (a
#: recipient reads it in the pixels; the text layer does not hold it): the page is read by OCR instead
VECTOR_TEXT_SEGMENTS = 200


def _filled_segments(obj, raw) -> int:
    fill, stroke = ctypes.c_int(0), ctypes.c_int(0)
    if not raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke)) or not fill.value:
        return 0
    return max(0, raw.FPDFPath_CountSegments(obj.raw))


def _page_objects(page, raw, segments: list | None = None) -> tuple[int, list[tuple[float, float, float, float]]]:
    """(number of drawn objects, bounds of image objects) — Form XObjects descended. ``segments``, if
    given, receives the total number of segments of filled path objects (``[n]``)."""
    count, images = 0, []
    filled = 0
    for obj in page.get_objects(max_depth=8):
        count += 1
        if segments is not None and obj.type == raw.FPDF_PAGEOBJ_PATH and filled < VECTOR_TEXT_SEGMENTS:
            filled += _filled_segments(obj, raw)
        if obj.type == raw.FPDF_PAGEOBJ_IMAGE:
            try:
                images.append(obj.get_bounds())
            except Exception:  # noqa: BLE001
                images.append((0.0, 0.0, 1e9, 1e9))   # unknown bounds: assume it matters
        if count > 200_000:
            break
    if segments is not None:
        segments.append(filled)
    return count, images


#: Flate streams are inflated here (streamed, output discarded) before pdfium sees the file: pdfium parses a
#: page's content into objects at ~15-18 bytes of memory per content byte (measured: a 51 KB PDF whose
#: 20 MB content stream draws one glyph 650,000 times peaked at 371 MB), so content-like streams are
#: capped; an image stream may be as large as its declared pixels allow (pdfium decodes it at that size).
MAX_PDF_CONTENT_STREAM = _limits.MAX_PDF_CONTENT_STREAM
MAX_PDF_CONTENT_TOTAL = _limits.MAX_PDF_CONTENT_TOTAL
MAX_PDF_IMAGE_STREAM = _limits.MAX_PDF_IMAGE_STREAM
_STREAM_KW = re.compile(rb"stream\r?\n")
_NUM = rb"\s*(\d{1,9})(?!\s+\d+\s+R)"


def _image_bytes_allowed(head: bytes) -> int | None:
    """The largest honest inflated size of an image stream whose dictionary ends ``head``, or None if it
    does not declare itself an image with direct /Width and /Height."""
    if not re.search(rb"/Subtype\s*/Image", head):
        return None
    w = re.search(rb"/Width" + _NUM, head)
    h = re.search(rb"/Height" + _NUM, head)
    if not (w and h):
        return None
    return min(MAX_PDF_IMAGE_STREAM, int(w.group(1)) * int(h.group(1)) * 4 * 2 + 65536)


def _inflated_size(view: memoryview, pos: int, limit: int) -> int | None:
    """Bytes a zlib stream starting at ``pos`` inflates to, fed and drained 1 MB at a time; stops once it
    passes ``limit`` (returns a size > limit). None if it is not valid zlib data."""
    d = zlib.decompressobj()
    size, step, n = 0, 1 << 20, len(view)
    try:
        while not d.eof and pos < n:
            buf = view[pos:pos + step]
            pos += step
            while buf:                               # feed this piece, 1 MB of output at a time
                chunk = d.decompress(buf, step)
                size += len(chunk)
                if size > limit or d.eof:
                    return size
                buf = d.unconsumed_tail
                if buf and not chunk:
                    return size                      # no progress: give up, pdfium decides
            while True:                              # piece used up: drain what zlib still holds
                chunk = d.decompress(b"", step)
                if not chunk:
                    break
                size += len(chunk)
                if size > limit or d.eof:
                    return size
    except zlib.error:
        return None if size == 0 else size
    return size


def _check_streams(data: bytes) -> None:
    """Inflate every FlateDecode stream of the file (1 MB steps, nothing kept) and refuse a PDF whose
    content-like streams would exhaust pdfium's memory (see the limits above)."""
    view = memoryview(data)
    total = 0
    for m in _STREAM_KW.finditer(data):
        head = data[max(0, m.start() - 1024):m.start()]
        head = head[head.rfind(b"obj") + 3:] if b"obj" in head else head
        if b"/FlateDecode" not in head:
            continue
        allowed = _image_bytes_allowed(head)
        limit = allowed if allowed is not None else MAX_PDF_CONTENT_STREAM
        size = _inflated_size(view, m.end(), limit)
        if size is None:
            continue        # damaged or not really Flate: pdfium decides
        if size > limit:
            raise ResourceLimit(
                f"The PDF holds a compressed stream that unpacks to more than {limit // 2**20} MB "
                "(possible compression bomb); refusing to open it. If it is a genuine file, print it to a "
                "new PDF or split it, and try again.")
        if allowed is None:
            total += size
            if total > MAX_PDF_CONTENT_TOTAL:
                raise ResourceLimit(
                    f"The PDF's page content unpacks to more than {MAX_PDF_CONTENT_TOTAL // 2**20} MB "
                    "(possible compression bomb); refusing to open it. Split the PDF and try again.")


#: ``/ActualText`` replacements are dropped before a page's text is read: the text layer is what the glyphs
#: draw, which is what a recipient of the rasterised export sees (a replacement can claim "see attached
#: form" over a drawn phone number). Readers, the writer and the page view read the same way.
MAX_MARKED_OBJECTS = 200_000


def _textpage(page, raw):
    """``page.get_textpage()`` after dropping every ``/ActualText`` marked-content replacement."""
    n = 0
    for obj in page.get_objects(max_depth=8):
        n += 1
        if n > MAX_MARKED_OBJECTS:
            break
        if obj.type != raw.FPDF_PAGEOBJ_TEXT:
            continue
        for m in range(raw.FPDFPageObj_CountMarks(obj.raw) - 1, -1, -1):
            mark = raw.FPDFPageObj_GetMark(obj.raw, m)
            if mark and raw.FPDFPageObjMark_GetParamValueType(mark, b"ActualText") == raw.FPDF_OBJECT_STRING:
                raw.FPDFPageObj_RemoveMark(obj.raw, mark)
    return page.get_textpage()


#: ink check (``_ink_outside_text``): the page is looked at at this resolution, and ink of at least
#: ``INK_MIN_PX`` pixels there that no visible character and no picture explains is read again by OCR
INK_DPI = 110
INK_MIN_PX = 80
INK_PAD_PX = 2.0
#: ... OCR of that ink holding this many letters/digits (at ``ocr.MIN_PAGE_CONFIDENCE``) makes it a scan page
INK_MIN_TEXTY = 3


def _visible_boxes(raw, tp, boxes: dict[int, tuple]) -> list[tuple]:
    """Loose boxes (points, PDF space) of the characters of ``boxes`` drawn visibly (render mode is not
    *invisible*: the text layer of a searchable scan explains no ink)."""
    invisible: dict[int, bool] = {}
    visible: list[tuple] = []
    for k, box in boxes.items():
        obj = raw.FPDFText_GetTextObject(tp, k)
        key = ctypes.cast(obj, ctypes.c_void_p).value or 0
        if key not in invisible:
            invisible[key] = bool(obj) and raw.FPDFTextObj_GetTextRenderMode(obj) == raw.FPDF_TEXTRENDERMODE_INVISIBLE
        if not invisible[key] and box[2] > box[0] and box[3] > box[1]:
            visible.append(_char_box(raw, tp, k, loose=True))
    return visible


def _ink_outside_text(page, visible: list[tuple], images: list) -> bool | None:
    """Does the rendered page hold text that its text layer does not? True: OCR read letters or digits in
    the ink no visible character (``visible``: :func:`_visible_boxes`) and no picture explains — glyph
    outlines drawn as paths, text painted through a pattern, a replaced glyph run; False: none; None:
    unexplained ink OCR is not there to read. (Pictures are read by :func:`_read_pictures`.)"""
    import numpy as np

    from . import ink, ocr

    w_pt, h_pt = page.get_size()
    scale = _render_scale(w_pt, h_pt, INK_DPI, MAX_PAGE_PIXELS)
    bitmap = page.render(scale=scale, grayscale=True, may_draw_forms=False, draw_annots=False)
    try:
        px_array = bitmap.to_numpy()
        a = np.ascontiguousarray(px_array[..., 0] if px_array.ndim == 3 else px_array)
        conv = bitmap.get_posconv(page)

        def px(rect) -> tuple[float, float, float, float]:
            x0, y0 = conv.to_bitmap(rect[0], rect[1])
            x1, y1 = conv.to_bitmap(rect[2], rect[3])
            return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

        explained = [px(b) for b in visible] + [px(b) for b in images]
    finally:
        bitmap.close()
    res = ink.residue(a, explained, INK_PAD_PX)
    if int(res.sum()) < INK_MIN_PX:
        return False
    if not ocr.available():
        return None
    # read the unexplained ink at OCR resolution: that region of the page, what the text layer explains blanked
    x0, y0, x1, y1 = ink.bbox(res, margin=8)
    left, top = x0 / scale, y0 / scale
    crop = (left, h_pt - y1 / scale, w_pt - x1 / scale, top)   # points trimmed from left, bottom, right, top
    hi = _render_scale(w_pt, h_pt, OCR_DPI, OCR_MAX_PIXELS)
    bitmap = page.render(scale=hi, crop=tuple(max(0.0, c) for c in crop), grayscale=True,
                         may_draw_forms=False, draw_annots=False)
    try:
        img = bitmap.to_pil().convert("L")
    finally:
        bitmap.close()
    from PIL import ImageDraw

    draw = ImageDraw.Draw(img)
    f = hi / scale
    for b in explained:
        draw.rectangle([(b[0] - x0) * f - INK_PAD_PX * f, (b[1] - y0) * f - INK_PAD_PX * f,
                        (b[2] - x0) * f + INK_PAD_PX * f, (b[3] - y0) * f + INK_PAD_PX * f], fill=255)
    page_ocr = ocr.ocr_image(img)
    texty = sum(1 for c in page_ocr.text if c.isalnum())
    return texty >= INK_MIN_TEXTY and page_ocr.confidence >= ocr.MIN_PAGE_CONFIDENCE


#: pictures on a page with a text layer are read by OCR (issue 26: the rendered page is the truth). A
#: picture drawn narrower or lower than this (points) holds nothing legible in the export, whose pages are
#: 150-dpi pixels (4 pixels; the smallest legible type takes 5): it is not read
MIN_PICTURE_PT = 2.0
#: pictures whose drawn areas touch or overlap (within this many points) are read as one picture: a
#: picture cut into thin strips, tiles of a scan
PICTURE_JOIN_PT = 1.0
#: the member name of a picture's OCR text in ``Document.segments`` (slot: index in ``extra["pdf_pictures"]``)
PICTURE_SLOT = "pdf_picture"


@dataclass(frozen=True)
class PdfPicture:
    """A picture region of a page whose text OCR read with confidence: reviewed like the page's text.
    ``rect``: (left, bottom, right, top) in points from the page's bottom-left corner; ``reading``: the
    ``OcrPage`` of the region rendered at ``scale`` (boxes in those pixels, origin at the rect's top left)."""

    page: int
    rect: tuple[float, float, float, float]
    scale: float
    reading: object


def picture_regions(images: list[tuple], w_pt: float, h_pt: float,
                    origin: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float, float, float]]:
    """The regions of a page to read pictures in: image bounds (``_page_objects``, PDF user space) moved
    to the page's corner ``origin`` and clipped to the page, those that touch (:data:`PICTURE_JOIN_PT`)
    merged into one, and those smaller than :data:`MIN_PICTURE_PT` on a side left out."""
    ox, oy = origin
    rects = []
    for left, bottom, right, top in images:
        r = [max(0.0, left - ox), max(0.0, bottom - oy), min(w_pt, right - ox), min(h_pt, top - oy)]
        if r[2] > r[0] and r[3] > r[1]:
            rects.append(r)
    j = PICTURE_JOIN_PT
    merged = True
    while merged:
        merged = False
        out: list[list[float]] = []
        for r in rects:
            for o in out:
                if r[0] <= o[2] + j and o[0] <= r[2] + j and r[1] <= o[3] + j and o[1] <= r[3] + j:
                    o[:] = [min(o[0], r[0]), min(o[1], r[1]), max(o[2], r[2]), max(o[3], r[3])]
                    merged = True
                    break
            else:
                out.append(list(r))
        rects = out
    return [(r[0], r[1], r[2], r[3]) for r in rects
            if r[2] - r[0] >= MIN_PICTURE_PT and r[3] - r[1] >= MIN_PICTURE_PT]


class _PagePictures:
    """Reads the picture regions of text pages by OCR (``pictures.read_frame``, as pictures in DOCX/HWPX
    are read): a region OCR reads with confidence (or that holds nothing) is reviewed — its text becomes
    part of the page's text, masked values are burned into the page at export; one it cannot read holds
    the page (*needs review*), or is painted white by the picture policy ``blank``/``remove`` (with those,
    every region holding text is). The same pixels are read once; at most ``MAX_PICTURES_CHECKED``
    regions per document are read, the rest hold their page."""

    def __init__(self) -> None:
        self.read_pictures: list[PdfPicture] = []
        self.blank: dict[int, list[tuple]] = {}
        self._seen: dict[bytes, tuple[str, object]] = {}
        self.checked = 0
        self.regions = 0

    def read(self, pdf, i: int, regions: list[tuple], visible: list[tuple]) -> tuple[bool, list[int]]:
        """``(held, read)``: whether page ``i`` holds a picture region OCR cannot read, and the indices
        (in ``read_pictures``) of the regions reviewed as text. ``visible``: the page's visible character
        boxes (PDF user space), painted over in the regions before OCR (the text layer explains them)."""
        from . import ocr, pictures

        policy = pictures.current_policy()
        held, read_here = False, []
        page = pdf[i]
        try:
            w_pt, h_pt = page.get_size()
            origin = _page_origin(page)
            for rect in regions:
                self.regions += 1
                if self.checked >= _limits.MAX_PICTURES_CHECKED:
                    verdict, reading, scale = "unchecked", None, 0.0
                else:
                    frame, scale = _render_region(page, rect, w_pt, h_pt, visible, origin)
                    key = hashlib.sha256(f"{frame.size}".encode() + frame.tobytes()).digest()
                    if key not in self._seen:
                        self.checked += 1
                        try:
                            self._seen[key] = pictures.read_frame(frame)
                        except ocr.OcrCancelled:
                            raise
                        except Exception:  # noqa: BLE001 - OCR could not process it: fail closed
                            self._seen[key] = ("unchecked", None)
                    verdict, reading = self._seen[key]
                if verdict == "read" and not pictures.value_shaped(pictures._squash(reading.text)):
                    verdict = "clean"      # read surely, and nothing a value could be in (bars read as `hil`)
                if verdict == "clean":
                    continue
                if policy is not pictures.PicturePolicy.REVIEW:
                    self.blank.setdefault(i, []).append(rect)
                elif verdict == "read":
                    self.read_pictures.append(PdfPicture(i, rect, scale, reading))
                    read_here.append(len(self.read_pictures) - 1)
                else:
                    held = True
        finally:
            page.close()
        return held, read_here

    def notes(self) -> list[str]:
        out = []
        if self.regions:
            out.append(f"Pictures on pages with text ({self.regions}) were read by OCR.")
        if self.read_pictures:
            pages = ", ".join(str(p) for p in sorted({pic.page + 1 for pic in self.read_pictures}))
            out.append(f"Text OCR read in pictures on page(s) {pages} is shown for review; masked values are "
                       "burned into the page and the output's pages are read again by OCR.")
        if self.blank:
            pages = ", ".join(str(p + 1) for p in sorted(self.blank))
            out.append(f"Pictures holding text on page(s) {pages} were painted white (picture policy).")
        return out


def _page_origin(page) -> tuple[float, float]:
    """The bottom-left corner of the page's shown box (its crop box) in PDF user space."""
    try:
        box = page.get_cropbox()
        return float(box[0]), float(box[1])
    except Exception:  # noqa: BLE001
        return 0.0, 0.0


def _render_region(page, rect: tuple, w_pt: float, h_pt: float, visible: list[tuple],
                   origin: tuple[float, float]) -> tuple:
    """``(frame, scale)``: the page region ``rect`` (points from the page's bottom-left corner) rendered at
    ``OCR_DPI`` (fewer dots for a very large one) — what a reader sees there, pictures and what is drawn
    over them — with the visible characters of the text layer painted over in the region's paper colour."""
    from PIL import ImageDraw

    left, bottom, right, top = rect
    scale = _render_scale(right - left, top - bottom, OCR_DPI, OCR_MAX_PIXELS)
    bitmap = page.render(scale=scale, crop=(left, bottom, max(0.0, w_pt - right), max(0.0, h_pt - top)),
                         may_draw_forms=False, draw_annots=False)
    try:
        img = bitmap.to_pil().convert("RGB")
    finally:
        bitmap.close()
    ox, oy = origin
    inside = [b for b in visible
              if b[0] - ox < right and b[2] - ox > left and b[1] - oy < top and b[3] - oy > bottom]
    if inside:
        paper = tuple(int(v) for v in _median_rgb(img))
        draw = ImageDraw.Draw(img)
        for b in inside:
            draw.rectangle([(b[0] - ox - left) * scale - 1, (top - (b[3] - oy)) * scale - 1,
                            (b[2] - ox - left) * scale + 1, (top - (b[1] - oy)) * scale + 1], fill=paper)
    return img, scale


def _median_rgb(img) -> tuple:
    import numpy as np

    a = np.asarray(img.resize((max(1, img.width // 8), max(1, img.height // 8)))).reshape(-1, 3)
    return tuple(np.median(a, axis=0)) if a.size else (255, 255, 255)


def _read_pdf(path: Path, data: bytes) -> Document:
    import pypdfium2.raw as raw

    _check_streams(data)
    pdf = _open(data)
    try:
        n_pages = len(pdf)
        if n_pages > MAX_PAGES:
            raise DocumentError(f"The PDF has {n_pages} pages; at most {MAX_PAGES} are supported.")
        tb = TextBuilder()
        pages: list[array] = []
        unreadable: list[Unreadable] = []
        checker = _GlyphCheck(raw)
        pics = _PagePictures()
        empty = 0
        ocr_pages: dict[int, tuple] = {}
        ocr_ok = _ocr_available()
        reordered: list[tuple[int, int]] = []     # (page, glyphs read in visual order)
        for i in range(n_pages):
            page = pdf[i]
            tp = _textpage(page, raw)
            try:
                n = tp.count_chars()
                if n > MAX_DOCUMENT_CHARS:
                    raise ResourceLimit(f"Page {i + 1} of the PDF has {n:,} characters; refusing to open "
                                        "it (more than a document may hold). Split the PDF.")
                chars: list[str] = []
                idx: list[int] = []
                gen: list[bool] = []
                boxes: dict[int, tuple] = {}
                checkable: list[tuple[int, str, tuple]] = []   # (first index, characters claimed, glyph box)
                bad = 0
                for k in range(n):
                    c = raw.FPDFText_GetUnicode(tp.raw, k)
                    if c == 0x0D:       # pdfium's generated "\r\n": keep the "\n" only
                        continue
                    ch = chr(c) if 0 < c < 0x110000 and not 0xD800 <= c <= 0xDFFF else "\ufffd"
                    if ch == "\x02":      # soft hyphen marker at line ends
                        ch = "-"
                    generated = raw.FPDFText_IsGenerated(tp.raw, k) == 1
                    if not generated:
                        box = _char_box(raw, tp.raw, k)
                        boxes[k] = box
                        if ch == "\ufffd" or raw.FPDFText_HasUnicodeMapError(tp.raw, k) == 1 \
                                or (0xE000 <= c <= 0xF8FF):
                            bad += 1
                        elif checkable and checkable[-1][2] == box and checkable[-1][0] == k - len(checkable[-1][1]):
                            # the same glyph box again: one glyph mapped to several characters (a ligature
                            # "fi", "ffl"): the glyph is checked against the characters it claims, together
                            checkable[-1] = (checkable[-1][0], checkable[-1][1] + ch, box)
                        else:
                            checkable.append((k, ch, box))
                    chars.append(ch)
                    idx.append(k)
                    gen.append(generated)
                lying = sum(1 for k, claimed, box in checkable if checker.mismatch(tp.raw, k, claimed, box))
                # glyphs the stream draws out of the order the page shows them in: read as shown
                oriented, tilted = _oriented_glyphs(raw, tp.raw, chars, idx, gen)
                order = pdf_order.visual_order(chars, idx, gen, oriented)
                tilted_shuffled = pdf_order.tilted_out_of_order(tilted)
                if order.groups:
                    chars, idx, gen = order.chars, order.idx, order.gen
                    reordered.append((i + 1, order.glyphs))
                chars, idx = _rejoin(chars, idx, gen, boxes)
                filled = []
                n_objects, images = _page_objects(page, raw, filled)
                w_pt, h_pt = page.get_size()
                # the rendered page is the truth: ink the text layer does not explain is read by OCR
                visible = _visible_boxes(raw, tp.raw, boxes)
                rotated = page.get_rotation() % 360 != 0
                origin = _page_origin(page)
                ink_text = _ink_outside_text(page, visible, images) if "".join(chars).strip() else False
            finally:
                tp.close()
                page.close()
            text = "".join(chars)
            reason = None
            if not text.strip():
                empty += 1
                if n_objects:
                    reason = "no_text_layer"
            elif bad + lying >= GARBLED_MIN_CHARS:
                reason = "garbled_text"
            elif tilted_shuffled:
                reason = "tilted_text"      # glyphs at an angle drawn out of the order shown: OCR the page
            elif filled and filled[0] >= VECTOR_TEXT_SEGMENTS:
                reason = "vector_text"      # text converted to outlines? read the whole page by OCR
            elif ink_text is not False:
                reason = "ink_text"         # ink outside the text layer reads as text: the page is a scan
            if reason and ocr_ok:
                from .ocr import report_page

                report_page(i, n_pages)
                *page_ocr, disputed = _ocr_page(pdf, i)
                ocr_pages[i] = page_ocr = tuple(page_ocr)
                text, idx = page_ocr[0].text, []
                # a page whose text layer hides ink (ink_text, vector_text, garbled_text) is held for any
                # word OCR guessed and could not read again; a plain scan by its mean confidence (a 150-dpi
                # scan rendered at 300 dpi has guessed words on nearly every page)
                strict = reason != "no_text_layer"
                if not page_ocr[0].readable or (strict and disputed > READ_MAX_WEAK):
                    from .image import ocr_unreadable

                    unreadable.append(ocr_unreadable(i + 1))
            elif reason:
                unreadable.append(_unreadable(i + 1, reason))
            pages.append(array("i", idx))
            read_here: list[int] = []
            if text.strip() and i not in ocr_pages and images:   # an OCR'd page is read whole
                regions = picture_regions(images, w_pt, h_pt, origin)
                if regions and (rotated or not ocr_ok):
                    unreadable.append(_unreadable(i + 1, "image"))
                elif regions:
                    held, read_here = pics.read(pdf, i, regions, visible)
                    if held:
                        unreadable.append(_unreadable(i + 1, "image"))
            tb.begin_part(f"{i + 1}쪽", f"page {i + 1}")
            tb.slot("page", i, text)
            for n in read_here:    # text OCR read in the page's pictures: reviewed like the page's text
                if not tb.ends_with_newline():
                    tb.boilerplate("\n")
                tb.caption("picture", str(n + 1))
                tb.slot(PICTURE_SLOT, n, pics.read_pictures[n].reading.text)
            if not tb.ends_with_newline():
                tb.boilerplate("\n")
            tb.end_part()
        notes = []
        if ocr_pages:
            notes.append(f"{len(ocr_pages)} of {n_pages} page(s) have no usable text layer (scanned?) and were "
                         "read by OCR: compare the page image with the text.")
        elif empty:
            notes.append(f"{empty} of {n_pages} page(s) have no text layer (scanned?); their content "
                         "cannot be detected and is exported as is.")
        if unreadable:
            pages_list = ", ".join(str(p) for p in sorted({u.page for u in unreadable}))
            notes.append(f"Needs review: page(s) {pages_list} hold content that could not be read as text "
                         "(no text layer, pictures, or a text layer that does not match the glyphs).")
        if reordered:
            notes.append("Page(s) " + ", ".join(f"{p} ({n} glyphs)" for p, n in reordered) + " draw glyphs out of "
                         "the order the page shows them in; they were read in the order shown: compare the page "
                         "image with the text.")
        notes.extend(pics.notes())
        notes.append("PDF export is a rasterised copy with black boxes burned in (no text layer).")
        text = tb.text()
        return Document(path=path, format="pdf", text=text, parts=tuple(tb.parts),
                        segments=tuple(tb.segments), sha256=hashlib.sha256(data).hexdigest(),
                        size=len(data), notes=tuple(notes), unreadable=tuple(unreadable),
                        captions=tuple(tb.captions),      # [Picture N], shown in the UI's language
                        extra={"pdf_pages": pages, "pdf_ocr": ocr_pages,
                               "pdf_pictures": pics.read_pictures, "pdf_blank": pics.blank,
                               **({"ocr": _ocr_summary(ocr_pages)} if ocr_pages else {})})
    finally:
        pdf.close()


def _ocr_available() -> bool:
    from . import ocr

    return ocr.available()


def _render_scale(w_pt: float, h_pt: float, dpi: int, max_pixels: int) -> float:
    scale = dpi / 72.0
    if w_pt * h_pt * scale * scale > max_pixels:
        scale = 0.999 * (max_pixels / (w_pt * h_pt)) ** 0.5  # pixel sizes round up
    return scale


#: a page whose text layer hides ink, with more letters than this in words OCR guessed and could not read
#: again surely (``reread.settle_weak_words``), needs review — the same bound a picture is read with
READ_MAX_WEAK = 2


def _ocr_page(pdf, i: int) -> tuple:
    """(``OcrPage`` of page ``i`` rendered at ``OCR_DPI``, the render scale, letters of weak words no second
    reading is sure of): words OCR guessed are read again on their own (``reread``)."""
    from . import ocr
    from .reread import settle_weak_words

    page = pdf[i]
    try:
        w_pt, h_pt = page.get_size()
        scale = _render_scale(w_pt, h_pt, OCR_DPI, OCR_MAX_PIXELS)
        bitmap = page.render(scale=scale, may_draw_forms=False, draw_annots=False)
        try:
            img = bitmap.to_pil().convert("RGB")    # in colour: a seal over black type is read apart (ocr)
        finally:
            bitmap.close()
    finally:
        page.close()
    page_ocr, disputed = settle_weak_words(img, ocr.ocr_image(img))
    return page_ocr, scale, disputed


def _ocr_summary(ocr_pages: dict[int, tuple]) -> dict:
    confs = [p.confidence for p, _ in ocr_pages.values() if p.words]
    return {"engine": "tesseract", "pages": len(ocr_pages),
            "mean_confidence": round(sum(confs) / len(confs), 1) if confs else 0.0}


def write_pdf(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    with PDFIUM_LOCK:
        return _write_pdf(doc, plan, source)


def _write_pdf(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    import pypdfium2.raw as pdfium_raw
    from PIL import ImageDraw

    from . import ocr

    pages: list[array] = doc.extra.get("pdf_pages") or []
    ocr_pages: dict[int, tuple] = doc.extra.get("pdf_ocr") or {}
    edits = split_plan(plan, doc.segments)
    masked: dict[int, list[list[int]]] = {}     # page -> runs of pdfium char indices (one per replacement)
    ocr_masked: dict[int, list[tuple[int, int]]] = {}   # OCR'd page -> ranges of its OCR text
    pictures_read: list[PdfPicture] = doc.extra.get("pdf_pictures") or []
    blanks: dict[int, list[tuple]] = doc.extra.get("pdf_blank") or {}
    pic_masked: dict[int, list[tuple[PdfPicture, list[tuple[int, int]]]]] = {}   # page -> reviewed pictures
    for (member, page_no), local in edits.items():
        if member == PICTURE_SLOT:
            pic = pictures_read[page_no]
            pic_masked.setdefault(pic.page, []).append((pic, [(a, b) for a, b, _ in local]))
            continue
        if page_no in ocr_pages:
            ocr_masked.setdefault(page_no, []).extend((a, b) for a, b, _ in local)
            continue
        idx = pages[page_no]
        for a, b, _ in local:
            masked.setdefault(page_no, []).append(list(idx[a:b]))
    pdf = _open(source)
    images: list[tuple[bytes, int, int, float, float]] = []
    try:
        if len(pdf) != len(pages):
            raise DocumentError("The PDF does not match what was reviewed; open it again.")
        for i in range(len(pdf)):
            page = pdf[i]
            try:
                w_pt, h_pt = page.get_size()
                if i in ocr_pages:
                    scale = _render_scale(w_pt, h_pt, OCR_DPI, OCR_MAX_PIXELS)
                else:
                    scale = _render_scale(w_pt, h_pt, DPI, MAX_PAGE_PIXELS)
                bitmap = page.render(scale=scale, may_draw_forms=False, draw_annots=False)
                img = bitmap.to_pil().convert("RGB")
                if blanks.get(i) or pic_masked.get(i):
                    img = _paint_pictures(img, scale, h_pt, blanks.get(i, ()), pic_masked.get(i, ()))
                if ocr_masked.get(i):
                    page_ocr, ocr_scale = ocr_pages[i]
                    img = ocr.burn(img, ocr.burn_boxes(page_ocr, ocr_masked[i], img, scale / ocr_scale))
                if masked.get(i):
                    conv = bitmap.get_posconv(page)
                    tp = _textpage(page, pdfium_raw)
                    draw = ImageDraw.Draw(img)
                    try:
                        for rect in _burn_rects(tp, masked[i]):
                            x0, y0 = conv.to_bitmap(rect[0], rect[1])
                            x1, y1 = conv.to_bitmap(rect[2], rect[3])
                            draw.rectangle([min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)],
                                           fill=(0, 0, 0))
                    finally:
                        tp.close()
                out = io.BytesIO()
                img.save(out, "JPEG", quality=JPEG_QUALITY)
                # the output page has the size of the *rendered* page (rotation applied)
                images.append((out.getvalue(), img.width, img.height,
                               img.width / scale, img.height / scale))
                bitmap.close()
            finally:
                page.close()
    finally:
        pdf.close()
    return image_pdf(images)


def _paint_pictures(img, scale: float, h_pt: float, blank, masked):
    """The rendered page ``img`` (``scale`` pixels per point) with the picture regions ``blank`` painted
    white and, in each reviewed picture of ``masked`` (``(PdfPicture, ranges of its text)``), the boxes
    of the masked ranges burned (``ocr.burn_boxes``, fitted to the glyphs in the page's pixels)."""
    import math

    from PIL import ImageDraw

    from . import ocr

    draw = ImageDraw.Draw(img)
    for left, bottom, right, top in blank:
        draw.rectangle([math.floor(left * scale), math.floor((h_pt - top) * scale),
                        math.ceil(right * scale), math.ceil((h_pt - bottom) * scale)], fill=(255, 255, 255))
    boxes = []
    for pic, ranges in masked:
        left, bottom, right, top = pic.rect
        x0, y0 = int(math.floor(left * scale)), int(math.floor((h_pt - top) * scale))
        sub = img.crop((x0, y0, max(x0 + 1, math.ceil(right * scale)), max(y0 + 1, math.ceil((h_pt - bottom) * scale))))
        for b in ocr.burn_boxes(pic.reading, ranges, sub, scale / pic.scale):
            boxes.append((b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0))
    return ocr.burn(img, boxes) if boxes else img


def _burn_rects(tp, runs: list[list[int]]) -> list[tuple[float, float, float, float]]:
    """Page rectangles (left, bottom, right, top) to paint: for each run of masked characters, one
    rectangle per line from its first to its last glyph (covering the gaps of letter-spaced glyphs),
    padded by ``max(BOX_PAD_PT, BOX_PAD_FRACTION * line height)``."""
    rects = []
    for run in runs:
        line = None
        for k in run:
            if k < 0:
                continue  # a separator added by the visual order (pdf_order): no character, no ink
            left, bottom, right, top = tp.get_charbox(k, loose=True)
            if right <= left or top <= bottom:
                continue  # generated or zero-size character (space, line break)
            box = (left, bottom, right, top)
            if line is not None and _same_line(line, box) and box[0] >= line[0] - (line[3] - line[1]):
                line = (min(line[0], left), min(line[1], bottom), max(line[2], right), max(line[3], top))
                continue
            if line is not None:
                rects.append(line)
            line = box
        if line is not None:
            rects.append(line)
    out = []
    for left, bottom, right, top in rects:
        pad = max(BOX_PAD_PT, BOX_PAD_FRACTION * (top - bottom))
        out.append((left - pad, bottom - pad, right + pad, top + pad))
    return out


def image_pdf(pages: list[tuple[bytes, int, int, float, float]]) -> bytes:
    """A minimal PDF of full-page JPEG images: ``(jpeg, px_w, px_h, pt_w, pt_h)`` per page.

    Written by hand so it holds nothing else: no ``/Info`` dictionary, no XMP, no fonts, no text.
    """
    out = io.BytesIO()
    offsets: list[int] = []

    def obj(num: int, body: bytes, stream: bytes | None = None) -> None:
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % num + body)
        if stream is not None:
            out.write(b"\nstream\n" + stream + b"\nendstream")
        out.write(b"\nendobj\n")

    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    n = len(pages)
    kids = b" ".join(b"%d 0 R" % (3 + 3 * i) for i in range(n))
    obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    obj(2, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n))
    for i, (jpeg, pw, ph, w, h) in enumerate(pages):
        page_no, content_no, image_no = 3 + 3 * i, 4 + 3 * i, 5 + 3 * i
        obj(page_no, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources "
                     b"<< /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>" % (w, h, image_no, content_no))
        content = b"q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q" % (w, h)
        obj(content_no, b"<< /Length %d >>" % len(content), content)
        obj(image_no, b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
                      b"/BitsPerComponent 8 /Filter /DCTDecode /Length %d >>" % (pw, ph, len(jpeg)), jpeg)
    xref = out.tell()
    count = len(offsets) + 1
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % count)
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (count, xref))
    return out.getvalue()


# ------------------------------------------------------------------------------------------ page view
# Character boxes for showing review items on rendered pages (the window's page view, ui/pdf_view.py).

@dataclass(frozen=True)
class PageBoxes:
    """One page's geometry: ``width``/``height`` in points; ``start`` the offset in ``Document.text`` of the
    page's first text character; ``boxes[k]`` the box of text character ``start + k`` as
    ``(x0, y0, x1, y1)`` in points from the page's top-left corner, or None (a generated character: a
    line break or space pdfium made up, or a zero-size box). Page rotation is not applied."""

    page: int
    width: float
    height: float
    start: int
    boxes: tuple[tuple[float, float, float, float] | None, ...]


def char_boxes(doc: Document, source: bytes) -> list[PageBoxes]:
    """The box of every text character of a PDF ``doc`` (as read by ``read_pdf`` from ``source``)."""
    import pypdfium2.raw as pdfium_raw

    with PDFIUM_LOCK:
        pages: list[array] = doc.extra.get("pdf_pages") or []
        starts = {s.slot: s.start for s in doc.segments if s.member == "page"}
        pictures_read: list[PdfPicture] = doc.extra.get("pdf_pictures") or []
        pictures_at: dict[int, list[tuple[int, int]]] = {}
        for seg in sorted((s for s in doc.segments if s.member == PICTURE_SLOT), key=lambda s: s.start):
            pictures_at.setdefault(pictures_read[seg.slot].page, []).append((seg.slot, seg.start))
        pdf = _open(source)
        out: list[PageBoxes] = []
        try:
            if len(pdf) != len(pages):
                raise DocumentError("The PDF does not match what was reviewed; open it again.")
            for i in range(len(pdf)):
                page = pdf[i]
                try:
                    w, h = page.get_size()
                    ocr_page = (doc.extra.get("pdf_ocr") or {}).get(i)
                    if ocr_page is not None:   # OCR boxes: pixels of a render at scale sc (top-left origin)
                        po, sc = ocr_page
                        out.append(PageBoxes(i, w, h, starts.get(i, -1), tuple(
                            None if b is None else (b[0] / sc, b[1] / sc, b[2] / sc, b[3] / sc)
                            for b in po.boxes)))
                        continue
                    tp = _textpage(page, pdfium_raw)
                    try:
                        boxes = []
                        for k in pages[i]:
                            if k < 0:       # a separator added by the visual order (pdf_order)
                                boxes.append(None)
                                continue
                            left, bottom, right, top = tp.get_charbox(k, loose=False)
                            if right <= left or top <= bottom:
                                boxes.append(None)
                            else:
                                boxes.append((left, h - top, right, h - bottom))
                    finally:
                        tp.close()
                    # the page's reviewed pictures follow its text: their OCR boxes, on the page
                    for slot, start in pictures_at.get(i, ()):
                        if starts.get(i, -1) < 0:
                            break
                        boxes.extend([None] * max(0, start - starts[i] - len(boxes)))
                        pic = pictures_read[slot]
                        sc, left, top = pic.scale, pic.rect[0], h - pic.rect[3]
                        boxes.extend(None if b is None else (left + b[0] / sc, top + b[1] / sc,
                                                             left + b[2] / sc, top + b[3] / sc)
                                     for b in pic.reading.boxes)
                finally:
                    page.close()
                out.append(PageBoxes(i, w, h, starts.get(i, -1), tuple(boxes)))
        finally:
            pdf.close()
        return out


def span_rects(pages: list[PageBoxes], start: int, end: int) -> list[tuple[int, tuple[float, float, float, float]]]:
    """Rectangles covering text ``start..end``: ``(page, (x0, y0, x1, y1))``, one per line of characters
    (boxes of neighbouring characters whose vertical extents overlap are merged)."""
    out: list[tuple[int, tuple[float, float, float, float]]] = []
    for pb in pages:
        if pb.start < 0 or pb.start >= end or pb.start + len(pb.boxes) <= start:
            continue
        cur: list[float] | None = None
        for k in range(max(0, start - pb.start), min(len(pb.boxes), end - pb.start)):
            b = pb.boxes[k]
            if b is None:
                continue
            if cur is not None and b[1] < cur[3] and cur[1] < b[3] and b[0] >= cur[0] - 1:
                cur = [min(cur[0], b[0]), min(cur[1], b[1]), max(cur[2], b[2]), max(cur[3], b[3])]
                continue
            if cur is not None:
                out.append((pb.page, tuple(cur)))  # type: ignore[arg-type]
            cur = list(b)
        if cur is not None:
            out.append((pb.page, tuple(cur)))  # type: ignore[arg-type]
    return out
