"""A line of text set at an angle (20-35°) on an otherwise upright low-resolution page (a 100 dpi fax): its
values are read and, through the image export, burned. Read upright, such a line gives garbage whose boxes
cover its ink, so the ink looked explained and the line was never read at its own angle (red-team case 4b).
Real Tesseract over pages drawn here with the bundled NanumGothic."""
from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw, ImageFont

from veil_desktop.documents import leakcheck, ocr
from veil_desktop.documents.image import read_image, write_image
from veil_desktop.documents.matching import ValueMatcher
from veil_desktop.masking import Replacement
from veil_desktop.paths import resources_dir

NAME = "박지호"
PHONE = "010-7392-4816"


def font(px: int):
    return ImageFont.truetype(str(resources_dir() / "fonts" / "NanumGothic.ttf"), px)


def fax_page(angle: float) -> Image.Image:
    """About a third of an A4 page at 100 dpi (10 pt type is 14 px), 1-bit like a fax: two upright lines
    and, below them, one line turned by ``angle`` degrees."""
    page = Image.new("L", (827, 560), 255)
    d = ImageDraw.Draw(page)
    d.text((60, 50), "민원 처리 결과를 아래와 같이 알려드립니다.", fill=0, font=font(16))
    d.text((60, 90), "처리 부서는 민원실이며 기한은 14일입니다.", fill=0, font=font(14))
    line = Image.new("L", (440, 34), 255)
    ImageDraw.Draw(line).text((4, 6), f"담당자 {NAME} 연락처 {PHONE}", fill=0, font=font(17))
    line = line.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=255)
    page.paste(line, (180, 160))
    return page.point(lambda v: 255 if v > 128 else 0).convert("1")


def squash(s: str) -> str:
    return "".join(s.split())


@pytest.mark.parametrize("angle", [20, 28, 35, -25, 60])   # and the other way, and past 45°
def test_a_slanted_line_on_a_fax_page_is_read(angle):
    page = ocr.ocr_image(fax_page(angle))
    text = squash(page.text)
    assert PHONE in text and NAME in text, page.text
    assert "민원처리결과를" in text, page.text            # the upright lines are still read


def test_a_slanted_line_is_burned_on_export(tmp_path):
    buf = io.BytesIO()
    fax_page(28).save(buf, "TIFF", compression="group4", dpi=(100, 100))
    data = buf.getvalue()
    doc = read_image(tmp_path / "fax.tif", data)
    plan = []
    for v in (NAME, PHONE):
        i = doc.text.find(v)
        assert i >= 0, f"{v!r} not in OCR text {doc.text!r}"
        plan.append(Replacement(i, i + len(v), "█" * len(v), "X"))
    out = write_image(doc, sorted(plan, key=lambda r: r.start), data)
    matcher = ValueMatcher([NAME, PHONE])
    assert not leakcheck.check_image_bytes(data, matcher).clean      # the check sees the values in the source
    rep = leakcheck.check_image_bytes(out, matcher)
    assert rep.clean, rep.hits
    burned = squash(ocr.ocr_image(Image.open(io.BytesIO(out))).text)
    assert "7392" not in burned and "4816" not in burned
    assert "민원처리결과를" in burned                     # the upright text is not burned with it
