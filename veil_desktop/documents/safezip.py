"""Hostile-input-safe ZIP and XML handling for DOCX/HWPX (and the leak check's re-read).

- ZIP: the number of members and the total *declared* size are checked first (cheap refusal), then every
  member is *streamed* (``read_member``: 1 MB steps) and what is actually inflated is charged to the
  document's ``limits.Budget`` — a running total shared by every member and by ZIPs nested in members
  (``iter_members(..., nested=True)``), so a 5 KB nested bomb stops at the limit with a message instead of
  a ``MemoryError``. Members are only read into memory, never extracted to disk by name (no path
  traversal); encrypted members and duplicate names are refused.
- XML: lxml without entity resolution, DTD loading or network access, ``huge_tree=False`` (depth ≤ 256);
  a part with a DOCTYPE is refused outright (OOXML and OWPML never use one), which rules out
  billion-laughs and XXE — by its bytes before parsing and, wherever in the prolog it stands, by the parsed
  document's DOCTYPE after; the number of elements is estimated from the bytes and charged to the budget
  *before* the tree is built (600 KB of compressed one-letter paragraphs would otherwise become GBs).

API for other readers and the leak check: ``open_zip``, ``read_member``, ``iter_members``, ``parse_xml``;
budgets: ``limits.document_budget()`` / ``limits.budget_or_new()``.
"""
from __future__ import annotations

import io
import zipfile
import zlib
from dataclasses import dataclass

from lxml import etree

from . import limits as _limits
from .errors import DocumentError
from .limits import (CHUNK, MAX_INFLATED_TOTAL, MAX_MEMBER_BYTES, MAX_NESTING, MAX_XML_PART, Budget,
                     ResourceLimit, budget_or_new)

MAX_MEMBERS = _limits.MAX_ZIP_MEMBERS
MAX_TOTAL_UNCOMPRESSED = MAX_INFLATED_TOTAL    # declared sizes: a first, cheap check
ZIP_MAGIC = b"PK\x03\x04"


@dataclass
class Member:
    name: str
    data: bytes
    compress_type: int
    date_time: tuple[int, int, int, int, int, int]


def open_zip(data: bytes, what: str) -> tuple[zipfile.ZipFile, list[zipfile.ZipInfo]]:
    """Open ``data`` as a ZIP and check member count and declared sizes. Raises ``DocumentError``."""
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise DocumentError(f"The file is an old binary (OLE) file, not a {what}: open it in its "
                            "application and save it in the newer format (.docx / .hwpx), or as .hwp.")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        raise DocumentError(f"The file is not a valid {what} (damaged ZIP container).") from None
    if len(infos) > MAX_MEMBERS:
        raise DocumentError(f"The {what} has too many parts ({len(infos)}); refusing to open it.")
    total = sum(i.file_size for i in infos)
    if total > MAX_TOTAL_UNCOMPRESSED:
        raise ResourceLimit(f"The {what} would unpack to {total // 2**20:,} MB (more than "
                            f"{MAX_TOTAL_UNCOMPRESSED // 2**20} MB); refusing to open it (possible ZIP "
                            "bomb). If it is a genuine file, remove large embedded objects or pictures.")
    return zf, infos


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, budget: Budget | None = None,
                what: str = "document", where: str = "") -> bytes:
    """Inflate one member in 1 MB steps, charging ``budget`` as it goes (never more than the limits in
    memory). Raises ``ResourceLimit`` over a limit, ``DocumentError`` if the member is damaged."""
    budget = budget if budget is not None else budget_or_new(what)
    name = where or info.filename
    if info.file_size > MAX_MEMBER_BYTES:
        raise ResourceLimit(f"The part {name!r} of the {what} would unpack to {info.file_size // 2**20:,} "
                            f"MB (more than {MAX_MEMBER_BYTES // 2**20} MB); refusing to open it.")
    chunks: list[bytes] = []
    size = 0
    try:
        with zf.open(info) as f:
            while True:
                chunk = f.read(CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if size > MAX_MEMBER_BYTES:
                    raise ResourceLimit(f"The part {name!r} of the {what} unpacks to more than "
                                        f"{MAX_MEMBER_BYTES // 2**20} MB; refusing to open it.")
                budget.charge_inflated(len(chunk), name)
                chunks.append(chunk)
    except ResourceLimit:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError, ValueError,
            RuntimeError) as e:
        raise DocumentError(f"The {what} is damaged (part {name!r} cannot be read: "
                            f"{type(e).__name__}).") from None
    return b"".join(chunks)


def read_zip(data: bytes, what: str, budget: Budget | None = None) -> list[Member]:
    """Every member of the ZIP ``data`` (directories skipped), inflated within the budget."""
    budget = budget if budget is not None else budget_or_new(what)
    zf, infos = open_zip(data, what)
    out, seen = [], set()
    for i in infos:
        if i.is_dir():
            continue
        if i.filename in seen:
            raise DocumentError(f"The {what} contains a duplicated part name; refusing to open it.")
        seen.add(i.filename)
        if i.flag_bits & 0x1:
            raise DocumentError(f"The {what} is encrypted; remove the password and try again.")
        payload = read_member(zf, i, budget, what)
        out.append(Member(i.filename, payload, i.compress_type, i.date_time))
    return out


def iter_members(data: bytes, what: str = "document", budget: Budget | None = None, *,
                 nested: bool = True, _depth: int = 0, _prefix: str = ""):
    """Yield ``(path, bytes)`` for every member, streaming, all charged to one budget; with ``nested``
    a member that is itself a ZIP is yielded and then opened too (``outer!/inner`` paths), up to
    ``limits.MAX_NESTING`` levels. One member is held at a time (the caller's reference aside).
    Raises ``DocumentError``/``ResourceLimit`` (fail closed: the caller treats it as a failed check)."""
    budget = budget if budget is not None else budget_or_new(what)
    zf, infos = open_zip(data, what)
    for i in infos:
        if i.is_dir():
            continue
        path = _prefix + i.filename
        if i.flag_bits & 0x1:
            raise DocumentError(f"The part {path!r} of the {what} is encrypted.")
        payload = read_member(zf, i, budget, what, path)
        yield path, payload
        if nested and payload[:4] == ZIP_MAGIC and _depth < MAX_NESTING:
            yield from iter_members(payload, what, budget, nested=True, _depth=_depth + 1,
                                    _prefix=path + "!/")


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


def estimate_elements(data: bytes) -> int:
    """Upper bound of the elements (plus comments/PIs) in XML ``data``: start tags, from the bytes."""
    return data.count(b"<") - data.count(b"</")


def parse_xml(data: bytes, name: str, budget: Budget | None = None) -> etree._Element:
    """Parse one XML part safely (see module doc); its elements are charged to the document budget."""
    if len(data) > MAX_XML_PART:
        raise ResourceLimit(f"The part {name!r} is larger than {MAX_XML_PART // 2**20} MB of XML; "
                            "refusing to process it. Split the document into smaller files.")
    if b"<!DOCTYPE" in data[:4096] or b"<!ENTITY" in data[:65536]:
        raise DocumentError(f"The part {name!r} declares a DTD/entities; refusing to process it.")
    (budget if budget is not None else budget_or_new()).charge_elements(estimate_elements(data), name)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        raise DocumentError(f"The part {name!r} is not well-formed XML ({e.msg}).") from None
    info = root.getroottree().docinfo
    if info.doctype or info.internalDTD is not None or info.externalDTD is not None:
        # a DOCTYPE after a long prolog (comments, PIs) escapes the byte check above; its internal
        # subset (entity values) is text no reader shows and an unchanged part would keep it
        raise DocumentError(f"The part {name!r} declares a DTD/entities; refusing to process it.")
    return root


def serialize_xml(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
