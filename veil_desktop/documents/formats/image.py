"""Scans as pictures: PNG, JPEG, TIFF (multi-page), read by offline OCR and written back in the same
container with opaque boxes burned in (``documents.image``)."""
from __future__ import annotations

from .base import Format
from .plain import plain_text_export


def _read(path, data, encoding):
    from ..image import read_image

    return read_image(path, data)


def _write(doc, plan, source):
    from ..image import write_image

    return write_image(doc, plan, source)


def _png(head: bytes) -> bool:
    return head.startswith(b"\x89PNG\r\n\x1a\n")


def _jpeg(head: bytes) -> bool:
    return head.startswith(b"\xff\xd8\xff")


def _tiff(head: bytes) -> bool:
    return head[:4] in (b"II*\x00", b"MM\x00*")


def _image(name, suffixes, en, ko, sniff):
    return Format(name, suffixes, f"{en} image (OCR; exported with burned-in boxes)",
                  f"{ko} 이미지 (OCR, 상자를 그려 넣어 내보냄)", _read, {name: _write, "txt": plain_text_export},
                  leak_check="image", sniff=sniff, pages=True)


FORMATS = (_image("png", ("png",), "PNG", "PNG", _png),
           _image("jpeg", ("jpg", "jpeg"), "JPEG", "JPEG", _jpeg),
           _image("tiff", ("tif", "tiff"), "TIFF, multi-page", "TIFF(여러 쪽)", _tiff))
