"""Sixth red-team corpus (issue 26, "keep the red-team corpus honest"): a fresh batch of 18 files, three per
class 1-6 of the issue, written from the file-format specifications (ECMA-376 incl. bibliography, ActiveX,
chart drawings and obfuscated fonts, MS-OWEXML, OWPML, ISO 32000, WebP/RIFF, XMP part 3, TIFF 6.0 + PageMaker
TIFF notes, GIF89a, BMP, CIPA DC-008, RFC 2045/2047, Unicode) and from what a hostile author or a careless
office could do -- never from the product's readers, writers or leak check -- and measured once at HEAD
before anything is fixed.

    nice .venv/bin/python benchmarks/redteam6.py generate DIR            # DIR/in/* + DIR/manifest.json
    nice .venv/bin/python benchmarks/redteam6.py selfcheck DIR           # the oracle sees every planted value
    nice .venv/bin/python benchmarks/redteam6.py run DIR [--base PATH]   # generate, redact, judge, figures
    nice .venv/bin/python benchmarks/redteam6.py judge DIR [--base PATH] # judge DIR/out again (DIR/summary.txt)

Plumbing is redteam4's (imported, not copied): ``redteam2.redact`` runs the CLI of ``--base`` (the embedded
default detector, no review), ``redteam4.write_corpus/selfcheck/report/cli`` write the files and print the
verdicts, and ``benchmarks/redteam6_oracle.py`` judges every published output (redteam5_oracle's views plus
the views the tricks below need). Verdicts per file: published clean / published LEAK (which value, where) /
held (needs review) / refused; a control (class 6, no personal data) that is not published is a false alarm.

New planted values (a name and its passport romanisation, an RRN and a foreigner registration number with
valid check digits, a phone, an address, an e-mail, a bank account, a passport number M + 8 digits; no
4-digit run shared between any two of them nor with the values of adversarial_corpus and batches 2-5).
Every trick is new relative to adversarial_corpus, attack_text_class, redteam2..5, redteam_pictures and
redteam_pictures2:
  1 pictures/metadata inside packages: an animated WebP (RIFF ANIM/ANMF) whose second frame shows the
    values, a WebP EXIF chunk with a Windows XPComment (UTF-16LE), a JPEG whose XMP goes on in an
    ExtendedXMP APP1 chain (XMP part 3: a 64 KB photoshop:DocumentAncestors bloat, the value straddling
    the two chunks), an Exif UserComment (charset UNICODE) in the Exif sub-IFD; a TIFF whose SubIFDs tag
    (330, PageMaker 6 TIFF notes) holds a second image, a GIF89a Plain Text Extension (the value over two
    data sub-blocks) and an XMP application extension ("XMP DataXMP", raw packet + magic trailer); HWPX:
    a BMP with a PNG after its pixel array (bfSize ends before it), an RGBA PNG whose "erased" lines are
    alpha 0 with their colour kept (GIMP's "save colour values from transparent pixels"), a picture inside
    the text of a drawing object (hp:rect/hp:drawText);
  2 hidden places / attribute values: an embedded obfuscated font (ECMA-376 17.8.1, w:embedRegular
    w:fontKey, .odttf) whose name table holds copyright and designer-URL strings, a printer-settings part
    (DEVMODEW, driver-private secure-print user), a bibliography source part (b:Sources in customXml,
    interviewee b:Last/b:First, b:Comments) cited by a CITATION field; an ActiveX text box persisted as a
    property bag (ax:ocxPr Value), a text box on a chart (c:userShapes chart drawing part), the footnote
    continuation notice (w:type="continuationNotice"), an Office add-in property (webextension
    we:property, MS-OWEXML); HWPX: print-to-file path in settings.xml PrintInfo (config:config-item), a
    table cell name (hp:tc name), a picture hyperlink (hp:pic href mailto:), the unselected list items of
    a combo box form object (hp:comboBox hp:listItem);
  3 PDF ink outside the text layer: a text field whose appearance stream (/AP, glyph outlines) differs
    from its /V, a /DV reset value, an /Ink annotation whose /InkList strokes write the name (no /AP: the
    viewer draws it); an image whose /Mask colour-key range (ISO 32000 8.9.6.4) hides a noise background
    so that only the glyph pixels are painted, a function-based shading (ShadingType 1) whose Type 0
    sampled function is a raster of the value; an incremental update (7.5.6) that replaced the page
    content with blacked-out boxes while revision 1 still holds the values, a page label prefix
    (/PageLabels /P), an XMP packet (/Metadata, IPTC CiEmailWork) that differs from /Info;
  4 scans OCR reads badly: a form where someone "redacted" by hand with a translucent felt marker and a
    pen strike-through; a thin sheet whose back side (the applicant's form) bleeds through, mirrored and
    faint; a phone photo of a faded thermal-printed parcel waybill (택배 송장, white streaks of dead print-head
    dots) on a bulging box (rows bent);
  5 text the detector does not read: a mail saved as .txt (RFC 2047 encoded-words in ks_c_5601-1987 /
    EUC-KR, a quoted-printable body with a soft line break inside the phone, a base64 EUC-KR attachment
    part); a chat log with the phone in mixed digits / Sino-Korean words / ㅇ for zero (공1ㅇ 98구9), the
    account with O and l for 0 and 1, the e-mail spelled with 쩜 / 앳; an Excel round trip CSV (the RRN and
    account as 8.90613E+12 scientific numbers, the phone with its leading zero dropped, the name in
    passport romanisation over two columns);
  6 controls: a DOCX with an embedded obfuscated font, printer settings, a bibliography, a chart text box,
    an animated WebP banner and a photo with an ordinary ExtendedXMP; an fpdf2 PDF notice with a colour-key
    logo and a shaded band, filled in by an incremental update (form field, page labels, XMP); a mail saved
    as .txt (RFC 2047, quoted-printable, base64 EUC-KR attachment) about a meeting.

Measured once at 7b361ea, before anything was fixed (``run /tmp/rt6 --base WORKTREE``, default detector, the
batch CLI, no review): **7 of 15 published with a leak** (1c RGBA colour under alpha 0; 2c unselected HWPX
combo box items; 4a marker, 4b bleed-through, 4c thermal waybill; 5b look-alike digits / spelled e-mail /
digit words; 5c Excel scientific numbers and dropped leading zero), 6 published clean, 2 held (1a, 5a), 0
refused; **1 of 3 controls held** (6c, the meeting mail: its base64 decodes to Hangul).

After the fixes (tuned on these very files, so this figure measures what was fixed), at 7d6edd3, 4 December
19:15 UTC (``run /tmp/rt6b --base WORKTREE``): **0 of 15** published with a leak, 14 published clean, 1 held
(1a), 0 refused; **0 of 3 controls held**. Fixes: 1c c4fee12, 2c 0fbce9c, 4a 1efc57d, 4b ebd21eb, 4c 5e5a33e,
5a/6c 25cd09f (mail saved as .txt read as the decoded mail), 5b 13ab81f, 5c 06e0a59. The fresh measure is
now the seventh batch (``benchmarks/redteam7.py``).
"""
from __future__ import annotations

import base64
import datetime
import hashlib
import io
import quopri
import re
import struct
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import adversarial_corpus as ac  # noqa: E402  (its values, for the no-shared-run check)
import redteam2 as r2  # noqa: E402  (pictures, escaping, outlines, HWPX parts, the CLI runner)
import redteam3 as r3  # noqa: E402  (DOCX/HWPX/PDF builders)
import redteam4 as r4  # noqa: E402  (rezip/sub, draw_lines, photo, segments, write_corpus/selfcheck/cli)
import redteam5 as r5  # noqa: E402  (values of batch 5, rsid/theme helpers)
from redteam2 import DECL, NS, canvas, enc, font, xesc  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

NAME = "임도윤"
NAME_EN = "LIM DOYUN"             # passport romanisation (surname, given name)
RRN = "890613-1607595"            # valid check digit (11 - sum % 11) % 10
FRN = "940308-5333919"            # foreigner registration number, valid check digit (13 - sum % 11) % 10
PHONE = "010-9899-4962"
ADDR = "제주특별자치도 제주시 연삼로 473"
EMAIL = "bluepine.lim@example.org"
ACCOUNT = "496736-02-149361"
PASSPORT = "M20477573"
VALUES = {"NAME": NAME, "RRN": RRN, "PHONE": PHONE, "ADDR": ADDR, "EMAIL": EMAIL, "ACCOUNT": ACCOUNT,
          "FRN": FRN, "PASSPORT": PASSPORT, "NAME_EN": NAME_EN}
PLAIN = "이 문서는 4분기 민원 처리 결과를 정리한 내부 자료입니다."
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
rezip, sub, draw_lines, photo = r4.rezip, r4.sub, r4.draw_lines, r4.photo
SERIF = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"


def _check_values() -> None:
    """Check digits valid; no 4-digit run shared between two values or with the earlier batches."""
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    for v, k in ((RRN, 11), (FRN, 13)):
        d = v.replace("-", "")
        assert int(d[-1]) == (k - sum(int(a) * b for a, b in zip(d, w)) % 11) % 10, v
    runs: dict[str, str] = {}
    nums = {k: re.sub(r"\D", "", v) for k, v in VALUES.items() if k in ("RRN", "FRN", "PHONE", "ACCOUNT", "PASSPORT")}
    old = [re.sub(r"\D", "", v) for m in (ac, r2, r3, r4, r5) for v in m.VALUES.values()]
    for k, d in nums.items():
        for i in range(len(d) - 3):
            q = d[i:i + 4]
            assert runs.setdefault(q, k) == k, (q, k, runs[q])
            assert not any(q in o for o in old), (q, k)


def emu(px: int) -> int:
    return px * 9525


def serif(px: int):
    from PIL import ImageFont
    try:
        return ImageFont.truetype(SERIF, px, index=1)          # Noto Serif CJK KR Bold
    except OSError:
        return font(px)


# ------------------------------------------------------------------------------------------- class 1
def exif_xp_comment(text: str) -> bytes:
    """An Exif block whose IFD0 holds XPComment (0x9C9C): UCS-2 little-endian bytes whatever the byte order."""
    from PIL import Image
    ex = Image.Exif()
    ex[0x010F] = "SAMSUNG"
    ex[0x9C9C] = text.encode("utf-16-le") + b"\0\0"
    return ex.tobytes()


def exif_user_comment(text: str) -> bytes:
    """An APP1 Exif segment whose Exif sub-IFD (0x8769) holds UserComment (0x9286) with the UNICODE
    character code (CIPA DC-008 4.6.5: UCS-2 in the byte order of the TIFF header, here big-endian)."""
    from PIL import Image
    ex = Image.Exif()
    ex[0x010F] = "SAMSUNG"
    ex[0x0110] = "SM-S918N"
    ex.get_ifd(0x8769)[0x9286] = b"UNICODE\0" + text.encode("utf-16-be")
    body = ex.tobytes()
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


XMP_NS = 'xmlns:x="adobe:ns:meta/"'
RDF = 'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"'


def extended_xmp(visible: str, hidden: str, chunk: int = 65400) -> bytes:
    """APP1 segments of a standard XMP packet plus its ExtendedXMP (XMP part 3, 1.1.3.1): the extension is
    a serialized packet (a photoshop:DocumentAncestors bag as large as real ones, then dc:description
    holding ``hidden``) cut into chunks of ``chunk`` bytes, each in its own APP1 with the 32-character GUID
    (MD5 of the whole extension), the full length and the chunk offset. ``hidden`` straddles the cut."""
    anc = "".join(f"<rdf:li>xmp.did:{hashlib.md5(str(i).encode()).hexdigest()}</rdf:li>" for i in range(1000))
    pre = ('<x:xmpmeta ' + XMP_NS + '><rdf:RDF ' + RDF + '><rdf:Description rdf:about="" '
           'xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
           f'<photoshop:DocumentAncestors><rdf:Bag>{anc}</rdf:Bag></photoshop:DocumentAncestors>')
    lead = "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">"
    body = pre + lead
    cut = len(hidden) - 5 if len(hidden) > 8 else len(hidden) // 2   # a cut inside the last words
    pad = chunk - len(body.encode()) - len(hidden[:cut].encode())
    assert pad > 0
    body = pre + " " * pad + lead + hidden + "</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>"
    ext = body.encode("utf-8")
    assert ext[:chunk].endswith(hidden[:cut].encode()), "the value must straddle the chunk boundary"
    guid = hashlib.md5(ext).hexdigest().upper().encode()
    std = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta ' + XMP_NS + '><rdf:RDF ' + RDF + '>'
           '<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" '
           'xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
           f'<xmp:CreatorTool>Adobe Photoshop 25.1 (Windows)</xmp:CreatorTool><dc:title><rdf:Alt><rdf:li '
           f'xml:lang="x-default">{xesc(visible)}</rdf:li></rdf:Alt></dc:title>'
           f'<xmpNote:HasExtendedXMP>{guid.decode()}</xmpNote:HasExtendedXMP></rdf:Description></rdf:RDF>'
           '</x:xmpmeta><?xpacket end="w"?>').encode("utf-8")
    segs = b"\xff\xe1" + struct.pack(">H", len(std) + 31) + b"http://ns.adobe.com/xap/1.0/\x00" + std
    for off in range(0, len(ext), chunk):
        part = b"http://ns.adobe.com/xmp/extension/\x00" + guid + struct.pack(">II", len(ext), off) + ext[off:off + chunk]
        segs += b"\xff\xe1" + struct.pack(">H", len(part) + 2) + part
    return segs


def tiff_with_subifd(main, sub_img) -> bytes:
    """A little-endian TIFF: IFD0 the 8-bit grey ``main`` image with a SubIFDs tag (330) pointing at an IFD of
    ``sub_img`` (NewSubfileType 1, as for a reduced-resolution copy). Uncompressed, one strip each."""
    a, b = main.convert("L"), sub_img.convert("L")
    da, db = a.tobytes(), b.tobytes()

    def ifd(img, data_off, subifd_off, kind):
        ents = [(254, 4, 1, kind), (256, 4, 1, img.width), (257, 4, 1, img.height), (258, 3, 1, 8), (259, 3, 1, 1),
                (262, 3, 1, 1), (273, 4, 1, data_off), (277, 3, 1, 1), (278, 4, 1, img.height),
                (279, 4, 1, img.width * img.height), (284, 3, 1, 1)]
        if subifd_off:
            ents.append((330, 13, 1, subifd_off))
        out = struct.pack("<H", len(ents))
        for tag, typ, cnt, val in sorted(ents):
            out += struct.pack("<HHI", tag, typ, cnt) + (struct.pack("<HH", val, 0) if typ == 3 else struct.pack("<I", val))
        return out + struct.pack("<I", 0)
    n0, n1 = 12, 11
    ifd0_off = 8
    ifd1_off = ifd0_off + 2 + 12 * n0 + 4
    data0 = ifd1_off + 2 + 12 * n1 + 4
    data1 = data0 + len(da)
    return (b"II*\x00" + struct.pack("<I", ifd0_off) + ifd(a, data0, ifd1_off, 0) + ifd(b, data1, 0, 1) + da + db)


def gif_with_extensions(img, plain_text: bytes, xmp: bytes) -> bytes:
    """A GIF89a picture followed by a Plain Text Extension (label 01; its text split over two data
    sub-blocks) and an XMP application extension ("XMP Data" + "XMP", the raw packet and the 258-byte
    magic trailer of XMP part 3 1.1.2)."""
    b = io.BytesIO()
    img.convert("P", palette=1, colors=64).save(b, "GIF")
    g = bytearray(b.getvalue())
    g[:6] = b"GIF89a"
    half = len(plain_text) // 2
    pte = (b"\x21\x01\x0c" + struct.pack("<HHHHBBBB", 8, 8, 320, 24, 16, 24, 1, 0)
           + bytes([half]) + plain_text[:half] + bytes([len(plain_text) - half]) + plain_text[half:] + b"\x00")
    app = b"\x21\xff\x0bXMP DataXMP" + xmp + b"\x01" + bytes(range(255, -1, -1)) + b"\x00"
    return bytes(g[:-1]) + pte + app + b"\x3b"


def class1() -> list[tuple]:
    """Pictures and picture metadata inside DOCX/HWPX, in containers and chunks earlier batches did not use."""
    from PIL import Image
    out = []
    # 1a: an animated WebP (frame 1 harmless, frame 2 the name and RRN) with an EXIF chunk holding the phone in
    #     XPComment; a JPEG photo whose ExtendedXMP chain carries the address across its chunk boundary and
    #     whose Exif sub-IFD UserComment (UNICODE) holds the e-mail
    f1 = draw_lines(canvas(900, 220, (240, 246, 252)), ["민원실 이용 안내", "평일 09:00 ~ 18:00"], px=44, y0=30, step=90)
    f2 = draw_lines(canvas(900, 220, (240, 246, 252)), [f"담당 {NAME}", f"주민등록번호 {RRN}"], px=44, y0=30, step=90)
    b = io.BytesIO()
    f1.save(b, "WEBP", save_all=True, append_images=[f2], duration=[4000, 4000], loop=0, lossless=True,
            exif=exif_xp_comment(f"연락처 {PHONE}"))
    webp = b.getvalue()
    shot = enc(photo(800, 500, "민원실 전경", seed=61), "JPEG", quality=86)
    shot = r4.with_segments(shot, exif_user_comment(f"회신 {EMAIL}")
                            + extended_xmp("민원실 전경", f"촬영지 {ADDR}"))
    body = (r3.para(PLAIN) + r3.drawing("rIdW", 1, emu(900), emu(220)) + r3.para("아래는 민원실 사진입니다.")
            + r3.drawing("rIdJ", 2, emu(800), emu(500)) + r3.para("끝."))
    out.append(("1", "a", "c1_webp_anim_exif_extended_xmp_usercomment.docx", r3.docx(
        body, rels=[("rIdW", "image", "media/image1.webp", False), ("rIdJ", "image", "media/image2.jpeg", False)],
        parts={"word/media/image1.webp": webp, "word/media/image2.jpeg": shot}, defaults={"webp": "image/webp"}),
        ["NAME", "RRN", "PHONE", "ADDR", "EMAIL"],
        {"NAME": "animated WebP frame 2 (ANMF)", "RRN": "animated WebP frame 2 (ANMF)",
         "PHONE": "WebP EXIF chunk XPComment (UTF-16LE)",
         "ADDR": "JPEG ExtendedXMP, straddling the two APP1 chunks",
         "EMAIL": "JPEG Exif sub-IFD UserComment (UNICODE)"}))

    # 1b: a TIFF whose IFD0 is a harmless notice and whose SubIFD holds the account and the FRN; a GIF89a with a
    #     Plain Text Extension (passport number over two sub-blocks) and an XMP application extension (name)
    top = draw_lines(canvas(900, 240), ["현장 확인 사진 (축소본)"], px=40, y0=90)
    hidden = draw_lines(canvas(900, 240), [f"환급 계좌 {ACCOUNT}", f"외국인등록번호 {FRN}"], px=40, y0=40, step=100)
    tif = tiff_with_subifd(top, hidden)
    gpic = draw_lines(canvas(700, 120, (250, 250, 240)), ["접수 창구 3번"], px=44, y0=30)
    xmp = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta ' + XMP_NS + '><rdf:RDF ' + RDF
           + '><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq>'
           f'<rdf:li>{NAME}</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>'
           '<?xpacket end="w"?>').encode("utf-8")
    gif = gif_with_extensions(gpic, f"Passport {PASSPORT}".encode(), xmp)
    body = (r3.para(PLAIN) + r3.drawing("rIdT", 1, emu(900), emu(240)) + r3.drawing("rIdG", 2, emu(700), emu(120))
            + r3.para("세부 내역은 별첨 자료를 참고하십시오."))
    out.append(("1", "b", "c1_tiff_subifd_gif_plaintext_xmp_ext.docx", r3.docx(
        body, rels=[("rIdT", "image", "media/image1.tiff", False), ("rIdG", "image", "media/image2.gif", False)],
        parts={"word/media/image1.tiff": tif, "word/media/image2.gif": gif},
        defaults={"tiff": "image/tiff", "gif": "image/gif"}),
        ["ACCOUNT", "FRN", "PASSPORT", "NAME"],
        {"ACCOUNT": "TIFF SubIFDs (tag 330) image", "FRN": "TIFF SubIFDs (tag 330) image",
         "PASSPORT": "GIF89a Plain Text Extension (two sub-blocks)", "NAME": "GIF XMP application extension"}))

    # 1c: HWPX: a BMP whose bfSize ends at its pixel array, followed by a PNG (RRN, address); an RGBA PNG whose
    #     applicant lines were erased to alpha 0 with their colour kept (name, phone); a picture inside the
    #     text of a rectangle (hp:drawText) showing the e-mail
    bmp = enc(draw_lines(canvas(900, 200), ["접수 확인 (스캔)"], px=40, y0=70), "BMP")
    assert struct.unpack("<I", bmp[2:6])[0] == len(bmp)
    tail = enc(draw_lines(canvas(1100, 220), [f"주민등록번호 {RRN}", f"주소 {ADDR}"], px=38, y0=30, step=90), "PNG")
    rgb = draw_lines(canvas(1000, 330), ["민원 접수 확인증"], px=44, y0=30)
    draw_lines(rgb, [f"신청인 {NAME}", f"연락처 {PHONE}"], px=40, y0=140, step=90)
    alpha = Image.new("L", rgb.size, 255)
    alpha.paste(0, (0, 120, 1000, 330))                            # the eraser: colour kept, alpha 0
    erased = rgb.convert("RGBA")
    erased.putalpha(alpha)
    boxed = enc(draw_lines(canvas(1000, 110), [f"회신 메일 {EMAIL}"], px=38, x=20, y0=30), "PNG")
    pic_in_box = r2.hpic("boxed", 30000, 3300)
    sub_list = ('<hp:subList id="" textDirection="HORIZONTAL" lineWrap="BREAK" vertAlign="CENTER" linkListIDRef="0" '
                'linkListNextIDRef="0" textWidth="32000" textHeight="4000" hasTextRef="0" hasNumRef="0">'
                f'<hp:p id="0" paraPrIDRef="0" styleIDRef="0" pageBreak="0" columnBreak="0" merged="0">{pic_in_box}'
                '</hp:p></hp:subList>')
    rect = ('<hp:run charPrIDRef="0"><hp:rect id="8" zOrder="2" numberingType="PICTURE" textWrap="TOP_AND_BOTTOM" '
            'textFlow="BOTH_SIDES" lock="0" dropcapstyle="None" href="" groupLevel="0" instid="8" ratio="0">'
            '<hp:offset x="0" y="0"/><hp:orgSz width="34000" height="5000"/><hp:curSz width="34000" height="5000"/>'
            '<hp:flip horizontal="0" vertical="0"/><hp:rotationInfo angle="0" centerX="17000" centerY="2500" '
            'rotateimage="1"/><hp:lineShape color="#1F3864" width="33" style="SOLID" endCap="FLAT" headStyle="NORMAL" '
            'tailStyle="NORMAL" headfill="1" tailfill="1" headSz="MEDIUM_MEDIUM" tailSz="MEDIUM_MEDIUM" '
            'outlineStyle="NORMAL" alpha="0"/><hp:drawText lastWidth="32000" name="" editable="0">'
            f'{sub_list}<hp:textMargin left="283" right="283" top="283" bottom="283"/></hp:drawText>'
            '<hc:pt0 x="0" y="0"/><hc:pt1 x="34000" y="0"/><hc:pt2 x="34000" y="5000"/><hc:pt3 x="0" y="5000"/>'
            '<hp:sz width="34000" widthRelTo="ABSOLUTE" height="5000" heightRelTo="ABSOLUTE" protect="0"/>'
            '<hp:pos treatAsChar="1" affectLSpacing="0" flowWithText="1" allowOverlap="0" holdAnchorAndSO="0" '
            'vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" vertOffset="0" horzOffset="0"/>'
            '<hp:outMargin left="0" right="0" top="0" bottom="0"/></hp:rect></hp:run>')
    out.append(("1", "c", "c1_hwpx_bmp_trailer_rgba_erased_drawtext_pic.hwpx", r3.hwpx(
        [r2.hrun(PLAIN), r2.hpic("scan", 30000, 6600), r2.hpic("receipt", 30000, 9900), rect, r2.hrun("끝.")],
        bindata={"scan.bmp": (bmp + tail, "image/bmp"), "receipt.png": (enc(erased, "PNG"), "image/png"),
                 "boxed.png": (boxed, "image/png")}),
        ["RRN", "ADDR", "NAME", "PHONE", "EMAIL"],
        {"RRN": "PNG after the BMP pixel array (past bfSize)", "ADDR": "PNG after the BMP pixel array",
         "NAME": "RGBA PNG: alpha 0, colour kept", "PHONE": "RGBA PNG: alpha 0, colour kept",
         "EMAIL": "picture inside a drawing object's text (hp:drawText)"}))
    return out


# ------------------------------------------------------------------------------------------- class 2
def obfuscated_font(family: str, copyright_: str, designer_url: str, key: str, text: str) -> bytes:
    """A NanumGothic subset (the glyphs of ``text``) renamed ``family``, with name-table copyright (ID 0)
    and designer URL (ID 12), obfuscated as ECMA-376 Part 1 17.8.1 says: the first 32 bytes XORed with the
    GUID ``key`` read as 16 bytes in reverse order of its hex digits."""
    import logging
    from fontTools import subset
    from fontTools.ttLib import TTFont
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)
    f = TTFont(str(r2.FONT))
    opts = subset.Options()
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    ss = subset.Subsetter(opts)
    ss.populate(text=text)
    ss.subset(f)
    name = f["name"]
    name.names = [n for n in name.names if n.platformID == 3]
    for nid, s in ((0, copyright_), (1, family), (3, f"{family};2025"), (4, family), (6, "MinwonBatang"),
                   (9, "민원지원팀 서식 담당"), (12, designer_url)):
        name.setName(s, nid, 3, 1, 0x412)
        name.setName(s, nid, 3, 1, 0x409)
    b = io.BytesIO()
    f.save(b)
    data = bytearray(b.getvalue())
    k = bytes.fromhex(key.strip("{}").replace("-", ""))[::-1]
    for i in range(32):
        data[i] ^= k[i % 16]
    return bytes(data)


def devmode(device: str, form: str, private: bytes) -> bytes:
    """A DEVMODEW (220-byte public part, Windows wingdi.h) for A4 portrait, then ``private`` driver data."""
    name = device.encode("utf-16-le")[:62].ljust(64, b"\0")
    pub = (name + struct.pack("<HHHHI", 0x0401, 0x0602, 220, len(private), 0x0001FF1F)
           + struct.pack("<8h", 1, 9, 2970, 2100, 100, 1, 7, 600)          # orientation .. print quality
           + struct.pack("<5h", 2, 1, 600, 3, 1)                            # colour, duplex, y-res, TT, collate
           + form.encode("utf-16-le")[:62].ljust(64, b"\0") + struct.pack("<H", 0)
           + struct.pack("<IIII", 0, 0, 0, 0) + struct.pack("<I", 0) + struct.pack("<6I", 0, 0, 0, 0, 0, 0)
           + struct.pack("<II", 0, 0))
    assert len(pub) == 220, len(pub)
    return pub + private


def secure_print_private(user: str) -> bytes:
    """Driver-private DEVMODE data of a secure-print driver: a tag, sizes, then UTF-16LE key=value strings."""
    kv = f"JobType=SecurePrint\0UserName={user}\0Box=3F 민원실\0".encode("utf-16-le")
    return b"PRIV" + struct.pack("<HH", 0x0100, len(kv)) + kv + b"\0" * (-len(kv) % 8)


BIB_NS = "http://schemas.openxmlformats.org/officeDocument/2006/bibliography"
CT_CXPROPS = "application/vnd.openxmlformats-officedocument.customXmlProperties+xml"
CT_FONTTABLE = "application/vnd.openxmlformats-officedocument.wordprocessingml.fontTable+xml"
CT_SETTINGS = r5.CT_SETTINGS
CT_FOOTNOTES = r5.CT_FOOTNOTES
CT_CHART = r5.CT_CHART
RT_PRINTER = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/printerSettings"


def bibliography(sources: str) -> str:
    return (DECL + f'<b:Sources xmlns:b="{BIB_NS}" xmlns="{BIB_NS}" SelectedStyle="\\APASixthEditionOfficeOnline.xsl" '
            f'StyleName="APA" Version="6">{sources}</b:Sources>')


def bib_props(item_id: str) -> str:
    return (DECL + f'<ds:datastoreItem ds:itemID="{item_id}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/'
            f'2006/customXml"><ds:schemaRefs><ds:schemaRef ds:uri="{BIB_NS}"/></ds:schemaRefs></ds:datastoreItem>')


def citation(tag: str, shown: str) -> str:
    return ('<w:sdt><w:sdtPr><w:id w:val="-1503121409"/><w:citation/></w:sdtPr><w:sdtContent>'
            '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> CITATION '
            f'{tag} \\l 1042 </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            f'<w:r><w:t>{xesc(shown)}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:sdtContent></w:sdt>')


def font_package(family: str, key: str, fnt: bytes) -> tuple[str, dict]:
    """fontTable.xml (a font embedded with w:embedRegular), its rels and the .odttf part."""
    table = r3.wpart("fonts", f'<w:font w:name="{xesc(family)}"><w:charset w:val="81"/><w:family w:val="roman"/>'
                              f'<w:pitch w:val="variable"/><w:embedRegular r:id="rIdF1" w:fontKey="{key}"/></w:font>'
                              '<w:font w:name="맑은 고딕"><w:charset w:val="81"/><w:family w:val="swiss"/></w:font>')
    return table, {"word/fontTable.xml": table,
                   "word/_rels/fontTable.xml.rels": r3.rels_xml([("rIdF1", "font", "fonts/font1.odttf", False)]),
                   "word/fonts/font1.odttf": fnt}


def user_shapes_chart(title: str, cats: list[str], vals: list[int]) -> str:
    """A bar chart part whose c:userShapes (ECMA-376 21.3) points at a chart drawing part (rIdUs)."""
    pts = lambda xs: "".join(f'<c:pt idx="{i}"><c:v>{x}</c:v></c:pt>' for i, x in enumerate(xs))  # noqa: E731
    return (DECL + f'<c:chartSpace {NS}><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>{xesc(title)}</a:t>'
            '</a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:plotArea><c:layout/><c:barChart>'
            '<c:barDir val="col"/><c:grouping val="clustered"/><c:ser><c:idx val="0"/><c:order val="0"/>'
            f'<c:cat><c:strRef><c:f>Sheet1!$A$2:$A${1 + len(cats)}</c:f><c:strCache><c:ptCount val="{len(cats)}"/>'
            f'{pts(cats)}</c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2:$B${1 + len(vals)}</c:f>'
            f'<c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="{len(vals)}"/>{pts(vals)}</c:numCache>'
            '</c:numRef></c:val></c:ser><c:axId val="11"/><c:axId val="12"/></c:barChart>'
            '<c:catAx><c:axId val="11"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="b"/>'
            '<c:crossAx val="12"/></c:catAx><c:valAx><c:axId val="12"/><c:scaling><c:orientation val="minMax"/>'
            '</c:scaling><c:axPos val="l"/><c:crossAx val="11"/></c:valAx></c:plotArea></c:chart>'
            '<c:userShapes r:id="rIdUs"/></c:chartSpace>')


def chart_drawing(text: str) -> str:
    cdr = "http://schemas.openxmlformats.org/drawingml/2006/chartDrawing"
    return (DECL + f'<c:userShapes xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" '
            f'xmlns:a="{A_NS}"><cdr:relSizeAnchor xmlns:cdr="{cdr}"><cdr:from><cdr:x>0.58</cdr:x><cdr:y>0.04</cdr:y>'
            '</cdr:from><cdr:to><cdr:x>0.98</cdr:x><cdr:y>0.16</cdr:y></cdr:to><cdr:sp macro="" textlink="">'
            '<cdr:nvSpPr><cdr:cNvPr id="2" name="TextBox 1"/><cdr:cNvSpPr txBox="1"/></cdr:nvSpPr><cdr:spPr>'
            '<a:xfrm><a:off x="0" y="0"/><a:ext cx="1" cy="1"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/>'
            '</a:prstGeom><a:noFill/></cdr:spPr><cdr:txBody><a:bodyPr vertOverflow="clip" wrap="none" rtlCol="0"/>'
            f'<a:lstStyle/><a:p><a:r><a:rPr lang="ko-KR" sz="900"/><a:t>{xesc(text)}</a:t></a:r></a:p></cdr:txBody>'
            '</cdr:sp></cdr:relSizeAnchor></c:userShapes>')


CHART_REF = r5.CHART_REF
CT_CHARTSHAPES = "application/vnd.openxmlformats-officedocument.drawingml.chartshapes+xml"
RT_USERSHAPES = "chartUserShapes"


def class2() -> list[tuple]:
    """Hidden places of DOCX/HWPX that hold text: parts, binary settings, attribute values, unshown items."""
    out = []
    # 2a: an embedded obfuscated font whose name table holds the phone (copyright) and the e-mail (designer URL);
    #     printer settings (DEVMODEW) whose secure-print private data names the user; a bibliography source
    #     (interviewee b:Last/b:First, the address in b:Comments) cited by a CITATION field
    key = "{7B3E9A41-2C6D-4F18-9E05-A1D4C37B8F62}"
    family = "민원바탕"
    fnt = obfuscated_font(family, f"Copyright (c) 2025. 서식 문의 {PHONE}", f"mailto:{EMAIL}", key,
                          PLAIN + "면담기록참고하십시오끝.()0123456789")
    table, fparts = font_package(family, key, fnt)
    rpr = f'<w:rPr><w:rFonts w:ascii="{family}" w:eastAsia="{family}" w:hAnsi="{family}"/></w:rPr>'
    src = ('<b:Source><b:Tag>Myeon25</b:Tag><b:SourceType>Interview</b:SourceType>'
           '<b:Guid>{5E0C2B7A-93D1-4A6F-8B2E-0F7C1D94A3B5}</b:Guid><b:Author><b:Interviewee><b:NameList><b:Person>'
           f'<b:Last>{NAME[0]}</b:Last><b:First>{NAME[1:]}</b:First></b:Person></b:NameList></b:Interviewee>'
           '<b:Interviewer><b:Corporate>민원지원팀</b:Corporate></b:Interviewer></b:Author>'
           '<b:Title>민원 면담 기록</b:Title><b:Year>2025</b:Year><b:Month>11</b:Month><b:Day>3</b:Day>'
           f'<b:Comments>면담 장소: {xesc(ADDR)}</b:Comments><b:LCID>1042</b:LCID></b:Source>')
    store = "{C41A6E27-58B0-4D93-A2F1-6B3E0D8C7A19}"
    body = (f'<w:p><w:r>{rpr}<w:t xml:space="preserve">{xesc(PLAIN)}</w:t></w:r></w:p>'
            f'<w:p><w:r>{rpr}<w:t xml:space="preserve">면담 기록을 참고하십시오 </w:t></w:r>{citation("Myeon25", "(민원지원팀, 2025)")}'
            '<w:r><w:t>.</w:t></w:r></w:p>' + r3.para("끝."))
    settings = r3.wpart("settings", "<w:embedTrueTypeFonts/><w:saveSubsetFonts/>")
    data = r3.docx(body, rels=[("rIdFt", "fontTable", "fontTable.xml", False), ("rIdSet", "settings", "settings.xml", False),
                               ("rIdPr", RT_PRINTER, "printerSettings/printerSettings1.bin", False),
                               ("rIdCx", "customXml", "../customXml/item1.xml", False)],
                   parts={**fparts, "word/settings.xml": settings,
                          "word/printerSettings/printerSettings1.bin": devmode(
                              "\\\\print01\\3F-민원실-복합기", "A4", secure_print_private(NAME)),
                          "customXml/item1.xml": bibliography(src), "customXml/itemProps1.xml": bib_props(store),
                          "customXml/_rels/item1.xml.rels": r3.rels_xml([("rId1", "customXmlProps", "itemProps1.xml",
                                                                          False)])},
                   overrides={"/word/fontTable.xml": CT_FONTTABLE, "/word/settings.xml": CT_SETTINGS,
                              "/customXml/itemProps1.xml": CT_CXPROPS},
                   defaults={"odttf": "application/vnd.openxmlformats-officedocument.obfuscatedFont",
                             "bin": "application/vnd.openxmlformats-officedocument.wordprocessingml.printerSettings"})
    out.append(("2", "a", "c2_obfuscated_font_names_devmode_bibliography.docx", data,
                ["PHONE", "EMAIL", "NAME", "ADDR"],
                {"PHONE": "embedded obfuscated font (.odttf) name table: copyright",
                 "EMAIL": "embedded obfuscated font name table: designer URL",
                 "NAME": "printer settings DEVMODEW private data (secure-print user); bibliography b:Last/b:First",
                 "ADDR": "bibliography source b:Comments (customXml b:Sources)"}))

    # 2b: an ActiveX text box persisted as a property bag (Value = the RRN; the shown picture is an empty box), a
    #     text box on a chart (c:userShapes part: the phone), the footnote continuation notice (the account), an
    #     Office add-in property (webextension: the FRN)
    ax = (DECL + '<ax:ocx ax:classid="{8BD21D10-EC42-11CE-9E0D-00AA006002F3}" ax:persistence="persistPropertyBag" '
          'xmlns:ax="http://schemas.microsoft.com/office/2006/activeX" '
          'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
          '<ax:ocxPr ax:name="VariousPropertyBits" ax:value="746604571"/><ax:ocxPr ax:name="Size" ax:value="5080;635"/>'
          f'<ax:ocxPr ax:name="Value" ax:value="{RRN}"/><ax:ocxPr ax:name="FontName" ax:value="맑은 고딕"/>'
          '<ax:ocxPr ax:name="FontHeight" ax:value="200"/><ax:ocxPr ax:name="FontCharSet" ax:value="129"/></ax:ocx>')
    from PIL import ImageDraw
    box = canvas(290, 36)
    ImageDraw.Draw(box).rectangle((1, 1, 288, 34), outline=(120, 120, 120), width=2)
    obj = ('<w:p><w:r><w:t xml:space="preserve">주민등록번호: </w:t></w:r><w:r><w:object w:dxaOrig="2880" '
           'w:dyaOrig="360"><v:shape id="_x0000_i1026" type="#_x0000_t75" style="width:144pt;height:18pt" o:ole="">'
           '<v:imagedata r:id="rIdAxImg" o:title=""/></v:shape><w:control r:id="rIdAx1" w:name="TextBox1" '
           'w:shapeid="_x0000_i1026"/></w:object></w:r></w:p>')
    footnotes = r3.wpart("footnotes", (
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
        '</w:footnote><w:footnote w:type="continuationNotice" w:id="1"><w:p><w:pPr><w:jc w:val="right"/></w:pPr>'
        f'<w:r><w:t xml:space="preserve">(다음 쪽에 계속) 환급 계좌 국민 {ACCOUNT}</w:t></w:r></w:p></w:footnote>'
        '<w:footnote w:id="2"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r>'
        '<w:r><w:t xml:space="preserve"> 처리 기준은 민원 처리에 관한 법률을 따릅니다.</w:t></w:r></w:p></w:footnote>'))
    settings = r3.wpart("settings", '<w:footnotePr><w:footnote w:id="-1"/><w:footnote w:id="0"/><w:footnote w:id="1"/>'
                                    '</w:footnotePr>')
    we = (DECL + '<we:webextension xmlns:we="http://schemas.microsoft.com/office/webextensions/webextension/2010/11" '
          'id="{3A9E1F52-7C40-4B8D-9D16-E2F0A5B7C843}"><we:reference id="wa200004521" version="1.2.0.0" store="ko-KR" '
          'storeType="OMEX"/><we:alternateReferences/><we:properties>'
          f'<we:property name="applicantKey" value="&quot;{FRN}&quot;"/>'
          '<we:property name="Office.AutoShowTaskpaneWithDocument" value="false"/></we:properties><we:bindings/>'
          '<we:snapshot xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/></we:webextension>')
    tp = (DECL + '<wetp:taskpanes xmlns:wetp="http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11">'
          '<wetp:taskpane dockstate="right" visibility="0" width="350" row="0"><wetp:webextensionref '
          'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1"/></wetp:taskpane>'
          '</wetp:taskpanes>')
    body = (r3.para(PLAIN) + obj
            + '<w:p><w:r><w:t xml:space="preserve">처리 결과는 아래 차트와 같습니다.</w:t></w:r><w:r><w:rPr><w:vertAlign '
              'w:val="superscript"/></w:rPr><w:footnoteReference w:id="2"/></w:r></w:p>'
            + CHART_REF.format(n=2, rid="rIdCh") + r3.para("끝."))
    out.append(("2", "b", "c2_activex_propbag_chart_usershape_contnotice_addin.docx", r3.docx(
        body, rels=[("rIdAx1", "control", "activeX/activeX1.xml", False), ("rIdAxImg", "image", "media/image1.png", False),
                    ("rIdFoot", "footnotes", "footnotes.xml", False), ("rIdSet", "settings", "settings.xml", False),
                    ("rIdCh", "chart", "charts/chart1.xml", False)],
        pkg_rels=[("rIdWe", "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes",
                   "word/webextensions/taskpanes.xml", False)],
        parts={"word/activeX/activeX1.xml": ax, "word/media/image1.png": enc(box, "PNG"),
               "word/footnotes.xml": footnotes, "word/settings.xml": settings,
               "word/charts/chart1.xml": user_shapes_chart("월별 처리 건수", ["9월", "10월", "11월"], [318, 342, 297]),
               "word/charts/_rels/chart1.xml.rels": r3.rels_xml([("rIdUs", RT_USERSHAPES, "../drawings/drawing1.xml",
                                                                  False)]),
               "word/drawings/drawing1.xml": chart_drawing(f"담당 직통 {PHONE}"),
               "word/webextensions/taskpanes.xml": tp,
               "word/webextensions/_rels/taskpanes.xml.rels": r3.rels_xml(
                   [("rId1", "http://schemas.microsoft.com/office/2011/relationships/webextension", "webextension1.xml",
                     False)]),
               "word/webextensions/webextension1.xml": we},
        overrides={"/word/activeX/activeX1.xml": "application/vnd.ms-office.activeX+xml",
                   "/word/footnotes.xml": CT_FOOTNOTES, "/word/settings.xml": CT_SETTINGS,
                   "/word/charts/chart1.xml": CT_CHART, "/word/drawings/drawing1.xml": CT_CHARTSHAPES,
                   "/word/webextensions/taskpanes.xml": "application/vnd.ms-office.webextensiontaskpanes+xml",
                   "/word/webextensions/webextension1.xml": "application/vnd.ms-office.webextension+xml"}),
        ["RRN", "PHONE", "ACCOUNT", "FRN"],
        {"RRN": "ActiveX text box property bag (ax:ocxPr Value)", "PHONE": "chart text box (c:userShapes drawing part)",
         "ACCOUNT": "footnote continuation notice (w:type=continuationNotice)",
         "FRN": "Office add-in property (webextension we:property)"}))

    # 2c: HWPX: a print-to-file path in settings.xml PrintInfo (name), a table cell name (phone), a picture with a
    #     mailto: hyperlink (e-mail), a combo box whose unselected list item holds the account
    cfg = "urn:oasis:names:tc:opendocument:xmlns:config:1.0"
    settings = (DECL + f'<ha:HWPApplicationSetting xmlns:ha="http://www.hancom.co.kr/hwpml/2011/app" xmlns:config="{cfg}">'
                '<ha:CaretPosition listIDRef="0" paraIDRef="3" pos="2"/><config:config-item-set name="PrintInfo">'
                '<config:config-item name="PrintAutoFootNote" type="boolean">false</config:config-item>'
                '<config:config-item name="PrintAutoHeadNote" type="boolean">false</config:config-item>'
                '<config:config-item name="ZoomX" type="short">100</config:config-item>'
                '<config:config-item name="ZoomY" type="short">100</config:config-item>'
                '<config:config-item name="PrintToFile" type="boolean">true</config:config-item>'
                f'<config:config-item name="PrintFileName" type="string">C:\\Users\\{NAME}\\Documents\\민원회신.prn'
                '</config:config-item><config:config-item name="Copies" type="short">1</config:config-item>'
                '</config:config-item-set></ha:HWPApplicationSetting>')

    def tc(text, col, row, name=""):
        return (f'<hp:tc name="{xesc(name)}" header="0" hasMargin="0" protect="0" editable="0" dirty="0" '
                f'borderFillIDRef="1">{r3.hsub(text)}<hp:cellAddr colAddr="{col}" rowAddr="{row}"/>'
                '<hp:cellSpan colSpan="1" rowSpan="1"/><hp:cellSz width="14000" height="1500"/>'
                '<hp:cellMargin left="510" right="510" top="141" bottom="141"/></hp:tc>')
    tbl = ('<hp:run charPrIDRef="0"><hp:tbl id="3" zOrder="0" numberingType="TABLE" textWrap="TOP_AND_BOTTOM" '
           'textFlow="BOTH_SIDES" lock="0" dropcapstyle="None" pageBreak="CELL" repeatHeader="1" rowCnt="2" colCnt="2" '
           'cellSpacing="0" borderFillIDRef="1" noAdjust="0"><hp:sz width="28000" widthRelTo="ABSOLUTE" height="3000" '
           'heightRelTo="ABSOLUTE" protect="0"/><hp:pos treatAsChar="1" affectLSpacing="0" flowWithText="1" '
           'allowOverlap="0" holdAnchorAndSO="0" vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" '
           'vertOffset="0" horzOffset="0"/>'
           f'<hp:tr>{tc("구분", 0, 0)}{tc("내용", 1, 0)}</hp:tr>'
           f'<hp:tr>{tc("연락처", 0, 1)}{tc("(비공개)", 1, 1, name=f"연락처 {PHONE}")}</hp:tr></hp:tbl></hp:run>')
    pic = r2.hpic("guide", 30000, 3000).replace('<hp:pic id="1"', f'<hp:pic id="1" href="mailto:{EMAIL}"', 1)
    combo = ('<hp:run charPrIDRef="0"><hp:comboBox caption="" foreColor="#000000" backColor="#FFFFFF" groupName="" '
             'tabStop="1" editable="1" tabOrder="1" enabled="1" borderTypeIDRef="0" drawFrame="1" printable="1" '
             'command="" name="환급계좌" listBoxRows="5" listBoxWidth="0" editEnable="0" selectedValue="0">'
             '<hp:formCharPr charPrIDRef="0" followContext="0" autoSz="0" wordWrap="0"/>'
             '<hp:listItem displayText="계좌를 선택하세요" value="0"/>'
             f'<hp:listItem displayText="국민 {ACCOUNT}" value="1"/>'
             '<hp:sz width="16000" widthRelTo="ABSOLUTE" height="1400" heightRelTo="ABSOLUTE" protect="0"/>'
             '<hp:pos treatAsChar="1" affectLSpacing="0" flowWithText="1" allowOverlap="0" holdAnchorAndSO="0" '
             'vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" vertOffset="0" horzOffset="0"/>'
             '</hp:comboBox></hp:run>')
    guide = enc(draw_lines(canvas(900, 90), ["회신 메일 보내기"], px=38, x=20, y0=22), "PNG")
    data = r3.hwpx([r2.hrun(PLAIN), tbl, pic, r2.hrun("환급 계좌: ") + combo, r2.hrun("끝.")],
                   bindata={"guide.png": (guide, "image/png")}, extra={"settings.xml": settings})
    data = rezip(data, {"Contents/content.hpf": sub("</opf:manifest>", '<opf:item id="settings" href="settings.xml" '
                                                    'media-type="application/xml"/></opf:manifest>')})
    out.append(("2", "c", "c2_hwpx_printinfo_cellname_pichref_combo_items.hwpx", data,
                ["NAME", "PHONE", "EMAIL", "ACCOUNT"],
                {"NAME": "settings.xml PrintInfo PrintFileName (config:config-item)",
                 "PHONE": "table cell name (hp:tc name)", "EMAIL": "picture hyperlink (hp:pic href mailto:)",
                 "ACCOUNT": "unselected combo box list item (hp:comboBox hp:listItem)"}))
    return out


# ------------------------------------------------------------------------------------------- class 3
def contour_strokes(text: str, x: float, y: float, size: float) -> list[list[tuple[float, float]]]:
    """The glyph outlines of ``text`` (NanumGothic) flattened to polylines, as a pen would trace them."""
    from fontTools.pens.basePen import BasePen
    lines: list[list[tuple[float, float]]] = []

    class Pen(BasePen):
        def __init__(self, gs, ox, k):
            super().__init__(gs)
            self.ox, self.k, self.cur = ox, k, []

        def _pt(self, p):
            return (round(self.ox + p[0] * self.k, 2), round(y + p[1] * self.k, 2))

        def _moveTo(self, p):
            self.cur = [self._pt(p)]

        def _lineTo(self, p):
            self.cur.append(self._pt(p))

        def _curveToOne(self, a, b, c):
            p0 = self.cur[-1]
            pts = [self._pt(a), self._pt(b), self._pt(c)]
            for i in range(1, 5):
                t = i / 4
                m = 1 - t
                self.cur.append(tuple(round(m ** 3 * q0 + 3 * m * m * t * q1 + 3 * m * t * t * q2 + t ** 3 * q3, 2)
                                      for q0, q1, q2, q3 in zip(p0, *pts)))

        def _closePath(self):
            if self.cur:
                lines.append(self.cur + [self.cur[0]])
            self.cur = []
        _endPath = _closePath

    r2.draw_glyphs(text, x, size, Pen)
    return lines


def raster(lines: list[str], w: int, h: int, px: int, fnt=None):
    from PIL import Image, ImageDraw
    g = Image.new("L", (w, h), 255)
    d = ImageDraw.Draw(g)
    for i, ln in enumerate(lines):
        d.text((16, 12 + i * int(px * 1.7)), ln, fill=0, font=fnt or font(px))
    return g


def incremental_update(pdf: bytes, replaced: dict[int, bytes], added: list[bytes]) -> bytes:
    """An incremental update (ISO 32000 7.5.6): objects ``replaced`` (number -> new body) and ``added``
    (numbered from the old /Size) appended with their own xref section and a trailer whose /Prev points
    at the previous xref. Returns the new file; the bytes of the old revision stay as they were."""
    size = int(re.findall(rb"/Size (\d+)", pdf)[-1])
    root = re.findall(rb"/Root (\d+ 0 R)", pdf)[-1]
    info = re.findall(rb"/Info (\d+ 0 R)", pdf)
    prev = int(re.findall(rb"startxref\s+(\d+)", pdf)[-1])
    out = bytearray(pdf if pdf.endswith(b"\n") else pdf + b"\n")
    offs = {}
    for num, body in list(replaced.items()) + [(size + i, b) for i, b in enumerate(added)]:
        offs[num] = len(out)
        out += b"%d 0 obj\n" % num + body + b"\nendobj\n"
    x = len(out)
    out += b"xref\n0 1\n0000000000 65535 f \n"
    for num in sorted(offs):
        out += b"%d 1\n%010d 00000 n \n" % (num, offs[num])
    out += (b"trailer\n<< /Size %d /Root %s" % (size + len(added), root) + (b" /Info " + info[-1] if info else b"")
            + b" /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (prev, x))
    return bytes(out)


def obj_body(pdf: bytes, num: int) -> bytes:
    """The dictionary of object ``num`` (the last definition), without ``obj``/``endobj``."""
    m = list(re.finditer(rb"(?s)(?<![0-9])%d 0 obj\s*(<<.*?>>)\s*(?:endobj|stream)" % num, pdf))[-1]
    return m.group(1)


def xmp_packet(props: str) -> bytes:
    return ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta ' + XMP_NS + '><rdf:RDF ' + RDF
            + '><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
            'xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" '
            f'xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/">{props}</rdf:Description></rdf:RDF>'
            '</x:xmpmeta><?xpacket end="w"?>').encode("utf-8")


def utf16_hex(s: str) -> bytes:
    return b"<FEFF" + s.encode("utf-16-be").hex().upper().encode() + b">"


def fpdf_doc():
    import logging
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    logging.getLogger("fpdf").setLevel(logging.ERROR)
    from fpdf import FPDF
    p = FPDF()
    p.add_font("Nanum", "", str(r2.FONT))
    p.set_font("Nanum", size=13)
    p.set_creation_date(datetime.datetime(2025, 11, 3, 14, 0, 0, tzinfo=datetime.timezone.utc))
    p.add_page()
    return p


def page_object(pdf: bytes) -> tuple[int, bytes]:
    """The number and dictionary of the first page object (/Type /Page, not /Pages)."""
    for m in re.finditer(rb"(?s)(?<![0-9])(\d+) 0 obj\s*(<<.*?>>)\s*(?:endobj|stream)", pdf):
        if re.search(rb"/Type\s*/Page\b(?!s)", m.group(2)):
            return int(m.group(1)), m.group(2)
    raise ValueError("no page object")


def catalog_object(pdf: bytes) -> tuple[int, bytes]:
    num = int(re.findall(rb"/Root (\d+) 0 R", pdf)[-1])
    return num, obj_body(pdf, num)


def class3() -> list[tuple]:
    """PDF ink that is not in the text layer, or not in the revision a viewer shows."""
    out = []
    visible = b"BT /F1 12 Tf 60 790 Td (Civil petitions, fourth quarter: reply form) Tj ET\n"
    # 3a: a text field whose /V says "(see attachment)" while its /AP draws the RRN as outlines; a second field
    #     with an empty /V and the phone as its /DV (what "reset form" puts back); an /Ink annotation whose
    #     /InkList traces the name, with no /AP (viewers draw ink annotations from /InkList)
    ap = r3.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 330 32] /Resources << >>",
                   b"/Tx BMC q 0 g\n" + r2.outline_path(f"주민등록번호 {RRN}", 4, 9, 17) + b"f Q EMC\n")
    ap_empty = r3.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 220 24] /Resources << >>", b"/Tx BMC EMC\n")
    strokes = contour_strokes(NAME, 70, 500, 56)
    inklist = b"[" + b" ".join(b"[" + b" ".join(b"%.2f %.2f" % p for p in s) + b"]" for s in strokes) + b"]"
    # objects from 5: 5 field rrn, 6 its AP, 7 field tel, 8 its AP, 9 ink annotation
    f_rrn = (b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (rrn) /TU (ID number) /V (\\(see attachment\\)) "
             b"/Rect [60 700 390 732] /F 4 /P 3 0 R /DA (/Helv 12 Tf 0 g) /MK << /BC [0.5 0.5 0.5] >> "
             b"/AP << /N 6 0 R >> >>")
    f_tel = (b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (tel) /TU (Phone) /V () /DV (" + PHONE.encode() + b") "
             b"/Rect [60 650 280 674] /F 4 /P 3 0 R /DA (/Helv 12 Tf 0 g) /MK << /BC [0.5 0.5 0.5] >> "
             b"/AP << /N 8 0 R >> >>")
    ink = (b"<< /Type /Annot /Subtype /Ink /Rect [60 480 300 570] /F 4 /C [0.05 0.1 0.45] /BS << /W 1.6 >> "
           b"/T (signature) /InkList " + inklist + b" >>")
    labels = (b"BT /F1 11 Tf 60 740 Td (ID number) Tj ET BT /F1 11 Tf 60 680 Td (Phone) Tj ET "
              b"BT /F1 11 Tf 60 580 Td (Signature) Tj ET\n")
    out.append(("3", "a", "c3_widget_ap_vs_value_dv_ink_annotation.pdf",
                r3.pdf([(visible + labels, f"<< {r2.HELV} >> /Annots [5 0 R 7 0 R 9 0 R]")],
                       [f_rrn, ap, f_tel, ap_empty, ink],
                       catalog_extra="/AcroForm << /Fields [5 0 R 7 0 R] /DA (/Helv 0 Tf 0 g) "
                                     f"/DR << {r2.HELV.replace('/F1', '/Helv')} >> >> "),
                ["RRN", "PHONE", "NAME"],
                {"RRN": "text field appearance stream (/AP, outlines) unlike its /V",
                 "PHONE": "text field /DV (reset value)", "NAME": "/Ink annotation /InkList strokes (no /AP)"}))

    # 3b: a grey image whose /Mask colour-key range [0 127] hides its noise background: only the glyph pixels
    #     (128..150) are painted (name, account); a function-based shading whose sampled function is a raster of
    #     the FRN, painted by sh through a clip rectangle
    import numpy as np
    rnd = np.random.default_rng(26)
    ink_ = np.asarray(raster([f"신청인 {NAME}", f"환급 계좌 {ACCOUNT}"], 900, 150, 40)) < 128
    samples = np.where(ink_, rnd.integers(128, 151, ink_.shape), rnd.integers(96, 128, ink_.shape)).astype(np.uint8)
    img = r3.stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 "
                    b"/Mask [0 127] /Filter /FlateDecode" % (ink_.shape[1], ink_.shape[0]), zlib.compress(samples.tobytes()))
    fr = raster([f"외국인등록번호 {FRN}"], 900, 70, 40)
    from PIL import Image
    fn = r3.stream(b"/FunctionType 0 /Domain [0 1 0 1] /Range [0 1] /Size [%d %d] /BitsPerSample 8 /Filter /FlateDecode"
                   % fr.size, zlib.compress(fr.transpose(Image.FLIP_TOP_BOTTOM).tobytes()))
    sh = b"<< /ShadingType 1 /ColorSpace /DeviceGray /Domain [0 1 0 1] /Matrix [450 0 0 35 60 560] /Function 7 0 R >>"
    cs = visible + b"q 450 0 0 75 60 640 cm /Im1 Do Q\nq 60 560 450 35 re W n /Sh1 sh Q\n"
    # objects from 5: 5 image, 6 shading, 7 its function
    out.append(("3", "b", "c3_colour_key_mask_noise_function_shading.pdf",
                r3.pdf([(cs, f"<< {r2.HELV} /XObject << /Im1 5 0 R >> /Shading << /Sh1 6 0 R >> >>")], [img, sh, fn]),
                ["NAME", "ACCOUNT", "FRN"],
                {"NAME": "image with a /Mask colour-key range over a noise background",
                 "ACCOUNT": "image with a /Mask colour-key range", "FRN": "function-based shading (Type 0 samples)"}))

    # 3c: revision 1 (fpdf2) shows the RRN and the address; an incremental update replaces the page content by a
    #     copy with those text objects removed and black boxes drawn over them, adds page labels whose prefix is
    #     the name and an XMP packet whose IPTC CiEmailWork is the e-mail (the /Info says "민원지원팀")
    p = fpdf_doc()
    p.set_author("민원지원팀")
    p.cell(0, 12, "민원 회신서", new_x="LMARGIN", new_y="NEXT")
    p.ln(4)
    rows = [("접수 번호", "제2025-1187호"), ("주민등록번호", RRN), ("주소", ADDR), ("처리 결과", "요청하신 자료를 송부합니다.")]
    for label, value in rows:
        p.cell(40, 10, label)
        p.cell(0, 10, value, new_x="LMARGIN", new_y="NEXT")
    p.compress = False
    rev1 = bytes(p.output())
    pnum, pdict = page_object(rev1)
    cnum = int(re.search(rb"/Contents (\d+) 0 R", pdict).group(1))
    m = re.search(rb"(?s)(?<![0-9])%d 0 obj\s*<<.*?>>\s*stream\r?\n(.*?)\r?\nendstream" % cnum, rev1)
    content = m.group(1)
    values = [blk for blk in re.findall(rb"(?s)BT.*?ET", content)
              if (td := re.search(rb"([\d.]+) [\d.]+ Td", blk)) and float(td.group(1)) > 100]
    redacted = content
    for blk in values[1:3]:                           # the value cells of rows 2 and 3
        td = re.search(rb"([\d.]+) ([\d.]+) Td", blk)
        x, y = float(td.group(1)), float(td.group(2))
        redacted = redacted.replace(blk, b"0 g %.2f %.2f 300 14 re f" % (x - 1, y - 3), 1)
    assert redacted.count(b" re f") >= 2
    new_content = r3.stream(b"", redacted)
    cat_num, cat = catalog_object(rev1)
    size = int(re.findall(rb"/Size (\d+)", rev1)[-1])
    xmp = xmp_packet('<dc:creator><rdf:Seq><rdf:li>민원지원팀</rdf:li></rdf:Seq></dc:creator>'
                     '<Iptc4xmpCore:CreatorContactInfo rdf:parseType="Resource">'
                     f'<Iptc4xmpCore:CiEmailWork>{EMAIL}</Iptc4xmpCore:CiEmailWork></Iptc4xmpCore:CreatorContactInfo>'
                     '<xmp:CreatorTool>fpdf2</xmp:CreatorTool>')
    meta = r3.stream(b"/Type /Metadata /Subtype /XML", xmp)
    new_cat = (cat[:-2].rstrip() + b" /PageLabels << /Nums [0 << /S /D /P " + utf16_hex(f"{NAME} 회신-")
               + b" >>] >> /Metadata %d 0 R >>" % (size + 1))
    new_page = pdict.replace(b"/Contents %d 0 R" % cnum, b"/Contents %d 0 R" % size)
    pdf = incremental_update(rev1, {pnum: new_page, cat_num: new_cat}, [new_content, meta])
    out.append(("3", "c", "c3_incremental_update_old_revision_pagelabels_xmp.pdf", pdf,
                ["RRN", "ADDR", "NAME", "EMAIL"],
                {"RRN": "revision 1 of an incremental update (page content replaced)",
                 "ADDR": "revision 1 of an incremental update", "NAME": "page label prefix (/PageLabels /P)",
                 "EMAIL": "XMP /Metadata (Iptc4xmpCore CiEmailWork) unlike /Info"}))
    return out


# ------------------------------------------------------------------------------------------- class 4
def class4() -> list[tuple]:
    """Scans that OCR may read badly."""
    import random

    import numpy as np
    from PIL import Image, ImageChops, ImageDraw, ImageFilter
    out = []
    # 4a: a consent form "redacted" by hand: a translucent dark felt marker over the RRN and the account (the
    #     digits stay readable under it), a ruler-drawn pen line through the phone
    page = canvas(1400, 760, (250, 249, 245))
    draw_lines(page, ["개인정보 수집·이용 동의서 (사본)"], px=42, y0=40)
    rows = [("성명", "(서명 생략)"), ("주민등록번호", RRN), ("연락처", PHONE), ("환급 계좌", ACCOUNT)]
    f38 = font(38)
    spans = []
    for i, (k, v) in enumerate(rows):
        y = 150 + i * 110
        x = 60 + int(f38.getlength(k + "   "))
        draw_lines(page, [k], px=38, y0=y)
        draw_lines(page, [v], px=38, x=x, y0=y)
        spans.append((x, y, x + int(f38.getlength(v))))
    marker = canvas(1400, 760)
    d = ImageDraw.Draw(marker)
    rnd = random.Random(7)
    for x0, y, x1 in (spans[1], spans[3]):                              # a felt marker over the RRN and the account
        pts = [(x, y + 24 + rnd.randint(-3, 3)) for x in range(x0 - 14, x1 + 24, 18)]
        d.line(pts, fill=(92, 92, 104), width=54)
    page = ImageChops.multiply(page, marker.filter(ImageFilter.GaussianBlur(2)))
    x0, y, x1 = spans[2]
    ImageDraw.Draw(page).line((x0 - 10, y + 26, x1 + 12, y + 22), fill=(20, 30, 110), width=4)   # a pen line
    out.append(("4", "a", "c4_translucent_marker_pen_strike.png", enc(page, "PNG"), ["RRN", "PHONE", "ACCOUNT"],
                {"RRN": "under a translucent felt marker", "PHONE": "pen line drawn through the digits",
                 "ACCOUNT": "under a translucent felt marker"}))

    # 4b: a thin sheet scanned on its front (a harmless notice) while its back (the applicant's form) bleeds
    #     through mirrored and faint into the blank lower half
    front = canvas(1240, 1754, (246, 245, 240))
    draw_lines(front, ["민원 처리 안내문", "접수된 민원은 7일 이내에 처리 결과를 알려 드립니다.",
                       "문의는 민원지원팀으로 해 주십시오."], px=34, x=110, y0=140, step=80)
    back = Image.new("L", front.size, 255)
    draw_lines(back, ["신청서 (뒷면)", f"성명  {NAME}", f"전자우편  {EMAIL}", f"주소  {ADDR}"], px=40, x=160,
               y0=900, step=110, fill=0)
    back = back.transpose(Image.FLIP_LEFT_RIGHT).filter(ImageFilter.GaussianBlur(1.6))
    bleed = back.point(lambda v: int(255 - (255 - v) * 0.22))              # about 22 % of the ink comes through
    page = ImageChops.multiply(front, Image.merge("RGB", (bleed, bleed, bleed)))
    arr = np.asarray(page).astype(np.int16) + np.random.default_rng(3).integers(-5, 6, (1754, 1240, 1))
    page = Image.fromarray(np.clip(arr, 0, 255).astype("uint8"))
    out.append(("4", "b", "c4_bleed_through_mirrored_back.jpg", enc(page, "JPEG", quality=80, dpi=(150, 150)),
                ["NAME", "EMAIL", "ADDR"],
                {k: "back side bleeding through, mirrored and faint" for k in ("NAME", "EMAIL", "ADDR")}))

    # 4c: a phone photo of a thermal-printed waybill (택배 송장) on a bulging box: faded grey print with the white
    #     streaks of dead print-head dots, every row bent by the bulge, a barcode, brown cardboard around it
    lab = canvas(1000, 640, (247, 246, 241))
    d = ImageDraw.Draw(lab)
    d.rectangle((8, 8, 992, 632), outline=(120, 120, 120), width=3)
    for x in range(40, 940, 9):                                            # a tracking-number barcode
        if random.Random(x).random() < 0.55:
            d.rectangle((x, 40, x + random.Random(x + 1).choice((2, 3, 5)), 130), fill=(90, 90, 90))
    d.text((40, 140), "운송장 6084 2217 7035", fill=(110, 110, 110), font=font(26))
    for i, (k, v) in enumerate((("받는 분", NAME), ("연락처", PHONE), ("주소", ADDR))):
        d.text((40, 220 + i * 110), k, fill=(115, 115, 115), font=font(30))
        d.text((200, 210 + i * 110), v, fill=(105, 105, 105), font=serif(44))
    for x in (233, 371, 372, 518, 664, 665, 802):                           # dead print-head dots: white streaks
        d.line((x, 10, x, 630), fill=(247, 246, 241), width=2)
    a = np.asarray(lab)
    h, w = a.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    bend = 18 * np.sin(np.pi * xx / w)                                      # the middle of each row pushed up
    src_y = np.clip((yy + bend).astype(int), 0, h - 1)
    warped = Image.fromarray(a[src_y, xx])
    box = canvas(1300, 900, (176, 138, 96))
    box.paste(warped.rotate(-3, expand=True, fillcolor=(176, 138, 96)), (140, 110))
    shade = np.linspace(0.82, 1.05, 1300)[None, :, None]
    box = Image.fromarray(np.clip(np.asarray(box) * shade, 0, 255).astype("uint8")).filter(ImageFilter.GaussianBlur(0.9))
    out.append(("4", "c", "c4_thermal_waybill_bulging_box_photo.jpg", enc(box, "JPEG", quality=75),
                ["NAME", "PHONE", "ADDR"],
                {k: "faded thermal print, dead-dot streaks, rows bent by a bulging box" for k in ("NAME", "PHONE", "ADDR")}))
    return out


# ------------------------------------------------------------------------------------------- class 5
WORDS = dict(zip("0123456789", "공일이삼사오육칠팔구"))


def rfc2047(s: str, charset: str, codec: str) -> str:
    return f"=?{charset}?B?{base64.b64encode(s.encode(codec)).decode()}?="


def qp(s: str) -> str:
    """Quoted-printable (RFC 2045 6.7) of UTF-8 text, lines joined with CRLF, no soft breaks added."""
    return quopri.encodestring(s.encode("utf-8")).decode().replace("\n", "\r\n")


def class5() -> list[tuple]:
    """Text the detector may not read."""
    out = []
    # 5a: a mail saved as .txt: the sender's display name as an RFC 2047 encoded-word in ks_c_5601-1987 (EUC-KR), a
    #     quoted-printable UTF-8 body (the address all =XX escapes, a soft line break inside the phone) and a base64
    #     EUC-KR text attachment holding the RRN
    tel = PHONE[:6] + "=\r\n" + PHONE[6:]
    body = (qp(f"안녕하십니까. 민원 관련 회신 드립니다.\n\n주소지: {ADDR}\n") + qp("연락처:") + " " + tel + "\r\n"
            + qp("감사합니다.\n"))
    att = base64.encodebytes(f"민원 신청인 정보\r\n주민등록번호: {RRN}\r\n".encode("cp949")).decode().replace("\n", "\r\n")
    mail = ("Return-Path: <noreply@minwon.example.go.kr>\r\n"
            f"From: \"{rfc2047(NAME, 'ks_c_5601-1987', 'cp949')}\" <noreply@minwon.example.go.kr>\r\n"
            f"To: {rfc2047('민원지원팀', 'utf-8', 'utf-8')} <team@example.go.kr>\r\n"
            f"Subject: {rfc2047('민원 회신 자료', 'ks_c_5601-1987', 'cp949')}\r\n"
            "Date: Mon, 3 Nov 2025 14:12:09 +0900\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/mixed; boundary="----=_NextPart_000_0012_01DC4C8E.5A3B2F10"\r\n'
            "X-Mailer: Microsoft Outlook 16.0\r\n\r\nThis is a multi-part message in MIME format.\r\n\r\n"
            "------=_NextPart_000_0012_01DC4C8E.5A3B2F10\r\nContent-Type: text/plain; charset=\"utf-8\"\r\n"
            f"Content-Transfer-Encoding: quoted-printable\r\n\r\n{body}\r\n\r\n"
            "------=_NextPart_000_0012_01DC4C8E.5A3B2F10\r\n"
            f"Content-Type: text/plain; charset=\"euc-kr\"; name=\"{rfc2047('신청인.txt', 'euc-kr', 'cp949')}\"\r\n"
            "Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment; "
            f"filename=\"{rfc2047('신청인.txt', 'euc-kr', 'cp949')}\"\r\n\r\n{att}\r\n"
            "------=_NextPart_000_0012_01DC4C8E.5A3B2F10--\r\n")
    assert ADDR not in mail and NAME not in mail and RRN not in mail and PHONE not in mail
    out.append(("5", "a", "c5_saved_mail_rfc2047_euckr_qp_base64.txt", mail.encode("ascii"),
                ["NAME", "ADDR", "PHONE", "RRN"],
                {"NAME": "RFC 2047 encoded-word, ks_c_5601-1987 (From display name)",
                 "ADDR": "quoted-printable UTF-8 body (=XX escapes)", "PHONE": "quoted-printable soft line break inside",
                 "RRN": "base64 EUC-KR attachment part"}))

    # 5b: a chat log: the phone in mixed digits / Sino-Korean digit words / ㅇ for zero, the account with O and l
    #     standing for 0 and 1, the e-mail spelled with 쩜 and 앳
    p = re.sub(r"\D", "", PHONE)
    mixed = [p[0:3], p[3:7], p[7:11]]
    mix = lambda s, pick: "".join((WORDS[c] if i in pick else ("ㅇ" if c == "0" else c)) for i, c in enumerate(s))  # noqa: E731
    phone_said = f"{mix(mixed[0], {0})} {mix(mixed[1], {2})} {mix(mixed[2], {0, 3})}"
    acct = ACCOUNT.replace("0", "O").replace("1", "l")
    local, dom = EMAIL.split("@")
    mail_said = f"{local.replace('.', ' 쩜 ')} 앳 {dom.replace('.', ' 쩜 ')}"
    chat = ("민원 상담 채팅 기록 (2025-11-03)\r\n"
            "[상담원] [오후 2:10] 안녕하세요, 민원지원팀입니다. 환급 관련 문의 주셨나요?\r\n"
            "[민원인] [오후 2:11] 네 번호 남길게요 필터 때문에 이렇게 적어요\r\n"
            f"[민원인] [오후 2:11] {phone_said}\r\n"
            f"[민원인] [오후 2:12] 환급은 국민 {acct} 으로 부탁드려요\r\n"
            f"[민원인] [오후 2:13] 메일은 {mail_said} 입니다\r\n"
            "[상담원] [오후 2:14] 확인했습니다. 처리 후 연락드리겠습니다.\r\n")
    assert not re.search(r"\d{4}", phone_said) and ACCOUNT not in chat
    out.append(("5", "b", "c5_chat_mixed_digit_words_lookalike_digits_spelled_mail.txt", chat.encode("utf-8"),
                ["PHONE", "ACCOUNT", "EMAIL"],
                {"PHONE": "mixed digits / 공일이 words / ㅇ for 0", "ACCOUNT": "O and l for 0 and 1",
                 "EMAIL": "spelled with 쩜 and 앳"}))

    # 5c: an Excel round trip of a roster: the 13-digit RRN and the account stored as numbers and written back in
    #     scientific notation, the phone with its leading zero dropped, the name in passport romanisation over two
    #     columns
    rrn_d, acct_d = RRN.replace("-", ""), ACCOUNT.replace("-", "")
    sci = lambda d: f"{int(d):.5E}"  # noqa: E731
    surname, given = NAME_EN.split(" ")
    csv = ("연번,영문 성,영문 이름,주민등록번호,휴대전화,환급계좌,비고\r\n"
           f"1,{surname},{given},{sci(rrn_d)},{int(re.sub(r'[^0-9]', '', PHONE))},{sci(acct_d)},여권 사본 제출\r\n"
           "2,,,,,,(공석)\r\n")
    out.append(("5", "c", "c5_excel_roundtrip_sci_notation_romanised_name.csv", csv.encode("utf-8-sig"),
                ["NAME_EN", "RRN", "PHONE", "ACCOUNT"],
                {"NAME_EN": "passport romanisation over two columns (LIM | DOYUN)",
                 "RRN": "number in scientific notation (8.90613E+12)", "PHONE": "leading zero dropped (1098994962)",
                 "ACCOUNT": "number in scientific notation"}))
    return out


# ------------------------------------------------------------------------------------------- class 6
def class6() -> list[tuple]:
    """Ordinary Korean office files with no personal data: must be published (held = false alarm)."""
    from PIL import Image, ImageDraw
    out = []
    # 6a: DOCX: an embedded obfuscated font with an ordinary name table, printer settings of a shared office
    #     printer, a bibliography of a statute, a chart with a "단위: 건" text box, an animated WebP banner and a
    #     photo with an ordinary ExtendedXMP (DocumentAncestors bloat, caption) and Exif camera data
    key = "{2D81F4C7-6A39-4E0B-B5D2-93C07E1A6F48}"
    family = "안내바탕"
    fnt = obfuscated_font(family, "Copyright (c) 2010 NAVER Corporation", "http://hangeul.naver.com", key,
                          "청사 시설 안내 자료입니다. 참고문헌() 0123456789")
    _table, fparts = font_package(family, key, fnt)
    rpr = f'<w:rPr><w:rFonts w:ascii="{family}" w:eastAsia="{family}" w:hAnsi="{family}"/></w:rPr>'
    src = ('<b:Source><b:Tag>Law25</b:Tag><b:SourceType>Report</b:SourceType>'
           '<b:Guid>{0B7E3D21-4C8A-4F95-A6D0-2E91C5B83F74}</b:Guid><b:Author><b:Author><b:Corporate>행정안전부'
           '</b:Corporate></b:Author></b:Author><b:Title>민원 처리에 관한 법률 해설서</b:Title><b:Year>2024</b:Year>'
           '<b:Publisher>행정안전부</b:Publisher><b:City>세종</b:City><b:LCID>1042</b:LCID></b:Source>')
    b1 = draw_lines(canvas(900, 200, (232, 242, 236)), ["청사 시설 안내"], px=52, y0=60, fill=(30, 90, 50))
    b2 = draw_lines(canvas(900, 200, (232, 242, 236)), ["주차장 지하 2층"], px=52, y0=60, fill=(30, 90, 50))
    bb = io.BytesIO()
    b1.save(bb, "WEBP", save_all=True, append_images=[b2], duration=[3000, 3000], loop=0, lossless=True,
            exif=exif_xp_comment("청사 안내 배너"))
    shot = enc(photo(800, 500, seed=62), "JPEG", quality=85)
    shot = r4.with_segments(shot, exif_user_comment("본관 전경") + extended_xmp("본관 전경", "촬영 본관 앞 광장, 2025년 가을"))
    body = (f'<w:p><w:r>{rpr}<w:t xml:space="preserve">청사 시설 안내 자료입니다.</w:t></w:r></w:p>'
            + r3.drawing("rIdW", 1, emu(900), emu(200))
            + '<w:p><w:r><w:t xml:space="preserve">관련 규정은 다음을 참고하십시오 </w:t></w:r>'
            + citation("Law25", "(행정안전부, 2024)") + '<w:r><w:t>.</w:t></w:r></w:p>'
            + CHART_REF.format(n=2, rid="rIdCh") + r3.drawing("rIdJ", 3, emu(800), emu(500))
            + r3.para("방문 전 운영 시간을 확인해 주십시오."))
    store = "{9F2C5A10-3E7B-4D68-81C4-A5B0E6D27F93}"
    data = r3.docx(body, rels=[("rIdFt", "fontTable", "fontTable.xml", False), ("rIdSet", "settings", "settings.xml", False),
                               ("rIdPr", RT_PRINTER, "printerSettings/printerSettings1.bin", False),
                               ("rIdCx", "customXml", "../customXml/item1.xml", False),
                               ("rIdW", "image", "media/image1.webp", False), ("rIdJ", "image", "media/image2.jpeg", False),
                               ("rIdCh", "chart", "charts/chart1.xml", False)],
                   parts={**fparts, "word/settings.xml": r3.wpart("settings", "<w:embedTrueTypeFonts/>"),
                          "word/printerSettings/printerSettings1.bin": devmode(
                              "\\\\print01\\3F-민원실-복합기", "A4", secure_print_private("민원지원팀")),
                          "customXml/item1.xml": bibliography(src), "customXml/itemProps1.xml": bib_props(store),
                          "customXml/_rels/item1.xml.rels": r3.rels_xml([("rId1", "customXmlProps", "itemProps1.xml",
                                                                          False)]),
                          "word/media/image1.webp": bb.getvalue(), "word/media/image2.jpeg": shot,
                          "word/charts/chart1.xml": user_shapes_chart("월별 방문객", ["9월", "10월", "11월"],
                                                                      [2184, 2317, 2095]),
                          "word/charts/_rels/chart1.xml.rels": r3.rels_xml([("rIdUs", RT_USERSHAPES,
                                                                             "../drawings/drawing1.xml", False)]),
                          "word/drawings/drawing1.xml": chart_drawing("단위: 명")},
                   overrides={"/word/fontTable.xml": CT_FONTTABLE, "/word/settings.xml": CT_SETTINGS,
                              "/customXml/itemProps1.xml": CT_CXPROPS, "/word/charts/chart1.xml": CT_CHART,
                              "/word/drawings/drawing1.xml": CT_CHARTSHAPES},
                   defaults={"odttf": "application/vnd.openxmlformats-officedocument.obfuscatedFont",
                             "bin": "application/vnd.openxmlformats-officedocument.wordprocessingml.printerSettings",
                             "webp": "image/webp"})
    out.append(("6", "a", "c6_font_devmode_bibliography_chartshape_webp_extxmp.docx", data, [], {}))

    # 6b: an fpdf2 notice; an incremental update (as Acrobat writes when a form is filled) adds a
    #     second content stream (a colour-key logo and a shaded band), a filled text field with a matching
    #     appearance, page labels and an XMP packet that agrees with /Info
    import numpy as np
    p = fpdf_doc()
    p.set_title("청사 출입 안내")
    p.set_author("총무과")
    p.set_y(50)
    p.multi_cell(0, 9, "청사 출입 안내\n\n2025년 11월 3일부터 본관 출입구 공사로 민원인은 별관 출입구를 이용해 주십시오. "
                       "공사 기간은 약 6주이며, 안내 데스크 운영 시간은 09:00 ~ 18:00입니다.\n\n접수 일자:",
                 new_x="LMARGIN", new_y="NEXT")
    rev1 = bytes(p.output())
    pnum, pdict = page_object(rev1)
    size = int(re.findall(rb"/Size (\d+)", rev1)[-1])
    logo = Image.new("L", (360, 120), 255)
    dl = ImageDraw.Draw(logo)
    dl.ellipse((10, 10, 110, 110), fill=0)
    dl.text((130, 30), "CIVIC", fill=0, font=font(48))
    ink_ = np.asarray(logo) < 128
    rnd = np.random.default_rng(5)
    samples = np.where(ink_, 40, rnd.integers(200, 256, ink_.shape)).astype(np.uint8)
    lg = r3.stream(b"/Type /XObject /Subtype /Image /Width 360 /Height 120 /ColorSpace /DeviceGray /BitsPerComponent 8 "
                   b"/Mask [200 255] /Filter /FlateDecode", zlib.compress(samples.tobytes()))
    band = bytes(int(150 + 105 * i / 63) for i in range(64)) * 4          # a light-to-white band, 64 x 4 samples
    fn = r3.stream(b"/FunctionType 0 /Domain [0 1 0 1] /Range [0 1] /Size [64 4] /BitsPerSample 8 /Filter /FlateDecode",
                   zlib.compress(band))
    # added objects, numbered from size: +0 content, +1 logo, +2 shading, +3 function, +4 field, +5 its AP,
    # +6 XMP
    sh = b"<< /ShadingType 1 /ColorSpace /DeviceGray /Domain [0 1 0 1] /Matrix [595 0 0 14 0 0] /Function %d 0 R >>" % (size + 3)
    extra_cs = r3.stream(b"", b"q 120 0 0 40 440 780 cm /ImLogo Do Q\nq 0 0 595 14 re W n /ShBand sh Q\n")
    ap = r3.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 150 22] /Resources << " + r2.HELV.encode() + b" >>",
                   b"/Tx BMC BT /F1 12 Tf 0 g 4 6 Td (2025-11-03) Tj ET EMC\n")
    field = (b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (date) /TU (Date) /V (2025-11-03) /Rect [120 560 270 582] "
             b"/F 4 /P %d 0 R /DA (/Helv 12 Tf 0 g) /AP << /N %d 0 R >> >>" % (pnum, size + 5))
    xmp = xmp_packet('<dc:title><rdf:Alt><rdf:li xml:lang="x-default">청사 출입 안내</rdf:li></rdf:Alt></dc:title>'
                     '<dc:creator><rdf:Seq><rdf:li>총무과</rdf:li></rdf:Seq></dc:creator><xmp:CreatorTool>fpdf2'
                     '</xmp:CreatorTool>')
    meta = r3.stream(b"/Type /Metadata /Subtype /XML", xmp)
    cnum = int(re.search(rb"/Contents (\d+) 0 R", pdict).group(1))
    res = re.search(rb"/Resources (\d+) 0 R", pdict)
    res_body = obj_body(rev1, int(res.group(1))) if res else re.search(rb"(?s)/Resources\s*(<<.*?>>)\s*/", pdict).group(1)
    new_res = res_body[:-2].rstrip() + b" /Shading << /ShBand %d 0 R >> >>" % (size + 2)
    new_res = re.sub(rb"/XObject\s*<<", b"/XObject << /ImLogo %d 0 R" % (size + 1), new_res, count=1)
    if b"/ImLogo" not in new_res:
        new_res = new_res[:-2].rstrip() + b" /XObject << /ImLogo %d 0 R >> >>" % (size + 1)
    new_page = (pdict.replace(b"/Contents %d 0 R" % cnum, b"/Contents [%d 0 R %d 0 R]" % (cnum, size)))
    if res:
        replaced = {pnum: new_page[:-2].rstrip() + b" /Annots [%d 0 R] >>" % (size + 4), int(res.group(1)): new_res}
    else:
        new_page = new_page.replace(res_body, new_res, 1)
        replaced = {pnum: new_page[:-2].rstrip() + b" /Annots [%d 0 R] >>" % (size + 4)}
    cat_num, cat = catalog_object(rev1)
    replaced[cat_num] = (cat[:-2].rstrip() + b" /PageLabels << /Nums [0 << /S /D >>] >> /Metadata %d 0 R "
                         b"/AcroForm << /Fields [%d 0 R] /DA (/Helv 0 Tf 0 g) /DR << %s >> >> >>"
                         % (size + 6, size + 4, r2.HELV.replace("/F1", "/Helv").encode()))
    pdf = incremental_update(rev1, replaced, [extra_cs, lg, sh, fn, field, ap, meta])
    out.append(("6", "b", "c6_fpdf2_notice_filled_by_incremental_update.pdf", pdf, [], {}))

    # 6c: a meeting notice mail saved as .txt: RFC 2047 subject (EUC-KR), quoted-printable body, a base64 EUC-KR
    #     agenda attachment
    agenda = base64.encodebytes("1. 4분기 민원 처리 실적 보고\r\n2. 청사 출입구 공사 일정\r\n3. 기타 안건\r\n"
                                .encode("cp949")).decode().replace("\n", "\r\n")
    body = qp("안녕하십니까, 총무과입니다.\n\n제4차 운영회의를 아래와 같이 개최합니다.\n- 일시: 2025년 11월 17일(월) 오후 3시\n"
              "- 장소: 본관 3층 대회의실\n- 안건: 첨부 파일 참조\n\n참석 여부를 11월 14일까지 회신해 주십시오.\n")
    mail = ("Return-Path: <admin@example.go.kr>\r\n"
            f"From: \"{rfc2047('총무과', 'ks_c_5601-1987', 'cp949')}\" <admin@example.go.kr>\r\n"
            f"To: {rfc2047('전 직원', 'utf-8', 'utf-8')} <all@example.go.kr>\r\n"
            f"Subject: {rfc2047('[공지] 제4차 운영회의 개최 안내', 'ks_c_5601-1987', 'cp949')}\r\n"
            "Date: Mon, 10 Nov 2025 09:30:00 +0900\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/mixed; boundary="----=_NextPart_000_0031_01DC51F2.7B0C4E20"\r\n\r\n'
            "------=_NextPart_000_0031_01DC51F2.7B0C4E20\r\nContent-Type: text/plain; charset=\"utf-8\"\r\n"
            f"Content-Transfer-Encoding: quoted-printable\r\n\r\n{body}\r\n"
            "------=_NextPart_000_0031_01DC51F2.7B0C4E20\r\n"
            f"Content-Type: text/plain; charset=\"euc-kr\"; name=\"{rfc2047('안건.txt', 'euc-kr', 'cp949')}\"\r\n"
            "Content-Transfer-Encoding: base64\r\n"
            f"Content-Disposition: attachment; filename=\"{rfc2047('안건.txt', 'euc-kr', 'cp949')}\"\r\n\r\n{agenda}\r\n"
            "------=_NextPart_000_0031_01DC51F2.7B0C4E20--\r\n")
    out.append(("6", "c", "c6_meeting_mail_rfc2047_qp_base64.txt", mail.encode("ascii"), [], {}))
    return out


# --------------------------------------------------------------------------------------------- driver
def generate(dest: Path) -> list[dict]:
    _check_values()
    return r4.write_corpus(dest, class1() + class2() + class3() + class4() + class5() + class6(), VALUES)


def main(argv: list[str]) -> int:
    import redteam6_oracle as o6
    return r4.cli(argv, generate, o6)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
