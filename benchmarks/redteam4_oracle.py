"""Oracle for the fourth red-team corpus (benchmarks/redteam4.py): redteam3_oracle's views, and more.

Same manifest format and ``judge(d, summary, ocr)`` rows as ``redteam2_oracle.judge``. Added to what
leak_oracle + redteam2_oracle + redteam3_oracle read (views a recipient's eyes or viewer produce, none taken
from the product):
  * keys ``FRN`` (foreigner registration number) and ``PASSPORT`` (M + 8 digits), judged like the other
    numbers (a run of >= 4 digits of the output that is a piece of the value's digits), and ``ACCOUNT``;
  * every text view read again (a) with compatibility jamo composed into syllables (ㅈㅓㅇ -> 정), Hanja
    numerals read as digits (〇一〇 -> 010), enclosing marks (keycaps U+20E3) and box-drawing characters
    dropped; (b) that reading with every right-to-left override span (U+202E .. U+202C or the line end)
    reversed, as a viewer shows it;
  * in the raw views of a PDF (``bytes``, ``stream``) decimal numbers (path coordinates such as
    ``15.2224``) are blanked before the digit rule: read as text they are noise in which runs of the
    planted digits turn up by chance (the page text and OCR views still read any value written with dots);
  * every picture (a published image, every frame of every ZIP member, every page of a published PDF
    rendered at 200 dpi) OCR'd again: turned 180 degrees and 180 +- 5 / +- 5 degrees (a page fed upside
    down or askew); its red and green channels alone (black text under a red seal; the seal's own red
    text); dark ink dilated (dots of a dot-matrix print joined); ruling lines removed (digits in comb boxes);
  * pictures embedded inside pictures (a JPEG after offset 0 of a picture: an Exif IFD1 thumbnail),
    decoded and OCR'd.
Shares no code with the product's readers or leak check (Tesseract via leak_oracle.ocr_text aside).
"""
from __future__ import annotations

import io
import re
import unicodedata
import zipfile
from pathlib import Path

import leak_oracle as lo
import redteam2_oracle as r2o
import redteam3_oracle as r3o

LEAD = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
VOWEL = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
TAIL = ["", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ",
        "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"]
HANJA_DIGITS = str.maketrans("〇零一二三四五六七八九", "00123456789")
NUMBER_KEYS = ("ACCOUNT", "FRN", "PASSPORT")
_RLO = re.compile("\u202e([^\u202c\n]*)")
_DECIMAL = re.compile(r"-?\d+\.\d+")


def compose_jamo(t: str) -> str:
    """Compatibility jamo sequences (lead vowel [tail]) composed into syllables; a tail consonant is taken
    only when no vowel follows it (ㅎㅏㄹㅏㅁ -> 하람)."""
    out, i, n = [], 0, len(t)
    while i < n:
        c = t[i]
        if c in LEAD and i + 1 < n and t[i + 1] in VOWEL:
            l_, v = LEAD.index(c), VOWEL.index(t[i + 1])
            j, tail = i + 2, 0
            if j < n and t[j] in TAIL[1:] and not (j + 1 < n and t[j + 1] in VOWEL):
                tail = TAIL.index(t[j])
                j += 1
            out.append(chr(0xAC00 + (l_ * 21 + v) * 28 + tail))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def reread(t: str) -> str:
    t = compose_jamo(t).translate(HANJA_DIGITS)
    return "".join(c for c in t if unicodedata.category(c) != "Me" and not 0x2500 <= ord(c) <= 0x257F)


def readings(text: str) -> list[tuple[str, str]]:
    """(label, text) pairs to judge for one view."""
    r = reread(text)
    out = [("", text)]
    if r != text:
        out.append((" (jamo/Hanja digits/keycaps/box chars)", r))
    rev = _RLO.sub(lambda m: m.group(1)[::-1], r)
    if rev != r:
        out.append((" (RLO span shown reversed)", rev))
    return out


# ------------------------------------------------------------------------------------------- pictures
def _pictures(path: Path) -> list[tuple[str, bytes]]:
    data = path.read_bytes()
    if data[:2] == b"PK":
        try:
            z = zipfile.ZipFile(io.BytesIO(data))
            return [(i.filename, z.read(i)) for i in z.infolist() if not i.filename.endswith((".xml", ".rels"))]
        except Exception:  # noqa: BLE001
            return []
    if data[:5] == b"%PDF-":
        return []
    return [("image", data)]


def _pdf_pages(path: Path):
    data = path.read_bytes()
    if data[:5] != b"%PDF-":
        return []
    import pypdfium2 as pdfium
    pages = []
    try:
        doc = pdfium.PdfDocument(data)
    except Exception:  # noqa: BLE001
        return []
    try:
        for i in range(len(doc)):
            pages.append((f"page{i + 1}", doc[i].render(scale=200 / 72).to_pil().convert("RGB")))
    finally:
        doc.close()
    return pages


def _embedded_jpegs(b: bytes) -> list:
    from PIL import Image
    out = []
    for m in re.finditer(rb"\xff\xd8\xff", b):
        if m.start() == 0:
            continue
        try:
            im = Image.open(io.BytesIO(b[m.start():]))
            im.load()
            out.append(im.convert("RGB"))
        except Exception:  # noqa: BLE001
            continue
    return out


def _no_rules(g):
    """Ruling lines removed: dark horizontal runs >= 100 px and vertical runs >= 60 px become paper (at 200 dpi
    these are 13 mm / 7.6 mm: longer than any stroke of ordinary type)."""
    import numpy as np
    from PIL import Image
    a = np.asarray(g) < 128
    keep = a.copy()
    for axis, need in ((1, 100), (0, 60)):
        m = a if axis == 1 else a.T
        k = keep if axis == 1 else keep.T
        for r in range(m.shape[0]):
            row = m[r]
            if row.sum() < need:
                continue
            d = np.diff(np.concatenate(([0], row.astype(np.int8), [0])))
            starts, ends = np.where(d == 1)[0], np.where(d == -1)[0]
            for s, e in zip(starts, ends):
                if e - s >= need:
                    k[r, s:e] = False
    return Image.fromarray(np.where(keep, 0, 255).astype("uint8"))


def picture_views(img, name: str) -> list[tuple[str, str]]:
    from PIL import Image, ImageFilter, ImageOps
    if img.width < 20 or img.height < 8:
        return []
    rgb = img.convert("RGB")
    g = ImageOps.autocontrast(rgb.convert("L"), cutoff=1)
    small = g.height < 300
    k = 3 if g.height < 100 else (2 if small else 1)

    def up(im):
        return im.resize((im.width * k, im.height * k), Image.LANCZOS) if k > 1 else im
    ims = []
    for ang in (180, 175, 185, 5, -5):
        ims.append((f"rot{ang}", up(g).rotate(ang, expand=True, fillcolor=255, resample=Image.BICUBIC)))
    r_, g_, _ = rgb.split()
    ims.append(("red-channel", up(ImageOps.autocontrast(r_, cutoff=1))))
    ims.append(("green-channel", up(ImageOps.autocontrast(g_, cutoff=1))))
    ims.append(("dilated", up(g).filter(ImageFilter.MinFilter(5))))
    ims.append(("blur-threshold", up(g).filter(ImageFilter.GaussianBlur(2)).point(lambda v: 0 if v < 200 else 255)))
    ims.append(("no-rules", _no_rules(g)))
    return [(f"{name}:ocr-{label}", lo.ocr_text(im.convert("RGB"))) for label, im in ims]


def more_pictures(path: Path) -> list[tuple[str, str]]:
    views = []
    for name, b in _pictures(path):
        for n, fr in enumerate(r2o._frames(b)):
            views += picture_views(fr, f"{name}:frame{n + 1}")
        for n, th in enumerate(_embedded_jpegs(b)):
            views += [(f"{name}:embedded-jpeg{n + 1}:ocr+", t) for t in r2o._ocr_variants(th)]
            views += picture_views(th, f"{name}:embedded-jpeg{n + 1}")
    for name, im in _pdf_pages(path):
        views += picture_views(im, name)
    return views


# ---------------------------------------------------------------------------------------------- judge
def patterns(values: dict) -> dict:
    pats = lo.patterns(values)
    for k in NUMBER_KEYS:
        if k in values:
            pats[k] = [("digits", re.sub(r"\D", "", values[k]))]
    return pats


def leaks(path: Path, keys: list[str], values: dict, ocr: bool) -> list[tuple[str, str, str]]:
    pats = patterns(values)
    sources = [lambda: lo.views_of(path, ocr), lambda: r3o.member_metadata(path), lambda: r2o.extra_views(path, ocr)]
    if ocr:
        sources += [lambda: r3o.more_ocr(path), lambda: more_pictures(path)]
    found, seen = [], set()
    is_pdf = path.read_bytes()[:5] == b"%PDF-"
    for where, text in (v for src in sources if len(seen) < len(keys) for v in src()):
        if is_pdf and where in ("bytes", "stream"):
            text = _DECIMAL.sub(" ", text)
        for label0, t0 in readings(text):
            for seps in (True, False):
                base = lo.norm(t0, seps)
                for label, t in (("", base), (" (digit words)", r3o.spoken_digits(base)),
                                 (" (look-alikes)", base.translate(r3o.LOOKALIKE))):
                    if label and t == base:
                        continue
                    for k in keys:
                        if k in seen:
                            continue
                        hit = lo.find(pats[k], t)
                        if hit is not None:
                            seen.add(k)
                            found.append((k, where + label0 + label, hit))
    return found


def judge(d: Path, summary: str, ocr: bool = True) -> list[dict]:
    return r2o.judge(d, summary, ocr, find=leaks)
