"""Documents in, redacted documents out (no Qt).

- ``open_document(path)`` reads a TXT/CSV/DOCX/HWPX/PDF/HWP file into a ``Document``: the reviewable text
  of all parts (part boundaries visible) plus a map from text offsets back into the file;
- ``export_document(doc, plan, out_path)`` applies a masking plan (``masking.Replacement`` list over
  ``doc.text``) and writes the same format (or ``.txt``) atomically, after a fail-closed leak check that
  re-reads the output independently, plus ``<out_path>.report.json``.

Both are plain functions without global state; the UI calls them from a worker thread.
See docs/DOCUMENTS.md for the per-format details and the leak vectors covered.
"""
from __future__ import annotations

import os
from pathlib import Path

from .errors import DocumentError, LeakDetected, UnsupportedFormat
from .export import export_document, report_path_for
from .formats import EXPORTS, SUPPORTED_FORMATS, format_of, output_name, reader_for, sniff_mismatch, spec, \
    supported_suffixes
from .matching import find_unmasked_copies, propagate_spans
from .model import Document, ExportResult, Location, Part, Segment, Unreadable

from .limits import MAX_INPUT_BYTES, ResourceLimit, document_budget  # noqa: E402  (all caps: limits.py)


def _with_encoded_text(doc: Document) -> Document:
    """``doc`` needs review where its reviewable text (body, attribute values, styles, metadata: every
    format) holds base64 that decodes to personal-looking text (``encoded.encoded_text``): the detectors
    cannot read it, a recipient can decode it."""
    import dataclasses

    from .encoded import encoded_text
    if any(u.reason == "encoded_text" for u in doc.unreadable):
        return doc
    text = doc.text
    for p in doc.parts:          # what the export removes is not published (tracked deletions, emptied data)
        if p.removed:
            text = text[:p.start] + " " * (p.end - p.start) + text[p.end:]
    found = encoded_text(text, doc.parts)
    return dataclasses.replace(doc, unreadable=doc.unreadable + tuple(found)) if found else doc


def open_document(path: "str | os.PathLike[str]", *, encoding: str | None = None,
                  pictures: str | None = None) -> Document:
    """Read ``path``; ``encoding`` overrides the detected one for TXT/CSV; ``pictures`` is the picture policy
    for pictures holding text (``"review"`` default, ``"blank"``, ``"remove"``: pictures.PicturePolicy).
    Raises ``DocumentError``."""
    from .pictures import picture_policy
    p = Path(path)
    fmt = format_of(p)
    if not p.exists():
        raise DocumentError(f"{p.name} does not exist.")
    if not p.is_file():
        raise DocumentError(f"{p.name} is not a file.")
    try:
        size = p.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise DocumentError(f"{p.name} is too large ({size // 2**20} MB).")
        data = p.read_bytes()
    except OSError as e:
        raise DocumentError(f"Cannot read {p.name}: {e.strerror or e}.") from None
    try:
        with document_budget(f".{fmt} file"), picture_policy(pictures):   # caps: limits.py
            doc = reader_for(fmt)(p, data, encoding)
            return _with_encoded_text(doc)
    except DocumentError:
        raise
    except MemoryError:
        raise ResourceLimit(f"{p.name} ran out of memory while opening (the file is too large or built "
                            "to exhaust memory); split it into smaller files.") from None
    except RecursionError:
        raise DocumentError(f"{p.name} is nested too deeply to be read (damaged or hostile file).") \
            from None
    except Exception as e:  # noqa: BLE001 - a malformed file must give a message, not a traceback
        if sniff_mismatch(fmt, data):     # the format's content sniffing names the likely cause
            raise DocumentError(f"{p.name} is not a {spec(fmt).description.split(' (')[0]} file: its content "
                                "is of another kind (renamed or damaged). Open the original file.") from e
        raise DocumentError(f"{p.name} could not be read as .{fmt}: the file is damaged or not a "
                            f"{fmt.upper()} file ({type(e).__name__}).") from e


__all__ = [
    "Document", "DocumentError", "EXPORTS", "ExportResult", "LeakDetected", "Location", "Part",
    "SUPPORTED_FORMATS", "Segment", "Unreadable", "UnsupportedFormat", "export_document", "find_unmasked_copies",
    "format_of", "open_document", "output_name", "propagate_spans", "report_path_for", "supported_suffixes",
]
