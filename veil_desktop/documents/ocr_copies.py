"""Copies of a masked value that OCR misread (issue 26, false alarms of the fail-closed check).

A scan reads the same ink differently at two places: ``애플 아일랜드법인은`` on one line, ``야플의 투자
자회사`` three lines down (``야`` read at 41 % among syllables read at 93 %). The reviewer masks 애플, the
copy finder looks for ``애플`` and finds no second copy, and the export's check — reading the *output* by
OCR once more — reads that second copy correctly and refuses the file. The ink is one value: it has to be
masked like any other copy.

:func:`lookalike_copies` finds, in the OCR text of a document (scan pages, PDF scan pages and pictures,
pictures of DOCX/HWPX/HWP packages), every run that equals a masked value except in characters OCR read
with less than :data:`WEAK` confidence — at most a third of the value (one character of a two-character
value) — and agrees with it where it was read surely, and that no replacement touches (values too short
to check, ``matching.min_core_length``, are left out: ``ON`` is everywhere in a page of garbage). Those are copies: the batch masks them (``mask_copies``), the
window lists them with the other copies. Only OCR text is searched: typed text has no reading to doubt.
No Qt.
"""
from __future__ import annotations

from typing import Iterable

from .matching import min_core_length, strip_separators

#: a character of OCR text read with less confidence than this (its word's confidence) may be a misreading
WEAK = 60.0


def ocr_pages(doc) -> dict[tuple[str, int], object]:
    """``{(member, slot): OcrPage}`` for every segment of ``doc`` whose text is an OCR reading."""
    extra = getattr(doc, "extra", None) or {}
    out: dict[tuple[str, int], object] = {}
    for i, page in enumerate(extra.get("ocr_pages") or ()):          # an image's frames
        out[("page", i)] = page
    for i, (page, _scale) in (extra.get("pdf_ocr") or {}).items():   # PDF scan pages
        out[("page", i)] = page
    for n, pic in enumerate(extra.get("pdf_pictures") or ()):        # pictures on PDF text pages
        out[("pdf_picture", n)] = pic.reading
    for member, pages in (extra.get("picture_pages") or {}).items():  # pictures of packages
        for i, page in enumerate(pages):
            out[(member, i)] = page
    return out


def lookalike_copies(doc, text: str, plan: Iterable) -> list[tuple[int, int, str]]:
    """``(start, end, core)`` in ``text`` (``doc.text``) of OCR-read runs that differ from a masked value's
    ``core`` (``strip_separators`` of its masked text) only in weakly read characters, untouched by the
    plan."""
    plan = list(plan)
    pages = ocr_pages(doc)
    if not pages or not plan:
        return []
    cores = {strip_separators(text[r.start:r.end]) for r in plan}
    cores = sorted((c for c in cores if len(c) >= min_core_length(c) and all(ch.isalnum() for ch in c)),
                   key=len, reverse=True)
    if not cores:
        return []
    taken = sorted((r.start, r.end) for r in plan)
    out: list[tuple[int, int, str]] = []
    for seg in getattr(doc, "segments", ()):
        page = pages.get((seg.member, seg.slot))
        if page is None or seg.end - seg.start != len(page.text):
            continue
        local = text[seg.start:seg.end]
        confs = list(page.confidences) + [100.0] * (len(local) - len(page.confidences))
        weak = [k for k, ch in enumerate(local) if confs[k] < WEAK and ch.isalnum()]
        if not weak:
            continue
        for core in cores:
            n = len(core)
            allowed = max(1, n // 3)
            # a copy differs from the value at a weak character: only windows over one are looked at
            starts = sorted({i for w in weak for i in range(max(0, w - n + 1), min(w, len(local) - n) + 1)})
            for i in starts:
                window = local[i:i + n]
                diff = [k for k in range(n) if window[k] != core[k]]
                if not diff or len(diff) > allowed or len(diff) == n:
                    continue
                if any(not window[k].isalnum() or confs[i + k] >= WEAK for k in diff):
                    continue
                if any(confs[i + k] < WEAK for k in range(n) if k not in diff):
                    continue       # it agrees only where OCR was unsure too (a page of garbage): no evidence
                a, b = seg.start + i, seg.start + i + n
                if any(s < b and a < e for s, e in taken) or any(s < b and a < e for s, e, _ in out):
                    continue
                out.append((a, b, core))
    return sorted(out)
