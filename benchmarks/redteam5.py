"""Fifth red-team corpus (issue 26, "keep the red-team corpus honest"): a fresh batch of 18 files, three per
class 1-6 of the issue, written from the file-format specifications (ECMA-376, OWPML, ISO 32000, CIPA
DC-007/DC-008, ICC.1, TIFF 6.0, RFC 4180, Unicode) and from what a hostile author could do -- never from
the product's readers, writers or leak check -- and measured once at HEAD before anything is fixed.

    nice .venv/bin/python benchmarks/redteam5.py generate DIR            # DIR/in/* + DIR/manifest.json
    nice .venv/bin/python benchmarks/redteam5.py selfcheck DIR           # the oracle sees every planted value
    nice .venv/bin/python benchmarks/redteam5.py run DIR [--base PATH]   # generate, redact, judge, figures
    nice .venv/bin/python benchmarks/redteam5.py judge DIR [--base PATH] # judge DIR/out again (DIR/summary.txt)

Plumbing is redteam4's (imported, not copied): ``redteam2.redact`` runs the CLI of ``--base`` (the embedded
default detector, no review), ``redteam4.selfcheck/report/verdict_line`` print the verdicts, and
``benchmarks/redteam5_oracle.py`` judges every published output (redteam4_oracle's views plus the views the
tricks below need). Verdicts per file: published clean / published LEAK (which value, where) / held (needs
review) / refused; a control (class 6, no personal data) that is not published is a false alarm.

New planted values (a name, an RRN and a foreigner registration number with valid check digits, a phone,
an address, an e-mail, a bank account, a passport number M + 8 digits; no 4-digit run shared between any
two of them nor with the values of batches 2-4). Every trick is new relative to adversarial_corpus,
attack_text_class, redteam2, redteam3, redteam4, redteam_pictures and redteam_pictures2:
  1 pictures/metadata inside packages: a DrawingML shape (wps:wsp) filled with a picture (a:blipFill in
    spPr), a chart whose plot area is filled with a picture (the chart part's own relationships), an ICC
    profile (ICC.1 'desc'/'cprt' mluc, UTF-16BE) in a JPEG APP2; an MPO/MPF picture (CIPA DC-007) whose
    second individual image shows other text than the first, a ribbon icon of the Office custom UI part
    (customUI/customUI14.xml + customUI/images, reached from the package relationships), a picture in a
    footnote (word/footnotes.xml's own relationships); HWPX: a picture inside a page header control
    (hp:header), a picture inside an endnote (hp:endNote), a BinData picture listed in content.hpf that no
    paragraph references;
  2 hidden places / attribute values: theme, colour and font scheme names (word/theme/theme1.xml), revision
    save IDs and paragraph IDs (w:rsidR, w14:paraId, settings w:rsids: ST_LongHexNumber holding the phone's
    digits), relationship Id values (xsd:ID) holding the RRN's digits, a MIME parameter of a content type in
    [Content_Types].xml; a caption label (settings w:captions), a date picker's w:dateFormat literal, a
    latent-style exception name (w:lsdException), an unknown a:ext payload inside a picture's a:blip;
    HWPX: a track-change author (hh:trackChangeAuthor), 덧말 (hp:dutmal subText), a shape comment
    (hp:shapeComment of an hp:rect), the linked-template path of hh:docOption/hh:linkinfo;
  3 PDF ink outside the text layer: an optional content group hidden on screen and shown in print (/Usage
    /Print /PrintState /ON through /D /AS), an annotation flagged Print|NoView (/F 36); an image XObject that
    is one flat colour with a soft-mask image (/SMask) holding the glyphs, an image painted through an
    explicit stencil mask (/Mask stream); a page thumbnail image (/Thumb, ISO 32000 12.3.4) showing other
    text than the page, a JPEG 2000 image whose colour is flat and whose opacity channel (/SMaskInData 1)
    draws the values;
  4 scans OCR reads badly: a traditional envelope written vertically (세로쓰기: characters stacked upright in
    columns, read right to left); a fine-mode fax TIFF (204 x 98 dpi: the pixels are half as tall as wide,
    a viewer stretches them back); a phone photo of a printout with keystone perspective, a shadow falling
    across the page and a 위변조 방지 (anti-forgery) guilloche background;
  5 text the detector does not read: Suzhou numerals (〡〢〣, U+3021..), 갖은자 (financial Hanja 壹貳參) and
    halfwidth Hangul jamo (U+FFA0..); a CSV with Excel's ``sep=;`` directive (RRN and phone written with
    commas: one cell to Excel, several fields to an RFC 4180 reader), RFC 4180 doubled quotes inside the
    name, an e-mail built by a =CHAR(..)&.. formula; Braille digits (⠼ + cells a-j), native Korean number
    words (하나 둘 셋 … 공), a romanised address (284 Uchi-ro, Buk-gu);
  6 controls: a DOCX with a picture-filled shape, a picture-filled chart, a photo with an ordinary sRGB ICC
    profile, ordinary theme names and rsids; an fpdf2 PDF notice with a transparent logo (/SMask) and a page
    thumbnail of itself added by an incremental update; a ``sep=;`` price list CSV with 갖은자 amounts.

Measured once before any fix, at HEAD b35412b (a ``git archive`` of it as ``--base``; run started
2026-12-03 07:09:35 UTC; redaction 45 s, judging ~5 min): 4 of 15 published with a leak, 9 published
clean, 2 held for review, 0 refused; 1 of 3 controls held (a false alarm).
  leaks: 4b EMAIL (fax: the mask box covers only "k@example.net", "seunghyun.bae" stays in the picture);
         5a PHONE (Suzhou numerals untouched; the 갖은자 account and the halfwidth-jamo name were masked);
         5b NAME + RRN + PHONE (doubled quotes: only 백 masked, "승""현" stays; the comma-written RRN and phone
         under sep=; untouched); 5c RRN (Braille), FRN (native number words), ADDR_EN (romanised address);
  held:  2a (second opinion: EMAIL in [Content_Types].xml attributes), 4c (page cannot be read as text);
  false alarm: 6a (picture 2 cannot be read as text); 6b, 6c published (6b masked 3 spans, 6c 1: over-masking,
         not counted).
``selfcheck``: the oracle is blind on 0 of 15.
"""
from __future__ import annotations

import io
import re
import struct
import sys
import zipfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import redteam2 as r2  # noqa: E402  (pictures, escaping, outlines, HWPX parts, the CLI runner)
import redteam3 as r3  # noqa: E402  (DOCX/HWPX/PDF builders)
import redteam4 as r4  # noqa: E402  (rezip/sub, draw_lines, photo, selfcheck/report plumbing)
from redteam2 import DECL, NS, canvas, enc, font, xesc  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

NAME = "백승현"
RRN = "830719-1628545"            # valid check digit (11 - sum % 11) % 10
FRN = "910224-6073142"            # foreigner registration number, valid check digit (13 - sum % 11) % 10
PHONE = "010-3947-2816"
ADDR = "광주광역시 북구 우치로 284"
ADDR_EN = "284 Uchi-ro, Buk-gu, Gwangju"
EMAIL = "seunghyun.baek@example.net"
ACCOUNT = "356-0819-4273-51"
PASSPORT = "M64205938"
VALUES = {"NAME": NAME, "RRN": RRN, "PHONE": PHONE, "ADDR": ADDR, "EMAIL": EMAIL, "ACCOUNT": ACCOUNT,
          "FRN": FRN, "PASSPORT": PASSPORT, "ADDR_EN": ADDR_EN}
PLAIN = "이 문서는 하반기 시설 민원 처리 결과를 정리한 내부 자료입니다."
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
WPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
rezip, sub, draw_lines, photo = r4.rezip, r4.sub, r4.draw_lines, r4.photo


def _check_values() -> None:
    """Check digits valid; no 4-digit run shared between two values or with batches 2-4."""
    w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    for v, k in ((RRN, 11), (FRN, 13)):
        d = v.replace("-", "")
        assert int(d[-1]) == (k - sum(int(a) * b for a, b in zip(d, w)) % 11) % 10, v
    runs = {}
    nums = {k: re.sub(r"\D", "", v) for k, v in VALUES.items() if k in ("RRN", "FRN", "PHONE", "ACCOUNT", "PASSPORT")}
    old = [re.sub(r"\D", "", v) for m in (r2, r4) for v in m.VALUES.values()]
    for k, d in nums.items():
        for i in range(len(d) - 3):
            q = d[i:i + 4]
            assert runs.setdefault(q, k) == k, (q, k, runs[q])
            assert not any(q in o for o in old), (q, k)


def ex(cx: int, cy: int) -> str:
    return f'<wp:extent cx="{cx}" cy="{cy}"/>'


# ------------------------------------------------------------------------------------------- class 1
def icc_profile(desc: str, cprt: str) -> bytes:
    """A minimal ICC.1:2010 (v4) display profile: 'desc' and 'cprt' as multiLocalizedUnicode (UTF-16BE),
    'wtpt' as XYZ. Tag data 4-byte aligned (so the strings sit at even offsets)."""
    def mluc(s: str) -> bytes:
        u = s.encode("utf-16-be")
        return b"mluc" + b"\0" * 4 + struct.pack(">II", 1, 12) + b"koKR" + struct.pack(">II", len(u), 28) + u
    tags = [(b"desc", mluc(desc)), (b"cprt", mluc(cprt)),
            (b"wtpt", b"XYZ " + b"\0" * 4 + struct.pack(">iii", 63190, 65536, 54061))]
    off = 128 + 4 + 12 * len(tags)
    table, data = b"", b""
    for sig, d in tags:
        d += b"\0" * (-len(d) % 4)
        table += sig + struct.pack(">II", off + len(data), len(d))
        data += d
    body = struct.pack(">I", len(tags)) + table + data
    size = 128 + len(body)
    hdr = (struct.pack(">I", size) + b"none" + bytes([4, 0x30, 0, 0]) + b"mntrRGB XYZ " + struct.pack(">6H", 2025, 4, 17, 9, 0, 0)
           + b"acsp" + b"APPL" + b"\0" * 4 + b"\0" * 4 + b"\0" * 4 + b"\0" * 8 + b"\0" * 4
           + struct.pack(">iii", 63190, 65536, 54061) + b"none" + b"\0" * 16 + b"\0" * 28)
    assert len(hdr) == 128, len(hdr)
    return hdr + body


def shape_fill(rid: str, n: int, cx: int, cy: int, prst: str = "roundRect") -> str:
    """A wordprocessingShape (MS-ODRAWXML wps:wsp) whose spPr fills it with a picture (a:blipFill)."""
    return (f'<w:p><w:r><w:drawing><wp:inline>{ex(cx, cy)}<wp:docPr id="{n}" name="도형 {n}"/>'
            f'<a:graphic><a:graphicData uri="{WPS}"><wps:wsp xmlns:wps="{WPS}"><wps:cNvSpPr/><wps:spPr>'
            f'<a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm><a:prstGeom prst="{prst}"><a:avLst/>'
            f'</a:prstGeom><a:blipFill><a:blip r:embed="{rid}"/><a:stretch><a:fillRect/></a:stretch></a:blipFill>'
            '<a:ln w="12700"><a:solidFill><a:srgbClr val="1F3864"/></a:solidFill></a:ln></wps:spPr>'
            '<wps:bodyPr rot="0" vert="horz" anchor="ctr"/></wps:wsp></a:graphicData></a:graphic></wp:inline>'
            '</w:drawing></w:r></w:p>')


def chart_with_fill(rid: str, title: str, cats: list[str], vals: list[int]) -> str:
    """A bar chart whose plot area (c:plotArea/c:spPr) is filled with the picture ``rid`` of the chart part."""
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
            '</c:scaling><c:axPos val="l"/><c:crossAx val="11"/></c:valAx>'
            f'<c:spPr><a:blipFill><a:blip r:embed="{rid}"/><a:stretch><a:fillRect/></a:stretch></a:blipFill>'
            '</c:spPr></c:plotArea></c:chart></c:chartSpace>')


CHART_REF = ('<w:p><w:r><w:drawing><wp:inline><wp:extent cx="4800000" cy="2700000"/><wp:docPr id="{n}" name="차트 {n}"/>'
             '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">'
             '<c:chart r:id="{rid}"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')
CT_CHART = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
CT_FOOTNOTES = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"


def class1() -> list[tuple]:
    """Pictures and picture metadata inside DOCX/HWPX, reached from places other than a body picture."""
    from PIL import Image
    out = []
    # 1a: a rounded rectangle shape filled with a picture (name + RRN); a chart whose plot area is filled with
    #     a picture (phone), reached through word/charts/_rels/chart1.xml.rels; a harmless body photo whose ICC
    #     profile (APP2 ICC_PROFILE) names the e-mail in its 'desc'/'cprt' tags (UTF-16BE)
    fill = canvas(1000, 260, (236, 242, 250))
    draw_lines(fill, [f"신청인 {NAME}", f"주민등록번호 {RRN}"], px=42, y0=40, step=100, fill=(20, 30, 60))
    plot = canvas(900, 500, (250, 250, 244))
    draw_lines(plot, ["담당 연락처", PHONE], px=46, x=200, y0=150, step=100, fill=(120, 120, 120))
    shot = enc(photo(800, 500, "민원실 대기 공간", seed=15), "JPEG", quality=88,
               icc_profile=icc_profile(f"Display {EMAIL}", f"Copyright {EMAIL}"))
    body = (r3.para(PLAIN) + shape_fill("rIdFill", 1, 1000 * 9525, 260 * 9525)
            + CHART_REF.format(n=2, rid="rIdCh") + r3.drawing("rIdPh", 3, 800 * 9525, 500 * 9525)
            + r3.para("세부 내역은 별첨 자료를 참고하십시오."))
    out.append(("1", "a", "c1_shape_blipfill_chart_plotarea_icc.docx", r3.docx(
        body, rels=[("rIdFill", "image", "media/image1.png", False), ("rIdCh", "chart", "charts/chart1.xml", False),
                    ("rIdPh", "image", "media/image2.jpeg", False)],
        parts={"word/media/image1.png": enc(fill, "PNG"), "word/media/image2.jpeg": shot,
               "word/charts/chart1.xml": chart_with_fill("rId1", "월별 민원 접수", ["7월", "8월", "9월"], [412, 388, 455]),
               "word/charts/_rels/chart1.xml.rels": r3.rels_xml([("rId1", "image", "../media/image3.png", False)]),
               "word/media/image3.png": enc(plot, "PNG")},
        overrides={"/word/charts/chart1.xml": CT_CHART}),
        ["NAME", "RRN", "PHONE", "EMAIL"],
        {"NAME": "picture fill of a wps:wsp shape (a:blipFill)", "RRN": "picture fill of a wps:wsp shape",
         "PHONE": "chart plot-area picture fill (chart part rels)", "EMAIL": "ICC profile desc/cprt (JPEG APP2)"}))

    # 1b: an MPO (CIPA DC-007) photo: individual image 1 harmless, image 2 (after the first EOI, indexed by the
    #     APP2 MPF segment) shows the address and the account; a ribbon button icon of the custom UI part shows
    #     the passport number; a picture inside a footnote shows the FRN
    first = photo(800, 500, "신축 민원동 전경", seed=21)
    second = canvas(800, 500, (248, 248, 248))
    draw_lines(second, ["현장 확인 메모", f"주소 {ADDR}", f"계좌 {ACCOUNT}"], px=36, y0=60, step=110)
    b = io.BytesIO()
    first.save(b, "MPO", save_all=True, append_images=[second], quality=90)
    mpo = b.getvalue()
    icon = canvas(560, 96, (255, 252, 230))
    draw_lines(icon, [f"여권 {PASSPORT}"], px=48, x=16, y0=18)
    ui = (DECL + '<customUI xmlns="http://schemas.microsoft.com/office/2009/07/customui"><ribbon><tabs>'
          '<tab id="tabCivil" label="민원"><group id="grpTools" label="도구"><button id="btnOpen" image="btnPass" '
          'size="large" label="조회" onAction="Open"/></group></tab></tabs></ribbon></customUI>')
    fnpic = canvas(700, 90)
    draw_lines(fnpic, [f"외국인등록번호 {FRN}"], px=38, x=14, y0=20)
    fn_drawing = r3.drawing("rIdFn", 9, 700 * 9525, 90 * 9525).replace("<w:p>", "").replace("</w:p>", "")
    footnotes = r3.wpart("footnotes", (
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
        '</w:footnote><w:footnote w:id="1"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr>'
        '<w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> 확인 자료: '
        f'</w:t></w:r>{fn_drawing}</w:p></w:footnote>'))
    body = (r3.para(PLAIN) + r3.drawing("rIdPh", 1, 800 * 9525, 500 * 9525)
            + '<w:p><w:r><w:t xml:space="preserve">현장 사진은 위와 같습니다.</w:t></w:r><w:r><w:rPr><w:vertAlign '
              'w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r></w:p>')
    out.append(("1", "b", "c1_mpo_second_image_customui_icon_footnote_pic.docx", r3.docx(
        body, rels=[("rIdPh", "image", "media/image1.jpeg", False), ("rIdFoot", "footnotes", "footnotes.xml", False)],
        pkg_rels=[("rIdUi", "http://schemas.microsoft.com/office/2007/relationships/ui/extensibility",
                   "customUI/customUI14.xml", False)],
        parts={"word/media/image1.jpeg": mpo, "word/footnotes.xml": footnotes,
               "word/_rels/footnotes.xml.rels": r3.rels_xml([("rIdFn", "image", "media/image2.png", False)]),
               "word/media/image2.png": enc(fnpic, "PNG"),
               "customUI/customUI14.xml": ui,
               "customUI/_rels/customUI14.xml.rels": r3.rels_xml([("btnPass", "image", "images/btnPass.png", False)]),
               "customUI/images/btnPass.png": enc(icon, "PNG")},
        overrides={"/word/footnotes.xml": CT_FOOTNOTES}),
        ["ADDR", "ACCOUNT", "PASSPORT", "FRN"],
        {"ADDR": "MPO individual image 2 (APP2 MPF index)", "ACCOUNT": "MPO individual image 2",
         "PASSPORT": "custom UI ribbon icon (customUI/images)", "FRN": "picture inside a footnote"}))

    # 1c: HWPX: a picture in the page header control (hp:header), a picture in an endnote (hp:endNote), a
    #     BinData picture listed in the manifest but referenced by no paragraph
    hdr = canvas(900, 110, (252, 252, 252))
    draw_lines(hdr, [f"작성 {NAME}  ☎ {PHONE}"], px=40, x=20, y0=28)
    endn = canvas(760, 90)
    draw_lines(endn, [f"주민등록번호 {RRN}"], px=38, x=14, y0=20)
    orphan = canvas(1100, 220)
    draw_lines(orphan, [f"회신 {EMAIL}", f"주소 {ADDR}"], px=38, y0=30, step=90)
    sub_ = lambda inner, h="4252": ('<hp:subList id="" textDirection="HORIZONTAL" lineWrap="BREAK" vertAlign="TOP" '  # noqa: E731
                                    f'linkListIDRef="0" linkListNextIDRef="0" textWidth="42520" textHeight="{h}" '
                                    'hasTextRef="0" hasNumRef="0"><hp:p id="0" paraPrIDRef="0" styleIDRef="0" '
                                    f'pageBreak="0" columnBreak="0" merged="0">{inner}</hp:p></hp:subList>')
    header_ctrl = (f'<hp:run charPrIDRef="0"><hp:ctrl><hp:header id="1" applyPageType="BOTH">'
                   f'{sub_(r2.hpic("hdr", 30000, 3600))}</hp:header></hp:ctrl></hp:run>')
    endnote = ('<hp:run charPrIDRef="0"><hp:t>처리 결과를 통지하였습니다.</hp:t><hp:ctrl><hp:endNote number="1" '
               f'suffixChar="41" instId="1">{sub_(r2.hrun("통지 대상: ") + r2.hpic("endn", 25000, 3000))}'
               '</hp:endNote></hp:ctrl></hp:run>')
    out.append(("1", "c", "c1_hwpx_header_pic_endnote_pic_orphan_bindata.hwpx", r3.hwpx(
        [header_ctrl + r2.hrun(PLAIN), endnote, r2.hrun("끝.")],
        bindata={"hdr.png": (enc(hdr, "PNG"), "image/png"), "endn.png": (enc(endn, "PNG"), "image/png"),
                 "scan01.png": (enc(orphan, "PNG"), "image/png")}),
        ["NAME", "PHONE", "RRN", "EMAIL", "ADDR"],
        {"NAME": "picture in the page header control (hp:header)", "PHONE": "picture in the page header control",
         "RRN": "picture in an endnote (hp:endNote)", "EMAIL": "BinData picture no paragraph references",
         "ADDR": "BinData picture no paragraph references"}))
    return out


# ------------------------------------------------------------------------------------------- class 2
def theme(name: str, clr: str, fnt: str) -> str:
    srgb = lambda tag, v: f"<a:{tag}><a:srgbClr val=\"{v}\"/></a:{tag}>"  # noqa: E731
    clrs = "".join(srgb(t, v) for t, v in (("dk1", "000000"), ("lt1", "FFFFFF"), ("dk2", "44546A"), ("lt2", "E7E6E6"),
                                            ("accent1", "4472C4"), ("accent2", "ED7D31"), ("accent3", "A5A5A5"),
                                            ("accent4", "FFC000"), ("accent5", "5B9BD5"), ("accent6", "70AD47"),
                                            ("hlink", "0563C1"), ("folHlink", "954F72")))
    f = '<a:latin typeface="맑은 고딕"/><a:ea typeface="맑은 고딕"/><a:cs typeface=""/>'
    fill = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'
    ln = '<a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>'
    return (DECL + f'<a:theme xmlns:a="{A_NS}" name="{xesc(name)}"><a:themeElements><a:clrScheme name="{xesc(clr)}">'
            f'{clrs}</a:clrScheme><a:fontScheme name="{xesc(fnt)}"><a:majorFont>{f}</a:majorFont><a:minorFont>{f}'
            f'</a:minorFont></a:fontScheme><a:fmtScheme name="Office"><a:fillStyleLst>{fill * 3}</a:fillStyleLst>'
            f'<a:lnStyleLst>{ln * 3}</a:lnStyleLst><a:effectStyleLst>{"<a:effectStyle><a:effectLst/></a:effectStyle>" * 3}'
            f'</a:effectStyleLst><a:bgFillStyleLst>{fill * 3}</a:bgFillStyleLst></a:fmtScheme></a:themeElements>'
            '<a:objectDefaults/><a:extraClrSchemeLst/></a:theme>')


CT_THEME = "application/vnd.openxmlformats-officedocument.theme+xml"
CT_SETTINGS = "application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"
CT_STYLES = "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"


def rsid_para(text: str, rsid: str, para_id: str) -> str:
    return (f'<w:p w14:paraId="{para_id}" w14:textId="77777777" w:rsidR="{rsid}" w:rsidRDefault="{rsid}">'
            f'<w:r w:rsidRPr="{rsid}"><w:t xml:space="preserve">{xesc(text)}</w:t></w:r></w:p>')


def class2() -> list[tuple]:
    """Hidden places of DOCX/HWPX that hold text: names, IDs, attribute values, literals."""
    out = []
    # 2a: theme/colour/font scheme names (name); rsids and w14:paraId (ST_LongHexNumber) carrying the phone's
    #     digits, also in settings w:rsids; relationship Id values carrying the RRN's digits; a MIME parameter of
    #     a content type in [Content_Types].xml carrying the e-mail
    ph = re.sub(r"\D", "", PHONE)                      # 01039472816
    rr = RRN.replace("-", "")
    rid_pic = f"rId{rr}"
    pic = enc(draw_lines(canvas(600, 80), ["처리 절차 안내도"], px=34, y0=20), "PNG")
    body = (rsid_para(PLAIN, ph[:8], "1" + ph[3:10]) + r3.drawing(rid_pic, 1, 600 * 9525, 80 * 9525)
            + rsid_para("세부 내역은 별첨 자료를 참고하십시오.", ph[3:11], "2" + ph[:7]))
    settings = r3.wpart("settings", f'<w:rsids><w:rsidRoot w:val="{ph[:8]}"/><w:rsid w:val="{ph[:8]}"/>'
                                    f'<w:rsid w:val="{ph[3:11]}"/></w:rsids>')
    data = r3.docx(body, rels=[(rid_pic, "image", "media/image1.png", False),
                               ("rIdTheme", "theme", "theme/theme1.xml", False),
                               (f"rIdS_{rr[:6]}_{rr[6:]}", "settings", "settings.xml", False)],
                   parts={"word/media/image1.png": pic,
                          "word/theme/theme1.xml": theme(f"{NAME} 테마", f"{NAME} 색", f"{NAME} 글꼴"),
                          "word/settings.xml": settings},
                   overrides={"/word/theme/theme1.xml": CT_THEME, "/word/settings.xml": CT_SETTINGS})
    data = rezip(data, {
        "word/document.xml": sub("<w:document ", f'<w:document xmlns:w14="{W14}" '),
        "[Content_Types].xml": sub('ContentType="image/png"', f'ContentType="image/png; author=&quot;{EMAIL}&quot;"')})
    out.append(("2", "a", "c2_theme_names_rsid_relid_mime_param.docx", data, ["NAME", "PHONE", "RRN", "EMAIL"],
                {"NAME": "theme / clrScheme / fontScheme names (theme1.xml)",
                 "PHONE": "w:rsidR, w14:paraId, settings w:rsids (hex IDs of digits)",
                 "RRN": "relationship Id values (rId8307191628545, r:embed)",
                 "EMAIL": "MIME parameter of a Default content type ([Content_Types].xml)"}))

    # 2b: a caption label (settings w:captions), a date picker whose w:dateFormat literal shows the account, a
    #     latent-style exception named with the FRN, an unknown a:ext payload inside a picture's a:blip
    settings = r3.wpart("settings", f'<w:captions><w:caption w:name="{NAME} 제출서류" w:pos="below" '
                                    'w:numFmt="decimal"/></w:captions>')
    styles = r3.wpart("styles", '<w:latentStyles w:defLockedState="0" w:defUIPriority="99" w:defSemiHidden="0" '
                                'w:defUnhideWhenUsed="0" w:defQFormat="0" w:count="376"><w:lsdException w:name="Normal" '
                                'w:uiPriority="0" w:qFormat="1"/><w:lsdException '
                                f'w:name="외국인등록 {FRN}" w:semiHidden="1" w:unhideWhenUsed="1"/></w:latentStyles>'
                                '<w:style w:type="paragraph" w:default="1" w:styleId="a"><w:name w:val="Normal"/>'
                                '<w:qFormat/></w:style>')
    acct_lit = "'계좌 " + ACCOUNT + "' yyyy-MM-dd"
    sdt = ('<w:p><w:r><w:t xml:space="preserve">입금 예정일: </w:t></w:r><w:sdt><w:sdtPr><w:alias w:val="입금일"/>'
           f'<w:date w:fullDate="2025-10-17T00:00:00Z"><w:dateFormat w:val="{xesc(acct_lit)}"/><w:lid w:val="ko-KR"/>'
           '<w:storeMappedDataAs w:val="dateTime"/><w:calendar w:val="gregorian"/></w:date></w:sdtPr><w:sdtContent>'
           '<w:r><w:t>2025-10-17</w:t></w:r></w:sdtContent></w:sdt></w:p>')
    pic = enc(draw_lines(canvas(600, 80), ["접수 창구 안내"], px=34, y0=20), "PNG")
    blip_ext = ('<a:blip r:embed="rIdPic"><a:extLst><a:ext uri="{6E1C3A90-52B7-4F0D-9D1A-3B8E77C0A5D4}">'
                f'<sc:scanInfo xmlns:sc="urn:x-scanner:meta:2025"><sc:operator>여권 {PASSPORT}</sc:operator>'
                '</sc:scanInfo></a:ext></a:extLst></a:blip>')
    body = (r3.para(PLAIN) + sdt + r3.drawing("rIdPic", 1, 600 * 9525, 80 * 9525).replace(
        '<a:blip r:embed="rIdPic"/>', blip_ext) + r3.para("끝."))
    out.append(("2", "b", "c2_caption_label_dateformat_latentstyle_blipext.docx", r3.docx(
        body, rels=[("rIdPic", "image", "media/image1.png", False), ("rIdSet", "settings", "settings.xml", False),
                    ("rIdSty", "styles", "styles.xml", False)],
        parts={"word/media/image1.png": pic, "word/settings.xml": settings, "word/styles.xml": styles},
        overrides={"/word/settings.xml": CT_SETTINGS, "/word/styles.xml": CT_STYLES}),
        ["NAME", "ACCOUNT", "FRN", "PASSPORT"],
        {"NAME": "caption label (settings w:captions/w:caption w:name)",
         "ACCOUNT": "date picker w:dateFormat literal", "FRN": "latent style exception name (w:lsdException)",
         "PASSPORT": "unknown a:ext payload inside a:blip"}))

    # 2c: HWPX: a track-change author (header.xml), 덧말 (hp:dutmal subText over harmless main text), the shape
    #     comment of a rectangle (hp:shapeComment), the linked template path (hh:docOption/hh:linkinfo)
    dutmal = ('<hp:run charPrIDRef="0"><hp:t>문의는 </hp:t><hp:dutmal posType="TOP" szRatio="0" option="4294967295" '
              f'styleIDRef="0" align="CENTER"><hp:mainText>담당 부서</hp:mainText><hp:subText>{PHONE}</hp:subText>'
              '</hp:dutmal><hp:t>로 해 주십시오.</hp:t></hp:run>')
    rect = ('<hp:run charPrIDRef="0"><hp:rect id="7" zOrder="1" numberingType="PICTURE" textWrap="TOP_AND_BOTTOM" '
            'textFlow="BOTH_SIDES" lock="0" dropcapstyle="None" href="" groupLevel="0" instid="7" ratio="0">'
            '<hp:offset x="0" y="0"/><hp:orgSz width="12000" height="3000"/><hp:curSz width="12000" height="3000"/>'
            '<hp:flip horizontal="0" vertical="0"/><hp:rotationInfo angle="0" centerX="6000" centerY="1500" '
            'rotateimage="1"/><hp:lineShape color="#000000" width="33" style="SOLID" endCap="FLAT" headStyle="NORMAL" '
            'tailStyle="NORMAL" headfill="1" tailfill="1" headSz="MEDIUM_MEDIUM" tailSz="MEDIUM_MEDIUM" '
            'outlineStyle="NORMAL" alpha="0"/><hc:pt0 x="0" y="0"/><hc:pt1 x="12000" y="0"/><hc:pt2 x="12000" '
            'y="3000"/><hc:pt3 x="0" y="3000"/><hp:sz width="12000" widthRelTo="ABSOLUTE" height="3000" '
            'heightRelTo="ABSOLUTE" protect="0"/><hp:pos treatAsChar="1" affectLSpacing="0" flowWithText="1" '
            'allowOverlap="0" holdAnchorAndSO="0" vertRelTo="PARA" horzRelTo="PARA" vertAlign="TOP" horzAlign="LEFT" '
            'vertOffset="0" horzOffset="0"/><hp:outMargin left="0" right="0" top="0" bottom="0"/>'
            f'<hp:shapeComment>입금 계좌 {ACCOUNT}</hp:shapeComment></hp:rect></hp:run>')
    data = r3.hwpx([r2.hrun(PLAIN), dutmal, rect, r2.hrun("끝.")])
    authors = ('<hh:trackChanges itemCnt="1"><hh:trackChange type="Insert" date="2025-10-17T09:12:00Z" authorID="1" '
               'id="1"/></hh:trackChanges><hh:trackChangeAuthors itemCnt="1"><hh:trackChangeAuthor id="1" '
               f'name="{NAME}" mark="1" color="#0000FF"/></hh:trackChangeAuthors>')
    option = (f'<hh:docOption><hh:linkinfo path="\\\\nas01\\home\\{EMAIL}\\양식\\민원회신.hwt" pageInherit="0" '
              'footnoteInherit="0"/></hh:docOption>')
    data = rezip(data, {"Contents/header.xml": lambda d: sub("</hh:refList>", authors + "</hh:refList>")(
        sub("</hh:head>", option + "</hh:head>")(d))})
    out.append(("2", "c", "c2_hwpx_trackauthor_dutmal_shapecomment_linkinfo.hwpx", data,
                ["NAME", "PHONE", "ACCOUNT", "EMAIL"],
                {"NAME": "hh:trackChangeAuthor name (header.xml)", "PHONE": "hp:dutmal subText (덧말)",
                 "ACCOUNT": "hp:shapeComment of an hp:rect", "EMAIL": "hh:docOption/hh:linkinfo path"}))
    return out


# ------------------------------------------------------------------------------------------- class 3
def mask_img(lines: list[str], w: int, h: int, px: int, ink: int, paper: int):
    from PIL import Image
    g = Image.new("L", (w, h), paper)
    return draw_lines(g, lines, px=px, x=20, y0=20, step=int(px * 1.8), fill=ink)


def class3() -> list[tuple]:
    """PDF ink that is not in the text layer, or not on the screen rendering."""
    out = []
    visible = b"BT /F1 12 Tf 60 790 Td (Civil petitions, second half: internal notes) Tj ET\n"
    # 3a: an OCG hidden on screen and shown in print (Usage /Print ON, /View OFF; /D /OFF with /AS events)
    #     holding the name and RRN as outlines; an annotation with /F 36 (Print | NoView) whose /AP draws the
    #     phone as outlines
    oc_cs = (visible + b"/OC /OC1 BDC 0 g\n" + r2.outline_path(f"신청인 {NAME} {RRN}", 60, 700, 22) + b"f\nEMC\n")
    ap = r3.stream(b"/Type /XObject /Subtype /Form /BBox [0 0 360 40] /Resources << >>",
                   b"0 g\n" + r2.outline_path(f"연락처 {PHONE}", 4, 10, 20) + b"f\n")
    # objects: 5 OCG, 6 annotation, 7 its appearance
    ocg = (b"<< /Type /OCG /Name (Print copy) /Usage << /Print << /PrintState /ON >> /View << /ViewState /OFF >> "
           b"/Export << /ExportState /ON >> >> >>")
    annot = b"<< /Type /Annot /Subtype /Square /Rect [60 620 420 660] /F 36 /C [] /Border [0 0 0] /AP << /N 7 0 R >> >>"
    cat = ("/OCProperties << /OCGs [5 0 R] /D << /Name (Default) /ON [] /OFF [5 0 R] /Order [5 0 R] /AS ["
           "<< /Event /View /OCGs [5 0 R] /Category [/View] >> << /Event /Print /OCGs [5 0 R] /Category [/Print] >> "
           "<< /Event /Export /OCGs [5 0 R] /Category [/Export] >>] >> >> ")
    out.append(("3", "a", "c3_print_only_ocg_noview_annotation.pdf",
                r3.pdf([(oc_cs, f"<< {r2.HELV} /Properties << /OC1 5 0 R >> >> /Annots [6 0 R]")], [ocg, annot, ap],
                       catalog_extra=cat),
                ["NAME", "RRN", "PHONE"],
                {"NAME": "optional content shown only in print (/Usage /Print)", "RRN": "print-only optional content",
                 "PHONE": "annotation flagged Print|NoView (/F 36) appearance"}))

    # 3b: an image of one flat colour whose /SMask (a soft-mask image) holds the glyphs of the name and the
    #     account; an image of one flat colour painted through an explicit /Mask stencil holding the FRN
    sm = mask_img([f"신청인 {NAME}", f"계좌 {ACCOUNT}"], 1000, 200, 40, 255, 0)
    flat = zlib.compress(bytes([25, 35, 110]) * (sm.width * sm.height))
    img1 = r3.stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                     b"/Filter /FlateDecode /SMask 7 0 R" % sm.size, flat)
    smask = r3.stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                      b"/BitsPerComponent 8 /Filter /FlateDecode" % sm.size, zlib.compress(sm.tobytes()))
    st = mask_img([f"외국인등록번호 {FRN}"], 1000, 100, 40, 0, 255).point(lambda v: 0 if v < 128 else 255).convert("1")
    flat2 = zlib.compress(bytes([110, 20, 20]) * (st.width * st.height))
    img2 = r3.stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                     b"/Filter /FlateDecode /Mask 9 0 R" % st.size, flat2)
    # a stencil mask: samples 1 = masked out (ISO 32000 8.9.6.3 with the default /Decode [0 1]); ink is 0
    stencil = r3.stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ImageMask true /BitsPerComponent 1 "
                        b"/Filter /FlateDecode" % st.size, zlib.compress(st.tobytes()))
    cs = visible + b"q 500 0 0 100 50 650 cm /Im1 Do Q\nq 500 0 0 50 50 560 cm /Im2 Do Q\n"
    # objects (r3.pdf numbers extras from 5): 5 unused, 6 image 1, 7 its soft mask, 8 image 2, 9 its stencil
    out.append(("3", "b", "c3_flat_image_smask_and_stencil_mask.pdf",
                r3.pdf([(cs, f"<< {r2.HELV} /XObject << /Im1 6 0 R /Im2 8 0 R >> >>")],
                       [b"<< >>", img1, smask, img2, stencil]),
                ["NAME", "ACCOUNT", "FRN"],
                {"NAME": "soft-mask image (/SMask) of a flat-colour image", "ACCOUNT": "soft-mask image (/SMask)",
                 "FRN": "explicit stencil mask (/Mask stream) of a flat-colour image"}))

    # 3c: a page thumbnail (/Thumb) showing the e-mail and address (the page shows neither); a JPEG 2000 image
    #     whose colour is flat and whose alpha channel (/SMaskInData 1) draws the name and the passport number
    from PIL import Image
    th = canvas(420, 160, (255, 255, 255))
    draw_lines(th, [EMAIL, ADDR], px=22, x=10, y0=30, step=60)
    thumb = r3.stream(b"/Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode" % th.size,
                      zlib.compress(th.tobytes()))
    a = mask_img([f"담당 {NAME}", f"여권 {PASSPORT}"], 900, 200, 40, 255, 0)
    rgba = Image.merge("RGBA", (Image.new("L", a.size, 20), Image.new("L", a.size, 90), Image.new("L", a.size, 40), a))
    b = io.BytesIO()
    rgba.save(b, "JPEG2000", irreversible=False)
    jpx = r3.stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /Filter /JPXDecode /SMaskInData 1" % a.size,
                    b.getvalue())
    cs = visible + b"q 450 0 0 100 60 640 cm /Im1 Do Q\n"
    pdf = r3.pdf([(cs, f"<< {r2.HELV} /XObject << /Im1 6 0 R >> >>")], [thumb, jpx])
    pdf = pdf.replace(b"/Contents 4 0 R >>", b"/Contents 4 0 R /Thumb 5 0 R >>", 1)
    pdf = _fix_xref(pdf)
    out.append(("3", "c", "c3_page_thumb_jpx_alpha_smaskindata.pdf", pdf, ["EMAIL", "ADDR", "NAME", "PASSPORT"],
                {"EMAIL": "page thumbnail image (/Thumb)", "ADDR": "page thumbnail image (/Thumb)",
                 "NAME": "JPEG 2000 alpha channel (/SMaskInData 1)", "PASSPORT": "JPEG 2000 alpha channel"}))
    return out


def _fix_xref(pdf: bytes) -> bytes:
    """Rewrite the classic xref table of a one-section PDF after its objects were edited in place."""
    head = pdf[:pdf.rindex(b"\nxref\n") + 1]
    offs = {int(m.group(1)): m.start() for m in re.finditer(rb"(?m)^(\d+) 0 obj\n", head)}
    n = max(offs) + 1
    trailer = pdf[pdf.index(b"trailer", len(head)):]
    trailer = trailer[:trailer.index(b"startxref")]
    x = b"xref\n0 %d\n0000000000 65535 f \n" % n + b"".join(b"%010d 00000 n \n" % offs[i] for i in range(1, n))
    return head + x + trailer + b"startxref\n%d\n%%%%EOF\n" % len(head)


# ------------------------------------------------------------------------------------------- class 4
def vertical(img, x: int, y: int, text: str, px: int, fill="black", gap: float = 1.12) -> int:
    """Write ``text`` top to bottom, every character upright (세로쓰기); returns the bottom y."""
    from PIL import ImageDraw
    d = ImageDraw.Draw(img)
    f = font(px)
    for ch in text:
        if ch == " ":
            y += int(px * 0.6)
            continue
        w = d.textlength(ch, font=f)
        d.text((x + (px - w) / 2, y), ch, fill=fill, font=f)
        y += int(px * gap)
    return y


def class4() -> list[tuple]:
    """Scans that OCR may read badly."""
    import math
    import random

    import numpy as np
    from PIL import Image, ImageDraw, ImageFilter
    out = []
    # 4a: a traditional envelope written vertically (columns read right to left): the address, the name with
    #     귀하, the phone with digits stacked upright
    env = canvas(900, 1500, (244, 238, 222))
    d = ImageDraw.Draw(env)
    d.rectangle((30, 30, 870, 1470), outline=(150, 60, 50), width=4)
    for i in range(6):                                  # postcode boxes
        d.rectangle((560 + i * 46, 70, 600 + i * 46, 118), outline=(190, 40, 40), width=3)
    vertical(env, 720, 200, ADDR.split(" ", 2)[0] + " " + ADDR.split(" ", 2)[1], 54)
    vertical(env, 630, 200, ADDR.split(" ", 2)[2], 54)
    vertical(env, 430, 320, f"{NAME} 귀하", 84)
    vertical(env, 250, 200, PHONE.replace("-", " "), 50, gap=1.0)
    vertical(env, 110, 700, "민원지원팀", 40, fill=(90, 90, 90))
    out.append(("4", "a", "c4_vertical_envelope.png", enc(env, "PNG"), ["ADDR", "NAME", "PHONE"],
                {k: "written vertically (세로쓰기), characters upright in columns" for k in ("ADDR", "NAME", "PHONE")}))

    # 4b: a fine-mode fax: an A4 page at 204 x 98 dpi (1728 x 1143 px, every pixel twice as tall as wide), 1 bit,
    #     CCITT T.4 (Group 3) compressed, with a fax header line; a viewer stretches it back to 1728 x 2376
    page = Image.new("L", (1728, 2376), 255)
    draw_lines(page, ["FROM: 민원지원팀  2025-10-17 09:41  P.1/1"], px=30, x=80, y0=40, fill=0)
    draw_lines(page, ["체류지 변경 신고 확인", f"성명  {NAME}", f"외국인등록번호  {FRN}", f"회신  {EMAIL}"],
               px=46, x=140, y0=260, step=120, fill=0)
    rnd = random.Random(5)
    fax = page.resize((1728, 1143), Image.BILINEAR).point(lambda v: 0 if v < 150 else 255)
    px_ = fax.load()
    for _ in range(2500):                                # line noise of a fax
        px_[rnd.randrange(1728), rnd.randrange(1143)] = 0
    b = io.BytesIO()
    fax.convert("1").save(b, "TIFF", compression="group3", dpi=(204, 98))
    out.append(("4", "b", "c4_fine_fax_204x98dpi_g3.tif", b.getvalue(), ["NAME", "FRN", "EMAIL"],
                {k: "fine-mode fax, 204 x 98 dpi (pixels twice as tall as wide), G3" for k in ("NAME", "FRN", "EMAIL")}))

    # 4c: a phone photo of a printout: 위변조 방지 guilloche background, keystone perspective, a shadow across
    #     the page, JPEG
    doc = canvas(1240, 900, (255, 255, 255))
    d = ImageDraw.Draw(doc)
    for k in range(0, 1240, 9):                          # guilloche: interleaved sine waves
        pts = [(x, 450 + 380 * math.sin(x / 97 + k / 41) * math.cos(k / 63)) for x in range(0, 1240, 6)]
        d.line(pts, fill=(196, 214, 206), width=1)
    for y in range(30, 900, 26):
        d.text((10, y), "대한민국정부 " * 20, fill=(222, 230, 226), font=font(12))
    draw_lines(doc, ["예금 지급 신청서 (사본)", f"주민등록번호  {RRN}", f"입금계좌  {ACCOUNT}",
                     f"여권번호  {PASSPORT}"], px=40, x=90, y0=120, step=150)
    arr = np.asarray(doc).astype(np.float32)
    xs = np.linspace(0, 1, arr.shape[1])[None, :, None]
    ys = np.linspace(0, 1, arr.shape[0])[:, None, None]
    shade = 0.55 + 0.45 * np.clip((xs * 1.4 - ys * 0.5), 0, 1)           # a shadow falling from the left
    doc = Image.fromarray(np.clip(arr * shade, 0, 255).astype("uint8"))
    W, H = 1600, 1200
    # keystone: the top edge shorter than the bottom (the phone held below the page)
    quad = (170, 60, 1430, 60, 1560, 1160, 40, 1160)                    # where the page corners land

    def coeffs(src, dst):
        m = []
        for (x, y), (u, v) in zip(src, dst):
            m.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
            m.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        a = np.array(m, dtype=float)
        bb = np.array([c for p in dst for c in p], dtype=float)
        return np.linalg.solve(a, bb).tolist()
    dst_pts = [(quad[0], quad[1]), (quad[2], quad[3]), (quad[4], quad[5]), (quad[6], quad[7])]
    src_pts = [(0, 0), (1240, 0), (1240, 900), (0, 900)]
    photo_ = doc.transform((W, H), Image.PERSPECTIVE, coeffs(dst_pts, src_pts), Image.BICUBIC, fillcolor=(70, 60, 55))
    photo_ = photo_.filter(ImageFilter.GaussianBlur(0.8))
    out.append(("4", "c", "c4_phone_photo_keystone_shadow_guilloche.jpg", enc(photo_, "JPEG", quality=72),
                ["RRN", "ACCOUNT", "PASSPORT"],
                {k: "phone photo: keystone perspective, shadow, guilloche background" for k in ("RRN", "ACCOUNT", "PASSPORT")}))
    return out


# ------------------------------------------------------------------------------------------- class 5
SUZHOU = dict(zip("0123456789", "〇〡〢〣〤〥〦〧〨〩"))
GAJEUN = dict(zip("0123456789", "零壹貳參肆伍陸柒捌玖"))
BRAILLE = dict(zip("1234567890", "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚"))
NATIVE = dict(zip("0123456789", ["공", "하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉"]))


def halfwidth_jamo(s: str) -> str:
    """Hangul syllables spelled with halfwidth jamo (U+FFA1..U+FFDC), as old terminals and filters do."""
    lead = "ﾡﾢﾤﾧﾨﾩﾱﾲﾳﾵﾶﾷﾸﾹﾺﾻﾼﾽﾾ"
    vowel = "ￂￃￄￅￆￇￊￋￌￍￎￏￒￓￔￕￖￗￚￛￜ"
    tail = ["", "ﾡ", "ﾢ", "ﾣ", "ﾤ", "ﾥ", "ﾦ", "ﾧ", "ﾩ", "ﾪ", "ﾫ", "ﾬ", "ﾭ", "ﾮ", "ﾯ", "ﾰ", "ﾱ", "ﾲ", "ﾴ", "ﾵ", "ﾶ",
            "ﾷ", "ﾸ", "ﾺ", "ﾻ", "ﾼ", "ﾽ", "ﾾ"]
    out = []
    for ch in s:
        o = ord(ch) - 0xAC00
        out.append(lead[o // 588] + vowel[(o % 588) // 28] + tail[o % 28] if 0 <= o < 11172 else ch)
    return "".join(out)


def class5() -> list[tuple]:
    """Text the detector may not read."""
    out = []
    # 5a: the phone in Suzhou numerals, the account in 갖은자 (financial Hanja), the name in halfwidth jamo
    tr = lambda s, m: "".join(m.get(c, c) for c in s)  # noqa: E731
    txt = (f"{PLAIN}\n담당: {halfwidth_jamo(NAME)}\n연락처: {tr(PHONE, SUZHOU)}\n"
           f"환급 계좌: {tr(ACCOUNT, GAJEUN)}\n")
    out.append(("5", "a", "c5_suzhou_gajeunja_halfwidth_jamo.txt", txt.encode("utf-8"), ["NAME", "PHONE", "ACCOUNT"],
                {"NAME": "halfwidth Hangul jamo (U+FFA0..)", "PHONE": "Suzhou numerals 〇〡〢 (U+3021..)",
                 "ACCOUNT": "갖은자 financial Hanja 零壹貳參"}))
    # 5b: Excel's sep=; directive: the RRN and phone written with commas are one cell each to Excel and three
    #     fields to an RFC 4180 reader; the name split by doubled quotes; the e-mail built by =CHAR() codes
    csv = ("sep=;\r\n번호;신청인;주민등록번호;연락처;전자우편;처리\r\n"
           f'1;"{NAME[0]}""{NAME[1]}""{NAME[2]}";{RRN.replace("-", ",")[:3]},{RRN[3:6]},{RRN[7:]};'
           f'{PHONE.replace("-", ",")};={"&".join(f"CHAR({ord(c)})" for c in EMAIL)};완료\r\n'
           '2;(비공개);;;;보류\r\n')
    out.append(("5", "b", "c5_sep_directive_doubled_quotes_char_formula.csv", csv.encode("utf-8"),
                ["NAME", "RRN", "PHONE", "EMAIL"],
                {"NAME": "RFC 4180 doubled quotes between syllables", "RRN": "comma-separated under sep=; (one cell)",
                 "PHONE": "comma-separated under sep=; (one cell)", "EMAIL": "=CHAR(..)&CHAR(..) formula"}))
    # 5c: the RRN in Braille digits (number sign + cells a-j), the FRN in native Korean number words, the
    #     address romanised (as on an English form)
    br = "⠼" + "".join(BRAILLE[c] for c in RRN[:6]) + "⠤" + "⠼" + "".join(BRAILLE[c] for c in RRN[7:])
    nat = " ".join(NATIVE[c] if c.isdigit() else "다시" for c in FRN)
    txt = (f"{PLAIN}\n\n점자 병기 민원 회신\n주민등록번호(점자): {br}\n"
           f"외국인등록번호(음성 안내 받아쓰기): {nat}\nMailing address: {ADDR_EN}, Republic of Korea\n")
    out.append(("5", "c", "c5_braille_digits_native_numbers_romanised_addr.txt", txt.encode("utf-8"),
                ["RRN", "FRN", "ADDR_EN"],
                {"RRN": "Braille digits (U+2800 cells)", "FRN": "native Korean number words (하나 둘 …)",
                 "ADDR_EN": "romanised address"}))
    return out


# ------------------------------------------------------------------------------------------- class 6
def class6() -> list[tuple]:
    """Ordinary Korean office files with no personal data: must be published (held = false alarm)."""
    from PIL import Image, ImageDraw
    out = []
    # 6a: DOCX: a picture-filled shape (a banner), a chart with a picture-filled plot area, a photo with an ordinary
    #     sRGB-like ICC profile, an ordinary theme and rsids
    banner = canvas(1000, 200, (230, 240, 232))
    d = ImageDraw.Draw(banner)
    d.ellipse((20, 20, 180, 180), fill=(40, 120, 70))
    d.text((220, 60), "2025 시설 안전 점검의 달", fill=(30, 80, 40), font=font(52))
    grad = canvas(600, 400)
    dg = ImageDraw.Draw(grad)
    for y in range(400):
        dg.line((0, y, 600, y), fill=(255 - y // 8, 255 - y // 10, 255))
    shot = enc(photo(800, 500, seed=31), "JPEG", quality=85,
               icc_profile=icc_profile("sRGB IEC61966-2.1", "Copyright International Color Consortium, 2025"))
    rs = ["00A4F6C1", "005E2B97", "00C3D8AE"]
    body = (rsid_para("2025년 하반기 시설 안전 점검 계획", rs[0], "1A2B3C4D") + shape_fill("rIdBan", 1, 1000 * 9525, 200 * 9525)
            + rsid_para("점검 기간: 2025년 10월 20일 ~ 11월 14일 (4주)", rs[1], "2B3C4D5E")
            + rsid_para("점검 대상: 본관, 별관, 민원동 등 3개 동 1,842㎡", rs[1], "3C4D5E6F")
            + CHART_REF.format(n=2, rid="rIdCh") + r3.drawing("rIdPh", 3, 800 * 9525, 500 * 9525)
            + rsid_para("문의는 시설관리팀으로 해 주십시오.", rs[2], "4D5E6F70"))
    data = r3.docx(body, rels=[("rIdBan", "image", "media/image1.png", False), ("rIdCh", "chart", "charts/chart1.xml", False),
                               ("rIdPh", "image", "media/image2.jpeg", False), ("rIdTheme", "theme", "theme/theme1.xml", False),
                               ("rIdSet", "settings", "settings.xml", False)],
                   parts={"word/media/image1.png": enc(banner, "PNG"), "word/media/image2.jpeg": shot,
                          "word/charts/chart1.xml": chart_with_fill("rId1", "연도별 점검 건수", ["2022", "2023", "2024"],
                                                                    [1184, 1297, 1350]),
                          "word/charts/_rels/chart1.xml.rels": r3.rels_xml([("rId1", "image", "../media/image3.png", False)]),
                          "word/media/image3.png": enc(grad, "PNG"),
                          "word/theme/theme1.xml": theme("Office 테마", "Office", "Office"),
                          "word/settings.xml": r3.wpart("settings", f'<w:rsids><w:rsidRoot w:val="{rs[0]}"/>'
                                                        + "".join(f'<w:rsid w:val="{r}"/>' for r in rs) + "</w:rsids>")},
                   overrides={"/word/charts/chart1.xml": CT_CHART, "/word/theme/theme1.xml": CT_THEME,
                              "/word/settings.xml": CT_SETTINGS})
    data = rezip(data, {"word/document.xml": sub("<w:document ", f'<w:document xmlns:w14="{W14}" ')})
    out.append(("6", "a", "c6_shape_fill_chart_fill_icc_theme.docx", data, [], {}))

    # 6b: an fpdf2 notice with a transparent logo (PNG alpha -> /SMask) and, added by an incremental update, a
    #     page thumbnail of the page itself
    import logging
    import tempfile
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    logging.getLogger("fpdf").setLevel(logging.ERROR)
    from fpdf import FPDF
    logo = Image.new("RGBA", (360, 120), (0, 0, 0, 0))
    dl = ImageDraw.Draw(logo)
    dl.ellipse((10, 10, 110, 110), fill=(30, 90, 160, 255))
    dl.text((130, 30), "CIVIC", fill=(30, 90, 160, 230), font=font(48))
    p = FPDF()
    p.add_font("Nanum", "", str(r2.FONT))
    p.set_font("Nanum", size=12)
    p.add_page()
    with tempfile.TemporaryDirectory() as td:
        lp = Path(td) / "logo.png"
        logo.save(lp)
        p.image(str(lp), x=15, y=12, w=50)
    p.set_y(40)
    p.multi_cell(0, 8, "청사 출입 안내\n\n2025년 11월 3일부터 본관 출입구 공사로 민원인은 별관 출입구를 이용해 "
                       "주십시오. 공사 기간은 약 6주이며, 주차장은 지하 2층(B2) 입구를 이용할 수 있습니다. "
                       "안내 데스크 운영 시간은 09:00 ~ 18:00입니다.", new_x="LMARGIN", new_y="NEXT")
    base = bytes(p.output())
    out.append(("6", "b", "c6_fpdf2_notice_alpha_logo_thumb_update.pdf", add_thumbnail(base), [], {}))

    # 6c: a sep=; price list (amounts with thousands commas) and an amount in 갖은자, as receipts write it
    csv = ("sep=;\r\n품목;규격;수량;단가;금액;비고\r\n"
           "복사 용지;A4 80g;40;24,500;980,000;\r\n"
           "토너 카트리지;TN-2480;6;87,000;522,000;\r\n"
           "민원 안내 책자;B5 32쪽;1,200;1,150;1,380,000;\r\n"
           '합계;;;;2,882,000;"일금 貳百捌拾捌萬貳阡원整"\r\n')
    out.append(("6", "c", "c6_sep_price_list_gajeunja_amount.csv", csv.encode("utf-8"), [], {}))
    return out


def add_thumbnail(pdf: bytes) -> bytes:
    """An incremental update (ISO 32000 7.5.6) that gives page 1 a /Thumb: a small rendering of the page."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(pdf)
    try:
        th = doc[0].render(scale=100 / 595).to_pil().convert("RGB")
    finally:
        doc.close()
    m = None
    for m in re.finditer(rb"(?s)(\d+) 0 obj\s*(<<.*?/Type\s*/Page\b(?!s).*?>>)\s*endobj", pdf):
        break
    assert m is not None
    num, page_dict = int(m.group(1)), m.group(2)
    size = int(re.findall(rb"/Size (\d+)", pdf)[-1])
    root = re.findall(rb"/Root (\d+ 0 R)", pdf)[-1]
    prev = int(re.findall(rb"startxref\s+(\d+)", pdf)[-1])
    new_page = page_dict[:-2].rstrip() + b" /Thumb %d 0 R >>" % size
    thumb = r3.stream(b"/Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode" % th.size,
                      zlib.compress(th.tobytes()))
    out = bytearray(pdf if pdf.endswith(b"\n") else pdf + b"\n")
    o_page = len(out)
    out += b"%d 0 obj\n" % num + new_page + b"\nendobj\n"
    o_th = len(out)
    out += b"%d 0 obj\n" % size + thumb + b"\nendobj\n"
    x = len(out)
    out += (b"xref\n0 1\n0000000000 65535 f \n%d 1\n%010d 00000 n \n%d 1\n%010d 00000 n \n" % (num, o_page, size, o_th)
            + b"trailer\n<< /Size %d /Root %s /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (size + 1, root, prev, x))
    return bytes(out)


# --------------------------------------------------------------------------------------------- driver
def generate(dest: Path) -> list[dict]:
    _check_values()
    return r4.write_corpus(dest, class1() + class2() + class3() + class4() + class5() + class6(), VALUES)


def main(argv: list[str]) -> int:
    import redteam5_oracle as o5
    return r4.cli(argv, generate, o5)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
