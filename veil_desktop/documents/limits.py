"""Resource limits on what a document actually inflates and builds (one place for every cap).

Caps on *declared* sizes are not enough: a ZIP member can lie about its size until it is inflated, a
small ZIP inside a ZIP can hold gigabytes, and 600 KB of compressed one-letter paragraphs parse into
millions of XML nodes. So every reader charges what it really produces against a ``Budget``:

- inflated ZIP bytes (members streamed in chunks with a running total; nested ZIPs charge the same
  budget, so a nested bomb stops at the same line);
- XML elements about to be parsed (estimated from the bytes before the tree is built);
- characters and text slots ("paragraphs") of the reviewable text.

A budget is per document and per thread: ``open_document`` and ``export_document`` open one with
``document_budget()``; code that runs outside such a block gets a fresh budget per call. Going over a limit
raises ``ResourceLimit`` (a ``DocumentError``) with a message that names the limit and what to do.

The limits are chosen so that one document stays well under 1.5 GB of memory from open to export
(docs/DOCUMENTS.md, "Limits", has the measured figures).
"""
from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass

from .errors import DocumentError

MAX_INPUT_BYTES = 512 * 1024 * 1024          # any input file
MAX_TEXT_FILE_BYTES = 64 * 1024 * 1024       # .txt/.csv (a 64 MB text file is ~20-60 M characters)
MAX_INFLATED_TOTAL = 384 * 1024 * 1024       # all ZIP members of one document, nested ZIPs included
MAX_MEMBER_BYTES = 160 * 1024 * 1024         # one ZIP member (inflated)
MAX_XML_PART = 64 * 1024 * 1024              # one XML part (inflated)
MAX_XML_ELEMENTS = 3_000_000                 # XML elements of one document (all parts together)
MAX_NESTING = 2                              # ZIPs inside ZIPs opened (the leak check)
MAX_DOCUMENT_CHARS = 5_000_000               # reviewable text of one document (~3,000 pages)
MAX_SLOTS = 500_000                          # text slots (runs, paragraphs, cells): ~1.1 KB each to open
MAX_PDF_PAGES = 2000
CHUNK = 1024 * 1024                          # streaming inflation step
# pictures (documents/pictures.py inside DOCX/HWPX/HWP, documents/image.py for standalone images)
MAX_PICTURE_PIXELS = 40_000_000              # one frame of a picture inside a document (Pillow bomb guard)
MAX_PICTURE_FRAMES = 64                      # frames/pages of one picture inside a document
MAX_PICTURE_TOTAL_PIXELS = 80_000_000        # all frames of one picture together (~320 MB as RGBA)
MAX_PICTURES_CHECKED = 64                    # distinct pictures OCR'd per document; the rest: needs review
MAX_PICTURE_FRAMES_CHECKED = 256             # frames OCR'd per document; the rest: needs review
MAX_IMAGE_PIXELS = 80_000_000                # one page of a standalone image file (A3 at 600 dpi ~70 M)
MAX_IMAGE_FRAMES = 200                       # pages of a standalone image file (multi-page TIFF)
# OCR and PDF pages (documents/ocr.py, documents/pdf.py)
MAX_OCR_PIXELS = 60_000_000                  # one page image given to Tesseract (larger: scaled down)
MAX_PAGE_PIXELS = 40_000_000                 # one rendered PDF page (about A0 at 150 dpi; larger: lower scale)
PDF_OCR_MAX_PIXELS = 40_000_000              # one scanned PDF page rendered for OCR
MAX_PDF_CONTENT_STREAM = 24 * 1024 * 1024    # one inflated PDF content stream
MAX_PDF_CONTENT_TOTAL = 64 * 1024 * 1024     # all content streams of one PDF
MAX_PDF_IMAGE_STREAM = 160 * 1024 * 1024     # one inflated PDF image stream
# packages and embedded data
MAX_ZIP_MEMBERS = 5000                       # members of one ZIP package
MAX_METAFILE = 32 * 1024 * 1024              # one EMF/WMF picture read for its text records
MAX_ENCODED_RUNS = 2_000                     # base64 runs looked at in one text (documents/encoded.py)
# review files (review/): sessions, term lists, find, review files, duplicates
MAX_SESSION_BYTES = 256 * 1024 * 1024        # one saved session
MAX_TERMS = 20_000                           # terms of one term list
MAX_TERM_CHARS = 200                         # characters of one term
MAX_TERM_FILE_BYTES = 8 * 1024 * 1024        # one term-list CSV
MAX_FIND_MATCH = 4_096                       # characters of one find match
MAX_FIND_QUERY = 1_000                       # characters of one find query
MAX_REVIEW_FILE_BYTES = 64 * 1024 * 1024     # one *.veil-review.json
MAX_DUPLICATE_PAIRS = 2_000_000              # near-duplicate comparisons of one workspace
# (the model-folder caps live in detect/model_folder.py: detect is a floor below documents)


class ResourceLimit(DocumentError):
    """A document exceeds a resource limit; ``str(exc)`` says which and what to do."""


def _mb(n: int) -> str:
    return f"{n / 2**20:,.0f} MB"


@dataclass
class Budget:
    """What one document has used so far (see the module docstring)."""

    inflated: int = 0
    elements: int = 0
    what: str = "document"
    #: export re-parses every XML part (not only text parts) and some twice: a document that opened
    #: within the limit must export, so an export budget allows more (``document_budget(export=True)``)
    element_limit: int = MAX_XML_ELEMENTS

    def charge_inflated(self, n: int, where: str = "") -> None:
        self.inflated += n
        if self.inflated > MAX_INFLATED_TOTAL:
            raise ResourceLimit(
                f"The {self.what} unpacks to more than {_mb(MAX_INFLATED_TOTAL)}"
                + (f" (reached in {where})" if where else "")
                + "; refusing to open it (possible ZIP bomb). If it is a genuine file, remove large "
                "embedded objects or pictures, or split it, and try again.")

    def charge_elements(self, n: int, where: str = "") -> None:
        self.elements += n
        if self.elements > self.element_limit:
            raise ResourceLimit(
                f"The {self.what} has more than {self.element_limit:,} XML elements"
                + (f" (reached in {where})" if where else "")
                + "; refusing to open it. Split the document into smaller files and try again.")


_local = threading.local()


def current_budget() -> Budget | None:
    """The budget of the document being processed on this thread, if a ``document_budget`` is open."""
    return getattr(_local, "budget", None)


def budget_or_new(what: str = "document") -> Budget:
    b = current_budget()
    return b if b is not None else Budget(what=what)


@contextlib.contextmanager
def document_budget(what: str = "document", *, export: bool = False, fresh: bool = False):
    """Open a per-document budget on this thread. Nested calls reuse the outer one, unless ``fresh``
    (the export's leak check re-reads the output with a budget of its own: it inflates the same
    members the writer already did)."""
    outer = current_budget()
    if outer is not None and not fresh:
        yield outer
        return
    b = Budget(what=what, element_limit=MAX_XML_ELEMENTS * (4 if export else 1))
    _local.budget = b
    try:
        yield b
    finally:
        _local.budget = outer


def check_text_size(n_chars: int, n_slots: int = 0) -> None:
    """Raise ``ResourceLimit`` if reviewable text has grown past the per-document limits."""
    if n_chars > MAX_DOCUMENT_CHARS:
        raise ResourceLimit(
            f"The document's text is longer than {MAX_DOCUMENT_CHARS:,} characters; refusing to open it "
            "(it would not fit in memory for review). Split it into smaller files and try again.")
    if n_slots > MAX_SLOTS:
        raise ResourceLimit(
            f"The document has more than {MAX_SLOTS:,} paragraphs/text runs; refusing to open it. "
            "Split it into smaller files and try again.")
