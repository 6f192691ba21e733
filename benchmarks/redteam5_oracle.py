"""Oracle for the fifth red-team corpus (benchmarks/redteam5.py): redteam4_oracle's views, and more.

Same manifest format and ``judge(d, summary, ocr)`` rows as ``redteam2_oracle.judge``. A value redteam4_oracle
(leak_oracle + redteam2/3/4_oracle) does not find is looked for again in these views, read the way a
recipient or the recipient's software reads them (none taken from the product):
  * key ``ADDR_EN`` (a romanised address): >= 4 consecutive characters of its street part and number
    (``uchiro284``) that are not all digits;
  * every text view read again with halfwidth jamo (U+FFA0..) taken as the compatibility jamo they are narrow
    forms of and jamo composed into syllables (ﾲￃﾡ -> ㅂㅐㄱ -> 백),
    Suzhou numerals (〡〢〣, U+3021..) and 갖은자 (financial Hanja 零壹貳參肆伍陸柒捌玖) read as digits,
    Braille cells a-j (⠁..⠚) read as digits, runs of >= 4 native Korean number words (하나 둘 셋 … 공,
    다시 for a dash) read as digits, spreadsheet CHAR(n) calls read as the characters;
  * pictures (a published image, every frame of every ZIP member): written vertically (세로쓰기) -- columns
    of ink found by projection, every character box of a column laid out left to right, columns read right
    to left -- OCR'd; stretched back to square pixels where the resolution differs per axis (TIFF/JFIF/pHYs
    dpi, a fine fax 204 x 98); the background divided out (a shadow, a guilloche) and thresholded;
  * PDFs: every page rendered as printed (pdfium FPDF_PRINTING: optional content by its /Print usage,
    annotations flagged NoView) and OCR'd; every image stream (page thumbnails /Thumb, soft masks, stencil
    masks, JPEG 2000 with its alpha channel) decoded and OCR'd as it is and inverted.
Shares no code with the product's readers or leak check (Tesseract via leak_oracle.ocr_text aside).
"""
from __future__ import annotations

import io
import re
import unicodedata
import zlib
from pathlib import Path

import leak_oracle as lo
import redteam2_oracle as r2o
import redteam3_oracle as r3o
import redteam4_oracle as o4

DIGITS = str.maketrans({**dict(zip("〇〡〢〣〤〥〦〧〨〩", "0123456789")), **dict(zip("零壹貳參肆伍陸柒捌玖", "0123456789")),
                        "弐": "2", "参": "3", "拾": " ", **dict(zip("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚", "1234567890")), "⠼": "", "⠤": "-"})
NATIVE = {"공": "0", "영": "0", "하나": "1", "둘": "2", "셋": "3", "넷": "4", "다섯": "5", "여섯": "6", "일곱": "7",
          "여덟": "8", "아홉": "9", "다시": "-"}
_NW = "(?:" + "|".join(sorted(NATIVE, key=len, reverse=True)) + ")"
_NATIVE_RUN = re.compile(rf"{_NW}(?:[\s,.]*{_NW}){{3,}}")
_CHAR = re.compile(r"CHAR\((\d{1,5})\)", re.I)


def native_numbers(t: str) -> str:
    return _NATIVE_RUN.sub(lambda m: "".join(NATIVE[w] for w in re.findall(_NW, m.group())), t)


def _narrow(c: str) -> str:
    """A halfwidth Hangul letter (U+FFA0..U+FFDC) as the compatibility jamo it is a narrow form of."""
    d = unicodedata.decomposition(c) if "\uffa0" <= c <= "\uffdc" else ""
    return chr(int(d.split()[1], 16)) if d.startswith("<narrow>") else c


def readings5(text: str) -> list[tuple[str, str]]:
    n = o4.compose_jamo("".join(_narrow(c) for c in text))
    r = native_numbers(_CHAR.sub(lambda m: chr(int(m.group(1))) if int(m.group(1)) < 0x110000 else "", n.translate(DIGITS)))
    return [(" (jamo/Suzhou/갖은자/Braille/native numbers/CHAR())", r)] if r != text else []


def patterns(values: dict) -> dict:
    pats = o4.patterns(values)
    if "ADDR_EN" in values:
        street = lo.norm(values["ADDR_EN"].split(",")[0])             # 284uchi-ro -> 284uchiro
        street = re.sub(r"^(\d+)(.*)$", r"\2\1", street)             # uchiro284
        pats["ADDR_EN"] = [("sub", street[i:i + 4]) for i in range(len(street) - 3) if not street[i:i + 4].isdigit()]
    return pats


# ------------------------------------------------------------------------------------------- pictures
def _runs(mask, gap: int, min_len: int) -> list[tuple[int, int]]:
    """Runs of True in a 1-D mask, gaps shorter than ``gap`` merged, runs shorter than ``min_len`` dropped."""
    out: list[list[int]] = []
    for i, v in enumerate(mask):
        if not v:
            continue
        if out and i - out[-1][1] <= gap:
            out[-1][1] = i + 1
        else:
            out.append([i, i + 1])
    return [(a, b) for a, b in out if b - a >= min_len]


def vertical_lines(img):
    """A picture written top to bottom in columns, laid out as lines (rightmost column first), or None."""
    import numpy as np
    from PIL import Image, ImageOps
    g = ImageOps.autocontrast(img.convert("L"), cutoff=1)
    if g.width < 100 or g.height < 200:
        return None
    ink = np.asarray(o4._no_rules(g)) < 128
    cols = _runs(ink.sum(0) > max(8, 0.02 * ink.shape[0]), 12, 14)
    lines = []
    for x0, x1 in reversed(cols):
        w = x1 - x0
        rows = _runs(ink[:, x0:x1].sum(1) > 0, max(3, w // 4), 3)
        if len(rows) < 3 or (rows[-1][1] - rows[0][0]) < 3 * w:
            continue
        boxes = []
        for i, (y0, y1) in enumerate(rows):
            if i and y0 - rows[i - 1][1] > w * 0.45:
                boxes.append(None)                      # a space
            boxes.append((y0, y1))
        h = max(y1 - y0 for b in boxes if b for y0, y1 in [b])
        line = Image.new("L", (sum(w + 8 if b else w // 2 for b in boxes) + 40, h + 40), 255)
        x = 20
        for b in boxes:
            if b is None:
                x += w // 2
                continue
            piece = g.crop((x0, b[0], x1, b[1]))
            line.paste(piece, (x, 20 + (h - piece.height) // 2))
            x += w + 8
        lines.append(line)
    if not lines:
        return None
    W = max(im.width for im in lines)
    out = Image.new("L", (W, sum(im.height + 20 for im in lines)), 255)
    y = 0
    for im in lines:
        out.paste(im, (0, y))
        y += im.height + 20
    return out


def _square_pixels(img, info: dict):
    dpi = info.get("dpi") or info.get("resolution")
    try:
        dx, dy = float(dpi[0]), float(dpi[1])
    except Exception:  # noqa: BLE001 - no resolution
        return None
    if dx <= 0 or dy <= 0 or abs(dx / dy - 1) < 0.1:
        return None
    from PIL import Image
    return img.resize((img.width, int(img.height * dx / dy)), Image.LANCZOS)


def _flattened(img):
    """The background (shadow, guilloche, paper) divided out, then thresholded."""
    import numpy as np
    from PIL import Image, ImageFilter
    g = img.convert("L")
    bg = g.filter(ImageFilter.MaxFilter(9)).filter(ImageFilter.GaussianBlur(15))
    a = np.asarray(g, dtype=np.float32) / np.maximum(np.asarray(bg, dtype=np.float32), 1)
    return Image.fromarray(np.where(a < 0.72, 0, 255).astype("uint8"))


def picture_views5(path: Path) -> list[tuple[str, str]]:
    from PIL import Image
    views = []
    for name, b in o4._pictures(path):
        try:
            info = dict(Image.open(io.BytesIO(b)).info)
        except Exception:  # noqa: BLE001 - not a picture
            continue
        for n, fr in enumerate(r2o._frames(b)):
            if fr.width < 40 or fr.height < 16:
                continue
            where = f"{name}:frame{n + 1}"
            sq = _square_pixels(fr, info)
            if sq is not None:
                views += [(f"{where}:square-pixels:ocr+", t) for t in r2o._ocr_variants(sq)]
            v = vertical_lines(sq if sq is not None else fr)
            if v is not None:
                views.append((f"{where}:vertical-columns:ocr", lo.ocr_text(v.convert("RGB"))))
            views.append((f"{where}:background-divided:ocr", lo.ocr_text(_flattened(fr).convert("RGB"))))
    return views


# ----------------------------------------------------------------------------------------------- PDF
_OBJ = re.compile(rb"(?s)(\d+)\s+0\s+obj\s*<<(.*?)>>\s*stream\r?\n")


def _dict_int(d: bytes, key: bytes) -> int | None:
    m = re.search(rb"/" + key + rb"\s+(\d+)", d)
    return int(m.group(1)) if m else None


def pdf_images(data: bytes):
    """(label, picture) for every image-like stream: an object with /Width and /Height (an image XObject, a
    soft or stencil mask, a page thumbnail), decoded from Flate, DCT or JPX."""
    from PIL import Image
    for m in _OBJ.finditer(data):
        d = m.group(2)
        w, h = _dict_int(d, b"Width"), _dict_int(d, b"Height")
        if not w or not h or w * h > 40_000_000:
            continue
        ln = _dict_int(d, b"Length")
        start = m.end()
        end = start + ln if ln else data.find(b"endstream", start)
        raw = data[start:end]
        label = f"obj{int(m.group(1))}"
        try:
            if b"/JPXDecode" in d or b"/DCTDecode" in d:
                im = Image.open(io.BytesIO(raw))
                im.load()
                if im.mode in ("RGBA", "LA"):
                    yield label + ":alpha", im.getchannel("A")
                yield label, im.convert("RGB")
                continue
            if b"/FlateDecode" in d:
                raw = zlib.decompress(raw)
            bpc = _dict_int(d, b"BitsPerComponent") or 1
            if b"/ImageMask true" in d or bpc == 1:
                im = Image.frombytes("1", (w, h), raw[:((w + 7) // 8) * h])
            elif b"/DeviceRGB" in d:
                im = Image.frombytes("RGB", (w, h), raw[:w * h * 3])
            else:
                im = Image.frombytes("L", (w, h), raw[:w * h])
            yield label, im.convert("RGB")
        except Exception:  # noqa: BLE001 - a stream these readers cannot decode
            continue


def pdf_views5(path: Path) -> list[tuple[str, str]]:
    from PIL import ImageOps
    data = path.read_bytes()
    if data[:5] != b"%PDF-":
        return []
    import pypdfium2 as pdfium
    views = []
    try:
        doc = pdfium.PdfDocument(data)
    except Exception:  # noqa: BLE001
        doc = None
    if doc is not None:
        try:
            for i in range(len(doc)):
                img = doc[i].render(scale=300 / 72, optimize_mode="print", draw_annots=True).to_pil().convert("RGB")
                views.append((f"page{i + 1}:printed:ocr", lo.ocr_text(img)))
        finally:
            doc.close()
    for label, im in pdf_images(data):
        if im.width < 20 or im.height < 8:
            continue
        g = ImageOps.autocontrast(im.convert("L"), cutoff=1)
        if g.height < 300:
            k = 4 if g.height < 100 else 2
            g = g.resize((g.width * k, g.height * k))
        views.append((f"{label}:image-stream:ocr", lo.ocr_text(g.convert("RGB"))))
        views.append((f"{label}:image-stream:ocr-inverted", lo.ocr_text(ImageOps.invert(g).convert("RGB"))))
    return views


# ---------------------------------------------------------------------------------------------- judge
def scan(views, keys: list[str], pats: dict, is_pdf: bool, seen: set, found: list, readings=None, find=None) -> None:
    """Judge ``views`` ((where, text) pairs) for the ``keys`` not in ``seen``: every reading of a view (``readings``:
    text -> [(label, text)], default the text and ``readings5``), with and without separators, as it is, with digit
    words and with look-alikes, matched by ``find`` (default ``lo.find``); a hit is appended to ``found`` as
    (key, where, hit). Stops once every key is seen. (redteam6_oracle passes its own readings and finder.)"""
    readings = readings or (lambda t: [("", t)] + readings5(t))
    find = find or lo.find
    for where, text in views:
        if all(k in seen for k in keys):
            return
        if is_pdf and where in ("bytes", "stream"):
            text = o4._DECIMAL.sub(" ", text)
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
                        hit = find(pats[k], t)
                        if hit is not None:
                            seen.add(k)
                            found.append((k, where + label0 + label, hit))


def leaks(path: Path, keys: list[str], values: dict, ocr: bool) -> list[tuple[str, str, str]]:
    base_keys = [k for k in keys if k != "ADDR_EN"]
    found = o4.leaks(path, base_keys, values, ocr) if base_keys else []
    seen = {k for k, _, _ in found}
    if all(k in seen for k in keys):
        return found
    is_pdf = path.read_bytes()[:5] == b"%PDF-"
    sources = [lambda: lo.views_of(path, False), lambda: r3o.member_metadata(path)]
    if ocr:
        sources += [lambda: picture_views5(path), lambda: pdf_views5(path)]
    scan((v for src in sources if not all(k in seen for k in keys) for v in src()), keys, patterns(values), is_pdf,
         seen, found)
    return found


def judge(d: Path, summary: str, ocr: bool = True) -> list[dict]:
    return r2o.judge(d, summary, ocr, find=leaks)
