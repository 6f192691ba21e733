"""Images (PNG, JPEG, TIFF incl. multi-page): OCR'd for review, exported with opaque boxes burned in.

Reading: every frame is decoded (bounded: ``MAX_FRAMES`` frames, ``MAX_PIXELS`` pixels each, Pillow's
decompression-bomb guard on) and recognised with ``ocr.ocr_image`` (``flatten``: a photo under uneven light,
read unsurely, is read divided by its paper level too); ``Document.text`` has one part per frame
(``1쪽``) whose slot is the frame's OCR text. A frame whose resolution tag says its pixels are not square
(a fine-mode fax, 204 × 98 dpi) is read stretched square, as a viewer shows it (``ocr.pixel_stretch``), and
written back with its own pixel grid and resolution tag. ``extra["ocr_pages"]`` keeps each frame's ``OcrPage`` (boxes
in source pixels), ``Document.unreadable`` the frames OCR could not read with confidence (they keep the
*needs review* status), ``extra["ocr"]`` the summary the report records (engine, pages, mean confidence —
never text).

Writing (``write_image``): each frame gets black boxes over the characters of every replacement (padded for
blur and skew) and is saved in the source's format (PNG → PNG, JPEG → JPEG, TIFF → multi-page TIFF) without
the source's metadata (EXIF, XMP, ICC comments, text chunks). The fail-closed check (``check_image``) runs OCR
again on the written file: any masked value still recognisable refuses the export.
"""
from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Callable, Iterable

from ..masking import Replacement
from . import limits, ocr
from .errors import DocumentError
from .model import Document, TextBuilder, Unreadable, split_plan

IMAGE_FORMATS = {"png": "PNG", "jpg": "JPEG", "jpeg": "JPEG", "tif": "TIFF", "tiff": "TIFF"}
MAX_FRAMES = limits.MAX_IMAGE_FRAMES
MAX_PIXELS = limits.MAX_IMAGE_PIXELS     # per frame (A3 at 600 dpi is ~70 M)
JPEG_QUALITY = 92
#: the content kinds (``pictures.sniff``) a standalone image may be, whatever its name says
_KINDS = {"png": "PNG", "jpeg": "JPEG", "tiff": "TIFF"}


def _open_frames(data: bytes, name: str) -> list:
    from PIL import Image, UnidentifiedImageError

    from .pictures import sniff

    kind = sniff(data)
    if kind not in _KINDS:     # by content: never hand Pillow a format it was not asked for (EPS, PSD ...)
        raise DocumentError(f"{name} is not a readable image (damaged or not PNG/JPEG/TIFF).")
    old = Image.MAX_IMAGE_PIXELS
    try:
        Image.MAX_IMAGE_PIXELS = MAX_PIXELS
        try:
            img = Image.open(io.BytesIO(data), formats=[_KINDS[kind]])
        except UnidentifiedImageError:
            raise DocumentError(f"{name} is not a readable image (damaged or not PNG/JPEG/TIFF).") from None
        except Image.DecompressionBombError:
            raise DocumentError(f"{name} is too large: more than {MAX_PIXELS // 1_000_000} million pixels "
                                "per page. Scan it at a lower resolution and try again.") from None
        frames = []
        n = getattr(img, "n_frames", 1)
        if n > MAX_FRAMES:
            raise DocumentError(f"{name} has {n} pages; at most {MAX_FRAMES} are supported. "
                                "Split the file and try again.")
        for i in range(n):
            img.seek(i)
            w, h = img.size
            if w * h > MAX_PIXELS:
                raise DocumentError(f"Page {i + 1} of {name} is too large ({w}×{h} pixels).")
            frame = img.copy()
            frame.load()
            frames.append(frame)
        return frames
    except (OSError, SyntaxError, ValueError) as e:
        raise DocumentError(f"{name} could not be decoded as an image ({type(e).__name__}).") from None
    finally:
        Image.MAX_IMAGE_PIXELS = old


def read_image(path: Path, data: bytes, *, cancelled: Callable[[], bool] | None = None) -> Document:
    if not ocr.available():
        raise DocumentError("Images need OCR, which is not available in this installation "
                            "(tesserocr or resources/tessdata missing).")
    frames = _open_frames(data, path.name)
    tb = TextBuilder()
    pages: list[ocr.OcrPage] = []
    unreadable: list[int] = []
    from .reread import settle_weak_words

    for i, frame in enumerate(frames):
        ocr.report_page(i, len(frames))
        # words OCR guessed are read again on their own, as on a PDF scan page (a sure reading replaces the
        # guess); a plain scan is held by its mean confidence, not for each guessed word (a 150-dpi scan
        # has some on nearly every page)
        page, _disputed = settle_weak_words(frame, ocr.ocr_image(frame, progress=cancelled, flatten=True))
        pages.append(page)
        if not page.readable:
            unreadable.append(i + 1)
        tb.begin_part(f"{i + 1}쪽", f"page {i + 1}")
        tb.slot("page", i, page.text)
        if not tb.ends_with_newline():
            tb.boilerplate("\n")
        tb.end_part()
    ocr.report_page(len(frames), len(frames))
    confs = [p.confidence for p in pages if p.words]
    notes = [f"Text recognised by OCR ({len(pages)} page(s)); check the page image for what OCR missed."]
    if unreadable:
        notes.append("Pages OCR could not read reliably (needs review): "
                     + ", ".join(str(n) for n in unreadable) + ".")
    fmt = path.suffix.lower().lstrip(".")
    return Document(path=path, format=fmt, text=tb.text(), parts=tuple(tb.parts), segments=tuple(tb.segments),
                    sha256=hashlib.sha256(data).hexdigest(), size=len(data), notes=tuple(notes),
                    unreadable=tuple(ocr_unreadable(n) for n in unreadable),
                    extra={"ocr_pages": pages,
                           "ocr": {"engine": "tesseract", "pages": len(pages),
                                   "mean_confidence": round(sum(confs) / len(confs), 1) if confs else 0.0}})


def ocr_unreadable(page_no: int) -> Unreadable:
    """A page OCR could not read with confidence: the file needs review."""
    return Unreadable(where=f"page {page_no}", reason="ocr_low_confidence",
                      caption=f"{page_no}쪽: 글자를 읽지 못했습니다(OCR 신뢰도 낮음) — 직접 확인하세요",
                      caption_en=f"page {page_no}: OCR could not read it reliably — review it yourself",
                      page=page_no)


def page_ranges(doc: Document, plan: Iterable[Replacement]) -> dict[int, list[tuple[int, int]]]:
    """Per page (0-based): the ranges of that page's OCR text a plan masks."""
    out: dict[int, list[tuple[int, int]]] = {}
    for (_member, page_no), local in split_plan(plan, doc.segments).items():
        out.setdefault(page_no, []).extend((a, b) for a, b, _ in local)
    return out


def write_image(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    pages: list[ocr.OcrPage] = doc.extra.get("ocr_pages") or []
    frames = _open_frames(source, doc.path.name)
    if len(frames) != len(pages):
        raise DocumentError("The image does not match what was reviewed; open it again.")
    ranges = page_ranges(doc, plan)
    out_frames = []
    for i, frame in enumerate(frames):
        burned = ocr.burn(frame, ocr.burn_boxes(pages[i], ranges.get(i, ()), frame))
        out_frames.append(burned)
    return encode(out_frames, IMAGE_FORMATS[doc.format])


def encode(frames: list, pil_format: str) -> bytes:
    """Frames → bytes in ``pil_format`` from their pixels only (fresh images: no EXIF/XMP/ICC, text
    chunks, comments or trailing bytes of the source; ``pictures._fresh``)."""
    from .pictures import _fresh

    buf = io.BytesIO()
    kind = {"PNG": "png", "JPEG": "jpeg", "TIFF": "tiff"}[pil_format]
    clean = [_fresh(f, kind) for f in frames]
    kwargs: dict = {}
    if pil_format == "JPEG":
        kwargs = {"quality": JPEG_QUALITY}
    elif pil_format == "TIFF":
        kwargs = {"compression": "tiff_deflate", "save_all": len(clean) > 1,
                  "append_images": clean[1:]}
    dpi = resolution(frames[0])
    if dpi is not None:
        kwargs["dpi"] = dpi
    clean[0].save(buf, pil_format, **kwargs)
    return buf.getvalue()


def resolution(frame) -> tuple[float, float] | None:
    """The frame's resolution tag as two numbers (dots per inch across and down), rebuilt — not copied —
    so the output shows as the source did: a fine-mode fax (204 × 98 dpi) keeps its shape in a viewer and
    is read square again by the leak check. None when it has none or it is not two sane numbers."""
    import math

    dpi = (getattr(frame, "info", None) or {}).get("dpi")
    if not isinstance(dpi, (tuple, list)) or len(dpi) != 2:
        return None
    try:
        x, y = float(dpi[0]), float(dpi[1])
    except (TypeError, ValueError):
        return None
    ok = all(math.isfinite(v) and 1.0 <= v <= 10000.0 for v in (x, y))
    return (round(x, 2), round(y, 2)) if ok else None


def check_image(data: bytes, values: list[str], name: str = "output") -> list[str]:
    """Fail-closed check of a written image: OCR it again; returns where masked values are still readable."""
    frames = _open_frames(data, name)
    hits = []
    for i, frame in enumerate(frames):
        page = ocr.ocr_image(frame, flatten=True)
        for k in ocr.recognisable(values, page.text):
            hits.append(f"page {i + 1}: masked value #{k + 1} still readable by OCR")
    return hits
