"""OCR'd images: real Tesseract over pages this test draws with the bundled NanumGothic font."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from veil_desktop.documents import ocr
from veil_desktop.documents.errors import DocumentError
from veil_desktop.documents.image import check_image, read_image, write_image
from veil_desktop.masking import Replacement
from veil_desktop.paths import resources_dir

NAME = "홍길동"
RRN = "900101-1234567"
LINES = [f"성명: {NAME}", f"주민등록번호: {RRN}", "주소: 서울특별시 마포구 월드컵북로 396", "연락처: 010-2345-6789"]


def test_ocr_is_installed():
    # tesserocr is a dependency and a source checkout ships the models
    assert ocr.available(), "tesserocr or resources/tessdata missing"


def draw_page(lines=LINES, size=(1240, 700), font_px=34, angle=0.0, rotate90=0) -> Image.Image:
    font = ImageFont.truetype(str(resources_dir() / "fonts" / "NanumGothic.ttf"), font_px)
    img = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(img)
    y = 60
    for line in lines:
        d.text((80, y), line, font=font, fill="black")
        y += int(font_px * 2)
    if angle:
        img = img.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor="white")
    if rotate90:
        img = img.rotate(rotate90, expand=True)
    return img


def as_bytes(img: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, fmt, **kw)
    return buf.getvalue()


def plan_for(doc, values) -> list[Replacement]:
    plan = []
    for v in values:
        i = doc.text.find(v)
        assert i >= 0, f"{v!r} not in OCR text {doc.text!r}"
        plan.append(Replacement(i, i + len(v), "█" * len(v), "X"))
    return sorted(plan, key=lambda r: r.start)


@pytest.mark.parametrize("fmt,suffix", [("PNG", "png"), ("JPEG", "jpg"), ("TIFF", "tif")])
def test_read_mask_write_recheck(tmp_path, fmt, suffix):
    page = draw_page()
    data = as_bytes(page, fmt)
    doc = read_image(tmp_path / f"scan.{suffix}", data)
    assert NAME in doc.text and RRN in doc.text
    assert doc.unreadable == ()
    assert doc.extra["ocr"]["mean_confidence"] > 70
    out = write_image(doc, plan_for(doc, [NAME, RRN]), data)
    # same format, no value readable again, everything else still readable
    assert Image.open(io.BytesIO(out)).format == fmt
    assert check_image(out, [NAME, RRN]) == []
    again = ocr.ocr_image(Image.open(io.BytesIO(out)))
    assert "월드컵북로" in again.text.replace(" ", "")
    assert check_image(data, [NAME, RRN]) != []  # the check does see values in the unmasked page


def test_pixels_outside_the_boxes_are_unchanged(tmp_path):
    page = draw_page()
    data = as_bytes(page, "PNG")
    doc = read_image(tmp_path / "scan.png", data)
    plan = plan_for(doc, [RRN])
    out = Image.open(io.BytesIO(write_image(doc, plan, data))).convert("RGB")
    boxes = ocr.boxes_for(doc.extra["ocr_pages"][0], [(plan[0].start - doc.parts[0].start
                                                        - (doc.segments[0].start - doc.parts[0].start),
                                                        plan[0].end - doc.segments[0].start)])
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    # the RRN's ink is covered: the box is solid black
    crop = out.crop((int(x0) + 1, int(y0) + 1, int(x1) - 1, int(y1) - 1))
    assert crop.getextrema() == ((0, 0), (0, 0), (0, 0))
    # the name line above is untouched
    src = page.convert("RGB")
    top = (0, 0, page.width, int(y0) - 2)
    assert out.crop(top).tobytes() == src.crop(top).tobytes()


def test_multipage_tiff_keeps_pages(tmp_path):
    p1, p2 = draw_page(), draw_page(lines=["두 번째 쪽", f"담당자 {NAME}"])
    data = as_bytes(p1, "TIFF", save_all=True, append_images=[p2])
    doc = read_image(tmp_path / "scan.tiff", data)
    assert [p.name for p in doc.parts] == ["1쪽", "2쪽"]
    second = doc.text[doc.parts[1].start:doc.parts[1].end]
    assert NAME in second
    # mask only the name on page 2
    i = doc.parts[1].start + second.index(NAME)
    out = write_image(doc, [Replacement(i, i + len(NAME), "███", "PERSON")], data)
    img = Image.open(io.BytesIO(out))
    assert img.n_frames == 2
    img.seek(1)
    assert NAME not in ocr.ocr_image(img.copy()).text
    img.seek(0)
    assert NAME in ocr.ocr_image(img.copy()).text   # page 1 was not part of the plan


@pytest.mark.parametrize("rotate90", [90, 180, 270])
def test_orientation_is_found_and_boxes_land_on_the_source(tmp_path, rotate90):
    page = draw_page(rotate90=rotate90)
    data = as_bytes(page, "PNG")
    doc = read_image(tmp_path / "turned.png", data)
    # the page was turned counter-clockwise by rotate90; turning it by the rest of a full turn reads it
    assert doc.extra["ocr_pages"][0].rotation == (360 - rotate90) % 360
    assert RRN in doc.text
    out = write_image(doc, plan_for(doc, [RRN]), data)
    assert Image.open(io.BytesIO(out)).size == page.size   # written in the source's orientation
    assert check_image(out, [RRN]) == []


def test_slight_skew_is_corrected(tmp_path):
    page = draw_page(angle=2.0)
    data = as_bytes(page, "PNG")
    doc = read_image(tmp_path / "skew.png", data)
    assert abs(doc.extra["ocr_pages"][0].skew + 2.0) <= 0.5
    assert NAME in doc.text and RRN in doc.text
    out = write_image(doc, plan_for(doc, [NAME, RRN]), data)
    assert check_image(out, [NAME, RRN]) == []


def test_blank_page_is_unreadable_not_ok(tmp_path):
    data = as_bytes(Image.new("L", (600, 400), 255), "PNG")
    doc = read_image(tmp_path / "blank.png", data)
    assert doc.unreadable_pages() == [1] and doc.needs_review


def test_metadata_is_not_carried_over(tmp_path):
    page = draw_page()
    from PIL import PngImagePlugin

    meta = PngImagePlugin.PngInfo()
    meta.add_text("Author", NAME)
    data = as_bytes(page, "PNG", pnginfo=meta)
    doc = read_image(tmp_path / "meta.png", data)
    out = write_image(doc, plan_for(doc, [RRN]), data)
    assert NAME.encode("utf-8") not in out and "Author".encode() not in out


def test_decompression_bomb_is_refused(tmp_path):
    # a 12,000 x 12,000 one-colour PNG: tiny file, 144 M pixels
    data = as_bytes(Image.new("1", (12_000, 12_000), 1), "PNG")
    assert len(data) < 100_000
    with pytest.warns(Image.DecompressionBombWarning), pytest.raises(DocumentError, match="too large"):
        read_image(tmp_path / "bomb.png", data)


def test_not_an_image_is_a_message(tmp_path):
    with pytest.raises(DocumentError, match="not a readable image"):
        read_image(tmp_path / "x.png", b"%PDF-1.4 definitely not a png")


def test_cancel_stops_ocr(tmp_path):
    with pytest.raises(ocr.OcrCancelled):
        read_image(tmp_path / "scan.png", as_bytes(draw_page(), "PNG"), cancelled=lambda: True)


def test_resources_ship_the_models():
    d = resources_dir() / "tessdata"
    assert (d / "kor.traineddata").stat().st_size > 1_000_000
    assert (d / "eng.traineddata").stat().st_size > 1_000_000
    assert "Apache License" in (d / "LICENSE").read_text(encoding="utf-8")


def test_export_document_png_end_to_end(tmp_path):
    import json

    from veil_desktop.documents import export_document, open_document
    from veil_desktop.documents.errors import LeakDetected

    src = tmp_path / "scan.png"
    src.write_bytes(as_bytes(draw_page(), "PNG"))
    before = src.read_bytes()
    doc = open_document(src)
    res = export_document(doc, plan_for(doc, [NAME, RRN]), tmp_path / "out.png")
    assert src.read_bytes() == before
    rep = json.loads(res.report.read_text(encoding="utf-8"))
    assert rep["leak_check"]["result"] == "clean" and rep["leak_check"]["method"] == "image"
    assert rep["ocr"]["engine"] == "tesseract" and rep["ocr"]["mean_confidence"] > 70
    assert NAME not in res.report.read_text(encoding="utf-8")
    # a plan that misses the name's second copy on the page would be refused by the copy check; a writer
    # that burns nothing is caught by the OCR re-check
    import veil_desktop.documents.image as image_mod

    real = image_mod.write_image
    try:
        image_mod.write_image = lambda d, plan, source: source   # a broken writer: nothing burned
        with pytest.raises(LeakDetected):
            export_document(doc, plan_for(doc, [NAME, RRN]), tmp_path / "broken.png")
    finally:
        image_mod.write_image = real
    assert not (tmp_path / "broken.png").exists()


def test_progress_reports_pages_and_cancels_between_them(tmp_path):
    p1, p2, p3 = draw_page(), draw_page(lines=["둘째 쪽"]), draw_page(lines=["셋째 쪽"])
    data = as_bytes(p1, "TIFF", save_all=True, append_images=[p2, p3])
    seen = []

    def progress(done, total):
        if done >= 0:
            seen.append((done, total))
        return False

    with ocr.pages_progress(progress):
        doc = read_image(tmp_path / "three.tif", data)
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)] and len(doc.parts) == 3
    # cancel after the first page: no document, OcrCancelled
    with pytest.raises(ocr.OcrCancelled), ocr.pages_progress(lambda done, total: done >= 1):
        read_image(tmp_path / "three.tif", data)
    # the hook is per thread and ends with the block
    assert read_image(tmp_path / "three.tif", as_bytes(p2, "PNG")).text.count("둘째") == 1


# -- issue 26: the written image holds its pixels only -------------------------------------------------------
def test_written_image_holds_no_source_byte_outside_the_pixels(tmp_path):
    """A scan with an iCCP profile naming a person, a private chunk and a tEXt chunk (PNG), or a COM segment
    after the scan data and a ZIP appended after EOI (JPEG): none of it is in the written file."""
    import struct
    import zipfile
    import zlib

    from PIL.PngImagePlugin import PngInfo

    from tests.test_pictures_rebuild import assert_absent, chunk, insert_before_iend, jpeg_markers, png_chunks

    secret = "작성자 김민수 META-77".encode("utf-8")
    page = draw_page(lines=["보고서 첫 줄"], size=(700, 200))
    info = PngInfo()
    info.add_text("Author", secret.decode())
    png = as_bytes(page, "PNG", pnginfo=info)
    png = png[:33] + chunk(b"iCCP", b"p\x00\x00" + zlib.compress(b"desc" + secret)) + png[33:]
    png = insert_before_iend(png, chunk(b"prVt", secret))
    doc = read_image(tmp_path / "scan.png", png)
    out = write_image(doc, [], png)
    assert_absent(out, secret)
    assert {k for k, _ in png_chunks(out)} <= {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"}
    assert Image.open(io.BytesIO(out)).size == (700, 200)

    jpg = as_bytes(page, "JPEG")
    jpg = jpg[:-2] + b"\xff\xfe" + struct.pack(">H", len(secret) + 2) + secret + b"\xff\xd9"
    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w") as z:
        z.writestr("secret.txt", secret)
    jpg += zbuf.getvalue()
    doc = read_image(tmp_path / "scan.jpg", jpg)
    out = write_image(doc, [], jpg)
    assert_absent(out, secret, b"secret.txt", b"PK\x03\x04")
    assert out.endswith(b"\xff\xd9") and 0xFE not in jpeg_markers(out)
    assert Image.open(io.BytesIO(out)).size == (700, 200)


def test_image_content_decides_not_the_name(tmp_path):
    """A `.png` that is really a GIF (or anything but PNG/JPEG/TIFF) is refused with a message."""
    gif = as_bytes(draw_page(lines=["x"], size=(50, 50)), "GIF")
    with pytest.raises(DocumentError, match="not a readable image"):
        read_image(tmp_path / "scan.png", gif)


EMAIL = "seunghyun.baek@example.net"


def fine_fax() -> bytes:
    """A fine-mode fax (ITU-T T.4: 204 × 98 dpi, every pixel twice as tall as wide), 1 bit, Group 3: the
    page drawn at square pixels and squashed to half its height, as the fax machine samples it."""
    page = draw_page([f"성명  {NAME}", f"회신  {EMAIL}", "주소: 서울특별시 마포구 월드컵북로 396"],
                     size=(1728, 1000), font_px=46)
    fax = page.convert("L").resize((1728, 480), Image.BILINEAR).point(lambda v: 0 if v < 150 else 255)
    return as_bytes(fax.convert("1"), "TIFF", compression="group3", dpi=(204, 98))


def test_pixel_stretch_reads_the_resolution_tag():
    assert ocr.pixel_stretch(Image.open(io.BytesIO(fine_fax()))) == (1.0, pytest.approx(204 / 98))
    assert ocr.pixel_stretch(Image.new("L", (10, 10))) == (1.0, 1.0)                       # no tag
    tall = Image.new("L", (10, 10))
    tall.info["dpi"] = (100, 200)
    assert ocr.pixel_stretch(tall) == (2.0, 1.0)
    for odd in [(300, 301), (0, 72), (float("nan"), 72), (1, 400), "72"]:                  # square or not believed
        im = Image.new("L", (10, 10))
        im.info["dpi"] = odd
        assert ocr.pixel_stretch(im) == (1.0, 1.0), odd


def test_a_fine_mode_fax_is_read_with_square_pixels_and_keeps_its_resolution(tmp_path):
    """Red team 5, 4b: read squashed, OCR found only `k@example.net` of the e-mail and the local part stayed
    in the published fax. Read stretched square (as a viewer shows it), boxes land on the fax's own pixels."""
    data = fine_fax()
    squashed = ocr._ocr_image(Image.open(io.BytesIO(data)))
    assert EMAIL not in squashed.text.replace(" ", "")                # the fax as it is: not read whole
    doc = read_image(tmp_path / "fax.tif", data)
    assert NAME in doc.text and EMAIL in doc.text.replace(" ", "")
    page = doc.extra["ocr_pages"][0]
    assert (page.width, page.height) == (1728, 480)
    boxes = [b for b in page.boxes if b]
    assert max(b[3] for b in boxes) <= 480 and max(b[2] for b in boxes) <= 1728
    out = write_image(doc, plan_for(doc, [NAME]) + [_email_replacement(doc)], data)
    img = Image.open(io.BytesIO(out))
    assert img.size == (1728, 480) and img.info.get("dpi") == pytest.approx((204, 98))
    assert check_image(out, [NAME, EMAIL]) == []
    again = ocr.ocr_image(img).text.replace(" ", "")
    assert "seunghyun" not in again and "baek" not in again and "월드컵북로" in again


def _email_replacement(doc) -> Replacement:
    j = doc.text.find(EMAIL[:5])
    k = doc.text.find("example.net", j) + len("example.net")
    return Replacement(j, k, "█" * (k - j), "X")
