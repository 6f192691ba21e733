"""Burn boxes checked against the pixels (issue 22, scans): an OCR box that starts two glyphs late still
burns the whole value, and a weakly read word touching a masked value is burned with it. Real Tesseract
over a page drawn here; the OCR result is then disturbed the way a bad reading is, and the burned pixels
are looked at."""
from __future__ import annotations

import dataclasses

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from veil_desktop.documents import ocr
from veil_desktop.paths import resources_dir

PHONE = "010-2345-6789"


def page_image() -> Image.Image:
    font = ImageFont.truetype(str(resources_dir() / "fonts" / "NanumGothic.ttf"), 40)
    img = Image.new("RGB", (1100, 260), "white")
    d = ImageDraw.Draw(img)
    d.text((60, 60), f"담당자 연락처 {PHONE} 입니다", font=font, fill="black")
    d.text((60, 150), "다음 줄은 그대로 남습니다", font=font, fill="black")
    return img


def read() -> tuple[Image.Image, ocr.OcrPage, int, int]:
    img = page_image()
    page = ocr.ocr_image(img)
    i = page.text.find(PHONE)
    assert i >= 0, page.text
    return img, page, i, i + len(PHONE)


def dark(img: Image.Image, box) -> float:
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    a = np.asarray(img.convert("L"))[y0:y1, x0:x1]
    return float((a < 60).mean())


def test_a_box_that_starts_two_glyphs_late_is_grown_to_the_ink():
    img, page, i, j = read()
    first_two = [page.boxes[i], page.boxes[i + 1]]
    assert all(first_two)
    shifted = list(page.boxes)
    for k in range(i, j):                       # every box two glyphs to the right, the last ones repeated
        shifted[k] = page.boxes[min(k + 2, j - 1)]
    bad = dataclasses.replace(page, boxes=shifted)
    plain = ocr.burn(img, ocr.boxes_for(bad, [(i, j)]))
    fitted = ocr.burn(img, ocr.burn_boxes(bad, [(i, j)], img))
    # without the pixel check the first glyphs ("01") stay readable; with it they are burned
    assert min(dark(plain, b) for b in first_two) < 0.5
    assert all(dark(fitted, b) > 0.95 for b in first_two)
    # the label before the value and the next line are not burned
    label = page.boxes[page.text.find("담당자")]
    below = page.boxes[page.text.find("다음")]
    assert dark(fitted, label) < 0.6 and dark(fitted, below) < 0.6


def test_a_weakly_read_neighbour_word_is_burned_with_the_value():
    img, page, i, j = read()
    after = page.text.find("입니다", j)
    assert after == j + 1
    assert ocr._widen(page, [(i, j)]) == [(i, j)]          # read well: the value alone
    confs = list(page.confidences)
    for k in range(after, after + 3):
        confs[k] = 30.0
    weak = dataclasses.replace(page, confidences=confs)
    assert ocr._widen(weak, [(i, j)]) == [(i, after + 3)]
    boxes = ocr.burn_boxes(weak, [(i, j)], img)
    out = ocr.burn(img, boxes)
    assert dark(out, page.boxes[after + 1]) > 0.95
