"""A caption bar under a photo (white type on a dark band across the picture) is read on its own.

Red team 7 control 6a: a building photo (JPEG) with `청사 전경` on a dark bar was held for review: no reading
of the whole frame found the caption (Tesseract's page layout over the photo misses the line) and an extra
view's guesses at the windows (`lhlch=`, confidence 0) made the picture 'text'. Read alone the bar reads at
96 %. The same photo captioned with a name was held only by those guesses; now the name is read, shown for
review, masked and burned. Pictures are drawn here with the bundled NanumGothic font."""
from __future__ import annotations

import io
import random
import zipfile

from PIL import Image, ImageDraw, ImageFont

from tests.fixtures.leak_builders import make_docx, para, redact
from veil_desktop.documents import open_document, pictures
from veil_desktop.paths import resources_dir

FONT = resources_dir() / "fonts" / "NanumGothic.ttf"


def building_photo(caption: str, w: int = 900, h: int = 560, seed: int = 81) -> Image.Image:
    rnd = random.Random(seed)
    im = Image.new("RGB", (w, h))
    d = ImageDraw.Draw(im)
    for y in range(h):                               # a sky darker at the top
        v = int(150 + 90 * y / h)
        d.line((0, y, w, y), fill=(v - 60, v - 20, v))
    d.rectangle((w // 5, h // 3, w * 4 // 5, h), fill=(170, 160, 150))
    for i in range(6):                               # a grid of windows
        for j in range(3):
            x0, y0 = w // 5 + 20 + i * (w // 10), h // 3 + 20 + j * (h // 6)
            d.rectangle((x0, y0, x0 + w // 20, y0 + h // 12), fill=(90 + rnd.randint(0, 40), 110, 140))
    d.rectangle((0, h - 50, w, h), fill=(30, 30, 30))
    d.text((20, h - 44), caption, fill="white", font=ImageFont.truetype(str(FONT), 30))
    return im


def jpeg(im: Image.Image) -> bytes:
    b = io.BytesIO()
    im.save(b, "JPEG", quality=85)
    return b.getvalue()


def frame_of(data: bytes):
    return pictures.published_frames(pictures.rebuild_picture(data))[0]


def test_the_bar_is_found_and_a_plain_page_has_none():
    f = frame_of(jpeg(building_photo("청사 전경")))
    bars = pictures.caption_bars(f)
    assert len(bars) == 1 and 505 <= bars[0][0] <= 512 and bars[0][1] == 560, bars
    page = Image.new("RGB", (900, 560), "white")
    ImageDraw.Draw(page).text((40, 40), "민원 접수 현황", fill="black", font=ImageFont.truetype(str(FONT), 30))
    assert pictures.caption_bars(page) == []


def test_harmless_caption_is_read_not_held():
    verdict, page = pictures.read_frame(frame_of(jpeg(building_photo("청사 전경"))))
    assert verdict == "read" and "청사 전경" in page.text, (verdict, page and page.text)


def test_name_in_the_caption_is_read_masked_and_burned(tmp_path):
    data = jpeg(building_photo("담당 김민수"))
    verdict, page = pictures.read_frame(frame_of(data))
    assert verdict == "read" and "김민수" in page.text
    pic = ('<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:450pt;'
           'height:280pt"><v:imagedata r:id="rIdJ"/></v:shape></w:pict></w:r></w:p>')
    src = make_docx(tmp_path / "a.docx", para("청사 안내") + pic,
                    doc_rels=[("rIdJ", "image", "media/image1.jpeg")],
                    parts={"word/media/image1.jpeg": data})
    doc = open_document(src)
    assert not doc.unreadable and "김민수" in doc.text
    _doc, res = redact(src, tmp_path / "out.docx", {"김민수": "PERSON"})
    assert res.leak_check["result"] == "clean"
    with zipfile.ZipFile(tmp_path / "out.docx") as z:
        out = [z.read(n) for n in z.namelist() if n.startswith("word/media/")]
    assert len(out) == 1
    again = pictures.read_frame(frame_of(out[0]))[1]
    assert again is None or "김민수" not in again.text      # burned: OCR reads no name in the output


def _page(text: str, conf: float, y: float, views=()):
    from veil_desktop.documents.ocr import OcrPage

    boxes = [None if c == " " else (10.0 * i, y, 10.0 * i + 9, y + 20) for i, c in enumerate(text)]
    return OcrPage(text=text, boxes=boxes, confidence=conf, width=900, height=560, words=len(text.split()),
                   confidences=[conf] * len(text), views=tuple(views))


def test_a_sure_bar_does_not_stand_for_unsure_text_elsewhere(monkeypatch):
    """The bar's reading is the frame's surest only where the frame's own reading finds no letter
    outside the bars: a screen photo with a sure title bar over small type read unsurely stays held."""
    frame = Image.new("RGB", (900, 560), "white")
    bar = _page("고객 정보 조회", 96.0, 520, views=(pictures.BAR_VIEW,))
    monkeypatch.setattr(pictures, "caption_bars", lambda f: [(505, 560)])
    monkeypatch.setattr(pictures, "strokes_in_box", lambda f: (lambda box: True))
    monkeypatch.setattr(pictures, "type_in_box", lambda f: (lambda box: True))
    # outside the bar, small type read as unsure Latin garbage (no dispute: merge_readings ignores it)
    unsure = _page("Eh lhlch wre Bkmn", 45.0, 200)
    monkeypatch.setattr(pictures, "ocr_readings", lambda f: [unsure, bar])
    assert pictures.read_frame(frame)[0] == "text"
    nothing = _page("| |", 70.0, 200)                               # a photo: no letter outside the bar
    monkeypatch.setattr(pictures, "ocr_readings", lambda f: [nothing, bar])
    verdict, page = pictures.read_frame(frame)
    assert verdict == "read" and "고객 정보 조회" in page.text
