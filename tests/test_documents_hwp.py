"""HWP 5 (read-only): a minimal HWP 5 file is built here — a real OLE compound file (CFB v3 with FAT,
mini stream and directory, written by ``write_cfb`` below) holding FileHeader, DocInfo and a compressed
BodyText/Section0 of HWP records — then read through olefile, and exported as masked TXT."""
from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

import olefile
import pytest

from veil_desktop.detect.span import Span
from veil_desktop.documents import (DocumentError, UnsupportedFormat, export_document, open_document,
                                    propagate_spans)
from veil_desktop.documents.hwp import para_text
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


def para(text_units: list[int] | str, level: int = 0) -> bytes:
    if isinstance(text_units, str):  # UTF-16 code units (an emoji is a surrogate pair)
        raw = text_units.encode("utf-16-le")
        units = list(struct.unpack(f"<{len(raw) // 2}H", raw))
    else:
        units = text_units
    units = units + [13]
    return (record(0x42, level, b"\0" * 22)
            + record(0x43, level + 1, struct.pack(f"<{len(units)}H", *units)))


def ctrl(code: int) -> list[int]:
    """An 8-unit control: code, 6 units of id/parameters, code."""
    return [code, 0x6C62, 0x7474, 0, 0, 0, 0, code]


def build_hwp(path: Path, compressed: bool = True, props_extra: int = 0, big: bool = False) -> Path:
    body = (para("담당자 홍길동 연락처 010-1234-5678")
            + para([ord(c) for c in "이름"] + ctrl(9) + [ord(c) for c in "김민수"] + [10]
                   + [ord(c) for c in "메일 hong@example.com"])
            + para(ctrl(11) + [ord(c) for c in "표 앞"])       # table anchor (extended control)
            + para("표 안: 서울특별시 종로구 세종대로 175", level=2)   # nested paragraph (table cell)
            + para("각주: 윤봉길 😀 900101-1234567", level=2))
    if big:
        body += para("가" * 3000)   # PARA_TEXT over 4095 bytes: extended record size
    section = body
    if compressed:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        section = c.compress(body) + c.flush()
    header = b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05000300,
                                                                  int(compressed) | props_extra)
    streams = {"FileHeader": header.ljust(256, b"\0"), "DocInfo": b"\x03\0",
               "BodyText/Section0": section,
               "PrvText": "담당자 홍길동 연락처 010-1234-5678".encode("utf-16-le")}
    path.write_bytes(write_cfb(streams))
    return path


def test_cfb_writer_produces_a_real_ole_file(tmp_path):
    p = build_hwp(tmp_path / "a.hwp", big=True)
    ole = olefile.OleFileIO(str(p))
    assert sorted("/".join(e) for e in ole.listdir()) == ["BodyText/Section0", "DocInfo", "FileHeader",
                                                         "PrvText"]
    assert ole.openstream("FileHeader").read(17) == b"HWP Document File"
    assert ole.get_size("BodyText/Section0") > 0
    ole.close()


@pytest.mark.parametrize("compressed", [True, False])
def test_read_hwp(tmp_path, compressed):
    doc = open_document(build_hwp(tmp_path / "a.hwp", compressed=compressed, big=True))
    assert doc.format == "hwp"
    lines = doc.text.split("\n")
    assert lines[:6] == ["담당자 홍길동 연락처 010-1234-5678", "이름\t김민수", "메일 hong@example.com",
                         "표 앞", "표 안: 서울특별시 종로구 세종대로 175", "각주: 윤봉길 😀 900101-1234567"]
    assert lines[6] == "가" * 3000
    assert any("read-only" in n for n in doc.notes)


def test_hwp_exports_masked_txt_only(tmp_path):
    src = build_hwp(tmp_path / "a.hwp")
    before = src.read_bytes()
    doc = open_document(src)
    values = {"홍길동": "PERSON", "010-1234-5678": "PHONE", "김민수": "PERSON", "hong@example.com": "EMAIL",
              "서울특별시 종로구 세종대로 175": "ADDRESS", "윤봉길": "PERSON", "900101-1234567": "RRN"}
    spans = [Span(doc.text.index(v), doc.text.index(v) + len(v), lab) for v, lab in values.items()]
    plan = Masker().plan(doc.text, propagate_spans(doc.text, spans))
    with pytest.raises(UnsupportedFormat, match=r"\.txt"):
        export_document(doc, plan, tmp_path / "o.hwp")
    res = export_document(doc, plan, tmp_path / "o.txt")
    out = (tmp_path / "o.txt").read_text("utf-8")
    assert out.split("\n")[:2] == ["담당자 [PERSON] 연락처 [PHONE]", "이름\t[PERSON]"]
    assert "각주: [PERSON] 😀 [RRN]" in out
    for v in values:
        assert v not in out
    assert res.leak_check["result"] == "clean" and src.read_bytes() == before


def test_para_text_controls():
    units = [ord("a")] + ctrl(2) + [ord("b")] + [24] + [ord("c"), 10, ord("d"), 13]
    assert para_text(struct.pack(f"<{len(units)}H", *units)) == "ab-c\nd"


def test_bad_hwp_files(tmp_path):
    (tmp_path / "x.hwp").write_bytes(b"HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05")
    with pytest.raises(DocumentError, match="not an HWP 5"):
        open_document(tmp_path / "x.hwp")
    (tmp_path / "z.hwp").write_bytes(b"PK\x03\x04rest")
    with pytest.raises(DocumentError, match="HWPX"):
        open_document(tmp_path / "z.hwp")
    with pytest.raises(DocumentError, match="password"):
        open_document(build_hwp(tmp_path / "p.hwp", props_extra=0x2))
    with pytest.raises(DocumentError, match="distribution"):
        open_document(build_hwp(tmp_path / "d.hwp", props_extra=0x4))
