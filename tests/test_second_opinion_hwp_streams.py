"""The second opinion reads HWP streams by their own formats (red team 8: every HWP output was held because the
FileHeader's signature, read as UTF-16, is CJK 'words' the model calls a name — 19 of the 24 readable Hancom
samples and all three red-team HWP files; a rebuilt PNG's compressed pixels likewise). Format bytes are not
text; what a format CAN carry as text (picture metadata, trailing bytes, property-set strings, bytes after
the FileHeader's fields) still is, and a stream that does not parse is read as UTF-16 as before."""
from __future__ import annotations

import io
import struct

import pytest
from PIL import Image

from veil_desktop.detect.default import build_default_detector
from veil_desktop.documents import export_document, open_document
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.documents.second_opinion import View, _hwp_stream_text, second_opinion, text_views

from test_documents_hwp import build_hwp, para, summary_info

# the version and property words of Hancom's own files (sample files of ../shared: 5.0.5.0 / 5.1.0.1,
# compressed): with these the signature decoded as UTF-16 was tagged PERSON 0.89 by the default model
HANCOM_HEADERS = [b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", v, 1) + b"\0" * 216
                  for v in (0x05000500, 0x05010001, 0x05000300)]


@pytest.fixture(scope="module")
def detector():
    return build_default_detector(threads=1)


def _png(**text) -> bytes:
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    for k, v in text.items():
        info.add_itxt(k, v) if not v.isascii() else info.add_text(k, v)
    buf = io.BytesIO()
    Image.new("L", (40, 20), 255).save(buf, "PNG", pnginfo=info)
    return buf.getvalue()


def _jpeg(comment: bytes | None = None) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (40, 20), (255, 255, 255)).save(buf, "JPEG", **({"comment": comment} if comment else {}))
    return buf.getvalue()


@pytest.mark.parametrize("header", HANCOM_HEADERS)
def test_file_header_signature_and_fields_are_no_text(header):
    assert _hwp_stream_text("FileHeader", header) == ""


def test_file_header_bytes_past_its_fields_are_read():
    header = HANCOM_HEADERS[0][:40] + "연락처 010-3391-2748".encode("utf-16-le")
    assert "010-3391-2748" in _hwp_stream_text("FileHeader", header.ljust(256, b"\0"))
    # not an HWP signature: the whole stream as UTF-16, as before
    assert _hwp_stream_text("FileHeader", "김태오".encode("utf-16-le")) == "김태오"


def test_picture_pixels_are_no_text_but_its_metadata_is():
    assert _hwp_stream_text("BinData/BIN0001.png", _png()) == ""
    assert "홍서윤" in _hwp_stream_text("BinData/BIN0001.png", _png(Author="홍서윤"))
    assert "Kim Minjun" in _hwp_stream_text("BinData/BIN0001.png", _png(Author="Kim Minjun"))
    trailing = _png() + "주민번호 850412-1234567".encode("utf-8")
    assert "850412-1234567" in _hwp_stream_text("BinData/BIN0001.png", trailing)
    assert _hwp_stream_text("BinData/BIN0002.jpg", _jpeg()) == ""
    assert "박지안" in _hwp_stream_text("BinData/BIN0002.jpg", _jpeg("담당 박지안".encode("utf-8")))
    after_eoi = _jpeg() + b"PK\x03\x04 010-5521-9038"
    assert "010-5521-9038" in _hwp_stream_text("PrvImage", after_eoi)


def test_a_picture_that_does_not_parse_is_read_as_utf16():
    fake = b"\x89PNG\r\n\x1a\n" + "홍길동".encode("utf-16-le")
    assert "홍길동" in _hwp_stream_text("PrvImage", fake)
    cut = _jpeg()[:200]                       # cut inside the scan data: no end of image
    assert _hwp_stream_text("BinData/BIN0003.jpg", cut) == cut.decode("utf-16-le", "ignore")


def test_property_set_strings_are_read_and_its_structure_is_not():
    assert _hwp_stream_text("\x05HwpSummaryInformation", summary_info("")).strip() == ""
    assert "최은서" in _hwp_stream_text("\x05HwpSummaryInformation", summary_info("최은서"))


def test_hwp_export_of_an_ordinary_file_raises_nothing_in_format_streams(tmp_path, detector):
    src = build_hwp(tmp_path / "a.hwp", body=para("민원실 이전 안내: 12월 8일부터 별관 2층에서 접수합니다."))
    out = tmp_path / "out.hwp"
    export_document(open_document(src), [], out)
    views = text_views(out.read_bytes(), "hwp")
    places = {v.place for v in views}
    assert "FileHeader" in places and any(p.startswith("BodyText/") for p in places)
    blocking, _possible = second_opinion(views, detector.detect, RuleDetector().detect)
    assert blocking == []
    # the same streams read as UTF-16 (before): the FileHeader alone was a blocking PERSON
    raw = [View(v.place, HANCOM_HEADERS[0].decode("utf-16-le", "ignore"), False) for v in views
           if v.place == "FileHeader"]
    assert [f.place for f in second_opinion(raw, detector.detect, RuleDetector().detect)[0]] == ["FileHeader"]


def test_a_name_in_a_bindata_picture_comment_still_blocks(detector):
    views = text_views(_cfb_with({"BinData/BIN0001.jpg": _jpeg("작성자 홍길동 연락처 010-2291-4837".encode("utf-8"))}),
                       "hwp")
    pic = [v for v in views if v.place == "BinData/BIN0001.jpg"]
    assert pic and "010-2291-4837" in pic[0].text and not pic[0].visible
    blocking, _ = second_opinion(pic, detector.detect, RuleDetector().detect)
    assert {f.label for f in blocking} >= {"PHONE"} and {f.place for f in blocking} == {"BinData/BIN0001.jpg"}


def _cfb_with(streams: dict[str, bytes]) -> bytes:
    from test_documents_hwp import write_cfb

    return write_cfb({"FileHeader": HANCOM_HEADERS[0], **streams})
