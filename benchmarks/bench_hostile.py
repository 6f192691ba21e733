"""Peak memory of the batch CLI on full-size hostile inputs (issue 10: ≤ 1.5 GB each, originals intact).

Builds each hostile file in a scratch folder, runs ``veil-redact redact FILE --out DIR`` on it under
``/usr/bin/time -v`` (one process per file, the default detector), and prints peak RSS, wall time, the
row status and its message, and whether the original is byte-identical afterwards.

    nice .venv/bin/python benchmarks/bench_hostile.py [--only NAME ...] [--keep DIR]

The files (sizes are what is on disk):
- ``nested_bomb.docx``   a DOCX holding a ZIP of 4 x 512 MB zeros (2 GB inside ~10 KB);
- ``declared_bomb.docx`` a member whose directory entry declares 900 MB;
- ``zeros_at_limit.docx`` two 150 MB pictures of zeros (just under the per-document inflation limit);
- ``paras_610k.docx``    18 M one-letter paragraphs (~600 KB; 612 MB of XML);
- ``paras_950k.docx``    950,000 one-letter paragraphs (under the XML element limit, over the paragraph one);
- ``paras_at_limit.docx`` 490,000 one-letter paragraphs (just under the paragraph limit; opens);
- ``text_50mb.txt``      50 MB of Korean text with a phone number every ten lines;
- ``text_at_limit.txt``  4.9 M characters of the same (just under the character limit; detected in full);
- ``hwp_52m.hwp``        an HWP 5 file whose section inflates to 52 M characters (~100 KB on disk);
- ``pdf_content_bomb.pdf`` one page whose content stream inflates to 100 MB of drawing operators;
- ``pdf_content_at_limit.pdf`` one page with three 20 MB content streams (just under the 64 MB total).
"""
from __future__ import annotations

import argparse
import hashlib
import io
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LIMIT_KB = int(1.5 * 1024 * 1024)


def zeros_member(zf: zipfile.ZipFile, name: str, size: int) -> None:
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    with zf.open(info, "w", force_zip64=True) as f:
        block = b"\0" * (1 << 20)
        for _ in range(size >> 20):
            f.write(block)


def base_docx(path: Path) -> dict[str, bytes]:
    from docx import Document

    d = Document()
    d.add_paragraph("담당자 홍길동 연락처 010-1234-5678")
    d.save(str(path))
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def write_members(path: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)


def build_nested_bomb(path: Path) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        for i in range(4):
            zeros_member(z, f"xl/worksheets/sheet{i}.xml", 512 << 20)
    members = base_docx(path)
    members["word/embeddings/oleObject1.xlsx"] = inner.getvalue()
    write_members(path, members)


def build_declared_bomb(path: Path) -> None:
    members = base_docx(path)
    write_members(path, members)
    data = bytearray(path.read_bytes())
    cd = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, cd + 24, 900 << 20)
    path.write_bytes(bytes(data))


def build_zeros_at_limit(path: Path) -> None:
    members = base_docx(path)
    write_members(path, members)
    with zipfile.ZipFile(path, "a") as z:
        for i in (1, 2):
            zeros_member(z, f"word/media/image{i}.png", 150 << 20)


def paragraphs_docx(path: Path, n: int) -> None:
    members = base_docx(path)
    doc = members["word/document.xml"].decode()
    head, tail = doc.split("<w:body>", 1)
    p = "<w:p><w:r><w:t>a</w:t></w:r></w:p>"
    members["word/document.xml"] = (head + "<w:body>" + p * n + tail.split("</w:p>", 1)[1]).encode()
    write_members(path, members)


def korean_text(n_chars: int) -> str:
    line = "고객 홍길동 님, 연락처 010-2345-6789, 주문번호 A1234 처리 완료.\n"
    filler = "일반 문장이 이어집니다. 회의는 오후 세 시에 시작합니다.\n" * 9
    block = line + filler
    return (block * (n_chars // len(block) + 1))[:n_chars]


def build_text(path: Path, *, mb: int | None = None, chars: int | None = None) -> None:
    if mb is not None:
        text = korean_text(mb * 1024 * 1024 // 2)
        data = text.encode("utf-8")[: mb * 1024 * 1024]
        path.write_bytes(data[: len(data.decode("utf-8", "ignore").encode("utf-8"))])
    else:
        path.write_text(korean_text(chars), encoding="utf-8")


def build_hwp(path: Path) -> None:
    from tests.test_documents_hwp import record, write_cfb

    body = record(0x42, 0, b"\0" * 22) + record(0x43, 1, "가".encode("utf-16-le") * 52_000_000)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    section = c.compress(body) + c.flush()
    header = b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05000300, 1)
    path.write_bytes(write_cfb({"FileHeader": header.ljust(256, b"\0"), "DocInfo": b"\x03\0",
                                "BodyText/Section0": section}))


def build_pdf_bomb(path: Path, mb: float, streams: int = 1) -> None:
    from tests.test_hostile_pdf import content_bomb_pdf

    content_bomb_pdf(path, mb, streams)


CASES = {
    "nested_bomb.docx": build_nested_bomb,
    "declared_bomb.docx": build_declared_bomb,
    "zeros_at_limit.docx": build_zeros_at_limit,
    "paras_610k.docx": lambda p: paragraphs_docx(p, 18_000_000),
    "paras_950k.docx": lambda p: paragraphs_docx(p, 950_000),
    "paras_at_limit.docx": lambda p: paragraphs_docx(p, 490_000),
    "text_50mb.txt": lambda p: build_text(p, mb=50),
    "text_at_limit.txt": lambda p: build_text(p, chars=4_900_000),
    "hwp_52m.hwp": build_hwp,
    "pdf_content_bomb.pdf": lambda p: build_pdf_bomb(p, 100),
    "pdf_content_at_limit.pdf": lambda p: build_pdf_bomb(p, 20, streams=3),
}


def run_case(name: str, work: Path) -> dict:
    src = work / "in" / name
    src.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    CASES[name](src)
    build_s = time.perf_counter() - t0
    before = hashlib.sha256(src.read_bytes()).hexdigest()
    out = work / "out"
    cmd = ["/usr/bin/time", "-v", str(ROOT / ".venv" / "bin" / "veil-redact"), "redact", str(src),
           "--out", str(out), "--quiet", "--threads", "2", "--overwrite"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    rss_kb = int(m.group(1)) if m else -1
    row = next((line for line in proc.stdout.splitlines() if name in line), "")
    status = "ok" if "  ok  " in row else ("REVIEW" if "REVIEW" in row else "FAILED")
    detail = row.split(None, 4)[-1] if row else proc.stdout[-200:]
    same = hashlib.sha256(src.read_bytes()).hexdigest() == before
    traceback = "Traceback" in proc.stderr
    return {"name": name, "size": src.stat().st_size, "build_s": build_s, "rss_mb": rss_kb / 1024,
            "wall_s": wall, "exit": proc.returncode, "status": status, "detail": detail,
            "original_identical": same, "traceback": traceback}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", choices=sorted(CASES))
    ap.add_argument("--keep", type=Path, help="build in this folder and keep it")
    args = ap.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="veil-hostile-"))
    results = []
    try:
        for name in args.only or list(CASES):
            r = run_case(name, work)
            results.append(r)
            print(f"{r['name']:<22} {r['size'] / 1024:>9,.0f} KB  peak RSS {r['rss_mb']:>7,.0f} MB  "
                  f"{'met' if 0 < r['rss_mb'] * 1024 <= LIMIT_KB else 'NOT MET':<7}  {r['wall_s']:>6.1f} s  "
                  f"exit {r['exit']}  {r['status']:<6}  original {'identical' if r['original_identical'] else 'CHANGED'}"
                  f"{'  TRACEBACK' if r['traceback'] else ''}  | {r['detail'][:150]}", flush=True)
            shutil.rmtree(work / "out", ignore_errors=True)
            (work / "in" / name).unlink(missing_ok=True)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    bad = [r for r in results if not (0 < r["rss_mb"] * 1024 <= LIMIT_KB) or not r["original_identical"]
           or r["traceback"]]
    print(f"{len(results) - len(bad)} of {len(results)} within 1.5 GB, originals identical, no traceback")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
