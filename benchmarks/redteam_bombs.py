"""Red-team hostile inputs: build a few bombs of our own and run the batch CLI on each under /usr/bin/time -v.

    nice .venv/bin/python benchmarks/redteam_bombs.py DIR

Per file: the row status, peak RSS (target ≤ 1.5 GB), wall time, whether a traceback was printed, and
whether the original is byte-identical afterwards. One ``veil-redact redact FILE --out DIR`` process per
file, default detector, ``--threads 1``.
"""
from __future__ import annotations

import hashlib
import io
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
import adversarial_corpus as C  # noqa: E402


def build(d: Path) -> list[Path]:
    d.mkdir(parents=True, exist_ok=True)
    out = []

    def w(name, data):
        (d / name).write_bytes(data)
        out.append(d / name)

    # 1. DOCX: 3 M one-letter paragraphs (~100 MB of XML, ~300 KB zipped)
    body = "<w:p><w:r><w:t>가</w:t></w:r></w:p>" * 3_000_000
    w("one_letter_paragraphs.docx", C.docx(body))
    # 2. DOCX with a 6000x6000 picture (OCR'd for text) and 40 small text-less pictures
    from PIL import Image
    big = io.BytesIO()
    Image.new("RGB", (6000, 6000), "white").save(big, "PNG")
    parts = {"word/media/big.png": big.getvalue()}
    small = io.BytesIO()
    Image.new("RGB", (300, 100), (200, 220, 240)).save(small, "PNG")
    for i in range(40):
        parts[f"word/media/s{i}.png"] = small.getvalue()
    w("big_and_many_pictures.docx", C.docx(C.p(C.SENT), parts=parts))
    # 3. DOCX whose picture is a PNG declaring 30000x30000 pixels
    bomb = io.BytesIO()
    Image.new("1", (30000, 30000), 0).save(bomb, "PNG")
    w("png_bomb_picture.docx", C.docx(C.p(C.SENT), parts={"word/media/bomb.png": bomb.getvalue()}))
    # 4. text: 4.5 M characters of letter-spaced digits and numbers broken over lines
    unit = "1 2 3 4 5 6 7 8 9 0 - " * 10 + "\n010-7385\n-2946 900101-\n1234567\n"
    w("spaced_digits.txt", (unit * (4_500_000 // len(unit))).encode())
    # 5. a PNG image file declaring 30000x30000
    w("bomb.png", bomb.getvalue())
    # 6. HWPX with one 40 MB attribute value full of Hangul
    w("huge_attribute.hwpx", C.hwpx(C.hpara(C.hrun(C.SENT)),
                                    header=f'<hh:styles><hh:style id="0" name="{"김민준 " * 6_000_000}"/></hh:styles>'))
    # 7. ZIP inside ZIP inside a DOCX (custom XML part that is itself a zip of a 200 MB zero file)
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("zeros.xml", b"<a>" + b"0" * 200_000_000 + b"</a>")
    w("nested_zip.docx", C.docx(C.p(C.SENT), parts={"customXml/item1.xml": inner.getvalue(),
                                                    "word/embeddings/x.zip": inner.getvalue()}))
    return out


def main() -> int:
    d = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/veil-redteam-bombs")
    t = time.perf_counter()
    files = build(d / "in")
    print(f"built {len(files)} files in {time.perf_counter() - t:.0f} s")
    print(f"{'file':30s} {'size':>9s} {'status':8s} {'peak RSS':>9s} {'wall':>6s}  traceback  original")
    worst = 0
    for f in files:
        before = hashlib.sha256(f.read_bytes()).hexdigest()
        cmd = ["/usr/bin/time", "-v", str(ROOT / ".venv/bin/veil-redact"), "redact", str(f), "--out",
               str(d / "out"), "--threads", "1", "--overwrite"]
        t = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1)) / 1024
        worst = max(worst, rss)
        row = next((ln for ln in r.stdout.splitlines() if ln.strip().startswith(str(f)) or ln.startswith("…")), "")
        status = row.split()[1] if len(row.split()) > 1 else "?"
        same = hashlib.sha256(f.read_bytes()).hexdigest() == before
        print(f"{f.name:30s} {f.stat().st_size / 1e6:8.2f}M {status:8s} {rss:7.0f}MB {wall:5.0f}s  "
              f"{'YES' if 'Traceback' in r.stderr else 'no':9s}  {'identical' if same else 'CHANGED'}")
        if status != "ok":
            print("    " + row.split("  ")[-1].strip()[:200])
    print(f"worst peak RSS {worst:.0f} MB (target ≤ 1536 MB: {'met' if worst <= 1536 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
