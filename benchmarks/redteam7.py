"""Seventh red-team corpus (issue 26, "keep the red-team corpus honest"): a fresh batch of 18 files, three per
class 1-6 of the issue, written from the file-format specifications (ECMA-376 incl. DrawingML charts and
MS-ODRAWXML ink, MS-EMF, MS-WMF, OWPML, ISO 32000, JFIF 1.02, the Photoshop file format's image resources,
PNG, the ZIP APPNOTE, RFC 2152, RFC 8259, Unicode) and from what a hostile author or a careless office could
do -- never from the product's readers, writers or leak check -- to be measured once at HEAD before anything
is fixed.

    nice .venv/bin/python benchmarks/redteam7.py generate DIR            # DIR/in/* + DIR/manifest.json
    nice .venv/bin/python benchmarks/redteam7.py selfcheck DIR           # the oracle sees every planted value
    nice .venv/bin/python benchmarks/redteam7.py run DIR [--base PATH]   # generate, redact, judge, figures
    nice .venv/bin/python benchmarks/redteam7.py judge DIR [--base PATH] # judge DIR/out again (DIR/summary.txt)

Plumbing is redteam4's (imported, not copied): ``redteam2.redact`` runs the CLI of ``--base`` (the embedded
default detector, no review), ``redteam4.write_corpus/selfcheck/report/cli`` write the files and print the
verdicts, and ``benchmarks/redteam7_oracle.py`` judges every published output (redteam6_oracle's views plus
the views the tricks below need: EMF polygons and WMF records drawn, palette entries told apart, InkML
traces drawn, w:bdo runs read in display order, UTF-7 and JSON escapes decoded, keys typed in the wrong
keyboard mode read back). Verdicts per file: published clean / published LEAK (which value, where) / held
(needs review) / refused; a control (class 6, no personal data) that is not published is a false alarm.

New planted values (a name and its passport romanisation, an RRN and a foreigner registration number with
valid check digits, a phone, an address, an e-mail, a bank account, a passport number M + 8 digits; no
4-digit run shared between any two of them nor with the values of adversarial_corpus, batches 2-6 and the
picture batches, the phone's leading "010" aside). Every trick is new relative to adversarial_corpus,
attack_text_class, redteam2..6, redteam_pictures and redteam_pictures2:
  1 pictures/metadata inside packages: an EMF picture (MS-EMF 2.3.5.31 EMR_POLYPOLYGON16, black stock
    brush, ALTERNATE fill) whose polygons are the glyph outlines of the values -- a vector picture with no
    text record and no raster; a JPEG whose JFIF APP0 "JFXX" extension (JFIF 1.02, extension code 0x10)
    carries a JPEG thumbnail showing other text than the main image; a JPEG whose Photoshop APP13 image
    resource 0x040C (thumbnail resource, 28-byte header + JFIF) shows the passport page; an indexed PNG
    (PNG 11.2.3 PLTE) whose text pixels use a palette entry with exactly the paper's colour -- invisible as
    shown, recovered by anyone who edits one palette entry; HWPX: a WMF picture (MS-WMF, placeable header)
    whose META_EXTTEXTOUT records hold CP949 text (HANGUL_CHARSET font) and whose META_DIBSTRETCHBLT record
    embeds a device-independent bitmap showing the e-mail;
  2 hidden places / attribute values: a chart whose c:externalData (ECMA-376 21.2.2.63) embeds the source
    workbook (embeddings/*.xlsx: the applicant list in its shared strings) while the chart cache shows only
    counts; a ZIP Info-ZIP Unicode Path extra field (APPNOTE 4.6.9, 0x7075) naming a picture member after
    the applicant (what unzip and 7-Zip extract it as); a run of w:bdo w:val="rtl" (17.3.2.3) storing the
    phone and RRN reversed so that Word shows them in order; handwriting as an ink content part
    (w14:contentPart -> InkML traces, MS-ODRAWXML) with no fallback picture; HWPX: text only in the
    hp:default branch of an hp:switch (OWPML compatibility switch; hp:case holds other text), a chart part
    (hp:chart -> Chart/chart1.xml, a DrawingML chartSpace) whose series name and categories hold the values,
    a paragraph style name (header.xml hh:style name) holding the address;
  3 PDF ink outside the text layer: a free-form Gouraud-shaded triangle mesh (ShadingType 4, ISO 32000
    8.7.4.5.5) whose triangles tile the glyphs (painted by sh; no text object, no image); an /Indexed image
    (8.6.6.3) whose lookup table sends odd indices to ink and even ones to paper, the samples chosen at
    random from each set (the raw samples are noise); an image XObject whose /Alternates entry (8.9.5.4)
    gives a /DefaultForPrinting image with other text than the screen one; a push button's caption
    (/MK /CA, 12.5.6.19, no /AP, NeedAppearances) and a rich-text field value (/RV, 12.7.3.4) that differs
    from /V; a signature dictionary (12.8.1: /Name, /Location, /ContactInfo) shown in a viewer's signature
    panel, a combo box option (/Opt) not selected, a link annotation's mailto: /URI;
  4 scans OCR reads badly: a pink NCR carbon copy of a handwritten form (blue carbon, every character
    jittered, smudged and speckled); a phone photo of an LCD screen (RGB sub-pixel stripes, moire bands,
    perspective, vignetting); a third-generation photocopy of an ID card with a holographic overlay and lamp
    glare;
  5 text the detector does not read: a UTF-7 memo (RFC 2152, with its +/v8- signature; the digits and the
    e-mail too are in modified base64, which rule 1 allows); a JSON API response saved as .txt with RFC 8259
    \\u escapes for the Hangul, the digits and the '@'; Korean typed with the IME left in English mode
    (두벌식 keys: 봉채린 -> qhdcofls), the phone typed with Shift held (US layout: )!)-&$&$-%!&^) and the
    passport letter typed in Korean mode (ㅡ for M);
  6 controls: a DOCX with an EMF chart, a JFXX thumbnail and a Photoshop thumbnail of the same photo, an
    indexed PNG with a duplicated palette entry, a chart with its workbook, an ink check mark, a w:bdo run
    of Latin text; a PDF notice with a mesh-shaded band, an indexed logo with a print /Alternates, a push
    button, a signature by an office, a department combo box and a link; a JSON API response (\\u escapes)
    about public facilities.

Measured once at d427bb0, before anything was fixed (``run /tmp/rt7 --base WORKTREE``, default detector, the
batch CLI, no review; 4 December 19:20 UTC): **5 of 15 published with a leak** (5a: the name left in a UTF-7
block -- the oracle first said 4 of 15: its UTF-7 view decoded strictly and read nothing of an output whose
masks broke a block; found by reading the output by hand, the view fixed to decode as a viewer does and the
same outputs judged again; 2b: a phone stored reversed in
w:bdo rtl, a name as InkML ink with no fallback; 4b: address, account and e-mail on a phone photo of an LCD;
5b: JSON backslash-u escapes; 5c: name and address typed in English keyboard mode, a phone typed with Shift held, the
passport's M typed in Korean mode), 7 published clean, 3 held (1a, 1c, 3a), 0 refused; **1 of 3 controls
held** (6a, the DOCX control).

After the fixes (tuned on these files), at 7af7fd3, 4 December 20:05 UTC: **0 of 15** published with a leak,
11 published clean, 4 held (1a, 1b, 1c, 3a), 0 refused; **1 of 3 controls held** (6a: its chart title is an
EMF drawn as glyph outlines, and metafiles that draw outlines are held since nothing here renders them).
"""
from __future__ import annotations

import base64
import io
import json
import random
import re
import struct
import sys
import zipfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import adversarial_corpus as ac  # noqa: E402  (its values, for the no-shared-run check)
import redteam2 as r2  # noqa: E402  (pictures, escaping, outlines, HWPX parts, the CLI runner)
import redteam3 as r3  # noqa: E402  (DOCX/HWPX/PDF builders)
import redteam4 as r4  # noqa: E402  (rezip/sub, draw_lines, photo, segments, write_corpus/selfcheck/cli)
import redteam5 as r5  # noqa: E402  (values of batch 5, chart reference)
import redteam6 as r6  # noqa: E402  (values of batch 6, glyph contours, fpdf, incremental helpers)
import redteam_pictures as rp  # noqa: E402  (values)
import redteam_pictures2 as rp2  # noqa: E402  (values)
from redteam2 import DECL, NS, canvas, enc, font, xesc  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

NAME = "봉채린"
NAME_EN = "BONG CHAERIN"          # passport romanisation (surname, given name)
RRN = "031128-4398251"            # valid check digit (11 - sum % 11) % 10
FRN = "860513-6899580"            # foreigner registration number, valid check digit (13 - sum % 11) % 10
PHONE = "010-7474-5176"
ADDR = "강원특별자치도 춘천시 퇴계로 218"
EMAIL = "chaerin.bong03@example.net"
ACCOUNT = "047-9641-2314-58"
PASSPORT = "M86288922"
VALUES = {"NAME": NAME, "RRN": RRN, "PHONE": PHONE, "ADDR": ADDR, "EMAIL": EMAIL, "ACCOUNT": ACCOUNT,
          "FRN": FRN, "PASSPORT": PASSPORT, "NAME_EN": NAME_EN}
PLAIN = "이 문서는 11월 민원 접수 현황을 정리한 내부 자료입니다."
rezip, draw_lines, photo, emu = r4.rezip, r4.draw_lines, r4.photo, r6.emu
RT_CHART = "chart"
CT_CHART = r5.CT_CHART


def _check_values() -> None:
    """Check digits valid; no 4-digit run shared between two values or with the earlier batches (the
    phone's "010x" prefix runs aside: every batch's phone starts so)."""
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    for v, k in ((RRN, 11), (FRN, 13)):
        d = v.replace("-", "")
        assert int(d[-1]) == (k - sum(int(a) * b for a, b in zip(d, w)) % 11) % 10, v
    runs: dict[str, str] = {}
    nums = {k: re.sub(r"\D", "", v) for k, v in VALUES.items() if k in ("RRN", "FRN", "PHONE", "ACCOUNT", "PASSPORT")}
    old = [re.sub(r"\D", "", v) for m in (ac, r2, r3, r4, r5, r6, rp, rp2) for v in m.VALUES.values()]
    for k, d in nums.items():
        for i in range(1 if k == "PHONE" else 0, len(d) - 3):
            q = d[i:i + 4]
            assert runs.setdefault(q, k) == k, (q, k, runs[q])
            assert not any(q in o for o in old), (q, k)


# ------------------------------------------------------------------------------------------- class 1
def emf_outlines(lines: list[tuple[str, float, float, float]], w: int = 1600, h: int = 400,
                 extra_polys: list | None = None) -> bytes:
    """An EMF (MS-EMF): header, SELECTOBJECT black brush + null pen, SETPOLYFILLMODE ALTERNATE, one
    EMR_POLYPOLYGON16 of the glyph contours of every (text, x, baseline y, size) in logical pixels (y down),
    EOF. No EMR_EXTTEXTOUTW, no bitmap: the text is only polygons."""
    polys = []
    for text, x, y, size in lines:
        for c in r6.contour_strokes(text, x, 0, size):
            polys.append([(int(round(px)), int(round(y - py))) for px, py in c])
    polys += extra_polys or []
    recs = []
    recs.append(struct.pack("<III", 37, 12, 0x80000004))      # EMR_SELECTOBJECT BLACK_BRUSH
    recs.append(struct.pack("<III", 37, 12, 0x80000008))      # EMR_SELECTOBJECT NULL_PEN
    recs.append(struct.pack("<III", 19, 12, 1))               # EMR_SETPOLYFILLMODE ALTERNATE
    pts = [p for poly in polys for p in poly]
    counts = b"".join(struct.pack("<I", len(p)) for p in polys)
    body = struct.pack("<iiii", 0, 0, w, h) + struct.pack("<II", len(polys), len(pts)) + counts
    body += b"".join(struct.pack("<hh", x, y) for x, y in pts)
    recs.append(struct.pack("<II", 91, 8 + len(body)) + body)          # EMR_POLYPOLYGON16
    recs.append(struct.pack("<IIIII", 14, 20, 0, 16, 20))                # EMR_EOF
    desc = "Microsoft Excel\0Chart\0\0".encode("utf-16-le")
    hdr_len = 108 + len(desc)
    total = hdr_len + sum(len(r) for r in recs)
    hdr = (struct.pack("<II", 1, hdr_len) + struct.pack("<iiii", 0, 0, w, h)
           + struct.pack("<iiii", 0, 0, w * 2646 // 100, h * 2646 // 100)         # .01 mm at 96 dpi
           + struct.pack("<IIIIHHIII", 0x464D4520, 0x10000, total, len(recs) + 1, 1, 0, len(desc) // 2, 108, 0)
           + struct.pack("<ii", 1920, 1080) + struct.pack("<ii", 508, 286)
           + struct.pack("<III", 0, 0, 0)                                        # cbPixelFormat, off, bOpenGL
           + struct.pack("<ii", 508000, 286000))                                 # micrometers
    assert len(hdr) == 108
    return hdr + desc + b"".join(recs)


def jfxx_jpeg(main, thumb) -> bytes:
    """``main`` as a JFIF JPEG whose second APP0 is a JFXX extension (code 0x10) holding ``thumb`` as JPEG."""
    t = enc(thumb.convert("RGB"), "JPEG", quality=85)
    assert len(t) < 65000
    seg = b"JFXX\x00\x10" + t
    j = enc(main.convert("RGB"), "JPEG", quality=86)
    assert j[2:4] == b"\xff\xe0"
    app0_end = 4 + struct.unpack(">H", j[4:6])[0]
    return j[:app0_end] + b"\xff\xe0" + struct.pack(">H", len(seg) + 2) + seg + j[app0_end:]


def photoshop_thumbnail(thumb) -> bytes:
    """An APP13 "Photoshop 3.0" segment with image resource 0x040C (thumbnail): 28-byte header (format 1 =
    kJpegRGB, width, height, widthbytes, total size, compressed size, 24 bits, 1 plane) then JFIF data."""
    t = enc(thumb.convert("RGB"), "JPEG", quality=85)
    wb = (thumb.width * 24 + 31) // 32 * 4
    data = struct.pack(">IIIIIIHH", 1, thumb.width, thumb.height, wb, wb * thumb.height, len(t), 24, 1) + t
    res = b"8BIM\x04\x0c\x00\x00" + struct.pack(">I", len(data)) + data + (b"\x00" if len(data) % 2 else b"")
    body = b"Photoshop 3.0\x00" + res
    assert len(body) < 65000
    return b"\xff\xed" + struct.pack(">H", len(body) + 2) + body


def palette_twin_png(shown: list[str], hidden: list[tuple[str, int]], w: int = 1100, h: int = 330) -> bytes:
    """An indexed PNG: index 0 paper (250, 250, 246), index 1 ink (20, 20, 20) for ``shown``, index 2 the
    paper colour again for ``hidden`` ((text, y) pairs): the hidden lines are painted, in the paper colour."""
    from PIL import Image, ImageDraw
    im = Image.new("P", (w, h), 0)
    im.putpalette([250, 250, 246, 20, 20, 20, 250, 250, 246] + [0, 0, 0] * 253)
    d = ImageDraw.Draw(im)
    for i, t in enumerate(shown):
        d.text((40, 30 + i * 70), t, fill=1, font=font(40))
    for t, y in hidden:
        d.text((40, y), t, fill=2, font=font(40))
    return enc(im, "PNG", optimize=False)


def wmf_picture(texts: list[tuple[str, int, int]], dib_img=None, dib_at=(0, 0), w: int = 1600, h: int = 500) -> bytes:
    """A placeable WMF (MS-WMF 2.3.2.3 META_PLACEABLE + META_HEADER): window org/ext, a HANGUL_CHARSET font
    (META_CREATEFONTINDIRECT), META_SELECTOBJECT, transparent background, one META_EXTTEXTOUT per (text,
    x, y) with the string in CP949, optionally a META_DIBSTRETCHBLT with ``dib_img`` (a 24-bit DIB), EOF."""
    def rec(func: int, params: bytes) -> bytes:
        if len(params) % 2:
            params += b"\0"
        return struct.pack("<IH", 3 + len(params) // 2, func) + params
    face = "굴림".encode("cp949").ljust(32, b"\0")
    logfont = struct.pack("<hhhhhBBBBBBBB", -56, 0, 0, 0, 400, 0, 0, 0, 129, 0, 0, 0, 0) + face
    recs = [rec(0x020B, struct.pack("<hh", 0, 0)), rec(0x020C, struct.pack("<hh", h, w)),
            rec(0x02FB, logfont), rec(0x012D, struct.pack("<H", 0)), rec(0x0102, struct.pack("<H", 1)),
            rec(0x0209, struct.pack("<I", 0))]                                  # SETTEXTCOLOR black
    for t, x, y in texts:
        s = t.encode("cp949")
        recs.append(rec(0x0A32, struct.pack("<hhhH", y, x, len(s), 0) + s + (b"\0" if len(s) % 2 else b"")))
    if dib_img is not None:
        bmp = enc(dib_img.convert("RGB"), "BMP")[14:]
        dw, dh = dib_img.size
        recs.append(rec(0x0B41, struct.pack("<Ihhhhhhhh", 0x00CC0020, dh, dw, 0, 0, dh, dw, dib_at[1], dib_at[0]) + bmp))
    recs.append(struct.pack("<IH", 3, 0))
    body = b"".join(recs)
    maxrec = max(struct.unpack("<I", body[i:i + 4])[0] for i in _wmf_offsets(body))
    header = struct.pack("<HHHIHIH", 1, 9, 0x0300, 9 + len(body) // 2, 1, maxrec, 0)
    words = struct.unpack("<10H", struct.pack("<IHhhhhHI", 0x9AC6CDD7, 0, 0, 0, w, h, 96, 0)[:20])
    chk = 0
    for x in words:
        chk ^= x
    place = struct.pack("<IHhhhhHIH", 0x9AC6CDD7, 0, 0, 0, w, h, 96, 0, chk)
    return place + header + body


def _wmf_offsets(body: bytes):
    i = 0
    while i < len(body):
        yield i
        i += struct.unpack("<I", body[i:i + 4])[0] * 2


def class1() -> list[tuple]:
    """Pictures and picture metadata inside DOCX/HWPX, in containers and records earlier batches did not use."""
    out = []
    # 1a: an EMF whose polygons are the outlines of the name and RRN; a JPEG photo whose JFXX thumbnail
    #     shows the phone and e-mail
    emf = emf_outlines([(f"신청인 {NAME}", 40, 140, 72), (f"주민등록번호 {RRN}", 40, 300, 72)], 1600, 360)
    thumb = draw_lines(canvas(1000, 230, (255, 255, 250)), [f"연락처 {PHONE}", f"메일 {EMAIL}"], px=42, x=30,
                       y0=30, step=90)
    shot = jfxx_jpeg(photo(900, 560, "민원실 전경", seed=71), thumb)
    body = (r3.para(PLAIN) + r3.drawing("rIdE", 1, emu(800), emu(180)) + r3.para("아래는 민원실 사진입니다.")
            + r3.drawing("rIdJ", 2, emu(900), emu(560)) + r3.para("끝."))
    out.append(("1", "a", "c1_emf_polygon_outlines_jfxx_thumbnail.docx", r3.docx(
        body, rels=[("rIdE", "image", "media/image1.emf", False), ("rIdJ", "image", "media/image2.jpeg", False)],
        parts={"word/media/image1.emf": emf, "word/media/image2.jpeg": shot}, defaults={"emf": "image/x-emf"}),
        ["NAME", "RRN", "PHONE", "EMAIL"],
        {"NAME": "EMF EMR_POLYPOLYGON16 glyph outlines", "RRN": "EMF EMR_POLYPOLYGON16 glyph outlines",
         "PHONE": "JFIF APP0 JFXX thumbnail (JPEG)", "EMAIL": "JFIF APP0 JFXX thumbnail (JPEG)"}))

    # 1b: a JPEG whose Photoshop thumbnail resource shows the passport line; an indexed PNG whose account and
    #     FRN lines are painted with a palette entry equal to the paper
    pp = draw_lines(canvas(1000, 230, (236, 240, 250)), [f"PASSPORT No. {PASSPORT}", f"Surname/Given {NAME_EN}"],
                    px=42, x=30, y0=30, step=90)
    scan = r4.with_segments(enc(photo(900, 560, "여권 사본 (흑백)", seed=72), "JPEG", quality=86), photoshop_thumbnail(pp))
    png = palette_twin_png(["환급 신청 확인서", "처리 상태: 접수 완료"],
                           [(f"환급 계좌 {ACCOUNT}", 170), (f"외국인등록번호 {FRN}", 240)])
    body = (r3.para(PLAIN) + r3.drawing("rIdJ", 1, emu(900), emu(560)) + r3.para("환급 신청 확인서:")
            + r3.drawing("rIdP", 2, emu(1100), emu(330)) + r3.para("끝."))
    out.append(("1", "b", "c1_photoshop_thumbnail_palette_twin.docx", r3.docx(
        body, rels=[("rIdJ", "image", "media/image1.jpeg", False), ("rIdP", "image", "media/image2.png", False)],
        parts={"word/media/image1.jpeg": scan, "word/media/image2.png": png}),
        ["PASSPORT", "NAME_EN", "ACCOUNT", "FRN"],
        {"PASSPORT": "Photoshop APP13 resource 0x040C thumbnail", "NAME_EN": "Photoshop APP13 resource 0x040C thumbnail",
         "ACCOUNT": "indexed PNG: palette entry = paper colour", "FRN": "indexed PNG: palette entry = paper colour"}))

    # 1c: HWPX with a WMF picture: CP949 META_EXTTEXTOUT records (name, address) and a DIB (e-mail)
    dib = draw_lines(canvas(1100, 150), [f"회신 {EMAIL}"], px=44, x=40, y0=50)
    wmf = wmf_picture([("민원 접수 확인", 40, 30), (f"신청인 {NAME}", 40, 120), (f"주소 {ADDR}", 40, 210)],
                      dib, (40, 300), 1600, 480)
    out.append(("1", "c", "c1_hwpx_wmf_cp949_text_dib.hwpx", r3.hwpx(
        [r2.hrun(PLAIN), r2.hpic("wmf1", 40000, 11000), r2.hrun("끝.")], bindata={"wmf1.wmf": (wmf, "image/x-wmf")}),
        ["NAME", "ADDR", "EMAIL"],
        {"NAME": "WMF META_EXTTEXTOUT (CP949)", "ADDR": "WMF META_EXTTEXTOUT (CP949)",
         "EMAIL": "WMF META_DIBSTRETCHBLT bitmap"}))
    return out


# ------------------------------------------------------------------------------------------- class 2
XL_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def xlsx(rows: list[list]) -> bytes:
    """A minimal SpreadsheetML workbook: strings in xl/sharedStrings.xml, numbers inline."""
    strings: list[str] = []
    cells = []
    for r, row in enumerate(rows, 1):
        cs = []
        for c, v in enumerate(row):
            ref = f"{chr(65 + c)}{r}"
            if isinstance(v, str):
                if v not in strings:
                    strings.append(v)
                cs.append(f'<c r="{ref}" t="s"><v>{strings.index(v)}</v></c>')
            else:
                cs.append(f'<c r="{ref}"><v>{v}</v></c>')
        cells.append(f'<row r="{r}">{"".join(cs)}</row>')
    sst = (DECL + f'<sst xmlns="{XL_MAIN}" count="{len(strings)}" uniqueCount="{len(strings)}">'
           + "".join(f"<si><t>{xesc(s)}</t></si>" for s in strings) + "</sst>")
    sheet = DECL + f'<worksheet xmlns="{XL_MAIN}"><sheetData>{"".join(cells)}</sheetData></worksheet>'
    wb = (DECL + f'<workbook xmlns="{XL_MAIN}" xmlns:r="{r2.R}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/>'
          '</sheets></workbook>')
    ct = (DECL + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
          '<Default Extension="xml" ContentType="application/xml"/>'
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
          '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
          '</Types>')
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", ct)
        z.writestr("_rels/.rels", r3.rels_xml([("rId1", "officeDocument", "xl/workbook.xml", False)]))
        z.writestr("xl/workbook.xml", wb)
        z.writestr("xl/_rels/workbook.xml.rels", r3.rels_xml([("rId1", "worksheet", "worksheets/sheet1.xml", False),
                                                              ("rId2", "sharedStrings", "sharedStrings.xml", False)]))
        z.writestr("xl/worksheets/sheet1.xml", sheet)
        z.writestr("xl/sharedStrings.xml", sst)
    return b.getvalue()


def bar_chart(title: str, series: str, cats: list[str], vals: list[int], external: bool = True) -> str:
    pts = lambda xs: "".join(f'<c:pt idx="{i}"><c:v>{xesc(str(x))}</c:v></c:pt>' for i, x in enumerate(xs))  # noqa: E731
    return (DECL + f'<c:chartSpace {NS}><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>{xesc(title)}</a:t>'
            '</a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:plotArea><c:layout/><c:barChart>'
            '<c:barDir val="col"/><c:grouping val="clustered"/><c:ser><c:idx val="0"/><c:order val="0"/>'
            f'<c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/>{pts([series])}</c:strCache>'
            '</c:strRef></c:tx>'
            f'<c:cat><c:strRef><c:f>Sheet1!$A$2:$A${1 + len(cats)}</c:f><c:strCache><c:ptCount val="{len(cats)}"/>'
            f'{pts(cats)}</c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2:$B${1 + len(vals)}</c:f>'
            f'<c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="{len(vals)}"/>{pts(vals)}</c:numCache>'
            '</c:numRef></c:val></c:ser><c:axId val="11"/><c:axId val="12"/></c:barChart>'
            '<c:catAx><c:axId val="11"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="b"/>'
            '<c:crossAx val="12"/></c:catAx><c:valAx><c:axId val="12"/><c:scaling><c:orientation val="minMax"/>'
            '</c:scaling><c:axPos val="l"/><c:crossAx val="11"/></c:valAx></c:plotArea></c:chart>'
            + ('<c:externalData r:id="rIdXl"><c:autoUpdate val="0"/></c:externalData>' if external else "")
            + '</c:chartSpace>')


def unicode_path_extra(header_name: str, unicode_name: str) -> bytes:
    """Info-ZIP Unicode Path Extra Field (APPNOTE 4.6.9): 0x7075, version 1, CRC-32 of the header name, UTF-8."""
    data = b"\x01" + struct.pack("<I", zlib.crc32(header_name.encode("ascii"))) + unicode_name.encode("utf-8")
    return struct.pack("<HH", 0x7075, len(data)) + data


def with_unicode_path(pkg: bytes, member: str, unicode_name: str) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(pkg))
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            d = src.read(info)
            zi = zipfile.ZipInfo(info.filename, date_time=(2025, 11, 3, 9, 12, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            if info.filename == member:
                zi.extra = unicode_path_extra(member, unicode_name)
            z.writestr(zi, d)
    return b.getvalue()


INKML = "http://www.w3.org/2003/InkML"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"


def inkml(strokes: list[list[tuple[float, float]]]) -> str:
    """An InkML document (W3C InkML 1.0) as Office writes it: a trace format X Y, one trace per stroke,
    coordinates in himetric (0.01 mm), y down."""
    traces = "".join('<inkml:trace contextRef="#ctx0" brushRef="#br0">'
                     + ", ".join(f"{int(x)} {int(y)}" for x, y in s) + "</inkml:trace>" for s in strokes)
    return (DECL + f'<inkml:ink xmlns:inkml="{INKML}"><inkml:definitions><inkml:context xml:id="ctx0">'
            '<inkml:inkSource xml:id="inkSrc0"><inkml:traceFormat><inkml:channel name="X" type="integer" '
            'max="32767" units="himetric"/><inkml:channel name="Y" type="integer" max="32767" units="himetric"/>'
            '</inkml:traceFormat></inkml:inkSource></inkml:context><inkml:brush xml:id="br0"><inkml:brushProperty '
            'name="width" value="0.05" units="cm"/><inkml:brushProperty name="color" value="#1F3FA0"/>'
            f'</inkml:brush></inkml:definitions>{traces}</inkml:ink>')


def ink_run(rid: str, n: int, cx: int, cy: int) -> str:
    """A w14:contentPart (ink) in an mc:AlternateContent with an empty fallback."""
    return (f'<w:p><w:r><mc:AlternateContent xmlns:mc="{MC}" xmlns:w14="{W14}"><mc:Choice Requires="w14">'
            f'<w14:contentPart bwMode="auto" r:id="{rid}"><w14:nvContentPartPr><w14:cNvPr id="{n}" name="잉크 {n}"/>'
            f'<w14:cNvContentPartPr/></w14:nvContentPartPr><w14:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" '
            f'cy="{cy}"/></w14:xfrm></w14:contentPart></mc:Choice><mc:Fallback/></mc:AlternateContent></w:r></w:p>')


def ink_strokes(text: str, size_pt: float) -> list[list[tuple[float, float]]]:
    """The glyph contours of ``text`` as pen strokes in himetric, y down (1 pt = 35.28 himetric)."""
    k = 35.28
    return [[(x * k, (size_pt - y) * k) for x, y in c] for c in r6.contour_strokes(text, 0, 0, size_pt)]


def bdo(text_reversed: str, label: str) -> str:
    return (f'<w:p><w:r><w:t xml:space="preserve">{xesc(label)} </w:t></w:r><w:bdo w:val="rtl"><w:r><w:t '
            f'xml:space="preserve">{xesc(text_reversed)}</w:t></w:r></w:bdo></w:p>')


def class2() -> list[tuple]:
    """Hidden places of DOCX/HWPX that hold text: nested packages, ZIP fields, display-order tricks, branches."""
    out = []
    # 2a: a chart of monthly counts whose embedded source workbook lists the applicants; a picture member whose
    #     Info-ZIP Unicode Path extra field names it after the applicant and her FRN
    book = xlsx([["월", "접수 건수", "신청인", "연락처", "환급 계좌"], ["9월", 12, NAME, PHONE, ACCOUNT],
                 ["10월", 17, "", "", ""], ["11월", 9, "", "", ""]])
    chart = bar_chart("월별 접수 건수", "접수 건수", ["9월", "10월", "11월"], [12, 17, 9])
    pic = enc(draw_lines(canvas(900, 140, (246, 248, 252)), ["첨부: 신분증 사본 (가림 처리됨)"], px=40, y0=40), "PNG")
    body = (r3.para(PLAIN) + r5.CHART_REF.format(n=1, rid="rIdCh") + r3.para("첨부 자료:")
            + r3.drawing("rIdP", 2, emu(900), emu(140)) + r3.para("끝."))
    data = r3.docx(body, rels=[("rIdCh", RT_CHART, "charts/chart1.xml", False), ("rIdP", "image", "media/image1.png", False)],
                   parts={"word/charts/chart1.xml": chart,
                          "word/charts/_rels/chart1.xml.rels": r3.rels_xml([("rIdXl", "package",
                                                                             "../embeddings/Microsoft_Excel_Worksheet1.xlsx", False)]),
                          "word/embeddings/Microsoft_Excel_Worksheet1.xlsx": book,
                          "word/media/image1.png": pic},
                   overrides={"/word/charts/chart1.xml": CT_CHART},
                   defaults={"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"})
    data = with_unicode_path(data, "word/media/image1.png", f"word/media/{NAME}_외국인등록증_{FRN}.png")
    out.append(("2", "a", "c2_chart_embedded_workbook_zip_unicode_path.docx", data,
                ["NAME", "PHONE", "ACCOUNT", "FRN"],
                {"NAME": "chart c:externalData workbook (sharedStrings); ZIP Unicode Path extra field",
                 "PHONE": "chart c:externalData workbook", "ACCOUNT": "chart c:externalData workbook",
                 "FRN": "ZIP Info-ZIP Unicode Path extra field (0x7075)"}))

    # 2b: the phone and RRN stored reversed inside w:bdo rtl (shown in order); the name handwritten as ink
    #     (w14:contentPart -> word/ink/ink1.xml), no fallback picture
    strokes = ink_strokes(f"서명 {NAME}", 40)
    body = (r3.para(PLAIN) + bdo(PHONE[::-1], "연락처:") + bdo(RRN[::-1], "주민등록번호:") + r3.para("신청인 서명:")
            + ink_run("rIdInk", 3, emu(600), emu(110)) + r3.para("끝."))
    out.append(("2", "b", "c2_bdo_rtl_reversed_ink_contentpart.docx", r3.docx(
        body, rels=[("rIdInk", "customXml", "ink/ink1.xml", False)],
        parts={"word/ink/ink1.xml": inkml(strokes)}, overrides={"/word/ink/ink1.xml": "application/inkml+xml"}),
        ["PHONE", "RRN", "NAME"],
        {"PHONE": "w:bdo rtl (stored reversed)", "RRN": "w:bdo rtl (stored reversed)",
         "NAME": "ink content part (InkML traces), no fallback"}))

    # 2c: HWPX: the RRN only in hp:default of an hp:switch; a chart part whose series name and category hold the
    #     name and phone; a paragraph style named after the address
    sw = ('<hp:run charPrIDRef="0"><hp:switch><hp:case hp:required-namespace="http://www.hancom.co.kr/hwpml/2016/'
          'HwpUnitChar"><hp:t>주민등록번호: (별도 보관)</hp:t></hp:case><hp:default>'
          f'<hp:t>주민등록번호: {RRN}</hp:t></hp:default></hp:switch></hp:run>')
    chart_ctrl = ('<hp:run charPrIDRef="0"><hp:chart id="5" zOrder="1" numberingType="PICTURE" textWrap="TOP_AND_BOTTOM" '
                  'textFlow="BOTH_SIDES" lock="0" dropcapstyle="None" chartIDRef="Chart/chart1.xml">'
                  '<hp:sz width="32000" widthRelTo="ABSOLUTE" height="18000" heightRelTo="ABSOLUTE" protect="0"/>'
                  '<hp:pos treatAsChar="1" affectLSpacing="0" flowWithText="1" allowOverlap="0" holdAnchorAndSO="0" '
                  'vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" vertOffset="0" horzOffset="0"/>'
                  '<hp:outMargin left="0" right="0" top="0" bottom="0"/></hp:chart></hp:run>')
    hchart = bar_chart("담당자별 처리 건수", f"담당 {NAME}", [f"문의 {PHONE}", "처리 완료"], [4, 11], external=False)
    style = (f'<hh:styles itemCnt="2"><hh:style id="0" type="PARA" name="바탕글" engName="Normal" paraPrIDRef="0" '
             'charPrIDRef="0" nextStyleIDRef="0" langID="1042" lockForm="0"/><hh:style id="1" type="PARA" '
             f'name="{xesc("주소-" + ADDR)}" engName="Address" paraPrIDRef="0" charPrIDRef="0" nextStyleIDRef="1" '
             'langID="1042" lockForm="0"/></hh:styles>')
    data = r3.hwpx([r2.hrun(PLAIN), sw, chart_ctrl, r2.hrun("끝.")], extra={"Chart/chart1.xml": hchart})
    data = rezip(data, replace={"Contents/header.xml": r4.sub("</hh:refList>", style + "</hh:refList>")})
    out.append(("2", "c", "c2_hwpx_switch_default_chart_part_style_name.hwpx", data,
                ["RRN", "NAME", "PHONE", "ADDR"],
                {"RRN": "hp:switch hp:default branch", "NAME": "chart part series name (c:tx strCache)",
                 "PHONE": "chart part category (c:cat strCache)", "ADDR": "header.xml hh:style name"}))
    return out


# ------------------------------------------------------------------------------------------- class 3
def ink_raster(lines: list[str], px: int = 60, w: int = 1700, h: int = 260):
    from PIL import Image, ImageDraw
    g = Image.new("L", (w, h), 255)
    d = ImageDraw.Draw(g)
    for i, ln in enumerate(lines):
        d.text((10, 10 + i * int(px * 1.6)), ln, fill=0, font=font(px))
    return g


def mesh_shading(mask, x0: float, y_top: float, k: float, grey: int = 0, box=(595, 842)) -> bytes:
    """A ShadingType 4 stream: two triangles per run of ink pixels (runs of equal columns merged over
    rows) of the boolean array ``mask``; a pixel is ``k`` points; ``grey`` the vertex colour."""
    import numpy as np
    m = np.asarray(mask, dtype=bool)
    rects = []
    open_: dict[tuple[int, int], int] = {}
    for y in range(m.shape[0] + 1):
        row = m[y] if y < m.shape[0] else np.zeros(m.shape[1], dtype=bool)
        d = np.diff(np.concatenate(([0], row.astype(np.int8), [0])))
        starts, ends = np.where(d == 1)[0], np.where(d == -1)[0]
        runs = set(zip(starts.tolist(), ends.tolist()))
        for r in list(open_):
            if r not in runs:
                rects.append((r[0], open_.pop(r), r[1], y))
        for r in runs:
            open_.setdefault(r, y)
    bw, bh = box
    q = lambda v, span: max(0, min(65535, int(round(v / span * 65535))))  # noqa: E731
    data = bytearray()
    for xa, ya, xb, yb in rects:
        X0, X1 = x0 + xa * k, x0 + xb * k
        Y0, Y1 = y_top - ya * k, y_top - yb * k
        for tri in (((X0, Y0), (X1, Y0), (X1, Y1)), ((X0, Y0), (X1, Y1), (X0, Y1))):
            for x, y in tri:
                data += struct.pack(">BHHB", 0, q(x, bw), q(y, bh), grey)
    return r3.stream(b"/ShadingType 4 /ColorSpace /DeviceGray /BitsPerCoordinate 16 /BitsPerComponent 8 "
                     b"/BitsPerFlag 8 /Decode [0 %d 0 %d 0 1] /Filter /FlateDecode" % box, zlib.compress(bytes(data)))


def indexed_scrambled(mask, seed: int, ink=(20, 70), paper=(215, 255)) -> bytes:
    """An /Indexed /DeviceGray 255 image: odd indices look up dark greys, even ones light greys; every
    ink pixel of ``mask`` takes a random odd index, every other pixel a random even one."""
    import numpy as np
    rnd = np.random.default_rng(seed)
    m = np.asarray(mask, dtype=bool)
    lut = bytes(int(rnd.integers(*ink)) if i % 2 else int(rnd.integers(*paper)) for i in range(256))
    idx = rnd.integers(0, 128, m.shape) * 2 + m.astype(np.int64)
    h, w = m.shape
    return r3.stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace [/Indexed /DeviceGray 255 <%s>] "
                     b"/BitsPerComponent 8 /Filter /FlateDecode" % (w, h, lut.hex().upper().encode()),
                     zlib.compress(idx.astype(np.uint8).tobytes()))


def u16(s: str) -> bytes:
    return r6.utf16_hex(s)


def class3() -> list[tuple]:
    """PDF ink that is not in the text layer: meshes, scrambled palettes, print alternates, form and signature
    entries a viewer shows."""
    import numpy as np
    out = []
    vis = b"BT /F1 12 Tf 60 800 Td (Civil petition receipt, November) Tj ET\n"
    # 3a: a triangle mesh tiling the name and RRN; an /Indexed image with a scrambled lookup (phone, e-mail)
    m1 = np.asarray(ink_raster([f"신청인 {NAME}", f"주민등록번호 {RRN}"], px=60, w=1500, h=230)) < 128
    sh = mesh_shading(m1, 50, 760, 0.3)
    m2 = np.asarray(ink_raster([f"연락처 {PHONE}", f"메일 {EMAIL}"], px=44, w=1300, h=170)) < 128
    img = indexed_scrambled(m2, 7)
    cs = vis + b"q /Sh0 sh Q\nq 468 0 0 61 50 560 cm /Im0 Do Q\n"
    pdf = r3.pdf([(cs, f"<< {r2.HELV} /Shading << /Sh0 5 0 R >> /XObject << /Im0 6 0 R >> >>")], [sh, img])
    out.append(("3", "a", "c3_gouraud_mesh_glyphs_indexed_scrambled_lut.pdf", pdf, ["NAME", "RRN", "PHONE", "EMAIL"],
                {"NAME": "ShadingType 4 triangle mesh", "RRN": "ShadingType 4 triangle mesh",
                 "PHONE": "/Indexed image, scrambled lookup", "EMAIL": "/Indexed image, scrambled lookup"}))

    # 3b: a screen image with a /DefaultForPrinting alternate (account, FRN); a push button caption (name); a
    #     rich-text value (address) under a harmless /V
    scr = ink_raster(["민원 접수 안내: 환급 계좌는 별도 통지합니다."], px=44, w=1300, h=90)
    prn = ink_raster([f"환급 계좌 {ACCOUNT}", f"외국인등록번호 {FRN}"], px=44, w=1300, h=170)
    # objects: 5 screen image, 6 print image, 7 button widget, 8 rich text widget
    screen = r3.stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 "
                       b"/Alternates [<< /Image 6 0 R /DefaultForPrinting true >>] /Filter /FlateDecode"
                       % scr.size, zlib.compress(scr.tobytes()))
    prn_o = r3.gray_xobj(prn)
    btn = (b"<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (confirm) /Rect [60 600 360 630] /F 4 /P 3 0 R "
           b"/DA (/Helv 12 Tf 0 g) /MK << /BG [0.9 0.9 0.9] /BC [0 0 0] /CA " + u16(f"신청인 {NAME} 확인") + b" >> >>")
    rv = ('<?xml version="1.0"?><body xmlns="http://www.w3.org/1999/xhtml" xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/" '
          f'xfa:APIVersion="Acrobat:11.0.0" xfa:spec="2.0.2"><p>주소: {xesc(ADDR)}</p></body>')
    tx = (b"<< /Type /Annot /Subtype /Widget /FT /Tx /Ff 33554432 /T (addr) /Rect [60 550 540 575] /F 4 /P 3 0 R "
          b"/DA (/Helv 11 Tf 0 g) /V " + u16("주소: (생략)") + b" /RV " + u16(rv) + b" >>")
    cs = vis + b"q 468 0 0 32 50 700 cm /Im0 Do Q\n"
    pdf = r3.pdf([(cs, f"<< {r2.HELV} /XObject << /Im0 5 0 R >> >>")], [screen, prn_o, btn, tx],
                 catalog_extra="/AcroForm << /Fields [7 0 R 8 0 R] /NeedAppearances true /DA (/Helv 0 Tf 0 g) "
                               f"/DR << {r2.HELV.replace('/F1', '/Helv')} >> >> ")
    pdf = pdf.replace(b"/Contents 4 0 R >>", b"/Contents 4 0 R /Annots [7 0 R 8 0 R] >>", 1)
    out.append(("3", "b", "c3_alternates_print_image_button_caption_richtext.pdf", pdf,
                ["ACCOUNT", "FRN", "NAME", "ADDR"],
                {"ACCOUNT": "image /Alternates /DefaultForPrinting", "FRN": "image /Alternates /DefaultForPrinting",
                 "NAME": "push button /MK /CA caption", "ADDR": "text field /RV rich value (≠ /V)"}))

    # 3c: a signature dictionary (/Name, /Location, /ContactInfo), an unselected combo box option (passport), a
    #     link annotation mailto: URI (e-mail)
    sig = (b"<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /Name " + u16(NAME)
           + b" /Location " + u16(ADDR) + b" /ContactInfo (" + PHONE.encode() + b") /Reason " + u16("본인 확인")
           + b" /M (D:20251103141500+09'00') /ByteRange [0 0 0 0] /Contents <" + b"0" * 64 + b"> >>")
    sigw = b"<< /Type /Annot /Subtype /Widget /FT /Sig /T (sign1) /Rect [360 80 540 130] /F 4 /P 3 0 R /V 5 0 R >>"
    combo = (b"<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (doc) /Rect [60 600 360 625] /F 4 /P 3 0 R "
             b"/DA (/Helv 11 Tf 0 g) /Opt [" + u16("선택하십시오") + b" " + u16(f"여권 {PASSPORT}") + b" "
             + u16("운전면허증") + b"] /V " + u16("선택하십시오") + b" >>")
    link = (b"<< /Type /Annot /Subtype /Link /Rect [60 650 200 670] /Border [0 0 0] /A << /S /URI /URI (mailto:"
            + EMAIL.encode() + b"?subject=receipt) >> >>")
    cs = vis + b"BT /F1 12 Tf 60 655 Td (Contact the office) Tj ET\n"
    pdf = r3.pdf([(cs, f"<< {r2.HELV} >>")], [sig, sigw, combo, link],
                 catalog_extra="/AcroForm << /Fields [6 0 R 7 0 R] /SigFlags 1 /DA (/Helv 0 Tf 0 g) "
                               f"/DR << {r2.HELV.replace('/F1', '/Helv')} >> >> ")
    pdf = pdf.replace(b"/Contents 4 0 R >>", b"/Contents 4 0 R /Annots [6 0 R 7 0 R 8 0 R] >>", 1)
    out.append(("3", "c", "c3_signature_dict_combo_opt_link_uri.pdf", pdf,
                ["NAME", "ADDR", "PHONE", "PASSPORT", "EMAIL"],
                {"NAME": "signature dictionary /Name", "ADDR": "signature dictionary /Location",
                 "PHONE": "signature dictionary /ContactInfo", "PASSPORT": "combo box /Opt (not selected)",
                 "EMAIL": "link annotation /URI mailto:"}))
    return out


# ------------------------------------------------------------------------------------------- class 4
def jitter_text(img, xy, text: str, px: int, fill, rnd: random.Random, fnt=None):
    """``text`` drawn one character at a time, each turned, shifted and scaled a little (a hand's writing)."""
    from PIL import Image, ImageDraw
    x, y = xy
    for ch in text:
        s = int(px * rnd.uniform(0.85, 1.18))
        f = fnt(s) if fnt else font(s)
        if ch == " ":
            x += s // 3
            continue
        box = f.getbbox(ch)
        cw, chh = box[2] + 8, s + 16
        tile = Image.new("L", (cw + 16, chh + 16), 0)
        ImageDraw.Draw(tile).text((8, 4), ch, fill=255, font=f)
        tile = tile.rotate(rnd.uniform(-11, 11), resample=Image.BICUBIC, expand=False)
        layer = Image.new("RGB", tile.size, fill)
        img.paste(layer, (int(x), int(y + rnd.uniform(-8, 8))), tile)
        x += box[2] + rnd.uniform(1, 5)
    return img


def class4() -> list[tuple]:
    """Pictures OCR reads badly: carbon copies, screen photos, copies of copies."""
    import numpy as np
    from PIL import Image, ImageDraw, ImageFilter
    out = []
    rnd = random.Random(74)
    # 4a: a pink NCR carbon copy: printed red form, handwritten entries in blue carbon
    W, H = 1500, 820
    img = Image.new("RGB", (W, H), (246, 214, 222))
    d = ImageDraw.Draw(img)
    d.text((480, 30), "민원 신청서 (부본)", fill=(190, 60, 90), font=font(46))
    for i, lab in enumerate(["성 명", "주민등록번호", "연 락 처"]):
        y = 170 + i * 180
        d.rectangle((60, y, 1440, y + 140), outline=(200, 80, 110), width=3)
        d.line((380, y, 380, y + 140), fill=(200, 80, 110), width=3)
        d.text((90, y + 45), lab, fill=(190, 60, 90), font=font(40))
    layer = Image.new("RGB", (W, H), (255, 255, 255))
    for i, v in enumerate([NAME, RRN, PHONE]):
        jitter_text(layer, (420, 170 + i * 180 + 30), v, 66, (0, 0, 0), rnd)
    ink = np.asarray(layer.convert("L"), dtype=np.float32) / 255
    nr = np.random.default_rng(74)
    # the hand's wobble: a smooth random displacement field (about 3 px)
    dx = np.asarray(Image.fromarray((nr.random((H // 40, W // 40)) * 255).astype("uint8")).resize((W, H), Image.BICUBIC),
                    dtype=np.float32) / 255 * 6 - 3
    dy = np.asarray(Image.fromarray((nr.random((H // 40, W // 40)) * 255).astype("uint8")).resize((W, H), Image.BICUBIC),
                    dtype=np.float32) / 255 * 6 - 3
    yy, xx = np.mgrid[0:H, 0:W]
    ink = ink[np.clip((yy + dy).astype(int), 0, H - 1), np.clip((xx + dx).astype(int), 0, W - 1)]
    ink = np.minimum(ink, 0.55 + 0.45 * np.roll(np.roll(ink, 5, 0), 7, 1))     # the carbon sheet slipped: a ghost
    ink = np.asarray(Image.fromarray((ink * 255).astype("uint8")).filter(ImageFilter.GaussianBlur(2.0)),
                     dtype=np.float32) / 255
    skip = np.asarray(Image.fromarray((nr.random((H // 12, W // 12)) * 255).astype("uint8")).resize((W, H), Image.BICUBIC),
                      dtype=np.float32) / 255
    ink = np.where(skip > 0.72, 1 - (1 - ink) * 0.45, ink)                       # pressure too light: pale patches
    speck = nr.random((H, W)) < 0.006
    ink = np.where(speck, np.minimum(ink, 0.5), ink)
    base = np.asarray(img, dtype=np.float32)
    carbon = np.array([60, 72, 158], dtype=np.float32)
    a = (1 - ink)[..., None] * 0.8
    out_img = Image.fromarray((base * (1 - a) + carbon * a).clip(0, 255).astype("uint8"))
    out.append(("4", "a", "c4_ncr_carbon_copy_handwritten.png", enc(out_img, "PNG"), ["NAME", "RRN", "PHONE"],
                {"NAME": "blue carbon handwriting on pink NCR copy", "RRN": "blue carbon handwriting",
                 "PHONE": "blue carbon handwriting"}))

    # 4b: a phone photo of an LCD screen: sub-pixel stripes, moire, perspective, vignetting
    scr = Image.new("RGB", (1280, 560), (250, 250, 250))
    sd = ImageDraw.Draw(scr)
    sd.rectangle((0, 0, 1280, 60), fill=(40, 90, 160))
    sd.text((20, 12), "민원 관리 시스템 - 신청인 조회", fill="white", font=font(32))
    for i, t in enumerate([f"이메일  {EMAIL}", f"환급 계좌  {ACCOUNT}", f"주소  {ADDR}"]):
        sd.text((40, 110 + i * 140), t, fill=(10, 10, 10), font=font(50))
    big = np.asarray(scr.resize((1280 * 3, 560 * 3), Image.NEAREST), dtype=np.float32)
    stripes = np.zeros((1, 3 * 1280, 3), dtype=np.float32)
    for c in range(3):
        stripes[0, c::3, c] = 1.0
    big = big * (0.35 + 0.65 * stripes)
    yy, xx = np.mgrid[0:big.shape[0], 0:big.shape[1]]
    moire = 0.82 + 0.18 * np.sin((xx * 0.013 + yy * 0.021)) * np.sin(xx * 0.0041 - yy * 0.0017)
    big = big * moire[..., None]
    shot = Image.fromarray(big.clip(0, 255).astype("uint8")).resize((1600, 700), Image.BILINEAR)
    w_, h_ = shot.size
    shot = shot.transform((w_, h_), Image.QUAD, (40, 30, 0, h_, w_, h_ - 20, w_ - 60, 0), Image.BICUBIC,
                          fillcolor=(20, 20, 24))
    vx = (np.linspace(-1, 1, w_)[None, :] ** 2 + np.linspace(-1, 1, h_)[:, None] ** 2)
    vign = 1 - 0.35 * vx
    shot = Image.fromarray((np.asarray(shot, dtype=np.float32) * vign[..., None] * 1.25).clip(0, 255).astype("uint8"))
    out.append(("4", "b", "c4_phone_photo_of_lcd_screen.jpg", enc(shot, "JPEG", quality=82),
                ["EMAIL", "ACCOUNT", "ADDR"],
                {"EMAIL": "photo of an LCD: sub-pixels, moire", "ACCOUNT": "photo of an LCD: sub-pixels, moire",
                 "ADDR": "photo of an LCD: sub-pixels, moire"}))

    # 4c: an ID card (holographic overlay, lamp glare) photocopied three times
    card = Image.new("RGB", (1400, 760), (236, 240, 244))
    cd = ImageDraw.Draw(card)
    cd.rounded_rectangle((30, 30, 1370, 730), radius=40, outline=(90, 110, 140), width=6)
    cd.text((70, 60), "외국인등록증 ALIEN REGISTRATION CARD", fill=(40, 60, 110), font=font(40))
    cd.rectangle((80, 170, 380, 560), fill=(190, 196, 205))
    for i, t in enumerate([f"{FRN}", f"{NAME_EN}", f"PASSPORT {PASSPORT}"]):
        cd.text((430, 200 + i * 130), t, fill=(15, 15, 20), font=font(56))
    arr = np.asarray(card, dtype=np.float32)
    yy, xx = np.mgrid[0:760, 0:1400]
    holo = np.stack([np.sin(xx * 0.03 + yy * 0.05 + k) for k in (0, 2.1, 4.2)], -1) * 60
    glare = np.exp(-(((xx - 900) / 240.0) ** 2 + ((yy - 300) / 110.0) ** 2))[..., None] * 170
    arr = arr + holo + glare
    g = Image.fromarray(arr.clip(0, 255).astype("uint8")).convert("L")
    page = Image.new("L", (1600, 960), 248)
    page.paste(g, (100, 100))
    nrng = np.random.default_rng(76)
    for gen in range(3):
        page = page.rotate(0.6 * (1 if gen % 2 else -1), resample=Image.BICUBIC, fillcolor=250)
        page = page.resize((int(page.width * 0.985), int(page.height * 0.985)), Image.BILINEAR)
        page = page.resize((1600, 960), Image.BILINEAR).filter(ImageFilter.GaussianBlur(1.0))
        a = np.asarray(page, dtype=np.float32) / 255
        a = 255 * a ** 1.5                                                    # each copy darkens the mid-tones
        a = (a - 120) * 1.3 + 120 + nrng.normal(0, 9, a.shape)
        a[:, 300 + 400 * gen: 305 + 400 * gen] -= 45                          # a toner streak per generation
        page = Image.fromarray(a.clip(0, 255).astype("uint8"))
    out.append(("4", "c", "c4_third_generation_copy_id_card_glare.png", enc(page, "PNG"), ["FRN", "NAME_EN", "PASSPORT"],
                {"FRN": "3rd-generation photocopy, hologram + glare", "NAME_EN": "3rd-generation photocopy",
                 "PASSPORT": "3rd-generation photocopy"}))
    return out


# ------------------------------------------------------------------------------------------- class 5
def utf7_all(s: str) -> str:
    """RFC 2152 UTF-7 where every character but spaces and line ends is in a modified-base64 block (rule 1
    lets any character be encoded so; rule 3: spaces and CR/LF stay direct)."""
    out = []
    for part in re.split(r"([ \r\n]+)", s):
        if not part or part.isspace():
            out.append(part)
            continue
        out.append("+" + base64.b64encode(part.encode("utf-16-be")).decode().rstrip("=") + "-")
    return "".join(out)


DUBEOL = {"ㄱ": "r", "ㄲ": "R", "ㄴ": "s", "ㄷ": "e", "ㄸ": "E", "ㄹ": "f", "ㅁ": "a", "ㅂ": "q", "ㅃ": "Q", "ㅅ": "t",
          "ㅆ": "T", "ㅇ": "d", "ㅈ": "w", "ㅉ": "W", "ㅊ": "c", "ㅋ": "z", "ㅌ": "x", "ㅍ": "v", "ㅎ": "g",
          "ㅏ": "k", "ㅐ": "o", "ㅑ": "i", "ㅒ": "O", "ㅓ": "j", "ㅔ": "p", "ㅕ": "u", "ㅖ": "P", "ㅗ": "h", "ㅘ": "hk",
          "ㅙ": "ho", "ㅚ": "hl", "ㅛ": "y", "ㅜ": "n", "ㅝ": "nj", "ㅞ": "np", "ㅟ": "nl", "ㅠ": "b", "ㅡ": "m",
          "ㅢ": "ml", "ㅣ": "l", "ㄳ": "rt", "ㄵ": "sw", "ㄶ": "sg", "ㄺ": "fr", "ㄻ": "fa", "ㄼ": "fq", "ㄽ": "ft",
          "ㄾ": "fx", "ㄿ": "fv", "ㅀ": "fg", "ㅄ": "qt"}
CHO = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
JUNG = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
JONG = ["", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ",
        "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"]
SHIFT_DIGITS = dict(zip("1234567890", "!@#$%^&*()"))


def english_mode(s: str) -> str:
    """The keys a 두벌식 typist presses for ``s`` with the IME left in English mode."""
    out = []
    for ch in s:
        o = ord(ch) - 0xAC00
        if 0 <= o < 11172:
            out.append(DUBEOL[CHO[o // 588]] + DUBEOL[JUNG[o % 588 // 28]] + (DUBEOL[JONG[o % 28]] if o % 28 else ""))
        else:
            out.append(ch)
    return "".join(out)


def class5() -> list[tuple]:
    """Text files whose values a reader of the characters as stored does not see."""
    out = []
    # 5a: a UTF-7 memo, everything but spaces in base64 blocks
    memo = (f"민원 상담 메모\r\n신청인 {NAME}\r\n주민등록번호 {RRN}\r\n연락처 {PHONE}\r\n회신 메일 {EMAIL}\r\n"
            "처리 결과는 11월 20일까지 회신 예정.\r\n")
    txt = "+/v8-" + utf7_all(memo)
    assert txt.encode("ascii").decode("utf-7").lstrip("\ufeff") == memo
    out.append(("5", "a", "c5_utf7_memo_all_base64.txt", txt.encode("ascii"), ["NAME", "RRN", "PHONE", "EMAIL"],
                {k: "UTF-7 modified base64 (RFC 2152)" for k in ("NAME", "RRN", "PHONE", "EMAIL")}))

    # 5b: an API response saved as .txt: \u escapes for Hangul, digits and '@'
    def esc_all(s: str) -> str:
        return "".join(f"\\u{ord(c):04x}" if (not c.isascii() or c.isdigit() or c == "@") else c for c in s)
    rec = (f'{{"status":"OK","count":1,"items":[{{"receiptNo":"R-2025-1103","applicant":"{esc_all(NAME)}",'
           f'"frn":"{esc_all(FRN)}","address":"{esc_all(ADDR)}","email":"{esc_all(EMAIL)}",'
           f'"refundAccount":"{esc_all(ACCOUNT)}","memo":"{esc_all("환급 대상 확인")}"}}]}}\n')
    assert json.loads(rec)["items"][0]["applicant"] == NAME
    out.append(("5", "b", "c5_json_api_response_unicode_escapes.txt", rec.encode("ascii"),
                ["NAME", "FRN", "ADDR", "EMAIL", "ACCOUNT"],
                {k: "JSON \\u escapes (RFC 8259 7)" for k in ("NAME", "FRN", "ADDR", "EMAIL", "ACCOUNT")}))

    # 5c: a chat log typed with the IME in the wrong mode
    street = ADDR.split(" ", 2)[2]
    shifted = "".join(SHIFT_DIGITS.get(c, c) for c in PHONE)
    log = ("[오전 9:02] 민원실: 신청인 성함과 주소 부탁드립니다\n"
           f"[오전 9:03] 고객: {english_mode(NAME)}\n"
           "[오전 9:03] 고객: 앗 한영키 ㅠ\n"
           f"[오전 9:04] 고객: 주소는 춘천시 {english_mode(street)}\n"
           "[오전 9:05] 민원실: 연락처도 남겨 주세요\n"
           f"[오전 9:05] 고객: {shifted}\n"
           f"[오전 9:06] 고객: 여권번호는 ㅡ{PASSPORT[1:]} 입니다\n"
           "[오전 9:07] 민원실: 확인했습니다. 감사합니다.\n")
    out.append(("5", "c", "c5_chat_ime_wrong_mode_shift_digits.txt", log.encode("utf-8"),
                ["NAME", "ADDR", "PHONE", "PASSPORT"],
                {"NAME": "두벌식 keys typed in English mode", "ADDR": "두벌식 keys typed in English mode",
                 "PHONE": "digits typed with Shift (US layout)", "PASSPORT": "M typed in Korean mode (ㅡ)"}))
    return out


# ------------------------------------------------------------------------------------------- class 6
def bar_polys(vals: list[int], x0: int = 100, base: int = 380, bw: int = 120, gap: int = 80) -> list:
    return [[(x0 + i * (bw + gap), base), (x0 + i * (bw + gap) + bw, base), (x0 + i * (bw + gap) + bw, base - v),
             (x0 + i * (bw + gap), base - v), (x0 + i * (bw + gap), base)] for i, v in enumerate(vals)]


def class6() -> list[tuple]:
    """Controls: the same structures holding no personal data."""
    import numpy as np
    out = []
    # 6a: DOCX: EMF chart (polygons + label outlines), JFXX and Photoshop thumbnails of the photo, an indexed PNG
    #     with a duplicated palette entry, a chart with its workbook, an ink check mark, a w:bdo run of Latin text
    emf = emf_outlines([("월별 방문객", 100, 60, 48)], 1000, 420, bar_polys([180, 240, 210]))
    ph = photo(900, 560, "청사 전경", seed=81)
    shot = r4.with_segments(jfxx_jpeg(ph, ph.resize((300, 187))), photoshop_thumbnail(ph.resize((240, 150))))
    png = palette_twin_png(["청사 출입 안내", "본관 출입구 공사: 별관 이용"], [("안내 데스크 09:00 ~ 18:00", 170)])
    book = xlsx([["월", "방문객"], ["9월", 2184], ["10월", 2317], ["11월", 2095]])
    chart = bar_chart("월별 방문객", "방문객", ["9월", "10월", "11월"], [2184, 2317, 2095])
    check = [[(0, 600), (300, 1000), (1000, 0)]]
    body = (r3.para("청사 출입 안내: 본관 출입구 공사 기간에는 별관 출입구를 이용해 주십시오.")
            + r3.drawing("rIdE", 1, emu(1000), emu(420)) + r3.drawing("rIdJ", 2, emu(900), emu(560))
            + r3.drawing("rIdP", 3, emu(1100), emu(330)) + r5.CHART_REF.format(n=4, rid="rIdCh")
            + bdo("ABC", "구역:") + r3.para("확인:") + ink_run("rIdInk", 5, emu(60), emu(60)) + r3.para("끝."))
    out.append(("6", "a", "c6_emf_thumbnails_palette_chart_workbook_ink_bdo.docx", r3.docx(
        body, rels=[("rIdE", "image", "media/image1.emf", False), ("rIdJ", "image", "media/image2.jpeg", False),
                    ("rIdP", "image", "media/image3.png", False), ("rIdCh", RT_CHART, "charts/chart1.xml", False),
                    ("rIdInk", "customXml", "ink/ink1.xml", False)],
        parts={"word/media/image1.emf": emf, "word/media/image2.jpeg": shot, "word/media/image3.png": png,
               "word/charts/chart1.xml": chart,
               "word/charts/_rels/chart1.xml.rels": r3.rels_xml([("rIdXl", "package",
                                                                  "../embeddings/Microsoft_Excel_Worksheet1.xlsx", False)]),
               "word/embeddings/Microsoft_Excel_Worksheet1.xlsx": book, "word/ink/ink1.xml": inkml(check)},
        overrides={"/word/charts/chart1.xml": CT_CHART, "/word/ink/ink1.xml": "application/inkml+xml"},
        defaults={"emf": "image/x-emf", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}),
        [], {}))

    # 6b: PDF notice: a mesh-shaded band, an indexed logo with a print alternate, a push button, a signature by
    #     an office, a department combo box, a link
    band = np.zeros((20, 400), dtype=bool)
    band[4:16, :] = True
    sh = mesh_shading(band, 40, 790, 1.3, grey=120)
    logo = np.asarray(ink_raster(["CIVIC CENTER"], px=48, w=420, h=80)) < 128
    lg = indexed_scrambled(logo, 9)
    lg = lg.replace(b"/FlateDecode", b"/FlateDecode /Alternates [<< /Image 7 0 R /DefaultForPrinting true >>]", 1)
    prn = r3.gray_xobj(ink_raster(["CIVIC CENTER"], px=48, w=420, h=80))
    btn = (b"<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (print) /Rect [60 600 200 630] /F 4 /P 3 0 R "
           b"/DA (/Helv 12 Tf 0 g) /MK << /BG [0.9 0.9 0.9] /CA " + u16("인쇄") + b" >> >>")
    sig = (b"<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /Name " + u16("세종특별자치시 총무과")
           + b" /Location " + u16("세종") + b" /Reason " + u16("원본 확인") + b" /M (D:20251103141500+09'00') "
           b"/ByteRange [0 0 0 0] /Contents <" + b"0" * 64 + b"> >>")
    sigw = b"<< /Type /Annot /Subtype /Widget /FT /Sig /T (sign1) /Rect [360 80 540 130] /F 4 /P 3 0 R /V 9 0 R >>"
    combo = (b"<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (dept) /Rect [60 550 360 575] /F 4 /P 3 0 R "
             b"/DA (/Helv 11 Tf 0 g) /Opt [" + u16("총무과") + b" " + u16("민원과") + b" " + u16("세무과") + b"] /V "
             + u16("민원과") + b" >>")
    link = (b"<< /Type /Annot /Subtype /Link /Rect [60 650 200 670] /Border [0 0 0] /A << /S /URI "
            b"/URI (https://www.example.go.kr/notice/1103) >> >>")
    cs = (b"BT /F1 12 Tf 60 740 Td (Notice: the main entrance is closed for six weeks; use the annex.) Tj ET\n"
          b"BT /F1 12 Tf 60 655 Td (Details on the web site) Tj ET\nq /Sh0 sh Q\nq 210 0 0 40 340 700 cm /Im0 Do Q\n")
    pdf = r3.pdf([(cs, f"<< {r2.HELV} /Shading << /Sh0 5 0 R >> /XObject << /Im0 6 0 R >> >>")],
                 [sh, lg, prn, btn, sig, sigw, combo, link],
                 catalog_extra="/AcroForm << /Fields [8 0 R 10 0 R 11 0 R] /NeedAppearances true /SigFlags 1 "
                               f"/DA (/Helv 0 Tf 0 g) /DR << {r2.HELV.replace('/F1', '/Helv')} >> >> ")
    pdf = pdf.replace(b"/Contents 4 0 R >>", b"/Contents 4 0 R /Annots [8 0 R 10 0 R 11 0 R 12 0 R] >>", 1)
    out.append(("6", "b", "c6_pdf_mesh_indexed_alternates_button_signature_combo.pdf", pdf, [], {}))

    # 6c: an open-data API response with \u escapes about public facilities
    def esc(s: str) -> str:
        return json.dumps(s)[1:-1]
    items = [("시립도서관", "평일 09:00~22:00", 412), ("체육센터", "평일 06:00~21:00", 238), ("청소년수련관", "주말 휴관", 96)]
    rec = ('{"response":{"header":{"resultCode":"00","resultMsg":"' + esc("정상") + '"},"body":{"items":['
           + ",".join(f'{{"facility":"{esc(a)}","hours":"{esc(b)}","seats":{c}}}' for a, b, c in items)
           + '],"totalCount":3}}}\n')
    out.append(("6", "c", "c6_open_data_json_unicode_escapes.txt", rec.encode("ascii"), [], {}))
    return out


# --------------------------------------------------------------------------------------------- driver
def generate(dest: Path) -> list[dict]:
    _check_values()
    return r4.write_corpus(dest, class1() + class2() + class3() + class4() + class5() + class6(), VALUES)


def main(argv: list[str]) -> int:
    import redteam7_oracle as o7
    return r4.cli(argv, generate, o7)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
