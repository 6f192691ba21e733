"""TXT and CSV: read with the encoding cascade of ``documents.textfile``, written back in the source's
encoding and line endings; either can be exported as the other."""
from __future__ import annotations

from .base import Format


def _read(path, data, encoding):
    from ..textfile import read_text_file

    return read_text_file(path, data, path.suffix.lower().lstrip("."), encoding)


def _write(doc, plan, source):
    from ..textfile import write_text_file

    return write_text_file(doc, plan, source)


TXT = Format("txt", ("txt",), "Text (UTF-8, UTF-16, CP949/EUC-KR)", "텍스트 (UTF-8, UTF-16, CP949/EUC-KR)",
             _read, {"txt": _write, "csv": _write}, leak_check="text")
CSV = Format("csv", ("csv",), "CSV (UTF-8, UTF-16, CP949/EUC-KR)", "CSV (UTF-8, UTF-16, CP949/EUC-KR)",
             _read, {"csv": _write, "txt": _write}, leak_check="text")
FORMATS = (TXT, CSV)
