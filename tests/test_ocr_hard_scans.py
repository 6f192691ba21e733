"""Scans OCR reads badly (issue 26, red team 6 class 4): a form "redacted" by hand with a translucent felt
marker (the digits stay readable under it), a thin sheet whose back side bleeds through mirrored and faint,
a phone photo of a faded label under uneven light. Own fixtures drawn with PIL and the bundled NanumGothic;
real Tesseract, the real default detector, files written and read again. A leak is judged on the exported
pixels, read by OCR in views of this test's own (as is, cut below a marker's grey, mirrored, background
divided): no 2 syllables of a name, no 4 digits in a row of a number survive."""
from __future__ import annotations

import random
import re

import numpy as np
import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageOps

from veil_desktop.documents import export_document, ocr, open_document
from veil_desktop.masking import Masker
from veil_desktop.paths import resources_dir

FONT = resources_dir() / "fonts" / "NanumGothic.ttf"
NAME = "서지안"
RRN = "920827-2041182"          # valid check digit
PHONE = "010-3471-2856"
ACCOUNT = "352-0917-4468-13"
EMAIL = "sunny.seo@example.com"

pytestmark = pytest.mark.skipif(not ocr.available(), reason="Tesseract (tesserocr) is needed")


def font(px: int):
    return ImageFont.truetype(str(FONT), px)


@pytest.fixture(scope="module")
def detector():
    from veil_desktop.detect.default import build_default_detector

    return build_default_detector(threads=1)


# -- the judge: the exported pixels read again --------------------------------------------------------------
def judge_views(img: Image.Image) -> list[Image.Image]:
    """This test's own views of an exported page: as it is, ink darker than 50 and than 70 (what a marker
    band leaves), mirrored and contrast stretched, the background divided out and thresholded."""
    g = img.convert("L")
    bg = np.asarray(g.filter(ImageFilter.MaxFilter(15)).filter(ImageFilter.GaussianBlur(20)), dtype=np.float32)
    ratio = np.asarray(g, dtype=np.float32) / np.maximum(bg, 1)
    return [g, g.point(lambda v: 0 if v < 50 else 255), g.point(lambda v: 0 if v < 70 else 255),
            ImageOps.autocontrast(g, cutoff=1).transpose(Image.FLIP_LEFT_RIGHT),
            Image.fromarray(np.where(ratio < 0.75, 0, 255).astype(np.uint8))]


def read_back(img: Image.Image) -> str:
    return "\n".join(ocr.ocr_image(v, views=False).text for v in judge_views(img))


def leaked(text: str, name: str | None = None, numbers: tuple[str, ...] = ()) -> list[str]:
    out = []
    flat = re.sub(r"\s+", "", text)
    if name:
        out += [name[i:i + 2] for i in range(len(name) - 1) if name[i:i + 2] in flat]
    digits = re.sub(r"\D", "", text)
    for v in numbers:
        dv = re.sub(r"\D", "", v)
        out += [dv[i:i + 4] for i in range(len(dv) - 3) if dv[i:i + 4] in digits]
    return out


def redact(detector, src, out):
    """Open, detect, mask everything found, export: the document and whether it was written."""
    doc = open_document(src)
    if doc.unreadable:
        return doc, False
    spans = detector.detect(doc.text)
    export_document(doc, Masker().plan(doc.text, spans), out)
    return doc, True


# -- 4a: a translucent felt marker over the digits ----------------------------------------------------------
def marker_form() -> Image.Image:
    """A copy of an application: the RRN and the account struck through by a grey felt marker, drawn in
    overlapping dabs (multiplied, as ink is); the digits stay dark under it."""
    img = Image.new("RGB", (1300, 640), (252, 251, 247))
    d = ImageDraw.Draw(img)
    d.text((50, 36), "환급 신청서 (사본)", fill=(10, 10, 10), font=font(40))
    rows = [("신청인 주민등록번호", RRN), ("입금 계좌번호", ACCOUNT), ("비고", "없음")]
    spans = []
    for k, (label, value) in enumerate(rows):
        y = 160 + 130 * k
        d.text((50, y), label, fill=(10, 10, 10), font=font(36))
        x = 50 + int(font(36).getlength(label + "    "))
        d.text((x, y), value, fill=(10, 10, 10), font=font(36))
        spans.append((x, y, x + int(font(36).getlength(value))))
    marker = Image.new("RGB", img.size, "white")
    m = ImageDraw.Draw(marker)
    rnd = random.Random(11)
    for x0, y, x1 in spans[:2]:
        pts = [(x, y + 22 + rnd.randint(-4, 4)) for x in range(x0 - 12, x1 + 20, 16)]
        m.line(pts, fill=(100, 98, 110), width=52)
    return ImageChops.multiply(img, marker.filter(ImageFilter.GaussianBlur(2)))


def test_the_marker_fixture_defeats_the_band_reading_by_polarity():
    """Read as the area's minority polarity (the paper between the dabs outnumbers the digits), the band
    gives nothing usable: the cut below the band's grey is what reads it."""
    a = np.asarray(marker_form().convert("L"))
    band = a[150:215, 480:900]
    med = float(np.median(band[band < 200]))
    assert 70 <= med <= 120                                     # a mid-grey fill, the digits darker
    page = ocr.ocr_image(marker_form())
    assert RRN in page.text.replace(" ", ""), page.text
    assert ACCOUNT in page.text.replace(" ", ""), page.text


def test_digits_under_a_felt_marker_are_burned(tmp_path, detector):
    src = tmp_path / "refund.png"
    marker_form().save(src)
    doc, written = redact(detector, src, tmp_path / "refund.masked.png")
    assert written and doc.unreadable == ()
    out = Image.open(tmp_path / "refund.masked.png")
    assert leaked(read_back(out), None, (RRN, ACCOUNT)) == []
    assert "없음" in ocr.ocr_image(out, views=False).text      # the rest of the form is kept


# -- 4b: a back side bleeding through, mirrored and faint ---------------------------------------------------
def bleed_page(scale: float = 1.0) -> Image.Image:
    """A thin sheet scanned on its front (a harmless notice at the top) while its back (a form with a name,
    a phone and an e-mail) shows through mirrored and faint (a fifth of its ink) in the lower half, with
    paper grain, saved as a JPEG; ``scale`` 1 is about 150 dpi."""
    import io

    w, h = int(1200 * scale), int(1500 * scale)
    front = Image.new("L", (w, h), 244)
    d = ImageDraw.Draw(front)
    for k, line in enumerate(["도서관 휴관 안내", "시설 점검으로 다음 주 월요일은 휴관합니다.", "이용에 참고해 주십시오."]):
        d.text((int(100 * scale), int((120 + 75 * k) * scale)), line, fill=20, font=font(int(32 * scale)))
    back = Image.new("L", (w, h), 255)
    b = ImageDraw.Draw(back)
    for k, line in enumerate([f"보호자 {NAME}", f"휴대전화 {PHONE}", f"이메일 {EMAIL}"]):
        b.text((int(150 * scale), int((820 + 120 * k) * scale)), line, fill=0, font=font(int(40 * scale)))
    back = back.transpose(Image.FLIP_LEFT_RIGHT).filter(ImageFilter.GaussianBlur(1.5 * scale))
    bleed = back.point(lambda v: int(255 - (255 - v) * 0.2))
    page = ImageChops.multiply(front, bleed)
    grain = np.random.default_rng(5).integers(-4, 5, (h, w))
    page = Image.fromarray(np.clip(np.asarray(page, dtype=np.int16) + grain, 0, 255).astype(np.uint8))
    buf = io.BytesIO()
    page.save(buf, "JPEG", quality=82)
    return Image.open(io.BytesIO(buf.getvalue())).convert("L")


def test_the_bleed_fixture_defeats_the_page_reading():
    page = ocr.ocr_image(bleed_page(), views=False)
    assert "휴관" in page.text                                 # the front is read ...
    assert leaked(page.text, NAME, (PHONE,)) == [] and "sunny" not in page.text   # ... the back is not


@pytest.mark.parametrize("scale", [1.0, 1.8])                  # 150 dpi; 270 dpi (a page over 4 M pixels)
def test_a_mirrored_back_side_is_read_and_burned(tmp_path, detector, scale):
    page = ocr.ocr_image(bleed_page(scale))
    assert "faint" in page.views
    flat = re.sub(r"\s+", "", page.text)
    assert NAME in flat and PHONE in flat and EMAIL in flat, page.text
    src = tmp_path / "notice.jpg"
    bleed_page(scale).save(src, quality=95)
    doc, written = redact(detector, src, tmp_path / "notice.masked.jpg")
    assert written and doc.unreadable == ()
    out = Image.open(tmp_path / "notice.masked.jpg")
    back = read_back(out)
    assert leaked(back, NAME, (PHONE,)) == [] and "sunny" not in back.replace(" ", ""), back
    assert "휴관" in ocr.ocr_image(out, views=False).text      # the front is kept


def test_a_page_with_light_grey_type_reads_no_faint_view():
    """Light-grey type the page reading reads surely (a footer, a form's printed hints) is no back side."""
    img = Image.new("L", (1300, 500), 255)
    d = ImageDraw.Draw(img)
    d.text((60, 60), "회의는 매월 첫째 주 화요일에 열립니다.", fill=0, font=font(36))
    d.text((60, 180), "이 안내문은 재생 용지에 인쇄되었습니다.", fill=190, font=font(30))
    d.text((60, 300), "문의: 총무팀 내선 2041", fill=205, font=font(30))
    page = ocr.ocr_image(img)
    assert "faint" not in page.views and page.disputed == 0, page.views
    assert "재생" in page.text


# -- 4c: a photo of a faded label under uneven light --------------------------------------------------------
def label_photo() -> Image.Image:
    """A phone photo of a parcel label: faded grey print on off-white, on brown cardboard, turned 2°, lit
    from the right (the left side a third darker), a little blur, saved as a JPEG."""
    import io

    lab = Image.new("RGB", (960, 560), (246, 245, 240))
    d = ImageDraw.Draw(lab)
    d.rectangle((6, 6, 953, 553), outline=(125, 125, 125), width=3)
    d.text((40, 40), "택배 운송장", fill=(110, 110, 110), font=font(30))
    for k, (label, value) in enumerate((("수령인", NAME), ("전화", PHONE), ("메모", "문 앞에 놓아 주세요"))):
        d.text((40, 150 + 120 * k), label, fill=(118, 118, 118), font=font(30))
        d.text((220, 140 + 120 * k), value, fill=(108, 108, 108), font=font(44))
    photo = Image.new("RGB", (1300, 860), (170, 132, 92))
    photo.paste(lab.rotate(2, expand=True, fillcolor=(170, 132, 92)), (150, 130))
    shade = np.linspace(0.66, 1.05, photo.width)[None, :, None] * np.linspace(0.9, 1.0, photo.height)[:, None, None]
    photo = Image.fromarray(np.clip(np.asarray(photo) * shade, 0, 255).astype(np.uint8))
    photo = photo.filter(ImageFilter.GaussianBlur(0.8))
    buf = io.BytesIO()
    photo.save(buf, "JPEG", quality=78)
    return Image.open(io.BytesIO(buf.getvalue())).convert("RGB")


def test_a_label_photo_under_uneven_light_is_read_and_burned(tmp_path, detector):
    assert leaked(ocr.ocr_image(label_photo()).text, NAME, (PHONE,)) == []   # read as any page: lost
    page = ocr.ocr_image(label_photo(), flatten=True)                          # as an image document
    flat = re.sub(r"\s+", "", page.text)
    assert NAME in flat and PHONE in flat, page.text
    src = tmp_path / "label.jpg"
    label_photo().save(src, quality=95)
    doc, written = redact(detector, src, tmp_path / "label.masked.jpg")
    assert written and doc.unreadable == ()
    out = Image.open(tmp_path / "label.masked.jpg")
    assert leaked(read_back(out), NAME, (PHONE,)) == []
    # the rest of the label is kept: the memo line still reads, and the header band "택배 운송장" (label y 40,
    # pasted at y 130, turned 2°: above y 225 whatever the turn) holds no mask box (the boxes are pure black;
    # the faded print is 70+ even in the shade). OCR of the masked photo reads that header erratically (since
    # 23f92ed it reads "cui es" where it read 운송장 — the output then also kept the 메모 label it masked before)
    assert "앞에놓아" in re.sub(r"\s+", "", read_back(out))
    band = np.asarray(out.convert("L"))[130:225, 150:700]
    assert int((band < 25).sum()) == 0


# -- red team 7 4b: a phone photo of an LCD screen ----------------------------------------------------------
ADDR = "경상북도 안동시 경동로 614"


def lcd_photo(px: int = 46) -> Image.Image:
    """A phone photo of a form on an LCD: the screen drawn at 3 device pixels per pixel with RGB sub-pixel
    stripes (one channel lit per column), diagonal moiré bands, shrunk to the phone's pixels (the stripes
    alias to about 5 px), a perspective tilt with the dark bezel in the corners, vignetting, a JPEG. Grey
    paper under 110: the page is taken for a negative. ``px``: the type's height on the screen."""
    import io

    scr = Image.new("RGB", (1200, 520), (248, 248, 248))
    d = ImageDraw.Draw(scr)
    d.rectangle((0, 0, 1200, 56), fill=(30, 80, 150))
    d.text((18, 10), "고객 정보 조회 화면", fill="white", font=font(30))
    for i, t in enumerate((f"전자우편  {EMAIL}", f"환불 계좌  {ACCOUNT}", f"주소  {ADDR}")):
        d.text((36, 100 + 130 * i), t, fill=(12, 12, 12), font=font(px))
    big = np.asarray(scr.resize((3600, 1560), Image.NEAREST), dtype=np.float32)
    stripes = np.zeros((1, 3600, 3), dtype=np.float32)
    for c in range(3):
        stripes[0, c::3, c] = 1.0
    big = big * (0.35 + 0.65 * stripes)
    yy, xx = np.mgrid[0:1560, 0:3600]
    big = big * (0.8 + 0.2 * np.sin(xx * 0.011 + yy * 0.019) * np.sin(xx * 0.005 - yy * 0.002))[..., None]
    shot = Image.fromarray(big.clip(0, 255).astype(np.uint8)).resize((1500, 650), Image.BILINEAR)
    w, h = shot.size
    shot = shot.transform((w, h), Image.QUAD, (30, 24, 0, h, w, h - 16, w - 50, 0), Image.BICUBIC,
                          fillcolor=(18, 18, 22))
    vign = 1 - 0.35 * (np.linspace(-1, 1, w)[None, :] ** 2 + np.linspace(-1, 1, h)[:, None] ** 2)
    shot = Image.fromarray((np.asarray(shot, dtype=np.float32) * vign[..., None] * 1.2).clip(0, 255).astype(np.uint8))
    buf = io.BytesIO()
    shot.save(buf, "JPEG", quality=82)
    return Image.open(io.BytesIO(buf.getvalue())).convert("RGB")


def lcd_leaks(text: str) -> list[str]:
    """4 digits of the account in a row, or a piece of the e-mail or the address."""
    flat = re.sub(r"\s+", "", text)
    return leaked(text, None, (ACCOUNT,)) + [p for p in ("sunny", "seo@", "example.com", "경동로", "안동시")
                                             if p in flat]


def test_a_screen_is_found_only_on_the_lcd_photo():
    flat = ocr._flattened(lcd_photo().convert("L"))
    assert flat is not None and 4.5 < (ocr._screen_period(flat) or 0) < 6
    for img in (label_photo(), marker_form(), bleed_page()):          # photos and scans without a screen
        flat = ocr._flattened(img.convert("L"))
        assert flat is None or ocr._screen_period(flat) is None


def test_a_phone_photo_of_an_lcd_is_read_and_burned(tmp_path, detector):
    assert lcd_leaks(ocr.ocr_image(lcd_photo()).text) == []            # read as any page: lost
    page = ocr.ocr_image(lcd_photo(), flatten=True)                      # as an image document
    flat = re.sub(r"\s+", "", page.text)
    assert EMAIL in flat and ACCOUNT in flat and ADDR.replace(" ", "") in flat, page.text
    src = tmp_path / "lcd.jpg"
    lcd_photo().save(src, quality=95)
    doc, written = redact(detector, src, tmp_path / "lcd.masked.jpg")
    assert written and doc.unreadable == ()
    out = Image.open(tmp_path / "lcd.masked.jpg")
    assert lcd_leaks(read_back(out)) == []
    assert "주소" in re.sub(r"\s+", "", read_back(out))      # a label is kept


def test_an_lcd_photo_read_unsurely_is_held(tmp_path, monkeypatch):
    """Type a third smaller on the same screen: the best reading is conf 45 (garbage around the account);
    a photo of a screen read under SCREEN_HOLD_CONF is held, not published."""
    src = tmp_path / "lcd_small.png"                          # the JPEG's pixels as they are
    lcd_photo(16).save(src)
    page = ocr.ocr_image(Image.open(src), flatten=True)
    assert page.confidence < ocr.SCREEN_HOLD_CONF and not page.readable, (page.confidence, page.disputed)
    assert open_document(src).unreadable != ()
    monkeypatch.setattr(ocr, "SCREEN_HOLD_CONF", 0.0)         # without the rule the page passed as read
    assert ocr.ocr_image(Image.open(src), flatten=True).readable
