"""Extra views for the second red-team corpus (benchmarks/redteam2.py), on top of benchmarks/leak_oracle.py.

Shares no code with the product's readers or leak check (Tesseract via leak_oracle.ocr_text is the only
shared piece). Added views: every picture in an output package sniffed by content (not by name), every
frame/page of it, and every output image/PDF page, OCR'd as autocontrasted grey, inverted, and upscaled
when small (so low-contrast, white-on-dark and 8 px text count when a recipient could read it); the Hanja
spelling of the name (two consecutive characters).
"""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import leak_oracle as lo


def _frames(data: bytes):
    from PIL import Image, ImageSequence
    try:
        img = Image.open(io.BytesIO(data))
        for fr in ImageSequence.Iterator(img):
            yield fr.convert("RGB")
    except Exception:  # noqa: BLE001 - not a picture
        return


def _ocr_variants(img) -> list[str]:
    from PIL import ImageOps
    g = ImageOps.autocontrast(img.convert("L"), cutoff=1)
    if min(g.size) < 120 or g.height < 300:
        k = 4 if g.height < 100 else 2
        g = g.resize((g.width * k, g.height * k))
    outs = [lo.ocr_text(g.convert("RGB")), lo.ocr_text(ImageOps.invert(g).convert("RGB"))]
    if img.width > 40:
        outs.append(lo.ocr_text(g.rotate(-90, expand=True).convert("RGB")))
    return outs


def extra_views(path: Path, ocr: bool) -> list[tuple[str, str]]:
    data = path.read_bytes()
    views: list[tuple[str, str]] = []
    pics: list[tuple[str, bytes]] = []
    if data[:2] == b"PK":
        try:
            z = zipfile.ZipFile(io.BytesIO(data))
            pics = [(i.filename, z.read(i)) for i in z.infolist() if not i.filename.endswith((".xml", ".rels"))]
        except Exception:  # noqa: BLE001
            pics = []
    elif data[:5] == b"%PDF-":
        if ocr:
            import pypdfium2 as pdfium
            doc = pdfium.PdfDocument(data)
            try:
                for i in range(len(doc)):
                    img = doc[i].render(scale=300 / 72).to_pil().convert("RGB")
                    views += [(f"page{i + 1}:ocr+", t) for t in _ocr_variants(img)]
            finally:
                doc.close()
    else:
        pics = [("image", data)]
    for name, b in pics:
        for n, fr in enumerate(_frames(b)):
            if ocr and fr.width >= 20 and fr.height >= 8:
                views += [(f"{name}:frame{n + 1}:ocr+", t) for t in _ocr_variants(fr)]
    return views


def leaks(path: Path, keys: list[str], values: dict, ocr: bool) -> list[tuple[str, str, str]]:
    base_keys = [k for k in keys if k in ("NAME", "RRN", "PHONE", "ADDR", "EMAIL")]
    found = lo.leaks_in(path, base_keys, values, ocr) if base_keys else []
    pats = lo.patterns(values)
    h = values.get("HANJA", "")
    pats["HANJA"] = [("sub", h[i:i + 2]) for i in range(len(h) - 1)]
    seen = {k for k, _, _ in found}
    views = extra_views(path, ocr) + ([("bytes", t) for t in lo.text_views(path.read_bytes())]
                                      if "HANJA" in keys else [])
    for where, text in views:
        for seps in (True, False):
            t = lo.norm(text, seps)
            for k in keys:
                if k in seen:
                    continue
                hit = lo.find(pats[k], t)
                if hit is not None:
                    seen.add(k)
                    found.append((k, where, hit))
    return found


def status_of(summary: str, full: str) -> str:
    """Status column of the CLI's table row for ``full`` (long paths are shown as '…' + their tail)."""
    for ln in summary.splitlines():
        parts = ln.split()
        if len(parts) >= 2 and (parts[0] == full or (parts[0].startswith("…") and full.endswith(parts[0][1:]))):
            return parts[1]
    return "missing"


def judge(d: Path, summary: str, ocr: bool = True, find=None) -> list[dict]:
    """One row per manifest file: its CLI status and verdict. ``find``: the leak finder (``leaks`` here;
    another oracle passes its own)."""
    find = find or leaks
    man = json.loads((d / "manifest.json").read_text(encoding="utf-8"))
    res = []
    for f in man["files"]:
        rel = f["file"]
        st = status_of(summary, str(d / "in" / rel))
        target = d / "out" / rel
        row = dict(f, status=st, leaks=[])
        if st == "ok" and target.exists():
            if f["values"]:
                row["leaks"] = find(target, f["values"], man["values"], ocr)
                row["verdict"] = "LEAK" if row["leaks"] else "clean"
            else:
                row["verdict"] = "clean"
        else:
            row["verdict"] = "FALSE ALARM" if not f["values"] else "held"
        res.append(row)
    return res


def print_table(res: list[dict], label: str) -> None:
    print(f"\n== {label}")
    for r in res:
        print(f"  {r['class']}{r['variant']} {r['file']:42s} {r['status']:14s} {r['verdict']}")
        for k, where, hit in r["leaks"]:
            print(f"        {k:6s} in {where[:50]}: …{hit}…")
    print("\nclass  files  published-with-leak  refused/needs-review  exported-clean  false-alarms")
    for c in sorted({r["class"] for r in res}):
        rows = [r for r in res if r["class"] == c]
        leak = sum(r["verdict"] == "LEAK" for r in rows)
        held = sum(r["verdict"] in ("held", "FALSE ALARM") for r in rows)
        clean = sum(r["verdict"] == "clean" for r in rows)
        fa = sum(r["verdict"] == "FALSE ALARM" for r in rows)
        print(f"  {c}    {len(rows):5d}  {leak:19d}  {held:20d}  {clean:14d}  {fa if c == '6' else '-':>12}")
