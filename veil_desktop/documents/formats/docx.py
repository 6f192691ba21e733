"""DOCX (Word): every part found by relationship type, written back as DOCX (``documents.docx``)."""
from __future__ import annotations

from .base import Format
from .plain import plain_text_export


def _read(path, data, encoding):
    from ..docx import read_docx

    return read_docx(path, data)


def _write(doc, plan, source):
    from ..docx import write_docx

    return write_docx(doc, plan, source)


def _sniff(head: bytes) -> bool:
    return head.startswith(b"PK\x03\x04")


FORMATS = (Format("docx", ("docx",), "Word document", "Word 문서", _read,
                  {"docx": _write, "txt": plain_text_export}, leak_check="zip", sniff=_sniff),)
