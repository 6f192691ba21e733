"""Third red-team corpus (issue 26): 18 fresh files, three per class 1-6, written from the file-format
specifications and from what a hostile author could do -- not from the product's readers or writers.

    nice .venv/bin/python benchmarks/redteam3.py generate DIR            # DIR/in/* + DIR/manifest.json
    nice .venv/bin/python benchmarks/redteam3.py run DIR [--base PATH]   # generate, redact, judge, figures
    nice .venv/bin/python benchmarks/redteam3.py selfcheck DIR           # the oracle sees every planted value
    nice .venv/bin/python benchmarks/redteam3.py judge DIR [--base PATH] # judge DIR/out again (DIR/summary.txt)

``run`` redacts DIR/in with the CLI of ``--base`` (a checkout; default this one) through
``redteam2.redact`` and judges every published output with ``benchmarks/redteam3_oracle.py`` (the views of
leak_oracle + redteam2_oracle, plus: an account number, Hangul digit words read as digits, Cyrillic/Greek
look-alikes read as Latin). The manifest has redteam2's format; each file also names, per planted value,
the place it was hidden in (``places``), so a LEAK line says which trick got through.

Tricks are new relative to redteam2.py: OOXML (ECMA-376: header parts of a non-final section, even-page
footer without evenAndOddHeaders, comments, footnotes, glossary document, docProps/custom.xml, embedded
OLE package, VML imagedata and textbox, wp:docPr alt text, complex field instructions, w:vanish), OWPML
(field names/parameters, hidden comment, even-page header, content.hpf metadata, Preview/), ISO 32000
(Type3 CharProcs, /ImageMask with /Decode [1 0], optional content ON by default, text clip + /sh shading,
Form XObject at 2 % scale, inline image with /AHx /Fl), PNG zTXt/eXIf, APNG frames, BMP under a .png name,
WebP, JPEG XMP/Exif, TIFF ImageDescription, CMYK JPEG, CCITT G4 TIFF at 100 dpi, a negative scan page,
RFC 4180 CSV in a split Korean roster layout, fullwidth/mathematical/Arabic-Indic digits with ZWJ,
homoglyph e-mail, Hangul digit words.
"""
from __future__ import annotations

import io
import json
import sys
import zipfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import redteam2 as r2  # noqa: E402  (helpers only: pictures, escaping, PDF outlines, the CLI runner)
from redteam2 import DECL, NS, RTYPE, canvas, enc, font, png_chunk, text_img, xesc  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

NAME = "윤채원"
RRN = "920417-1634856"            # valid check digit
PHONE = "010-5823-7461"
ADDR = "광주광역시 북구 용봉로 77"
EMAIL = "chaewon.yoon@example.net"
ACCOUNT = "352-0917-4826-13"      # no 4-digit run shared with RRN or PHONE
VALUES = {"NAME": NAME, "RRN": RRN, "PHONE": PHONE, "ADDR": ADDR, "EMAIL": EMAIL, "ACCOUNT": ACCOUNT}
RRN_D = RRN.replace("-", "")
PHONE_D = PHONE.replace("-", "")
ACCT_D = ACCOUNT.replace("-", "")
PLAIN = "이 문서는 하반기 시설 점검 결과를 정리한 내부 자료입니다."


# ---------------------------------------------------------------------------------------------- DOCX
def rels_xml(rels) -> str:
    return (DECL + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(f'<Relationship Id="{i}" Type="{t if t.startswith("http") else RTYPE + t}" '
                      f'Target="{xesc(g)}"' + (' TargetMode="External"' if ext else "") + "/>"
                      for i, t, g, ext in rels) + "</Relationships>")


def docx(body: str, *, rels=(), pkg_rels=(), parts=None, overrides=None, defaults=None,
         sectpr: str = "<w:sectPr/>", app: str = "Microsoft Office Word") -> bytes:
    parts = dict(parts or {})
    ct_def = {"rels": "application/vnd.openxmlformats-package.relationships+xml", "xml": "application/xml",
              "png": "image/png", "jpeg": "image/jpeg"}
    ct_def.update(defaults or {})
    ov = {"/word/document.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
          "/docProps/app.xml": "application/vnd.openxmlformats-officedocument.extended-properties+xml"}
    ov.update(overrides or {})
    ct = (DECL + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          + "".join(f'<Default Extension="{e}" ContentType="{c}"/>' for e, c in ct_def.items())
          + "".join(f'<Override PartName="{n}" ContentType="{c}"/>' for n, c in ov.items()) + "</Types>")
    prels = [("rId1", "officeDocument", "word/document.xml", False),
             ("rId2", "extended-properties", "docProps/app.xml", False)] + list(pkg_rels)
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", ct)
        z.writestr("_rels/.rels", rels_xml(prels))
        z.writestr("docProps/app.xml", DECL + '<Properties xmlns="http://schemas.openxmlformats.org/'
                   f'officeDocument/2006/extended-properties"><Application>{xesc(app)}</Application></Properties>')
        z.writestr("word/document.xml", DECL + f'<w:document {NS}><w:body>{body}{sectpr}</w:body></w:document>')
        z.writestr("word/_rels/document.xml.rels", rels_xml(rels))
        for n, d in parts.items():
            z.writestr(n, d)
    return b.getvalue()


def para(text: str, ppr: str = "", rpr: str = "") -> str:
    return f'<w:p>{ppr}<w:r>{rpr}<w:t xml:space="preserve">{xesc(text)}</w:t></w:r></w:p>'


def drawing(rid: str, n: int, cx: int = 5400000, cy: int = 540000, descr: str = "", title: str = "") -> str:
    extra = (f' descr="{xesc(descr)}"' if descr else "") + (f' title="{xesc(title)}"' if title else "")
    return (f'<w:p><w:r><w:drawing><wp:inline><wp:extent cx="{cx}" cy="{cy}"/>'
            f'<wp:docPr id="{n}" name="그림 {n}"{extra}/>'
            '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">'
            f'<pic:pic><pic:nvPicPr><pic:cNvPr id="{n}" name="그림 {n}"{extra}/><pic:cNvPicPr/></pic:nvPicPr>'
            f'<pic:blipFill><a:blip r:embed="{rid}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>'
            f'<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm>'
            '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic>'
            '</wp:inline></w:drawing></w:r></w:p>')


def wpart(root: str, inner: str) -> str:
    return DECL + f'<w:{root} {NS}>{inner}</w:{root}>'


CT_HDR = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"
CT_FTR = "application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"


# ---------------------------------------------------------------------------------------------- HWPX
HP, HH, HC = r2.HP, r2.HH, r2.HC
OPF = r2.OPF


def hwpx(paras: list[str], *, bindata=None, meta: str = "", extra=None) -> bytes:
    bindata = bindata or {}
    items = "".join(f'<opf:item id="{Path(n).stem}" href="BinData/{n}" media-type="{mt}" isEmbeded="1"/>'
                    for n, (_, mt) in bindata.items())
    hpf = (DECL + f'<opf:package xmlns:opf="{OPF}" version="" unique-identifier="" id="">'
           f'<opf:metadata><opf:title>시설 점검</opf:title><opf:language>ko</opf:language>{meta}</opf:metadata>'
           '<opf:manifest><opf:item id="header" href="Contents/header.xml" media-type="application/xml"/>'
           '<opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/>'
           f'{items}</opf:manifest><opf:spine><opf:itemref idref="header" linear="yes"/>'
           '<opf:itemref idref="section0" linear="yes"/></opf:spine></opf:package>')
    buf = io.BytesIO(r2.hwpx(paras, {}, {}))
    src = zipfile.ZipFile(buf)
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            data = hpf.encode() if info.filename == "Contents/content.hpf" else src.read(info)
            if info.filename == "mimetype":
                z.writestr(zipfile.ZipInfo("mimetype"), data, compress_type=zipfile.ZIP_STORED)
            else:
                z.writestr(info.filename, data)
        for n, (d, _) in bindata.items():
            z.writestr(f"BinData/{n}", d)
        for n, d in (extra or {}).items():
            z.writestr(n, d)
    return b.getvalue()


def hsub(text: str) -> str:
    return ('<hp:subList id="" textDirection="HORIZONTAL" lineWrap="BREAK" vertAlign="TOP" linkListIDRef="0" '
            'linkListNextIDRef="0" textWidth="42520" textHeight="4252" hasTextRef="0" hasNumRef="0">'
            '<hp:p id="0" paraPrIDRef="0" styleIDRef="0" pageBreak="0" columnBreak="0" merged="0">'
            f'{r2.hrun(text)}</hp:p></hp:subList>')


# ----------------------------------------------------------------------------------------------- PDF
def pdf(pages: list[tuple[bytes, str]], objs: list[bytes] | None = None, catalog_extra: str = "",
        info: str = "", media=(595, 842)) -> bytes:
    """Like redteam2.pdf, with entries added to the catalog. Extra objects are numbered from 3 + 2*pages."""
    n = len(pages)
    out = [b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"]
    bodies = [f"<< /Type /Catalog /Pages 2 0 R {catalog_extra}>>".encode(),
              ("<< /Type /Pages /Count %d /Kids [%s] >>" % (n, " ".join(f"{3 + 2 * i} 0 R" for i in range(n)))).encode()]
    for i, (cs, res) in enumerate(pages):
        bodies.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {media[0]} {media[1]}] /Resources {res} "
                      f"/Contents {4 + 2 * i} 0 R >>".encode())
        bodies.append(b"<< /Length %d >>\nstream\n" % len(cs) + cs + b"\nendstream")
    bodies += objs or []
    if info:
        bodies.append(info.encode())
    offs = []
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


def stream(dict_src: bytes, data: bytes) -> bytes:
    return b"<< " + dict_src + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


HELV = r2.HELV
VISIBLE = b"BT /F1 12 Tf 60 790 Td (Facility inspection, second half: internal notes) Tj ET\n"


def type3_font(text: str, first_obj: int) -> tuple[bytes, list[bytes], bytes]:
    """A Type3 font whose CharProcs are NanumGothic outlines of the characters of ``text`` (ISO 32000 9.6.5),
    glyph names /g0.. with no ToUnicode: the text layer reads the codes (A, B, ...), the page shows ``text``.
    Returns (font dict, CharProc stream objects numbered from first_obj, the string to show)."""
    from fontTools.ttLib import TTFont
    f = TTFont(str(r2.FONT))
    upem = f["head"].unitsPerEm
    cmap = f.getBestCmap()
    gs = f.getGlyphSet()
    chars = sorted(set(text))
    procs, widths = [], []
    for ch in chars:
        g = cmap.get(ord(ch))
        w = int(gs[g].width * 1000 / upem) if g else 300
        path = r2.outline_path(ch, 0, 0, 1000) if ch != " " else b""
        procs.append(stream(b"", b"%d 0 d0\n" % w + path + (b"f\n" if path.strip() else b"")))
        widths.append(w)
    code = {ch: 65 + i for i, ch in enumerate(chars)}
    cp = " ".join(f"/g{i} {first_obj + i} 0 R" for i in range(len(chars)))
    fd = (f"<< /Type /Font /Subtype /Type3 /FontBBox [0 -250 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
          f"/CharProcs << {cp} >> /Encoding << /Type /Encoding /Differences [65 "
          + " ".join(f"/g{i}" for i in range(len(chars)))
          + f"] >> /FirstChar 65 /LastChar {64 + len(chars)} /Widths [{' '.join(map(str, widths))}] "
          "/Resources << >> >>").encode()
    return fd, procs, bytes(code[c] for c in text)


def image_xobj(img, extra: bytes = b"") -> bytes:
    g = img.convert("RGB")
    data = zlib.compress(g.tobytes())
    return stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
                  b"/BitsPerComponent 8 /Filter /FlateDecode " % (g.width, g.height) + extra, data)


def gray_xobj(img) -> bytes:
    g = img.convert("L")
    data = zlib.compress(g.tobytes())
    return stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                  b"/BitsPerComponent 8 /Filter /FlateDecode" % (g.width, g.height), data)


# ------------------------------------------------------------------------------------------- class 1
def class1() -> list[tuple]:
    """Pictures inside DOCX/HWPX, by tricks redteam2 did not use."""
    from PIL import Image
    out = []
    # 1a: a BMP stored as media/logo.png (content lies about its type) in the header of section 1 only;
    #     a body PNG whose zTXt (compressed, so no plain bytes) holds the phone and whose eXIf the account
    bmp = enc(text_img(f"작성자 {NAME}  {RRN}", 900, 60, 32), "BMP")
    png = enc(text_img("점검 항목 요약표", 600, 60, 30), "PNG")
    ex = Image.Exif()
    ex[0x010E] = f"acct {ACCOUNT}"
    ztxt = png_chunk(b"zTXt", b"Author\x00\x00" + zlib.compress(f"tel {PHONE}".encode()))
    exif = png_chunk(b"eXIf", ex.tobytes())
    png = png[:33] + ztxt + exif + png[33:]
    hdr = wpart("hdr", drawing("rIdH1", 11, 5400000, 360000))
    body = (para(PLAIN) + drawing("rIdB1", 1)
            + f'<w:p><w:pPr><w:sectPr><w:headerReference w:type="default" r:id="rIdHdr1"/></w:sectPr></w:pPr></w:p>'
            + para("2절. 세부 결과는 별첨을 따릅니다."))
    out.append(("1", "a", "c1_bmp_as_png_header_ztxt_exif.docx", docx(
        body, rels=[("rIdHdr1", "header", "header1.xml", False), ("rIdB1", "image", "media/image1.png", False)],
        parts={"word/header1.xml": hdr, "word/_rels/header1.xml.rels":
               rels_xml([("rIdH1", "image", "media/logo.png", False)]),
               "word/media/logo.png": bmp, "word/media/image1.png": png},
        overrides={"/word/header1.xml": CT_HDR}),
        ["NAME", "RRN", "PHONE", "ACCOUNT"],
        {"NAME": "BMP named .png in section-1 header", "RRN": "BMP named .png in section-1 header",
         "PHONE": "PNG zTXt (deflated)", "ACCOUNT": "PNG eXIf ImageDescription"}))
    # 1b: a picture reachable only through legacy VML v:imagedata (JPEG: address in pixels, name in XMP
    #     dc:creator, phone in Exif ImageDescription); a WebP in a DrawingML blip with the RRN
    jpg_img = text_img(f"주소 {ADDR}", 900, 70, 34)
    ex = Image.Exif()
    ex[0x010E] = f"contact {PHONE}"
    xmp = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>'
           f'{NAME}</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>').encode()
    jpg = enc(jpg_img, "JPEG", quality=92, exif=ex.tobytes(), xmp=xmp)
    webp = enc(text_img(f"주민등록번호 {RRN}", 800, 70, 34), "WEBP", quality=95)
    vml = ('<w:p><w:r><w:pict><v:shape id="_x0000_s1025" type="#_x0000_t75" style="width:450pt;height:35pt">'
           '<v:imagedata r:id="rIdV1" o:title=""/></v:shape></w:pict></w:r></w:p>')
    out.append(("1", "b", "c1_vml_imagedata_xmp_webp.docx", docx(
        para(PLAIN) + vml + drawing("rIdW1", 2),
        rels=[("rIdV1", "image", "media/image1.jpeg", False), ("rIdW1", "image", "media/image2.webp", False)],
        parts={"word/media/image1.jpeg": jpg, "word/media/image2.webp": webp}, defaults={"webp": "image/webp"}),
        ["ADDR", "NAME", "PHONE", "RRN"],
        {"ADDR": "VML-only JPEG pixels", "NAME": "JPEG XMP dc:creator", "PHONE": "JPEG Exif ImageDescription",
         "RRN": "WebP pixels"}))
    # 1c: HWPX: an APNG whose default image is blank and whose 2nd frame shows name + account; a TIFF
    #     with a blank page and the RRN in its ImageDescription tag; Preview/PrvImage.png with the phone and
    #     Preview/PrvText.txt (the preview text) with the address, neither in the body
    blank = canvas(800, 70)
    fr2 = text_img(f"{NAME} 계좌 {ACCOUNT}", 800, 70, 34)
    b = io.BytesIO()
    blank.save(b, "PNG", save_all=True, append_images=[fr2], duration=[4000, 4000], loop=0, default_image=False)
    apng = b.getvalue()
    b = io.BytesIO()
    tif_img = canvas(400, 60)
    ti = Image.Exif()
    ti[0x010E] = f"RRN {RRN}"
    tif_img.save(b, "TIFF", exif=ti.tobytes())
    prv = text_img(f"연락처 {PHONE}", 700, 80, 40)
    out.append(("1", "c", "c1_apng_tifftag_preview.hwpx", hwpx(
        [r2.hrun(PLAIN), r2.hpic("anim"), r2.hpic("scan", 20000, 3000)],
        bindata={"anim.png": (apng, "image/png"), "scan.tif": (b.getvalue(), "image/tiff")},
        extra={"Preview/PrvImage.png": enc(prv, "PNG"),
               "Preview/PrvText.txt": f"{PLAIN}\r\n주소: {ADDR}\r\n".encode("utf-16-le")}),
        ["NAME", "ACCOUNT", "RRN", "PHONE", "ADDR"],
        {"NAME": "APNG frame 2", "ACCOUNT": "APNG frame 2", "RRN": "TIFF ImageDescription",
         "PHONE": "Preview/PrvImage.png", "ADDR": "Preview/PrvText.txt (UTF-16)"}))
    return out


# ------------------------------------------------------------------------------------------- class 2
def class2() -> list[tuple]:
    """Hidden places of DOCX/HWPX that hold text (not pictures)."""
    out = []
    # 2a: comment (text + author), footnote, w:vanish run, docProps/custom.xml, glossary document,
    #     an embedded OLE package whose part name and content hold the e-mail
    comments = wpart("comments", f'<w:comment w:id="0" w:author="{xesc(NAME)}" w:initials="YC">'
                     + para(f"{NAME} 님 확인 필요") + "</w:comment>")
    footnotes = wpart("footnotes", '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
                      '</w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r>'
                      '<w:continuationSeparator/></w:r></w:p></w:footnote><w:footnote w:id="1">'
                      + para(f"신청인 주민등록번호 {RRN}") + "</w:footnote>")
    glossary = wpart("glossaryDocument", '<w:docParts><w:docPart><w:docPartPr><w:name w:val="송금 계좌"/>'
                     '<w:category><w:name w:val="일반"/><w:gallery w:val="autoTxt"/></w:category></w:docPartPr>'
                     f'<w:docPartBody>{para(f"입금 계좌 {ACCOUNT}")}</w:docPartBody></w:docPart></w:docParts>')
    custom = (DECL + '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
              'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
              '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="담당주소">'
              f'<vt:lpwstr>{xesc(ADDR)}</vt:lpwstr></property></Properties>')
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", DECL + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/'
                   'content-types"><Default Extension="xml" ContentType="application/xml"/></Types>')
        z.writestr("xl/sharedStrings.xml", DECL + '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
                   f'2006/main" count="1" uniqueCount="1"><si><t>{EMAIL}</t></si></sst>')
    pkg_name = f"word/embeddings/{EMAIL.split('@')[0]}_명세.xlsx"
    icon = enc(text_img("명세.xlsx", 300, 60, 28), "PNG")
    obj = ('<w:p><w:r><w:object w:dxaOrig="1440" w:dyaOrig="480"><v:shape id="_x0000_i1025" type="#_x0000_t75" '
           'style="width:72pt;height:24pt" o:ole=""><v:imagedata r:id="rIdIcon" o:title=""/></v:shape>'
           '<o:OLEObject Type="Embed" ProgID="Excel.Sheet.12" ShapeID="_x0000_i1025" DrawAspect="Icon" '
           'ObjectID="_1760000001" r:id="rIdPkg"/></w:object></w:r></w:p>')
    body = (f'<w:p><w:commentRangeStart w:id="0"/><w:r><w:t xml:space="preserve">{xesc(PLAIN)}</w:t></w:r>'
            '<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r>'
            '<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r></w:p>'
            '<w:p><w:r><w:t xml:space="preserve">연락은 담당 부서로. </w:t></w:r>'
            f'<w:r><w:rPr><w:vanish/></w:rPr><w:t>{PHONE}</w:t></w:r></w:p>' + obj)
    out.append(("2", "a", "c2_comment_footnote_vanish_custom_glossary_ole.docx", docx(
        body, rels=[("rIdCm", "comments", "comments.xml", False), ("rIdFn", "footnotes", "footnotes.xml", False),
                    ("rIdGl", "glossaryDocument", "glossary/document.xml", False),
                    ("rIdPkg", "package", pkg_name[5:], False), ("rIdIcon", "image", "media/image1.png", False)],
        pkg_rels=[("rId3", "custom-properties", "docProps/custom.xml", False)],
        parts={"word/comments.xml": comments, "word/footnotes.xml": footnotes,
               "word/glossary/document.xml": glossary, "docProps/custom.xml": custom,
               pkg_name: inner.getvalue(), "word/media/image1.png": icon},
        overrides={"/word/comments.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml",
                   "/word/footnotes.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
                   "/word/glossary/document.xml": "application/vnd.openxmlformats-officedocument."
                   "wordprocessingml.document.glossary+xml",
                   "/docProps/custom.xml": "application/vnd.openxmlformats-officedocument.custom-properties+xml"},
        defaults={"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}),
        ["NAME", "RRN", "PHONE", "ADDR", "ACCOUNT", "EMAIL"],
        {"NAME": "comment text + w:author", "RRN": "footnote", "PHONE": "w:vanish run", "ADDR": "docProps/custom.xml",
         "ACCOUNT": "glossary document", "EMAIL": "embedded OLE package name + content"}))
    # 2b: header of a non-final section; an even-page footer (never shown: no w:evenAndOddHeaders);
    #     wp:docPr alt text (descr/title); a VML textbox; a complex field whose instruction holds the account
    hdr = wpart("hdr", para(f"담당 {NAME}"))
    ftr = wpart("ftr", para(f"문의 {PHONE}"))
    pic = enc(text_img("현장 사진 1", 500, 60, 28), "PNG")
    txbx = ('<w:p><w:r><w:pict><v:shape id="_x0000_s2001" type="#_x0000_t202" style="position:absolute;'
            'margin-left:400pt;width:120pt;height:40pt;z-index:1"><v:textbox><w:txbxContent>'
            + para(f"회신 주소 {ADDR}") + '</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>')
    fld = ('<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK '
           f'"https://bank.example/transfer?to={ACCT_D}&amp;memo={ACCOUNT}" </w:instrText></w:r>'
           '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>이체 안내</w:t></w:r>'
           '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>')
    body = (para(PLAIN)
            + '<w:p><w:pPr><w:sectPr><w:headerReference w:type="default" r:id="rIdHd1"/>'
              '<w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:pPr></w:p>'
            + drawing("rIdP1", 3, descr=f"신청인 {RRN} 사진", title=RRN_D) + txbx + fld
            + '<w:p><w:pPr><w:sectPr><w:footerReference w:type="even" r:id="rIdFt2"/>'
              '<w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:pPr></w:p>' + para("끝."))
    out.append(("2", "b", "c2_sections_alttext_textbox_fieldcode.docx", docx(
        body, rels=[("rIdHd1", "header", "header1.xml", False), ("rIdFt2", "footer", "footer2.xml", False),
                    ("rIdP1", "image", "media/image1.png", False)],
        parts={"word/header1.xml": hdr, "word/footer2.xml": ftr, "word/media/image1.png": pic},
        overrides={"/word/header1.xml": CT_HDR, "/word/footer2.xml": CT_FTR}),
        ["NAME", "PHONE", "RRN", "ADDR", "ACCOUNT"],
        {"NAME": "header of section 1 (not final)", "PHONE": "even-page footer of section 2",
         "RRN": "wp:docPr descr/title alt text", "ADDR": "VML textbox", "ACCOUNT": "HYPERLINK field instruction"}))
    # 2c: HWPX: a click-here field named after the person with the account in its Command parameter,
    #     a hidden comment (숨은 설명) with the RRN, an even-page header with the phone, content.hpf metadata
    #     with the address
    field = ('<hp:run charPrIDRef="0"><hp:ctrl><hp:fieldBegin id="1001" type="CLICK_HERE" '
             f'name="{xesc(NAME)}_담당" editable="1" dirty="0" zorder="-1" fieldid="627272811">'
             '<hp:parameters cnt="2" name=""><hp:integerParam name="Prop">9</hp:integerParam>'
             f'<hp:stringParam name="Command">Clickhere:set:66:Direction:wstring:20:계좌 {ACCOUNT} </hp:stringParam>'
             '</hp:parameters></hp:fieldBegin></hp:ctrl><hp:t>여기에 입력</hp:t><hp:ctrl>'
             '<hp:fieldEnd beginIDRef="1001" fieldid="627272811"/></hp:ctrl></hp:run>')
    hidden = f'<hp:run charPrIDRef="0"><hp:ctrl><hp:hiddenComment>{hsub(f"주민번호 {RRN}")}</hp:hiddenComment></hp:ctrl></hp:run>'
    header = (f'<hp:run charPrIDRef="0"><hp:ctrl><hp:header id="1" applyPageType="EVEN">{hsub(f"연락처 {PHONE}")}'
              '</hp:header></hp:ctrl></hp:run>')
    meta = (f'<opf:meta name="creator" content="text">시설팀</opf:meta>'
            f'<opf:meta name="subject" content="text">{xesc(ADDR)}</opf:meta>')
    out.append(("2", "c", "c2_hwpx_fieldname_hiddencomment_header_meta.hwpx", hwpx(
        [header + r2.hrun(PLAIN), field, hidden + r2.hrun("확인 후 회신 바랍니다.")], meta=meta),
        ["NAME", "ACCOUNT", "RRN", "PHONE", "ADDR"],
        {"NAME": "field name", "ACCOUNT": "field Command parameter", "RRN": "hidden comment",
         "PHONE": "even-page header", "ADDR": "content.hpf opf:meta subject"}))
    return out


# ------------------------------------------------------------------------------------------- class 3
def class3() -> list[tuple]:
    """PDF ink that is not in the text layer (or not where the text layer says)."""
    out = []
    # 3a: name + RRN drawn by a Type3 font (CharProcs = glyph outlines; text layer reads "ABC.."); the phone
    #     as a 1-bit /ImageMask with /Decode [1 0] painted white on a black bar
    text = f"{NAME} {RRN}"
    fd, procs, codes = type3_font(text, 6)
    line = text_img(PHONE, 400, 50, 36).convert("1")
    from PIL import ImageOps
    inv = ImageOps.invert(line.convert("L")).convert("1")        # text = 1 bits; /Decode [1 0] paints the 1s
    mask = stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ImageMask true /BitsPerComponent 1 "
                  b"/Decode [1 0] /Filter /FlateDecode" % inv.size, zlib.compress(inv.tobytes()))
    cs = (VISIBLE + b"0 g BT /T3 22 Tf 60 700 Td <" + codes.hex().encode() + b"> Tj ET\n"
          + b"0 g 50 590 420 62 re f\n1 g q 400 0 0 50 60 596 cm /M1 Do Q\n")
    objs = [fd] + procs
    objs.append(mask)
    mnum = 4 + len(objs)
    out.append(("3", "a", "c3_type3_imagemask_inverted.pdf",
                pdf([(cs, f"<< {HELV[:-3]} /T3 5 0 R >> /XObject << /M1 {mnum} 0 R >> >>")], objs),
                ["NAME", "RRN", "PHONE"],
                {"NAME": "Type3 CharProcs", "RRN": "Type3 CharProcs", "PHONE": "inverted 1-bit image mask"}))
    # 3b: an optional content group ON by default (/OCProperties /D /ON) holding a picture of the name +
    #     address and the RRN as text; the phone as text in render mode 7 (clip only) then painted by /sh
    img = text_img(f"{NAME}  {ADDR}", 900, 60, 32)
    ocg = b"<< /Type /OCG /Name (Layer 2) >>"
    shading = b"<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [60 0 360 0] /Function << /FunctionType 2 " \
              b"/Domain [0 1] /C0 [0 0 0] /C1 [0.1 0.1 0.5] /N 1 >> /Extend [true true] >>"
    cs = (VISIBLE + b"/OC /oc1 BDC q 450 0 0 30 60 700 cm /Im1 Do Q BT /F1 16 Tf 60 660 Td (" + RRN.encode()
          + b") Tj ET EMC\nq BT 7 Tr /F1 24 Tf 60 600 Td (" + PHONE.encode() + b") Tj ET /Sh0 sh Q\n")
    objs = [ocg, image_xobj(img), shading]
    out.append(("3", "b", "c3_ocg_on_clip_shading.pdf",
                pdf([(cs, f"<< {HELV} /XObject << /Im1 6 0 R >> /Properties << /oc1 5 0 R >> "
                          "/Shading << /Sh0 7 0 R >> >>")], objs,
                    catalog_extra="/OCProperties << /OCGs [5 0 R] /D << /ON [5 0 R] /Order [5 0 R] >> >> "),
                ["NAME", "ADDR", "RRN", "PHONE"],
                {"NAME": "image inside OCG (ON)", "ADDR": "image inside OCG (ON)", "RRN": "text inside OCG (ON)",
                 "PHONE": "Tr 7 text clip painted by sh"}))
    # 3c: a Form XObject (the account as text + the RRN as outlines) drawn 40 times at 2 % scale (a dotted
    #     rule); an inline image (BI .. ID .. EI, /AHx /Fl) with the name and phone
    form_cs = (b"BT /F1 12 Tf 0 0 Td (" + ACCOUNT.encode() + b") Tj ET 0 g\n"
               + r2.outline_path(RRN, 0, -16, 12) + b"f\n")
    form = stream(b"/Type /XObject /Subtype /Form /BBox [0 -20 200 20] /Resources << " + HELV.encode() + b" >>",
                  form_cs)
    il = text_img(f"{NAME} {PHONE}", 700, 50, 34)
    hexdata = zlib.compress(il.tobytes()).hex().encode() + b">"
    cs = VISIBLE
    for i in range(40):
        cs += b"q 0.02 0 0 0.02 %.2f 740 cm /Fm1 Do Q\n" % (60 + i * 4.5)
    cs += (b"q 420 0 0 30 60 640 cm BI /W %d /H %d /CS /RGB /BPC 8 /F [/AHx /Fl] ID\n" % il.size
           + hexdata + b"\nEI Q\n")
    out.append(("3", "c", "c3_tiny_form_inline_image.pdf",
                pdf([(cs, f"<< {HELV} /XObject << /Fm1 5 0 R >> >>")], [form]),
                ["ACCOUNT", "RRN", "NAME", "PHONE"],
                {"ACCOUNT": "Form XObject text at 2 % x40", "RRN": "Form XObject outlines at 2 %",
                 "NAME": "inline image /AHx /Fl", "PHONE": "inline image /AHx /Fl"}))
    return out


# ------------------------------------------------------------------------------------------- class 4
def class4() -> list[tuple]:
    """Scans that OCR may read badly."""
    from PIL import Image, ImageDraw
    out = []
    # 4a: CMYK JPEG: red name + RRN on a yellow band, black phone on a mid-blue band, account in cyan
    img = canvas(1240, 620)
    d = ImageDraw.Draw(img)
    d.text((60, 50), PLAIN, fill="black", font=font(30))
    d.rectangle((40, 150, 1200, 230), fill=(255, 230, 0))
    d.text((60, 165), f"성명 {NAME}  주민등록번호 {RRN}", fill=(200, 20, 20), font=font(38))
    d.rectangle((40, 300, 1200, 380), fill=(60, 100, 220))
    d.text((60, 315), f"휴대전화 {PHONE}", fill="black", font=font(38))
    d.text((60, 470), f"계좌 {ACCOUNT}", fill=(0, 170, 230), font=font(38))
    out.append(("4", "a", "c4_cmyk_coloured_bands.jpg", enc(img.convert("CMYK"), "JPEG", quality=90),
                ["NAME", "RRN", "PHONE", "ACCOUNT"],
                {"NAME": "red on yellow (CMYK)", "RRN": "red on yellow (CMYK)", "PHONE": "black on blue (CMYK)",
                 "ACCOUNT": "cyan on white (CMYK)"}))
    # 4b: a 1-bit CCITT G4 TIFF at 100 dpi (A4 = 827 x 1169 px; 10 pt text is 14 px), a line at 30 degrees
    page = Image.new("L", (827, 1169), 255)
    d = ImageDraw.Draw(page)
    d.text((60, 60), PLAIN, fill=0, font=font(16))
    d.text((60, 120), f"신청인 {NAME}  계좌 {ACCOUNT}", fill=0, font=font(14))
    rot = Image.new("L", (520, 40), 255)
    ImageDraw.Draw(rot).text((4, 6), f"휴대폰 {PHONE}  주소 {ADDR}", fill=0, font=font(18))
    rot = rot.rotate(30, expand=True, fillcolor=255)
    page.paste(rot, (200, 400))
    b = io.BytesIO()
    page.point(lambda v: 255 if v > 128 else 0).convert("1").save(b, "TIFF", compression="group4", dpi=(100, 100))
    out.append(("4", "b", "c4_g4_fax_100dpi_rot30.tif", b.getvalue(), ["NAME", "ACCOUNT", "PHONE", "ADDR"],
                {"NAME": "14 px at 100 dpi, 1-bit G4", "ACCOUNT": "14 px at 100 dpi, 1-bit G4",
                 "PHONE": "30 degree line", "ADDR": "30 degree line"}))
    # 4c: a scan-only PDF: page 1 ordinary, page 2 a negative (white on black) scan at 150 dpi
    p1 = Image.new("L", (1240, 1754), 255)
    ImageDraw.Draw(p1).text((100, 150), PLAIN, fill=0, font=font(34))
    p2 = Image.new("L", (1240, 1754), 0)
    d = ImageDraw.Draw(p2)
    d.text((100, 150), "별지 2. 신청인 정보", fill=255, font=font(36))
    d.text((100, 260), f"성명 {NAME}", fill=255, font=font(36))
    d.text((100, 340), f"주민등록번호 {RRN}", fill=255, font=font(36))
    d.text((100, 420), f"주소 {ADDR}", fill=255, font=font(36))
    cs = b"q 595 0 0 842 0 0 cm /Im1 Do Q\n"
    out.append(("4", "c", "c4_negative_scan_page2.pdf",
                pdf([(cs, "<< /XObject << /Im1 7 0 R >> >>"), (cs, "<< /XObject << /Im1 8 0 R >> >>")],
                    [gray_xobj(p1), gray_xobj(p2)]),
                ["NAME", "RRN", "ADDR"],
                {"NAME": "negative scan page 2", "RRN": "negative scan page 2", "ADDR": "negative scan page 2"}))
    return out


# ------------------------------------------------------------------------------------------- class 5
def class5() -> list[tuple]:
    """Text the detector may not read."""
    out = []
    # 5a: a roster export: surname and given name in separate columns, RRN as 생년월일 + 뒷자리 7,
    #     phone in three columns, address over 시도/시군구/도로명/건물번호, account over three columns
    r, p, a = RRN.split("-"), PHONE.split("-"), ACCOUNT.split("-")
    csv = ("연번,성,이름,생년월일,뒷자리,휴대전화1,휴대전화2,휴대전화3,시도,시군구,도로명,건물번호,은행,계좌1,계좌2,계좌3\r\n"
           f"1,{NAME[0]},{NAME[1:]},{r[0]},{r[1]},{p[0]},{p[1]},{p[2]},광주광역시,북구,용봉로,77,농협,"
           f"{a[0]},{a[1]},{a[2]}{a[3]}\r\n"
           "2,(공석),,,,,,,,,,,,,,\r\n")
    out.append(("5", "a", "c5_roster_split_columns.csv", csv.encode("utf-8-sig"),
                ["NAME", "RRN", "PHONE", "ADDR", "ACCOUNT"],
                {"NAME": "성 | 이름 columns", "RRN": "생년월일 | 뒷자리 columns", "PHONE": "3 columns",
                 "ADDR": "시도 | 시군구 | 도로명 | 건물번호", "ACCOUNT": "3 columns"}))
    # 5b: fullwidth digits with zero-width joiners, mathematical bold + Arabic-Indic digits, a name with
    #     ZWJ between syllables, an e-mail with Cyrillic look-alike letters and a fullwidth @
    zwj = "\u200d"
    fw = lambda s: "".join(chr(ord(c) + 0xFEE0) if c.isdigit() else ("－" if c == "-" else c) for c in s)  # noqa: E731
    bold = lambda s: "".join(chr(0x1D7CE + int(c)) if c.isdigit() else c for c in s)  # noqa: E731
    arab = lambda s: "".join(chr(0x0660 + int(c)) if c.isdigit() else c for c in s)  # noqa: E731
    homo = str.maketrans({"c": "с", "a": "а", "e": "е", "o": "о", "y": "у", "x": "х", "p": "р"})
    txt = (f"{PLAIN}\n담당자: {zwj.join(NAME)}\n휴대폰: {zwj.join(fw(PHONE))}\n"
           f"주민번호: {bold(RRN[:6])}-{zwj.join(fw(RRN[7:]))}\n계좌: {arab(ACCOUNT)}\n"
           f"메일: {EMAIL.split('@')[0].translate(homo)}＠{EMAIL.split('@')[1]}\n")
    out.append(("5", "b", "c5_fullwidth_zwj_mixed_scripts.txt", txt.encode("utf-8"),
                ["NAME", "PHONE", "RRN", "ACCOUNT", "EMAIL"],
                {"NAME": "ZWJ between syllables", "PHONE": "fullwidth digits + ZWJ",
                 "RRN": "math-bold + fullwidth digits", "ACCOUNT": "Arabic-Indic digits",
                 "EMAIL": "Cyrillic look-alikes + fullwidth @"}))
    # 5c: numbers spoken in Sino-Korean digit words (공일공 …), the dash read as 다시; the name with
    #     its Hanja in brackets after the surname; the road name spaced out
    words = dict(zip("0123456789", "공일이삼사오육칠팔구"))
    say = lambda s: " ".join("".join(words[c] for c in part) for part in s.split("-"))  # noqa: E731
    csv = ("항목,내용\r\n"
           f"성함,윤(尹) 채원\r\n"
           f"연락처,{say(PHONE)}\r\n"
           f"주민등록번호,{say(RRN).replace(' ', ' 다시 ')}\r\n"
           f"입금계좌,농협 {say(ACCOUNT)}\r\n"
           "주소,광주광역시 북구 용 봉 로 칠십칠\r\n")
    out.append(("5", "c", "c5_hangul_digit_words.csv", csv.encode("utf-8"),
                ["NAME", "PHONE", "RRN", "ACCOUNT", "ADDR"],
                {"NAME": "윤(尹) 채원", "PHONE": "공일공 오팔이삼 …", "RRN": "구이공사일칠 다시 …",
                 "ACCOUNT": "삼오이 공구일칠 …", "ADDR": "용 봉 로 spaced"}))
    return out


# ------------------------------------------------------------------------------------------- class 6
def class6() -> list[tuple]:
    """Ordinary files with no PII: must export (a non-ok status is a false alarm)."""
    from PIL import ImageDraw
    out = []
    lines = ["ISO 32000-1 (PDF 1.7) notes for the HWP, HWPX and DOCX converters",
             "1. Scope: OCR of TIFF G4, JPEG and PNG inputs; UTF-8, UTF-16 and CP949 text; CSV per RFC 4180.",
             "2. The API v2.3 returns HTTP 200 or 422; IDs are UUIDv4; SHA-256 digests are logged.",
             "3. Even pages carry the ONES and ZEROS test marks; Grace period for fixes: 30 days.",
             "4. Results: 128 of 130 files passed (98.5 %); mean 412 ms per page on an x86_64 CPU, 16 GB RAM.",
             "5. Known issues: CMYK JPEG colour shift; JBIG2 and CCITT decoders; XFA forms; PDF/A-2b fonts.",
             "Table 3. Mark, Will and Lee are test-suite names, not people.  Page 1 of 2"]
    cs = b"".join(b"BT /F1 %d Tf 60 %d Td (%s) Tj ET\n" % (14 if i == 0 else 10, 790 - 24 * i,
                                                         ln.replace("(", "\\(").replace(")", "\\)").encode())
                  for i, ln in enumerate(lines))
    cs2 = b"BT /F1 10 Tf 60 790 Td (Appendix A: OCR, PDF, HWP glossary. Page 2 of 2) Tj ET\n"
    out.append(("6", "a", "c6_english_technical_acronyms.pdf",
                pdf([(cs, f"<< {HELV} >>"), (cs2, f"<< {HELV} >>")],
                    info="<< /Producer (LaTeX with hyperref) /Title (Converter conformance notes) >>"), [], {}))
    # 6b: a Korean report: a logo picture (shape + Latin letters), a table with shaded header cells
    logo = canvas(360, 120)
    d = ImageDraw.Draw(logo)
    d.ellipse((10, 10, 110, 110), fill=(20, 90, 170))
    d.text((130, 35), "ACME", fill=(20, 90, 170), font=font(48))
    shd = '<w:tcPr><w:shd w:val="clear" w:color="auto" w:fill="D9E2F3"/></w:tcPr>'
    cell = lambda t, h=False: f'<w:tc>{shd if h else ""}{para(t)}</w:tc>'  # noqa: E731
    table = ('<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
             '<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>'
             + "<w:tr>" + cell("구분", True) + cell("건수", True) + cell("비고", True) + "</w:tr>"
             + "<w:tr>" + cell("정기 점검") + cell("42") + cell("이상 없음") + "</w:tr>"
             + "<w:tr>" + cell("수시 점검") + cell("7") + cell("조치 완료") + "</w:tr></w:tbl>")
    body = (drawing("rIdLogo", 1, 1800000, 600000) + para("2분기 시설 점검 보고서", rpr="<w:rPr><w:b/></w:rPr>")
            + para("본 보고서는 정기 및 수시 점검 결과를 요약합니다. 세부 내역은 아래 표와 같습니다.") + table
            + para("향후 계획: 3분기에는 소방 설비와 승강기 점검을 실시할 예정입니다."))
    out.append(("6", "b", "c6_korean_logo_shaded_table.docx", docx(
        body, rels=[("rIdLogo", "image", "media/image1.png", False)],
        parts={"word/media/image1.png": enc(logo, "PNG")}), [], {}))
    # 6c: product codes: EAN-13 barcodes (13 digits, like an RRN without its dash), SKUs with 010- prefixes
    csv = ("품번,품명,바코드,규격,수량,단가\r\n"
           "SKU-010-3312-0087,육각 볼트 M8x30,8801234567893,\"M8, 30mm\",1200,85\r\n"
           "SKU-010-3312-0094,평와셔 M8,8801234567909,\"M8, 2T\",3000,12\r\n"
           "KR-24-0511-A,케이블 타이 200mm,8809876543217,\"200mm, 100ea\",40,3500\r\n"
           "PN 2208-17-0412,배관 클램프,8801111222236,\"25A\",150,640\r\n")
    out.append(("6", "c", "c6_product_codes.csv", csv.encode("utf-8"), [], {}))
    return out


def generate(dest: Path) -> list[dict]:
    inp = dest / "in"
    inp.mkdir(parents=True, exist_ok=True)
    man = []
    for cls, var, rel, data, keys, places in class1() + class2() + class3() + class4() + class5() + class6():
        (inp / rel).write_bytes(data)
        man.append({"file": rel, "class": cls, "variant": var, "values": keys, "places": places})
    (dest / "manifest.json").write_text(json.dumps({"values": VALUES, "files": man}, ensure_ascii=False, indent=1),
                                        encoding="utf-8")
    return man


def redact(d: Path, base: Path, extra: list[str]) -> str:
    """redteam2.redact with extra CLI arguments."""
    import os
    import subprocess
    env = dict(os.environ, PYTHONPATH=str(base), QT_QPA_PLATFORM="offscreen")
    cmd = [sys.executable, "-c", "import sys; from veil_desktop.cli import main; sys.argv[0] = 'veil-redact'; "
           "sys.exit(main())", "redact", str(d / "in"), "--out", str(d / "out"), "--quiet", "--threads", "1", *extra]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(base))
    (d / "summary.txt").write_text(r.stdout + "\n--- stderr ---\n" + r.stderr, encoding="utf-8")
    return r.stdout


def selfcheck(d: Path, ocr: bool) -> int:
    """The oracle must see every planted value in the unredacted inputs (else a 'clean' proves nothing)."""
    import redteam3_oracle
    man = json.loads((d / "manifest.json").read_text(encoding="utf-8"))
    bad = 0
    for f in man["files"]:
        got = {k for k, _, _ in redteam3_oracle.leaks(d / "in" / f["file"], f["values"], man["values"], ocr)}
        missed = [k for k in f["values"] if k not in got]
        bad += bool(missed)
        print(f"{f['file']:52s} planted {len(f['values'])} seen {len(got)}" + (f"  MISSED {missed}" if missed else ""))
    return 1 if bad else 0


def report(res: list[dict], label: str) -> None:
    import redteam2_oracle
    redteam2_oracle.print_table(res, label)
    for r in res:
        for k, where, _ in r["leaks"]:
            print(f"LEAK {r['file']} {k} hidden in: {r.get('places', {}).get(k, '?')} -- found in {where[:60]}")


def main(argv: list[str]) -> int:
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["generate", "run", "selfcheck", "judge"])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--base", type=Path, default=ROOT, help="checkout whose veil_desktop is run")
    ap.add_argument("--no-ocr", action="store_true")
    ap.add_argument("--cli-arg", action="append", default=[],
                    help="extra argument for veil-redact redact, e.g. --cli-arg=--allow-unreadable (a supplement: "
                         "the REVIEW message tells the user to rerun with it)")
    a = ap.parse_args(argv)
    if a.cmd == "judge":                      # judge DIR/out again from DIR/summary.txt (no generate, no redact)
        import redteam2_oracle
        import redteam3_oracle
        summary = (a.dir / "summary.txt").read_text(encoding="utf-8").split("\n--- stderr ---\n")[0]
        res = redteam3_oracle.judge(a.dir, summary, ocr=not a.no_ocr)
        report(res, str(a.base))
        return 1 if any(r["verdict"] in ("LEAK", "FALSE ALARM") for r in res) else 0
    man = generate(a.dir)
    print(f"generated {len(man)} files in {a.dir / 'in'}")
    if a.cmd == "generate":
        return 0
    if a.cmd == "selfcheck":
        return selfcheck(a.dir, not a.no_ocr)
    summary = redact(a.dir, a.base.resolve(), a.cli_arg) if a.cli_arg else r2.redact(a.dir, a.base.resolve())
    import redteam2_oracle
    import redteam3_oracle
    res = redteam3_oracle.judge(a.dir, summary, ocr=not a.no_ocr)
    report(res, str(a.base))
    return 1 if any(r["verdict"] in ("LEAK", "FALSE ALARM") for r in res) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
