"""HWP 5 reading: a minimal HWP 5 file is built here — a real OLE compound file (CFB v3 with FAT,
mini stream and directory, written by ``write_cfb`` below) holding FileHeader, DocInfo and a compressed
BodyText/Section0 of HWP records — then read through olefile, and exported as masked TXT (on request). The in-place HWP writer is tested
in tests/test_hwp_writer.py with these builders."""
from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

import olefile
import pytest

from veil_desktop.detect.span import Span
from veil_desktop.documents import DocumentError, export_document, open_document, propagate_spans
from veil_desktop.documents.hwp import para_text, read_hwp
from veil_desktop.masking import Masker

ENDOFCHAIN, FREESECT, FATSECT, NOSTREAM = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFF


def write_cfb(streams: dict[str, bytes]) -> bytes:
    """Minimal CFB v3 writer: 512-byte sectors, streams < 4096 bytes in the mini stream."""
    storages = sorted({p.split("/")[0] for p in streams if "/" in p})
    # directory entries: 0 = root, then storages, then streams
    entries = [{"name": "Root Entry", "type": 5, "children": []}]
    index = {"": 0}
    for s in storages:
        index[s] = len(entries)
        entries.append({"name": s, "type": 1, "children": []})
        entries[0]["children"].append(index[s])
    for path, data in streams.items():
        parent, _, name = path.rpartition("/")
        entries.append({"name": name, "type": 2, "children": [], "data": data})
        entries[index[parent]]["children"].append(len(entries) - 1)

    sectors: list[bytes] = []
    fat: list[int] = []

    def add_chain(data: bytes) -> int:
        n = max(1, math.ceil(len(data) / 512))
        start = len(sectors)
        for i in range(n):
            sectors.append(data[i * 512:(i + 1) * 512].ljust(512, b"\0"))
            fat.append(start + i + 1 if i < n - 1 else ENDOFCHAIN)
        return start

    mini = bytearray()
    minifat: list[int] = []
    for e in entries:
        if e["type"] != 2:
            continue
        data = e["data"]
        if len(data) >= 4096:
            e["start"] = add_chain(data)
        else:
            n = max(1, math.ceil(len(data) / 64))
            e["start"] = len(minifat)
            for i in range(n):
                minifat.append(len(minifat) + 1 if i < n - 1 else ENDOFCHAIN)
            mini += data.ljust(n * 64, b"\0")
        e["size"] = len(data)
    entries[0]["start"] = add_chain(bytes(mini)) if mini else ENDOFCHAIN
    entries[0]["size"] = len(mini)
    minifat_start = add_chain(b"".join(struct.pack("<I", x) for x in minifat).ljust(512, b"\xff"))
    n_minifat = math.ceil(len(minifat) * 4 / 512)

    def dir_entry(i: int) -> bytes:
        e = entries[i]
        name = e["name"].encode("utf-16-le") + b"\0\0"
        return (name.ljust(64, b"\0") + struct.pack("<HBB", len(name), e["type"], 1)
                + struct.pack("<III", e.get("left", NOSTREAM), e.get("right", NOSTREAM),
                              e.get("child", NOSTREAM))
                + b"\0" * 16 + b"\0" * 4 + b"\0" * 16
                + struct.pack("<II", e.get("start", 0) if e["type"] != 1 else 0, e.get("size", 0))
                + b"\0" * 4)

    for e in entries:  # children as a sorted right-linked chain (a valid binary search tree)
        kids = sorted(e["children"], key=lambda i: (len(entries[i]["name"]), entries[i]["name"].upper()))
        if kids:
            e["child"] = kids[0]
            for a, b in zip(kids, kids[1:]):
                entries[a]["right"] = b
    directory = b"".join(dir_entry(i) for i in range(len(entries)))
    dir_start = add_chain(directory.ljust(math.ceil(len(directory) / 512) * 512, b"\0"))
    n_fat = 1
    while math.ceil((len(sectors) + n_fat) / 128) > n_fat:
        n_fat += 1
    fat_start = len(sectors)
    fat += [FATSECT] * n_fat
    fat += [FREESECT] * (n_fat * 128 - len(fat))
    fat_bytes = b"".join(struct.pack("<I", x) for x in fat)
    for i in range(n_fat):
        sectors.append(fat_bytes[i * 512:(i + 1) * 512])
    difat = [fat_start + i for i in range(n_fat)] + [FREESECT] * (109 - n_fat)
    header = (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 16
              + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6) + b"\0" * 6
              + struct.pack("<IIIIIIIII", 0, n_fat, dir_start, 0, 4096, minifat_start, n_minifat,
                            ENDOFCHAIN, 0)
              + b"".join(struct.pack("<I", x) for x in difat))
    assert len(header) == 512
    return header + b"".join(sectors)


def record(tag: int, level: int, payload: bytes) -> bytes:
    if len(payload) >= 0xFFF:
        return struct.pack("<II", tag | (level << 10) | (0xFFF << 20), len(payload)) + payload
    return struct.pack("<I", tag | (level << 10) | (len(payload) << 20)) + payload


def units_of(text_units: list[int] | str) -> list[int]:
    if isinstance(text_units, str):  # UTF-16 code units (an emoji is a surrogate pair)
        raw = text_units.encode("utf-16-le")
        return list(struct.unpack(f"<{len(raw) // 2}H", raw))
    return list(text_units)


def para(text_units: list[int] | str, level: int = 0, extra: bytes = b"") -> bytes:
    """PARA_HEADER (character count, one char shape, one line segment), PARA_TEXT, PARA_CHAR_SHAPE,
    PARA_LINE_SEG, then ``extra`` (control headers) at the paragraph's child level."""
    units = units_of(text_units) + [13]
    header = struct.pack("<IIHBBHHHI", len(units), 0, 0, 0, 0, 1, 0, 1, 0)   # 22 bytes (before 5.0.3.2)
    return (record(0x42, level, header)
            + record(0x43, level + 1, struct.pack(f"<{len(units)}H", *units))
            + record(0x44, level + 1, struct.pack("<II", 0, 0))
            + record(0x45, level + 1, struct.pack("<iiiiiiiiI", 0, 0, 1000, 1000, 850, 600, 0, 42520,
                                                  0x60000))
            + extra)


def ctrl(code: int, chid: bytes = b"tbl ") -> list[int]:
    """An 8-unit control: code, the control id (2 units), 4 units of parameters, code."""
    a, b = struct.unpack("<HH", chid[::-1])
    return [code, a, b, 0, 0, 0, 0, code]


def field_header(command: str) -> bytes:
    """CTRL_HEADER of a hyperlink field: id '%hlk', properties, extra, command (UTF-16), field id."""
    cmd = command.encode("utf-16-le")
    return record(0x47, 1, b"klh%" + struct.pack("<IBH", 0, 0, len(cmd) // 2) + cmd
                  + struct.pack("<I", 7))


def docinfo(links: tuple[str, ...] = ()) -> bytes:
    """DOCUMENT_PROPERTIES and ID_MAPPINGS (zero counts), and a BIN_DATA record per linked picture path."""
    out = record(0x10, 0, struct.pack("<H7I", 1, 1, 1, 1, 1, 1, 1, 0))
    out += record(0x11, 0, b"\0" * 72)
    for path in links:
        p = path.encode("utf-16-le")
        out += record(0x12, 1, struct.pack("<HH", 0, len(p) // 2) + p + struct.pack("<H", len(p) // 2) + p)
    return out


def summary_info(author: str) -> bytes:
    """An HwpSummaryInformation property set with an author (PIDSI 4, VT_LPWSTR)."""
    fmtid = bytes.fromhex("60b6a29f6110d411b4c6006097c09d8c")
    s = (author + "\0").encode("utf-16-le")
    value = struct.pack("<HHI", 0x1F, 0, len(s) // 2) + s.ljust((len(s) + 3) // 4 * 4, b"\0")
    # property 4 and the (empty) dictionary, property 0, that pyhwp expects
    section = struct.pack("<II", 24 + len(value) + 4, 2) + struct.pack("<IIII", 4, 24, 0, 24 + len(value)) \
        + value + b"\0\0\0\0"
    return struct.pack("<HHI", 0xFFFE, 0, 0x20105) + fmtid + struct.pack("<I", 1) + fmtid + \
        struct.pack("<I", 48) + section


def deflate(data: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def section_prelude() -> bytes:
    """The first paragraph of a section as Hancom writes it: a section definition (page size and margins,
    footnote/endnote shapes, page borders) and a column definition, both extended controls. pyhwp needs
    them; our reader sees no text in it. Values are the HWP 5 defaults (A4, 1 column)."""
    units = ctrl(2, b"secd") + ctrl(2, b"cold") + [13]
    header = struct.pack("<IIHBBHHHI", len(units), 4, 0, 0, 3, 1, 0, 1, 0)
    secd = b"dces" + struct.pack("<IHHHIHHHHH", 0, 1134, 0, 0, 8000, 1, 0, 0, 0, 0).ljust(32, b"\0")
    page = struct.pack("<10I", 59528, 84188, 8504, 8504, 5668, 4252, 4252, 4252, 0, 0)
    note = bytes.fromhex("000000000000000029000100ffffffff520337021b01010100000000")
    border = bytes.fromhex("0100000089058905890589050000")
    return (record(0x42, 0, header)
            + record(0x43, 1, struct.pack(f"<{len(units)}H", *units))
            + record(0x44, 1, struct.pack("<II", 0, 0))
            + record(0x45, 1, struct.pack("<iiiiiiiiI", 0, 0, 1000, 1000, 850, 600, 0, 42520, 0x60000))
            + record(0x47, 1, secd) + record(0x49, 2, page) + record(0x4A, 2, note) + record(0x4A, 2, note)
            + record(0x4B, 2, border) * 3
            + record(0x47, 1, b"dloc" + bytes.fromhex("041000000000000000000000")))


def body_simple() -> bytes:
    """Paragraphs that pyhwp's hwp5txt reads (text, a tab control, a line break, a hyperlink field)."""
    return (section_prelude()
            + para("담당자 홍길동 연락처 010-1234-5678")
            + para(units_of("이름") + ctrl(9, b"\0\0\0\0") + units_of("김민수") + [10]
                   + units_of("메일 hong@example.com"))
            + para("주소 서울특별시 종로구 세종대로 175 😀 900101-1234567"))


def body_nested() -> bytes:
    """As ``body_simple`` plus an extended control (table anchor) and nested paragraphs (cell text)."""
    return (body_simple()
            + para(ctrl(11) + units_of("표 앞"))
            + para("표 안: 윤봉길 대리", level=2)
            + para(ctrl(3, b"%hlk") + units_of("링크") + ctrl(4, b"%hlk"),
                   extra=field_header("https://example.com/?user=윤봉길")))


def build_hwp(path: Path, compressed: bool = True, props_extra: int = 0, big: bool = False,
              body: bytes | None = None, extras: bool = False, summary: bool = True) -> Path:
    """A minimal HWP 5 file. ``extras``: an author in the summary, scripts, document history, a preview
    picture, an OLE object, a linked picture path and a picture in BinData (undecodable: needs review)."""
    body = body_nested() if body is None else body
    if big:
        body += para("가" * 3000)   # PARA_TEXT over 4095 bytes: extended record size
    pack = deflate if compressed else (lambda b: b)
    header = b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05000300,
                                                                  int(compressed) | props_extra)
    streams = {"FileHeader": header.ljust(256, b"\0"),
               "DocInfo": pack(docinfo(("C:/Users/윤봉길/사진/증명.png",) if extras else ())),
               "BodyText/Section0": pack(body),
               "PrvText": "담당자 홍길동 연락처 010-1234-5678".encode("utf-16-le")}
    if summary:
        streams["\x05HwpSummaryInformation"] = summary_info("")
    if extras:
        streams.update({
            "\x05HwpSummaryInformation": summary_info("홍길동"),
            "Scripts/DefaultJScript": pack("var who = '홍길동';".encode("utf-16-le")),
            "Scripts/JScriptVersion": pack(b"\x01\0\0\0"),
            "DocHistory/VersionLog0": pack("홍길동 010-1234-5678".encode("utf-16-le")),
            "DocOptions/_LinkDoc": "C:/Users/홍길동/원본.hwp".encode("utf-16-le"),
            "PrvImage": b"\x89PNG\r\n\x1a\n" + "홍길동".encode("utf-16-le"),
            "BinData/BIN0001.OLE": pack(b"\0" * 8 + "홍길동 900101-1234567".encode("utf-16-le")),
            "BinData/BIN0002.png": pack(b"\x89PNG\r\n\x1a\nnot really a picture"),
        })
    path.write_bytes(write_cfb(streams))
    return path


def test_cfb_writer_produces_a_real_ole_file(tmp_path):
    p = build_hwp(tmp_path / "a.hwp", big=True)
    ole = olefile.OleFileIO(str(p))
    assert sorted("/".join(e) for e in ole.listdir()) == sorted(
        ["BodyText/Section0", "DocInfo", "FileHeader", "PrvText", "\x05HwpSummaryInformation"])
    assert ole.openstream("FileHeader").read(17) == b"HWP Document File"
    assert ole.get_size("BodyText/Section0") > 0
    ole.close()


@pytest.mark.parametrize("compressed", [True, False])
def test_read_hwp(tmp_path, compressed):
    doc = open_document(build_hwp(tmp_path / "a.hwp", compressed=compressed, big=True))
    assert doc.format == "hwp"
    lines = doc.text.split("\n")[1:]   # the section prelude is an empty paragraph
    assert lines[:7] == ["담당자 홍길동 연락처 010-1234-5678", "이름\t김민수", "메일 hong@example.com",
                         "주소 서울특별시 종로구 세종대로 175 😀 900101-1234567", "표 앞", "표 안: 윤봉길 대리",
                         "링크"]
    assert lines[7] == "가" * 3000
    assert any("same length" in n for n in doc.notes)


def test_hwp_exports_masked_txt_on_request(tmp_path):
    src = build_hwp(tmp_path / "a.hwp")
    before = src.read_bytes()
    doc = open_document(src)
    values = {"홍길동": "PERSON", "010-1234-5678": "PHONE", "김민수": "PERSON", "hong@example.com": "EMAIL",
              "서울특별시 종로구 세종대로 175": "ADDRESS", "윤봉길": "PERSON", "900101-1234567": "RRN"}
    spans = [Span(doc.text.index(v), doc.text.index(v) + len(v), lab) for v, lab in values.items()]
    plan = Masker().plan(doc.text, propagate_spans(doc.text, spans))
    res = export_document(doc, plan, tmp_path / "o.txt")
    out = (tmp_path / "o.txt").read_text("utf-8")
    assert out.split("\n")[1:3] == ["담당자 [PERSON] 연락처 [PHONE]", "이름\t[PERSON]"]
    assert "주소 [ADDRESS] 😀 [RRN]" in out and "표 안: [PERSON] 대리" in out
    for v in values:
        assert v not in out
    assert res.leak_check["result"] == "clean" and src.read_bytes() == before


def test_para_text_controls():
    units = [ord("a")] + ctrl(2) + [ord("b")] + [24] + [ord("c"), 10, ord("d"), 13]
    assert para_text(struct.pack(f"<{len(units)}H", *units)) == "ab-c\nd"


def test_bad_hwp_files(tmp_path):
    """The reader's own messages (``read_hwp``); ``open_document`` refuses them too (the format registry
    may refuse a file whose first bytes are not a compound file before the reader sees it)."""
    cases = [("x.hwp", b"HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05", "HWP 3"),
             ("y.hwp", b"\x00" * 600, "not an HWP 5"), ("z.hwp", b"PK\x03\x04rest", "HWPX")]
    for name, data, message in cases:
        (tmp_path / name).write_bytes(data)
        with pytest.raises(DocumentError, match=message):
            read_hwp(tmp_path / name, data)
        with pytest.raises(DocumentError):
            open_document(tmp_path / name)
    for props, message in ((0x2, "password"), (0x4, "distribution"), (0x10, "DRM"), (0x100, "certificate")):
        with pytest.raises(DocumentError, match=message):
            open_document(build_hwp(tmp_path / f"p{props}.hwp", props_extra=props))
