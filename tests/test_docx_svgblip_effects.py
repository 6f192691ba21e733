"""DOCX pictures behind an SVG (asvg:svgBlip, MS-ODRAWXML) and pictures shown through a:blip effects
(red team 8, 1b / 6b). The SVG part is dropped with its relationship, content type and extension, so Word
shows the raster fallback, which is rebuilt and reviewed like any picture; a plain picture with a display
effect is not held for having one."""
from __future__ import annotations

import io
import zipfile

import docx as python_docx
from PIL import Image, ImageDraw

from tests.fixtures.leak_builders import make_docx, para
from tests.test_pictures_documents import font, members, picture_text, photo, save, text_picture
from veil_desktop.documents import export_document, open_document

SVG_EXT = "{96DAC541-7B7A-43D3-8B79-37D633B846F1}"
ASVG = "http://schemas.microsoft.com/office/drawing/2016/SVG/main"
SECRET = "탁지안 302158-77-390418"


def svg(text: str) -> bytes:
    refs = "".join(f"<tspan>&#x{ord(c):X};</tspan>" for c in text)
    return ('<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" width="700" '
            f'height="120"><rect width="700" height="120" fill="#fff"/><text x="20" y="60">{refs}</text>'
            '</svg>').encode()


def drawing(rid: str, n: int, size: tuple[int, int], inner: str = "") -> str:
    cx, cy = size[0] * 9525, size[1] * 9525
    blip = f'<a:blip r:embed="{rid}">{inner}</a:blip>' if inner else f'<a:blip r:embed="{rid}"/>'
    return ('<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/'
            f'wordprocessingDrawing"><wp:extent cx="{cx}" cy="{cy}"/><wp:docPr id="{n}" name="Picture {n}"/>'
            '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="'
            'http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.'
            f'openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="{n}" name="p{n}"/>'
            f'<pic:cNvPicPr/></pic:nvPicPr><pic:blipFill>{blip}<a:stretch><a:fillRect/></a:stretch>'
            f'</pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm>'
            '</pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')


def svg_docx(tmp_path, fallback: bytes):
    ext = (f'<a:extLst><a:ext uri="{SVG_EXT}"><asvg:svgBlip xmlns:asvg="{ASVG}" r:embed="rS"/></a:ext>'
           '</a:extLst>')
    size = Image.open(io.BytesIO(fallback)).size
    return make_docx(tmp_path / "svg.docx", para("보고서 본문") + drawing("rF", 1, size, ext),
                     doc_rels=[("rF", "image", "media/image1.png"), ("rS", "image", "media/image2.svg")],
                     parts={"word/media/image1.png": fallback, "word/media/image2.svg": svg(SECRET)},
                     overrides={"word/media/image2.svg": "image/svg+xml"})


def test_svg_blip_is_dropped_and_the_png_fallback_is_kept_and_reviewed(tmp_path):
    fallback = save(text_picture(), "PNG")                  # 성명 홍길동 010-2345-6789
    src = svg_docx(tmp_path, fallback)
    doc = open_document(src)
    assert doc.unreadable == ()
    assert "word/media/image2.svg" in doc.extra["removed_members"]
    assert any("SVG pictures" in n for n in doc.notes)
    # the fallback is the only picture reviewed: its text is in the document's text for detection
    assert picture_text(doc, 1).replace(" ", "") == "성명홍길동010-2345-6789"
    assert "탁지안" not in doc.text                          # the SVG's text is not read: it is not published
    out = tmp_path / "o.docx"
    export_document(doc, [], out)
    got = members(out)
    assert not any(n.endswith(".svg") for n in got)
    blob = b"".join(got.values())
    for needle in (b"svg", b"svgBlip", SVG_EXT.encode(), b"extLst", "탁지안".encode(), b"302158"):
        assert needle not in blob, needle
    rels = got["word/_rels/document.xml.rels"].decode()
    assert rels.count("<Relationship ") == 1 and "media/image1.png" in rels
    body = got["word/document.xml"].decode()
    assert '<a:ext cx=' in body                               # the size (a:xfrm's a:ext) stays
    pngs = [b for n, b in got.items() if n.startswith("word/media/")]
    assert len(pngs) == 1 and Image.open(io.BytesIO(pngs[0])).size == (700, 120)
    d = python_docx.Document(str(out))                       # an independent reader opens it
    assert len(d.inline_shapes) == 1
    assert d.inline_shapes[0]._inline.graphic.graphicData.pic.blipFill.blip.embed in d.part.rels


def placeholder(word: str) -> bytes:
    im = Image.new("RGB", (900, 220), "white")
    ImageDraw.Draw(im).text((30, 60), word, fill="black", font=font(40))
    return save(im, "PNG")


def test_a_two_letter_placeholder_fallback_is_read_not_held(tmp_path):
    """Red team 8 6b: the fallback PNG says "(차트)" — two letters OCR reads surely on a plain background:
    reviewed as text, not held as unreadable marks."""
    doc = open_document(svg_docx(tmp_path, placeholder("(차트)")))
    assert doc.unreadable == ()
    assert picture_text(doc, 1) == "(차트)"


def test_a_plain_picture_with_grayscale_effect_stays_publishable(tmp_path):
    src = make_docx(tmp_path / "g.docx", para("사진") + drawing("rP", 1, (300, 200), "<a:grayscl/>"),
                    doc_rels=[("rP", "image", "media/image1.png")],
                    parts={"word/media/image1.png": save(photo(), "PNG")})
    doc = open_document(src)
    assert not doc.needs_review and doc.unreadable == ()
    out = tmp_path / "o.docx"
    export_document(doc, [], out)
    with zipfile.ZipFile(out) as z:
        assert "<a:grayscl/>" in z.read("word/document.xml").decode()
        assert len([n for n in z.namelist() if n.startswith("word/media/")]) == 1
    assert len(python_docx.Document(str(out)).inline_shapes) == 1


def hidden_under_checks() -> bytes:
    """A name and phone in grey 100 on a checkerboard of 110 and 255 (3-pixel squares): OCR of the stored
    pixels reads nothing; a:biLevel thresh=41000 (luminance below 104.5 black) shows the text alone."""
    import numpy as np

    im = Image.new("L", (700, 120), 255)
    ImageDraw.Draw(im).text((20, 30), "성명 홍길동 010-2345-6789", fill=0, font=font(34))
    ink = np.array(im) < 128
    yy, xx = np.mgrid[0:120, 0:700]
    bg = np.where((yy // 3 + xx // 3) % 2 == 0, 110, 255)
    return save(Image.fromarray(np.where(ink, 100, bg).astype(np.uint8)), "PNG")


def test_text_shown_only_through_bilevel_is_found(tmp_path):
    from veil_desktop.documents.pictures import read_frame

    pic = hidden_under_checks()
    assert read_frame(Image.open(io.BytesIO(pic)))[0] == "clean"     # as stored: nothing to read
    plain = make_docx(tmp_path / "p.docx", para("사진") + drawing("rP", 1, (700, 120)),
                      doc_rels=[("rP", "image", "media/image1.png")], parts={"word/media/image1.png": pic})
    as_stored = open_document(plain)                                  # shown as stored: clean, nothing read
    assert as_stored.unreadable == () and not any(p.kind == "picture" for p in as_stored.parts)
    src = make_docx(tmp_path / "b.docx", para("사진") + drawing("rP", 1, (700, 120), '<a:biLevel thresh="41000"/>'),
                    doc_rels=[("rP", "image", "media/image1.png")], parts={"word/media/image1.png": pic})
    doc = open_document(src)
    # as Word shows it the text is there: read and put up for review (detection sees the name and phone)
    assert doc.unreadable == ()
    assert picture_text(doc, 1).replace(" ", "") == "성명홍길동010-2345-6789"
