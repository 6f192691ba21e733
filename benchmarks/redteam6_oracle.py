"""Oracle for the sixth red-team corpus (benchmarks/redteam6.py): redteam5_oracle's views, and more.

Same manifest format and ``judge(d, summary, ocr)`` rows as ``redteam2_oracle.judge``. Every view of
leak_oracle + redteam2/3/4/5_oracle is read (imported, not copied: their view functions, and the judging loop
``redteam5_oracle.scan``), plus the views below, written from the format specifications -- none taken from
the product's readers, writers or leak check (Tesseract via leak_oracle.ocr_text aside). A value counts when
a careful reader of the published file sees it or any program recovers it from the file's bytes.
  * key ``NAME_EN`` (a romanised name, "SURNAME GIVEN"): the given name, or the surname and the first two
    letters of the given name (two syllables), separators removed (LIM,DOYUN in two CSV columns -> limdoyun);
  * the e-mail rule (>= 4 letters of the local part) no longer counts a 4-letter window inside a longer,
    different ASCII word (``pine`` in ``opf:spine``, ``elim`` in ``delimiter``): the matched letters must run
    on to 5+ letters of the local part or stand between non-letters;
  * hash-like tokens (>= 32 hex characters, e.g. xmp.did:<md5>) are blanked unless they hold 7 digits in a
    row: a 4-digit run of a random hex id is chance, not a surviving number;
  * readings: Sino-Korean digit words mixed with digits in one token (공1ㅇ 98구9: ㅇ for 0), O/o and l/I for 0
    and 1 in a token of digits, 쩜/점/닷 for '.', 앳/골뱅이 for '@', Excel scientific numbers (8.90613E+12 ->
    890613: only the digits the round trip kept);
  * text files: RFC 2047 encoded-words (ks_c_5601-1987 = CP949), the whole file as quoted-printable (soft
    line breaks removed), every base64 block (over lines) as CP949 and UTF-8, MIME parts decoded (email);
  * packages (DOCX/HWPX, every member): every XML text node and every attribute value; bibliography sources
    (b:Person Last+First, every field); ECMA-376 17.8.1 obfuscated fonts (first 32 bytes XORed with the
    w:fontKey GUID, then the 'name' table); DEVMODE(W) printer settings (device and form names, driver
    private bytes as UTF-16LE and as ASCII/CP949);
  * pictures (a published image, every member): TIFF/Exif IFDs walked (IFD chain, Exif, GPS, Interop,
    SubIFDs 330): XP* tags UTF-16LE, UserComment by its 8-byte charset prefix, every text tag; SubIFD
    images decoded; JPEG APP segments (XMP, ExtendedXMP reassembled by GUID and offset, COM, APPn);
    WebP RIFF chunks (EXIF, XMP, every ANMF frame decoded alone, every frame as composited); GIF89a blocks
    (Plain Text Extension sub-blocks, comment, application extensions, XMP raw packet); PNG ancillary
    chunks; the bytes after the end of a BMP (bfSize / pixel array), PNG (IEND), JPEG (EOI), GIF (trailer),
    WebP (RIFF size) and every picture embedded in them; an alpha picture's colour values ignoring alpha;
  * PDFs: every object body in the file (every revision, not only the latest xref's): every string (literal
    and hex, UTF-16BE/UTF-8/PDFDocEncoding) of the dictionaries and of the decoded streams (/V /DV /T
    /PageLabels, /AP forms, /Metadata XMP); /InkList strokes drawn (lines and even-odd fill) and OCR'd;
    images with a /Mask colour-key range applied (the painted pixels only) and OCR'd; Type 0 sampled
    functions of two inputs (ShadingType 1 rasters) drawn and OCR'd; every earlier revision (the bytes up
    to each %%EOF) opened on its own: page text, metadata, pages rendered and OCR'd; every revision, the latest
    too, rendered with pdfium's form environment (widget appearance streams drawn, as a form viewer shows them);
  * scans: the picture mirrored with faint ink kept and mirrored with its contrast stretched (a back side
    bleeding through), a marker-dark band
    thresholded off (ink darker than the marker), and vertical strips (bent rows read in short pieces).
"""
from __future__ import annotations

import base64
import email
import email.policy
import io
import quopri
import re
import struct
import zipfile
import zlib
from pathlib import Path

import leak_oracle as lo
import redteam2_oracle as r2o
import redteam3_oracle as r3o
import redteam4_oracle as o4
import redteam5_oracle as r5o

KEYS6 = ("NAME_EN",)


# --------------------------------------------------------------------------------------- rules / readings
def patterns(values: dict) -> dict:
    pats = r5o.patterns(values)
    if "NAME_EN" in values:
        surname, given = lo.norm(values["NAME_EN"].split()[0]), lo.norm("".join(values["NAME_EN"].split()[1:]))
        pats["NAME_EN"] = [("sub", given), ("sub", surname + given[:2])]
    if "EMAIL" in values:
        pats["EMAIL"] = [("email", lo.norm(values["EMAIL"].split("@")[0]))]
    return pats


def _ascii_letter(c: str) -> bool:
    return c.isascii() and c.isalpha()


def find(pats: list, text: str) -> str | None:
    """leak_oracle.find, and the e-mail rule with word boundaries (see the module docstring)."""
    if not pats or pats[0][0] != "email":
        return lo.find(pats, text)
    local = pats[0][1]
    for i in range(len(local) - 3):
        w = local[i:i + 4]
        for m in re.finditer(re.escape(w), text):
            a, b, la, lb = m.start(), m.end(), i, i + 4
            while a > 0 and la > 0 and text[a - 1] == local[la - 1]:
                a, la = a - 1, la - 1
            while b < len(text) and lb < len(local) and text[b] == local[lb]:
                b, lb = b + 1, lb + 1
            free = (a == 0 or not _ascii_letter(text[a - 1])) and (b == len(text) or not _ascii_letter(text[b]))
            if b - a >= 5 or free:
                return text[max(0, a - 25): b + 25]
    return None


_HASH = re.compile(r"[0-9a-fA-F]{32,}")
WORD_DIGITS = {**r3o.DIGIT_WORDS, "ㅇ": "0", "ᄋ": "0", "o": "0", "O": "0", "l": "1", "I": "1"}
_MIXED = re.compile(r"[0-9공영일이삼사오육륙칠팔구ㅇᄋ]+")
_LOOK = re.compile(r"[0-9OoIl|]+")
_SCI = re.compile(r"(\d)[.,](\d+)[eE]\+?\d{1,2}\b")
_AT = re.compile(r" ?(?:앳|골뱅이|골뱅) ?")
_DOT = re.compile(r" ?(?:쩜|닷) ?|(?<=[A-Za-z]) ?점 ?(?=[A-Za-z])")


def _dehash(t: str) -> str:
    return _HASH.sub(lambda m: m.group() if re.search(r"\d{7}", m.group()) else " ", t)


def readings6(text: str) -> list[tuple[str, str]]:
    out = []
    mixed = _MIXED.sub(lambda m: "".join(WORD_DIGITS.get(c, c) for c in m.group())
                       if re.search(r"\d", m.group()) and re.search(r"\D", m.group()) else m.group(), text)
    mixed = _LOOK.sub(lambda m: "".join(WORD_DIGITS.get(c, "1" if c == "|" else c) for c in m.group())
                      if len(re.findall(r"\d", m.group())) >= 2 else m.group(), mixed)
    if mixed != text:
        out.append((" (digit words/ㅇ/O,l mixed with digits)", mixed))
    spelled = _DOT.sub(".", _AT.sub("@", text))
    if spelled != text:
        out.append((" (쩜/앳 spelled e-mail)", spelled))
    sci = _SCI.sub(lambda m: m.group(1) + m.group(2), text)
    if sci != text:
        out.append((" (Excel scientific number: the digits kept)", sci))
    return out


def readings(text: str) -> list[tuple[str, str]]:
    text = _dehash(text)
    base = o4.readings(text)
    return base + [(l1 + l2, t2) for l1, t1 in base for l2, t2 in r5o.readings5(t1) + readings6(t1)]


# ------------------------------------------------------------------------------------------- helpers
def decodings(b: bytes) -> list[str]:
    outs = []
    for enc in ("utf-8", "cp949", "utf-16-le", "utf-16-be"):
        outs.append(b.decode(enc, errors="ignore"))
    outs.append(b[1:].decode("utf-16-le", errors="ignore"))
    outs.append(b.decode("latin-1"))
    return outs


def members(path: Path) -> list[tuple[str, bytes]]:
    data = path.read_bytes()
    if data[:2] != b"PK":
        return [("file", data)]
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        return [(i.filename, z.read(i)) for i in z.infolist()]
    except Exception:  # noqa: BLE001 - not a readable ZIP
        return [("file", data)]


def xml_nodes(b: bytes) -> str | None:
    """Every text node and every attribute value of an XML part, one per line (None: not XML)."""
    import xml.etree.ElementTree as ET
    try:
        root = ET.fromstring(b)
    except Exception:  # noqa: BLE001
        return None
    out = []
    for el in root.iter():
        out += [v for v in el.attrib.values()]
        out += [t for t in (el.text, el.tail) if t and t.strip()]
    return "\n".join(out)


def bibliography(b: bytes) -> str | None:
    """b:Sources (ECMA-376 bibliography): each source's fields, a person as 'Last First' and 'First Last'."""
    import xml.etree.ElementTree as ET
    if b"bibliography" not in b:
        return None
    try:
        root = ET.fromstring(b)
    except Exception:  # noqa: BLE001
        return None
    out = []
    for el in root.iter():
        if el.tag.endswith("}Person"):
            f = {c.tag.split("}")[-1]: (c.text or "") for c in el}
            out += [f.get("Last", "") + f.get("First", "") + f.get("Middle", ""),
                    f.get("First", "") + " " + f.get("Last", "")]
        elif len(el) == 0 and el.text:
            out.append(el.text)
    return "\n".join(out)


# ----------------------------------------------------------------------------------- fonts, DEVMODE
def sfnt_names(f: bytes) -> list[str]:
    """Every string of the 'name' table of an sfnt (TrueType/OpenType) font."""
    try:
        from fontTools.ttLib import TTFont
        return [n.toUnicode() for n in TTFont(io.BytesIO(f), lazy=True)["name"].names]
    except ImportError:
        pass
    except Exception:  # noqa: BLE001 - not a font fontTools reads
        return []
    out = []
    try:
        n = struct.unpack(">H", f[4:6])[0]
        for i in range(n):
            tag, _, off, ln = struct.unpack(">4sIII", f[12 + 16 * i: 28 + 16 * i])
            if tag != b"name":
                continue
            t = f[off:off + ln]
            count, soff = struct.unpack(">HH", t[2:6])
            for j in range(count):
                pid, _, _, _, sl, so = struct.unpack(">HHHHHH", t[6 + 12 * j: 18 + 12 * j])
                s = t[soff + so: soff + so + sl]
                out.append(s.decode("utf-16-be", "ignore") if pid in (0, 3) else s.decode("mac_roman", "ignore"))
    except Exception:  # noqa: BLE001
        pass
    return out


SFNT = (b"\x00\x01\x00\x00", b"OTTO", b"true", b"ttcf")


def deobfuscated(f: bytes, keys: list[str]) -> bytes | None:
    """ECMA-376 Part 1 17.8.1: the first 32 bytes XORed with the 16-byte key made of the GUID's hex digits
    read from the end (also tried in written order)."""
    for k in keys:
        h = bytes.fromhex(re.sub(r"[^0-9A-Fa-f]", "", k))
        for key in (h[::-1], h):
            g = bytes(c ^ key[i % 16] for i, c in enumerate(f[:32])) + f[32:]
            if g[:4] in SFNT:
                return g
    return None


def devmode(b: bytes) -> list[str]:
    """DEVMODEW (wingdi.h): dmDeviceName (32 WCHAR), dmSize at 68, dmDriverExtra at 70, dmFormName at 102;
    the driver-private bytes after dmSize read as UTF-16LE (both alignments), ASCII and CP949."""
    if len(b) < 156:
        return []
    size, extra = struct.unpack("<HH", b[68:72])
    if size not in (148, 156, 188, 220) or size + extra > len(b):
        return []
    priv = b[size:size + extra]
    out = [b[:64].decode("utf-16-le", "ignore"), b[102:166].decode("utf-16-le", "ignore") if size >= 166 else ""]
    out += [priv.decode("utf-16-le", "ignore"), priv[1:].decode("utf-16-le", "ignore"),
            re.sub(rb"[^\x20-\x7e]+", b" ", priv).decode(), priv.decode("cp949", "ignore")]
    return [t.replace("\0", " ") for t in out]


# --------------------------------------------------------------------------------------- picture formats
def tiff_ifds(t: bytes):
    """(ifd label, tag, type, count, value bytes, byte order) for every entry of every IFD of a TIFF/Exif
    block: the IFD chain and the Exif (34665), GPS (34853), Interop (40965) and SubIFDs (330) IFDs."""
    if t[:2] not in (b"II", b"MM"):
        return
    o = "<" if t[:2] == b"II" else ">"
    size = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8}
    todo, seen = [("ifd0", struct.unpack(o + "I", t[4:8])[0])], set()
    while todo:
        label, off = todo.pop(0)
        if off in seen or not 8 <= off < len(t) - 2:
            continue
        seen.add(off)
        n = struct.unpack(o + "H", t[off:off + 2])[0]
        for i in range(min(n, 1000)):
            e = t[off + 2 + 12 * i: off + 14 + 12 * i]
            if len(e) < 12:
                break
            tag, typ, cnt = struct.unpack(o + "HHI", e[:8])
            ln = size.get(typ, 1) * cnt
            val = e[8:8 + ln] if ln <= 4 else t[struct.unpack(o + "I", e[8:12])[0]:][:ln]
            yield label, tag, typ, cnt, val, o
            if tag in (34665, 34853, 40965, 330) and typ in (4, 13):
                todo += [(f"{label}/{tag}", v) for v in struct.unpack(o + "%dI" % (len(val) // 4), val[:len(val) // 4 * 4])]
        nxt = t[off + 2 + 12 * n: off + 6 + 12 * n]
        if len(nxt) == 4:
            todo.append((label + "+", struct.unpack(o + "I", nxt)[0]))


def exif_texts(t: bytes) -> list[tuple[str, str]]:
    out = []
    for label, tag, typ, _, val, o in tiff_ifds(t):
        if typ not in (1, 2, 7):
            continue
        where = f"exif:{label}:{tag}"
        if 0x9C9B <= tag <= 0x9C9F:                                        # XPTitle .. XPSubject: UCS-2 LE
            out.append((where + ":utf-16-le", val.decode("utf-16-le", "ignore")))
        elif tag == 0x9286:                                                  # UserComment: 8-byte charset code
            code, body = val[:8], val[8:]
            if code.startswith(b"UNICODE"):
                first = "utf-16-le" if o == "<" else "utf-16-be"
                out += [(where + ":unicode", body.decode(e, "ignore")) for e in (first, "utf-16-le", "utf-16-be")]
            elif code.startswith(b"JIS"):
                out += [(where + ":jis", body.decode(e, "ignore")) for e in ("shift_jis", "euc_jp", "iso2022_jp")]
            else:
                out += [(where, s) for s in decodings(body)]
        else:
            out += [(where, s) for s in decodings(val)[:3]]
    return out


def subifd_images(t: bytes) -> list:
    """The images of the SubIFDs (330) of a TIFF: the header pointed at each sub-IFD and decoded."""
    from PIL import Image
    out = []
    for label, tag, typ, _, val, o in tiff_ifds(t):
        if tag != 330:
            continue
        for off in struct.unpack(o + "%dI" % (len(val) // 4), val[:len(val) // 4 * 4]):
            try:
                im = Image.open(io.BytesIO(t[:4] + struct.pack(o + "I", off) + t[8:]))
                im.load()
                out.append((f"tiff-subifd@{off}", im.convert("RGB")))
            except Exception:  # noqa: BLE001
                continue
    return out


def jpeg_walk(b: bytes) -> tuple[list[tuple[int, bytes]], int]:
    """(marker, payload) of every marker segment of a JPEG (all scans) and the offset after EOI."""
    segs, i = [], 2
    while i + 4 <= len(b):
        if b[i] != 0xFF:
            i += 1
            continue
        m = b[i + 1]
        if m == 0xFF:
            i += 1
            continue
        if m == 0xD9:
            return segs, i + 2
        if 0xD0 <= m <= 0xD7 or m == 0x01:
            i += 2
            continue
        ln = struct.unpack(">H", b[i + 2:i + 4])[0]
        segs.append((m, b[i + 4:i + 2 + ln]))
        i += 2 + ln
        if m == 0xDA:                                                          # entropy-coded data up to a marker
            while i + 1 < len(b) and not (b[i] == 0xFF and b[i + 1] not in (0x00, *range(0xD0, 0xD8))):
                i += 1
    return segs, len(b)


XMP_STD = b"http://ns.adobe.com/xap/1.0/\x00"
XMP_EXT = b"http://ns.adobe.com/xmp/extension/\x00"


def jpeg_texts(b: bytes) -> list[tuple[str, str]]:
    segs, _ = jpeg_walk(b)
    out, ext = [], {}
    for m, p in segs:
        if m == 0xE1 and p.startswith(b"Exif\x00"):
            out += exif_texts(p[6:])
        elif m == 0xE1 and p.startswith(XMP_STD):
            out += [("jpeg:xmp", t) for t in (xml_nodes(p[len(XMP_STD):]) or "", p[len(XMP_STD):].decode("utf-8", "ignore"))]
        elif m == 0xE1 and p.startswith(XMP_EXT):                              # XMP part 3, 1.1.3.1
            q = p[len(XMP_EXT):]
            guid, full, off = q[:32], *struct.unpack(">II", q[32:40])
            ext.setdefault(guid, {})[off] = q[40:]
        elif 0xE0 <= m <= 0xEF or m == 0xFE:
            out += [(f"jpeg:app{m - 0xE0}" if m != 0xFE else "jpeg:com", t) for t in decodings(p)[:3]]
    for guid, parts in ext.items():
        whole = b"".join(parts[k] for k in sorted(parts))
        out += [(f"jpeg:extended-xmp:{guid.decode('latin-1')}", t)
                for t in (xml_nodes(whole) or "", whole.decode("utf-8", "ignore"))]
    return out


def riff_chunks(b: bytes, start: int = 12, end: int | None = None):
    i, end = start, min(len(b), end or len(b))
    while i + 8 <= end:
        cc, ln = b[i:i + 4], struct.unpack("<I", b[i + 4:i + 8])[0]
        yield cc, b[i + 8:i + 8 + ln]
        i += 8 + ln + (ln & 1)


def webp_parts(b: bytes) -> tuple[list[tuple[str, str]], list]:
    """WebP (RIFF): EXIF and XMP chunk texts; every ANMF frame decoded on its own (its frame data wrapped in
    a RIFF WEBP of its own)."""
    from PIL import Image
    texts, pics = [], []
    for cc, data in riff_chunks(b, 12, 8 + struct.unpack("<I", b[4:8])[0]):
        if cc == b"EXIF":
            texts += exif_texts(data[6:] if data.startswith(b"Exif\x00\x00") else data)
        elif cc == b"XMP ":
            texts.append(("webp:xmp", xml_nodes(data) or data.decode("utf-8", "ignore")))
        elif cc == b"ANMF":
            frame = data[16:]
            chunks = dict((c, d) for c, d in riff_chunks(frame, 0))
            if b"ALPH" in chunks and b"VP8 " in chunks:
                w, h = 1 + int.from_bytes(data[6:9], "little"), 1 + int.from_bytes(data[9:12], "little")
                frame = b"VP8X" + struct.pack("<I", 10) + bytes([0x10, 0, 0, 0]) + (w - 1).to_bytes(3, "little") \
                        + (h - 1).to_bytes(3, "little") + frame
            try:
                im = Image.open(io.BytesIO(b"RIFF" + struct.pack("<I", 4 + len(frame)) + b"WEBP" + frame))
                im.load()
                pics.append((f"webp:anmf{len(pics) + 1}", im.convert("RGB")))
            except Exception:  # noqa: BLE001
                continue
        elif cc not in (b"VP8 ", b"VP8L", b"VP8X", b"ALPH", b"ANIM", b"ICCP"):
            texts += [(f"webp:{cc.decode('latin-1')}", t) for t in decodings(data)[:3]]
    return texts, pics


def gif_walk(b: bytes) -> tuple[list[tuple[str, str]], int]:
    """GIF87a/89a blocks: Plain Text Extension text (its sub-blocks joined), comments, application
    extensions (sub-blocks joined; an XMP one also as the raw packet up to its magic trailer); returns
    the texts and the offset after the trailer (0x3B)."""
    def blocks(i):
        out = b""
        while i < len(b) and b[i]:
            out += b[i + 1:i + 1 + b[i]]
            i += 1 + b[i]
        return out, i + 1
    texts = []
    flags = b[10]
    i = 13 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)
    while i < len(b):
        c = b[i]
        if c == 0x3B:
            return texts, i + 1
        if c == 0x2C:
            f = b[i + 9]
            i += 10 + (3 * 2 ** ((f & 7) + 1) if f & 0x80 else 0) + 1
            _, i = blocks(i)
        elif c == 0x21:
            label = b[i + 1]
            if label == 0x01:
                text, i = blocks(i + 3 + b[i + 2])
                texts += [("gif:plain-text", t) for t in decodings(text)[:2]]
            elif label == 0xFF:
                ident = b[i + 3:i + 14]
                data, j = blocks(i + 14)
                texts += [(f"gif:app:{ident.decode('latin-1')}", t) for t in decodings(data)[:3]]
                if ident == b"XMP DataXMP":
                    end = b.find(b"\x01\xff\xfe", i + 14)
                    raw = b[i + 14:end if end > 0 else len(b)]
                    texts += [("gif:xmp", xml_nodes(raw) or raw.decode("utf-8", "ignore"))]
                    j = (end + 258) if end > 0 else j
                i = j
            else:
                data, i = blocks(i + 2)
                texts += [(f"gif:ext{label:02x}", t) for t in decodings(data)[:3]]
        else:
            break
    return texts, i


def png_walk(b: bytes) -> tuple[list[tuple[str, str]], int]:
    texts, i = [], 8
    while i + 8 <= len(b):
        ln, cc = struct.unpack(">I", b[i:i + 4])[0], b[i + 4:i + 8]
        data = b[i + 8:i + 8 + ln]
        i += 12 + ln
        if cc == b"IEND":
            return texts, i
        if cc == b"eXIf":
            texts += exif_texts(data)
        elif cc in (b"zTXt", b"iTXt"):
            k = data.find(b"\0")
            body = data[k + 1:]
            for cut in (1, 3):
                try:
                    texts += [(f"png:{cc.decode()}", t) for t in decodings(zlib.decompress(body[cut:]))[:2]]
                except Exception:  # noqa: BLE001
                    pass
            texts += [(f"png:{cc.decode()}", t) for t in decodings(data)[:2]]
        elif cc not in (b"IHDR", b"IDAT", b"PLTE", b"tRNS", b"gAMA", b"cHRM", b"sRGB", b"pHYs", b"bKGD", b"iCCP"):
            texts += [(f"png:{cc.decode('latin-1')}", t) for t in decodings(data)[:3]]
    return texts, len(b)


def end_of_picture(b: bytes) -> int | None:
    """Where a picture's own bytes end (by its format), None if not a format known here."""
    try:
        if b[:3] == b"\xff\xd8\xff":
            return jpeg_walk(b)[1]
        if b[:8] == b"\x89PNG\r\n\x1a\n":
            return png_walk(b)[1]
        if b[:6] in (b"GIF87a", b"GIF89a"):
            return gif_walk(b)[1]
        if b[:4] == b"RIFF" and b[8:12] == b"WEBP":
            n = struct.unpack("<I", b[4:8])[0]
            return 8 + n + (n & 1)
        if b[:2] == b"BM":
            bf, off = struct.unpack("<I", b[2:6])[0], struct.unpack("<I", b[10:14])[0]
            w, h = struct.unpack("<ii", b[18:26])
            bpp = struct.unpack("<H", b[28:30])[0]
            pixels_end = off + ((w * bpp + 31) // 32) * 4 * abs(h)
            return min(bf, pixels_end) if bf else pixels_end
    except Exception:  # noqa: BLE001
        return None
    return None


SIGS = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF8", b"BM", b"II*\x00", b"MM\x00*", b"RIFF")


def embedded_pictures(b: bytes, label: str) -> list:
    from PIL import Image
    out = []
    for sig in SIGS:
        for m in re.finditer(re.escape(sig), b):
            try:
                im = Image.open(io.BytesIO(b[m.start():]))
                im.load()
            except Exception:  # noqa: BLE001
                continue
            if im.width >= 20 and im.height >= 8:
                out.append((f"{label}:embedded@{m.start()}", im.convert("RGB")))
    return out


def picture_parts(name: str, b: bytes) -> tuple[list[tuple[str, str]], list]:
    """Texts and pictures of one picture file, read by its format."""
    from PIL import Image, ImageSequence
    texts, pics = [], []
    try:
        if b[:3] == b"\xff\xd8\xff":
            texts += jpeg_texts(b)
        elif b[:8] == b"\x89PNG\r\n\x1a\n":
            texts += png_walk(b)[0]
        elif b[:6] in (b"GIF87a", b"GIF89a"):
            texts += gif_walk(b)[0]
        elif b[:4] == b"RIFF" and b[8:12] == b"WEBP":
            t, p = webp_parts(b)
            texts, pics = texts + t, pics + p
        elif b[:2] in (b"II", b"MM"):
            texts += exif_texts(b)
            pics += subifd_images(b)
    except Exception:  # noqa: BLE001 - a damaged picture: what was read so far
        pass
    end = end_of_picture(b)
    if end is not None and end < len(b) and b[end:].strip(b"\0"):
        tail = b[end:]
        texts += [(f"{name}:after-end@{end}", t) for t in decodings(tail)[:4]]
        pics += embedded_pictures(tail, f"after-end@{end}")
    try:
        im = Image.open(io.BytesIO(b))
        for n, fr in enumerate(ImageSequence.Iterator(im)):
            if getattr(im, "n_frames", 1) > 1:
                pics.append((f"frame{n + 1}", fr.convert("RGB")))
            if fr.mode in ("RGBA", "LA", "PA") or "transparency" in fr.info:
                a = fr.convert("RGBA")
                if a.getchannel("A").getextrema()[0] < 255:
                    pics.append((f"frame{n + 1}:colour-ignoring-alpha", a.convert("RGB")))
    except Exception:  # noqa: BLE001
        pass
    return [(f"{name}:{w}", t) for w, t in texts], [(f"{name}:{w}", p) for w, p in pics]


# ----------------------------------------------------------------------------------------------- PDF
_OBJ_ANY = re.compile(rb"(?s)(?<![0-9])(\d+)\s+(\d+)\s+obj\b(.*?)\bendobj")
_ESC = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def pdf_strings(s: bytes) -> list[bytes]:
    """Every literal (balanced parentheses, escapes) and hex string of a PDF dictionary or content stream."""
    out, i, n = [], 0, len(s)
    while i < n:
        c = s[i:i + 1]
        if c == b"(":
            depth, j, buf = 1, i + 1, bytearray()
            while j < n and depth:
                d = s[j:j + 1]
                if d == b"\\" and j + 1 < n:
                    e = s[j + 1:j + 2]
                    if e in _ESC:
                        buf += _ESC[e]
                        j += 2
                    elif e.isdigit():
                        k = re.match(rb"[0-7]{1,3}", s[j + 1:j + 4])
                        buf.append(int(k.group(), 8) & 255 if k else 0)
                        j += 1 + (len(k.group()) if k else 1)
                    elif e in b"\r\n":
                        j += 2 + (s[j + 1:j + 3] == b"\r\n")
                    else:
                        buf += e
                        j += 2
                    continue
                depth += d == b"("
                depth -= d == b")"
                if depth:
                    buf += d
                j += 1
            out.append(bytes(buf))
            i = j
        elif c == b"<" and s[i + 1:i + 2] != b"<":
            j = s.find(b">", i)
            if j < 0:
                break
            h = re.sub(rb"[^0-9A-Fa-f]", b"", s[i + 1:j])
            out.append(bytes.fromhex((h + b"0" * (len(h) & 1)).decode()))
            i = j + 1
        elif c == b"<":
            i += 2
        else:
            i += 1
    return out


def pdf_text(b: bytes) -> list[str]:
    if b[:2] in (b"\xfe\xff",):
        return [b[2:].decode("utf-16-be", "ignore")]
    if b[:3] == b"\xef\xbb\xbf":
        return [b[3:].decode("utf-8", "ignore")]
    return [b.decode("latin-1"), b.decode("utf-8", "ignore"), b.decode("cp949", "ignore")]


def _inflate(d: bytes, raw: bytes) -> bytes:
    try:
        if b"/FlateDecode" in d or b"/Fl " in d or b"/Fl]" in d:
            return zlib.decompressobj().decompress(raw, 80_000_000)
        if b"/ASCIIHexDecode" in d:
            return bytes.fromhex(re.sub(rb"[^0-9A-Fa-f]", b"", raw.split(b">")[0]).decode())
        if b"/ASCII85Decode" in d:
            return base64.a85decode(raw.strip(), adobe=raw.strip().startswith(b"<~"))
    except Exception:  # noqa: BLE001
        pass
    return raw


def pdf_objects(data: bytes):
    """(number, dictionary bytes, decoded stream or None) for every object body in the file, every revision."""
    for m in _OBJ_ANY.finditer(data):
        body = m.group(3)
        k = re.search(rb"stream\r?\n", body)
        if k and b"endstream" in body[k.end():]:
            d, raw = body[:k.start()], body[k.end():body.rindex(b"endstream")]
            yield int(m.group(1)), d, _inflate(d, raw.rstrip(b"\r\n") if b"/Length" not in d else raw)
        else:
            yield int(m.group(1)), body, None


def pdf_object_texts(data: bytes) -> list[tuple[str, str]]:
    views = []
    for n, d, s in pdf_objects(data):
        strs = pdf_strings(d)
        if s is not None and not re.search(rb"/Subtype\s*/Image|/FunctionType|/Length1|/FontFile", d):
            strs += pdf_strings(s)
            if b"/Metadata" in d or s.lstrip()[:9] == b"<?xpacket":
                views.append((f"pdf-obj{n}:xmp", xml_nodes(s[s.find(b"<x:"):s.rfind(b">") + 1]) or s.decode("utf-8", "ignore")))
        decs = [pdf_text(b) for b in strs]
        for k in range(3):
            t = "\n".join(dd[k] if k < len(dd) else "" for dd in decs)
            if t.strip():
                views.append((f"pdf-obj{n}:strings", t))
    return views


def _numbers(s: bytes) -> list[float]:
    return [float(x) for x in re.findall(rb"-?\d+\.?\d*|-?\.\d+", s)]


def ink_lists(data: bytes) -> list[list[list[tuple[float, float]]]]:
    out = []
    for m in re.finditer(rb"/InkList\s*\[", data):
        depth, j = 1, m.end()
        while j < len(data) and depth:
            depth += data[j:j + 1] == b"["
            depth -= data[j:j + 1] == b"]"
            j += 1
        paths = []
        for s in re.findall(rb"\[([^\[\]]*)\]", data[m.end():j - 1]):
            v = _numbers(s)
            paths.append(list(zip(v[0::2], v[1::2])))
        out.append([p for p in paths if len(p) > 1])
    return out


def draw_ink(paths):
    """The strokes drawn (y up), as lines and as even-odd filled outlines."""
    import numpy as np
    from PIL import Image, ImageDraw
    pts = [p for path in paths for p in path]
    x0, y0, x1, y1 = min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts)
    k = 240 / max(1.0, y1 - y0) if (y1 - y0) < 240 else 1.0
    w, h = int((x1 - x0) * k) + 80, int((y1 - y0) * k) + 80
    tr = [[((x - x0) * k + 40, (y1 - y) * k + 40) for x, y in path] for path in paths]
    lines = Image.new("L", (w, h), 255)
    dr = ImageDraw.Draw(lines)
    fill = np.zeros((h, w), dtype=bool)
    for path in tr:
        dr.line(path, fill=0, width=3)
        m = Image.new("1", (w, h), 0)
        ImageDraw.Draw(m).polygon(path, fill=1)
        fill ^= np.asarray(m, dtype=bool)
    return [("ink-lines", lines.convert("RGB")),
            ("ink-filled", Image.fromarray(np.where(fill, 0, 255).astype("uint8")).convert("RGB"))]


def _dict_num(d: bytes, key: bytes) -> int | None:
    m = re.search(rb"/" + key + rb"\s+(\d+)\b(?!\s+\d+\s+R)", d)
    return int(m.group(1)) if m else None


def pdf_pictures(data: bytes) -> list:
    """Colour-key masked images (only the painted samples), Type 0 sampled functions of two inputs, and
    /InkList strokes, as pictures."""
    import numpy as np
    from PIL import Image
    pics = []
    for n, d, s in pdf_objects(data):
        if s is None:
            continue
        try:
            mk = re.search(rb"/Mask\s*\[([^\]]*)\]", d)
            w, h, bpc = _dict_num(d, b"Width"), _dict_num(d, b"Height"), _dict_num(d, b"BitsPerComponent")
            if mk and w and h and bpc == 8:
                rng = _numbers(mk.group(1))
                comps = 3 if b"/DeviceRGB" in d else (4 if b"/DeviceCMYK" in d else 1)
                a = np.frombuffer(s[:w * h * comps], dtype=np.uint8).reshape(h, w, comps)
                masked = np.all([(a[..., c] >= rng[2 * c]) & (a[..., c] <= rng[2 * c + 1]) for c in range(comps)], axis=0)
                pics.append((f"pdf-obj{n}:colour-key-painted", Image.fromarray(np.where(masked, 255, 0).astype("uint8"))))
            sz = re.search(rb"/Size\s*\[\s*(\d+)\s+(\d+)\s*\]", d)
            if re.search(rb"/FunctionType\s+0\b", d) and sz and _dict_num(d, b"BitsPerSample") == 8:
                fw, fh = int(sz.group(1)), int(sz.group(2))
                if fw * fh <= len(s) and fw >= 20 and fh >= 8:
                    im = Image.frombytes("L", (fw, fh), s[:fw * fh]).transpose(Image.FLIP_TOP_BOTTOM)
                    pics.append((f"pdf-obj{n}:sampled-function", im))
        except Exception:  # noqa: BLE001
            continue
    for i, paths in enumerate(ink_lists(data)):
        if paths:
            pics += [(f"inklist{i + 1}:{lab}", im) for lab, im in draw_ink(paths)]
    return pics


def revisions(data: bytes) -> list[bytes]:
    """Every earlier revision of an incrementally updated PDF: the bytes up to each %%EOF but the last."""
    ends = [m.end() for m in re.finditer(rb"%%EOF[ \t]*\r?\n?", data)]
    return [data[:e] for e in ends if len(data[e:].strip()) > 0]


def revision_views(data: bytes, ocr: bool) -> list[tuple[str, str]]:
    """Every earlier revision opened on its own (metadata, page text, pages rendered and OCR'd), and every
    revision, the latest too, rendered the way a viewer with forms shows it (pdfium's form environment: widget
    appearance streams drawn)."""
    import json

    import pypdfium2 as pdfium
    views = []
    earlier = revisions(data)
    for r, rev in enumerate(earlier + [data], 1):
        latest = r == len(earlier) + 1
        name = "latest" if latest else f"revision{r}"
        try:
            doc = pdfium.PdfDocument(rev)
        except Exception:  # noqa: BLE001
            continue
        try:
            if not latest:
                views.append((f"{name}:metadata", json.dumps(doc.get_metadata_dict(), ensure_ascii=False)))
                for i in range(len(doc)):
                    views.append((f"{name}:page{i + 1}:text", doc[i].get_textpage().get_text_range()))
            if ocr:
                try:
                    doc.init_forms()
                except Exception:  # noqa: BLE001
                    pass
                for i in range(len(doc)):
                    img = doc[i].render(scale=200 / 72, draw_annots=True, may_draw_forms=True).to_pil().convert("RGB")
                    views += [(f"{name}:page{i + 1}:forms:ocr+", t) for t in r2o._ocr_variants(img)]
        finally:
            doc.close()
    return views


# ------------------------------------------------------------------------------------------- text files
_EW = re.compile(r"=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=")
CHARSETS = {"ks_c_5601-1987": "cp949", "ks_c_5601": "cp949", "euc-kr": "cp949", "x-windows-949": "cp949"}


def encoded_words(t: str) -> str:
    def one(m):
        cs = CHARSETS.get(m.group(1).lower(), m.group(1))
        try:
            raw = (base64.b64decode(m.group(3) + "=" * (-len(m.group(3)) % 4)) if m.group(2) in "Bb"
                   else quopri.decodestring(m.group(3).replace("_", " ").encode(), header=True))
            return raw.decode(cs, "ignore")
        except Exception:  # noqa: BLE001
            return m.group()
    return _EW.sub(one, re.sub(r"\?=\s+=\?", "?==?", t))


def mail_views(data: bytes) -> list[tuple[str, str]]:
    """A text file read as a mail: encoded-words, quoted-printable, base64 blocks, MIME parts."""
    t = data.decode("utf-8", "ignore")
    views = [("rfc2047", w) for w in [encoded_words(t)] if w != t]
    q = quopri.decodestring(data.replace(b"\r\n", b"\n"))
    views += [("quoted-printable", q.decode(e, "ignore")) for e in ("utf-8", "cp949")]
    for m in re.finditer(r"(?:[A-Za-z0-9+/]{8,}={0,2}[ \t]*\r?\n?)+", t):
        blk = re.sub(r"\s", "", m.group())
        if len(blk) < 12:
            continue
        try:
            raw = base64.b64decode(blk + "=" * (-len(blk) % 4))
        except Exception:  # noqa: BLE001
            continue
        views += [("base64-block", t) for t in _strict(raw, ("utf-8", "cp949"))]
    try:
        msg = email.message_from_bytes(data, policy=email.policy.compat32)
        for part in msg.walk():
            p = part.get_payload(decode=True)
            if p:
                cs = CHARSETS.get((part.get_content_charset() or "").lower(), part.get_content_charset() or "utf-8")
                views += [("mime-part", p.decode(e, "ignore")) for e in {cs, "cp949", "utf-8"} if _codec(e)]
    except Exception:  # noqa: BLE001
        pass
    return views


def _strict(raw: bytes, encs) -> list[str]:
    """The decodings of ``raw`` that succeed without an error (random base64-looking words decode to none)."""
    out = []
    for e in encs:
        try:
            out.append(raw.decode(e))
        except (UnicodeDecodeError, LookupError):
            pass
    return out


def _codec(e: str) -> bool:
    import codecs
    try:
        codecs.lookup(e)
        return True
    except LookupError:
        return False


# ----------------------------------------------------------------------------------------------- views
def text_views6(path: Path) -> list[tuple[str, str]]:
    data = path.read_bytes()
    if data[:5] == b"%PDF-":
        return pdf_object_texts(data)
    ms = members(path)
    keys = sorted({k.decode() for _, b in ms for k in re.findall(rb'fontKey="(\{[0-9A-Fa-f-]{36}\})"', b)})
    views = []
    for name, b in ms:
        if name == "file" and data[:2] != b"PK" and end_of_picture(b) is None and b[:2] not in (b"II", b"MM"):
            views += mail_views(b)
        x = xml_nodes(b)
        if x is not None:
            views.append((f"{name}:xml-nodes", x))
            bib = bibliography(b)
            if bib:
                views.append((f"{name}:bibliography", bib))
            continue
        f = b if b[:4] in SFNT else deobfuscated(b, keys)
        if f is not None:
            views += [(f"{name}:font-name-table", "\n".join(sfnt_names(f)))]
        views += [(f"{name}:devmode", t) for t in devmode(b)]
        views += picture_parts(name, b)[0]
    return views


def picture_views6(path: Path, ocr: bool) -> list[tuple[str, str]]:
    data = path.read_bytes()
    if data[:5] == b"%PDF-":
        pics = pdf_pictures(data)
        views = revision_views(data, ocr)
    else:
        pics = [p for name, b in members(path) if not name.endswith((".xml", ".rels"))
                for p in picture_parts(name, b)[1]]
        views = []
    if ocr:
        for where, im in pics:
            if im.width >= 20 and im.height >= 8:
                views += [(f"{where}:ocr+", t) for t in r2o._ocr_variants(im)]
    return views


def scan_views(path: Path) -> list[tuple[str, str]]:
    """A published picture read as a scan: mirrored with faint ink kept (a back side bleeding through), ink
    darker than a marker band kept, and vertical strips (rows bent by a bulge read in short pieces)."""
    import numpy as np
    from PIL import Image, ImageFilter, ImageOps
    views = []
    for name, b in o4._pictures(path):
        for n, fr in enumerate(r2o._frames(b)):
            if fr.width < 200 or fr.height < 100:
                continue
            g = fr.convert("L")
            bg = np.asarray(g.filter(ImageFilter.MaxFilter(15)).filter(ImageFilter.GaussianBlur(20)), dtype=np.float32)
            ratio = np.asarray(g, dtype=np.float32) / np.maximum(bg, 1)
            faint = Image.fromarray(np.where((ratio < 0.95) & (ratio > 0.55), 0, 255).astype("uint8"))
            faint = faint.filter(ImageFilter.MedianFilter(3))
            views.append((f"{name}:frame{n + 1}:faint-mirrored:ocr",
                          lo.ocr_text(faint.transpose(Image.FLIP_LEFT_RIGHT).convert("RGB"))))
            mirrored = ImageOps.autocontrast(g, cutoff=1).transpose(Image.FLIP_LEFT_RIGHT)
            views.append((f"{name}:frame{n + 1}:contrast-mirrored:ocr",
                          lo.ocr_text(mirrored.filter(ImageFilter.MedianFilter(3)).convert("RGB"))))
            dark = g.point(lambda v: 0 if v < 45 else 255)
            views.append((f"{name}:frame{n + 1}:below-marker:ocr", lo.ocr_text(dark.convert("RGB"))))
            ac = ImageOps.autocontrast(g, cutoff=2)
            step = max(300, fr.width // 4)
            for x in range(0, max(1, fr.width - step // 2), step // 2):
                strip = ac.crop((x, 0, min(fr.width, x + step), fr.height))
                strip = strip.resize((strip.width * 2, strip.height * 2), Image.LANCZOS)
                views.append((f"{name}:frame{n + 1}:strip@{x}:ocr", lo.ocr_text(strip.convert("RGB"))))
    return views


# ---------------------------------------------------------------------------------------------- judge
def leaks(path: Path, keys: list[str], values: dict, ocr: bool) -> list[tuple[str, str, str]]:
    pats = patterns(values)
    keys = [k for k in keys if k in pats]
    is_pdf = path.read_bytes()[:5] == b"%PDF-"
    found: list = []
    seen: set = set()
    sources = [lambda: text_views6(path), lambda: lo.views_of(path, ocr), lambda: r3o.member_metadata(path),
               lambda: picture_views6(path, ocr)]
    if ocr:
        sources += [lambda: r2o.extra_views(path, True),
                    lambda: r5o.picture_views5(path), lambda: r5o.pdf_views5(path), lambda: r3o.more_ocr(path),
                    lambda: o4.more_pictures(path), lambda: scan_views(path)]
    r5o.scan((v for src in sources if not all(k in seen for k in keys) for v in src()), keys, pats, is_pdf,
             seen, found, readings=readings, find=find)
    return found


def judge(d: Path, summary: str, ocr: bool = True) -> list[dict]:
    return r2o.judge(d, summary, ocr, find=leaks)
