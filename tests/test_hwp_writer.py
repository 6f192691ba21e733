"""HWP 5 written in place (``documents.hwp.write_hwp``): fixtures built by tests/test_documents_hwp.py's
own CFB writer, PII planted, masked, written by ``documents.cfb``, then re-read by olefile, by our reader,
by pyhwp's ``hwp5txt`` (an independent HWP 5 reader, test-only) and by a scan of every stream decompressed.
"""
from __future__ import annotations

import io
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import olefile
import pytest

from veil_desktop.detect.span import Span
from veil_desktop.documents import DocumentError, propagate_spans
from veil_desktop.documents.cfb import read_streams, write_cfb
from veil_desktop.documents.hwp import neutral_summary, read_hwp, write_hwp
from veil_desktop.documents.hwp_records import fit, parse_records, text_map
from veil_desktop.documents.leakcheck_hwp import check_hwp_bytes
from veil_desktop.documents.matching import ValueMatcher
from veil_desktop.masking import Masker, Replacement

from test_documents_hwp import body_simple, build_hwp, deflate, para

VALUES = {"홍길동": "PERSON", "010-1234-5678": "PHONE", "김민수": "PERSON", "hong@example.com": "EMAIL",
          "서울특별시 종로구 세종대로 175": "ADDRESS", "900101-1234567": "RRN", "윤봉길": "PERSON"}


def hwp5txt(path: Path) -> str:
    """The text pyhwp's hwp5txt reads (the console script of the dev extra, next to this Python)."""
    exe = Path(sys.executable).with_name("hwp5txt")
    exe = str(exe) if exe.exists() else shutil.which("hwp5txt")
    assert exe, "pyhwp (dev extra) is not installed: pip install -e '.[dev]'"
    r = subprocess.run([exe, str(path)], capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")[-2000:]
    return r.stdout.decode("utf-8")


def plan_for(doc, values=VALUES) -> list[Replacement]:
    spans = []
    for v, lab in values.items():
        start = 0
        while (i := doc.text.find(v, start)) >= 0:
            spans.append(Span(i, i + len(v), lab))
            start = i + len(v)
    return Masker().plan(doc.text, propagate_spans(doc.text, spans))


def all_views(data: bytes) -> list[str]:
    """Every stream of a compound file, raw and inflated, in UTF-16LE (both alignments), UTF-8 and
    CP949; plus the stream names (our own scan, not the product's leak check)."""
    ole = olefile.OleFileIO(io.BytesIO(data))
    views = ["\n".join("/".join(e) for e in ole.listdir())]
    for e in ole.listdir():
        raw = ole.openstream(e).read()
        blobs = [raw]
        try:
            blobs.append(zlib.decompressobj(-15).decompress(raw))
        except zlib.error:
            pass
        for b in blobs:
            views += [b.decode("utf-16-le", "ignore"), b[1:].decode("utf-16-le", "ignore"),
                      b.decode("utf-8", "ignore"), b.decode("cp949", "ignore")]
    ole.close()
    return views


def assert_no_value(data: bytes, values) -> None:
    views = all_views(data)
    for v in values:
        for part in (v, v.replace("-", "")):
            assert not any(part in view for view in views), f"{part!r} survived"


def section_records(data: bytes, compressed: bool = True):
    raw = read_streams(data)["BodyText/Section0"]
    return parse_records(zlib.decompressobj(-15).decompress(raw) if compressed else raw)


def test_fit_keeps_the_length_in_utf16_units():
    assert fit("[PERSON]", 3) == "[P]"
    assert fit("[PERSON]", 8) == "[PERSON]"
    assert fit("[PHONE]", 13) == "[PHONE]******"
    assert fit("[RRN]", 2) == "**" and fit("", 4) == "****"
    assert fit("홍**", 3) == "홍**" and fit("김철수바보", 2) == "김철"
    assert fit("😀x", 2) == "*x"   # no surrogate pair is written
    for n in range(12):
        assert len(fit("[ADDRESS]", n).encode("utf-16-le")) == 2 * n


@pytest.mark.parametrize("compressed", [True, False])
def test_masked_hwp_keeps_every_structure_and_opens_in_hwp5txt(tmp_path, compressed):
    src = build_hwp(tmp_path / "a.hwp", compressed=compressed, body=body_simple())
    data = src.read_bytes()
    doc = read_hwp(src, data)
    plan = plan_for(doc)
    out = write_hwp(doc, plan, data)
    assert src.read_bytes() == data          # the original is untouched
    (tmp_path / "o.hwp").write_bytes(out)

    # our reader: the masked text, same length as the original paragraph by paragraph
    again = read_hwp(tmp_path / "o.hwp", out)
    lines = again.text.split("\n")[1:]   # the section prelude is an empty paragraph
    assert lines[:4] == ["담당자 [P] 연락처 [PHONE]******", "이름\t[P]", "메일 [EMAIL]*********",
                         "주소 [ADDRESS]********* 😀 [RRN]*********"]
    for a, b in zip(doc.text.split("\n")[1:], lines):
        assert len(a) == len(b)

    # every record: same tags, levels and sizes; only PARA_TEXT payloads differ, and in them the
    # control characters (tab, line break, paragraph end) are untouched
    before, after = section_records(data, compressed), section_records(out, compressed)
    assert [(r.tag, r.level, len(r.payload)) for r in before] == \
        [(r.tag, r.level, len(r.payload)) for r in after]
    for r0, r1 in zip(before, after):
        if r0.tag != 0x43:
            assert r0.payload == r1.payload
        else:
            u0 = struct.unpack(f"<{len(r0.payload) // 2}H", r0.payload)
            u1 = struct.unpack(f"<{len(r1.payload) // 2}H", r1.payload)
            ctrl = [i for i, u in enumerate(u0) if u < 32]
            assert ctrl and all(u0[i] == u1[i] for i in ctrl)
            assert all(u1[i] >= 32 for i in range(len(u1)) if i not in ctrl)

    # the FileHeader keeps its compression flag; the independent reader opens the output
    header = read_streams(out)["FileHeader"]
    assert struct.unpack_from("<I", header, 36)[0] & 1 == int(compressed)
    text = hwp5txt(tmp_path / "o.hwp")
    # (hwp5txt drops tabs and line breaks inside a paragraph)
    assert [ln for ln in text.splitlines() if ln.strip()][:3] == \
        ["담당자 [P] 연락처 [PHONE]******", "이름[P]메일 [EMAIL]*********",
         "주소 [ADDRESS]********* 😀 [RRN]*********"]
    assert_no_value(out, VALUES)
    assert check_hwp_bytes(out, ValueMatcher(list(VALUES))).clean


def test_unmasked_export_reads_the_same_in_hwp5txt(tmp_path):
    src = build_hwp(tmp_path / "a.hwp", body=body_simple())
    doc = read_hwp(src, src.read_bytes())
    out = write_hwp(doc, [], src.read_bytes())
    (tmp_path / "o.hwp").write_bytes(out)
    assert read_hwp(tmp_path / "o.hwp", out).text == doc.text
    # the independent reader reads the input and the output alike
    assert hwp5txt(tmp_path / "o.hwp") == hwp5txt(src)
    lines = [ln for ln in hwp5txt(tmp_path / "o.hwp").splitlines() if ln.strip()]
    assert lines[:2] == ["담당자 홍길동 연락처 010-1234-5678", "이름김민수메일 hong@example.com"]


def test_a_missing_summary_is_added_neutral(tmp_path):
    src = build_hwp(tmp_path / "a.hwp", body=body_simple(), summary=False)
    assert "\x05HwpSummaryInformation" not in read_streams(src.read_bytes())
    doc = read_hwp(src, src.read_bytes())
    (tmp_path / "o.hwp").write_bytes(write_hwp(doc, [], src.read_bytes()))
    assert "담당자 홍길동 연락처 010-1234-5678" in hwp5txt(tmp_path / "o.hwp")   # hwp5txt needs one


def test_every_hiding_place_is_masked_rebuilt_or_removed(tmp_path):
    src = build_hwp(tmp_path / "a.hwp", extras=True)
    data = src.read_bytes()
    doc = read_hwp(src, data)
    # the undecodable BinData picture was not reviewed: the document needs review
    assert doc.needs_review and doc.unreadable[0].where == "picture 1"
    notes = " ".join(doc.notes)
    assert "OLE object (1)" in notes and "scripts (2)" in notes and "document history (1)" in notes
    assert "표 안: 윤봉길 대리" in doc.text
    matcher = ValueMatcher(list(VALUES))
    assert not check_hwp_bytes(data, matcher).clean      # the check does find them in the source
    out = write_hwp(doc, plan_for(doc), data)
    streams = read_streams(out)
    assert sorted(streams) == sorted(["BinData/BIN0002.png", "BodyText/Section0", "DocInfo", "FileHeader",
                                      "PrvText", "\x05HwpSummaryInformation"])
    assert streams["\x05HwpSummaryInformation"] == neutral_summary()
    assert streams["PrvText"].decode("utf-16-le").startswith("담당자 [P] 연락처 [PHONE]******\r\n이름\t[P]")
    # the hyperlink command (it named a person) is emptied; the field's text is kept
    recs = section_records(out)
    fields = [r for r in recs if r.tag == 0x47 and r.payload[3] == 0x25]
    assert fields and all(struct.unpack_from("<H", r.payload, 9)[0] == 0 for r in fields)
    props = struct.unpack_from("<I", streams["FileHeader"], 36)[0]
    assert props & 0x8 == 0                           # "scripts present" cleared with the scripts
    assert_no_value(out, VALUES)
    rep = check_hwp_bytes(out, matcher)
    assert rep.clean and len(rep.scanned) > 10
    (tmp_path / "o.hwp").write_bytes(out)
    again = read_hwp(tmp_path / "o.hwp", out)
    # the undecodable picture was never copied: a 1x1 white placeholder took its place (issue 26)
    assert "표 안: [P] 대리" in again.text and not again.needs_review
    pic = streams["BinData/BIN0002.png"]
    pic = zlib.decompress(pic, -15) if not pic.startswith(b"\x89PNG") else pic
    assert pic.startswith(b"\x89PNG") and b"not really" not in pic


def test_leak_check_finds_a_value_in_every_kind_of_place():
    matcher = ValueMatcher(["홍길동"])
    cases = {
        "body": {"BodyText/Section0": deflate(para("이름 홍길동"))},
        "split by a control": {"BodyText/Section0": deflate(
            para([ord("홍")] + [9, 0, 0, 0, 0, 0, 0, 9] + [ord("길"), ord("동")]))},
        "uncompressed body": {"BodyText/Section0": para("이름 홍길동")},
        "summary": {"\x05HwpSummaryInformation": "홍길동".encode("utf-16-le")},
        "stream name": {"BinData/홍길동.png": b"x"},
        "inflated binary": {"BinData/BIN0001.OLE": deflate(b"\x00\x01" * 50 + "홍길동".encode("utf-16-le"))},
        "docinfo record": {"DocInfo": deflate(struct.pack("<I", 0x12 | (14 << 20)) + b"\0\0\x03\0"
                                              + "홍길동".encode("utf-16-le") + b"\0\0")},
    }
    for what, streams in cases.items():
        rep = check_hwp_bytes(write_cfb({"FileHeader": b"HWP Document File", **streams}), matcher)
        assert not rep.clean, what
    assert not check_hwp_bytes(b"not a compound file", matcher).clean
    clean = write_cfb({"FileHeader": b"HWP Document File", "BodyText/Section0": deflate(para("이름 [P]"))})
    assert check_hwp_bytes(clean, matcher).clean


def test_writer_refuses_what_it_cannot_write(tmp_path):
    src = build_hwp(tmp_path / "a.hwp")
    doc = read_hwp(src, src.read_bytes())
    other = build_hwp(tmp_path / "b.hwp", body=para("다른 문서의 문단 하나"))
    with pytest.raises(DocumentError, match="does not match|does not have"):
        write_hwp(doc, plan_for(doc), other.read_bytes())
    with pytest.raises(DocumentError, match="password"):
        write_hwp(doc, [], build_hwp(tmp_path / "p.hwp", props_extra=0x2).read_bytes())


def test_mask_spanning_two_paragraphs_and_a_surrogate_pair(tmp_path):
    src = build_hwp(tmp_path / "a.hwp", body=para("앞 홍길") + para("동 뒤 😀끝"))
    doc = read_hwp(src, src.read_bytes())
    a = doc.text.index("홍길")
    e = doc.text.index("😀")
    plan = [Replacement(a, a + 4, "[PERSON]", "PERSON"), Replacement(e, e + 1, "[X]", "X")]
    out = write_hwp(doc, plan, src.read_bytes())
    text = read_hwp(tmp_path / "o.hwp", out).text
    # the first paragraph gets the tag cut to its 2 units, the second one's covered unit is filled;
    # the emoji (2 units) becomes 2 fill/tag units
    assert text.split("\n")[:2] == ["앞 **", "* 뒤 **끝"]
    _, where = text_map(struct.pack("<3H", 0xD83D, 0xDE00, 13))
    assert where == [(0, 2, True)]


def test_cfb_writer_large_and_many_streams():
    import os

    streams = {f"BinData/BIN{i:04X}.png": os.urandom(i * 97) for i in range(1, 60)}
    streams["BodyText/Section0"] = os.urandom(8 * 1024 * 1024)   # > 109 FAT sectors: DIFAT sectors
    streams["A/B/C/deep"] = b"deep"
    streams["empty"] = b""
    data = write_cfb(streams)
    assert read_streams(data) == streams
    # the directory's red-black trees: every path from a storage's child root has as many black nodes
    ole = olefile.OleFileIO(io.BytesIO(data))
    for d in ole.direntries:
        if d is None or d.entry_type not in (1, 5) or d.sid_child == 0xFFFFFFFF:
            continue

        def black_height(sid: int) -> int:
            if sid == 0xFFFFFFFF:
                return 1
            e = ole.direntries[sid]
            left, right = black_height(e.sid_left), black_height(e.sid_right)
            assert left == right
            if e.color == 0:   # red: its children are black
                for c in (e.sid_left, e.sid_right):
                    assert c == 0xFFFFFFFF or ole.direntries[c].color == 1
            return left + (e.color == 1)

        assert ole.direntries[d.sid_child].color == 1
        black_height(d.sid_child)
    ole.close()
    with pytest.raises(ValueError):
        write_cfb({"x" * 32: b""})


def test_export_document_writes_hwp_through_the_registry(tmp_path):
    """The whole export path (hash check, plan validation, atomic write, re-read from disk, leak check)
    with the registry's ``.hwp -> .hwp`` writer and ``check_hwp_bytes`` as its check."""
    from veil_desktop.documents import export_document, formats, open_document

    assert formats.spec("hwp").outputs[0] == "hwp"
    src = build_hwp(tmp_path / "a.hwp", extras=True)
    before = src.read_bytes()
    doc = open_document(src)
    res = export_document(doc, plan_for(doc), tmp_path / "o.hwp")
    assert res.leak_check["result"] == "clean" and res.leak_check["method"] == "hwp"
    assert src.read_bytes() == before
    out = (tmp_path / "o.hwp").read_bytes()
    assert_no_value(out, VALUES)
    again = open_document(tmp_path / "o.hwp")
    assert "표 안: [P] 대리" in again.text and "홍길동" not in again.text
    # an HWP 3 file is refused by the reader's own message, not as a renamed file
    (tmp_path / "old.hwp").write_bytes(b"HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05")
    with pytest.raises(DocumentError, match="HWP 3"):
        open_document(tmp_path / "old.hwp")


def test_records_round_trip_byte_for_byte():
    from veil_desktop.documents.hwp_records import serialize_records

    stream = para("가" * 3000) + para("짧은 문단") + b"\x01\x02"     # long form, short form, a tail
    assert serialize_records(parse_records(stream)) == stream
    with pytest.raises(DocumentError, match="truncated"):
        parse_records(para("문단")[:-3])
