"""Weak words of a scanned page, read again on their own (issue 26, class 4: ink OCR cannot read with
confidence holds the file; it is never published as what OCR guessed).

A page OCR reads with a good mean confidence can still hold a word it guessed: a name in a thin blue font
drawn through a soft mask came out as ``Zorg`` at 45 % between words read at 90 %, and detection, reading
``신청인 Zorg``, found nothing to mask. :func:`settle_weak_words` crops every word read with less than
``pictures.WEAK_WORD`` confidence (holding two letters or digits at least) out of the page image and reads
the crop as a picture is read (``pictures.read_frame``: several readings, merged). A crop read surely
(verdict ``read``, confidence ``pictures.ALT_CONFIDENCE``) replaces the guess in the page's text, with its
boxes on the page, so detection reads the word in its line and masking burns its ink; a crop still read
unsurely is *disputed*: more than ``pictures.READ_MAX_WEAK`` disputed letters, or more weak words than
:data:`MAX_WORDS`, and the page needs review. No Qt.
"""
from __future__ import annotations

import dataclasses

from .pictures import _TEXTY   # the letters and digits a reading is counted by

#: at most this many weak words of one page are read again; a page with more needs review
MAX_WORDS = 16
#: a weak word's crop: its box grown by this share of its height on every side
PAD = 0.35


def weak_words(page) -> list[tuple[int, int, tuple]]:
    """``(start, end, box)`` of the words of ``page`` read with less than ``pictures.WEAK_WORD``."""
    from . import pictures

    confs = page.confidences or []
    out = []
    for a, b, box in pictures._word_runs(page):
        conf = min((confs[k] if k < len(confs) else 0.0) for k in range(a, b))
        if conf < pictures.WEAK_WORD and len(_TEXTY.findall(page.text[a:b])) >= 2:
            out.append((a, b, box))
    return out


def settle_weak_words(image, page) -> tuple[object, int]:
    """``(page, disputed)``: ``page`` (an ``OcrPage`` of ``image``) with each weak word a second reading is
    sure of replaced by that reading, and the number of letters of weak words no reading is sure of (every
    weak letter when the page has more than :data:`MAX_WORDS` weak words)."""
    from . import pictures

    weak = weak_words(page)
    if not weak:
        return page, 0
    if len(weak) > MAX_WORDS:
        return page, sum(len(_TEXTY.findall(page.text[a:b])) for a, b, _ in weak)
    grey = image.convert("L")
    subs: list[tuple[int, int, object, int, int]] = []
    disputed = 0
    for a, b, box in weak:
        pad = PAD * max(1.0, box[3] - box[1])
        x0, y0 = max(0, int(box[0] - pad)), max(0, int(box[1] - pad))
        x1, y1 = min(grey.width, int(box[2] + pad) + 1), min(grey.height, int(box[3] + pad) + 1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            disputed += len(_TEXTY.findall(page.text[a:b]))
            continue
        try:
            verdict, again = pictures.read_frame(grey.crop((x0, y0, x1, y1)))
        except Exception:  # noqa: BLE001 - the crop could not be read: the word stays disputed
            verdict, again = "unchecked", None
        if (verdict == "read" and again is not None and again.confidence >= pictures.ALT_CONFIDENCE
                and _TEXTY.search(again.text)):
            subs.append((a, b, again, x0, y0))
        else:
            disputed += len(_TEXTY.findall(page.text[a:b]))
    if not subs:
        return page, disputed
    return _substitute(page, subs), disputed


def _substitute(page, subs):
    """``page`` with ``text[a:b]`` replaced by each second reading (on one line; boxes moved by its crop's
    corner), confidences and line heights carried along."""
    n = len(page.text)
    confs = list(page.confidences) + [100.0] * (n - len(page.confidences))
    heights = list(page.line_heights) + [0.0] * (n - len(page.line_heights))
    text, boxes, cs, hs = [], [], [], []
    pos = 0
    for a, b, again, x0, y0 in sorted(subs, key=lambda s: s[0]):
        text.append(page.text[pos:a])
        boxes += page.boxes[pos:a]
        cs += confs[pos:a]
        hs += heights[pos:a]
        m = len(again.text)
        ac = list(again.confidences) + [100.0] * (m - len(again.confidences))
        ah = list(again.line_heights) + [0.0] * (m - len(again.line_heights))
        for k, ch in enumerate(again.text):
            bx = again.boxes[k] if k < len(again.boxes) else None
            text.append(" " if ch == "\n" else ch)
            boxes.append(None if bx is None else (bx[0] + x0, bx[1] + y0, bx[2] + x0, bx[3] + y0))
            cs.append(ac[k])
            hs.append(ah[k])
        pos = b
    text.append(page.text[pos:])
    boxes += page.boxes[pos:]
    cs += confs[pos:]
    hs += heights[pos:]
    return dataclasses.replace(page, text="".join(text), boxes=boxes, confidences=cs, line_heights=hs)
