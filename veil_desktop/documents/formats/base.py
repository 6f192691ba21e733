"""The shape of a format declaration. No Qt, no reader imported here.

A format is one module under ``documents/formats/`` that builds a :class:`Format` and hands it to
:func:`veil_desktop.documents.formats.register`; every list of suffixes, readers, writers, leak-check kinds
and output names in the product is derived from the registry (``documents.formats``), so adding a format is
one module plus its tests (``tests/documents/test_format_registry.py`` registers a toy format that way).

Readers and writers are plain functions, imported lazily by the declaration (pypdfium2, tesserocr and
olefile load only when such a file is opened):

- ``read(path, data, encoding) -> Document`` — ``encoding`` is the user's override (text formats only);
- a writer ``write(doc, plan, source) -> bytes`` — ``plan``: ``masking.Replacement`` list over ``doc.text``,
  ``source``: the original bytes (re-read and hash-checked by the export before the call).

``leak_check`` names the independent check of ``documents.leakcheck`` that re-reads an output of this
format ("text", "zip", "pdf", "image", or a format's own, e.g. "hwp"); ``sniff(head)`` says from the first
bytes whether a file really is of this format (used to refuse a renamed file with a clear message, never to
guess a format that the suffix does not name); ``pages`` marks formats the window shows as pages (PDF,
images).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

if TYPE_CHECKING:  # pragma: no cover - types only
    from ...masking import Replacement
    from ..model import Document

Reader = Callable[[Path, bytes, "str | None"], "Document"]
Writer = Callable[["Document", "list[Replacement]", bytes], bytes]


@dataclass(frozen=True)
class Format:
    #: short name, e.g. "docx"; also the name of the output format it writes back
    name: str
    #: suffixes without dot, lower case, the first one canonical ("jpg", "jpeg")
    suffixes: tuple[str, ...]
    #: English / Korean descriptions (help texts, file dialogs)
    description: str
    description_ko: str
    read: Reader
    #: output format name -> writer; the first entry is the default export (same format where possible).
    #: An output format is a registered format name or "txt" (masked plain text of any document).
    writers: Mapping[str, Writer]
    #: kind of independent leak check of outputs *of this format*
    leak_check: str
    #: True when the first bytes look like this format (None: any content)
    sniff: Callable[[bytes], bool] | None = None
    #: the window shows it as pages (rendered page images with item boxes)
    pages: bool = False
    #: the independent leak check of outputs of this format, ``check(data, matcher) -> LeakReport``; None:
    #: the built-in check named by ``leak_check`` (``documents.export.leak_check_for``)
    check: Callable | None = None
    #: help text for the CLI's format list (one line, English)
    notes: str = ""
    extra: Mapping[str, object] = field(default_factory=dict)

    @property
    def suffix(self) -> str:
        return self.suffixes[0]

    @property
    def outputs(self) -> tuple[str, ...]:
        return tuple(self.writers)
