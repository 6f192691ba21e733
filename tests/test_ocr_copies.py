"""Copies of a masked value that OCR misread are masked like any copy (documents/ocr_copies.py, issue 26:
an ordinary scan was refused because the output's OCR read `애플` where the input's had read `야플`).

Own cases: the finder over a reading with per-character confidences (weak vs sure differences, too many
differences, a copy already masked, typed text never searched), and a real PNG scan whose second copy of
a masked name is a weak misreading: refused as an unmasked copy without ``mask_copies``, masked and
published with it, the output's OCR holding neither copy. Real Tesseract.
"""
from __future__ import annotations

import dataclasses
import io
from types import SimpleNamespace

import pytest
from PIL import Image, ImageDraw, ImageFont

from veil_desktop.documents import export_document, ocr, open_document
from veil_desktop.documents.errors import LeakDetected
from veil_desktop.documents.model import Segment
from veil_desktop.documents.ocr_copies import lookalike_copies
from veil_desktop.masking import Replacement
from veil_desktop.paths import resources_dir


def reading(text: str, weak: dict[int, float]) -> "ocr.OcrPage":
    confs = [weak.get(i, 93.0) for i in range(len(text))]
    return ocr.OcrPage(text=text, boxes=[(i * 10, 0, i * 10 + 9, 20) for i in range(len(text))], confidence=90.0,
                       width=10 * len(text), height=20, words=text.count(" ") + 1, confidences=confs)


def doc_of(page_text: str, weak: dict[int, float], typed: str = ""):
    head = typed
    text = head + page_text
    segs = [Segment(len(head), len(text), "page", 0)]
    if typed:
        segs.insert(0, Segment(0, len(typed), "typed", 0))
    return SimpleNamespace(text=text, segments=tuple(segs), extra={"ocr_pages": [reading(page_text, weak)]})


def mask(text: str, value: str) -> list[Replacement]:
    i = text.index(value)
    return [Replacement(i, i + len(value), "[기관]", "ORGANIZATION")]


LINE = "애플 아일랜드법인은 역외 이전 네바다주의 야플의 투자 자회사"


def test_a_weakly_read_lookalike_is_a_copy():
    k = LINE.index("야플")
    doc = doc_of(LINE, {k: 40.9})
    assert lookalike_copies(doc, doc.text, mask(doc.text, "애플")) == [(k, k + 2, "애플")]


@pytest.mark.parametrize("weak", [{}, {"야": 75.0}])
def test_a_surely_read_difference_is_another_word(weak):
    k = LINE.index("야플")
    doc = doc_of(LINE, {k: v for _, v in weak.items()})
    assert lookalike_copies(doc, doc.text, mask(doc.text, "애플")) == []


def test_too_many_differences_or_an_overlap_are_no_copies():
    two = "정하람 님과 정히린 님"
    k = two.index("정히린")
    doc = doc_of(two, {k + 1: 30.0, k + 2: 30.0})
    assert lookalike_copies(doc, doc.text, mask(doc.text, "정하람")) == []     # 2 of 3 differ
    text = "정하람 님과 정하린 님, 정하람"
    k = text.index("정하린")
    doc = doc_of(text, {k + 2: 30.0})
    plan = mask(doc.text, "정하람") + [Replacement(k, k + 3, "[인명]", "PERSON")]
    assert lookalike_copies(doc, doc.text, plan) == []                          # already masked
    assert lookalike_copies(doc, doc.text, mask(doc.text, "정하람")) == [(k, k + 3, "정하람")]


def test_typed_text_is_never_searched():
    typed = "야플 주식회사 "
    doc = doc_of(LINE, {}, typed=typed)
    doc.extra["ocr_pages"][0].confidences[LINE.index("야플")] = 30.0
    found = lookalike_copies(doc, doc.text, mask(doc.text, "애플"))
    assert found == [(len(typed) + LINE.index("야플"), len(typed) + LINE.index("야플") + 2, "애플")]


FONT = ImageFont.truetype(str(resources_dir() / "fonts" / "NanumGothic.ttf"), 40)
NAME = "윤서진"


@pytest.mark.skipif(not ocr.available(), reason="Tesseract (tesserocr) is needed")
def test_a_scan_whose_second_copy_was_misread_is_masked_not_refused(tmp_path):
    im = Image.new("RGB", (1100, 300), "white")
    d = ImageDraw.Draw(im)
    d.text((40, 40), f"담당 {NAME} 주무관이 접수했습니다.", font=FONT, fill="black")
    d.text((40, 160), f"처리 결과는 {NAME} 주무관이 알립니다.", font=FONT, fill="black")
    buf = io.BytesIO()
    im.save(buf, "PNG")
    src = tmp_path / "scan.png"
    src.write_bytes(buf.getvalue())
    doc = open_document(src)
    assert doc.text.count(NAME) == 2, doc.text
    # the second copy as a scan misreads it: one syllable read otherwise, weakly
    k = doc.text.index(NAME, doc.text.index(NAME) + 1)
    seg = next(s for s in doc.segments if s.start <= k < s.end)
    page = doc.extra["ocr_pages"][seg.slot]
    j = k - seg.start
    confs = list(page.confidences)
    confs[j] = 38.0
    page = dataclasses.replace(page, text=page.text[:j] + "윰" + page.text[j + 1:], confidences=confs)
    doc = dataclasses.replace(doc, text=doc.text[:k] + "윰" + doc.text[k + 1:],
                              extra={**doc.extra, "ocr_pages": [page if i == seg.slot else p for i, p in
                                                                enumerate(doc.extra["ocr_pages"])]})
    i = doc.text.index(NAME)
    plan = [Replacement(i, i + len(NAME), "[인명]", "PERSON")]
    with pytest.raises(LeakDetected, match="unmasked cop"):
        export_document(doc, plan, tmp_path / "o.png")
    res = export_document(doc, plan, tmp_path / "o.png", mask_copies=True)
    assert res.leak_check["result"] == "clean"
    seen = ocr.ocr_image(Image.open(tmp_path / "o.png")).text.replace(" ", "")
    assert "서진" not in seen and "주무관" in seen


def test_garbage_agreeing_only_where_it_is_weak_is_no_copy():
    """A page of garbage: every character weak. Nothing it agrees on was read surely, and short Latin
    values are not looked for at all."""
    text = "UN Sane 야플 ON EN Rreemtrgn"
    doc = doc_of(text, {i: 30.0 for i in range(len(text))})
    assert lookalike_copies(doc, doc.text, mask(doc.text, "야플")) == []   # 야플 itself masked: nothing else
    plan = [Replacement(0, 2, "[기관]", "ORGANIZATION")]          # "UN"
    assert lookalike_copies(doc, doc.text, plan) == []
    line = doc_of("애플 그리고 야플", {7: 30.0, 8: 30.0})             # 플 weak as well: agrees only unsurely
    assert lookalike_copies(line, line.text, mask(line.text, "애플")) == []
