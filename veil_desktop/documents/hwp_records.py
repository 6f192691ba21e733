"""HWP 5 records: parse and re-serialise record streams, map paragraph text back to UTF-16 code units.

A record is a 32-bit header (tag 10 bits, level 10 bits, size 12 bits; size ``0xFFF`` = a 32-bit size
follows) and its payload. Re-serialising a record list with unchanged payloads gives the same bytes
(the long form is kept where the source used it, even for a short payload).
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass

from .errors import DocumentError

HWPTAG_BIN_DATA = 0x12
HWPTAG_PARA_HEADER = 0x42
HWPTAG_PARA_TEXT = 0x43
HWPTAG_CTRL_HEADER = 0x47
TAIL = -1   # pseudo tag: trailing bytes after the last record

_SINGLE = {0: "", 10: "\n", 13: "", 24: "-", 25: " ", 26: " ", 27: " ", 28: " ", 29: " ",
           30: "\u00a0", 31: " "}
INLINE = frozenset({4, 5, 6, 7, 8, 9, 19, 20})
EXTENDED = frozenset({1, 2, 3, 11, 12, 14, 15, 16, 17, 18, 21, 22, 23})
#: what a masked character becomes when the masking text is shorter than the value (see ``fit``)
FILL = "*"


@dataclass
class Record:
    tag: int
    level: int
    payload: bytes
    long: bool = False     # the source wrote the 32-bit size form


def parse_records(stream: bytes) -> list[Record]:
    out: list[Record] = []
    pos, n = 0, len(stream)
    while pos + 4 <= n:
        (hdr,) = struct.unpack_from("<I", stream, pos)
        pos += 4
        tag, level, size = hdr & 0x3FF, (hdr >> 10) & 0x3FF, hdr >> 20
        long = size == 0xFFF
        if long:
            if pos + 4 > n:
                raise DocumentError("The HWP record stream is truncated.")
            (size,) = struct.unpack_from("<I", stream, pos)
            pos += 4
        if pos + size > n:
            raise DocumentError("The HWP record stream is truncated.")
        out.append(Record(tag, level, stream[pos:pos + size], long))
        pos += size
    if pos != n:   # fewer than 4 bytes after the last record (the reader ignores them too): kept as they are
        out.append(Record(TAIL, 0, stream[pos:]))
    return out


def serialize_records(records: list[Record]) -> bytes:
    out = bytearray()
    for r in records:
        if r.tag == TAIL:
            out += r.payload
            continue
        size = len(r.payload)
        if size >= 0xFFF or r.long:
            out += struct.pack("<II", r.tag | (r.level << 10) | (0xFFF << 20), size)
        else:
            out += struct.pack("<I", r.tag | (r.level << 10) | (size << 20))
        out += r.payload
    return bytes(out)


def text_map(payload: bytes) -> tuple[str, list[tuple[int, int, bool]]]:
    """The reviewable text of a PARA_TEXT payload (as ``hwp.para_text`` gives it) and, per character,
    ``(first unit, end unit, editable)``: characters of controls (tab, line break, hyphen, fixed spaces)
    are not editable, 8-unit controls without text are skipped."""
    n = len(payload) // 2
    units = struct.unpack_from(f"<{n}H", payload) if n else ()
    chars: list[str] = []
    where: list[tuple[int, int, bool]] = []
    i = 0
    while i < n:
        c = units[i]
        if c < 32:
            if c in INLINE or c in EXTENDED:
                if c == 9:
                    chars.append("\t")
                    where.append((i, min(i + 8, n), False))
                i += 8
            else:
                s = _SINGLE.get(c, "")
                if s:
                    chars.append(s)
                    where.append((i, i + 1, False))
                i += 1
        elif 0xD800 <= c < 0xDC00 and i + 1 < n and 0xDC00 <= units[i + 1] < 0xE000:
            chars.append(chr(0x10000 + ((c - 0xD800) << 10) + (units[i + 1] - 0xDC00)))
            where.append((i, i + 2, True))
            i += 2
        elif 0xD800 <= c < 0xE000:
            chars.append("\ufffd")
            where.append((i, i + 1, True))
            i += 1
        else:
            chars.append(chr(c))
            where.append((i, i + 1, True))
            i += 1
    return "".join(chars), where


def fit(new: str, units: int) -> str:
    """``new`` made exactly ``units`` UTF-16 code units long, BMP characters only (so it can be spread
    over several runs between controls without splitting a surrogate pair): shorter masking text is
    padded with :data:`FILL`; longer text is cut, a bracketed tag keeping its brackets (``[PERSON]`` in
    three units is ``[P]``); in one or two units a tag becomes fill characters."""
    s = "".join(ch if 32 <= ord(ch) < 0xD800 or 0xE000 <= ord(ch) <= 0xFFFF else FILL for ch in new)
    if len(s) <= units:
        return s + FILL * (units - len(s))
    if s.startswith("[") and s.endswith("]"):
        return "[" + s[1:units - 1] + "]" if units >= 3 else FILL * units
    return s[:units]


def mask_payload(payload: bytes, edits: list[tuple[int, int, str]]) -> bytes:
    """Apply local edits (over the text of ``text_map``) in place: the editable units covered by each
    edit are overwritten by ``fit(new, count)``; control characters and the payload's length are kept."""
    text, where = text_map(payload)
    buf = bytearray(payload)
    for a, b, new in edits:
        if not 0 <= a <= b <= len(text):
            raise DocumentError("A masking edit falls outside its HWP paragraph.")
        runs = [(u0, u1) for u0, u1, ok in where[a:b] if ok]
        total = sum(u1 - u0 for u0, u1 in runs)
        if not total:
            continue
        filled = fit(new, total).encode("utf-16-le")
        k = 0
        for u0, u1 in runs:
            m = 2 * (u1 - u0)
            buf[2 * u0:2 * u1] = filled[k:k + m]
            k += m
    return bytes(buf)


def blank_field_command(payload: bytes) -> bytes | None:
    """A field control header (ctrl id ``%xxx``: hyperlink, click-here, date, file path, summary, ...)
    with its command string emptied, or None if ``payload`` is not one or holds no command. Layout:
    ctrl id (4), properties (4), extra properties (1), command length (2), command (UTF-16), id (4)."""
    if len(payload) < 11 or payload[3] != 0x25:   # '%' is the id's first character (stored last)
        return None
    (n,) = struct.unpack_from("<H", payload, 9)
    if n == 0 or 11 + 2 * n > len(payload):
        return None
    return payload[:9] + b"\0\0" + payload[11 + 2 * n:]


def blank_bin_link(payload: bytes) -> bytes | None:
    """A DocInfo BIN_DATA record of a *linked* picture (type 0) with its absolute and relative paths
    emptied (a path names a folder, often a person's), or None if it is not a link or holds no path."""
    if len(payload) < 2:
        return None
    (props,) = struct.unpack_from("<H", payload, 0)
    if props & 0xF != 0:
        return None
    pos = 2
    lens = []
    for _ in range(2):
        if pos + 2 > len(payload):
            return None
        (n,) = struct.unpack_from("<H", payload, pos)
        lens.append(n)
        pos += 2 + 2 * n
    if pos > len(payload) or not any(lens):
        return None
    return payload[:2] + b"\0\0\0\0" + payload[pos:]


# --- pictures as the document shows them (issue 26: a name stored squashed and shown stretched) -----------
# HWP 5.0 specification (Hancom, "한글 문서 파일 구조 5.0", rev. 1.3): a picture control is a gen shape
# object (CTRL_HEADER id "gso "); its HWPTAG_SHAPE_COMPONENT (개체 요소, tag 76) holds the initial and the
# current width/height in HWPUNIT and the rendering matrices, its HWPTAG_SHAPE_COMPONENT_PICTURE (그림 개체,
# tag 85, one level deeper) the image rectangle, the crop and the BinItem id. DocInfo's HWPTAG_BIN_DATA
# records list the BinItems (1-based, in order). Every decoder here returns None for what it cannot read.
HWPTAG_BORDER_FILL = 0x14
HWPTAG_LIST_HEADER = 0x48
HWPTAG_SHAPE_COMPONENT = 0x4C
TABLE_ID = b" lbt"               # "tbl " as stored
HWPTAG_SHAPE_COMPONENT_PICTURE = 0x55
GSO_ID = b" osg"                 # "gso " as stored (the id's characters in reverse order)
#: the most scale/rotation matrix pairs believed in one shape component (one per grouping level)
MAX_MATRIX_PAIRS = 64
#: rendering scale factors outside [1/x, x] are not believed
MAX_SCALE = 1e4


def bin_item_name(payload: bytes) -> str | None:
    """The ``BinData`` stream an *embedded* BinItem (DocInfo BIN_DATA, type 1) is stored in:
    ``BinData/BIN%04X.<ext>`` (props UINT16, bin data id UINT16, extension length UINT16, extension
    UTF-16); None for links, storages (OLE) and records too short to read."""
    if len(payload) < 6:
        return None
    props, item, n = struct.unpack_from("<HHH", payload, 0)
    if props & 0xF != 1 or 6 + 2 * n > len(payload):
        return None
    ext = payload[6:6 + 2 * n].decode("utf-16-le", "replace")
    if not ext or not all(ch.isascii() and ch.isalnum() for ch in ext):
        return None
    return f"BinData/BIN{item:04X}.{ext}"


def gso_size(payload: bytes) -> tuple[int, int] | None:
    """The width/height (HWPUNIT) of a gen shape object's CTRL_HEADER (object common properties: ctrl id,
    properties, vertical and horizontal offsets, width, height), or None."""
    if len(payload) < 24 or payload[:4] != GSO_ID:
        return None
    return struct.unpack_from("<ii", payload, 16)


@dataclass
class ShapeSize:
    init: tuple[int, int]                  # 개체 생성 시 초기 폭/높이
    cur: tuple[int, int]                   # 개체의 현재 폭/높이
    rotation: int                          # 회전각
    scale: tuple[float, float] | None      # the rendering matrices' stretch across and down (None: unread)
    fill: tuple[int, int] | None = None    # a drawing object's image fill: (BinItem id, 이미지 채우기 유형)


def shape_component(payload: bytes, top: bool) -> ShapeSize | None:
    """A SHAPE_COMPONENT's sizes. ``top``: the gso's own component, whose ctrl id is stored twice; a
    component inside a group (묶음 개체) stores it once. Layout after the id(s): offsets x, y (INT32 each),
    grouping count, local version (WORD each), initial width, height, current width, height (UINT32 each),
    flip properties (UINT32), rotation angle (INT16), rotation centre x, y (INT32 each), the number of
    scale/rotation pairs (WORD), the translation matrix and each pair (6 doubles = 48 bytes a matrix)."""
    off = 8 if top else 4
    head = struct.Struct("<iiHHiiiiIhiiH")
    if len(payload) < off + head.size:
        return None
    _, _, _, _, iw, ih, cw, ch, _, rot, _, _, n = head.unpack_from(payload, off)
    pos = off + head.size + 48           # the translation matrix moves, it does not stretch
    scale = None
    if n <= MAX_MATRIX_PAIRS and pos + 96 * n <= len(payload):
        a, b, c, d = 1.0, 0.0, 0.0, 1.0
        for k in range(2 * n):           # scale, rotation, scale, rotation, ...: their product's 2x2 part
            e1, e2, _, e4, e5, _ = struct.unpack_from("<6d", payload, pos + 48 * k)
            a, b, c, d = a * e1 + b * e4, a * e2 + b * e5, c * e1 + d * e4, c * e2 + d * e5
        sx, sy = math.hypot(a, c), math.hypot(b, d)   # how long the unit vectors across and down become
        if all(math.isfinite(v) and 1 / MAX_SCALE <= v <= MAX_SCALE for v in (sx, sy)):
            scale = (sx, sy)
        if payload[:4] in FILLED_SHAPES:
            fill = image_fill(payload, pos + 96 * n)
            return ShapeSize((iw, ih), (cw, ch), rot, scale, fill)
    return ShapeSize((iw, ih), (cw, ch), rot, scale)


#: drawing objects whose component goes on with a border line and a fill (rectangle, ellipse, arc,
#: polygon, curve; ids as stored)
FILLED_SHAPES = frozenset({b"cer$", b"lle$", b"cra$", b"lop$", b"ruc$"})
#: 이미지 채우기 유형 "크기에 맞추어" (HWPX ``TOTAL``): the picture is stretched over the whole shape
FILL_STRETCH = 5
MAX_GRADIENT_COLOURS = 256


def image_fill(payload: bytes, pos: int) -> tuple[int, int] | None:
    """``(BinItem id, fill mode)`` of a drawing object's image fill, read from ``pos`` (after the matrices):
    the border line (colour, width, properties: 4 bytes each, outline style: 1), then the fill
    (:func:`fill_picture`)."""
    return fill_picture(payload, pos + 13)


def border_fill_picture(payload: bytes) -> tuple[int, int] | None:
    """``(BinItem id, fill mode)`` of a DocInfo BORDER_FILL's image fill: properties (UINT16), four borders
    and the diagonal (type, width: 1 byte each, colour: 4), then the fill (:func:`fill_picture`)."""
    return fill_picture(payload, 32)


def fill_picture(payload: bytes, pos: int) -> tuple[int, int] | None:
    """``(BinItem id, fill mode)`` of the picture of a fill (채우기 정보) read from ``pos``: the fill kind
    (UINT32 bits: 1 colour, 4 gradient, 2 picture), then in that order colour (12 bytes), gradient (type: 1,
    angle, centre x, centre y, blur, colour count n: 4 each, positions when n > 2 and colours: 4 each a
    colour) and picture (mode, brightness, contrast, effect: 1 each, BinItem id: UINT16); None when the
    fill has no picture or is cut short."""
    if pos + 4 > len(payload):
        return None
    (kind,) = struct.unpack_from("<I", payload, pos)
    pos += 4
    if not kind & 2:
        return None
    if kind & 1:
        pos += 12
    if kind & 4:
        if pos + 21 > len(payload):
            return None
        (n,) = struct.unpack_from("<i", payload, pos + 17)
        if not 0 <= n <= MAX_GRADIENT_COLOURS:
            return None
        pos += 21 + (4 * n if n > 2 else 0) + 4 * n
    if pos + 6 > len(payload):
        return None
    (bin_id,) = struct.unpack_from("<H", payload, pos + 4)
    return bin_id, payload[pos]


@dataclass
class PictureShape:
    bin_id: int                            # BinItem id (1-based)
    rect: tuple[int, int] | None           # the image rectangle's box (its four corners' extent)
    crop: tuple[int, int, int, int] | None  # left, top, right, bottom after cropping (None: an image fill)
    dims: tuple[int, int] | None           # the image's size in the crop's units (그림 최초 생성 시 기준)


def table_cell(payload: bytes) -> tuple[int, int, int] | None:
    """``(width, height, border fill id)`` of a table cell's LIST_HEADER (paragraph count and properties:
    8 bytes as Hancom writes them; column, row, column span, row span: UINT16 each; width, height: HWPUNIT;
    margins: 4 x HWPUNIT16; the cell's BORDER_FILL id, 1-based: UINT16), or None."""
    if len(payload) < 34:
        return None
    w, h = struct.unpack_from("<ii", payload, 16)
    (fill,) = struct.unpack_from("<H", payload, 32)
    return w, h, fill


def picture_component(payload: bytes) -> PictureShape | None:
    """A SHAPE_COMPONENT_PICTURE: border colour, width, properties (12 bytes), the image rectangle's four
    corners (x, y INT32 each; Hancom writes them point by point), the crop's left, top, right, bottom
    (INT32 each), inner margins (4 x INT16), brightness, contrast, effect (1 byte each), the BinItem id
    (UINT16); then, when present, border transparency (1), instance id (4), picture effects (4: none
    when 0) and the image's original width and height (UINT32 each)."""
    if len(payload) < 73:
        return None
    pts = struct.unpack_from("<8i", payload, 12)
    crop = struct.unpack_from("<4i", payload, 44)
    (bin_id,) = struct.unpack_from("<H", payload, 71)
    xs, ys = pts[0::2], pts[1::2]
    rect = (max(xs) - min(xs), max(ys) - min(ys))
    dims = None
    if len(payload) >= 90 and struct.unpack_from("<I", payload, 78)[0] == 0:
        dims = struct.unpack_from("<ii", payload, 82)
    return PictureShape(bin_id, rect, crop, dims)
