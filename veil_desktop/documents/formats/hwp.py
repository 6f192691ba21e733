"""HWP 5 (Hangul binary, OLE compound file), read by ``documents.hwp``. Exported as masked text until the
in-place writer (``documents.hwp.write_hwp``) is registered here as the ``hwp`` writer."""
from __future__ import annotations

from .base import Format
from .plain import plain_text_export


def _read(path, data, encoding):
    from ..hwp import read_hwp

    return read_hwp(path, data)


def _sniff(head: bytes) -> bool:
    return head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")


FORMATS = (Format("hwp", ("hwp",), "Hangul 5 binary (read-only; exported as TXT)",
                  "한글 5 문서 (읽기 전용, TXT로 내보냄)", _read, {"txt": plain_text_export},
                  leak_check="text", sniff=_sniff),)
