"""E-mail saved as ``.eml``: read as the decoded mail (``documents.mail``, as for a mail saved as ``.txt``),
written as a new text-only mail rebuilt from the reviewed content (``documents.eml``), re-read by the
leak check through the standard library's mail parser (``leakcheck.check_eml_bytes``)."""
from __future__ import annotations

import re

from .base import Format
from .plain import plain_text_export

#: the first line of a mail: a header field (``From:``, ``Received:``, ``X-...:``) or an mbox envelope line
_FIRST_LINE = re.compile(rb"(?:\xef\xbb\xbf)?(?:From |[!-9;-~]+:)")


def _read(path, data, encoding):
    from ..eml import read_eml

    return read_eml(path, data, encoding)


def _write(doc, plan, source):
    from ..eml import write_eml

    return write_eml(doc, plan, source)


def _check(data, matcher):
    from ..leakcheck import check_eml_bytes

    return check_eml_bytes(data, matcher)


def _sniff(head: bytes) -> bool:
    return bool(_FIRST_LINE.match(head))


FORMATS = (Format("eml", ("eml",), "E-mail (.eml; exported as a new text-only mail)",
                  "메일 (.eml, 본문만 담은 새 메일로 내보냄)", _read, {"eml": _write, "txt": plain_text_export},
                  leak_check="eml", check=_check, sniff=_sniff,
                  notes="headers and bodies decoded; attachments that are not text are left out"),)
