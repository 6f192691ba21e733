"""Pictures are rebuilt from their pixels only (issue 26, class 1): every planted value outside the pixels is
gone from the OUTPUT bytes (raw and every zlib stream in them), the pixels (size, frame count) survive.
Every fixture is made here with Pillow (plus the raw chunk/segment a hostile file adds)."""
from __future__ import annotations

import io
import struct
import zipfile
import zlib

import pytest
from PIL import Image, ImageDraw, ImageSequence, TiffImagePlugin
from PIL.PngImagePlugin import PngInfo

from veil_desktop.documents import limits, pictures
from veil_desktop.documents.pictures import PictureError, rebuild_picture, sniff

SECRET = "홍길동-900101-1234567"
S = SECRET.encode("utf-8")
A = b"ARTIST-KIM-MINSU"


def views(data: bytes) -> list[bytes]:
    """The raw bytes plus every zlib stream found at any offset (PNG IDAT/iCCP/zTXt, TIFF deflate ...)."""
    out = [data]
    for i in range(len(data) - 1):
        if data[i] == 0x78 and data[i + 1] in (0x01, 0x5E, 0x9C, 0xDA):
            try:
                d = zlib.decompressobj()
                got = d.decompress(data[i:], 50_000_000)
            except zlib.error:
                continue
            if got:
                out.append(got)
    # IDAT split over chunks: join them and inflate
    if data.startswith(b"\x89PNG"):
        idat = b"".join(body for kind, body in png_chunks(data) if kind == b"IDAT")
        try:
            out.append(zlib.decompress(idat))
        except zlib.error:
            pass
    return out


def assert_absent(data: bytes, *needles: bytes) -> None:
    for v in views(data):
        for n in needles:
            assert n not in v
            assert n.decode("utf-8", "ignore").encode("utf-16-le") not in v


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    pos, out = 8, []
    while pos + 12 <= len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        out.append((data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]))
        pos += 12 + n
    return out


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def insert_before_iend(png: bytes, extra: bytes) -> bytes:
    i = png.rindex(b"IEND") - 4
    return png[:i] + extra + png[i:]


def jpeg_markers(data: bytes) -> list[int]:
    """Markers before the scan, and whether anything follows EOI (the last element: -1 if so)."""
    assert data[:2] == b"\xff\xd8"
    pos, out = 2, []
    while data[pos] == 0xFF:
        m = data[pos + 1]
        out.append(m)
        if m == 0xDA:
            break
        pos += 2 + struct.unpack(">H", data[pos + 2:pos + 4])[0]
    return out


def picture(size=(64, 48), mode="RGB") -> Image.Image:
    im = Image.new(mode, size, "white")
    d = ImageDraw.Draw(im)
    d.rectangle((4, 4, size[0] // 2, size[1] // 2), fill="red" if mode == "RGB" else 0)
    return im


def save(im: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, fmt, **kw)
    return buf.getvalue()


# -- PNG ---------------------------------------------------------------------------------------------------
def test_png_text_chunks_iccp_profile_text_and_private_chunks_are_gone():
    info = PngInfo()
    info.add_text("Author", SECRET)
    info.add_text("Comment", SECRET, zip=True)            # zTXt
    info.add_itxt("Description", SECRET, lang="ko")        # iTXt
    src = save(picture(), "PNG", pnginfo=info)
    # an iCCP profile whose description holds the value (Pillow keeps icc_profile unparsed)
    profile = b"\x00" * 128 + b"acspdesc" + S + b"\x00" * 16
    iccp = chunk(b"iCCP", b"sRGB-ish\x00\x00" + zlib.compress(profile))
    src = src[:33] + iccp + src[33:]                      # after IHDR
    src = insert_before_iend(src, chunk(b"prVt", S) + chunk(b"vpAg", A) + chunk(b"eXIf", b"MM\x00*" + A))
    assert any(S in v for v in views(src)) and A in src
    rb = rebuild_picture(src)
    assert rb.kind == "png"
    assert_absent(rb.data, S, A, b"sRGB-ish", b"desc")
    assert {k for k, _ in png_chunks(rb.data)} <= {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"}
    out = Image.open(io.BytesIO(rb.data))
    assert out.size == (64, 48) and out.getpixel((5, 5)) == (255, 0, 0) and out.getpixel((60, 40)) == (255, 255, 255)
    assert "icc_profile" not in out.info and not out.text


def test_png_transparency_and_16_bit_keep_their_pixels():
    im = Image.new("RGBA", (20, 10), (0, 0, 0, 0))
    im.putpixel((3, 3), (10, 20, 30, 255))
    rb = rebuild_picture(save(im, "PNG"))
    out = Image.open(io.BytesIO(rb.data))
    assert out.mode == "RGBA" and out.getpixel((3, 3)) == (10, 20, 30, 255) and out.getpixel((0, 0))[3] == 0
    deep = Image.new("I;16", (8, 8), 40000)
    rb = rebuild_picture(save(deep, "PNG"))
    assert Image.open(io.BytesIO(rb.data)).getpixel((1, 1)) == 40000


@pytest.mark.parametrize("kind, mode", [("PNG", "RGBA"), ("PNG", "LA"), ("WEBP", "RGBA"), ("TIFF", "RGBA")])
def test_colour_under_alpha_zero_is_not_published(kind, mode):
    """An editor that keeps "colour values from transparent pixels" (GIMP) leaves erased text in the colour
    channels of alpha-0 pixels (red team 6, 1c): a viewer shows nothing, ignoring the alpha shows the text.
    The rebuilt picture shows the same, and its transparent pixels hold white, not the text."""
    im = Image.new("RGBA", (60, 20), (250, 250, 250, 255))
    for x in range(5, 41):                                                 # "erased" strokes: alpha 0, colour kept
        ImageDraw.Draw(im).line((x, 5, x, 14), fill=(0, 0, 0, 0) if x % 3 else (200, 100, 50, 0))
    im.putpixel((50, 10), (0, 0, 0, 3))                                    # nearly transparent ink
    im.putpixel((52, 10), (30, 60, 90, 200))                               # a visible translucent pixel stays
    src = im if mode == "RGBA" else im.convert("LA")
    out = Image.open(io.BytesIO(rebuild_picture(save(src, kind, lossless=True) if kind == "WEBP"
                                                else save(src, kind)).data))
    assert out.mode == mode
    px = out.convert("RGBA")
    hidden = {px.getpixel((x, y)) for x in range(5, 41) for y in range(5, 15)}
    # one colour under the erased strokes: white (PNG, TIFF), or what libwebp stores for invisible pixels
    assert len({p[:3] for p in hidden}) == 1 and max(p[3] for p in hidden) < pictures.HIDDEN_ALPHA, hidden
    if kind != "WEBP":
        assert {p[:3] for p in hidden} == {(255, 255, 255)}
    r, g, b, a = px.getpixel((50, 10))
    assert (r, g, b) == (255, 255, 255) and a < pictures.HIDDEN_ALPHA
    assert px.getpixel((2, 2)) == (250, 250, 250, 255)
    if mode == "RGBA":
        assert px.getpixel((52, 10)) == (30, 60, 90, 200)


# -- JPEG --------------------------------------------------------------------------------------------------
def test_jpeg_com_after_scan_exif_and_trailing_zip_are_gone():
    exif = Image.Exif()
    exif[0x013B] = A.decode()                              # Artist
    exif[0x010E] = SECRET                                  # ImageDescription
    src = save(picture(), "JPEG", exif=exif.tobytes(), comment=S, quality=95)
    assert src.endswith(b"\xff\xd9")
    # a COM segment after the scan data (before EOI), then an appended ZIP after EOI
    com = b"\xff\xfe" + struct.pack(">H", len(S) + 2) + S
    src = src[:-2] + com + b"\xff\xd9"
    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w") as z:
        z.writestr("secret.txt", SECRET + " " + A.decode())
    src += zbuf.getvalue() + b"TRAILER" + S
    assert src.count(S) >= 3 and A in src
    rb = rebuild_picture(src)
    assert rb.kind == "jpeg"
    assert_absent(rb.data, S, A, b"secret.txt", b"TRAILER", b"PK\x03\x04")
    assert rb.data.endswith(b"\xff\xd9") and rb.data.count(b"\xff\xd9") == 1
    markers = jpeg_markers(rb.data)
    assert 0xFE not in markers and not any(0xE1 <= m <= 0xEF for m in markers)
    out = Image.open(io.BytesIO(rb.data))
    assert out.size == (64, 48) and not out.getexif() and "comment" not in out.info
    r, g, b = out.getpixel((8, 8))
    assert r > 200 and g < 60 and b < 60


def test_jfif_by_content_whatever_the_name():
    data = save(picture(), "JPEG")
    assert sniff(data) == "jpeg"
    assert pictures.claims_picture("word/media/image1.jfif", data)
    assert pictures.claims_picture("word/media/image1", data)          # no extension
    assert pictures.claims_picture("BinData/x.bin", data)
    assert not pictures.claims_picture("word/media/x.png", b"<?xml version='1.0'?><a/>")


# -- GIF ---------------------------------------------------------------------------------------------------
def test_gif_comment_and_application_extensions_gone_all_frames_kept():
    frames = [picture(), Image.new("RGB", (64, 48), "blue"), Image.new("RGB", (64, 48), "green")]
    src = save(frames[0], "GIF", save_all=True, append_images=frames[1:], comment=S, duration=[100, 200, 300],
               loop=0)
    # a private application extension (not NETSCAPE) before the trailer
    app = b"\x21\xff\x0bPRIVATEAPP1" + bytes([len(A)]) + A + b"\x00"
    src = src[:-1] + app + b"\x3b"
    assert S in src and A in src
    rb = rebuild_picture(src)
    assert rb.kind == "gif" and len(rb.frames) == 3
    assert_absent(rb.data, S, A, b"PRIVATEAPP")
    out = Image.open(io.BytesIO(rb.data))
    assert out.n_frames == 3 and out.size == (64, 48) and "comment" not in out.info
    colours = [f.convert("RGB").getpixel((60, 40)) for f in ImageSequence.Iterator(out)]
    assert colours == [(255, 255, 255), (0, 0, 255), (0, 128, 0)]


# -- TIFF --------------------------------------------------------------------------------------------------
def test_tiff_two_pages_tags_gone_both_pages_kept():
    info = TiffImagePlugin.ImageFileDirectory_v2()
    info[270] = "HONG-900101-1234567"                      # ImageDescription (TIFF ASCII)
    info[315] = A.decode()                                 # Artist
    info[305] = "Scanner of KIM"                           # Software
    p2 = Image.new("RGB", (50, 70), "blue")
    src = save(picture(), "TIFF", save_all=True, append_images=[p2], tiffinfo=info)
    assert b"HONG-900101" in src and A in src and b"Scanner of KIM" in src
    rb = rebuild_picture(src)
    assert rb.kind == "tiff" and len(rb.frames) == 2
    assert_absent(rb.data, b"HONG-900101", A, b"Scanner of KIM")
    out = Image.open(io.BytesIO(rb.data))
    assert out.n_frames == 2 and out.size == (64, 48)
    out.seek(1)
    assert out.size == (50, 70) and out.convert("RGB").getpixel((10, 10)) == (0, 0, 255)
    assert 270 not in out.tag_v2 and 315 not in out.tag_v2 and 305 not in out.tag_v2


# -- BMP / WebP --------------------------------------------------------------------------------------------
def test_bmp_trailing_bytes_and_webp_exif_gone():
    bmp = save(picture(), "BMP") + S
    rb = rebuild_picture(bmp)
    assert rb.kind == "bmp" and S not in rb.data and Image.open(io.BytesIO(rb.data)).size == (64, 48)
    exif = Image.Exif()
    exif[0x013B] = A.decode()
    webp = save(picture(), "WEBP", exif=exif.tobytes(), xmp=S)
    assert A in webp and S in webp
    rb = rebuild_picture(webp)
    assert rb.kind == "webp"
    assert_absent(rb.data, S, A)
    assert b"EXIF" not in rb.data and b"XMP " not in rb.data
    assert Image.open(io.BytesIO(rb.data)).size == (64, 48)


# -- fail closed / bounded -------------------------------------------------------------------------------
@pytest.mark.parametrize("data", [
    b"\x89PNG\r\n\x1a\nnot really a picture" + S,
    save(picture(), "PNG")[:60],                             # truncated
    b"GIF89a" + S,
    b"\xff\xd8\xff\xe0" + S,
    b"II\xbc\x01" + S,                                         # JPEG XR: sniffed, not decodable
])
def test_undecodable_pictures_are_never_copied(data):
    with pytest.raises(PictureError):
        rebuild_picture(data)
    out = pictures.publish_picture(data)
    assert S not in out and out.startswith(b"\x89PNG") and Image.open(io.BytesIO(out)).size == (1, 1)


def test_decompression_bomb_and_frame_count_are_capped():
    # a PNG header declaring 60000 x 60000 pixels: refused before any pixel is inflated
    ihdr = chunk(b"IHDR", struct.pack(">IIBBBBB", 60000, 60000, 8, 2, 0, 0, 0))
    bomb = b"\x89PNG\r\n\x1a\n" + ihdr + chunk(b"IDAT", zlib.compress(b"\x00" * 1000)) + chunk(b"IEND", b"")
    with pytest.raises(PictureError):
        rebuild_picture(bomb)
    n = limits.MAX_PICTURE_FRAMES + 1
    frames = [Image.new("L", (4, 4), i * 3) for i in range(n)]
    many = save(frames[0], "GIF", save_all=True, append_images=frames[1:])
    assert Image.open(io.BytesIO(many)).n_frames == n
    with pytest.raises(PictureError, match="frames"):
        rebuild_picture(many)


def test_blank_picture_keeps_size_and_frames():
    p2 = Image.new("RGB", (50, 70), "blue")
    rb = rebuild_picture(save(picture(), "TIFF", save_all=True, append_images=[p2]))
    out = Image.open(io.BytesIO(pictures.blank_picture(rb)))
    assert out.n_frames == 2 and out.size == (64, 48)
    assert out.convert("RGB").getextrema() == ((255, 255),) * 3
    out.seek(1)
    assert out.size == (50, 70) and out.convert("RGB").getextrema() == ((255, 255),) * 3


def test_policy_parsing():
    assert pictures.PicturePolicy.parse("BLANK") is pictures.PicturePolicy.BLANK
    assert pictures.PicturePolicy.parse(None) is pictures.PicturePolicy.REVIEW
    from veil_desktop.documents.errors import DocumentError
    with pytest.raises(DocumentError, match="review, blank or remove"):
        pictures.PicturePolicy.parse("keep")
    with pictures.picture_policy("remove"):
        assert pictures.current_policy() is pictures.PicturePolicy.REMOVE
    assert pictures.current_policy() is pictures.PicturePolicy.REVIEW


# -- metafiles ---------------------------------------------------------------------------------------------
def _emf(desc: str, comment: bytes, trailer: bytes = b"") -> bytes:
    """A minimal EMF: header (with a description), one EMR_COMMENT, EMR_EOF; then ``trailer``."""
    d = (desc + "\x00").encode("utf-16-le")
    d += b"\x00" * (-len(d) % 4)
    hsize = 108 + len(d)
    hdr = struct.pack("<II", 1, hsize) + struct.pack("<4i", 0, 0, 10, 10) + struct.pack("<4i", 0, 0, 100, 100)
    body_comment = struct.pack("<I", len(comment)) + comment + b"\x00" * (-len(comment) % 4)
    rec_comment = struct.pack("<II", 70, 8 + len(body_comment)) + body_comment
    rec_eof = struct.pack("<IIIII", 14, 20, 0, 16, 20)
    total = hsize + len(rec_comment) + len(rec_eof)
    hdr += b" EMF" + struct.pack("<IIIHH", 0x10000, total, 3, 1, 0)
    hdr += struct.pack("<II", len(desc) + 1, 108)           # nDescription, offDescription
    hdr += struct.pack("<I", 0) + struct.pack("<2i", 1920, 1080) + struct.pack("<2i", 320, 180)
    hdr += struct.pack("<III", 0, 0, 0) + struct.pack("<2I", 320000, 180000)
    assert len(hdr) == 108
    return hdr + d + rec_comment + rec_eof + trailer


def test_emf_description_comment_and_trailer_gone():
    import gzip

    src = _emf("Drawn by 김민수", b"GDIC" + A, trailer=S)
    assert sniff(src) == "emf" and pictures.metafile_text(src) is False
    assert "김민수".encode("utf-16-le") in src and A in src and S in src
    out = pictures.publish_picture(src)
    assert sniff(out) == "emf" and len(out) == len(src) - len(S)
    assert "김민수".encode("utf-16-le") not in out and A not in out and S not in out
    assert pictures.metafile_text(out) is False               # still parses to its EOF record
    emz = gzip.compress(src)
    assert sniff(emz) == "emz"
    back = gzip.decompress(pictures.publish_picture(emz))
    assert back == out
    assert pictures.publish_picture(src[:60]).startswith(b"\x89PNG")   # damaged: never copied
