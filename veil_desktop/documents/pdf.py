"""PDF: text per page with each character's page and box (pypdfium2); export as a rasterised PDF.

Reading: every page's text layer, character by character, in pdfium's order; ``Document.text`` has one
part per page (``── 3쪽 ──``). ``extra["pdf_pages"]`` holds, per page, the pdfium character index of each
text character, so a plan over the text maps to character boxes at export time.

Export (``write_pdf``): each page is rendered to pixels (pypdfium2), every character box a replacement
touches is painted black in the *pixels*, and the pages are re-assembled into a new PDF that contains only
JPEG images: no text layer, no fonts, no annotations, no metadata (``/Info`` is absent). Annotations and
form fields are not rendered, because their text is not part of the reviewed text layer.

Limits: pages without a text layer (scans) or fonts without a ToUnicode map yield no or garbled text —
the reviewer sees that in the review text (``notes``); nothing in images is detected (no OCR). Page count
and render size are bounded so a hostile file cannot exhaust memory.
"""
from __future__ import annotations

import hashlib
import io
import threading
from dataclasses import dataclass
from array import array
from pathlib import Path

from ..masking import Replacement
from .errors import DocumentError
from .model import Document, TextBuilder, split_plan

MAX_PAGES = 2000
DPI = 150
MAX_PAGE_PIXELS = 40_000_000      # about A0 at 150 dpi; bigger pages are rendered at a lower scale
BOX_PAD_PT = 1.0                  # grow each character box by this much (points) on every side
JPEG_QUALITY = 85

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


def _read_pdf(path: Path, data: bytes) -> Document:
    import pypdfium2.raw as raw

    pdf = _open(data)
    try:
        n_pages = len(pdf)
        if n_pages > MAX_PAGES:
            raise DocumentError(f"The PDF has {n_pages} pages; at most {MAX_PAGES} are supported.")
        tb = TextBuilder()
        pages: list[array] = []
        empty = 0
        for i in range(n_pages):
            page = pdf[i]
            tp = page.get_textpage()
            try:
                n = tp.count_chars()
                chars, idx = [], array("i")
                for k in range(n):
                    c = raw.FPDFText_GetUnicode(tp.raw, k)
                    if c == 0x0D:       # pdfium's generated "\r\n": keep the "\n" only
                        continue
                    ch = chr(c) if 0 < c < 0x110000 and not 0xD800 <= c <= 0xDFFF else "\ufffd"
                    if ch == "\x02":      # soft hyphen marker at line ends
                        ch = "-"
                    chars.append(ch)
                    idx.append(k)
            finally:
                tp.close()
                page.close()
            pages.append(idx)
            text = "".join(chars)
            if not text.strip():
                empty += 1
            tb.begin_part(f"{i + 1}쪽", f"page {i + 1}")
            tb.slot("page", i, text)
            if not tb.ends_with_newline():
                tb.boilerplate("\n")
            tb.end_part()
        notes = []
        if empty:
            notes.append(f"{empty} of {n_pages} page(s) have no text layer (scanned?); their content "
                         "cannot be detected and is exported as is.")
        notes.append("PDF export is a rasterised copy with black boxes burned in (no text layer).")
        text = tb.text()
        return Document(path=path, format="pdf", text=text, parts=tuple(tb.parts),
                        segments=tuple(tb.segments), sha256=hashlib.sha256(data).hexdigest(),
                        size=len(data), notes=tuple(notes), extra={"pdf_pages": pages})
    finally:
        pdf.close()


def write_pdf(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    with PDFIUM_LOCK:
        return _write_pdf(doc, plan, source)


def _write_pdf(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    from PIL import ImageDraw

    pages: list[array] = doc.extra.get("pdf_pages") or []
    edits = split_plan(plan, doc.segments)
    masked: dict[int, list[int]] = {}     # page -> pdfium char indices to black out
    for (member, page_no), local in edits.items():
        idx = pages[page_no]
        for a, b, _ in local:
            masked.setdefault(page_no, []).extend(idx[a:b])
    pdf = _open(source)
    images: list[tuple[bytes, int, int, float, float]] = []
    try:
        if len(pdf) != len(pages):
            raise DocumentError("The PDF does not match what was reviewed; open it again.")
        for i in range(len(pdf)):
            page = pdf[i]
            try:
                w_pt, h_pt = page.get_size()
                scale = DPI / 72.0
                if w_pt * h_pt * scale * scale > MAX_PAGE_PIXELS:
                    scale = 0.999 * (MAX_PAGE_PIXELS / (w_pt * h_pt)) ** 0.5  # pixel sizes round up
                bitmap = page.render(scale=scale, may_draw_forms=False, draw_annots=False)
                img = bitmap.to_pil().convert("RGB")
                if masked.get(i):
                    conv = bitmap.get_posconv(page)
                    tp = page.get_textpage()
                    draw = ImageDraw.Draw(img)
                    try:
                        for k in sorted(set(masked[i])):
                            left, bottom, right, top = tp.get_charbox(k, loose=True)
                            if right <= left or top <= bottom:
                                continue  # generated or zero-size character (space, line break)
                            x0, y0 = conv.to_bitmap(left - BOX_PAD_PT, bottom - BOX_PAD_PT)
                            x1, y1 = conv.to_bitmap(right + BOX_PAD_PT, top + BOX_PAD_PT)
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
    with PDFIUM_LOCK:
        pages: list[array] = doc.extra.get("pdf_pages") or []
        starts = {s.slot: s.start for s in doc.segments if s.member == "page"}
        pdf = _open(source)
        out: list[PageBoxes] = []
        try:
            if len(pdf) != len(pages):
                raise DocumentError("The PDF does not match what was reviewed; open it again.")
            for i in range(len(pdf)):
                page = pdf[i]
                try:
                    w, h = page.get_size()
                    tp = page.get_textpage()
                    try:
                        boxes = []
                        for k in pages[i]:
                            left, bottom, right, top = tp.get_charbox(k, loose=False)
                            if right <= left or top <= bottom:
                                boxes.append(None)
                            else:
                                boxes.append((left, h - top, right, h - bottom))
                    finally:
                        tp.close()
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
