"""Independent leak oracle for the red-team corpus (benchmarks/adversarial_corpus.py).

It shares no code with ``veil_desktop.documents.leakcheck``/``matching``: every published output is read
the way a recipient could read it — every ZIP member (nested ZIPs too) and member name, the raw bytes
decoded as UTF-8, UTF-16LE/BE and CP949, HTML entities and %-escapes undone, tags stripped (so runs glue),
PDF streams inflated, PDF text and metadata via pdfium, PNG/EXIF text via Pillow, and the rendered pixels
of output PDF pages and images by OCR (``veil_desktop.documents.ocr``, the only shared piece: Tesseract).
Each view is normalised (NFKC, case-folded, invisible characters and separators removed) and the leak rule
of KOREAN_MASKING.md applied: ≥ 2 syllables of a name, ≥ 4 digits of a number (a digit run of the output
that is a piece of the value), ≥ 3 characters of the street part of an address, ≥ 4 letters of an e-mail's
local part.
"""
from __future__ import annotations

import html
import io
import json
import re
import sys
import unicodedata
import urllib.parse
import zipfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEPS = set(" \t\r\n\v\f-‐‑‒–—―.,/()[]{}<>:;_~'\"`·•|\\+=*#%&!?")
INVIS = {"\u3164", "\u115f", "\u1160", "\uffa0", "\u00ad"}


def norm(s: str, seps: bool = True) -> str:
    s = unicodedata.normalize("NFKC", s).casefold()
    out = []
    for ch in s:
        cat = unicodedata.category(ch)
        if ch in INVIS or cat in ("Cf", "Cc", "Mn", "Zs", "Zl", "Zp"):
            continue
        if seps and ch in SEPS:
            continue
        if cat == "Nd" and not ch.isascii():
            ch = str(unicodedata.decimal(ch, 0))     # Arabic-Indic, Devanagari … digits read as digits
        out.append(ch)
    return "".join(out)


def patterns(values: dict[str, str]) -> dict[str, list]:
    """key -> list of ('sub', text) or ('digits', digitstring)."""
    out: dict[str, list] = {}
    name = values["NAME"]
    out["NAME"] = [("sub", name[i:i + 2]) for i in range(len(name) - 1)]
    out["RRN"] = [("digits", re.sub(r"\D", "", values["RRN"]))]
    out["PHONE"] = [("digits", re.sub(r"\D", "", values["PHONE"]))]
    street = norm(values["ADDR"].split(" ", 2)[2])          # 월드컵북로396
    out["ADDR"] = [("sub", street[i:i + 3]) for i in range(len(street) - 2) if not street[i:i + 3].isdigit()]
    local = norm(values["EMAIL"].split("@")[0])
    out["EMAIL"] = [("sub", local[i:i + 4]) for i in range(len(local) - 3)]
    return out


def find(pats: list, text: str) -> str | None:
    for kind, p in pats:
        if kind == "sub":
            i = text.find(p)
            if i >= 0:
                return text[max(0, i - 25): i + 25]
        else:
            for m in re.finditer(r"\d{4,}", text):
                run = m.group()
                if run in p:
                    return text[max(0, m.start() - 25): m.end() + 25]
    return None


def text_views(data: bytes) -> list[str]:
    outs = []
    for enc in ("utf-8", "utf-16-le", "utf-16-be", "cp949"):
        try:
            t = data.decode(enc, errors="ignore")
        except Exception:
            continue
        if enc.startswith("utf-16") and len(data) > 1:
            t2 = data[1:].decode(enc, errors="ignore")
            outs.append(t2)
        outs.append(t)
    more = []
    for t in outs[:1]:
        # w:sym draws the character whose code is in its char attribute
        t = re.sub(r"<[\w:]*sym\b[^>]*?char=\"([0-9A-Fa-f]{4})\"[^>]*>", lambda m: chr(int(m.group(1), 16)), t)
        u = html.unescape(t)
        more.append(u)
        more.append(urllib.parse.unquote(u))
        more.append(re.sub(r"<[^>]*>", "", u))
        more.append(re.sub(r"<[^>]*>", "", html.unescape(re.sub(r"<[^>]*>", "", t))))
    # base64 payloads (field data, property blobs, attachments) decoded
    import base64
    for m in re.finditer(r"[A-Za-z0-9+/]{24,}={0,2}", outs[0] if outs else ""):
        try:
            raw = base64.b64decode(m.group() + "=" * (-len(m.group()) % 4))
        except Exception:  # noqa: BLE001
            continue
        more += [raw.decode(e, errors="ignore") for e in ("utf-8", "utf-16-le")]
    return outs + more


def zip_views(data: bytes, depth: int = 0) -> list[tuple[str, str]]:
    views: list[tuple[str, str]] = []
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except Exception:
        return views
    for info in z.infolist():
        views.append((f"name:{info.filename}", info.filename))
        views.append((f"comment:{info.filename}", info.comment.decode("utf-8", "ignore")))
        try:
            b = z.read(info)
        except Exception as e:
            views.append((f"unreadable:{info.filename}", str(e)))
            continue
        for t in text_views(b):
            views.append((info.filename, t))
        if b[:2] == b"PK" and depth < 2:
            views += [(f"{info.filename}!{n}", t) for n, t in zip_views(b, depth + 1)]
        if b[:8] == b"\x89PNG\r\n\x1a\n" or b[:3] == b"\xff\xd8\xff":
            views += [(f"{info.filename}:{n}", t) for n, t in image_views(b, ocr=True)]
    views.append(("zip-comment", z.comment.decode("utf-8", "ignore")))
    return views


_OCR_N = [0]


def ocr_text(img) -> str:
    from veil_desktop.documents import ocr
    _OCR_N[0] += 1
    return ocr.ocr_image(img).text


def image_views(data: bytes, ocr: bool) -> list[tuple[str, str]]:
    from PIL import Image
    views = []
    try:
        img = Image.open(io.BytesIO(data))
        img.load()
    except Exception:
        return views
    for k, v in img.info.items():
        views.append((f"info:{k}", v.decode("utf-8", "ignore") if isinstance(v, bytes) else str(v)))
        if isinstance(v, bytes):
            views += [(f"info:{k}", t) for t in text_views(v)]
    try:
        for k, v in img.getexif().items():
            views.append((f"exif:{k}", str(v)))
    except Exception:
        pass
    if ocr and img.width >= 100 and img.height >= 30:
        views.append(("ocr", ocr_text(img.convert("RGB"))))
    return views


def pdf_views(data: bytes, ocr: bool) -> list[tuple[str, str]]:
    views = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        s = m.group(1)
        try:
            s = zlib.decompressobj().decompress(s, 50_000_000)
        except Exception:
            pass
        views += [("stream", t) for t in text_views(s)[:3]]
    import pypdfium2 as pdfium
    try:
        doc = pdfium.PdfDocument(data)
    except Exception as e:
        return views + [("pdf-unreadable", str(e))]
    try:
        views.append(("metadata", json.dumps(doc.get_metadata_dict(), ensure_ascii=False)))
        for i in range(len(doc)):
            page = doc[i]
            tp = page.get_textpage()
            views.append((f"page{i + 1}:text", tp.get_text_range()))
            if ocr:
                img = page.render(scale=200 / 72).to_pil()
                views.append((f"page{i + 1}:ocr", ocr_text(img)))
    finally:
        doc.close()
    return views


def _without_deflated_data(data: bytes) -> bytes:
    """``data`` (a ZIP) with the compressed bytes of every deflated member blanked: they are no text any
    program shows (zip_views reads those members inflated), and read as text they are noise in which the
    digit rules find runs such as ``6 2 0 <controls> 1`` (seen in a burned PNG's deflate stream). Stored
    members, headers and any bytes outside the members stay as they are."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        infos = z.infolist()
    except Exception:  # noqa: BLE001 - not a readable ZIP: every byte is looked at
        return data
    out = bytearray(data)
    for info in infos:
        if info.compress_type == zipfile.ZIP_STORED:
            continue
        h = info.header_offset
        if data[h:h + 4] != b"PK\x03\x04":
            continue
        start = h + 30 + int.from_bytes(data[h + 26:h + 28], "little") + int.from_bytes(data[h + 28:h + 30], "little")
        end = min(len(data), start + info.compress_size)
        out[start:end] = b" " * (end - start)
    return bytes(out)


def views_of(path: Path, ocr: bool) -> list[tuple[str, str]]:
    data = path.read_bytes()
    views = [("bytes", t) for t in text_views(_without_deflated_data(data) if data[:2] == b"PK" else data)]
    if data[:2] == b"PK":
        views += zip_views(data)
    elif data[:5] == b"%PDF-":
        views += pdf_views(data, ocr)
    elif data[:8] == b"\x89PNG\r\n\x1a\n" or data[:3] == b"\xff\xd8\xff" or data[:2] in (b"II", b"MM"):
        views += image_views(data, ocr)
    return views


def leaks_in(path: Path, keys: list[str], values: dict[str, str], ocr: bool = True) -> list[tuple[str, str, str]]:
    pats = patterns(values)
    found = []
    seen = set()
    for where, text in views_of(path, ocr):
        for seps in (True, False):
            t = norm(text, seps)
            for k in keys:
                if k in seen:
                    continue
                hit = find(pats[k], t)
                if hit is not None:
                    seen.add(k)
                    found.append((k, where, hit))
    return found


def evaluate(d: Path, summary: str, ocr: bool = True) -> int:
    man = json.loads((d / "manifest.json").read_text(encoding="utf-8"))
    values = man["values"]
    out = d / "out"
    published = leaky = refused = 0
    lines = summary.splitlines()
    refusals = []
    leaks = []
    for f in man["files"]:
        rel = f["file"]
        target = out / (rel + ".txt" if rel.endswith(".hwp") else rel)
        full = str(d / "in" / rel)
        row = next((ln for ln in lines if ln.strip().startswith(full + " ")
                    or (ln.startswith("…") and full.endswith(ln[1:].split("  ")[0]))), "")
        if target.exists() and " ok " in f" {row} ":
            published += 1
            found = leaks_in(target, f["values"], values, ocr)
            if found:
                leaky += 1
                leaks.append((rel, found))
        else:
            refused += 1
            refusals.append((rel, row.strip()))
    n = len(man["files"])
    for rel, found in leaks:
        print(f"LEAK {rel}")
        for k, where, hit in found:
            print(f"    {k:6s} in {where[:60]}: …{hit}…")
    for rel, row in refusals:
        print(f"REFUSED {row[:300]}")
    print(f"\nfiles {n}: published {published}, published with a leak {leaky}, refused {refused} "
          f"({100.0 * refused / n:.1f} %), OCR passes {_OCR_N[0]}")
    return 1 if leaky else 0


if __name__ == "__main__":
    d = Path(sys.argv[1])
    summary = (d / "summary.txt").read_text(encoding="utf-8")
    sys.exit(evaluate(d, summary, ocr="--no-ocr" not in sys.argv))
