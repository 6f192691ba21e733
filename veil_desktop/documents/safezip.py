"""Hostile-input-safe ZIP and XML handling for DOCX/HWPX.

- ZIP: the number of members and the total *declared* uncompressed size are capped before anything is
  decompressed (zipfile never reads past a member's declared size and checks its CRC, so the declared
  total bounds the work — a zip bomb is refused up front). Members are only read into memory, never
  extracted to disk by name (no path traversal).
- XML: lxml without entity resolution, DTD loading or network access, ``huge_tree=False``; a part with a
  DOCTYPE is refused outright (OOXML and OWPML never use one), which rules out billion-laughs and XXE.
"""
from __future__ import annotations

import io
import zipfile
import zlib
from dataclasses import dataclass

from lxml import etree

from .errors import DocumentError

MAX_MEMBERS = 5000
MAX_TOTAL_UNCOMPRESSED = 1024 * 1024 * 1024   # 1 GiB
MAX_XML_PART = 256 * 1024 * 1024


@dataclass
class Member:
    name: str
    data: bytes
    compress_type: int
    date_time: tuple[int, int, int, int, int, int]


def read_zip(data: bytes, what: str) -> list[Member]:
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise DocumentError(f"The file is an old binary (OLE) file, not a {what}: open it in its "
                            "application and save it in the newer format (.docx / .hwpx), or as .hwp.")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError):
        raise DocumentError(f"The file is not a valid {what} (damaged ZIP container).") from None
    if len(infos) > MAX_MEMBERS:
        raise DocumentError(f"The {what} has too many parts ({len(infos)}); refusing to open it.")
    total = sum(i.file_size for i in infos)
    if total > MAX_TOTAL_UNCOMPRESSED:
        raise DocumentError(f"The {what} would unpack to {total // 2**20} MB; refusing to open it "
                            "(possible ZIP bomb).")
    out, seen = [], set()
    for i in infos:
        if i.is_dir():
            continue
        if i.filename in seen:
            raise DocumentError(f"The {what} contains a duplicated part name; refusing to open it.")
        seen.add(i.filename)
        if i.flag_bits & 0x1:
            raise DocumentError(f"The {what} is encrypted; remove the password and try again.")
        try:
            payload = zf.read(i)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError) as e:
            raise DocumentError(f"The {what} is damaged (part {i.filename!r} cannot be read: "
                                f"{type(e).__name__}).") from None
        out.append(Member(i.filename, payload, i.compress_type, i.date_time))
    return out


def write_zip(members: list[Member], first_stored: str | None = None) -> bytes:
    """Re-pack members in order; ``first_stored`` (HWPX ``mimetype``) goes first, uncompressed."""
    buf = io.BytesIO()
    ordered = sorted(members, key=lambda m: 0 if m.name == first_stored else 1)
    with zipfile.ZipFile(buf, "w") as zf:
        for m in ordered:
            info = zipfile.ZipInfo(m.name, date_time=m.date_time)
            if m.name == first_stored:
                info.compress_type = zipfile.ZIP_STORED
            else:
                info.compress_type = (zipfile.ZIP_STORED if m.compress_type == zipfile.ZIP_STORED
                                      else zipfile.ZIP_DEFLATED)
            info.create_system = 0
            zf.writestr(info, m.data)
    return buf.getvalue()


def _parser() -> etree.XMLParser:
    # a fresh parser per call: lxml parsers are not thread-safe to share
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                           dtd_validation=False, remove_blank_text=False, strip_cdata=False)


def parse_xml(data: bytes, name: str) -> etree._Element:
    if len(data) > MAX_XML_PART:
        raise DocumentError(f"The part {name!r} is too large to process.")
    if b"<!DOCTYPE" in data[:4096] or b"<!ENTITY" in data[:65536]:
        raise DocumentError(f"The part {name!r} declares a DTD/entities; refusing to process it.")
    try:
        return etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        raise DocumentError(f"The part {name!r} is not well-formed XML ({e.msg}).") from None


def serialize_xml(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
