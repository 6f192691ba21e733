"""Oracle for the eighth red-team corpus (benchmarks/redteam8.py): redteam7_oracle's views, and more.

Same manifest format and ``judge(d, summary, ocr)`` rows as ``redteam2_oracle.judge``. Every view of
leak_oracle + redteam2..7_oracle is read (imported, not copied: ``redteam7_oracle.leaks`` for the keys the views
below leave, the judging loop ``redteam5_oracle.scan`` with redteam7's readings and redteam6's finder), plus the
views below, written from the format specifications -- none taken from the product's readers, writers or leak
check (Tesseract via leak_oracle.ocr_text aside). A value counts when a careful reader of the published file
sees it or any program recovers it from the file's bytes.
  * HWP 5.0 (a compound file, MS-CFB, opened with olefile): every stream, inflated (raw deflate) where the
    FileHeader says the file is compressed; DocInfo and BodyText records walked: every record's payload as
    UTF-16LE (field command strings, hidden comments, ...) and paragraph text with its 8-WCHAR controls
    removed; the summary property sets (MS-OLEPS) read by olefile; PrvText; BinData pictures and PrvImage
    OCR'd (and their metadata read by redteam6_oracle.picture_parts);
  * mails (a published .eml or any text file that parses as one): every header decoded (RFC 2047), every
    part's parameters with RFC 2231 continuations joined (filename), every text part decoded by its charset
    (ISO-2022-KR included), HTML parts with character references resolved, tags removed and every href;
  * DOCX pictures shown through a DrawingML a:biLevel effect (ECMA-376 20.1.8.13: luminance below the
    threshold black, the rest white) drawn so and OCR'd;
  * scans (a published picture, every frame): a relief view (the picture minus its blur, as raised characters
    show in grazing light, as it is and thresholded), a local-threshold view (ink darker than its
    neighbourhood: faint pencil under uneven light), a descreened view (halftone dots blurred together, contrast stretched) and a
    sharpened view (an unsharp mask over camera shake), OCR'd;
  * readings: dingbat circled digits (❶ ➀ ➊ ⓿ 🄌 ..., which NFKC keeps) read by their Unicode digit value,
    runs of four or more English number words read as digits, " at " / " dot " read as '@' / '.'.
"""
from __future__ import annotations

import email
import email.policy
import html
import io
import re
import unicodedata
import urllib.parse
import zlib
from pathlib import Path

import leak_oracle as lo
import redteam2_oracle as r2o
import redteam4_oracle as o4
import redteam5_oracle as r5o
import redteam6_oracle as r6o
import redteam7_oracle as o7

CFB = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

# ------------------------------------------------------------------------------------------- readings
EN = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
      "seven": "7", "eight": "8", "nine": "9"}
_EN_RUN = re.compile(r"(?i)\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b(?:[\s,\-]+(?:dash|hyphen|"
                     r"zero|oh|one|two|three|four|five|six|seven|eight|nine)\b){3,}")
_AT_WORD = re.compile(r"(?i)\s+(?:at)\s+")
_DOT_WORD = re.compile(r"(?i)\s+(?:dot)\s+")


def _digit_of(c: str) -> str:
    if c.isascii() or unicodedata.normalize("NFKC", c) != c:
        return c
    try:
        v = unicodedata.digit(c)
    except (TypeError, ValueError):
        return c
    return str(v) if 0 <= v <= 9 else c


def readings8(text: str) -> list[tuple[str, str]]:
    out = []
    dg = "".join(_digit_of(c) for c in text)
    if dg != text:
        out.append((" (dingbat digits by their Unicode value)", dg))
    en = _EN_RUN.sub(lambda m: "".join(EN[w.lower()] if w.lower() in EN else "-"
                                       for w in re.findall(r"[A-Za-z]+", m.group())), text)
    if en != text:
        out.append((" (English number words)", en))
    sp = _DOT_WORD.sub(".", _AT_WORD.sub("@", text))
    if sp != text:
        out.append((" (at/dot spelled)", sp))
    return out


def readings(text: str) -> list[tuple[str, str]]:
    return o7.readings(text) + readings8(text)


# ----------------------------------------------------------------------------------------------- HWP
def _records(b: bytes):
    i = 0
    while i + 4 <= len(b):
        h = int.from_bytes(b[i:i + 4], "little")
        i += 4
        sz = h >> 20
        if sz == 0xFFF:
            sz = int.from_bytes(b[i:i + 4], "little")
            i += 4
        yield h & 0x3FF, b[i:i + sz]
        i += sz


_INLINE = set(range(1, 10)) | set(range(11, 13)) | set(range(14, 24))      # 8-WCHAR controls (char ones: 0, 10, 13, 24-31)


def para_text(p: bytes) -> str:
    u = p[:len(p) // 2 * 2].decode("utf-16-le", "replace")
    out, i = [], 0
    while i < len(u):
        c = ord(u[i])
        if c in _INLINE:
            i += 8
            continue
        out.append(u[i] if c >= 32 else "\n")
        i += 1
    return "".join(out)


def hwp_parts(data: bytes) -> tuple[list[tuple[str, str]], list[tuple[str, bytes]]]:
    """(text views, pictures) of an HWP 5.0 compound file."""
    import olefile
    views: list[tuple[str, str]] = []
    pics: list[tuple[str, bytes]] = []
    try:
        o = olefile.OleFileIO(io.BytesIO(data))
    except Exception as e:  # noqa: BLE001 - not a compound file olefile opens
        return [("hwp-unreadable", str(e))], []
    try:
        fh = o.openstream("FileHeader").read() if o.exists("FileHeader") else b""
        compressed = len(fh) >= 40 and bool(fh[36] & 1)
        for path in o.listdir(streams=True, storages=False):
            name = "/".join(path)
            try:
                raw = o.openstream(path).read()
            except Exception:  # noqa: BLE001
                continue
            b = raw
            if compressed and path[0] in ("DocInfo", "BodyText", "BinData", "ViewText", "DocHistory"):
                try:
                    b = zlib.decompressobj(-15).decompress(raw, 200_000_000)
                except Exception:  # noqa: BLE001 - stored as is
                    b = raw
            if path[0] in ("DocInfo", "BodyText", "ViewText"):
                texts, payloads = [], []
                for tag, pl in _records(b):
                    if tag == 0x43:
                        texts.append(para_text(pl))
                    payloads += [pl.decode("utf-16-le", "ignore"), pl[1:].decode("utf-16-le", "ignore")]
                views.append((f"hwp:{name}:paragraph-text", "\n".join(texts)))
                views.append((f"hwp:{name}:record-payloads", "\n".join(payloads)))
            elif path[0] == "BinData" or name in ("PrvImage",):
                pics.append((f"hwp:{name}", b))
                views += [(f"hwp:{name}:{w}", t) for w, t in r6o.picture_parts(name, b)[0]]
            else:
                views += [(f"hwp:{name}", t) for t in (b.decode("utf-16-le", "ignore"), b[1:].decode("utf-16-le", "ignore"),
                                                        b.decode("cp949", "ignore"))]
            if name.startswith("\x05"):
                try:
                    props = o.getproperties(path, convert_time=True)
                    views.append((f"hwp:{name[1:]}:properties", "\n".join(str(v) for v in props.values())))
                except Exception:  # noqa: BLE001
                    pass
    finally:
        o.close()
    return views, pics


# ---------------------------------------------------------------------------------------------- mail
def _html_text(h: str) -> list[str]:
    hrefs = [urllib.parse.unquote(html.unescape(u)) for u in re.findall(r"(?i)\bhref\s*=\s*[\"']([^\"']*)", h)]
    return [html.unescape(re.sub(r"<[^>]*>", "", h)), "\n".join(hrefs)]


def mail_views8(data: bytes) -> list[tuple[str, str]]:
    if not re.search(rb"(?im)^(?:from|to|subject|mime-version|content-type):", data[:4000]):
        return []
    try:
        msg = email.message_from_bytes(data, policy=email.policy.default)
    except Exception:  # noqa: BLE001
        return []
    views = []
    try:
        views.append(("mail:headers", "\n".join(f"{k}: {v}" for k, v in msg.items())))
    except Exception:  # noqa: BLE001
        pass
    for n, part in enumerate(msg.walk()):
        try:
            views.append((f"mail:part{n}:headers", "\n".join(f"{k}: {v}" for k, v in part.items())))
            fn = part.get_filename()
            if fn:
                views.append((f"mail:part{n}:filename (RFC 2231)", fn))
            for k, v in part.get_params() or []:
                views.append((f"mail:part{n}:param {k}", email.utils.collapse_rfc2231_value(v)))
        except Exception:  # noqa: BLE001
            pass
        if part.is_multipart():
            continue
        try:
            body = part.get_content()
        except Exception:  # noqa: BLE001
            body = part.get_payload(decode=True) or b""
        if isinstance(body, bytes):
            views += [(f"mail:part{n}:body", body.decode(e, "ignore")) for e in ("utf-8", "cp949", "iso2022_kr")]
            continue
        if not isinstance(body, str):
            continue
        views.append((f"mail:part{n}:{part.get_content_type()}", body))
        if "html" in part.get_content_type():
            views += [(f"mail:part{n}:html-{w}", t) for w, t in zip(("text", "hrefs"), _html_text(body))]
    return views


# ------------------------------------------------------------------------------------------ pictures
def bilevel_pictures(path: Path) -> list:
    """DOCX/HWPX pictures drawn through a:biLevel as the spec says (luminance < thresh black)."""
    import posixpath
    import zipfile

    from PIL import Image
    out = []
    try:
        z = zipfile.ZipFile(path)
    except Exception:  # noqa: BLE001
        return out
    names = set(z.namelist())
    for part in names:
        if not part.endswith(".xml"):
            continue
        x = z.read(part).decode("utf-8", "ignore")
        if "biLevel" not in x:
            continue
        rels_name = posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")
        rels = z.read(rels_name).decode("utf-8", "ignore") if rels_name in names else ""
        for m in re.finditer(r'(?s)<a:blip\b[^>]*r:embed="([^"]+)"[^>]*>(.*?)</a:blip>', x):
            t = re.search(r'<a:biLevel\b[^>]*thresh="(\d+)"', m.group(2))
            if not t:
                continue
            tgt = re.search(r'<Relationship\b[^>]*Id="%s"[^>]*Target="([^"]+)"' % re.escape(m.group(1)), rels) or \
                re.search(r'<Relationship\b[^>]*Target="([^"]+)"[^>]*Id="%s"' % re.escape(m.group(1)), rels)
            if not tgt:
                continue
            member = posixpath.normpath(posixpath.join(posixpath.dirname(part), tgt.group(1)))
            if member not in names:
                continue
            try:
                im = Image.open(io.BytesIO(z.read(member))).convert("L")
            except Exception:  # noqa: BLE001
                continue
            lim = int(t.group(1)) / 100000 * 255
            out.append((f"{member}:a:biLevel", im.point(lambda v: 0 if v < lim else 255).convert("RGB")))
    return out


def scan_pictures(b: bytes, name: str) -> list:
    """Relief, descreened and sharpened copies of every frame of a picture."""
    import numpy as np
    from PIL import Image, ImageFilter, ImageOps
    out = []
    for n, fr in enumerate(r2o._frames(b)):
        if fr.width < 200 or fr.height < 100:
            continue
        g = fr.convert("L")
        a = np.asarray(g, dtype=np.float32)
        bl = np.asarray(g.filter(ImageFilter.GaussianBlur(6)), dtype=np.float32)
        relief = np.abs(a - bl)
        rel = Image.fromarray((255 - np.clip(relief * 255 / max(1.0, np.percentile(relief, 99.5)), 0, 255)).astype("uint8"))
        out.append((f"{name}:frame{n + 1}:relief", rel.filter(ImageFilter.MedianFilter(3))))
        out.append((f"{name}:frame{n + 1}:relief-thresholded", rel.point(lambda v: 0 if v < 200 else 255)))
        sm = g.filter(ImageFilter.GaussianBlur(1.5))
        a2 = np.asarray(sm, dtype=np.float32)
        bg = np.asarray(sm.filter(ImageFilter.GaussianBlur(25)), dtype=np.float32)
        for k in (8, 14):                                    # ink darker than its neighbourhood by k grey levels
            lt = Image.fromarray(np.where(a2 < bg - k, 0, 255).astype("uint8")).filter(ImageFilter.MedianFilter(3))
            out.append((f"{name}:frame{n + 1}:local-threshold{k}", lt))
        for r in (1.2, 2.0):
            ds = ImageOps.autocontrast(fr.filter(ImageFilter.GaussianBlur(r)).convert("L"), cutoff=1)
            if ds.width < 1200:
                ds = ds.resize((ds.width * 2, ds.height * 2), Image.LANCZOS)
            out.append((f"{name}:frame{n + 1}:descreen{r}", ds))
        sh = ImageOps.autocontrast(g, cutoff=1).filter(ImageFilter.UnsharpMask(radius=6, percent=250, threshold=2))
        out.append((f"{name}:frame{n + 1}:sharpened", sh))
    return [(w, im.convert("RGB")) for w, im in out]


# ----------------------------------------------------------------------------------------------- views
def views8(path: Path, ocr: bool) -> list[tuple[str, str]]:
    data = path.read_bytes()
    views: list[tuple[str, str]] = []
    pics: list = []
    if data[:8] == CFB:
        t, p = hwp_parts(data)
        views += t
        for name, b in p:
            pics += [(f"{name}:frame{n + 1}", fr) for n, fr in enumerate(r2o._frames(b))]
    elif data[:2] != b"PK" and data[:5] != b"%PDF-" and r6o.end_of_picture(data) is None and data[:2] not in (b"II", b"MM"):
        views += mail_views8(data)
        if b"\x1b$)C" in data:
            views.append(("file:iso-2022-kr", data.decode("iso2022_kr", "ignore")))
    elif data[:2] == b"PK":
        pics += bilevel_pictures(path)
    if ocr:
        if data[:2] != b"PK" and data[:5] != b"%PDF-" and data[:8] != CFB:
            pics += scan_pictures(data, "image")
        from PIL import ImageOps
        for where, im in pics:
            im = ImageOps.expand(im, 40, fill="white")
            views.append((f"{where}:ocr", lo.ocr_text(im)))
            views += [(f"{where}:ocr+", t) for t in r2o._ocr_variants(im)]
    return views


# ---------------------------------------------------------------------------------------------- judge
def leaks(path: Path, keys: list[str], values: dict, ocr: bool) -> list[tuple[str, str, str]]:
    """The views above first, then redteam7_oracle's (which runs redteam6's) for the keys left."""
    pats = r6o.patterns(values)
    keys8 = [k for k in keys if k in pats]
    is_pdf = path.read_bytes()[:5] == b"%PDF-"
    found: list = []
    seen: set = set()
    r5o.scan((v for v in views8(path, ocr)), keys8, pats, is_pdf, seen, found, readings=readings, find=r6o.find)
    rest = [k for k in keys if k not in seen]
    if rest:
        # the earlier views, read with this batch's readings too (dingbat digits, number words in plain text)
        more: list = []
        r5o.scan((v for src in (lambda: r6o.text_views6(path), lambda: lo.views_of(path, False)) for v in src()),
                 rest, pats, is_pdf, seen, more, readings=readings, find=r6o.find)
        found += more
        rest = [k for k in keys if k not in seen]
    return found + (o7.leaks(path, rest, values, ocr) if rest else [])


def judge(d: Path, summary: str, ocr: bool = True) -> list[dict]:
    """redteam2_oracle.judge; an .hwp whose output was written as masked text (``a.hwp.txt``) is judged there."""
    import json
    rows = r2o.judge(d, summary, ocr, find=leaks)
    man = json.loads((d / "manifest.json").read_text(encoding="utf-8"))
    for row in rows:
        alt = d / "out" / (row["file"] + ".txt")
        if row["status"] == "ok" and not (d / "out" / row["file"]).exists() and alt.exists():
            row["leaks"] = leaks(alt, row["values"], man["values"], ocr) if row["values"] else []
            row["verdict"] = ("LEAK" if row["leaks"] else "clean") if row["values"] else "clean"
    return rows
