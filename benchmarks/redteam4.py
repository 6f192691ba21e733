"""Fourth red-team corpus (issue 26): a fresh batch of 18 files, three per class 1-6 of the issue, written
from the file-format specifications and from what a hostile author could do -- never from the product's
readers, writers or leak check -- and measured once at HEAD before anything is fixed.

    nice .venv/bin/python benchmarks/redteam4.py generate DIR            # DIR/in/* + DIR/manifest.json
    nice .venv/bin/python benchmarks/redteam4.py selfcheck DIR           # the oracle sees every planted value
    nice .venv/bin/python benchmarks/redteam4.py run DIR [--base PATH]   # generate, redact, judge, figures
    nice .venv/bin/python benchmarks/redteam4.py judge DIR [--base PATH] # judge DIR/out again (DIR/summary.txt)

``run`` redacts DIR/in with the CLI of ``--base`` (a checkout; default this one; ``redteam2.redact``: the
embedded default detector, no review) and judges every published output (status ``ok``) with
``benchmarks/redteam4_oracle.py`` (the views of leak_oracle, redteam2_oracle and redteam3_oracle plus the
views the tricks below need). Verdicts per file: published clean / published LEAK (which value, where) /
held (needs review) / refused; a control (class 6, no personal data) that is not published is a false alarm.

New planted values (a name, an RRN and a foreigner registration number with valid check digits, a phone, an
address, an e-mail, a bank account, a passport number M + 8 digits; no 4-digit run shared between them).
Every trick is new relative to adversarial_corpus, attack_text_class, redteam2, redteam3, redteam_pictures
and redteam_pictures2:
  1 pictures/metadata: a DOCX page background picture (w:background/v:fill, ECMA-376 17.2.1), a picture
    whose DrawingML a:srcRect crops the PII off the shown part, a JPEG whose Exif IFD1 thumbnail (CIPA
    DC-008 4.5.8) shows other text than the main image, IPTC IIM By-line/Caption in a Photoshop APP13
    segment, a picture bullet (w:numPicBullet in numbering.xml); HWPX page background (hh:borderFill
    hc:imgBrush + hp:pageBorderFill), a picture on a master page (바탕쪽, Contents/masterpage0.xml), page 3
    of a 3-page TIFF;
  2 hidden places holding text: table alt text (w:tblCaption/w:tblDescription), a:hlinkClick tooltip of a
    picture, a nested field (IF around MERGEFIELD) whose outer instruction holds the value, a namespace
    URI declared on the document root, a data-bound content control whose cached text differs from its
    custom XML value, the cached SmartArt drawing part (dsp:drawing, word/diagrams/drawing1.xml), a chart
    number format literal (c:formatCode) and an Office 2013 data-label range cache (c15:dlblRangeCache);
    HWPX hp:bookmark name, hp:indexmark keys, the paragraph-number text of hh:paraHead (shown before
    every numbered paragraph), META-INF/container.rdf;
  3 PDF ink outside the text layer: a /Stamp and a /FreeText annotation drawn only by their /AP appearance
    streams, an embedded TrueType font whose cmap maps the codes A..Z to the glyphs of other characters
    (no ToUnicode: the text layer reads letters, the page shows the values), text that exists only in a
    luminosity soft mask (/SMask /S /Luminosity) through which a plain rectangle is painted;
  4 scans OCR reads badly: a red seal (직인) stamped over black text and a dot-matrix printout, a page
    scanned upside down and 5 degrees skewed, a form whose digits sit in comb boxes (one box per digit)
    scanned to a DCT (JPEG) PDF page;
  5 text the detector does not read: Hanja numerals (〇一〇), compatibility-jamo spelling (ㅈㅓㅇㅎㅏㄹㅏㅁ),
    superscript digits; HTML fragments in CSV cells (a span per syllable/digit, <wbr> in an e-mail); an
    RLO-reversed phone (U+202E), keycap digits (U+20E3), a box-drawing table with the name written
    vertically and the address wrapped inside a cell;
  6 controls: a meeting notice DOCX with a logo and a camera photo (Exif Make/Model/dates), an HWPX budget
    table (many numbers of >= 4 digits that are no identifiers) with an organisation chart picture, an
    fpdf2 PDF report with a bar chart picture.

Measured once before any fix, at HEAD 287eb66 (a ``git archive`` of it as ``--base``; 2026-12-02 21:00 UTC):
7 of 15 published with a leak (2a, 3c, 4a, 4c, 5a, 5b, 5c), 8 published clean, 0 held; 1 of 3 controls
held (6c: page 1 with the chart picture "needs review"). ``selfcheck``: the oracle is blind on 0 of 15.
"""
from __future__ import annotations

import io
import json
import struct
import sys
import time
import zipfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import redteam2 as r2  # noqa: E402  (helpers: pictures, escaping, outlines, HWPX parts, the CLI runner)
import redteam3 as r3  # noqa: E402  (helpers: DOCX/HWPX/PDF builders)
from redteam2 import DECL, NS, canvas, enc, font, xesc  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

NAME = "정하람"
RRN = "950822-2419075"            # valid check digit
FRN = "880315-5026382"            # foreigner registration number, valid check digit
PHONE = "010-6294-3058"
ADDR = "대전광역시 서구 둔산대로 117"
EMAIL = "haram.jung@example.com"
ACCOUNT = "1002-738-415069"
PASSPORT = "M57180392"
VALUES = {"NAME": NAME, "RRN": RRN, "PHONE": PHONE, "ADDR": ADDR, "EMAIL": EMAIL, "ACCOUNT": ACCOUNT,
          "FRN": FRN, "PASSPORT": PASSPORT}
PLAIN = "이 문서는 상반기 민원 처리 현황을 정리한 내부 자료입니다."
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"


def rezip(data: bytes, replace: dict | None = None, add: dict | None = None) -> bytes:
    """The ZIP ``data`` with members replaced (name -> bytes/str, or a function of the old bytes) and added;
    the member order is kept and ``mimetype`` stays first and stored."""
    replace, add = replace or {}, add or {}
    src = zipfile.ZipFile(io.BytesIO(data))
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            d = src.read(info)
            if info.filename in replace:
                r = replace[info.filename]
                d = r(d) if callable(r) else r
            if info.filename == "mimetype":
                z.writestr(zipfile.ZipInfo("mimetype"), d, compress_type=zipfile.ZIP_STORED)
            else:
                z.writestr(info.filename, d)
        for n, d in add.items():
            z.writestr(n, d)
    return b.getvalue()


def sub(old: str, new: str):
    """A replace function for rezip: ``old`` must occur in the member."""
    def f(d: bytes) -> bytes:
        t = d.decode("utf-8")
        assert old in t, old
        return t.replace(old, new, 1).encode("utf-8")
    return f


def draw_lines(img, lines, px=34, x=60, y0=60, step=None, fill="black"):
    from PIL import ImageDraw
    d = ImageDraw.Draw(img)
    for i, ln in enumerate(lines):
        d.text((x, y0 + i * (step or int(px * 1.9))), ln, fill=fill, font=font(px))
    return img


# ------------------------------------------------------------------------------------------- class 1
def exif_with_thumbnail(thumb_jpeg: bytes) -> bytes:
    """An APP1 Exif segment (CIPA DC-008): big-endian TIFF, IFD0 with Orientation, IFD1 with Compression 6 and
    JPEGInterchangeFormat/Length pointing at ``thumb_jpeg`` stored right after IFD1."""
    def ifd(entries, next_off):
        out = struct.pack(">H", len(entries))
        for tag, typ, cnt, val in entries:
            out += struct.pack(">HHI", tag, typ, cnt) + (struct.pack(">HH", val, 0) if typ == 3 else struct.pack(">I", val))
        return out + struct.pack(">I", next_off)
    ifd0_off = 8
    ifd0_len = 2 + 12 * 1 + 4
    ifd1_off = ifd0_off + ifd0_len
    ifd1_len = 2 + 12 * 3 + 4
    thumb_off = ifd1_off + ifd1_len
    tiff = (b"MM\x00\x2a" + struct.pack(">I", ifd0_off) + ifd([(0x0112, 3, 1, 1)], ifd1_off)
            + ifd([(0x0103, 3, 1, 6), (0x0201, 4, 1, thumb_off), (0x0202, 4, 1, len(thumb_jpeg))], 0) + thumb_jpeg)
    body = b"Exif\x00\x00" + tiff
    assert len(body) + 2 < 65536
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def iptc_app13(records: list[tuple[int, str]]) -> bytes:
    """A Photoshop APP13 segment holding one 8BIM 0x0404 resource: IPTC IIM records 2:dd in UTF-8 (1:90)."""
    iim = b"\x1c\x01\x5a\x00\x03\x1b%G" + b"\x1c\x02\x00\x00\x02\x00\x04"
    for ds, text in records:
        v = text.encode("utf-8")
        iim += bytes([0x1C, 2, ds]) + struct.pack(">H", len(v)) + v
    res = b"8BIM\x04\x04\x00\x00" + struct.pack(">I", len(iim)) + iim + (b"\x00" if len(iim) % 2 else b"")
    body = b"Photoshop 3.0\x00" + res
    return b"\xff\xed" + struct.pack(">H", len(body) + 2) + body


def with_segments(jpg: bytes, segments: bytes) -> bytes:
    """Insert marker segments right after SOI (and after a JFIF APP0 if there is one)."""
    assert jpg[:2] == b"\xff\xd8"
    pos = 2
    if jpg[2:4] == b"\xff\xe0":
        pos = 4 + struct.unpack(">H", jpg[4:6])[0]
    return jpg[:pos] + segments + jpg[pos:]


def photo(w: int, h: int, caption: str = "", seed: int = 4):
    """A harmless photo-like picture: sky gradient, a building, windows, a caption."""
    import random
    from PIL import ImageDraw
    rnd = random.Random(seed)
    img = canvas(w, h)
    d = ImageDraw.Draw(img)
    for y in range(h):
        v = int(150 + 90 * y / h)
        d.line((0, y, w, y), fill=(v - 60, v - 20, v))
    d.rectangle((w // 5, h // 3, w * 4 // 5, h), fill=(170, 160, 150))
    for i in range(6):
        for j in range(3):
            x0, y0 = w // 5 + 20 + i * (w // 10), h // 3 + 20 + j * (h // 6)
            d.rectangle((x0, y0, x0 + w // 20, y0 + h // 12), fill=(90 + rnd.randint(0, 40), 110, 140))
    if caption:
        d.rectangle((0, h - 50, w, h), fill=(30, 30, 30))
        d.text((20, h - 44), caption, fill="white", font=font(30))
    return img


def class1() -> list[tuple]:
    """Pictures and picture metadata inside DOCX/HWPX, reached from places other than a body drawing."""
    from PIL import Image
    out = []
    # 1a: page background picture (w:background > v:background > v:fill r:id, shown with
    #     w:displayBackgroundShape); a body picture whose a:srcRect crops off the bottom two thirds, where the
    #     RRN and the address are (Word shows the top third; the part holds all of it)
    bg = canvas(1240, 360, (250, 246, 236))
    draw_lines(bg, [f"담당자 {NAME}", f"직통 {PHONE}"], px=44, y0=70, step=110, fill=(60, 50, 40))
    crop = canvas(900, 330)
    draw_lines(crop, ["민원 접수 현황 (사진 1)"], px=40, y0=30)
    draw_lines(crop, [f"신청인 주민등록번호 {RRN}", f"주소 {ADDR}"], px=34, y0=150, step=80)
    body_pic = r3.drawing("rIdCrop", 2, 900 * 9525, 110 * 9525).replace(
        "<a:stretch>", '<a:srcRect b="66667"/><a:stretch>', 1)
    body = r3.para(PLAIN) + body_pic + r3.para("세부 내역은 별첨 자료를 참고하십시오.")
    settings = r3.wpart("settings", "<w:displayBackgroundShape/>")
    data = r3.docx(body, rels=[("rIdBg", "image", "media/image1.png", False),
                               ("rIdCrop", "image", "media/image2.png", False),
                               ("rIdSet", "settings", "settings.xml", False)],
                   parts={"word/media/image1.png": enc(bg, "PNG"), "word/media/image2.png": enc(crop, "PNG"),
                          "word/settings.xml": settings},
                   overrides={"/word/settings.xml": "application/vnd.openxmlformats-officedocument."
                              "wordprocessingml.settings+xml"})
    bgxml = ('<w:background w:color="FFFFFF"><v:background id="_x0000_s1025" o:bwmode="white" '
             'o:targetscreensize="1024,768"><v:fill r:id="rIdBg" o:title="배경" recolor="t" type="frame"/>'
             '</v:background></w:background>')
    data = rezip(data, {"word/document.xml": sub("<w:body>", bgxml + "<w:body>")})
    out.append(("1", "a", "c1_page_background_srcrect_crop.docx", data, ["NAME", "PHONE", "RRN", "ADDR"],
                {"NAME": "page background picture (w:background v:fill)", "PHONE": "page background picture",
                 "RRN": "picture part below its a:srcRect crop", "ADDR": "picture part below its a:srcRect crop"}))

    # 1b: a JPEG photo (harmless) with an Exif IFD1 thumbnail that shows the name and the account, IPTC
    #     By-line (name) and Caption (foreigner number) in APP13; a picture bullet showing the passport number
    thumb = canvas(380, 200, (245, 245, 245))
    draw_lines(thumb, [NAME, "계좌", ACCOUNT], px=34, x=12, y0=8, step=62)
    main = enc(photo(800, 500, "본관 앞 민원실 입구"), "JPEG", quality=88)
    jpg = with_segments(main, exif_with_thumbnail(enc(thumb, "JPEG", quality=92))
                        + iptc_app13([(80, NAME), (120, f"외국인등록번호 {FRN}")]))
    bullet = canvas(520, 90)
    draw_lines(bullet, [f"여권번호 {PASSPORT}"], px=44, x=14, y0=18)
    numbering = r3.wpart("numbering", (
        '<w:numPicBullet w:numPicBulletId="0"><w:pict><v:shape id="_x0000_i1030" type="#_x0000_t75" '
        'style="width:11.25pt;height:11.25pt" o:bullet="t"><v:imagedata r:id="rIdPb" o:title=""/></v:shape>'
        '</w:pict></w:numPicBullet><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
        '<w:numFmt w:val="bullet"/><w:lvlText w:val="\uf0b7"/><w:lvlPicBulletId w:val="0"/><w:lvlJc w:val="left"/>'
        '<w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'))
    li = '<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>'
    body = (r3.para(PLAIN) + r3.drawing("rIdPh", 1, 800 * 9525, 500 * 9525)
            + r3.para("접수 창구 운영 시간을 확인하십시오.", ppr=li) + r3.para("대기 순번표를 발급받으십시오.", ppr=li))
    out.append(("1", "b", "c1_exif_thumbnail_iptc_picbullet.docx", r3.docx(
        body, rels=[("rIdPh", "image", "media/image1.jpeg", False), ("rIdNum", "numbering", "numbering.xml", False)],
        parts={"word/media/image1.jpeg": jpg, "word/numbering.xml": numbering,
               "word/_rels/numbering.xml.rels": r3.rels_xml([("rIdPb", "image", "media/bullet1.png", False)]),
               "word/media/bullet1.png": enc(bullet, "PNG")},
        overrides={"/word/numbering.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"}),
        ["NAME", "ACCOUNT", "FRN", "PASSPORT"],
        {"NAME": "Exif IFD1 thumbnail + IPTC By-line (APP13)", "ACCOUNT": "Exif IFD1 thumbnail",
         "FRN": "IPTC Caption (APP13)", "PASSPORT": "picture bullet (w:numPicBullet)"}))

    # 1c: HWPX: a page background image brush (header.xml hh:borderFill > hc:fillBrush > hc:imgBrush,
    #     used by hp:pageBorderFill), a picture on the master page (Contents/masterpage0.xml), a 3-page TIFF in
    #     the body whose page 3 holds the address
    pagebg = canvas(1240, 300, (240, 246, 252))
    draw_lines(pagebg, [f"작성 {NAME}", f"주민등록번호 {RRN}"], px=42, y0=50, step=100, fill=(20, 40, 90))
    mp = canvas(900, 90)
    draw_lines(mp, [f"담당 연락처 {PHONE}"], px=40, x=20, y0=22)
    pages = [draw_lines(canvas(1000, 400), ["민원 처리 절차 안내 (1/3)"], px=36),
             draw_lines(canvas(1000, 400), ["접수 후 7일 이내 회신 (2/3)"], px=36),
             draw_lines(canvas(1000, 400), ["회신 받을 주소 (3/3)", ADDR], px=36)]
    b = io.BytesIO()
    pages[0].save(b, "TIFF", save_all=True, append_images=pages[1:], compression="tiff_lzw")
    sec_pr = ('<hp:run charPrIDRef="0"><hp:secPr id="" textDirection="HORIZONTAL" spaceColumns="1134" tabStop="8000" '
              'outlineShapeIDRef="1" memoShapeIDRef="0" textVerticalWidthHead="0" masterPageCnt="1">'
              '<hp:pagePr landscape="WIDELY" width="59528" height="84186" gutterType="LEFT_ONLY"><hp:margin '
              'header="4252" footer="4252" gutter="0" left="8504" right="8504" top="5668" bottom="4252"/></hp:pagePr>'
              '<hp:pageBorderFill type="BOTH" borderFillIDRef="2" textBorder="PAPER" headerInside="0" footerInside="0" '
              'fillArea="PAPER"><hp:offset left="1417" right="1417" top="1417" bottom="1417"/></hp:pageBorderFill>'
              '<hp:masterPage idRef="masterpage0"/></hp:secPr></hp:run>')
    data = r3.hwpx([sec_pr + r2.hrun(PLAIN), r2.hpic("scan", 30000, 12000)],
                   bindata={"pagebg.png": (enc(pagebg, "PNG"), "image/png"), "mp.png": (enc(mp, "PNG"), "image/png"),
                            "scan.tif": (b.getvalue(), "image/tiff")})
    border = ('<hh:borderFills itemCnt="2"><hh:borderFill id="1" threeD="0" shadow="0" centerLine="NONE" '
              'breakCellSeparateLine="0"><hh:slash type="NONE" Crooked="0" isCounter="0"/><hh:backSlash type="NONE" '
              'Crooked="0" isCounter="0"/><hh:leftBorder type="NONE" width="0.1 mm" color="#000000"/><hh:rightBorder '
              'type="NONE" width="0.1 mm" color="#000000"/><hh:topBorder type="NONE" width="0.1 mm" color="#000000"/>'
              '<hh:bottomBorder type="NONE" width="0.1 mm" color="#000000"/></hh:borderFill>'
              '<hh:borderFill id="2" threeD="0" shadow="0" centerLine="NONE" breakCellSeparateLine="0">'
              '<hh:slash type="NONE" Crooked="0" isCounter="0"/><hh:backSlash type="NONE" Crooked="0" isCounter="0"/>'
              '<hc:fillBrush><hc:imgBrush mode="TOTAL"><hc:img binaryItemIDRef="pagebg" bright="0" contrast="0" '
              'effect="REAL_PIC" alpha="0"/></hc:imgBrush></hc:fillBrush></hh:borderFill></hh:borderFills>')
    master = (DECL + f'<masterPage xmlns="http://www.hancom.co.kr/hwpml/2011/master-page" xmlns:hp="{r2.HP}" '
              f'xmlns:hc="{r2.HC}" id="masterpage0" type="BOTH" pageNumber="0" pageDuplicate="0" pageFront="0">'
              '<hp:subList id="" textDirection="HORIZONTAL" lineWrap="BREAK" vertAlign="TOP" linkListIDRef="0" '
              'linkListNextIDRef="0" textWidth="42520" textHeight="65762" hasTextRef="0" hasNumRef="0">'
              '<hp:p id="0" paraPrIDRef="0" styleIDRef="0" pageBreak="0" columnBreak="0" merged="0">'
              f'{r2.hpic("mp", 30000, 3000)}</hp:p></hp:subList></masterPage>')
    data = rezip(data, {"Contents/header.xml": sub("</hh:fontfaces>", "</hh:fontfaces>" + border),
                        "Contents/content.hpf": sub("</opf:manifest>", '<opf:item id="masterpage0" '
                                                    'href="Contents/masterpage0.xml" media-type="application/xml"/>'
                                                    "</opf:manifest>")},
                 add={"Contents/masterpage0.xml": master})
    out.append(("1", "c", "c1_hwpx_imgbrush_masterpage_tiff_page3.hwpx", data, ["NAME", "RRN", "PHONE", "ADDR"],
                {"NAME": "page background hc:imgBrush (header.xml borderFill)", "RRN": "page background hc:imgBrush",
                 "PHONE": "picture on the master page", "ADDR": "page 3 of a 3-page TIFF"}))
    return out


# ------------------------------------------------------------------------------------------- class 2
def class2() -> list[tuple]:
    """Hidden places of DOCX/HWPX that hold text: attribute values, caches, key strings."""
    out = []
    # 2a: table alt text (w:tblCaption / w:tblDescription), the a:hlinkClick tooltip of a picture, an IF field
    #     around a nested MERGEFIELD whose outer instruction holds the e-mail, a namespace URI on w:document
    cell = lambda t: f'<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>{r3.para(t)}</w:tc>'  # noqa: E731
    table = ('<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/>'
             '<w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" '
             f'w:noVBand="1"/><w:tblCaption w:val="신청인 {NAME} 인적사항"/>'
             f'<w:tblDescription w:val="주민등록번호 {RRN} 확인 완료"/></w:tblPr>'
             '<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>'
             + "<w:tr>" + cell("구분") + cell("처리 결과") + "</w:tr>"
             + "<w:tr>" + cell("서류 확인") + cell("완료") + "</w:tr></w:tbl>")
    pic = enc(draw_lines(canvas(600, 80), ["민원 안내 바로가기"], px=34, y0=20), "PNG")
    link = r3.drawing("rIdPic", 3, 600 * 9525, 80 * 9525).replace(
        '<wp:docPr id="3" name="그림 3"/>',
        f'<wp:docPr id="3" name="그림 3"><a:hlinkClick xmlns:a="{A_NS}" r:id="rIdLk" '
        f'tooltip="문의 {PHONE} (담당자 직통)"/></wp:docPr>')
    fld = ('<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> IF </w:instrText>'
           '</w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> MERGEFIELD 회신방법 '
           '</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>«회신방법»</w:t></w:r>'
           '<w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:instrText xml:space="preserve"> = "메일" '
           f'"회신 주소 {EMAIL}" "우편 회신" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
           '<w:r><w:t>우편 회신</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>')
    data = r3.docx(r3.para(PLAIN) + table + link + fld,
                   rels=[("rIdPic", "image", "media/image1.png", False),
                         ("rIdLk", "hyperlink", "https://intranet.example/notice/42", True)],
                   parts={"word/media/image1.png": pic})
    data = rezip(data, {"word/document.xml": sub("<w:document ", f'<w:document xmlns:acct="urn:x-bank:{ACCOUNT}" ')})
    out.append(("2", "a", "c2_tblcaption_hlinktooltip_nestedfield_xmlns.docx", data,
                ["NAME", "RRN", "PHONE", "EMAIL", "ACCOUNT"],
                {"NAME": "w:tblCaption", "RRN": "w:tblDescription", "PHONE": "a:hlinkClick tooltip on wp:docPr",
                 "EMAIL": "outer IF field instruction around a nested MERGEFIELD",
                 "ACCOUNT": "xmlns:acct namespace URI on w:document"}))

    # 2b: a content control bound to custom XML whose value (the address) differs from its cached text; the
    #     cached SmartArt drawing (dsp:drawing) with the phone while the data model says "연락처"; a chart
    #     whose number format literal holds the name and whose c15 data-label range cache holds the FRN
    store = "{8B1F3C52-6D2A-4E11-9A3C-5F0E7D2B4A61}"
    item = DECL + f'<form xmlns="urn:x-civil-form"><addr>{xesc(ADDR)}</addr></form>'
    props = (DECL + f'<ds:datastoreItem ds:itemID="{store}" xmlns:ds="http://schemas.openxmlformats.org/'
             'officeDocument/2006/customXml"><ds:schemaRefs><ds:schemaRef ds:uri="urn:x-civil-form"/></ds:schemaRefs>'
             '</ds:datastoreItem>')
    sdt = ('<w:p><w:r><w:t xml:space="preserve">회신 주소: </w:t></w:r><w:sdt><w:sdtPr><w:alias w:val="회신 주소"/>'
           '<w:dataBinding w:prefixMappings="xmlns:f=\'urn:x-civil-form\'" w:xpath="/f:form[1]/f:addr[1]" '
           f'w:storeItemID="{store}"/><w:text/></w:sdtPr><w:sdtContent><w:r><w:t>(별도 제출)</w:t></w:r></w:sdtContent>'
           '</w:sdt></w:p>')
    dgm = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
    dsp = "http://schemas.microsoft.com/office/drawing/2008/diagram"
    data1 = (DECL + f'<dgm:dataModel xmlns:dgm="{dgm}" xmlns:a="{A_NS}"><dgm:ptLst><dgm:pt modelId="{{0}}" type="doc">'
             '<dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:r><a:t>처리 절차</a:t></a:r></a:p></dgm:t></dgm:pt>'
             '<dgm:pt modelId="{1}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:r><a:t>연락처</a:t></a:r></a:p>'
             '</dgm:t></dgm:pt></dgm:ptLst><dgm:cxnLst><dgm:cxn modelId="{2}" srcId="{0}" destId="{1}" srcOrd="0" '
             f'destOrd="0"/></dgm:cxnLst><dgm:bg/><dgm:whole/><dgm:extLst><a:ext uri="{dsp}">'
             f'<dsp:dataModelExt xmlns:dsp="{dsp}" relId="rIdDd" minVer="http://schemas.openxmlformats.org/drawingml/'
             '2006/diagram"/></a:ext></dgm:extLst></dgm:dataModel>')
    drawing1 = (DECL + f'<dsp:drawing xmlns:dsp="{dsp}" xmlns:dgm="{dgm}" xmlns:a="{A_NS}"><dsp:spTree>'
                '<dsp:nvGrpSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvGrpSpPr/></dsp:nvGrpSpPr><dsp:grpSpPr/>'
                '<dsp:sp modelId="{1}"><dsp:nvSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvSpPr/></dsp:nvSpPr>'
                '<dsp:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3000000" cy="600000"/></a:xfrm>'
                '<a:prstGeom prst="roundRect"><a:avLst/></a:prstGeom></dsp:spPr><dsp:style/><dsp:txBody><a:bodyPr/>'
                f'<a:lstStyle/><a:p><a:r><a:rPr lang="ko-KR"/><a:t>연락처 {PHONE}</a:t></a:r></a:p></dsp:txBody>'
                '<dsp:txXfrm><a:off x="0" y="0"/><a:ext cx="3000000" cy="600000"/></dsp:txXfrm></dsp:sp>'
                '</dsp:spTree></dsp:drawing>')
    smart = ('<w:p><w:r><w:drawing><wp:inline><wp:extent cx="3000000" cy="600000"/><wp:docPr id="4" name="다이어그램 4"/>'
             f'<a:graphic><a:graphicData uri="{dgm}"><dgm:relIds xmlns:dgm="{dgm}" r:dm="rIdDm" r:lo="rIdLo" '
             'r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')
    c15 = "http://schemas.microsoft.com/office/drawing/2012/chart"
    chart = (DECL + f'<c:chartSpace {NS} xmlns:c15="{c15}"><c:chart><c:plotArea><c:barChart><c:barDir val="col"/>'
             '<c:grouping val="clustered"/><c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:strRef><c:f>Sheet1!$B$1'
             '</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>만족도</c:v></c:pt></c:strCache></c:strRef></c:tx>'
             '<c:dLbls><c:showLegendKey val="0"/><c:showVal val="1"/><c:showCatName val="0"/><c:showSerName val="0"/>'
             '<c:showPercent val="0"/><c:showBubbleSize val="0"/></c:dLbls><c:cat><c:strRef><c:f>Sheet1!$A$2</c:f>'
             '<c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>1분기</c:v></c:pt></c:strCache></c:strRef></c:cat>'
             '<c:val><c:numRef><c:f>Sheet1!$B$2</c:f><c:numCache>'
             f'<c:formatCode>"담당 {NAME} "#,##0"점"</c:formatCode><c:ptCount val="1"/><c:pt idx="0"><c:v>87</c:v>'
             '</c:pt></c:numCache></c:numRef></c:val><c:extLst><c:ext uri="{02D57815-91ED-43cb-92C2-25804820EDAC}">'
             '<c15:datalabelsRange><c15:f>Sheet1!$C$2</c15:f><c15:dlblRangeCache><c:ptCount val="1"/><c:pt idx="0">'
             f'<c:v>{FRN}</c:v></c:pt></c15:dlblRangeCache></c15:datalabelsRange></c:ext></c:extLst></c:ser>'
             '<c:axId val="1"/><c:axId val="2"/></c:barChart></c:plotArea></c:chart></c:chartSpace>')
    chart_ref = ('<w:p><w:r><w:drawing><wp:inline><wp:extent cx="4000000" cy="2400000"/><wp:docPr id="5" name="차트 5"/>'
                 '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">'
                 '<c:chart r:id="rIdCh"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')
    ct = "application/vnd.openxmlformats-officedocument.drawingml."
    out.append(("2", "b", "c2_boundcache_smartart_dsp_chart_formatcode.docx", r3.docx(
        r3.para(PLAIN) + sdt + smart + chart_ref,
        rels=[("rIdCx", "customXml", "../customXml/item1.xml", False),
              ("rIdDm", "diagramData", "diagrams/data1.xml", False),
              ("rIdLo", "diagramLayout", "diagrams/layout1.xml", False),
              ("rIdQs", "diagramQuickStyle", "diagrams/quickStyle1.xml", False),
              ("rIdCs", "diagramColors", "diagrams/colors1.xml", False),
              ("rIdDd", "http://schemas.microsoft.com/office/2007/relationships/diagramDrawing", "diagrams/drawing1.xml",
               False),
              ("rIdCh", "chart", "charts/chart1.xml", False)],
        parts={"customXml/item1.xml": item, "customXml/itemProps1.xml": props,
               "customXml/_rels/item1.xml.rels": r3.rels_xml([("rId1", "customXmlProps", "itemProps1.xml", False)]),
               "word/diagrams/data1.xml": data1, "word/diagrams/drawing1.xml": drawing1,
               "word/diagrams/layout1.xml": DECL + f'<dgm:layoutDef xmlns:dgm="{dgm}" uniqueId="urn:microsoft.com/'
               'office/officeart/2005/8/layout/default"><dgm:layoutNode name="diagram"/></dgm:layoutDef>',
               "word/diagrams/quickStyle1.xml": DECL + f'<dgm:styleDef xmlns:dgm="{dgm}" uniqueId="urn:microsoft.com/'
               'office/officeart/2005/8/quickstyle/simple1"/>',
               "word/diagrams/colors1.xml": DECL + f'<dgm:colorsDef xmlns:dgm="{dgm}" uniqueId="urn:microsoft.com/'
               'office/officeart/2005/8/colors/accent1_2"/>',
               "word/charts/chart1.xml": chart},
        overrides={"/customXml/itemProps1.xml": "application/vnd.openxmlformats-officedocument.customXmlProperties+xml",
                   "/word/diagrams/data1.xml": ct + "diagramData+xml",
                   "/word/diagrams/layout1.xml": ct + "diagramLayout+xml",
                   "/word/diagrams/quickStyle1.xml": ct + "diagramStyle+xml",
                   "/word/diagrams/colors1.xml": ct + "diagramColors+xml",
                   "/word/diagrams/drawing1.xml": "application/vnd.ms-office.drawingml.diagramDrawing+xml",
                   "/word/charts/chart1.xml": ct + "chart+xml"}),
        ["ADDR", "PHONE", "NAME", "FRN"],
        {"ADDR": "custom XML value bound to a content control (cached text differs)",
         "PHONE": "cached SmartArt drawing part (dsp:drawing)", "NAME": "chart c:formatCode literal",
         "FRN": "chart c15:dlblRangeCache"}))

    # 2c: HWPX: an hp:bookmark named with the RRN's digits, an hp:indexmark (찾아보기) whose keys are the name and
    #     the passport number, the paragraph-number text of hh:paraHead (shown before each numbered paragraph)
    #     holding the phone, META-INF/container.rdf describing the author by a mailto: URI
    bm = f'<hp:run charPrIDRef="0"><hp:ctrl><hp:bookmark name="신청_{RRN.replace("-", "_")}"/></hp:ctrl></hp:run>'
    ix = (f'<hp:run charPrIDRef="0"><hp:ctrl><hp:indexmark><hp:firstKey>{NAME}</hp:firstKey>'
          f'<hp:secondKey>{PASSPORT}</hp:secondKey></hp:indexmark></hp:ctrl></hp:run>')
    data = r3.hwpx([bm + r2.hrun(PLAIN), ix + r2.hrun("처리 기한은 접수일로부터 7일입니다."), r2.hrun("끝.")])
    numbering = ('<hh:numberings itemCnt="1"><hh:numbering id="1" start="0"><hh:paraHead start="1" level="1" '
                 'align="LEFT" useInstWidth="1" autoIndent="1" widthAdjust="0" textOffsetType="PERCENT" textOffset="50" '
                 f'numFormat="DIGIT" charPrIDRef="4294967295" checkable="0">연락 {PHONE} ^1.</hh:paraHead></hh:numbering>'
                 '</hh:numberings>')
    para_pr = ('<hh:paraPr id="0" tabPrIDRef="0" condense="0" fontLineHeight="0" snapToGrid="1" suppressLineNumbers="0" '
               'checked="0"><hh:align horizontal="JUSTIFY" vertical="BASELINE"/><hh:heading type="NUMBER" idRef="1" '
               'level="0"/></hh:paraPr>')
    hns = "http://www.hancom.co.kr/hwpml/2016/meta/pkg#"
    rdf = (DECL + '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="">'
           f'<ns0:hasPart xmlns:ns0="{hns}" rdf:resource="Contents/header.xml"/>'
           f'<ns0:hasPart xmlns:ns0="{hns}" rdf:resource="Contents/section0.xml"/>'
           f'<ns0:creator xmlns:ns0="{hns}" rdf:resource="mailto:{EMAIL}"/></rdf:Description>'
           f'<rdf:Description rdf:about="Contents/header.xml"><rdf:type rdf:resource="{hns}HeaderFile"/>'
           f'</rdf:Description><rdf:Description rdf:about="Contents/section0.xml"><rdf:type rdf:resource="{hns}'
           f'SectionFile"/></rdf:Description><rdf:Description rdf:about="mailto:{EMAIL}"><rdf:type '
           'rdf:resource="http://purl.org/dc/terms/Agent"/></rdf:Description></rdf:RDF>')
    data = rezip(data, {"Contents/header.xml": lambda d: sub('<hh:paraPr id="0"/>', para_pr)(
        sub("<hh:paraProperties", numbering + "<hh:paraProperties")(d)),
        "META-INF/container.xml": sub("</ocf:rootfiles>", '<ocf:rootfile full-path="META-INF/container.rdf" '
                                      'media-type="application/rdf+xml"/></ocf:rootfiles>')},
        add={"META-INF/container.rdf": rdf})
    out.append(("2", "c", "c2_hwpx_bookmark_indexmark_parahead_rdf.hwpx", data,
                ["RRN", "NAME", "PASSPORT", "PHONE", "EMAIL"],
                {"RRN": "hp:bookmark name (digits joined by _)", "NAME": "hp:indexmark firstKey",
                 "PASSPORT": "hp:indexmark secondKey", "PHONE": "hh:paraHead number text (header.xml)",
                 "EMAIL": "META-INF/container.rdf mailto: URI"}))
    return out


# ------------------------------------------------------------------------------------------- class 3
def swapped_truetype(text: str) -> tuple[bytes, dict[str, int], list[int]]:
    """A NanumGothic subset whose cmap maps U+0041.. (A, B, ...) to the glyphs of the characters of ``text``:
    with /Encoding /WinAnsiEncoding and no ToUnicode a viewer draws the glyphs, a text extractor reads the
    letters. Returns (TTF bytes, character -> code, widths per code in 1/1000 em)."""
    import logging
    from fontTools import subset
    from fontTools.ttLib import TTFont
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)
    chars = sorted(set(text))
    assert len(chars) <= 26
    f = TTFont(str(r2.FONT))
    opts = subset.Options()
    opts.glyph_names = False
    opts.name_IDs = []
    opts.notdef_outline = True
    sub_ = subset.Subsetter(opts)
    sub_.populate(unicodes=[ord(c) for c in chars])
    sub_.subset(f)
    cmap = f.getBestCmap()
    upem = f["head"].unitsPerEm
    new = {0x41 + i: cmap[ord(c)] for i, c in enumerate(chars)}
    for t in f["cmap"].tables:
        t.cmap = dict(new) if t.isUnicode() else {}
    f["cmap"].tables = [t for t in f["cmap"].tables if t.isUnicode()]
    b = io.BytesIO()
    f.save(b)
    widths = [int(f["hmtx"][new[0x41 + i]][0] * 1000 / upem) for i in range(len(chars))]
    return b.getvalue(), {c: 0x41 + i for i, c in enumerate(chars)}, widths


def class3() -> list[tuple]:
    """PDF ink that is not in the text layer."""
    out = []
    visible = b"BT /F1 12 Tf 60 790 Td (Civil petitions, first half: internal notes) Tj ET\n"
    # 3a: a /Stamp annotation whose /AP draws the name and RRN as glyph outlines; a /FreeText annotation whose
    #     /AP draws the phone in Helvetica (annotations are no page content: no text layer holds them)
    stamp_ap = r3.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 360 70] /Resources << >>",
                         b"0.72 0.05 0.05 rg\n" + r2.outline_path(f"{NAME} {RRN}", 8, 24, 24) + b"f\n"
                         b"0.72 0.05 0.05 RG 2 w 2 2 356 66 re S\n")
    free_ap = r3.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 300 30] /Resources << " + r2.HELV.encode() + b" >>",
                        b"BT /F1 16 Tf 0 g 4 8 Td (Tel. " + PHONE.encode() + b") Tj ET\n")
    # objects: 5 stamp annot, 6 stamp AP, 7 freetext annot, 8 freetext AP
    annots = [b"<< /Type /Annot /Subtype /Stamp /Rect [60 620 420 690] /F 4 /Name /Approved /AP << /N 6 0 R >> >>",
              stamp_ap,
              b"<< /Type /Annot /Subtype /FreeText /Rect [60 560 360 590] /F 4 /DA (/Helv 16 Tf 0 g) "
              b"/Contents (see the attached memo) /AP << /N 8 0 R >> >>",
              free_ap]
    out.append(("3", "a", "c3_stamp_freetext_appearance_only.pdf",
                r3.pdf([(visible, f"<< {r2.HELV} >> /Annots [5 0 R 7 0 R]")], annots),
                ["NAME", "RRN", "PHONE"],
                {"NAME": "/Stamp annotation /AP (outlines)", "RRN": "/Stamp annotation /AP (outlines)",
                 "PHONE": "/FreeText annotation /AP (Helvetica text)"}))
    # 3b: an embedded TrueType font whose cmap sends the codes A.. to the glyphs of the shown characters
    shown = [f"담당 {NAME}", f"연락처 {PHONE}", f"계좌 {ACCOUNT}"]
    ttf, code, widths = swapped_truetype("".join(shown))
    n = len(widths)
    font_dict = (f"<< /Type /Font /Subtype /TrueType /BaseFont /QWERTY+Swap /FirstChar 65 /LastChar {64 + n} "
                 f"/Widths [{' '.join(map(str, widths))}] /Encoding /WinAnsiEncoding /FontDescriptor 6 0 R >>").encode()
    desc = (b"<< /Type /FontDescriptor /FontName /QWERTY+Swap /Flags 32 /FontBBox [-100 -250 1100 950] "
            b"/ItalicAngle 0 /Ascent 900 /Descent -250 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>")
    ff = r3.stream(b"/Length1 %d /Filter /FlateDecode" % len(ttf), zlib.compress(ttf))
    cs = visible
    for i, ln in enumerate(shown):
        s = bytes(code[c] for c in ln).replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        cs += b"BT /F2 20 Tf 60 %d Td (" % (700 - 40 * i) + s + b") Tj ET\n"
    out.append(("3", "b", "c3_truetype_cmap_glyph_swap.pdf",
                r3.pdf([(cs, f"<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> /F2 5 0 R >> >>")],
                       [font_dict, desc, ff]),
                ["NAME", "PHONE", "ACCOUNT"],
                {"NAME": "TrueType glyphs behind codes A.. (no ToUnicode)", "PHONE": "TrueType glyph swap",
                 "ACCOUNT": "TrueType glyph swap"}))
    # 3c: the values exist only inside a luminosity soft mask (a transparency group: white text on black); the
    #     page paints a dark blue rectangle through it
    mask_cs = (b"0 g 0 0 595 842 re f 1 g\n"
               + r2.outline_path(f"신청인 {NAME}", 60, 676, 22) + b"f\n"
               b"BT /F1 18 Tf 60 640 Td (ARC " + FRN.encode() + b") Tj ET\n"
               b"BT /F1 18 Tf 60 610 Td (" + EMAIL.encode() + b") Tj ET\n")
    mask = r3.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Group << /S /Transparency /CS /DeviceGray >> "
                     b"/Resources << " + r2.HELV.encode() + b" >>", mask_cs)
    gs = b"<< /Type /ExtGState /SMask << /Type /Mask /S /Luminosity /G 6 0 R >> >>"
    cs = visible + b"q /GS1 gs 0.05 0.1 0.45 rg 50 595 460 115 re f Q\n"
    out.append(("3", "c", "c3_luminosity_softmask_text.pdf",
                r3.pdf([(cs, f"<< {r2.HELV} /ExtGState << /GS1 5 0 R >> >>")], [gs, mask]),
                ["NAME", "FRN", "EMAIL"],
                {"NAME": "soft-mask group (outlines)", "FRN": "soft-mask group (text)", "EMAIL": "soft-mask group (text)"}))
    return out


# ------------------------------------------------------------------------------------------- class 4
def dot_matrix(img, xy, text: str, px: int = 44, pitch: int = 4, r: float = 1.5, fill=(20, 20, 20)):
    """Draw ``text`` as a dot-matrix printer does: one dot per ``pitch`` x ``pitch`` cell of the grid in which
    the (bold) glyph has ink."""
    import numpy as np
    from PIL import Image, ImageDraw
    m = Image.new("L", (int(px * len(text) * 0.8) + 20, px + 20), 255)
    ImageDraw.Draw(m).text((4, 4), text, fill=0, font=font(px), stroke_width=1, stroke_fill=0)
    a = np.asarray(m) < 128
    h, w = a.shape
    d = ImageDraw.Draw(img)
    for y in range(0, h - pitch, pitch):
        for x in range(0, w - pitch, pitch):
            if a[y:y + pitch, x:x + pitch].mean() > 0.3:
                cx, cy = xy[0] + x + pitch / 2, xy[1] + y + pitch / 2
                d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def class4() -> list[tuple]:
    """Scans that OCR may read badly."""
    from PIL import Image, ImageChops, ImageDraw, ImageFilter
    out = []
    # 4a: a consent form: the name and RRN in black with a red seal stamped over them (multiplied, as ink
    #     does), the seal holding the name; the phone and account printed by a dot-matrix printer
    img = canvas(1400, 640)
    draw_lines(img, ["개인정보 수집·이용 동의서"], px=42, y0=40)
    draw_lines(img, [f"성명   {NAME}   (인)", f"주민등록번호   {RRN}"], px=38, y0=150, step=90)
    seal = canvas(1400, 640)
    d = ImageDraw.Draw(seal)
    cx, cy, rad = 330, 205, 78
    red = (215, 35, 35)
    d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), outline=red, width=7)
    d.text((cx - 52, cy - 22), NAME, fill=red, font=font(36))
    img = ImageChops.multiply(img, seal.filter(ImageFilter.GaussianBlur(0.6)))
    draw_lines(img, ["휴대전화", "입금계좌"], px=34, y0=400, step=100)
    dot_matrix(img, (260, 392), PHONE)
    dot_matrix(img, (260, 492), ACCOUNT)
    out.append(("4", "a", "c4_red_seal_over_text_dot_matrix.png", enc(img, "PNG"), ["NAME", "RRN", "PHONE", "ACCOUNT"],
                {"NAME": "black text under a red seal + the seal's red text", "RRN": "black text under a red seal",
                 "PHONE": "dot-matrix print", "ACCOUNT": "dot-matrix print"}))
    # 4b: an A4 page at 150 dpi fed upside down and 5 degrees askew (185 degrees), greyish scanner paper
    page = canvas(1240, 1754, (246, 244, 238))
    draw_lines(page, ["체류 자격 변경 신청 확인서", f"성명  {NAME}", f"외국인등록번호  {FRN}", f"여권번호  {PASSPORT}",
                      f"주소  {ADDR}", f"전자우편  {EMAIL}"], px=34, x=110, y0=160, step=80)
    page = page.rotate(185, resample=Image.BICUBIC, expand=False, fillcolor=(246, 244, 238))
    out.append(("4", "b", "c4_upside_down_skewed_scan.jpg", enc(page, "JPEG", quality=60, dpi=(150, 150)),
                ["NAME", "FRN", "PASSPORT", "ADDR", "EMAIL"],
                {k: "page scanned upside down, 5 degrees askew" for k in ("NAME", "FRN", "PASSPORT", "ADDR", "EMAIL")}))
    # 4c: a form with comb boxes (one box per character, as Korean paper forms print them), scanned at 200 dpi
    #     as a DCT (JPEG) page image
    g = Image.new("L", (1654, 2339), 250)
    d = ImageDraw.Draw(g)
    d.text((140, 150), "주민등록표 열람 신청서", fill=0, font=font(52))
    box = 74

    def comb(x, y, text, label):
        d.text((x, y + 16), label, fill=0, font=font(34))
        x += 300
        for ch in text:
            if ch == "-":
                d.line((x + 8, y + box // 2, x + 30, y + box // 2), fill=0, width=4)
                x += 38
                continue
            d.rectangle((x, y, x + box, y + box), outline=0, width=3)
            d.text((x + (14 if ch.isdigit() else 6), y + 10), ch, fill=0, font=font(48 if ch.isdigit() else 50))
            x += box
    comb(140, 360, NAME, "성      명")
    comb(140, 520, RRN, "주민등록번호")
    comb(140, 680, PHONE, "전화번호")
    d.text((140, 900), "위와 같이 신청합니다.   2025년   4월   17일", fill=0, font=font(36))
    jpg = enc(g, "JPEG", quality=70)
    img_obj = r3.stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                        b"/BitsPerComponent 8 /Filter /DCTDecode" % g.size, jpg)
    out.append(("4", "c", "c4_comb_boxes_dct_scan.pdf",
                r3.pdf([(b"q 595 0 0 842 0 0 cm /Im1 Do Q\n", "<< /XObject << /Im1 5 0 R >> >>")], [img_obj]),
                ["NAME", "RRN", "PHONE"],
                {k: "comb boxes (one box per character), DCT scan" for k in ("NAME", "RRN", "PHONE")}))
    return out


# ------------------------------------------------------------------------------------------- class 5
def compat_jamo(s: str) -> str:
    """Spell Hangul syllables with compatibility jamo (ㅈㅓㅇ for 정), as people type to dodge filters."""
    lead = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
    vowel = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
    tail = ["", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ",
            "ㅅ", "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"]
    out = []
    for ch in s:
        o = ord(ch) - 0xAC00
        if 0 <= o < 11172:
            out.append(lead[o // 588] + vowel[(o % 588) // 28] + tail[o % 28])
        else:
            out.append(ch)
    return "".join(out)


def class5() -> list[tuple]:
    """Text the detector may not read."""
    out = []
    # 5a: Hanja numerals for the phone and the FRN, the name in compatibility jamo, the passport in superscripts
    hanja = dict(zip("0123456789", "〇一二三四五六七八九"))
    sup = dict(zip("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    txt = (f"{PLAIN}\n담당: {compat_jamo(NAME)}\n연락처: {''.join(hanja.get(c, c) for c in PHONE)}\n"
           f"외국인등록번호: {''.join(hanja.get(c, c) for c in FRN)}\n"
           f"여권: M{''.join(sup[c] for c in PASSPORT[1:])}\n")
    out.append(("5", "a", "c5_hanja_numerals_compat_jamo_superscript.txt", txt.encode("utf-8"),
                ["NAME", "PHONE", "FRN", "PASSPORT"],
                {"NAME": "compatibility jamo ㅈㅓㅇㅎㅏㄹㅏㅁ", "PHONE": "Hanja numerals 〇一〇", "FRN": "Hanja numerals",
                 "PASSPORT": "superscript digits"}))
    # 5b: a web-form export: HTML fragments in CSV cells (a span per syllable, a span per digit, <wbr> in the
    #     e-mail, the road name split over two underlined spans)
    span = lambda s: "".join(f'<span class=""c"">{c}</span>' for c in s)  # noqa: E731
    csv = ("번호,신청인,주민등록번호,전자우편,주소,처리\r\n"
           f'1,"{span(NAME)}","{span(RRN)}","{EMAIL.replace(".", "<wbr>.").replace("@", "<wbr>@")}",'
           f'"대전광역시 서구 <u>둔산</u><u>대로</u> <b>117</b>",완료\r\n'
           '2,"<i>(비공개)</i>",,,,"보류"\r\n')
    out.append(("5", "b", "c5_html_fragments_in_csv.csv", csv.encode("utf-8"), ["NAME", "RRN", "EMAIL", "ADDR"],
                {"NAME": "<span> per syllable", "RRN": "<span> per digit", "EMAIL": "<wbr> between parts",
                 "ADDR": "road name in two <u> spans"}))
    # 5c: a plain-text table drawn with box characters: the name written vertically (a syllable per line),
    #     the account in keycap digits, the phone stored reversed inside an RLO override (shown left to right),
    #     the address wrapped inside its cell
    key = lambda s: "".join(c + "\ufe0f\u20e3" if c.isdigit() else c for c in s)  # noqa: E731
    rev = "\u202e" + PHONE[::-1] + "\u202c"
    rows = [("성  명", NAME[0]), ("", NAME[1]), ("", NAME[2]), None,
            ("계  좌", key(ACCOUNT)), None, ("연락처", rev), None,
            ("주  소", "대전광역시 서구 둔산"), ("", "대로 117")]
    lines = ["┌────────┬──────────────────────────────┐"]
    for r in rows:
        lines.append("├────────┼──────────────────────────────┤" if r is None else f"│ {r[0]:<6} │ {r[1]:<28} │")
    lines.append("└────────┴──────────────────────────────┘")
    txt = PLAIN + "\n\n" + "\n".join(lines) + "\n"
    out.append(("5", "c", "c5_boxtable_vertical_keycap_rlo.txt", txt.encode("utf-8"), ["NAME", "ACCOUNT", "PHONE", "ADDR"],
                {"NAME": "one syllable per table line", "ACCOUNT": "keycap digits (U+FE0F U+20E3)",
                 "PHONE": "reversed inside U+202E (RLO)", "ADDR": "wrapped inside a box-table cell"}))
    return out


# ------------------------------------------------------------------------------------------- class 6
def bar_chart(w=900, h=500):
    from PIL import ImageDraw
    img = canvas(w, h)
    d = ImageDraw.Draw(img)
    d.text((30, 14), "분기별 민원 처리 건수", fill="black", font=font(28))
    x0, y0, y1 = 110, 440, 80
    d.line((x0, y1, x0, y0), fill="black", width=2)
    d.line((x0, y0, w - 30, y0), fill="black", width=2)
    for i, v in enumerate((0, 5000, 10000, 15000)):
        y = y0 - (y0 - y1) * v / 15000
        d.line((x0 - 6, y, x0, y), fill="black", width=2)
        d.text((20, y - 12), f"{v:,}", fill="black", font=font(18))
    for i, (q, v) in enumerate((("1분기", 8240), ("2분기", 11675), ("3분기", 9930), ("4분기", 13120))):
        x = x0 + 50 + i * 180
        y = y0 - (y0 - y1) * v / 15000
        d.rectangle((x, y, x + 100, y0), fill=(60, 110, 180))
        d.text((x + 18, y0 + 10), q, fill="black", font=font(22))
        d.text((x + 4, y - 28), f"{v:,}", fill="black", font=font(20))
    return img


def class6() -> list[tuple]:
    """Ordinary Korean office files with no personal data: must be published (held = false alarm)."""
    from PIL import Image, ImageDraw
    out = []
    # 6a: a meeting notice with a logo and a camera photo (Exif Make/Model/DateTime/Software), a budget table
    logo = canvas(360, 120)
    d = ImageDraw.Draw(logo)
    d.ellipse((10, 10, 110, 110), fill=(30, 110, 60))
    d.text((130, 30), "GREEN", fill=(30, 110, 60), font=font(48))
    ex = Image.Exif()
    ex[0x010F] = "Canon"
    ex[0x0110] = "Canon EOS R6"
    ex[0x0131] = "Adobe Photoshop 25.1 (Windows)"
    ex[0x0132] = "2025:03:14 10:22:05"
    shot = enc(photo(800, 500, seed=9), "JPEG", quality=85, exif=ex.tobytes())
    cell = lambda t: f'<w:tc>{r3.para(t)}</w:tc>'  # noqa: E731
    rows = [("항목", "2024년", "2025년", "증감"), ("인건비", "1,245,000,000", "1,302,500,000", "57,500,000"),
            ("운영비", "386,400,000", "402,150,000", "15,750,000"), ("사업비", "2,118,900,000", "2,240,000,000",
                                                                 "121,100,000")]
    table = ('<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>'
             + '<w:gridCol w:w="2200"/>' * 4 + "</w:tblGrid>"
             + "".join("<w:tr>" + "".join(cell(c) for c in r) + "</w:tr>" for r in rows) + "</w:tbl>")
    body = (r3.drawing("rIdLogo", 1, 360 * 9525, 120 * 9525)
            + r3.para("2025년 제2차 운영위원회 개최 안내", rpr="<w:rPr><w:b/></w:rPr>")
            + r3.para("1. 일시: 2025년 4월 17일(목) 14:00 ~ 16:00")
            + r3.para("2. 장소: 본관 3층 대회의실 (1302호)")
            + r3.para("3. 안건: 2025년도 예산 변경안 심의, 시설 보수 계획 보고")
            + r3.para("4. 예산 변경안 요약 (단위: 원)") + table
            + r3.drawing("rIdShot", 2, 800 * 9525, 500 * 9525)
            + r3.para("위원 여러분의 참석을 부탁드립니다. 문의는 운영지원팀으로 해 주십시오."))
    out.append(("6", "a", "c6_meeting_notice_logo_photo.docx", r3.docx(
        body, rels=[("rIdLogo", "image", "media/image1.png", False), ("rIdShot", "image", "media/image2.jpeg", False)],
        parts={"word/media/image1.png": enc(logo, "PNG"), "word/media/image2.jpeg": shot}), [], {}))
    # 6b: an HWPX budget table with an organisation chart picture (job titles only)
    org = canvas(900, 360)
    d = ImageDraw.Draw(org)
    for (x, y, t) in ((360, 20, "원장"), (120, 180, "기획예산팀"), (360, 180, "민원지원팀"), (600, 180, "시설관리팀")):
        d.rectangle((x, y, x + 180, y + 70), outline="black", width=3)
        d.text((x + 20, y + 18), t, fill="black", font=font(28))
    d.line((450, 90, 450, 135), fill="black", width=3)
    d.line((210, 135, 690, 135), fill="black", width=3)
    for x in (210, 450, 690):
        d.line((x, 135, x, 180), fill="black", width=3)
    rows = [("구분", "예산액", "집행액", "집행률"), ("인건비", "3,480,000,000", "1,712,300,000", "49.2%"),
            ("시설비", "1,250,000,000", "386,750,000", "30.9%"), ("합계", "4,730,000,000", "2,099,050,000", "44.4%")]
    tc = lambda t, c, r: (f'<hp:tc name="" header="0" hasMargin="0" protect="0" editable="0" dirty="0" borderFillIDRef="1">'  # noqa: E731
                          f'{r3.hsub(t)}<hp:cellAddr colAddr="{c}" rowAddr="{r}"/><hp:cellSpan colSpan="1" rowSpan="1"/>'
                          '<hp:cellSz width="10000" height="1500"/><hp:cellMargin left="510" right="510" top="141" '
                          'bottom="141"/></hp:tc>')
    tbl = ('<hp:run charPrIDRef="0"><hp:tbl id="1" zOrder="0" numberingType="TABLE" textWrap="TOP_AND_BOTTOM" '
           'textFlow="BOTH_SIDES" lock="0" dropcapstyle="None" pageBreak="CELL" repeatHeader="1" rowCnt="4" colCnt="4" '
           'cellSpacing="0" borderFillIDRef="1" noAdjust="0"><hp:sz width="40000" widthRelTo="ABSOLUTE" height="6000" '
           'heightRelTo="ABSOLUTE" protect="0"/><hp:pos treatAsChar="1" affectLSpacing="0" flowWithText="1" '
           'allowOverlap="0" holdAnchorAndSO="0" vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" '
           'vertOffset="0" horzOffset="0"/>'
           + "".join("<hp:tr>" + "".join(tc(t, c, r) for c, t in enumerate(row)) + "</hp:tr>" for r, row in enumerate(rows))
           + "</hp:tbl></hp:run>")
    out.append(("6", "b", "c6_hwpx_budget_table_orgchart.hwpx", r3.hwpx(
        [r2.hrun("2025년 상반기 예산 집행 현황 (관리번호 제2025-118호)"), r2.hrun("단위: 원, 기준일 2025. 6. 30."), tbl,
         r2.hpic("org", 30000, 12000), r2.hrun("하반기에는 시설비 집행을 앞당겨 연말 집중을 줄일 계획입니다.")],
        bindata={"org.png": (enc(org, "PNG"), "image/png")}), [], {}))
    # 6c: an fpdf2 report with a bar chart picture (axis figures of >= 4 digits), page numbers
    import logging
    import tempfile
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    logging.getLogger("fpdf").setLevel(logging.ERROR)
    from fpdf import FPDF
    p = FPDF()
    p.add_font("Nanum", "", str(r2.FONT))
    p.set_font("Nanum", size=12)
    p.add_page()
    p.multi_cell(0, 8, "2025년 민원 처리 실적 보고\n\n올해 처리한 민원은 모두 42,965건으로 전년(38,410건)보다 "
                       "11.9% 늘었습니다. 분기별 건수는 아래 그림과 같으며, 세부 통계는 첨부된 PDF 파일과 HWP 문서를 "
                       "참고하십시오.", new_x="LMARGIN", new_y="NEXT")
    with tempfile.TemporaryDirectory() as td:
        cp = Path(td) / "chart.png"
        bar_chart().save(cp)
        p.image(str(cp), x=20, w=170)
    p.multi_cell(0, 8, "처리 기간은 평균 4.3일이며, 7일을 넘긴 건은 1,204건(2.8%)입니다.  - 1 -",
                 new_x="LMARGIN", new_y="NEXT")
    p.add_page()
    p.multi_cell(0, 8, "붙임: 분기별 통계표 1부.  - 2 -", new_x="LMARGIN", new_y="NEXT")
    out.append(("6", "c", "c6_fpdf2_report_bar_chart.pdf", bytes(p.output()), [], {}))
    return out


# --------------------------------------------------------------------------------------------- driver
def write_corpus(dest: Path, files: list[tuple], values: dict) -> list[dict]:
    """``files`` (``(class, variant, name, bytes, planted keys, places)``) into ``dest/in``, and the manifest."""
    inp = dest / "in"
    inp.mkdir(parents=True, exist_ok=True)
    man = []
    for cls, var, rel, data, keys, places in files:
        (inp / rel).write_bytes(data)
        man.append({"file": rel, "class": cls, "variant": var, "values": keys, "places": places})
    (dest / "manifest.json").write_text(json.dumps({"values": values, "files": man}, ensure_ascii=False, indent=1),
                                        encoding="utf-8")
    return man


def generate(dest: Path) -> list[dict]:
    return write_corpus(dest, class1() + class2() + class3() + class4() + class5() + class6(), VALUES)


def selfcheck(d: Path, ocr: bool, oracle=None) -> int:
    """The oracle must see every planted value in the unredacted inputs (else a 'clean' proves nothing)."""
    if oracle is None:
        import redteam4_oracle as oracle
    man = json.loads((d / "manifest.json").read_text(encoding="utf-8"))
    bad = 0
    for f in man["files"]:
        if not f["values"]:
            continue
        found = oracle.leaks(d / "in" / f["file"], f["values"], man["values"], ocr)
        got = {k for k, _, _ in found}
        missed = [k for k in f["values"] if k not in got]
        bad += bool(missed)
        print(f"{f['file']:56s} planted {len(f['values'])} seen {len(got)}" + (f"  MISSED {missed}" if missed else ""),
              flush=True)
        for k, where, _ in found:
            print(f"      {k:8s} seen in {where[:80]}")
    n = sum(1 for f in man["files"] if f["values"])
    print(f"\nselfcheck: the oracle is blind on {bad} of {n} attack files")
    return 1 if bad else 0


def verdict_line(r: dict) -> str:
    st = r["status"]
    if not r["values"]:
        return "published (correct)" if st == "ok" else f"FALSE ALARM: held ({st})"
    if st == "ok":
        return "published LEAK" if r["leaks"] else "published clean"
    return "held (needs review)" if st == "REVIEW" else f"refused ({st})"


def report(res: list[dict], label: str) -> None:
    print(f"\n== {label}")
    for r in res:
        print(f"  {r['class']}{r['variant']} {r['file']:52s} {verdict_line(r)}")
        for k, where, hit in r["leaks"]:
            print(f"        {k:8s} hidden in: {r.get('places', {}).get(k, '?')}")
            print(f"                 survived in: {where[:90]}  …{hit[:60]}…")
    att = [r for r in res if r["values"]]
    ctl = [r for r in res if not r["values"]]
    leak = sum(r["verdict"] == "LEAK" for r in att)
    clean = sum(r["verdict"] == "clean" for r in att)
    held = sum(r["status"] == "REVIEW" for r in att)
    refused = len(att) - leak - clean - held
    fa = sum(r["verdict"] == "FALSE ALARM" for r in ctl)
    print("\nclass  files  published-with-leak  published-clean  held/refused")
    for c in sorted({r["class"] for r in att}):
        rows = [r for r in att if r["class"] == c]
        print(f"  {c}    {len(rows):5d}  {sum(r['verdict'] == 'LEAK' for r in rows):19d}  "
              f"{sum(r['verdict'] == 'clean' for r in rows):15d}  {sum(r['verdict'] == 'held' for r in rows):12d}")
    print(f"\n{leak} of {len(att)} published with a leak ({clean} published clean, {held} held for review, "
          f"{refused} refused); {fa} of {len(ctl)} controls held (false alarms)")


def head_of(base: Path) -> str:
    import subprocess
    r = subprocess.run(["git", "-C", str(base), "rev-parse", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() or "(not a git checkout)"


def cli(argv: list[str], generate, oracle) -> int:
    """generate / selfcheck / run / judge for a corpus (``generate(dest)``) and its ``oracle`` module."""
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["generate", "run", "selfcheck", "judge"])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--base", type=Path, default=ROOT, help="checkout whose veil_desktop is run")
    ap.add_argument("--no-ocr", action="store_true")
    ap.add_argument("--label", default="", help="added to the run's title, e.g. the commit a git-archive base holds")
    a = ap.parse_args(argv)
    label = f"{a.base} at {head_of(a.base)} {a.label}, {time.strftime('%Y-%m-%d %H:%M:%S %Z')}"
    if a.cmd == "judge":
        summary = (a.dir / "summary.txt").read_text(encoding="utf-8").split("\n--- stderr ---\n")[0]
        res = oracle.judge(a.dir, summary, ocr=not a.no_ocr)
        report(res, label)
        return 1 if any(r["verdict"] in ("LEAK", "FALSE ALARM") for r in res) else 0
    man = generate(a.dir)
    print(f"generated {len(man)} files in {a.dir / 'in'}")
    if a.cmd == "generate":
        return 0
    if a.cmd == "selfcheck":
        return selfcheck(a.dir, not a.no_ocr, oracle)
    import shutil
    shutil.rmtree(a.dir / "out", ignore_errors=True)       # the CLI never replaces files it did not write
    t0 = time.time()
    summary = r2.redact(a.dir, a.base.resolve())
    print(f"redacted in {time.time() - t0:.0f} s", flush=True)
    res = oracle.judge(a.dir, summary, ocr=not a.no_ocr)
    report(res, label)
    return 1 if any(r["verdict"] in ("LEAK", "FALSE ALARM") for r in res) else 0


def main(argv: list[str]) -> int:
    import redteam4_oracle as o4
    return cli(argv, generate, o4)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
