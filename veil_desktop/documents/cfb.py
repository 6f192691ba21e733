"""A minimal writer of Microsoft compound files (MS-CFB, version 3: 512-byte sectors).

olefile reads compound files but can only overwrite a stream with one of the same size; the HWP 5 writer
changes the size of streams (sections recompressed, previews regenerated) and drops whole storages, so the
file is written anew from a plain mapping ``{"Storage/Sub/Stream": bytes}``:

- header (``0x3E`` minor version, version 3, little-endian, sector shift 9, mini sector shift 6, mini
  stream cutoff 4096), FAT sectors listed in the header's 109 DIFAT slots and, past those, in DIFAT sectors
  chained from the header;
- streams of 4096 bytes and more in regular sectors; smaller ones in the mini stream (64-byte mini
  sectors, chained in the mini FAT; the mini stream itself is the root entry's regular-sector chain);
- the directory: root entry, then storages and streams; each storage's children form a binary search tree
  in the spec's order (name length in UTF-16 units, then the upper-cased names), built balanced and
  coloured as a valid red-black tree (black everywhere, red on the deepest level when it is not full).

Names are at most 31 UTF-16 units; a path component may not hold ``/``. Storage CLSIDs, state bits and
times are zero (none is needed to read a stream; they can carry nothing about the author then).
"""
from __future__ import annotations

import math
import struct

SECTOR = 512
MINI = 64
CUTOFF = 4096
ENDOFCHAIN, FREESECT, FATSECT, DIFSECT, NOSTREAM = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFC, 0xFFFFFFFF
_PER_SECTOR = SECTOR // 4
_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
RED, BLACK = 0, 1


class _Entry:
    __slots__ = ("name", "type", "children", "data", "left", "right", "child", "color", "start", "size")

    def __init__(self, name: str, type_: int, data: bytes = b"") -> None:
        self.name, self.type, self.data = name, type_, data
        self.children: list[int] = []
        self.left = self.right = self.child = NOSTREAM
        self.color = BLACK
        self.start, self.size = 0, 0


def _key(name: str) -> tuple[int, str]:
    return (len(name.encode("utf-16-le")) // 2, name.upper())


def _tree(entries: list[_Entry], kids: list[int]) -> int:
    """Balanced search tree over ``kids`` (sorted); returns the root index. Nodes on the deepest level
    are red when that level is not full, so every path has the same number of black nodes."""
    kids = sorted(kids, key=lambda i: _key(entries[i].name))
    if not kids:
        return NOSTREAM
    depth_of: dict[int, int] = {}

    def build(lo: int, hi: int, depth: int) -> int:
        if lo >= hi:
            return NOSTREAM
        mid = (lo + hi) // 2
        node = kids[mid]
        depth_of[node] = depth
        entries[node].left = build(lo, mid, depth + 1)
        entries[node].right = build(mid + 1, hi, depth + 1)
        return node

    root = build(0, len(kids), 0)
    deepest = max(depth_of.values())
    full = len(kids) == 2 ** (deepest + 1) - 1
    for node, d in depth_of.items():
        entries[node].color = RED if (d == deepest and not full and d > 0) else BLACK
    return root


def write_cfb(streams: dict[str, bytes]) -> bytes:
    """The bytes of a compound file holding ``streams`` (path -> content; storages are implied)."""
    entries = [_Entry("Root Entry", 5)]
    index: dict[str, int] = {"": 0}
    for path in streams:
        parts = path.split("/")
        if any(not p or len(p.encode("utf-16-le")) // 2 > 31 for p in parts):
            raise ValueError(f"bad compound file name: {path!r}")
        for k in range(1, len(parts)):
            storage = "/".join(parts[:k])
            if storage not in index:
                index[storage] = len(entries)
                entries.append(_Entry(parts[k - 1], 1))
                entries[index["/".join(parts[:k - 1])]].children.append(index[storage])
        if path in index:
            raise ValueError(f"duplicate compound file name: {path!r}")
        index[path] = len(entries)
        entries.append(_Entry(parts[-1], 2, bytes(streams[path])))
        entries[index["/".join(parts[:-1])]].children.append(index[path])
    for parent in entries:
        names = [entries[i].name.upper() for i in parent.children]
        if len(set(names)) != len(names):
            raise ValueError("two compound file entries with the same name in one storage")

    sectors: list[bytes] = []
    fat: list[int] = []

    def add_chain(data: bytes) -> int:
        if not data:
            return ENDOFCHAIN
        n = math.ceil(len(data) / SECTOR)
        start = len(sectors)
        for i in range(n):
            sectors.append(data[i * SECTOR:(i + 1) * SECTOR].ljust(SECTOR, b"\0"))
            fat.append(start + i + 1 if i < n - 1 else ENDOFCHAIN)
        return start

    mini = bytearray()
    minifat: list[int] = []
    for e in entries:
        if e.type != 2:
            continue
        e.size = len(e.data)
        if not e.data:
            e.start = ENDOFCHAIN
        elif len(e.data) >= CUTOFF:
            e.start = add_chain(e.data)
        else:
            n = math.ceil(len(e.data) / MINI)
            e.start = len(minifat)
            for i in range(n):
                minifat.append(len(minifat) + 1 if i < n - 1 else ENDOFCHAIN)
            mini += e.data.ljust(n * MINI, b"\0")
        e.data = b""
    root = entries[0]
    root.start = add_chain(bytes(mini))
    root.size = len(mini)
    if minifat:
        mf = b"".join(struct.pack("<I", x) for x in minifat)
        mf += b"\xff" * (-len(mf) % SECTOR)
        minifat_start, n_minifat = add_chain(mf), len(mf) // SECTOR
    else:
        minifat_start, n_minifat = ENDOFCHAIN, 0

    for e in entries:
        if e.type in (1, 5):
            e.child = _tree(entries, e.children)
    directory = b"".join(_dir_entry(e) for e in entries)
    pad = -len(entries) % 4   # 4 entries per sector; unused ones are empty entries
    directory += _empty_entry() * pad
    dir_start = add_chain(directory)

    # FAT sectors (and DIFAT sectors beyond the header's 109 slots) also take sectors themselves
    n_fat, n_difat = 1, 0
    while True:
        need_fat = math.ceil((len(sectors) + n_fat + n_difat) / _PER_SECTOR)
        need_difat = max(0, math.ceil((need_fat - 109) / (_PER_SECTOR - 1)))
        if need_fat <= n_fat and need_difat <= n_difat:
            break
        n_fat, n_difat = max(n_fat, need_fat), max(n_difat, need_difat)
    fat_start = len(sectors)
    difat_start = fat_start + n_fat
    fat += [FATSECT] * n_fat + [DIFSECT] * n_difat
    fat += [FREESECT] * (n_fat * _PER_SECTOR - len(fat))
    fat_bytes = b"".join(struct.pack("<I", x) for x in fat)
    for i in range(n_fat):
        sectors.append(fat_bytes[i * SECTOR:(i + 1) * SECTOR])
    fat_ids = [fat_start + i for i in range(n_fat)]
    rest = fat_ids[109:]
    for k in range(n_difat):
        chunk = rest[k * (_PER_SECTOR - 1):(k + 1) * (_PER_SECTOR - 1)]
        chunk += [FREESECT] * (_PER_SECTOR - 1 - len(chunk))
        nxt = difat_start + k + 1 if k < n_difat - 1 else ENDOFCHAIN
        sectors.append(b"".join(struct.pack("<I", x) for x in chunk + [nxt]))
    head_difat = fat_ids[:109] + [FREESECT] * (109 - min(109, n_fat))
    header = (_SIGNATURE + b"\0" * 16
              + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6) + b"\0" * 6
              + struct.pack("<IIIIIIIII", 0, n_fat, dir_start, 0, CUTOFF, minifat_start, n_minifat,
                            difat_start if n_difat else ENDOFCHAIN, n_difat)
              + b"".join(struct.pack("<I", x) for x in head_difat))
    assert len(header) == SECTOR
    return header + b"".join(sectors)


def _dir_entry(e: _Entry) -> bytes:
    name = e.name.encode("utf-16-le") + b"\0\0"
    start = e.start if e.type != 1 else 0
    size = e.size if e.type != 1 else 0
    return (name.ljust(64, b"\0") + struct.pack("<HBB", len(name), e.type, e.color)
            + struct.pack("<III", e.left, e.right, e.child)
            + b"\0" * 16 + b"\0" * 4 + b"\0" * 16
            + struct.pack("<II", start, size) + b"\0" * 4)


def _empty_entry() -> bytes:
    return b"\0" * 64 + struct.pack("<HBB", 0, 0, 0) + struct.pack("<III", NOSTREAM, NOSTREAM, NOSTREAM) \
        + b"\0" * 36 + struct.pack("<II", 0, 0) + b"\0" * 4


def read_streams(data: bytes) -> dict[str, bytes]:
    """Every stream of a compound file (read with olefile), ``"Storage/Stream" -> bytes``."""
    import io

    import olefile

    ole = olefile.OleFileIO(io.BytesIO(data))
    try:
        return {"/".join(p): ole.openstream(p).read() for p in ole.listdir(streams=True, storages=False)}
    finally:
        ole.close()
