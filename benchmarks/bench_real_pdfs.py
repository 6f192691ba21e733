"""PDFs made by other software, read as users get them: which pages the reader turns into scans (OCR) or
holds (*needs review*), and why, and how long opening takes. Not Korean PII: this measures false alarms and
needless OCR on ordinary files (issue 26, class 6).

    .venv/bin/python benchmarks/bench_real_pdfs.py FILE.pdf … [--base CHECKOUT]

``--base`` runs another checkout's reader (a git worktree) in a child process for a before/after figure.
Example (files Debian ships): /usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf (groff/LaTeX, Type 1
fonts with ligatures), /usr/share/doc/libtasn1-doc/libtasn1.pdf (Texinfo).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(path: Path) -> dict:
    from veil_desktop.documents import open_document, pdf

    t = time.perf_counter()
    doc = open_document(path)
    secs = time.perf_counter() - t
    ocr_pages = sorted(doc.extra.get("pdf_ocr") or {})
    # why a page would be OCR'd: the reasons the reader gives when OCR is switched off
    keep = pdf._ocr_available
    pdf._ocr_available = lambda: False
    try:
        reasons = Counter(u.reason for u in open_document(path).unreadable)
    finally:
        pdf._ocr_available = keep
    return {"file": path.name, "pages": len(doc.extra.get("pdf_pages") or []), "ocr_pages": len(ocr_pages),
            "needs_review": len(doc.unreadable), "reasons_without_ocr": dict(reasons), "seconds": round(secs, 1)}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--base", type=Path, help="a checkout whose reader to run instead (child process)")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.base:
        env = dict(os.environ, PYTHONPATH=str(a.base.resolve()))
        out = subprocess.run([sys.executable, __file__, "--json", *map(str, a.files)], env=env,
                             capture_output=True, text=True, cwd=str(a.base))
        rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
        where = str(a.base)
    else:
        rows = [measure(f) for f in a.files]
        where = str(ROOT)
    if a.json:
        for r in rows:
            print(json.dumps(r))
        return 0
    print(f"== reader of {where}")
    print(f"{'file':40} {'pages':>5} {'OCR':>4} {'held':>4} {'open s':>7}  reasons (OCR off)")
    for r in rows:
        print(f"{r['file']:40} {r['pages']:>5} {r['ocr_pages']:>4} {r['needs_review']:>4} {r['seconds']:>7}  "
              f"{r['reasons_without_ocr']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
