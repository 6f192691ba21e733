"""PDF: read with pypdfium2 (scanned pages by OCR), exported as a rasterised PDF with burned-in boxes and
no text layer (``documents.pdf``)."""
from __future__ import annotations

from .base import Format
from .plain import plain_text_export


def _read(path, data, encoding):
    from ..pdf import read_pdf

    return read_pdf(path, data)


def _write(doc, plan, source):
    from ..pdf import write_pdf

    return write_pdf(doc, plan, source)


def _sniff(head: bytes) -> bool:
    return b"%PDF-" in head[:1024]


FORMATS = (Format("pdf", ("pdf",), "PDF (exported as a rasterised PDF with burned-in boxes)",
                  "PDF (상자를 그려 넣은 이미지 PDF로 내보냄)", _read, {"pdf": _write, "txt": plain_text_export},
                  leak_check="pdf", sniff=_sniff, pages=True),)
