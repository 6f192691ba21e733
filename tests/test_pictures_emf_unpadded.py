"""EMF pictures whose header record was written without its padding (red team 7 control 6a).

MS-EMF says every record's size is a multiple of 4; a writer that leaves the header's description
unpadded (size 154) and starts the next record right after it made the metafile unparseable here, and a
DOCX holding such a chart picture was held for review. The metafile is now read along the sizes as
written and, where a size is not a multiple of 4, also as a player that rounds sizes up would read it
(text found on either walk counts), and it is published rebuilt with every record padded."""
from __future__ import annotations

import struct
import zipfile

from tests.fixtures.leak_builders import make_docx, para
from veil_desktop.documents import export_document, open_document
from veil_desktop.documents import ocr, pictures
from veil_desktop.masking import Masker

DESCRIPTION = "Microsoft Excel\0Chart\0\0".encode("utf-16-le")       # 23 UTF-16 units, 46 bytes


def header(n_bytes: int, n_records: int) -> bytes:
    size = 108 + len(DESCRIPTION)                                   # 154: not padded to 4
    h = struct.pack("<II4i4iIIIIHHIIIii ii", 1, size, 0, 0, 1000, 420, 0, 0, 26460, 11113, 0x464D4520,
                    0x10000, n_bytes, n_records, 1, 0, len(DESCRIPTION) // 2, 108, 0, 1920, 1080, 508, 286)
    h += bytes(108 - len(h))
    return h + DESCRIPTION


def polygon() -> bytes:
    pts = [(10, 10), (200, 10), (200, 100), (10, 100)]
    body = struct.pack("<4iII", 0, 0, 200, 100, 1, len(pts)) + struct.pack("<I", len(pts))
    body += b"".join(struct.pack("<hh", x, y) for x, y in pts)
    return struct.pack("<II", 91, 8 + len(body)) + body             # EMR_POLYPOLYGON16


def eof() -> bytes:
    return struct.pack("<IIIII", 14, 20, 0, 16, 20)


def unpadded_emf() -> bytes:
    recs = [polygon(), eof()]
    n = 154 + sum(len(r) for r in recs)
    return header(n, 1 + len(recs)) + b"".join(recs)


def records(data: bytes) -> list[tuple[int, int]]:
    out, pos = [], 0
    while pos + 8 <= len(data):
        typ, size = struct.unpack_from("<II", data, pos)
        out.append((typ, size))
        if typ == 14 or size < 8:
            break
        pos += size
    return out


def test_unpadded_header_parses_and_is_rebuilt_padded():
    src = unpadded_emf()
    assert struct.unpack_from("<I", src, 4)[0] == 154
    assert pictures.sniff(src) == "emf"
    assert pictures.metafile_text(src) is False              # was None (cannot be checked): held
    out = pictures.rebuild_metafile(src)
    assert out is not None
    recs = records(out)
    assert [t for t, _ in recs] == [1, 91, 14]
    assert all(size % 4 == 0 for _, size in recs)             # every record padded
    assert struct.unpack_from("<I", out, 48)[0] == len(out)   # header nBytes follows
    assert "Excel".encode("utf-16-le") not in out             # the description is still blanked
    assert pictures.metafile_text(out) is False


def test_text_a_rounding_player_would_read_is_found():
    # after the 154-byte header: two bytes, then a text record where a player rounding 154 up to 156
    # starts; read along the sizes as written, the bytes at 154 are no record that fits
    text = struct.pack("<II", 84, 76) + bytes(68)               # EMR_EXTTEXTOUTW, 76 bytes
    body = b"\0\0" + text + eof()
    src = header(154 + len(body), 3) + body
    assert pictures.metafile_text(src) is True


def test_docx_with_unpadded_emf_chart_picture_is_published(tmp_path):
    pic = ('<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:200pt;'
           'height:84pt"><v:imagedata r:id="rIdE"/></v:shape></w:pict></w:r></w:p>')
    src = make_docx(tmp_path / "a.docx", para("청사 안내") + pic,
                    doc_rels=[("rIdE", "image", "media/image1.emf")],
                    parts={"word/media/image1.emf": unpadded_emf()})
    doc = open_document(src)
    assert not doc.unreadable, doc.unreadable
    res = export_document(doc, Masker().plan(doc.text, []), tmp_path / "out.docx")
    assert res.leak_check["result"] == "clean"
    with zipfile.ZipFile(tmp_path / "out.docx") as z:
        emf = [z.read(n) for n in z.namelist() if n.endswith(".emf")]
    assert len(emf) == 1
    assert struct.unpack_from("<I", emf[0], 4)[0] == 156 and pictures.metafile_text(emf[0]) is False


def outline_emf(n_points: int, padded: bool) -> bytes:
    """Glyph-like outlines: one EMR_POLYPOLYGON16 of ``n_points`` points (no text record)."""
    pts = [(10 + (i * 7) % 180, 10 + (i * 13) % 90) for i in range(n_points)]
    body = struct.pack("<4iII", 0, 0, 200, 100, 1, n_points) + struct.pack("<I", n_points)
    body += b"".join(struct.pack("<hh", x, y) for x, y in pts)
    rec = struct.pack("<II", 91, 8 + len(body)) + body
    rec += bytes(-len(rec) % 4)
    rec = rec[:4] + struct.pack("<I", len(rec)) + rec[8:]
    recs = [rec, eof()]
    h = header(0, 3)
    if padded:
        h += b"\0\0"
        h = h[:4] + struct.pack("<I", len(h)) + h[8:]
    data = h + b"".join(recs)
    return data[:48] + struct.pack("<I", len(data)) + data[52:]


def test_outlines_that_may_be_letters_hold_the_picture(tmp_path):
    for padded in (True, False):
        emf = outline_emf(400, padded)
        assert pictures.metafile_text(emf) is False and pictures.metafile_outlines(emf)
        assert not pictures.metafile_outlines(unpadded_emf())         # 4 points: a frame, not letters
        pic = ('<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:200pt;'
               'height:84pt"><v:imagedata r:id="rIdE"/></v:shape></w:pict></w:r></w:p>')
        src = make_docx(tmp_path / f"o{padded}.docx", para("안내") + pic,
                        doc_rels=[("rIdE", "image", "media/image1.emf")],
                        parts={"word/media/image1.emf": emf})
        doc = open_document(src)
        assert [u.where for u in doc.unreadable] == ["picture 1"], doc.unreadable
        # the outlines are rendered and OCR'd (metafile_render): a scribble of 400 points is marks OCR cannot
        # read with confidence; without OCR the picture is held as outlines that may be letters
        assert ("outlines" if not ocr.available() else "OCR") in doc.unreadable[0].caption_en
