"""HWP 5 (Hangul binary, OLE compound file): read by ``documents.hwp`` and written back IN PLACE as HWP
(``documents.hwp.write_hwp``: same-length masking inside the paragraph-text records, sections recompressed,
the compound file rewritten by ``documents.cfb``; summary, preview text/image, scripts, history and OLE
objects scrubbed or removed), checked by its own independent reader (``documents.leakcheck_hwp``: every
OLE stream, decompressed records, UTF-16 text). A masked ``.txt`` remains available on request."""
from __future__ import annotations

from .base import Format
from .plain import plain_text_export


def _read(path, data, encoding):
    from ..hwp import read_hwp

    return read_hwp(path, data)


def _write(doc, plan, source):
    from ..hwp import write_hwp

    return write_hwp(doc, plan, source)


def _check(data, matcher):
    from ..leakcheck_hwp import check_hwp_bytes

    return check_hwp_bytes(data, matcher)


def _sniff(head: bytes) -> bool:
    # an HWP 3 file passes too, so that the reader refuses it with its own message ("HWP 3 ... not supported")
    return head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1") or head.startswith(b"HWP Document File")


FORMATS = (Format("hwp", ("hwp",), "Hangul 5 document (HWP, written back as HWP)", "한글 5 문서 (HWP, HWP로 내보냄)",
                  _read, {"hwp": _write, "txt": plain_text_export}, leak_check="hwp", check=_check,
                  sniff=_sniff),)
