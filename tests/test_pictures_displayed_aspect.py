"""Pictures a document shows at an aspect ratio other than their pixels' (issue 26, "scans OCR reads
badly"): a name and a phone stored squashed to a quarter of their height (1000×40 pixels) and shown by the
document at 1000×160 (DOCX ``wp:extent``/``a:ext``, VML ``style``; HWPX ``hp:sz``/``hp:curSz``). Word and
Hancom show them legible; the reader reads the picture stretched to the displayed aspect as well, the
reviewer masks the values, the writer burns them into the stored pixels. The output's picture is read back
independently here (stretched with Pillow, read by tesserocr directly, not through our OCR module)."""
from __future__ import annotations

import io
import zipfile

import pytest
from PIL import Image, ImageDraw, ImageFont

from tests.fixtures.leak_builders import hp, make_docx, make_hwpx, para
from veil_desktop.documents import export_document, ocr, open_document, pictures
from veil_desktop.masking import Replacement
from veil_desktop.paths import resources_dir

pytestmark = pytest.mark.skipif(not ocr.available(), reason="OCR (tesserocr + tessdata) is a dependency")

FONT = str(resources_dir() / "fonts" / "NanumGothic.ttf")
NAME, PHONE = "홍길동", "010-2345-6789"
SHOWN = (1000, 160)            # the size the document shows it at (pixels of a 96 dpi display)
STORED = (1000, 40)            # the pixels it holds: squashed 4× down
EMU = 9525                     # EMU per pixel at 96 dpi
WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
PIC = "http://schemas.openxmlformats.org/drawingml/2006/picture"


def legible() -> Image.Image:
    im = Image.new("RGB", SHOWN, "white")
    ImageDraw.Draw(im).text((20, 56), f"성명 {NAME} 연락처 {PHONE}", font=ImageFont.truetype(FONT, 48),
                            fill="black")
    return im


def squashed() -> Image.Image:
    return legible().resize(STORED, Image.LANCZOS)


def png(im) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def drawing(rid: str, cx: int, cy: int, n: int = 1) -> str:
    return (f'<w:p><w:r><w:drawing><wp:inline xmlns:wp="{WP}"><wp:extent cx="{cx}" cy="{cy}"/>'
            f'<wp:docPr id="{n}" name="Picture {n}"/><a:graphic xmlns:a="{A}"><a:graphicData uri="{PIC}">'
            f'<pic:pic xmlns:pic="{PIC}"><pic:nvPicPr><pic:cNvPr id="{n}" name="p{n}"/><pic:cNvPicPr/>'
            f'</pic:nvPicPr><pic:blipFill><a:blip r:embed="{rid}"/><a:stretch><a:fillRect/></a:stretch>'
            f'</pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm>'
            '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic>'
            '</wp:inline></w:drawing></w:r></w:p>')


def vml(rid: str, w_pt: float, h_pt: float) -> str:
    return ('<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" id="s1" '
            f'style="width:{w_pt}pt;height:{h_pt}pt"><v:imagedata r:id="{rid}" '
            'xmlns:o="urn:schemas-microsoft-com:office:office"/></v:shape></w:pict></w:r></w:p>')


def docx(tmp_path, data: bytes, body: str, name="a.docx"):
    return make_docx(tmp_path / name, para("보고서 본문") + body, doc_rels=[("rP1", "image", "media/image1.png")],
                     parts={"word/media/image1.png": data})


def hwpx(tmp_path, data: bytes, w: int, h: int, name="a.hwpx"):
    """An HWPX whose section shows BinData/image1.png in an ``hp:pic`` of ``w``×``h`` HWPUNIT."""
    pic = ('<hp:p id="1"><hp:run charPrIDRef="0"><hp:pic id="5" xmlns:hc="http://www.hancom.co.kr/hwpml/2011/'
           f'core"><hp:orgSz width="{w}" height="{w * STORED[1] // STORED[0]}"/>'
           f'<hp:curSz width="{w}" height="{h}"/><hc:img binaryItemIDRef="image1"/>'
           f'<hp:sz width="{w}" widthRelTo="ABSOLUTE" height="{h}" heightRelTo="ABSOLUTE" protect="0"/>'
           '</hp:pic></hp:run></hp:p>')
    items = '<opf:item id="image1" href="BinData/image1.png" media-type="image/png" isEmbeded="1"/>'
    return make_hwpx(tmp_path / name, hp("보고서 본문") + pic, manifest_items=items,
                     extra={"BinData/image1.png": data})


def shown_text(data: bytes) -> str:
    """The picture ``data`` as the document shows it (stretched to SHOWN by Pillow), read by tesserocr
    directly, spaces removed. Solid black boxes (burned values: 9×9 pixels all black, grown back) are
    whitened first: Tesseract alone reads nothing at all of a line that holds them."""
    import tesserocr
    from PIL import ImageChops, ImageFilter

    im = Image.open(io.BytesIO(data)).convert("L").resize(SHOWN, Image.LANCZOS)
    dark = im.point(lambda v: 255 if v < 60 else 0)
    boxes = dark.filter(ImageFilter.MinFilter(9)).filter(ImageFilter.MaxFilter(11))
    im = ImageChops.lighter(im, boxes)
    with tesserocr.PyTessBaseAPI(path=str(ocr.tessdata_dir()), lang="kor+eng") as api:
        api.SetImage(im)
        return "".join(api.GetUTF8Text().split())


def redact_values(doc, out):
    plan = []
    for v, label in ((NAME, "PERSON"), (PHONE, "PHONE")):
        i = doc.text.find(v)
        assert i >= 0, (v, doc.text)
        plan.append(Replacement(i, i + len(v), f"[{label}]", label))
    return export_document(doc, plan, out)


def out_picture(path, prefix) -> bytes:
    with zipfile.ZipFile(path) as z:
        (name,) = [n for n in z.namelist() if n.startswith(prefix) and n.endswith(".png")]
        return z.read(name)


def assert_burned_not_blanked(out, prefix: str) -> None:
    """The published picture keeps its stored size, shows neither the phone nor the name, and still shows
    its labels: it was burned, not blanked."""
    data = out_picture(out, prefix)
    assert Image.open(io.BytesIO(data)).size == STORED
    seen = shown_text(data)
    assert "2345" not in seen and "6789" not in seen and NAME not in seen, seen
    assert "성명" in seen or "연락처" in seen, seen


def test_fixture_is_illegible_at_its_pixels_and_legible_as_shown():
    """The attack is real: our reading of the stored pixels alone finds neither value; shown, both read."""
    data = png(squashed())
    assert PHONE not in "".join(pictures.read_frame(squashed())[1].text.split())
    assert NAME in shown_text(data) and PHONE in shown_text(data)


@pytest.mark.parametrize("layout", ["drawingml", "vml"])
def test_docx_picture_shown_stretched_is_read_as_shown_and_burned(tmp_path, layout):
    body = (drawing("rP1", SHOWN[0] * EMU, SHOWN[1] * EMU) if layout == "drawingml"
            else vml("rP1", SHOWN[0] * 0.75, SHOWN[1] * 0.75))
    src = docx(tmp_path, png(squashed()), body)
    doc = open_document(src)
    assert not doc.needs_review, doc.unreadable
    (page,) = doc.extra["picture_pages"]["word/media/image1.png"]
    assert (page.width, page.height) == STORED
    # boxes are in the stored picture's pixels (burned there), not the stretched view's
    i = page.text.index(PHONE)
    assert all(b[3] <= STORED[1] + 0.5 for b in page.boxes[i:i + len(PHONE)] if b)
    res = redact_values(doc, tmp_path / "o.docx")
    assert res.leak_check["result"] == "clean"
    assert_burned_not_blanked(tmp_path / "o.docx", "word/media/")


def test_hwpx_picture_shown_stretched_is_read_as_shown_and_burned(tmp_path):
    src = hwpx(tmp_path, png(squashed()), 75000, 12000)
    doc = open_document(src)
    assert not doc.needs_review, doc.unreadable
    res = redact_values(doc, tmp_path / "o.hwpx")
    assert res.leak_check["result"] == "clean"
    assert_burned_not_blanked(tmp_path / "o.hwpx", "BinData/")


def test_absurd_displayed_aspect_holds_the_picture(tmp_path):
    """Shown 30 times wider than its pixels (past ocr.MAX_PIXEL_ASPECT): not read, held for review."""
    im = legible()
    src = docx(tmp_path, png(im), drawing("rP1", im.width * 30 * EMU, im.height * EMU))
    doc = open_document(src)
    assert doc.needs_review
    (u,) = doc.unreadable
    assert u.where == "picture 1" and "비율" in u.caption and "aspect" in u.caption_en


def test_displayed_sizes_are_collected_per_member_with_crop(tmp_path):
    """Every use of a picture counts (used twice: two sizes); a crop (a:srcRect) is the shown part only."""
    crop = drawing("rP1", 500 * EMU, 160 * EMU, 2).replace(
        '<a:blip r:embed="rP1"/>', '<a:blip r:embed="rP1"/><a:srcRect l="0" t="0" r="50000" b="0"/>')
    src = docx(tmp_path, png(squashed()), drawing("rP1", SHOWN[0] * EMU, SHOWN[1] * EMU) + crop)
    from veil_desktop.documents import docx as docx_mod
    from veil_desktop.documents.xmlwalk import read_zip

    sizes, _ = docx_mod.pictures_as_shown(read_zip(src.read_bytes(), "Word document"))
    got = sorted((round(w / h, 3)) for w, h in sizes["word/media/image1.png"])
    # each use: its a:ext and its wp:extent; 1000:160, and a half shown at 500:160 — the whole at 1000:160
    assert got == [6.25] * 4


def test_picture_shown_at_its_own_aspect_reads_as_before(tmp_path, monkeypatch):
    """Control: an ordinary picture shown at its own aspect (within ocr.PIXEL_ASPECT_TOLERANCE) gets no
    extra reading and the same reading as without any displayed size."""
    im = legible()
    calls = []
    real = pictures.ocr_readings
    monkeypatch.setattr(pictures, "ocr_readings", lambda f: calls.append(f.size) or real(f))
    src = docx(tmp_path, png(im), drawing("rP1", im.width * EMU, int(im.height * 1.05) * EMU))
    doc = open_document(src)
    assert calls == [SHOWN]
    (page,) = doc.extra["picture_pages"]["word/media/image1.png"]
    before = pictures.read_frame(im)[1]
    assert (page.text, page.boxes) == (before.text, before.boxes)
    assert PHONE in page.text
