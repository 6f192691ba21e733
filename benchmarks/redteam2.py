"""Second red-team corpus (issue 26): written from the file-format specifications, not from the readers.

    nice .venv/bin/python benchmarks/redteam2.py generate DIR            # DIR/in/* + DIR/manifest.json
    nice .venv/bin/python benchmarks/redteam2.py run DIR [--base PATH]   # generate, redact, judge, figures
    nice .venv/bin/python benchmarks/redteam2.py run DIR --subset        # one cheap variant per class

``run`` redacts DIR/in as a user would (``veil-redact redact DIR/in --out DIR/out --quiet``), importing the
product from ``--base`` (a checkout, e.g. a ``git worktree`` of an older commit; default: this checkout),
then judges every *published* output (status ``ok``) with ``benchmarks/leak_oracle.py`` plus the extra views
of ``benchmarks/redteam2_oracle.py`` (every frame of every picture, OCR of enhanced/inverted/upscaled
copies, Hanja spellings). It prints per class (1-6 of issue 26): published with a leak / refused or needs
review / exported clean; class 6 files hold no PII and a non-ok status there is a false alarm.

The planted values are not those of benchmarks/adversarial_corpus.py. Each file is built from the
public layouts: OOXML (ECMA-376 part 1/2: [Content_Types].xml, _rels, customXml, w:sdt/w:dataBinding,
w:hyperlink, w:bookmarkStart, w:rFonts, subDocument, c:strCache), OWPML/HWPX (mimetype first and stored,
META-INF/container.xml, Contents/content.hpf, header.xml, section0.xml, BinData/), PDF 1.7 (content
stream operators, text render modes, tiling patterns, image XObjects, marked content /ActualText), PNG
(chunks), JPEG (segments, EOI), GIF89a (frames, comment extension), TIFF (IFD chain) and RFC 4180 CSV.
"""
from __future__ import annotations

import io
import json
import sys
import zipfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FONT = ROOT / "resources" / "fonts" / "NanumGothic.ttf"

NAME = "이서윤"
HANJA = "李瑞潤"
RRN = "871126-2537419"
PHONE = "010-4718-9036"          # no 4-digit run shared with the RRN
ADDR = "부산광역시 해운대구 센텀중앙로 79"
EMAIL = "seoyun.lee@example.org"
VALUES = {"NAME": NAME, "RRN": RRN, "PHONE": PHONE, "ADDR": ADDR, "EMAIL": EMAIL, "HANJA": HANJA}
RRN_D = RRN.replace("-", "")
PHONE_D = PHONE.replace("-", "")
PLAIN = "이 문서는 분기 점검 결과를 정리한 내부 자료입니다."


def xesc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


# ------------------------------------------------------------------------------------------ pictures
def font(px: int):
    from PIL import ImageFont
    return ImageFont.truetype(str(FONT), px)


def canvas(w: int, h: int, bg="white"):
    from PIL import Image
    return Image.new("RGB", (w, h), bg)


def text_img(text: str, w: int = 900, h: int = 80, px: int = 36, fg="black", bg="white", **kw):
    from PIL import ImageDraw
    img = canvas(w, h, bg)
    ImageDraw.Draw(img).text((10, (h - px) // 2), text, fill=fg, font=font(px), **kw)
    return img


def enc(img, fmt: str, **kw) -> bytes:
    b = io.BytesIO()
    img.save(b, fmt, **kw)
    return b.getvalue()


def png_chunk(kind: bytes, data: bytes) -> bytes:
    import struct
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_with_chunks(png: bytes, chunks: list[tuple[bytes, bytes]]) -> bytes:
    """Insert chunks right after IHDR (PNG spec 5.3: IHDR is first, 8+25 bytes)."""
    head = png[:33]
    return head + b"".join(png_chunk(k, d) for k, d in chunks) + png[33:]


def jpeg_with_com_after_scan(jpg: bytes, comment: bytes, trailer: bytes) -> bytes:
    """A COM segment (FF FE) placed after the entropy-coded data, before EOI, then bytes after EOI."""
    assert jpg.endswith(b"\xff\xd9")
    import struct
    com = b"\xff\xfe" + struct.pack(">H", len(comment) + 2) + comment
    return jpg[:-2] + com + b"\xff\xd9" + trailer


def gif_two_frames(comment: bytes) -> bytes:
    """GIF89a with a blank first frame, the text on frame 2, and a comment extension (21 FE)."""
    f1 = canvas(700, 70)
    f2 = text_img(f"{NAME} {RRN}", 700, 70, 34)
    b = io.BytesIO()
    f1.save(b, "GIF", save_all=True, append_images=[f2], duration=[5000, 5000], loop=0)
    g = b.getvalue()
    sub = b"".join(bytes([len(comment[i:i + 255])]) + comment[i:i + 255] for i in range(0, len(comment), 255))
    ext = b"\x21\xfe" + sub + b"\x00"
    return g[:-1] + ext + b"\x3b"          # before the trailer


# ---------------------------------------------------------------------------------------------- DOCX
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
NS = (f'xmlns:w="{W}" xmlns:r="{R}" '
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
      'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" '
      'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" '
      'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"')
DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
RTYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


def para(text: str, rpr: str = "") -> str:
    return f'<w:p><w:r>{rpr}<w:t xml:space="preserve">{xesc(text)}</w:t></w:r></w:p>'


def drawing(rid: str, n: int, cx: int = 5715000, cy: int = 508000) -> str:
    return (f'<w:p><w:r><w:drawing><wp:inline><wp:extent cx="{cx}" cy="{cy}"/><wp:docPr id="{n}" name="p{n}"/>'
            '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">'
            f'<pic:pic><pic:nvPicPr><pic:cNvPr id="{n}" name="p{n}"/><pic:cNvPicPr/></pic:nvPicPr>'
            f'<pic:blipFill><a:blip r:embed="{rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>'
            f'<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm>'
            '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic>'
            '</wp:inline></w:drawing></w:r></w:p>')


def docx(body: str, *, rels=(), parts=None, overrides=None, defaults=None, app="Microsoft Office Word",
         fonts: str = "") -> bytes:
    """rels: (id, type-suffix, target, external). parts: name -> bytes/str; overrides: /name -> content type."""
    parts = dict(parts or {})
    ct_def = {"rels": "application/vnd.openxmlformats-package.relationships+xml", "xml": "application/xml"}
    ct_def.update(defaults or {})
    ov = {"/word/document.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
          "/docProps/app.xml": "application/vnd.openxmlformats-officedocument.extended-properties+xml"}
    ov.update(overrides or {})
    rel_xml = "".join(f'<Relationship Id="{i}" Type="{t if t.startswith("http") else RTYPE + t}" Target="{xesc(g)}"'
                      + (' TargetMode="External"' if ext else "") + "/>" for i, t, g, ext in rels)
    if fonts:
        parts["word/fontTable.xml"] = DECL + f'<w:fonts {NS}>{fonts}</w:fonts>'
        ov["/word/fontTable.xml"] = ("application/vnd.openxmlformats-officedocument."
                                     "wordprocessingml.fontTable+xml")
        rel_xml += f'<Relationship Id="rIdF" Type="{RTYPE}fontTable" Target="fontTable.xml"/>'
    ct = (DECL + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          + "".join(f'<Default Extension="{e}" ContentType="{c}"/>' for e, c in ct_def.items())
          + "".join(f'<Override PartName="{n}" ContentType="{c}"/>' for n, c in ov.items()) + "</Types>")
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", ct)
        z.writestr("_rels/.rels", DECL + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
                   f'relationships"><Relationship Id="rId1" Type="{RTYPE}officeDocument" '
                   'Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/'
                   'officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>'
                   '</Relationships>')
        z.writestr("docProps/app.xml", DECL + '<Properties xmlns="http://schemas.openxmlformats.org/'
                   f'officeDocument/2006/extended-properties"><Application>{xesc(app)}</Application></Properties>')
        z.writestr("word/document.xml", DECL + f'<w:document {NS}><w:body>{body}<w:sectPr/></w:body></w:document>')
        z.writestr("word/_rels/document.xml.rels", DECL + '<Relationships xmlns="http://schemas.openxmlformats.org/'
                   f'package/2006/relationships">{rel_xml}</Relationships>')
        for n, d in parts.items():
            z.writestr(n, d)
    return b.getvalue()


# ---------------------------------------------------------------------------------------------- HWPX
HP = "http://www.hancom.co.kr/hwpml/2011/paragraph"
HH = "http://www.hancom.co.kr/hwpml/2011/head"
HC = "http://www.hancom.co.kr/hwpml/2011/core"
OPF = "http://www.idpf.org/2007/opf/"


def hwpx(paras: list[str], bindata: dict[str, tuple[bytes, str]] | None = None, extra: dict | None = None) -> bytes:
    """OWPML package: mimetype first and stored; paragraphs given as inner hp:run XML."""
    bindata = bindata or {}
    items = "".join(f'<opf:item id="{Path(n).stem}" href="BinData/{n}" media-type="{mt}" isEmbeded="1"/>'
                    for n, (_, mt) in bindata.items())
    hpf = (DECL + f'<opf:package xmlns:opf="{OPF}" version="" unique-identifier="" id="">'
           '<opf:metadata><opf:title/><opf:language>ko</opf:language></opf:metadata><opf:manifest>'
           '<opf:item id="header" href="Contents/header.xml" media-type="application/xml"/>'
           '<opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/>'
           f'{items}</opf:manifest><opf:spine><opf:itemref idref="header" linear="yes"/>'
           '<opf:itemref idref="section0" linear="yes"/></opf:spine></opf:package>')
    header = (DECL + f'<hh:head xmlns:hh="{HH}" xmlns:hc="{HC}" version="1.4" secCnt="1">'
              '<hh:beginNum page="1" footnote="1" endnote="1" pic="1" tbl="1" equation="1"/>'
              '<hh:refList><hh:fontfaces itemCnt="1"><hh:fontface lang="HANGUL" fontCnt="1">'
              '<hh:font id="0" face="함초롬바탕" type="TTF" isEmbedded="0"/></hh:fontface></hh:fontfaces>'
              '<hh:charProperties itemCnt="1"><hh:charPr id="0" height="1000" textColor="#000000" '
              'shadeColor="none" useFontSpace="0" useKerning="0" symMark="NONE" borderFillIDRef="1">'
              '<hh:fontRef hangul="0" latin="0" hanja="0" japanese="0" other="0" symbol="0" user="0"/>'
              '</hh:charPr></hh:charProperties><hh:paraProperties itemCnt="1"><hh:paraPr id="0"/>'
              '</hh:paraProperties></hh:refList></hh:head>')
    body = "".join(f'<hp:p id="{i}" paraPrIDRef="0" styleIDRef="0" pageBreak="0" columnBreak="0" merged="0">'
                   f'{r}</hp:p>' for i, r in enumerate(paras))
    sec = DECL + f'<hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="{HP}" xmlns:hc="{HC}">{body}</hs:sec>'
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/hwp+zip", compress_type=zipfile.ZIP_STORED)
        z.writestr("version.xml", DECL + '<hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version" '
                   'tagetApplication="WORDPROCESSOR" major="5" minor="1" micro="0" buildNumber="1" os="1" '
                   'xmlVersion="1.4" application="Hancom Office Hangul" appVersion="11, 0, 0, 0"/>')
        z.writestr("META-INF/container.xml", DECL + '<ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:'
                   'xmlns:container" xmlns:hpf="http://www.hancom.co.kr/schema/2011/hpf"><ocf:rootfiles>'
                   '<ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/>'
                   '</ocf:rootfiles></ocf:container>')
        z.writestr("Contents/content.hpf", hpf)
        z.writestr("Contents/header.xml", header)
        z.writestr("Contents/section0.xml", sec)
        for n, (d, _) in bindata.items():
            z.writestr(f"BinData/{n}", d)
        for n, d in (extra or {}).items():
            z.writestr(n, d)
    return b.getvalue()


def hrun(text: str) -> str:
    return f'<hp:run charPrIDRef="0"><hp:t>{xesc(text)}</hp:t></hp:run>'


def hpic(ref: str, w: int = 42000, h: int = 3600) -> str:
    return (f'<hp:run charPrIDRef="0"><hp:pic id="1" zOrder="0" numberingType="PICTURE" textWrap="TOP_AND_BOTTOM">'
            f'<hp:sz width="{w}" height="{h}" widthRelTo="ABSOLUTE" heightRelTo="ABSOLUTE" protect="0"/>'
            '<hp:pos treatAsChar="1" affectLSpacing="0" flowWithText="1" allowOverlap="0" holdAnchorAndSO="0" '
            'vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" vertOffset="0" horzOffset="0"/>'
            f'<hp:imgRect><hc:pt0 x="0" y="0"/><hc:pt1 x="{w}" y="0"/><hc:pt2 x="{w}" y="{h}"/>'
            f'<hc:pt3 x="0" y="{h}"/></hp:imgRect><hc:img binaryItemIDRef="{ref}" bright="0" contrast="0" '
            'effect="REAL_PIC" alpha="0"/></hp:pic></hp:run>')


# ----------------------------------------------------------------------------------------------- PDF
def pdf(pages: list[tuple[bytes, str]], objs: list[bytes] | None = None, info: str = "") -> bytes:
    """pages: (content stream, resources dict source); objs: extra objects numbered from 3+2*len(pages)+1.
    Object 1 catalog, 2 pages, then per page (page, contents)."""
    n = len(pages)
    out = [b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"]
    offs = []
    bodies = [b"<< /Type /Catalog /Pages 2 0 R >>",
              ("<< /Type /Pages /Count %d /Kids [%s] >>" % (n, " ".join(f"{3 + 2 * i} 0 R" for i in range(n)))).encode()]
    for i, (cs, res) in enumerate(pages):
        bodies.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources {res} "
                      f"/Contents {4 + 2 * i} 0 R >>".encode())
        bodies.append(b"<< /Length %d >>\nstream\n" % len(cs) + cs + b"\nendstream")
    bodies += objs or []
    if info:
        bodies.append(info.encode())
    for i, body in enumerate(bodies):
        offs.append(sum(len(x) for x in out))
        out.append(b"%d 0 obj\n" % (i + 1) + body + b"\nendobj\n")
    xref = sum(len(x) for x in out)
    out.append(b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1))
    out += [b"%010d 00000 n \n" % o for o in offs]
    trailer = b"<< /Size %d /Root 1 0 R" % (len(bodies) + 1)
    if info:
        trailer += b" /Info %d 0 R" % len(bodies)
    out.append(b"trailer\n" + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref)
    return b"".join(out)


HELV = "/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>"


def draw_glyphs(text: str, x: float, size: float, pen) -> None:
    """Lay ``text`` out in NanumGothic at ``size`` from ``x``: each glyph is drawn with ``pen(glyph_set, ox,
    scale)`` (a fontTools pen for a glyph whose origin is at ``ox``; font units times ``scale`` are points);
    a character the font lacks advances a third of the size."""
    from fontTools.ttLib import TTFont
    f = TTFont(str(FONT))
    gs, cmap = f.getGlyphSet(), f.getBestCmap()
    scale = size / f["head"].unitsPerEm
    for ch in text:
        g = cmap.get(ord(ch))
        if g is None:
            x += size / 3
            continue
        gs[g].draw(pen(gs, x, scale))
        x += gs[g].width * scale


def outline_path(text: str, x: float, y: float, size: float) -> bytes:
    """Glyph outlines of NanumGothic as PDF path operators (no text object: not in the text layer)."""
    from fontTools.pens.basePen import BasePen
    ops: list[str] = []

    class Pen(BasePen):
        def __init__(self, gs, ox, scale):
            super().__init__(gs)
            self.ox, self.scale = ox, scale

        def _pt(self, p):
            return f"{self.ox + p[0] * self.scale:.2f} {y + p[1] * self.scale:.2f}"

        def _moveTo(self, p):
            ops.append(self._pt(p) + " m")

        def _lineTo(self, p):
            ops.append(self._pt(p) + " l")

        def _curveToOne(self, a, b, c):
            ops.append(f"{self._pt(a)} {self._pt(b)} {self._pt(c)} c")

        def _closePath(self):
            ops.append("h")

    draw_glyphs(text, x, size, Pen)
    return ("\n".join(ops) + "\n").encode()


def image_xobj(img) -> bytes:
    g = img.convert("RGB")
    data = zlib.compress(g.tobytes())
    return (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 "
            b"/Filter /FlateDecode /Length %d >>\nstream\n" % (g.width, g.height, len(data)) + data + b"\nendstream")


# ------------------------------------------------------------------------------------------- classes
def class1() -> list[tuple]:
    """Pictures inside DOCX/HWPX: missing extension, extra frames, metadata chunks/segments/trailers."""
    out = []
    # 1a: PNG part without an extension (content type from an Override), iTXt + private chunk
    png = enc(text_img(f"성명 {NAME}  주민등록번호 {RRN}"), "PNG")
    png = png_with_chunks(png, [(b"tEXt", b"Comment\x00" + PHONE.encode()),
                                (b"prVt", f"{NAME} {PHONE_D}".encode("utf-8"))])
    out.append(("1", "a", "c1_png_no_extension.docx", docx(
        para(PLAIN) + drawing("rIdImg", 1),
        rels=[("rIdImg", "image", "media/image1", False)], parts={"word/media/image1": png},
        overrides={"/word/media/image1": "image/png"}), ["NAME", "RRN", "PHONE"]))
    # 1b: GIF, text on frame 2 only, comment extension with the phone
    gif = gif_two_frames(f"tel {PHONE}".encode())
    out.append(("1", "b", "c1_gif_frame2.docx", docx(
        para(PLAIN) + drawing("rIdImg", 1),
        rels=[("rIdImg", "image", "media/image1.gif", False)], parts={"word/media/image1.gif": gif},
        defaults={"gif": "image/gif"}), ["NAME", "RRN", "PHONE"]))
    # 1c: HWPX, a .jfif strip 900x34 with the name and phone, COM after the scan data, bytes after EOI;
    #     a 76 px seal (PNG, no extension) with the name
    strip = enc(text_img(f"{NAME} {PHONE}", 900, 34, 26), "JPEG", quality=92)
    strip = jpeg_with_com_after_scan(strip, f"작성 {NAME}".encode("utf-8"), f"RRN={RRN}".encode())
    from PIL import ImageDraw
    seal = canvas(76, 76)
    dr = ImageDraw.Draw(seal)
    dr.ellipse((2, 2, 73, 73), outline="red", width=3)
    dr.text((10, 24), NAME, fill="red", font=font(19))
    out.append(("1", "c", "c1_jfif_strip_seal.hwpx", hwpx(
        [hrun(PLAIN), hpic("strip"), hpic("seal", 5700, 5700)],
        {"strip.jfif": (strip, "image/jpeg"), "seal": (enc(seal, "PNG"), "image/png")}),
        ["NAME", "RRN", "PHONE"]))
    return out


def class2() -> list[tuple]:
    """Attribute values: custom XML/data binding digits, href targets, a font named after a person,
    bookmark names, sub-document targets, chart caches."""
    out = []
    # 2a: customXml item + data-bound content control showing digits without separators
    item = (DECL + '<applicant xmlns="urn:example:form"><rrn>%s</rrn><mobile>%s</mobile></applicant>'
            % (RRN_D, PHONE_D))
    props = (DECL + '<ds:datastoreItem ds:itemID="{6A1C2B3D-0000-4000-8000-000000000001}" '
             'xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs/>'
             '</ds:datastoreItem>')
    sdt = ('<w:p><w:r><w:t xml:space="preserve">신청인 번호: </w:t></w:r><w:sdt><w:sdtPr>'
           '<w:dataBinding w:prefixMappings="xmlns:f=\'urn:example:form\'" w:xpath="/f:applicant[1]/f:rrn[1]" '
           'w:storeItemID="{6A1C2B3D-0000-4000-8000-000000000001}"/><w:text/></w:sdtPr><w:sdtContent>'
           f'<w:r><w:t>{RRN_D}</w:t></w:r></w:sdtContent></w:sdt></w:p>')
    out.append(("2", "a", "c2_databound_digits.docx", docx(
        para(PLAIN) + sdt, rels=[("rIdX", "customXml", "../customXml/item1.xml", False)],
        parts={"customXml/item1.xml": item, "customXml/itemProps1.xml": props,
               "customXml/_rels/item1.xml.rels": DECL + '<Relationships xmlns="http://schemas.openxmlformats.org/'
               f'package/2006/relationships"><Relationship Id="rId1" Type="{RTYPE}customXmlProps" '
               'Target="itemProps1.xml"/></Relationships>'},
        overrides={"/customXml/itemProps1.xml": "application/vnd.openxmlformats-officedocument.customXmlProperties+xml"}),
        ["RRN", "PHONE"]))
    # 2b: hyperlinks to a local file under the user's folder, tel:, mailto:?subject=, VML o:href
    body = (para(PLAIN)
            + '<w:p><w:hyperlink r:id="rIdL1"><w:r><w:t>자료 폴더</w:t></w:r></w:hyperlink></w:p>'
            + '<w:p><w:hyperlink r:id="rIdL2"><w:r><w:t>전화 걸기</w:t></w:r></w:hyperlink></w:p>'
            + '<w:p><w:hyperlink r:id="rIdL3"><w:r><w:t>메일 보내기</w:t></w:r></w:hyperlink></w:p>'
            + f'<w:p><w:r><w:pict><v:rect style="width:20pt;height:10pt" o:href="file:///D:/{NAME}/{RRN_D}.pdf"/>'
            '</w:pict></w:r></w:p>')
    out.append(("2", "b", "c2_href_targets.docx", docx(body, rels=[
        ("rIdL1", "hyperlink", f"file:///C:/Users/{NAME}/Documents/{RRN}.pdf", True),
        ("rIdL2", "hyperlink", f"tel:{PHONE_D}", True),
        ("rIdL3", "hyperlink", f"mailto:{EMAIL}?subject={NAME}%20{PHONE}", True)]), ["NAME", "RRN", "PHONE", "EMAIL"]))
    # 2c: font named after a person, bookmark with digits, subDocument target, chart string cache
    rpr = f'<w:rPr><w:rFonts w:ascii="{NAME}체" w:eastAsia="{NAME}체" w:hAnsi="{NAME}체"/></w:rPr>'
    body = (f'<w:p><w:bookmarkStart w:id="0" w:name="_{NAME}_{RRN_D[:6]}_{RRN_D[6:]}"/><w:r>{rpr}'
            f'<w:t>{xesc(PLAIN)}</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>'
            '<w:p><w:subDoc r:id="rIdS"/></w:p>'
            '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="4000000" cy="2500000"/><wp:docPr id="5" name="c"/>'
            '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">'
            '<c:chart r:id="rIdC"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')
    chart = (DECL + f'<c:chartSpace {NS}><c:chart><c:plotArea><c:barChart><c:barDir val="col"/><c:ser>'
             '<c:idx val="0"/><c:order val="0"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache>'
             f'<c:ptCount val="1"/><c:pt idx="0"><c:v>{NAME} {PHONE}</c:v></c:pt></c:strCache></c:strRef></c:tx>'
             '<c:cat><c:strRef><c:f>Sheet1!$A$2</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0">'
             f'<c:v>{RRN_D}</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2</c:f>'
             '<c:numCache><c:ptCount val="1"/><c:pt idx="0"><c:v>3</c:v></c:pt></c:numCache></c:numRef></c:val>'
             '</c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>')
    fonts = f'<w:font w:name="{NAME}체"><w:charset w:val="81"/><w:family w:val="modern"/></w:font>'
    out.append(("2", "c", "c2_font_bookmark_subdoc_chart.docx", docx(
        body, rels=[("rIdS", "subDocument", f"file:///C:/Users/{NAME}/부록_{PHONE_D}.docx", True),
                    ("rIdC", "chart", "charts/chart1.xml", False)],
        parts={"word/charts/chart1.xml": chart}, fonts=fonts,
        overrides={"/word/charts/chart1.xml": "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"}),
        ["NAME", "RRN", "PHONE"]))
    return out


def class3() -> list[tuple]:
    """PDF ink not in the text layer."""
    out = []
    visible = b"BT /F1 12 Tf 60 780 Td (Quarterly inspection summary, internal) Tj ET\n"
    # 3a: name + RRN as filled glyph outlines; the phone as text used only as a clip path (Tr 7) then filled
    cs = (visible + b"0 g\n" + outline_path(f"{NAME} {RRN}", 60, 700, 22) + b"f\n"
          + b"q BT 7 Tr /F1 20 Tf 60 640 Td (" + PHONE.encode() + b") Tj ET 0 0 0 rg 50 630 300 30 re f Q\n"
          + b"q 1 w 0 0 0 RG\n" + outline_path(PHONE, 60, 580, 22) + b"S Q\n")
    out.append(("3", "a", "c3_outlines_clip.pdf", pdf([(cs, f"<< {HELV} >>")]), ["NAME", "RRN", "PHONE"]))
    # 3b: a tiling pattern cell that draws the RRN; /ActualText claiming other words over the phone's glyphs
    cell = b"BT /F1 14 Tf 2 6 Td (" + RRN.encode() + b") Tj ET"
    pat = (b"<< /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 200 24] /XStep 400 /YStep 400 "
           b"/Resources << " + HELV.encode() + b" >> /Length %d >>\nstream\n" % len(cell) + cell + b"\nendstream")
    cs = (visible + b"q /Pattern cs /P1 scn 60 700 200 24 re f Q\n"
          + b"/Span << /ActualText (see attached form) >> BDC BT /F1 16 Tf 60 640 Td (" + PHONE.encode()
          + b") Tj ET EMC\n")
    out.append(("3", "b", "c3_pattern_actualtext.pdf",
                pdf([(cs, f"<< {HELV} /Pattern << /P1 5 0 R >> >>")], [pat]), ["RRN", "PHONE"]))
    # 3c: a picture cut into 6 px strips, each its own image; a 70 px seal image
    from PIL import ImageDraw
    line = text_img(f"{NAME} {RRN} {PHONE}", 900, 48, 34)
    strips = [line.crop((0, y, 900, min(48, y + 6))) for y in range(0, 48, 6)]
    seal = canvas(70, 70)
    d = ImageDraw.Draw(seal)
    d.ellipse((1, 1, 68, 68), outline="red", width=3)
    d.text((8, 22), NAME, fill="red", font=font(18))
    objs = [image_xobj(s) for s in strips] + [image_xobj(seal)]
    first = 5
    xo = " ".join(f"/S{i} {first + i} 0 R" for i in range(len(objs)))
    cs = visible
    for i in range(len(strips)):
        cs += b"q 450 0 0 3 60 %.1f cm /S%d Do Q\n" % (700 - i * 3, i)
    cs += b"q 40 0 0 40 60 560 cm /S%d Do Q\n" % (len(objs) - 1)
    out.append(("3", "c", "c3_strips_seal.pdf", pdf([(cs, f"<< {HELV} /XObject << {xo} >> >>")], objs),
                ["NAME", "RRN", "PHONE"]))
    return out


def class4() -> list[tuple]:
    """Scans that OCR reads badly."""
    from PIL import Image, ImageDraw
    out = []
    # 4a: PNG, low-contrast grey text + an 8 px footer
    img = canvas(1200, 500)
    d = ImageDraw.Draw(img)
    d.text((60, 60), PLAIN, fill="black", font=font(32))
    d.text((60, 200), f"성명 {NAME}  주민등록번호 {RRN}", fill=(205, 205, 205), font=font(34))
    d.text((60, 480), f"문의 {PHONE}", fill="black", font=font(8))
    out.append(("4", "a", "c4_grey_footer.png", enc(img, "PNG"), ["NAME", "RRN", "PHONE"]))
    # 4b: JPEG, text on a photo-like noise gradient + white on a dark bar
    import random
    rnd = random.Random(26)
    photo = Image.new("RGB", (1200, 500))
    px = photo.load()
    for y in range(500):
        for x in range(0, 1200):
            v = int(90 + 120 * x / 1200) + rnd.randint(-40, 40)
            px[x, y] = (max(0, min(255, v)), max(0, min(255, v - 20)), max(0, min(255, v - 50)))
    d = ImageDraw.Draw(photo)
    d.text((60, 80), f"{NAME} {RRN}", fill=(30, 30, 30), font=font(40))
    d.rectangle((0, 330, 1200, 400), fill=(25, 25, 35))
    d.text((60, 345), f"연락처 {PHONE}", fill="white", font=font(36))
    out.append(("4", "b", "c4_photo_darkbar.jpg", enc(photo, "JPEG", quality=90), ["NAME", "RRN", "PHONE"]))
    # 4c: TIFF, page 2 holds a 90°-rotated margin note and hollow outline type
    p1 = canvas(1200, 800)
    ImageDraw.Draw(p1).text((60, 60), PLAIN, fill="black", font=font(32))
    p2 = canvas(1200, 800)
    d = ImageDraw.Draw(p2)
    d.text((60, 60), "2쪽: 비고", fill="black", font=font(32))
    d.text((120, 300), RRN, fill="white", font=font(60), stroke_width=2, stroke_fill="black")
    note = text_img(f"{NAME} {PHONE}", 600, 60, 36).rotate(90, expand=True)
    p2.paste(note, (1100, 100))
    b = io.BytesIO()
    p1.save(b, "TIFF", save_all=True, append_images=[p2], compression="tiff_deflate")
    out.append(("4", "c", "c4_tiff_page2_rotated_hollow.tif", b.getvalue(), ["NAME", "RRN", "PHONE"]))
    return out


def class5() -> list[tuple]:
    """Text the detector does not read."""
    out = []
    a, b_ = RRN.split("-")
    p = PHONE.split("-")
    local, dom = EMAIL.split("@")
    csv = ("성명,주민번호앞자리,주민번호뒷자리,국번,앞번호,뒷번호,메일\r\n"
           f'{NAME},{a},{b_},{p[0]},{p[1]},{p[2]},"{local}\r\n@{dom}"\r\n'
           '박지훈 없음,-,-,-,-,-,-\r\n')
    out.append(("5", "a", "c5_split_cells.csv", csv.encode("utf-8-sig"), ["NAME", "RRN", "PHONE", "EMAIL"]))
    circ = {"0": "⓪", **{str(i): chr(0x2460 + i - 1) for i in range(1, 10)}}
    txt = (f"{PLAIN}\n담당: {HANJA}\n연락처 " + "".join(circ.get(c, c) for c in PHONE) + "\n"
           f"메일 {local} 골뱅이 {dom}\n번호 " + "".join(f"&#{ord(c)};" for c in RRN) + "\n")
    out.append(("5", "b", "c5_circled_golbaengi_hanja_entities.txt", txt.encode("utf-8"),
                ["HANJA", "PHONE", "EMAIL", "RRN"]))
    csv = ("항목,값\r\n"
           f'주민번호,"=""{a}-""&""{b_}"""\r\n'
           f'전화,"=CONCATENATE(""{p[0]}"",""-{p[1]}"",""-{p[2]}"")"\r\n'
           f'담당,"=""{NAME[0]}""&""{NAME[1:]}"""\r\n')
    out.append(("5", "c", "c5_formula_concat.csv", csv.encode("utf-8"), ["RRN", "PHONE", "NAME"]))
    return out


def class6() -> list[tuple]:
    """Ordinary files with no PII that must export."""
    out = []
    txt = ("첨부된 PDF 파일과 HWP 파일을 확인하십시오. 변환은 DOCX, XML, CSV 모두 지원합니다.\n"
           "Even so, Ones and Zeros 팀의 OCR 결과는 1쪽과 2쪽에 있습니다. 버전 2.4.1, 2024년 3분기.\n")
    out.append(("6", "a", "c6_acronyms_ko.txt", txt.encode("utf-8"), []))
    body = (para("보고서 요약: PDF 변환과 HWP 호환성 점검 (1쪽)") + para("Even the ONES team uses PDF/A-1b.")
            + para("표 1. 처리 시간 12.5초, 오류 0건. 문의는 고객센터 게시판을 이용하십시오."))
    out.append(("6", "b", "c6_other_software.docx", docx(body, app="LibreOffice/7.5.2.2$Linux_X86_64"), []))
    cs = (b"BT /F1 14 Tf 60 780 Td (PDF/A conformance report for HWP and DOCX converters) Tj ET\n"
          b"BT /F1 11 Tf 60 750 Td (Even the ONES suite passes: 128 of 130 files, page 1 of 1.) Tj ET\n")
    out.append(("6", "c", "c6_ghostscript_english.pdf",
                pdf([(cs, f"<< {HELV} >>")], info="<< /Producer (GPL Ghostscript 9.55.0) /Title (PDF report) >>"),
                []))
    return out


# One cheap variant per class for tests/test_redteam2.py. Left out because HEAD still publishes a leak on
# them (see docs/DOCUMENTS.md, "Second red-team corpus"): 2c (chart cache digits), 3a (glyph outlines),
# 3b (tiling pattern / ActualText), 4a (low-contrast grey), 4c (TIFF page 2 rotated note), 5b (Hanja name).
SUBSET = {"c1_png_no_extension.docx", "c2_href_targets.docx", "c3_strips_seal.pdf", "c4_photo_darkbar.jpg",
          "c3_outlines_clip.pdf", "c3_pattern_actualtext.pdf", "c4_grey_footer.png", "c4_tiff_page2_rotated_hollow.tif",
          "c5_split_cells.csv", "c6_acronyms_ko.txt", "c6_other_software.docx", "c6_ghostscript_english.pdf"}


def generate(dest: Path, subset: bool = False) -> list[dict]:
    inp = dest / "in"
    inp.mkdir(parents=True, exist_ok=True)
    man = []
    for cls, var, rel, data, keys in class1() + class2() + class3() + class4() + class5() + class6():
        if subset and rel not in SUBSET:
            continue
        (inp / rel).write_bytes(data)
        man.append({"file": rel, "class": cls, "variant": var, "values": keys})
    (dest / "manifest.json").write_text(json.dumps({"values": VALUES, "files": man}, ensure_ascii=False, indent=1),
                                        encoding="utf-8")
    return man


def redact(d: Path, base: Path) -> str:
    import os
    import subprocess
    env = dict(os.environ, PYTHONPATH=str(base), QT_QPA_PLATFORM="offscreen")
    cmd = [sys.executable, "-c", "import sys; from veil_desktop.cli import main; sys.argv[0] = 'veil-redact'; "
           "sys.exit(main())", "redact", str(d / "in"), "--out", str(d / "out"), "--quiet", "--threads", "1"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(base))
    (d / "summary.txt").write_text(r.stdout + "\n--- stderr ---\n" + r.stderr, encoding="utf-8")
    return r.stdout


def main(argv: list[str]) -> int:
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["generate", "run"])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--base", type=Path, default=ROOT, help="checkout whose veil_desktop is run")
    ap.add_argument("--subset", action="store_true")
    ap.add_argument("--no-ocr", action="store_true")
    a = ap.parse_args(argv)
    man = generate(a.dir, a.subset)
    print(f"generated {len(man)} files in {a.dir / 'in'}")
    if a.cmd == "generate":
        return 0
    summary = redact(a.dir, a.base.resolve())
    sys.path.insert(0, str(Path(__file__).parent))
    import redteam2_oracle
    res = redteam2_oracle.judge(a.dir, summary, ocr=not a.no_ocr)
    redteam2_oracle.print_table(res, str(a.base))
    return 1 if any(r["verdict"] in ("LEAK", "FALSE ALARM") for r in res) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
