"""Format registry: which reader opens a suffix, which writer produces which output suffix, and which
independent leak check verifies it. Readers/writers are imported lazily (pypdfium2 only when needed)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..masking import Replacement, apply_replacements
from .errors import UnsupportedFormat
from .model import Document

#: suffix (without dot) -> human description
SUPPORTED_FORMATS: dict[str, str] = {
    "txt": "Text (UTF-8, UTF-16, CP949/EUC-KR)",
    "csv": "CSV (UTF-8, UTF-16, CP949/EUC-KR)",
    "docx": "Word document",
    "hwpx": "Hangul document (HWPX)",
    "pdf": "PDF (exported as a rasterised PDF with burned-in boxes)",
    "hwp": "Hangul 5 binary (read-only; exported as TXT)",
    "png": "PNG image (OCR; exported with burned-in boxes)",
    "jpg": "JPEG image (OCR; exported with burned-in boxes)",
    "jpeg": "JPEG image (OCR; exported with burned-in boxes)",
    "tif": "TIFF image, multi-page (OCR; exported with burned-in boxes)",
    "tiff": "TIFF image, multi-page (OCR; exported with burned-in boxes)",
}

#: source format -> output formats it can be exported to (first = default, same format where possible)
EXPORTS: dict[str, tuple[str, ...]] = {
    "txt": ("txt", "csv"),
    "csv": ("csv", "txt"),
    "docx": ("docx", "txt"),
    "hwpx": ("hwpx", "txt"),
    "pdf": ("pdf", "txt"),
    "hwp": ("txt",),
    "png": ("png", "txt"),
    "jpg": ("jpg", "txt"),
    "jpeg": ("jpeg", "txt"),
    "tif": ("tif", "txt"),
    "tiff": ("tiff", "txt"),
}

#: output format -> kind of independent leak check
CHECK_KIND = {"txt": "text", "csv": "text", "docx": "zip", "hwpx": "zip", "pdf": "pdf",
              "png": "image", "jpg": "image", "jpeg": "image", "tif": "image", "tiff": "image"}


def supported_suffixes() -> tuple[str, ...]:
    """Suffixes ``open_document`` accepts, with the dot: ``(".txt", ".csv", ...)``."""
    return tuple("." + s for s in SUPPORTED_FORMATS)


def format_of(path: Path) -> str:
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in SUPPORTED_FORMATS:
        raise UnsupportedFormat(
            f"'{path.suffix or path.name}' files are not supported; supported: "
            + ", ".join(supported_suffixes()) + ".")
    return fmt


Reader = Callable[[Path, bytes, str, "str | None"], Document]
Writer = Callable[[Document, list[Replacement], bytes], bytes]


def reader_for(fmt: str) -> Reader:
    if fmt in ("txt", "csv"):
        from .textfile import read_text_file
        return read_text_file
    if fmt == "docx":
        from .docx import read_docx
        return lambda p, d, f, e: read_docx(p, d)
    if fmt == "hwpx":
        from .hwpx import read_hwpx
        return lambda p, d, f, e: read_hwpx(p, d)
    if fmt == "pdf":
        from .pdf import read_pdf
        return lambda p, d, f, e: read_pdf(p, d)
    if fmt == "hwp":
        from .hwp import read_hwp
        return lambda p, d, f, e: read_hwp(p, d)
    if fmt in ("png", "jpg", "jpeg", "tif", "tiff"):
        from .image import read_image
        return lambda p, d, f, e: read_image(p, d)
    raise UnsupportedFormat(f"no reader for {fmt}")


def _plain_text_export(doc: Document, plan: list[Replacement], source: bytes) -> bytes:
    """Any document -> UTF-8 text of the masked reviewable text (part headers included). Parts marked
    ``removed`` (tracked deletions, author fields: shown for review, never written) are left out."""
    # a caption naming a person (a comment's author) is shown for review only: like the author attribute
    # in the document itself, it is not written ("[Comment 박지성]" -> "[Comment]")
    from .model import caption_text

    taken = sorted((r.start, r.end) for r in plan)
    extra = []
    for c in getattr(doc, "captions", ()):
        if c.detail and not c.detail.isdigit() and not any(a < c.end and c.start < b for a, b in taken):
            extra.append(Replacement(c.start, c.end, caption_text(c.key, ""), ""))
    if extra:
        plan = sorted(list(plan) + extra, key=lambda r: r.start)
    removed = sorted((p.start, p.end) for p in doc.parts if p.removed)
    if removed:
        keep, pos = [], 0
        for a, b in removed:
            if a > pos:
                keep.append((pos, a))
            pos = max(pos, b)
        if pos < len(doc.text):
            keep.append((pos, len(doc.text)))
        pieces = []
        for a, b in keep:
            local = [Replacement(max(r.start, a) - a, min(r.end, b) - a, r.text, r.label)
                     for r in plan if r.start < b and r.end > a]
            pieces.append(apply_replacements(doc.text[a:b], local))
        text = "".join(pieces)
    else:
        text = apply_replacements(doc.text, plan)
    return text.replace("\n", "\r\n" if doc.newline == "\r\n" else "\n").encode("utf-8")


def writer_for(src: str, out: str) -> Writer:
    if out not in EXPORTS.get(src, ()):
        raise UnsupportedFormat(
            f"A .{src} document cannot be exported as .{out}; choose one of: "
            + ", ".join("." + s for s in EXPORTS.get(src, ())) + ".")
    if src in ("txt", "csv"):
        from .textfile import write_text_file
        return write_text_file
    if out == "txt":
        return _plain_text_export
    if src == "docx":
        from .docx import write_docx
        return write_docx
    if src == "hwpx":
        from .hwpx import write_hwpx
        return write_hwpx
    if src == "pdf":
        from .pdf import write_pdf
        return write_pdf
    if src in ("png", "jpg", "jpeg", "tif", "tiff"):
        from .image import write_image
        return write_image
    raise UnsupportedFormat(f"no writer for .{src} -> .{out}")
