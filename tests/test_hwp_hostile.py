"""Hostile HWP 5 files (issue 25): loops in the compound file's directory, broken records and inflation
bombs end with a clear message or a read document — never a hang or a traceback. Each case runs in a child
process with a time limit, so a hang fails the test instead of hanging the suite."""
from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tests.test_documents_hwp import build_hwp, para, record

ROOT = Path(__file__).resolve().parents[1]
PROBE = ("import sys; from veil_desktop.documents import open_document, DocumentError\n"
         "try:\n    d = open_document(sys.argv[1]); print('OPENED', len(d.text))\n"
         "except DocumentError as e:\n    print('REFUSED', e)\n")


def _probe(path: Path) -> str:
    proc = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    return proc.stdout.strip()


def _directory(data: bytearray) -> tuple[int, int]:
    """Offset of the first directory sector and the sector size (MS-CFB header fields)."""
    ss = 1 << struct.unpack_from("<H", data, 0x1E)[0]
    return (struct.unpack_from("<I", data, 0x30)[0] + 1) * ss, ss


@pytest.mark.parametrize("how", ["self", "mutual", "child_is_root"])
def test_a_loop_in_the_directory_ends(tmp_path, how):
    src = build_hwp(tmp_path / "a.hwp", body=para("김민준 010-2345-6789"))
    data = bytearray(src.read_bytes())
    off, _ = _directory(data)
    if how == "self":          # entry 1's left sibling is entry 1
        struct.pack_into("<I", data, off + 128 + 0x44, 1)
    elif how == "mutual":      # 1 -> 2 -> 1 through right siblings
        struct.pack_into("<I", data, off + 128 + 0x48, 2)
        struct.pack_into("<I", data, off + 256 + 0x48, 1)
    else:                      # a storage's child is the root entry
        struct.pack_into("<I", data, off + 128 + 0x4C, 0)
    bad = tmp_path / f"{how}.hwp"
    bad.write_bytes(bytes(data))
    out = _probe(bad)
    assert out.startswith(("OPENED", "REFUSED")), out


def test_a_broken_record_and_a_section_bomb_are_refused(tmp_path):
    # a PARA_TEXT record that claims more bytes than the stream holds
    broken = build_hwp(tmp_path / "broken.hwp", body=record(0x43, 1, b"") [:4] + struct.pack("<I", 1 << 30))
    out = _probe(broken)
    assert out.startswith(("OPENED", "REFUSED")), out
    # a section that inflates to 600 MB of zeros (the reader's budget stops it)
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb_body = comp.compress(b"\0" * (600 * 1024 * 1024)) + comp.flush()
    assert len(bomb_body) < 2 * 1024 * 1024
    # the bomb as the raw section of a document built uncompressed ...
    bomb2 = build_hwp(tmp_path / "bomb2.hwp", body=bomb_body, compressed=False)
    raw = bytearray(bomb2.read_bytes())
    # ... whose FileHeader's compressed bit is then set: the section is read as deflate data
    i = raw.find(b"HWP Document File")
    struct.pack_into("<I", raw, i + 36, struct.unpack_from("<I", raw, i + 36)[0] | 1)
    (tmp_path / "bomb3.hwp").write_bytes(bytes(raw))
    out = _probe(tmp_path / "bomb3.hwp")
    assert out.startswith("REFUSED"), out
