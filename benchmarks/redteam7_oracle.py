"""Oracle for the seventh red-team corpus (benchmarks/redteam7.py): redteam6_oracle's views, and more.

Same manifest format and ``judge(d, summary, ocr)`` rows as ``redteam2_oracle.judge``. Every view of
leak_oracle + redteam2..6_oracle is read (imported, not copied: ``redteam6_oracle.leaks`` first, then the
views below through ``redteam5_oracle.scan`` with redteam6's readings and finder), written from the format
specifications -- none taken from the product's readers, writers or leak check (Tesseract via
leak_oracle.ocr_text aside). A value counts when a careful reader of the published file sees it or any
program recovers it from the file's bytes.
  * pictures (a published picture, every package member): EMF (MS-EMF) EMR_POLYPOLYGON16 / EMR_POLYGON16 /
    EMR_POLYPOLYGON records drawn (ALTERNATE fill, as a viewer paints them) and OCR'd; WMF (MS-WMF, placeable
    or not) META_TEXTOUT / META_EXTTEXTOUT strings decoded as CP949 (and UTF-16LE) and every embedded DIB
    (META_DIBSTRETCHBLT, META_STRETCHDIB, META_DIBBITBLT) decoded and OCR'd; a palette (P-mode) picture drawn
    once per palette entry (the pixels of that entry black, the rest white: an entry whose colour equals
    another's is told apart, as by anyone who edits the palette); the JPEGs inside a JPEG's own segments
    (JFIF JFXX, Photoshop 0x040C and Exif thumbnails, as a file browser shows them) OCR'd first;
  * PDFs: every image XObject decoded from its own dictionary (an /Alternates print image, an /Indexed
    image with its lookup applied) and OCR'd;
  * packages: InkML traces (ink content parts, any member whose root is inkml:ink) drawn and OCR'd; DOCX
    w:bdo w:val="rtl" runs read in display order (the stored characters reversed);
  * text (a published text file, and every text member): UTF-7 (RFC 2152) decoded; JSON / JavaScript
    ``\\uXXXX`` escapes decoded; Latin letters read as the 두벌식 keys of Hangul jamo and composed (Korean typed
    with the IME in English mode); Shift-row symbols of a US keyboard read as digits (!@#$%^&*() -> 1..0)
    where at least four stand together; Hangul jamo read as the Latin keys they share (ㅡ -> m).
"""
from __future__ import annotations

import io
import re
import struct
from pathlib import Path

import leak_oracle as lo
import redteam2_oracle as r2o
import redteam4_oracle as o4
import redteam5_oracle as r5o
import redteam6_oracle as r6o

# ------------------------------------------------------------------------------------------- readings
DUBEOL = {"r": "ㄱ", "R": "ㄲ", "s": "ㄴ", "e": "ㄷ", "E": "ㄸ", "f": "ㄹ", "a": "ㅁ", "q": "ㅂ", "Q": "ㅃ", "t": "ㅅ",
          "T": "ㅆ", "d": "ㅇ", "w": "ㅈ", "W": "ㅉ", "c": "ㅊ", "z": "ㅋ", "x": "ㅌ", "v": "ㅍ", "g": "ㅎ",
          "k": "ㅏ", "o": "ㅐ", "i": "ㅑ", "O": "ㅒ", "j": "ㅓ", "p": "ㅔ", "u": "ㅕ", "P": "ㅖ", "h": "ㅗ", "y": "ㅛ",
          "n": "ㅜ", "b": "ㅠ", "m": "ㅡ", "l": "ㅣ"}
CHO = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
JUNG = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
JONG = ["", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ",
        "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"]
VOWEL_PAIRS = {("ㅗ", "ㅏ"): "ㅘ", ("ㅗ", "ㅐ"): "ㅙ", ("ㅗ", "ㅣ"): "ㅚ", ("ㅜ", "ㅓ"): "ㅝ", ("ㅜ", "ㅔ"): "ㅞ",
               ("ㅜ", "ㅣ"): "ㅟ", ("ㅡ", "ㅣ"): "ㅢ"}
FINAL_PAIRS = {("ㄱ", "ㅅ"): "ㄳ", ("ㄴ", "ㅈ"): "ㄵ", ("ㄴ", "ㅎ"): "ㄶ", ("ㄹ", "ㄱ"): "ㄺ", ("ㄹ", "ㅁ"): "ㄻ",
               ("ㄹ", "ㅂ"): "ㄼ", ("ㄹ", "ㅅ"): "ㄽ", ("ㄹ", "ㅌ"): "ㄾ", ("ㄹ", "ㅍ"): "ㄿ", ("ㄹ", "ㅎ"): "ㅀ",
               ("ㅂ", "ㅅ"): "ㅄ"}
JAMO_KEYS = {v: k.lower() for k, v in DUBEOL.items()}
SHIFTED = dict(zip("!@#$%^&*()", "1234567890"))


def compose_keys(word: str) -> str:
    """A run of Latin letters read as 두벌식 keys and composed as an IME composes them."""
    jamo = [DUBEOL.get(c) or DUBEOL.get(c.lower()) for c in word]
    if any(j is None for j in jamo):
        return word
    out, i = [], 0
    is_v = lambda j: j in JUNG  # noqa: E731
    while i < len(jamo):
        j = jamo[i]
        if is_v(j) or j not in CHO:
            v = j
            if i + 1 < len(jamo) and (v, jamo[i + 1]) in VOWEL_PAIRS:
                v, i = VOWEL_PAIRS[(v, jamo[i + 1])], i + 1
            out.append(v)
            i += 1
            continue
        if i + 1 >= len(jamo) or not is_v(jamo[i + 1]):
            out.append(j)
            i += 1
            continue
        cho, v, i = j, jamo[i + 1], i + 2
        if i < len(jamo) and (v, jamo[i]) in VOWEL_PAIRS:
            v, i = VOWEL_PAIRS[(v, jamo[i])], i + 1
        fin = ""
        if i < len(jamo) and jamo[i] in JONG and not is_v(jamo[i]):
            nxt_v = i + 1 < len(jamo) and is_v(jamo[i + 1])
            if not nxt_v:
                fin, i = jamo[i], i + 1
                if i < len(jamo) and (fin, jamo[i]) in FINAL_PAIRS and not (i + 1 < len(jamo) and is_v(jamo[i + 1])):
                    fin, i = FINAL_PAIRS[(fin, jamo[i])], i + 1
        out.append(chr(0xAC00 + CHO.index(cho) * 588 + JUNG.index(v) * 28 + JONG.index(fin)))
    return "".join(out)


_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_SHIFT_RUN = re.compile(r"[!@#$%^&*()\-]{4,}")
_JAMO = re.compile(r"[ㄱ-ㅣ]")
_U_ESC = re.compile(r"\\u([0-9a-fA-F]{4})")


def readings7(text: str) -> list[tuple[str, str]]:
    out = []
    if _U_ESC.search(text):
        out.append((" (\\u escapes)", _U_ESC.sub(lambda m: chr(int(m.group(1), 16)), text)))
    keys = _LATIN_WORD.sub(lambda m: compose_keys(m.group()), text)
    if keys != text:
        out.append((" (두벌식 keys typed in English mode)", keys))
    sh = _SHIFT_RUN.sub(lambda m: "".join(SHIFTED.get(c, c) for c in m.group())
                        if sum(c in SHIFTED for c in m.group()) >= 4 else m.group(), text)
    if sh != text:
        out.append((" (Shift-row digits)", sh))
    if _JAMO.search(text):
        out.append((" (jamo read as their Latin keys)", _JAMO.sub(lambda m: JAMO_KEYS.get(m.group(), m.group()), text)))
    return out


def readings(text: str) -> list[tuple[str, str]]:
    base = r6o.readings(text)
    return base + [(l1 + l2, t2) for l1, t1 in base[:1] for l2, t2 in readings7(t1)]


# ------------------------------------------------------------------------------------------- pictures
def emf_pictures(b: bytes) -> list:
    """EMF polygon records drawn (y down, scaled to at most 800 px wide), even-odd filled."""
    if len(b) < 88 or struct.unpack("<I", b[:4])[0] != 1 or b[40:44] != b" EMF":
        return []
    import numpy as np
    from PIL import Image, ImageDraw
    polys = []
    i = 0
    while i + 8 <= len(b):
        typ, size = struct.unpack("<II", b[i:i + 8])
        if size < 8 or i + size > len(b):
            break
        r = b[i:i + size]
        try:
            if typ in (91, 86):                    # POLYPOLYGON16, POLYGON16
                if typ == 91:
                    n, cnt = struct.unpack("<II", r[24:32])
                    counts = struct.unpack(f"<{n}I", r[32:32 + 4 * n])
                    p = 32 + 4 * n
                else:
                    cnt = struct.unpack("<I", r[24:28])[0]
                    counts, p = (cnt,), 28
                pts = struct.unpack(f"<{2 * cnt}h", r[p:p + 4 * cnt])
            elif typ in (8, 3):                    # POLYPOLYGON, POLYGON (32-bit points)
                if typ == 8:
                    n, cnt = struct.unpack("<II", r[24:32])
                    counts = struct.unpack(f"<{n}I", r[32:32 + 4 * n])
                    p = 32 + 4 * n
                else:
                    cnt = struct.unpack("<I", r[24:28])[0]
                    counts, p = (cnt,), 28
                pts = struct.unpack(f"<{2 * cnt}i", r[p:p + 8 * cnt])
            else:
                pts = None
            if pts:
                xy = list(zip(pts[0::2], pts[1::2]))
                k = 0
                for c in counts:
                    polys.append(xy[k:k + c])
                    k += c
        except struct.error:
            pass
        if typ == 14:
            break
        i += size
    polys = [p for p in polys if len(p) > 2]
    if not polys:
        return []
    xs = [x for p in polys for x, _ in p]
    ys = [y for p in polys for _, y in p]
    x0, y0 = min(xs), min(ys)
    s = min(800 / max(1, max(xs) - x0), 4.0)                 # glyphs of a page-like size for OCR
    w, h = int((max(xs) - x0) * s) + 60, int((max(ys) - y0) * s) + 60
    fill = np.zeros((h, w), dtype=bool)
    for p in polys:
        m = Image.new("1", (w, h), 0)
        ImageDraw.Draw(m).polygon([((x - x0) * s + 30, (y - y0) * s + 30) for x, y in p], fill=1)
        fill ^= np.asarray(m, dtype=bool)
    return [("emf-polygons", Image.fromarray(np.where(fill, 0, 255).astype("uint8")).convert("RGB"))]


WMF_TEXT = {0x0521, 0x0A32}
WMF_DIB = {0x0B41: 20, 0x0F43: 22, 0x0940: 16}       # record function -> offset of the DIB after the 6-byte head


def wmf_parts(b: bytes) -> tuple[list[tuple[str, str]], list]:
    """WMF text records (CP949 and UTF-16LE) and embedded DIBs (decoded as BMPs)."""
    from PIL import Image
    off = 22 if b[:4] == b"\xd7\xcd\xc6\x9a" else 0
    if len(b) < off + 18 or struct.unpack("<H", b[off + 2:off + 4])[0] != 9:
        return [], []
    texts, pics = [], []
    i = off + 18
    while i + 6 <= len(b):
        size, func = struct.unpack("<IH", b[i:i + 6])
        if size < 3 or i + size * 2 > len(b):
            break
        r = b[i:i + size * 2]
        if func in WMF_TEXT:
            if func == 0x0521:
                n = struct.unpack("<h", r[6:8])[0]
                s = r[8:8 + n]
            else:
                n, opts = struct.unpack("<hH", r[10:14])
                p = 14 + (8 if opts & 0x0006 else 0)
                s = r[p:p + n]
            texts += [(f"wmf-text@{i}", s.decode("cp949", "ignore")), (f"wmf-text@{i}", s.decode("utf-16-le", "ignore"))]
        elif func in WMF_DIB:
            dib = r[6 + WMF_DIB[func]:]
            try:
                hs = struct.unpack("<I", dib[:4])[0]
                bits = struct.unpack("<H", dib[14:16])[0]
                ncol = struct.unpack("<I", dib[32:36])[0] if hs >= 40 else 0
                if bits <= 8 and not ncol:
                    ncol = 1 << bits
                bfh = b"BM" + struct.pack("<IHHI", 14 + len(dib), 0, 0, 14 + hs + 4 * ncol)
                im = Image.open(io.BytesIO(bfh + dib))
                im.load()
                pics.append((f"wmf-dib@{i}", im.convert("RGB")))
            except Exception:  # noqa: BLE001 - not a DIB these readers know
                pass
        if func == 0:
            break
        i += size * 2
    return texts, pics


def palette_pictures(b: bytes) -> list:
    """A P-mode picture drawn once per palette entry in use (that entry's pixels black)."""
    import numpy as np
    from PIL import Image
    try:
        im = Image.open(io.BytesIO(b))
        if im.mode != "P":
            return []
        a = np.asarray(im)
    except Exception:  # noqa: BLE001
        return []
    vals, counts = np.unique(a, return_counts=True)
    out = []
    for v, c in sorted(zip(vals.tolist(), counts.tolist()), key=lambda t: -t[1])[1:9]:
        if c < 50:
            continue
        out.append((f"palette-entry-{v}", Image.fromarray(np.where(a == v, 0, 255).astype("uint8")).convert("RGB")))
    return out


def inkml_pictures(b: bytes) -> list:
    if b"InkML" not in b[:2000] or b"trace" not in b:
        return []
    paths = []
    for t in re.findall(rb"<(?:\w+:)?trace\b[^>]*>([^<]*)<", b):
        pts = []
        for pair in t.decode("ascii", "ignore").split(","):
            v = pair.split()
            if len(v) >= 2:
                try:
                    pts.append((float(v[0]), -float(v[1])))        # InkML y runs down; draw_ink wants y up
                except ValueError:
                    pass
        if len(pts) > 1:
            paths.append(pts)
    if not paths:
        return []
    import numpy as np
    from PIL import Image, ImageDraw
    xs = [x for p in paths for x, _ in p]
    ys = [y for p in paths for _, y in p]
    k = 48 / max(1.0, max(ys) - min(ys))                          # himetric to glyphs about 48 px tall
    w, h = int((max(xs) - min(xs)) * k) + 40, int((max(ys) - min(ys)) * k) + 40
    tr = [[((x - min(xs)) * k + 20, (max(ys) - y) * k + 20) for x, y in p] for p in paths]
    lines = Image.new("L", (w, h), 255)
    fill = np.zeros((h, w), dtype=bool)
    for p in tr:
        ImageDraw.Draw(lines).line(p, fill=0, width=2)
        m = Image.new("1", (w, h), 0)
        ImageDraw.Draw(m).polygon(p, fill=1)
        fill ^= np.asarray(m, dtype=bool)
    return [("ink-lines", lines.convert("RGB")),
            ("ink-filled", Image.fromarray(np.where(fill, 0, 255).astype("uint8")).convert("RGB"))]


def bdo_text(b: bytes) -> str | None:
    if b"<w:bdo" not in b:
        return None
    t = b.decode("utf-8", "ignore")
    out = []
    for m in re.finditer(r'(?s)<w:bdo\b[^>]*w:val="rtl"[^>]*>(.*?)</w:bdo>', t):
        s = "".join(re.findall(r"<w:t(?:\s[^>]*)?>([^<]*)</w:t>", m.group(1)))
        out.append(s[::-1])
    return "\n".join(out) if out else None


def pdf_image_objects(data: bytes) -> list:
    """Every image XObject of the file (every revision; alternates, print versions and masks included)
    decoded from its own dictionary: /Width, /Height, 8-bit /DeviceGray, /DeviceRGB or /Indexed (the
    lookup applied, as a viewer paints it). Flate or no filter."""
    import numpy as np
    from PIL import Image
    out = []
    for n, d, s in r6o.pdf_objects(data):
        if s is None or b"/Image" not in d:
            continue
        w, h = r6o._dict_num(d, b"Width"), r6o._dict_num(d, b"Height")
        if not w or not h or w * h > 40_000_000 or (r6o._dict_num(d, b"BitsPerComponent") or 8) != 8:
            continue
        try:
            m = re.search(rb"/Indexed\s*/DeviceGray\s*(\d+)\s*<([0-9A-Fa-f\s]*)>", d)
            if m:
                lut = np.frombuffer(bytes.fromhex(m.group(2).decode()), dtype=np.uint8)
                a = np.frombuffer(s[:w * h], dtype=np.uint8).reshape(h, w)
                im = Image.fromarray(lut[np.minimum(a, len(lut) - 1)])
            elif b"/DeviceRGB" in d:
                im = Image.frombytes("RGB", (w, h), s[:w * h * 3])
            elif b"/DeviceGray" in d:
                im = Image.frombytes("L", (w, h), s[:w * h])
            else:
                continue
        except Exception:  # noqa: BLE001 - a stream these readers cannot decode
            continue
        out.append((f"pdf-obj{n}:image", im.convert("RGB")))
    return out


# ----------------------------------------------------------------------------------------------- views
def _members(path: Path) -> list[tuple[str, bytes]]:
    """Every member of a package, and of a package inside it (an embedded workbook), or the file itself."""
    import zipfile
    ms = r6o.members(path)
    nested = []
    for name, b in ms:
        if b[:2] == b"PK" and name != "file":
            try:
                z = zipfile.ZipFile(io.BytesIO(b))
                nested += [(f"{name}!{i.filename}", z.read(i)) for i in z.infolist()]
            except Exception:  # noqa: BLE001 - not a readable ZIP
                pass
    return ms + nested


def views7(path: Path, ocr: bool) -> list[tuple[str, str]]:
    data = path.read_bytes()
    views: list[tuple[str, str]] = []
    if data[:5] == b"%PDF-":
        if ocr:
            for where, im in pdf_image_objects(data):
                views.append((f"{where}:ocr", lo.ocr_text(im)))
                views += [(f"{where}:ocr+", t) for t in r2o._ocr_variants(im)]
        return views
    if data[:2] != b"PK" and r6o.end_of_picture(data) is None:
        for enc in ("utf-7",):
            # a viewer decodes what it can and shows the rest as replacement characters: a strict decode
            # read nothing of an output whose masks broke one base64 block, and the name left in the next
            # block went unseen (found by reading 5a's output by hand, 4 December)
            views.append((f"file:{enc}", data.decode(enc, errors="replace")))
    pics = []
    for name, b in _members(path):
        t, p = wmf_parts(b)
        views += [(f"{name}:{w}", s) for w, s in t]
        pics += [(f"{name}:{w}", im) for w, im in p]
        pics += [(f"{name}:{w}", im) for w, im in emf_pictures(b)]
        pics += [(f"{name}:{w}", im) for w, im in palette_pictures(b)]
        pics += [(f"{name}:{w}", im) for w, im in inkml_pictures(b)]
        if b[:3] == b"\xff\xd8\xff":                       # thumbnails a file browser shows (JFXX, APP13, Exif)
            pics += [(f"{name}:embedded-jpeg{n}", im) for n, im in enumerate(o4._embedded_jpegs(b))]
        bd = bdo_text(b)
        if bd:
            views.append((f"{name}:w:bdo-display-order", bd))
    if ocr:
        from PIL import ImageOps
        for where, im in pics:
            im = ImageOps.expand(im, 40, fill="white")             # a margin, as on a page
            views.append((f"{where}:ocr", lo.ocr_text(im)))        # at its size (the variants enlarge it)
            views += [(f"{where}:ocr+", t) for t in r2o._ocr_variants(im)]
    return views


# ---------------------------------------------------------------------------------------------- judge
def leaks(path: Path, keys: list[str], values: dict, ocr: bool) -> list[tuple[str, str, str]]:
    """The views above first (they are cheap where they apply), then redteam6_oracle's for the keys left."""
    pats = r6o.patterns(values)
    keys7 = [k for k in keys if k in pats]
    is_pdf = path.read_bytes()[:5] == b"%PDF-"
    found: list = []
    seen: set = set()
    sources = [lambda: views7(path, ocr), lambda: r6o.text_views6(path), lambda: lo.views_of(path, False)]
    r5o.scan((v for src in sources if not all(k in seen for k in keys7) for v in src()), keys7, pats, is_pdf,
             seen, found, readings=readings, find=r6o.find)
    rest = [k for k in keys if k not in seen]
    return found + (r6o.leaks(path, rest, values, ocr) if rest else [])


def judge(d: Path, summary: str, ocr: bool = True) -> list[dict]:
    return r2o.judge(d, summary, ocr, find=leaks)
