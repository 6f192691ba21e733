"""HWPX (Hangul, OWPML ZIP package), written back as HWPX (``documents.hwpx``)."""
from __future__ import annotations

from .base import Format
from .plain import plain_text_export


def _read(path, data, encoding):
    from ..hwpx import read_hwpx

    return read_hwpx(path, data)


def _write(doc, plan, source):
    from ..hwpx import write_hwpx

    return write_hwpx(doc, plan, source)


def _sniff(head: bytes) -> bool:
    return head.startswith(b"PK\x03\x04")


FORMATS = (Format("hwpx", ("hwpx",), "Hangul document (HWPX)", "한글 문서 (HWPX)", _read,
                  {"hwpx": _write, "txt": plain_text_export}, leak_check="zip", sniff=_sniff),)
