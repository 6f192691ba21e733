"""The document model shared by every format.

A ``Document`` is the *reviewable text* of a file plus a map from offsets in that text back to where each
character lives in the file.

Invariants:
- ``text`` is the concatenation of all parts in reading order; parts that are not the main body start
  with a visible header line (``── Header 1 ──``) so the reviewer sees the boundary. Header lines and
  inline labels (``[Alt text] ``) are *captions*: ``Document.captions`` lists each one's range with a
  language-neutral ``key`` and a ``detail`` (a number, a comment's author), so the UI can show them in its
  own language (``ui.i18n.caption``); the core writes them in English, never part paths;
- ``segments`` are sorted, non-overlapping half-open ranges of ``text``; each maps to one *slot* in the
  file (an XML text node, an attribute, a PDF page's characters, the whole of a text file). Characters
  of ``text`` outside every segment are boilerplate (part headers, paragraph breaks) that the writer
  does not write back as content;
- a masking plan (``list[Replacement]`` over ``text``) is split per slot by ``split_plan``: each
  replacement's text goes into the first slot it touches, the covered characters of the other slots are
  deleted. So a phone number split over three runs is masked as one value in the first run and the
  formatting of every run is kept.

``Document`` objects are immutable snapshots; they hold no open file handles and no global state, so the
UI may build and export them on a worker thread.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..masking import Replacement
from .limits import MAX_DOCUMENT_CHARS, MAX_SLOTS, check_text_size


@dataclass(frozen=True, slots=True)
class Part:
    """A reviewable part: ``text[start:end]`` (including its header line, if any)."""

    name: str          # human-readable, e.g. "Body", "Header 1", "Footnotes", "3쪽"
    start: int
    end: int
    source: str = ""   # where it lives in the file, e.g. "word/header1.xml", "page 3" (not shown)
    removed: bool = False  # shown for review but not written (DOCX tracked deletions, author fields)
    kind: str = ""     # caption key: "body", "header", "footer", "footnotes", "comments", ... ("" = name)
    detail: str = ""   # caption detail: "1" for the first header, ...


@dataclass(frozen=True, slots=True)
class Caption:
    """``text[start:end]`` is a caption the core wrote in English (``caption_text(key, detail)``)."""

    start: int
    end: int
    key: str
    detail: str = ""
    inline: bool = False   # an inline label ("[Alt text] ") rather than a part header line


#: English captions of the core (the UI translates by key: ``veil_desktop.ui.i18n``)
CAPTIONS_EN: dict[str, str] = {
    "body": "Body", "section": "Section {detail}", "header": "Header {detail}",
    "footer": "Footer {detail}", "footnotes": "Footnotes", "endnotes": "Endnotes",
    "comments": "Comments", "comment": "Comment {detail}", "textbox": "Text box",
    "footnote": "Footnote", "endnote": "Endnote", "memo": "Memo {detail}",
    "chart": "Chart / diagram", "glossary": "Building blocks", "settings": "Document settings",
    "styles": "Styles and numbering", "customxml": "Custom XML data", "other": "Other document data",
    "links": "Link targets", "metadata": "Document properties",
    "removed": "Removed from the export", "deleted": "Tracked deletion",
    "removed_chunk": "Embedded HTML/RTF (removed)", "binary_payload": "Binary data (emptied)",
    "alt": "Alt text", "alt_title": "Alt text title", "object_name": "Object name",
    "shape_text": "Shape text", "field": "Field", "link_tip": "Link tooltip", "form": "Form field",
    "control": "Content control", "bookmark": "Bookmark", "variable": "Document variable",
    "mail_merge": "Mail merge", "attribute": "Attribute", "scripts": "Scripts",
    "meta_title": "Title", "meta_subject": "Subject", "meta_keywords": "Keywords",
    "meta_description": "Comments", "meta_category": "Category", "meta_status": "Status",
    "meta_author": "Author", "meta_last_modified_by": "Last modified by", "meta_company": "Company",
    "meta_manager": "Manager", "meta_template": "Template", "meta_custom": "Custom property",
    "meta_other": "Property", "meta_comment_author": "Comment author", "page": "Page {detail}",
    "picture": "Picture {detail}", "mail_headers": "Mail headers", "mail_forwarded": "Forwarded message",
    "attachment": "Attachment {detail}", "attachment_removed": "Attachment {detail} (removed)",
}


def caption_text(key: str, detail: str = "") -> str:
    t = CAPTIONS_EN.get(key, key)
    if "{detail}" in t:
        return t.replace("{detail}", detail).strip()
    return t


@dataclass(frozen=True, slots=True)
class Segment:
    """``text[start:end]`` is the content of slot ``slot`` of container member ``member``."""

    start: int
    end: int
    member: str
    slot: int


@dataclass(frozen=True, slots=True)
class Location:
    """Where a character of ``Document.text`` lives (for messages and the report)."""

    part: str
    member: str
    slot: int | None   # None: boilerplate (not file content)
    offset_in_slot: int | None


@dataclass(frozen=True, slots=True)
class Unreadable:
    """Content a reader could not turn into reviewable text (no OCR here): the file **needs review**.

    ``reason``: ``"no_text_layer"`` (a page drawn without text: a scan), ``"image"`` (a picture large
    enough to hold text), ``"garbled_text"`` (a text layer that does not read as text: broken or lying
    ToUnicode map). ``caption`` is a one-line Korean caption for a banner; ``caption_en`` the English one.
    """

    where: str              # "page 3"
    reason: str
    caption: str
    caption_en: str = ""
    page: int | None = None   # 1-based page number (PDF)


@dataclass(frozen=True)
class Document:
    path: Path
    format: str                      # "txt", "csv", "docx", "hwpx", "pdf", "hwp"
    text: str
    parts: tuple[Part, ...]
    segments: tuple[Segment, ...]
    sha256: str                      # of the source bytes when it was opened (export checks it)
    size: int
    encoding: str | None = None      # text files: the codec used to read (and write back)
    newline: str | None = None       # text files: "\n", "\r\n", "\r", or None if mixed (kept raw)
    bom: bool = False                # text files: the source started with a byte-order mark
    notes: tuple[str, ...] = ()      # reader notes shown to the reviewer (no document text)
    unreadable: tuple[Unreadable, ...] = ()   # pages/parts that could not be read: needs review
    captions: tuple[Caption, ...] = ()  # header lines / inline labels written by the core (translatable)
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def needs_review(self) -> bool:
        """True if some page/part could not be read (``unreadable``, or OCR'd pages an OCR reader left
        in ``extra["unreadable_pages"]``): a person must look at it."""
        return bool(self.unreadable) or bool(self.extra.get("unreadable_pages"))

    def unreadable_pages(self) -> list[int]:
        """1-based numbers of the pages that need review (both sources above)."""
        pages = {u.page for u in self.unreadable if u.page is not None}
        pages.update(int(p) for p in self.extra.get("unreadable_pages", ()) or ())
        return sorted(pages)

    # -- offsets -> file -------------------------------------------------------------------
    def part_at(self, offset: int) -> Part | None:
        for p in self.parts:
            if p.start <= offset < p.end:
                return p
        return None

    def locate(self, offset: int) -> Location:
        """Where ``text[offset]`` lives in the file."""
        part = self.part_at(offset)
        pname = part.name if part else ""
        i = bisect.bisect_right(self._seg_starts(), offset) - 1
        if i >= 0:
            s = self.segments[i]
            if s.start <= offset < s.end:
                return Location(pname, s.member, s.slot, offset - s.start)
        return Location(pname, part.source if part else "", None, None)

    def _seg_starts(self) -> list[int]:
        starts = self.extra.get("_seg_starts")
        if starts is None:
            starts = [s.start for s in self.segments]
            self.extra["_seg_starts"] = starts
        return starts

    def content_of(self, start: int, end: int) -> str:
        """The file content inside ``text[start:end]`` (boilerplate left out)."""
        if len(self.segments) == 1 and self.segments[0].start == 0 and self.segments[0].end == len(self.text):
            return self.text[start:end]
        out = []
        i = max(0, bisect.bisect_right(self._seg_starts(), start) - 1)
        while i < len(self.segments) and self.segments[i].start < end:
            s = self.segments[i]
            a, b = max(start, s.start), min(end, s.end)
            if a < b:
                out.append(self.text[a:b])
            i += 1
        return "".join(out)


@dataclass(frozen=True)
class ExportResult:
    """What ``export_document`` did. No document text in here."""

    source: Path
    output: Path
    report: Path
    format: str
    replacements: int
    counts: dict[str, int]
    input_sha256: str
    output_sha256: str
    leak_check: dict[str, Any]
    warnings: tuple[str, ...] = ()


# -- building text + segments ------------------------------------------------------------------
class TextBuilder:
    """Accumulates reviewable text, segments and parts while a reader walks a file."""

    def __init__(self) -> None:
        self._chunks: list[str] = []
        self._len = 0
        self.segments: list[Segment] = []
        self.parts: list[Part] = []
        self.captions: list[Caption] = []
        self._part: tuple[str, str, int, bool, str, str] | None = None

    @property
    def length(self) -> int:
        return self._len

    def boilerplate(self, s: str) -> None:
        if s:
            self._chunks.append(s)
            self._len += len(s)
            if self._len > MAX_DOCUMENT_CHARS:
                check_text_size(self._len, len(self.segments))

    def slot(self, member: str, slot: int, s: str) -> None:
        if s:
            self.segments.append(Segment(self._len, self._len + len(s), member, slot))
            self._chunks.append(s)
            self._len += len(s)
            if self._len > MAX_DOCUMENT_CHARS or len(self.segments) > MAX_SLOTS:
                check_text_size(self._len, len(self.segments))  # limits.py: raises ResourceLimit

    def caption(self, key: str, detail: str = "", inline: bool = True) -> None:
        """An inline label such as ``[Alt text] `` (boilerplate, recorded in ``captions``)."""
        t = caption_text(key, detail)
        start = self._len + 1
        self.boilerplate(f"[{t}] ")
        self.captions.append(Caption(start, start + len(t), key, detail, inline))

    def ends_with_newline(self) -> bool:
        return not self._chunks or self._chunks[-1].endswith("\n")

    def begin_part(self, name: str, source: str = "", header: bool = True, removed: bool = False,
                   kind: str = "", detail: str = "") -> None:
        """Start a part. With ``kind`` the header line is the caption of that kind (English, recorded in
        ``captions``; the part's file path is kept in ``Part.source`` but not shown); without it, the
        old form ``── name (source) ──``."""
        self.end_part()
        if kind:
            name = caption_text(kind, detail)
        if header:
            if not self.ends_with_newline():
                self.boilerplate("\n")
            start = self._len
            if kind:
                self.boilerplate(f"── {name} ──\n")
                self.captions.append(Caption(start + 3, start + 3 + len(name), kind, detail))
            else:
                label = f"{name} ({source})" if source else name
                self.boilerplate(f"── {label} ──\n")
        else:
            start = self._len
        self._part = (name, source, start, removed, kind, detail)

    def end_part(self) -> None:
        if self._part is not None:
            name, source, start, removed, kind, detail = self._part
            if self._len > start:
                self.parts.append(Part(name, start, self._len, source, removed, kind, detail))
            self._part = None

    def text(self) -> str:
        self.end_part()
        return "".join(self._chunks)


def split_plan(plan: Iterable[Replacement], segments: Iterable[Segment]
               ) -> dict[tuple[str, int], list[tuple[int, int, str]]]:
    """Split a plan over ``Document.text`` into local edits per slot.

    Returns ``{(member, slot): [(local_start, local_end, new_text), ...]}`` sorted by position.
    A replacement's text goes into the first slot it overlaps; its characters in later slots are
    deleted (empty new text). A replacement that touches no slot (pure boilerplate) is dropped.
    """
    segs = sorted(segments, key=lambda s: s.start)
    starts = [s.start for s in segs]
    out: dict[tuple[str, int], list[tuple[int, int, str]]] = {}
    for r in sorted(plan, key=lambda r: r.start):
        i = max(0, bisect.bisect_right(starts, r.start) - 1)
        placed = False
        while i < len(segs) and segs[i].start < r.end:
            s = segs[i]
            a, b = max(r.start, s.start), min(r.end, s.end)
            if a < b:
                out.setdefault((s.member, s.slot), []).append(
                    (a - s.start, b - s.start, "" if placed else r.text))
                placed = True
            i += 1
    return out


def apply_local(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply sorted, non-overlapping local edits to one slot's text."""
    out, pos = [], 0
    for a, b, new in sorted(edits):
        if a < pos:
            raise ValueError("overlapping edits in one slot")
        out.append(text[pos:a])
        out.append(new)
        pos = b
    out.append(text[pos:])
    return "".join(out)
