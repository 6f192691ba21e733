"""Red-team corpus: crafted documents that hide Korean PII where redaction tools look away.

    nice .venv/bin/python benchmarks/adversarial_corpus.py generate DIR     # writes DIR/in/* + DIR/manifest.json
    nice .venv/bin/python benchmarks/adversarial_corpus.py run DIR          # generate, veil-redact, oracle, figures

Every file plants some of the values below (``manifest.json`` says which). ``run`` redacts the folder as a
user would (``veil-redact redact DIR/in --out DIR/out``, default detector), then the independent oracle in
``benchmarks/leak_oracle.py`` reads every *published* output (status ``ok``) and applies the leak rule of
../shared/docs/KOREAN_MASKING.md. Refused files (non-ok rows) are counted against the 10 % budget and their
messages are printed. The corpus is generated fresh every time (fast: no OCR, a few seconds).
"""
from __future__ import annotations

import io
import json
import sys
import unicodedata
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FONT = ROOT / "resources" / "fonts" / "NanumGothic.ttf"

NAME = "김민준"
RRN = "900101-1234567"
PHONE = "010-7385-2946"
ADDR = "서울특별시 마포구 월드컵북로 396"
EMAIL = "minjun.kim@example.com"
VALUES = {"NAME": NAME, "RRN": RRN, "PHONE": PHONE, "ADDR": ADDR, "EMAIL": EMAIL}
ALL = list(VALUES)

SENT = (f"담당자 {NAME}(주민등록번호 {RRN}, 연락처 {PHONE})은 {ADDR}에 거주하며 "
        f"이메일 {EMAIL} 로 연락 가능하다.")
HARMLESS = "이 문서는 내부 검토용 양식입니다. 아래 내용을 확인하십시오."


def xesc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


# ---------------------------------------------------------------------------------------------- DOCX
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
PRT = "http://schemas.openxmlformats.org/package/2006/relationships/"
CT = "application/vnd.openxmlformats-officedocument."
NSDECL = (f'xmlns:w="{W}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
          'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
          'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
          'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" '
          'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
          'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
          'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
          'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" '
          'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" mc:Ignorable="w14"')
XMLDECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def p(text: str, rpr: str = "") -> str:
    return f'<w:p><w:r>{rpr}<w:t xml:space="preserve">{xesc(text)}</w:t></w:r></w:p>'


def png_bytes(size=(8, 8), text: str | None = None) -> bytes:
    from PIL import Image, ImageDraw, ImageFont
    img = Image.new("RGB", size, "white")
    if text:
        d = ImageDraw.Draw(img)
        d.text((20, 20), text, fill="black", font=ImageFont.truetype(str(FONT), 28))
    b = io.BytesIO()
    img.save(b, "PNG")
    return b.getvalue()


def docx(body: str, *, parts: dict | None = None, rels: list | None = None, root_rels: list | None = None,
         overrides: dict | None = None, defaults: dict | None = None, core: str | None = None,
         app: str | None = None, main: str = "word/document.xml", sect: str = "",
         extra_members: dict | None = None, doc_xml: str | None = None) -> bytes:
    """A DOCX written by hand: ``rels`` = [(id, type, target, external)] of the main part."""
    parts = dict(parts or {})
    overrides = dict(overrides or {})
    defaults = {"rels": "application/vnd.openxmlformats-package.relationships+xml",
                "xml": "application/xml", "png": "image/png", **(defaults or {})}
    overrides["/" + main] = CT + "wordprocessingml.document.main+xml"
    overrides["/docProps/core.xml"] = "application/vnd.openxmlformats-package.core-properties+xml"
    overrides["/docProps/app.xml"] = CT + "extended-properties+xml"
    ct = (XMLDECL + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          + "".join(f'<Default Extension="{e}" ContentType="{c}"/>' for e, c in defaults.items())
          + "".join(f'<Override PartName="{n}" ContentType="{c}"/>' for n, c in overrides.items()) + "</Types>")
    rr = [("rId1", RT + "officeDocument", main, False),
          ("rId2", PRT + "metadata/core-properties", "docProps/core.xml", False),
          ("rId3", RT + "extended-properties", "docProps/app.xml", False)] + list(root_rels or [])

    def relxml(items):
        out = [XMLDECL, '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">']
        for rid, typ, tgt, ext in items:
            out.append(f'<Relationship Id="{rid}" Type="{typ}" Target="{xesc(tgt)}"'
                       + (' TargetMode="External"' if ext else "") + "/>")
        return "".join(out) + "</Relationships>"

    document = doc_xml or (XMLDECL + f'<w:document {NSDECL}><w:body>{body}<w:sectPr>{sect}'
                           '<w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>')
    core = core or (XMLDECL + '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
                    'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>양식</dc:title>'
                    '</cp:coreProperties>')
    app = app or (XMLDECL + '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
                  'extended-properties"><Application>Microsoft Office Word</Application></Properties>')
    d = main.rsplit("/", 1)[0]
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", ct)
        z.writestr("_rels/.rels", relxml(rr))
        z.writestr(main, document)
        z.writestr(f"{d}/_rels/{main.rsplit('/', 1)[1]}.rels", relxml(rels or []))
        z.writestr("docProps/core.xml", core)
        z.writestr("docProps/app.xml", app)
        for n, data in parts.items():
            z.writestr(n, data)
        for n, data in (extra_members or {}).items():
            z.writestr(n, data)
    return b.getvalue()


def wpart(root: str, inner: str) -> str:
    return XMLDECL + f"<w:{root} {NSDECL}>{inner}</w:{root}>"


def docx_cases() -> list[tuple[str, bytes, list[str]]]:
    S, H = SENT, HARMLESS
    body_s = p(S)
    out: list[tuple[str, bytes, list[str]]] = []

    def add(name, data, vals=ALL):
        out.append((f"docx/{name}.docx", data, list(vals)))

    for mode, body, hidden in (("copy", body_s, S), ("only", p(H), S)):
        # comments
        add(f"comments_{mode}", docx(body + '<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>검토</w:t></w:r>'
                                     '<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>',
                                     parts={"word/comments.xml": wpart("comments", f'<w:comment w:id="0" w:author="{NAME}" '
                                                                       f'w:initials="김">{p(hidden)}</w:comment>')},
                                     rels=[("rId9", RT + "comments", "comments.xml", False)],
                                     overrides={"/word/comments.xml": CT + "wordprocessingml.comments+xml"}))
        for kind in ("footnote", "endnote"):
            add(f"{kind}s_{mode}", docx(body + f'<w:p><w:r><w:t>참조</w:t></w:r><w:r><w:{kind}Reference w:id="1"/></w:r></w:p>',
                                        parts={f"word/{kind}s.xml": wpart(f"{kind}s", f'<w:{kind} w:id="1">{p(hidden)}</w:{kind}>')},
                                        rels=[("rId9", RT + f"{kind}s", f"{kind}s.xml", False)],
                                        overrides={f"/word/{kind}s.xml": CT + f"wordprocessingml.{kind}s+xml"}))
        for kind in ("header", "footer"):
            add(f"{kind}_oddname_{mode}", docx(body, parts={f"word/zz_{kind}_7.xml": wpart("hdr" if kind == "header" else "ftr", p(hidden))},
                                              rels=[("rIdH", RT + kind, f"zz_{kind}_7.xml", False)],
                                              overrides={f"/word/zz_{kind}_7.xml": CT + f"wordprocessingml.{kind}+xml"},
                                              sect=f'<w:{kind}Reference w:type="default" r:id="rIdH"/>'))
        # text box with fallback
        tb = (f'<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:docPr id="5" name="Text Box 5"/>'
              f'<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx>'
              f'<w:txbxContent>{p(hidden)}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>'
              f'</mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>{p(hidden)}</w:txbxContent></v:textbox>'
              f'</v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>')
        add(f"textbox_{mode}", docx(body + tb))
        # fallback-only text (choice empty)
        tb2 = (f'<w:p><w:r><mc:AlternateContent><mc:Choice Requires="w14"><w:t>.</w:t></mc:Choice><mc:Fallback><w:t>{xesc(hidden)}</w:t>'
               f'</mc:Fallback></mc:AlternateContent></w:r></w:p>')
        add(f"mc_fallback_only_{mode}", docx(body + tb2))
        # field codes
        fld = (f'<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> FILLIN "{xesc(hidden)}" </w:instrText></w:r>'
               f'<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>값</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
               f'<w:p><w:fldSimple w:instr=" MERGEFIELD {xesc(hidden.replace(" ", "_"))} "><w:r><w:t>필드</w:t></w:r></w:fldSimple></w:p>')
        add(f"fields_{mode}", docx(body + fld))
        # hyperlink tooltip + mailto rel + anchor
        hl = (f'<w:p><w:hyperlink r:id="rIdL" w:tooltip="{xesc(hidden)}"><w:r><w:t>링크</w:t></w:r></w:hyperlink></w:p>')
        add(f"hyperlink_{mode}", docx(body + hl, rels=[("rIdL", RT + "hyperlink",
                                                         f"mailto:{EMAIL}?subject={NAME} {PHONE}", True)]))
        # alt text on a picture with a PII file name
        pic = (f'<w:p><w:r><w:drawing><wp:inline><wp:extent cx="100" cy="100"/><wp:docPr id="3" name="{NAME} 사진" descr="{xesc(hidden)}" '
               f'title="{NAME} {RRN}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">'
               f'<pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="{NAME}_{RRN}.png" descr="{xesc(hidden)}"/><pic:cNvPicPr/></pic:nvPicPr>'
               f'<pic:blipFill><a:blip r:embed="rIdP"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')
        add(f"alttext_{mode}", docx(body + pic, parts={f"word/media/{NAME}_{RRN}.png": png_bytes()},
                                    rels=[("rIdP", RT + "image", f"media/{NAME}_{RRN}.png", False)]))
        # docProps core / app / custom
        core = (XMLDECL + '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
                'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">'
                f'<dc:title>{xesc(hidden)}</dc:title><dc:subject>{NAME} {PHONE}</dc:subject><dc:creator>{NAME}</dc:creator>'
                f'<cp:keywords>{RRN};{EMAIL}</cp:keywords><dc:description>{xesc(hidden)}</dc:description>'
                f'<cp:lastModifiedBy>{NAME}</cp:lastModifiedBy><cp:category>{ADDR}</cp:category>'
                f'<cp:contentStatus>{NAME}</cp:contentStatus><dc:identifier>{RRN}</dc:identifier></cp:coreProperties>')
        add(f"core_{mode}", docx(body, core=core))
        app = (XMLDECL + '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" '
               'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
               f'<Template>C:\\Users\\{NAME}\\{RRN}.dotm</Template><Manager>{NAME}</Manager><Company>{xesc(hidden)}</Company>'
               f'<HyperlinkBase>mailto:{EMAIL}</HyperlinkBase><TitlesOfParts><vt:vector size="1" baseType="lpstr">'
               f'<vt:lpstr>{xesc(hidden)}</vt:lpstr></vt:vector></TitlesOfParts></Properties>')
        add(f"app_{mode}", docx(body, app=app))
        custom = (XMLDECL + '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
                  'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
                  f'<property fmtid="{{D5CDD505-2E9C-101B-9397-08002B2CF9AE}}" pid="2" name="{NAME}_{PHONE}"><vt:lpwstr>{xesc(hidden)}</vt:lpwstr></property>'
                  f'<property fmtid="{{D5CDD505-2E9C-101B-9397-08002B2CF9AE}}" pid="3" name="rrn"><vt:lpwstr>{RRN}</vt:lpwstr></property></Properties>')
        add(f"custom_props_{mode}", docx(body, parts={"docProps/custom.xml": custom},
                                         root_rels=[("rId4", RT + "custom-properties", "docProps/custom.xml", False)],
                                         overrides={"/docProps/custom.xml": CT + "custom-properties+xml"}))
        # customXml with an odd name, attributes, and a props part
        cx = f'<?xml version="1.0"?><data xmlns="urn:x-hr"><person name="{NAME}" rrn="{RRN}"><addr>{xesc(hidden)}</addr></person></data>'
        add(f"customxml_{mode}", docx(body, parts={"customXml/hr_record.xml": cx,
                                                  "customXml/_rels/hr_record.xml.rels": XMLDECL + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>'},
                                      rels=[("rIdX", RT + "customXml", "../customXml/hr_record.xml", False)]))
        # glossary
        gl = wpart("glossaryDocument", f'<w:docParts><w:docPart><w:docPartPr><w:name w:val="{NAME}"/></w:docPartPr>'
                                       f'<w:docPartBody>{p(hidden)}</w:docPartBody></w:docPart></w:docParts>')
        add(f"glossary_{mode}", docx(body, parts={"word/glossary/doc.xml": gl},
                                     rels=[("rIdG", RT + "glossaryDocument", "glossary/doc.xml", False)],
                                     overrides={"/word/glossary/doc.xml": CT + "wordprocessingml.document.glossary+xml"}))
        # settings: docVars + mail merge + attached template
        st = wpart("settings", f'<w:mailMerge><w:mainDocumentType w:val="formLetters"/><w:connectString w:val="Provider=x;Data Source={xesc(hidden)}"/>'
                               f'<w:query w:val="SELECT * FROM `{NAME}` WHERE rrn=\'{RRN}\'"/><w:odso><w:udl w:val="{EMAIL}"/></w:odso></w:mailMerge>'
                               f'<w:attachedTemplate r:id="rIdT"/><w:docVars><w:docVar w:name="{NAME}" w:val="{xesc(hidden)}"/></w:docVars>')
        add(f"settings_{mode}", docx(body, parts={"word/settings.xml": st,
                                                  "word/_rels/settings.xml.rels": XMLDECL + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                                                  f'<Relationship Id="rIdT" Type="{RT}attachedTemplate" Target="file:///C:/Users/{NAME}/{PHONE}.dotx" TargetMode="External"/></Relationships>'},
                                     rels=[("rIdS", RT + "settings", "settings.xml", False)],
                                     overrides={"/word/settings.xml": CT + "wordprocessingml.settings+xml"}))
        # smart tags / customXml markup attributes
        sm = (f'<w:p><w:smartTag w:uri="urn:x" w:element="person"><w:smartTagPr><w:attr w:name="rrn" w:val="{RRN}"/>'
              f'<w:attr w:name="full" w:val="{xesc(hidden)}"/></w:smartTagPr><w:r><w:t>태그</w:t></w:r></w:smartTag>'
              f'<w:customXml w:element="rec"><w:customXmlPr><w:attr w:name="who" w:val="{NAME} {PHONE}"/></w:customXmlPr><w:r><w:t>x</w:t></w:r></w:customXml></w:p>')
        add(f"smarttag_{mode}", docx(body + sm))
        # SDT alias / tag / list items / placeholder
        sdt = (f'<w:sdt><w:sdtPr><w:alias w:val="{NAME}"/><w:tag w:val="{RRN}"/><w:dropDownList><w:listItem w:displayText="{xesc(hidden)}" '
               f'w:value="{PHONE}"/></w:dropDownList><w:dataBinding w:xpath="/x[\'{EMAIL}\']" w:storeItemID="{{1}}"/></w:sdtPr>'
               f'<w:sdtContent>{p("선택")}</w:sdtContent></w:sdt>')
        add(f"sdt_{mode}", docx(body + sdt))
        # legacy form field
        ff = (f'<w:p><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="{NAME}"/><w:enabled/><w:helpText w:type="text" w:val="{xesc(hidden)}"/>'
              f'<w:statusText w:type="text" w:val="{RRN}"/><w:textInput><w:default w:val="{xesc(hidden)}"/></w:textInput></w:ffData></w:fldChar></w:r>'
              f'<w:r><w:instrText> FORMTEXT </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>입력</w:t></w:r>'
              f'<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
              f'<w:p><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="dd"/><w:ddList><w:listEntry w:val="{NAME}"/>'
              f'<w:listEntry w:val="{PHONE}"/></w:ddList></w:ffData></w:fldChar></w:r><w:r><w:instrText> FORMDROPDOWN </w:instrText></w:r>'
              f'<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>')
        add(f"formfield_{mode}", docx(body + ff))
        # tracked changes
        tr = (f'<w:p><w:del w:id="1" w:author="{NAME}" w:date="2024-01-01T00:00:00Z"><w:r><w:delText>{xesc(hidden)}</w:delText></w:r></w:del>'
              f'<w:ins w:id="2" w:author="{NAME}"><w:r><w:t>{xesc(hidden)}</w:t></w:r></w:ins></w:p>'
              f'<w:p><w:moveFrom w:id="3" w:author="x"><w:r><w:t>{xesc(hidden)}</w:t></w:r></w:moveFrom></w:p>'
              f'<w:p><w:moveTo w:id="4" w:author="x"><w:r><w:t>{xesc(hidden)}</w:t></w:r></w:moveTo></w:p>'
              f'<w:p><w:pPr><w:rPr><w:del w:id="5" w:author="{EMAIL}"/></w:rPr></w:pPr><w:r><w:rPr><w:rPrChange w:id="6" w:author="{PHONE}"><w:rPr/></w:rPrChange></w:rPr><w:t>서식</w:t></w:r></w:p>')
        add(f"tracked_{mode}", docx(body + tr))
        # XML comments / PIs / CDATA / tail after comment inside w:t
        xc = (f'<!-- {xesc(hidden)} --><?veil {hidden.replace("?>", "")}?>'
              f'<w:p><w:r><w:t><![CDATA[{hidden}]]></w:t></w:r></w:p>'
              f'<w:p><w:r><w:t>보이는 글 <!-- c --> {xesc(hidden)}</w:t></w:r></w:p>')
        add(f"xmlcomments_{mode}", docx(body + xc))
        # styles + numbering
        sty = wpart("styles", f'<w:style w:type="paragraph" w:styleId="s1"><w:name w:val="{NAME} {PHONE}"/><w:aliases w:val="{xesc(hidden)}"/></w:style>')
        num = wpart("numbering", f'<w:abstractNum w:abstractNumId="0"><w:name w:val="{RRN}"/><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/>'
                                 f'<w:lvlText w:val="{xesc(hidden[:200])} %1"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>')
        add(f"styles_numbering_{mode}", docx(body + '<w:p><w:pPr><w:pStyle w:val="s1"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>항목</w:t></w:r></w:p>',
                                             parts={"word/styles.xml": sty, "word/numbering.xml": num},
                                             rels=[("rIdSt", RT + "styles", "styles.xml", False), ("rIdN", RT + "numbering", "numbering.xml", False)],
                                             overrides={"/word/styles.xml": CT + "wordprocessingml.styles+xml",
                                                        "/word/numbering.xml": CT + "wordprocessingml.numbering+xml"}))
        # altChunk HTML
        add(f"altchunk_{mode}", docx(body + '<w:altChunk r:id="rIdA"/>',
                                     parts={"word/chunk.html": f"<html><body><p>{xesc(hidden)}</p></body></html>".encode()},
                                     rels=[("rIdA", RT + "aFChunk", "chunk.html", False)], defaults={"html": "text/html"}))
        # chart caches
        chart = (XMLDECL + '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" '
                 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:p><a:r>'
                 f'<a:t>{xesc(hidden)}</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:f>Sheet1!A1</c:f>'
                 f'<c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>{NAME}</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef>'
                 f'<c:strCache><c:pt idx="0"><c:v>{RRN}</c:v></c:pt><c:pt idx="1"><c:v>{PHONE}</c:v></c:pt><c:pt idx="2"><c:v>{EMAIL}</c:v></c:pt>'
                 f'<c:pt idx="3"><c:v>{ADDR}</c:v></c:pt></c:strCache></c:strRef></c:cat></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>')
        cref = ('<w:p><w:r><w:drawing><wp:inline><wp:docPr id="9" name="Chart 1"/><a:graphic><a:graphicData '
                'uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart r:id="rIdC"/></a:graphicData></a:graphic>'
                '</wp:inline></w:drawing></w:r></w:p>')
        add(f"chart_{mode}", docx(body + cref, parts={"word/charts/chart1.xml": chart},
                                  rels=[("rIdC", RT + "chart", "charts/chart1.xml", False)],
                                  overrides={"/word/charts/chart1.xml": CT + "drawingml.chart+xml"}))
        # embedded object with a PII name and PII content
        ole = (f'<w:p><w:r><w:object><v:shape id="o1"><v:imagedata r:id="rIdP" o:title="{NAME}"/></v:shape>'
               f'<o:OLEObject Type="Embed" ProgID="Package" ShapeID="o1" r:id="rIdO"/></w:object></w:r></w:p>')
        add(f"ole_{mode}", docx(body + ole, parts={f"word/embeddings/{NAME}_{RRN}.bin": ("\x00OLE " + hidden).encode("utf-16-le"),
                                                   "word/media/img1.png": png_bytes()},
                                rels=[("rIdO", RT + "oleObject", f"embeddings/{NAME}_{RRN}.bin", False),
                                      ("rIdP", RT + "image", "media/img1.png", False)],
                                defaults={"bin": CT + "oleObject"}))
        # hidden (vanish) text and a tiny white run
        add(f"vanish_{mode}", docx(body + p(hidden, '<w:rPr><w:vanish/></w:rPr>') + p(hidden, '<w:rPr><w:color w:val="FFFFFF"/><w:sz w:val="2"/></w:rPr>')))
        # bookmarks named after the person
        bm = (f'<w:p><w:bookmarkStart w:id="0" w:name="{NAME}_{PHONE.replace("-", "")}"/><w:r><w:t>북마크</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>'
              f'<w:p><w:hyperlink w:anchor="{NAME}_{PHONE.replace("-", "")}" w:docLocation="{xesc(hidden)}"><w:r><w:t>이동</w:t></w:r></w:hyperlink></w:p>')
        add(f"bookmark_{mode}", docx(body + bm), ["NAME", "PHONE"] + (["RRN", "ADDR", "EMAIL"]))
        # unreferenced part and a people part
        add(f"unreferenced_{mode}", docx(body, parts={"word/notes_extra.xml": wpart("document", f"<w:body>{p(hidden)}</w:body>"),
                                                      "word/people.xml": XMLDECL + f'<w15:people xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml">'
                                                      f'<w15:person w15:author="{NAME}"><w15:presenceInfo w15:providerId="AD" w15:userId="{EMAIL}"/></w15:person></w15:people>',
                                                      "word/notes.txt": hidden.encode("utf-8")}))
    # diagram data + VML textpath + WordArt
    dg = (XMLDECL + '<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" '
          'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst><dgm:pt modelId="1"><dgm:t><a:bodyPr/><a:p><a:r>'
          f'<a:t>{xesc(S)}</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>')
    add("diagram_only", docx(p(H) + '<w:p><w:r><w:drawing><wp:inline><wp:docPr id="4" name="Diagram 1"/><a:graphic><a:graphicData '
                             'uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"/></a:graphic></wp:inline></w:drawing></w:r></w:p>',
                             parts={"word/diagrams/data1.xml": dg}, rels=[("rIdD", RT + "diagramData", "diagrams/data1.xml", False)],
                             overrides={"/word/diagrams/data1.xml": CT + "drawingml.diagramData+xml"}))
    add("vml_textpath", docx(p(S) + f'<w:p><w:r><w:pict><v:shape><v:textpath string="{xesc(S)}"/></v:shape></w:pict></w:r></w:p>'))
    add("vml_textpath_only", docx(p(H) + f'<w:p><w:r><w:pict><v:shape alt="{xesc(S)}"><v:textpath string="{xesc(S)}"/></v:shape></w:pict></w:r></w:p>'))
    # renamed main part
    add("renamed_main", docx(p(S), main="word/main_doc_x.xml"))
    # a value split over runs, with a duplicate elsewhere split differently
    runs = "".join(f'<w:r><w:rPr>{"<w:b/>" if i % 2 else ""}</w:rPr><w:t xml:space="preserve">{xesc(ch)}</w:t></w:r>'
                   for i, ch in enumerate(S))
    add("split_runs", docx(f"<w:p>{runs}</w:p>" + p(f"재확인: {NAME} {PHONE} {RRN}")))
    # unicode variants of a body copy (the body has the plain sentence first)
    nfd = unicodedata.normalize("NFD", S)
    zw = "\u200b".join(S)
    shy = S.replace(NAME, "김\u00ad민\u00ad준").replace(RRN, "900101\u00ad-1234\u00ad567").replace(PHONE, "010\u00ad7385\u00ad2946")
    fw = S.translate({ord(c): ord(c) + 0xFEE0 for c in "0123456789-@."})
    spaced = S.replace(RRN, " ".join(RRN)).replace(PHONE, " ".join(PHONE)).replace(NAME, " ".join(NAME))
    for nm, var in (("nfd", nfd), ("zerowidth", zw), ("softhyphen", shy), ("fullwidth", fw), ("letterspaced", spaced)):
        add(f"variant_{nm}_copy", docx(p(S) + p("참고: " + var)))
        add(f"variant_{nm}_only", docx(p(H) + p(var)))
    # footnote glued to the anchor word
    add("footnote_glued", docx(f'<w:p><w:r><w:t>참조</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r><w:r><w:t>{NAME}님</w:t></w:r></w:p>' + p(S),
                               parts={"word/footnotes.xml": wpart("footnotes", f'<w:footnote w:id="1"><w:p><w:r><w:t>{NAME}</w:t></w:r></w:p></w:footnote>')},
                               rels=[("rId9", RT + "footnotes", "footnotes.xml", False)],
                               overrides={"/word/footnotes.xml": CT + "wordprocessingml.footnotes+xml"}))
    # a thumbnail with the text drawn
    add("thumbnail", docx(p(S), parts={"docProps/thumbnail.png": png_bytes((900, 80), f"{NAME} {RRN}")},
                          root_rels=[("rId5", PRT + "metadata/thumbnail", "docProps/thumbnail.png", False)]))
    # a picture in the body with the values drawn in it (a recipient sees it)
    pic2 = ('<w:p><w:r><w:drawing><wp:inline><wp:extent cx="5000000" cy="500000"/><wp:docPr id="3" name="Picture 3"/><a:graphic>'
            '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" '
            'name="image1.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdP"/></pic:blipFill></pic:pic>'
            '</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')
    add("picture_drawn_only", docx(p(H) + pic2, parts={"word/media/image1.png": png_bytes((900, 80), f"{NAME} {RRN}")},
                                   rels=[("rIdP", RT + "image", "media/image1.png", False)]), ["NAME", "RRN"])
    # an SVG picture whose <text> holds the values, and an EMF with UTF-16 text records
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="800" height="100"><title>{NAME}</title>'
           f'<text x="10" y="50" font-size="30">{xesc(S)}</text></svg>')
    add("svg_picture_only", docx(p(H) + pic2.replace("rIdP", "rIdS"), parts={"word/media/image1.svg": svg},
                                 rels=[("rIdS", RT + "image", "media/image1.svg", False)], defaults={"svg": "image/svg+xml"}))
    emf = b"\x01\x00\x00\x00" + b"\x00" * 36 + b" EMF" + b"\x00" * 48 + ("\x00\x00" + S).encode("utf-16-le") + b"\x00" * 8
    add("emf_picture_only", docx(p(H) + pic2.replace("rIdP", "rIdE"), parts={"word/media/image2.emf": emf},
                                 rels=[("rIdE", RT + "image", "media/image2.emf", False)], defaults={"emf": "image/x-emf"}))
    # values split by tabs and line breaks inside a run
    add("tabs_breaks_only", docx(p(H) + '<w:p><w:r><w:t>연락처 010</w:t><w:tab/><w:t>7385</w:t><w:tab/><w:t>2946</w:t></w:r></w:p>'
                                 '<w:p><w:r><w:t>주민등록번호 900101-</w:t><w:br/><w:t>1234567 담당자 김민</w:t><w:br/><w:t>준</w:t></w:r></w:p>'),
        ["PHONE", "RRN"])
    # values drawn as Word symbols (w:sym w:char="0030" …)
    sym = lambda v: "".join(f'<w:sym w:font="Arial" w:char="{ord(c):04X}"/>' for c in v)
    add("symbols_only", docx(p(H) + f'<w:p><w:r><w:t xml:space="preserve">연락처 </w:t>{sym(PHONE)}<w:t xml:space="preserve"> 주민등록번호 </w:t>'
                             f'{sym(RRN)}</w:r></w:p>'), ["PHONE", "RRN"])
    # base64 payloads: field binary data and a custom-property blob holding the sentence (UTF-16 / UTF-8)
    import base64
    b64 = lambda t, e: base64.b64encode(t.encode(e)).decode()
    add("flddata_copy", docx(p(S) + f'<w:p><w:r><w:fldChar w:fldCharType="begin"><w:fldData xml:space="preserve">{b64(S, "utf-16-le")}'
                             '</w:fldData></w:fldChar></w:r><w:r><w:instrText> MACROBUTTON x </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'))
    blob = (XMLDECL + '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
            'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
            f'<property fmtid="{{D5CDD505-2E9C-101B-9397-08002B2CF9AE}}" pid="2" name="data"><vt:blob>{b64(S, "utf-8")}</vt:blob></property></Properties>')
    add("blob_copy", docx(p(S), parts={"docProps/custom.xml": blob}, root_rels=[("rId4", RT + "custom-properties", "docProps/custom.xml", False)],
                          overrides={"/docProps/custom.xml": CT + "custom-properties+xml"}))
    # a font table and web settings naming the person
    add("fonttable_only", docx(p(H), parts={"word/fontTable.xml": wpart("fonts", f'<w:font w:name="{NAME} {PHONE}"><w:altName w:val="{xesc(S)}"/></w:font>')},
                               rels=[("rIdFt", RT + "fontTable", "fontTable.xml", False)],
                               overrides={"/word/fontTable.xml": CT + "wordprocessingml.fontTable+xml"}))
    # an embedded DOCX package (a document inside the document)
    add("embedded_package_only", docx(p(H) + '<w:p><w:r><w:object><o:OLEObject Type="Embed" ProgID="Word.Document.12" r:id="rIdK"/></w:object></w:r></w:p>',
                                      parts={"word/embeddings/doc1.docx": docx(p(S))},
                                      rels=[("rIdK", RT + "package", "embeddings/doc1.docx", False)],
                                      defaults={"docx": CT + "wordprocessingml.document"}))
    # ruby (phonetic guide), math text, editing permission for a user, a DrawingML field, a sub-document link
    add("ruby_math_perm_only", docx(p(H) + f'<w:p><w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>{NAME}</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>이름</w:t></w:r>'
                                    f'</w:rubyBase></w:ruby></w:r></w:p>'
                                    f'<w:p><m:oMath xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:r><m:t>주민등록번호 {RRN}</m:t></m:r></m:oMath></w:p>'
                                    f'<w:p><w:permStart w:id="1" w:ed="{EMAIL}"/><w:r><w:t>편집</w:t></w:r><w:permEnd w:id="1"/></w:p>'
                                    f'<w:p><w:subDoc r:id="rIdSub"/></w:p>',
                                    rels=[("rIdSub", RT + "subDocument", f"file:///C:/{NAME}/{PHONE}.docx", True)]), ["NAME", "RRN", "EMAIL", "PHONE"])
    hdr_shape = (f'<w:p><w:r><w:drawing><wp:anchor><wp:docPr id="7" name="Shape 7"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/'
                 f'word/2010/wordprocessingShape"><wps:wsp><wps:txbx><w:txbxContent>{p(S)}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData>'
                 f'</a:graphic></wp:anchor></w:drawing></w:r></w:p>'
                 f'<w:p><w:r><w:drawing><wp:inline><wp:docPr id="8" name="x"/><a:graphic><a:graphicData uri="x"><wps:wsp><wps:txbx><w:txbxContent/>'
                 f'</wps:txbx><wps:bodyPr/></wps:wsp><a:p><a:fld id="{{1}}" type="slidenum"><a:t>{xesc(S)}</a:t></a:fld></a:p></a:graphicData></a:graphic>'
                 f'</wp:inline></w:drawing></w:r></w:p>')
    add("header_textbox_only", docx(p(H), parts={"word/header1.xml": wpart("hdr", hdr_shape)},
                                    rels=[("rIdH", RT + "header", "header1.xml", False)],
                                    overrides={"/word/header1.xml": CT + "wordprocessingml.header+xml"},
                                    sect='<w:headerReference w:type="first" r:id="rIdH"/>'))
    # external relationship targets of odd types
    add("ext_rels", docx(p(S), rels=[("rIdE", RT + "oleObject", f"file:///C:/{NAME}/{RRN}.xlsx", True),
                                     ("rIdF", RT + "image", f"http://example.com/{EMAIL}/{PHONE}.png", True)]))
    # an XML part stored UTF-16
    add("utf16_part", docx("", doc_xml=('<?xml version="1.0" encoding="UTF-16" standalone="yes"?>\n'
                                        f'<w:document {NSDECL}><w:body>{p(S)}<w:sectPr/></w:body></w:document>').encode("utf-16")))
    # html entities in text and attribute
    ent = "".join(f"&#{ord(c)};" for c in S)
    add("char_refs", docx(p(H) + f'<w:p><w:r><w:t>{ent}</w:t></w:r></w:p>' + f'<w:p><w:hyperlink w:tooltip="{ent}"><w:r><w:t>x</w:t></w:r></w:hyperlink></w:p>'))
    return out


# ---------------------------------------------------------------------------------------------- HWPX
HNS = ('xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" '
       'xmlns:hc="http://www.hancom.co.kr/hwpml/2011/core" xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head"')


def hrun(t: str) -> str:
    return f'<hp:run charPrIDRef="0"><hp:t>{xesc(t)}</hp:t></hp:run>'


def hpara(*runs: str) -> str:
    return f'<hp:p id="0" paraPrIDRef="0" styleIDRef="0" pageBreak="0" columnBreak="0" merged="0">{"".join(runs)}</hp:p>'


def hwpx(section: str, *, header: str = "", settings: str = "", meta: str = "", prv: str = "", extra: dict | None = None,
         manifest_extra: str = "") -> bytes:
    head = (XMLDECL + f'<hh:head {HNS} version="1.4" secCnt="1"><hh:refList><hh:fontfaces/></hh:refList>{header}</hh:head>')
    sec = XMLDECL + f"<hs:sec {HNS}>{section}</hs:sec>"
    hpf = (XMLDECL + '<opf:package xmlns:opf="http://www.idpf.org/2007/opf/" xmlns:dc="http://purl.org/dc/elements/1.1/" version="" '
           f'unique-identifier="" id=""><opf:metadata><opf:title>문서</opf:title><opf:language>ko</opf:language>{meta}</opf:metadata>'
           '<opf:manifest><opf:item id="header" href="Contents/header.xml" media-type="application/xml"/>'
           f'<opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/>{manifest_extra}'
           '<opf:item id="settings" href="settings.xml" media-type="application/xml"/></opf:manifest>'
           '<opf:spine><opf:itemref idref="header" linear="yes"/><opf:itemref idref="section0" linear="yes"/></opf:spine></opf:package>')
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/hwp+zip", compress_type=zipfile.ZIP_STORED)
        z.writestr("version.xml", XMLDECL + '<hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version" '
                   'tagetApplication="WORDPROCESSOR" major="5" minor="1" micro="0" buildNumber="1" xmlVersion="1.4"/>')
        z.writestr("Contents/header.xml", head)
        z.writestr("Contents/section0.xml", sec)
        z.writestr("Contents/content.hpf", hpf)
        z.writestr("META-INF/container.xml", XMLDECL + '<ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container">'
                   '<ocf:rootfiles><ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/>'
                   '</ocf:rootfiles></ocf:container>')
        z.writestr("settings.xml", XMLDECL + f'<ha:HWPApplicationSetting xmlns:ha="http://www.hancom.co.kr/hwpml/2011/app">{settings}</ha:HWPApplicationSetting>')
        if prv:
            z.writestr("Preview/PrvText.txt", prv.encode("utf-16-le") if prv.startswith("\ufeff") else prv.encode("utf-8"))
        for n, d in (extra or {}).items():
            z.writestr(n, d)
    return b.getvalue()


def hwpx_cases() -> list[tuple[str, bytes, list[str]]]:
    S, H = SENT, HARMLESS
    out = []

    def add(name, data, vals=ALL):
        out.append((f"hwpx/{name}.hwpx", data, list(vals)))

    for mode, body, hidden in (("copy", hpara(hrun(S)), S), ("only", hpara(hrun(H)), S)):
        add(f"header_{mode}", hwpx(body, header=f'<hh:docOption><hh:linkinfo path="C:\\{NAME}\\{RRN}.hwp"/></hh:docOption>'
                                         f'<hh:styles><hh:style id="0" name="{xesc(hidden)}" engName="{EMAIL}"/></hh:styles>'
                                         f'<hh:memoProperties><hh:memoPr id="1" lineColor="#000000"/></hh:memoProperties>'
                                         f'<hh:trackChangeAuthors><hh:trackChangeAuthor id="1" name="{NAME}"/></hh:trackChangeAuthors>'))
        add(f"settings_{mode}", hwpx(body, settings=f'<ha:CaretPosition listIDRef="0"/><ha:note>{xesc(hidden)}</ha:note>'
                                                    f'<ha:user name="{NAME}" phone="{PHONE}"/>'))
        add(f"footnote_{mode}", hwpx(hpara(hrun("각주"), '<hp:run charPrIDRef="0"><hp:ctrl><hp:footNote number="1"><hp:subList>'
                                           + hpara(hrun(hidden)) + '</hp:subList></hp:footNote></hp:ctrl></hp:run>') + body))
        add(f"endnote_{mode}", hwpx(body + hpara('<hp:run charPrIDRef="0"><hp:ctrl><hp:endNote number="1"><hp:subList>'
                                                 + hpara(hrun(hidden)) + '</hp:subList></hp:endNote></hp:ctrl></hp:run>', hrun("끝"))))
        add(f"memo_{mode}", hwpx(body + f'<hp:memogroup><hp:memo id="1" author="{NAME}"><hp:paraList>{hpara(hrun(hidden))}</hp:paraList></hp:memo></hp:memogroup>'))
        add(f"field_{mode}", hwpx(body + hpara(f'<hp:run charPrIDRef="0"><hp:ctrl><hp:fieldBegin type="CLICK_HERE" name="{xesc(hidden)}" '
                                               f'editable="1"><hp:parameters><hp:stringParam name="Direction">{xesc(hidden)}</hp:stringParam>'
                                               f'<hp:stringParam name="HelpState">{RRN}</hp:stringParam></hp:parameters></hp:fieldBegin></hp:ctrl>'
                                               '<hp:t>입력</hp:t><hp:ctrl><hp:fieldEnd beginIDRef="1"/></hp:ctrl></hp:run>')))
        add(f"bindata_{mode}", hwpx(body + hpara('<hp:run charPrIDRef="0"><hp:pic><hc:img binaryItemIDRef="img1"/>'
                                                 f'<hp:shapeComment>{xesc(hidden)}</hp:shapeComment></hp:pic></hp:run>'),
                                    manifest_extra=f'<opf:item id="img1" href="BinData/{NAME}_{RRN}.png" media-type="image/png" isEmbeded="1"/>',
                                    extra={f"BinData/{NAME}_{RRN}.png": png_bytes(), f"BinData/ole_{PHONE}.ole": hidden.encode("utf-16-le")}))
        add(f"prvtext_{mode}", hwpx(body, prv=hidden + "\r\n" + NAME))
        add(f"scripts_{mode}", hwpx(body, extra={"Scripts/headerScripts": f"var who = '{hidden}';".encode("utf-16-le"),
                                                  "Scripts/sourceScripts": f"// {hidden}".encode()}))
        add(f"hpf_meta_{mode}", hwpx(body, meta=f'<opf:meta name="creator" content="text">{NAME}</opf:meta>'
                                               f'<opf:meta name="subject" content="text">{xesc(hidden)}</opf:meta>'
                                               f'<opf:meta name="description" content="text">{xesc(hidden)}</opf:meta>'
                                               f'<opf:meta name="keyword" content="text">{RRN} {EMAIL}</opf:meta>'
                                               f'<opf:meta name="lastsaveby" content="text">{NAME}</opf:meta>'))
        add(f"xmlcomment_{mode}", hwpx(body + f"<!-- {xesc(hidden)} -->" + hpara(f'<hp:run charPrIDRef="0"><hp:t><![CDATA[{hidden}]]></hp:t></hp:run>')))
        add(f"track_{mode}", hwpx(body + hpara('<hp:run charPrIDRef="0"><hp:t>가</hp:t><hp:deleteBegin Id="1" TcId="1"/>'
                                               f'<hp:t>{xesc(hidden)}</hp:t><hp:deleteEnd Id="1" TcId="1"/></hp:run>')))
    add("hwpx_objects_only", hwpx(hpara(hrun(H))
                                  + hpara(f'<hp:run charPrIDRef="0"><hp:dutmal posType="TOP"><hp:mainText>이름</hp:mainText><hp:subText>{NAME}</hp:subText></hp:dutmal></hp:run>')
                                  + hpara(f'<hp:run charPrIDRef="0"><hp:equation version="Equation Version 60"><hp:script>주민등록번호 {RRN}</hp:script></hp:equation></hp:run>')
                                  + hpara(f'<hp:run charPrIDRef="0"><hp:textart text="{xesc(S)}"><hp:textartPr fontName="함초롬바탕"/></hp:textart></hp:run>')
                                  + hpara(f'<hp:run charPrIDRef="0"><hp:compose composeText="{PHONE}" circleType="CHAR"/></hp:run>')
                                  + hpara(f'<hp:run charPrIDRef="0"><hp:edit name="{NAME}" multiLine="0"><hp:text>{EMAIL}</hp:text></hp:edit></hp:run>')
                                  + hpara(f'<hp:run charPrIDRef="0"><hp:tbl rowCnt="1" colCnt="1"><hp:caption><hp:subList>{hpara(hrun(ADDR))}</hp:subList></hp:caption>'
                                          f'<hp:tr><hp:tc><hp:subList>{hpara(hrun("칸"))}</hp:subList></hp:tc></hp:tr></hp:tbl></hp:run>')))
    add("table_split", hwpx(hpara(hrun(H)) + hpara('<hp:run charPrIDRef="0"><hp:tbl rowCnt="1" colCnt="3"><hp:tr>'
                                                   + "".join(f"<hp:tc><hp:subList>{hpara(hrun(v))}</hp:subList></hp:tc>"
                                                             for v in ("성명 " + NAME, "주민등록번호 " + RRN, "연락처 " + PHONE))
                                                   + "</hp:tr></hp:tbl></hp:run>")), ["NAME", "RRN", "PHONE"])
    add("nfd_zw", hwpx(hpara(hrun(unicodedata.normalize("NFD", S))) + hpara(hrun("\u200b".join(S)))))
    add("hidden_comment_ctrl", hwpx(hpara(hrun(H)) + hpara(f'<hp:run charPrIDRef="0"><hp:ctrl><hp:hiddenComment><hp:subList>{hpara(hrun(S))}'
                                                           '</hp:subList></hp:hiddenComment></hp:ctrl></hp:run>')))
    add("unknown_part", hwpx(hpara(hrun(S)), extra={"Custom/data.xml": f'<?xml version="1.0"?><x who="{NAME}">{xesc(S)}</x>',
                                                     "META-INF/manifest.xml": XMLDECL + '<odf:manifest xmlns:odf="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
                                                     f'<odf:file-entry full-path="BinData/{NAME}.png" media-type="image/png"/></odf:manifest>'}))
    return out


# ---------------------------------------------------------------------------------------------- TXT / CSV
def text_cases() -> list[tuple[str, bytes, list[str]]]:
    S = SENT
    out = []

    def add(name, data, vals=ALL):
        out.append((f"text/{name}", data, list(vals)))

    add("utf16le_bom.txt", ("\ufeff" + S + "\r\n").encode("utf-16-le"))
    add("utf16be_nobom.txt", (S + "\n").encode("utf-16-be"))
    add("cp949.txt", (S + "\r\n").encode("cp949"))
    add("cp949.csv", ("성명,주민등록번호,연락처,주소,이메일\r\n" + ",".join([NAME, RRN, PHONE, ADDR, EMAIL]) + "\r\n").encode("cp949"))
    add("bom_in_values.csv", ("성명,주민등록번호,연락처\n" + ",".join(["김\ufeff민준", "900101\ufeff-1234567", "010-7385\ufeff-2946"]) + "\n"
                              + S + "\n").encode("utf-8"), ["NAME", "RRN", "PHONE"])
    add("multiline_cell.csv", ("성명,메모\n" + f'"{NAME}","연락처 010-7385\n-2946, 주민 900101-\n1234567"\n' + f'"x","{S}"\n').encode("utf-8"))
    add("multiline_only.csv", ("성명,메모\n" + f'"담당자 {NAME}","연락처 010-7385\n-2946 주민등록번호 900101-\n1234567"\n').encode("utf-8"),
        ["NAME", "PHONE", "RRN"])
    add("letterspaced.txt", ("주민등록번호 " + " ".join(RRN) + "\n연락처 " + " ".join(PHONE) + "\n성명 " + " ".join(NAME) + "\n").encode())
    add("zerowidth.txt", ("\u200b".join(S) + "\n").encode())
    add("zwj_mixed.txt", (S.replace(NAME, "김\u200d민\u2060준").replace(RRN, "9001\u200c01-12\u200b34567").replace(PHONE, "010\u20117385\u20112946") + "\n").encode())
    add("nfd.txt", (unicodedata.normalize("NFD", S) + "\n").encode())
    add("nfd_only_name.txt", (f"신청인 {unicodedata.normalize('NFD', NAME)} 님의 주민등록번호는 {RRN} 입니다.\n").encode(), ["NAME", "RRN"])
    add("fullwidth.txt", (S.translate({ord(c): ord(c) + 0xFEE0 for c in "0123456789-@.abcdefghijklmnopqrstuvwxyz"}) + "\n").encode())
    add("softhyphen.txt", (S.replace(RRN, "900101\u00ad-\u00ad1234567").replace(PHONE, "010\u00ad7385\u00ad2946") + "\n").encode())
    add("mixed_newlines.txt", (S.replace(", ", "\r\n") + "\r" + S + "\n").encode())
    add("semicolon.csv", (f"{NAME};{RRN};{PHONE}\n{S}\n").encode("utf-8-sig"))
    add("tabs.tsv.txt", (f"{NAME}\t{RRN}\t{PHONE}\t{EMAIL}\n").encode("utf-16"), ["NAME", "RRN", "PHONE", "EMAIL"])
    add("html_escaped.txt", (S.replace(NAME, "&#44608;&#48124;&#51456;").replace("@", "&#64;") + "\n" + S + "\n").encode())
    add("url_encoded.txt", (S + "\nhttps://x.example/?q=" + "".join(f"%{b:02X}" for b in (NAME + " " + RRN).encode()) + "\n").encode(),
        ["NAME", "RRN"])
    add("utf32.txt", ("\ufeff" + S + "\n").encode("utf-32-le"))
    add("mixed_encoding.txt", (HARMLESS + "\n").encode("utf-8") + (S + "\n").encode("cp949"))
    add("formula.csv", (f'성명,링크\n{NAME},"=HYPERLINK(""mailto:{EMAIL}"",""{PHONE}"")"\n').encode("utf-8"), ["NAME", "EMAIL", "PHONE"])
    add("header_row_only.csv", (f"{NAME},{RRN},{PHONE}\n1,2,3\n").encode("utf-8"), ["NAME", "RRN", "PHONE"])
    styled = lambda v, base: "".join(chr(base + int(c)) if c.isdigit() else c for c in v)
    add("math_digits.txt", (f"연락처 {styled(PHONE, 0x1D7CE)} 주민등록번호 {styled(RRN, 0x1D7CE)}\n").encode(), ["PHONE", "RRN"])
    add("arabic_indic_digits.txt", (f"연락처 {styled(PHONE, 0x660)}\n").encode(), ["PHONE"])
    add("obfuscated.txt", (f"이메일 minjun.kim [at] example [dot] com\n연락처 010 - 7385 - 2946\n주민번호 900101ㅡ1234567\n"
                           f"보조 연락처 010_7385_2946 / 주민등록번호 900101.1234567\n").encode(), ["EMAIL", "PHONE", "RRN"])
    import base64
    add("base64_only.txt", ("첨부 데이터: " + base64.b64encode(S.encode()).decode() + "\n").encode())
    add("korean_digits_sep.txt", (S.replace(PHONE, "010.7385.2946").replace(RRN, "900101 1234567") + "\n").encode())
    return out


# ---------------------------------------------------------------------------------------------- PDF
def _fpdf(compress=True):
    import logging
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    from fpdf import FPDF
    pdf = FPDF()
    pdf.compress = compress
    pdf.add_font("Nanum", "", str(FONT))
    pdf.set_font("Nanum", size=11)
    pdf.add_page()
    return pdf


def pdf_cases(tmp: Path) -> list[tuple[str, bytes, list[str]]]:
    S, H = SENT, HARMLESS
    out = []

    def add(name, data, vals=ALL):
        out.append((f"pdf/{name}.pdf", bytes(data), list(vals)))

    # plain control
    pdf = _fpdf(); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=S); add("plain", pdf.output())
    # letter-spaced glyphs: each glyph placed on its own
    pdf = _fpdf(); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=H)
    y = 40
    for label, v in (("주민등록번호", RRN), ("연락처", PHONE), ("성명", NAME), ("이메일", EMAIL)):
        pdf.text(20, y, label)
        x = 60
        for ch in v:
            pdf.text(x, y, ch)
            x += 4.2 if ch.isascii() else 6
        y += 10
    add("letterspaced", pdf.output(), ["RRN", "PHONE", "NAME", "EMAIL"])
    # char spacing (Tc)
    pdf = _fpdf(); pdf.set_char_spacing(6); pdf.multi_cell(0, 9, new_x="LMARGIN", new_y="NEXT", text=S); add("charspacing", pdf.output())
    # lying ToUnicode: digits extracted as letters
    pdf = _fpdf(compress=False); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=S)
    raw = bytes(pdf.output())
    import re
    lie = {f"{ord(d):04X}".encode(): f"{ord(c):04X}".encode() for d, c in zip("0123456789", "qwertyuiop")}
    lie.update({f"{ord(c):04X}".encode(): f"{ord(r):04X}".encode() for c, r in zip("김민준", "가나다")})

    def fix(m):
        return m.group(1) + lie.get(m.group(2), m.group(2)) + b">"
    raw2 = re.sub(rb"(<[0-9A-F]{4}> <)([0-9A-F]{4})>", fix, raw)
    add("lying_tounicode", raw2 if raw2 != raw else raw)
    # annotations, metadata, outline, attachment
    pdf = _fpdf(); pdf.set_title(S); pdf.set_author(NAME); pdf.set_subject(f"{RRN} {PHONE}"); pdf.set_keywords(f"{EMAIL} {ADDR}")
    pdf.set_creator(NAME)
    pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=H)
    pdf.text_annotation(20, 60, S)
    pdf.set_xy(10, 90)
    pdf.start_section(f"{NAME} {RRN}")
    pdf.set_x(10)
    pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text="부록")
    try:
        att = tmp / f"{NAME}_{RRN}.txt"
        att.write_text(S, encoding="utf-8")
        pdf.embed_file(att, desc=S)
    except Exception:
        pass
    add("annot_meta_outline_only", pdf.output())
    pdf = _fpdf(); pdf.set_title(S); pdf.set_author(NAME); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=S); pdf.text_annotation(20, 80, S)
    add("annot_meta_copy", pdf.output())
    # white text, tiny text, invisible render mode, text off page
    pdf = _fpdf(); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=H); pdf.set_text_color(255, 255, 255); pdf.multi_cell(0, 7, S)
    add("white_text", pdf.output())
    pdf = _fpdf(); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=H); pdf.set_font_size(1); pdf.multi_cell(0, 1, S)
    add("tiny_text", pdf.output())
    pdf = _fpdf(); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=H)
    from fpdf.enums import TextMode
    pdf.text_mode = TextMode.INVISIBLE; pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=S); pdf.text_mode = TextMode.FILL
    add("invisible_mode", pdf.output())
    pdf = _fpdf(); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=H); pdf.text(-400, 50, S); pdf.text(20, 400, S)
    add("off_page", pdf.output())
    # text under an image
    img = tmp / "cover.png"
    from PIL import Image
    Image.new("RGB", (400, 60), (200, 200, 200)).save(img)
    pdf = _fpdf(); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=H); pdf.set_xy(10, 40); pdf.multi_cell(190, 7, S); pdf.image(str(img), x=5, y=35, w=200, h=30)
    add("under_image", pdf.output())
    # image-only page (a scan)
    from PIL import ImageDraw, ImageFont
    scan = Image.new("RGB", (1654, 700), "white")
    d = ImageDraw.Draw(scan)
    f = ImageFont.truetype(str(FONT), 40)
    d.text((60, 60), f"성명: {NAME}", fill="black", font=f)
    d.text((60, 160), f"주민등록번호: {RRN}", fill="black", font=f)
    d.text((60, 260), f"연락처: {PHONE}", fill="black", font=f)
    scan_p = tmp / "scan.png"; scan.save(scan_p)
    pdf = _fpdf(); pdf.image(str(scan_p), x=0, y=0, w=210)
    add("scan_page", pdf.output(), ["NAME", "RRN", "PHONE"])
    # second page with only a scan after a text page
    pdf = _fpdf(); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=H); pdf.add_page(); pdf.image(str(scan_p), x=0, y=0, w=210)
    add("scan_second_page", pdf.output(), ["NAME", "RRN", "PHONE"])
    # text converted to outlines (filled paths) on a page that also has a text layer
    pdf = _fpdf(); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=H)
    pdf._out(outlined_ops(f"주민등록번호 {RRN}  연락처 {PHONE}", 40, 700, 14))
    pdf._out(outlined_ops(f"성명 {NAME}", 40, 670, 14))
    add("outlined_text", pdf.output(), ["RRN", "PHONE", "NAME"])
    # a form field written by hand + JavaScript
    add("acroform", _acroform_pdf(S))
    # split across lines (each value broken by a line end)
    pdf = _fpdf(); pdf.multi_cell(0, 7, new_x="LMARGIN", new_y="NEXT", text=f"연락처 010-7385-\n2946 주민등록번호 900101-\n1234567 담당자 김민\n준"); add("split_lines", pdf.output(),
                                                                                                     ["PHONE", "RRN", "NAME"])
    return out


def outlined_ops(text: str, x: float, y: float, size: float) -> str:
    """PDF path operators drawing ``text`` as filled glyph outlines (text converted to curves): nothing in
    the text layer, everything in the pixels. Coordinates in points from the bottom-left."""
    from fontTools.pens.basePen import BasePen
    from fontTools.ttLib import TTFont

    class Flat(BasePen):
        def __init__(self, gs):
            super().__init__(gs)
            self.contours, self.cur = [], []

        def _moveTo(self, pt):
            self.cur = [pt]

        def _lineTo(self, pt):
            self.cur.append(pt)

        def _curveToOne(self, p1, p2, p3):
            p0 = self.cur[-1]
            for i in range(1, 7):
                t = i / 6
                m = 1 - t
                self.cur.append(tuple(m ** 3 * a + 3 * m * m * t * b + 3 * m * t * t * c + t ** 3 * d
                                      for a, b, c, d in zip(p0, p1, p2, p3)))

        def _qCurveToOne(self, p1, p2):
            p0 = self.cur[-1]
            for i in range(1, 5):
                t = i / 4
                m = 1 - t
                self.cur.append(tuple(m * m * a + 2 * m * t * b + t * t * c for a, b, c in zip(p0, p1, p2)))

        def _closePath(self):
            if self.cur:
                self.contours.append(self.cur)
            self.cur = []
        _endPath = _closePath

    f = TTFont(str(FONT))
    gs, cmap, upm = f.getGlyphSet(), f.getBestCmap(), f["head"].unitsPerEm
    k = size / upm
    ops = []
    for ch in text:
        g = cmap.get(ord(ch))
        if g is None:
            x += size / 2
            continue
        pen = Flat(gs)
        gs[g].draw(pen)
        for c in pen.contours:
            ops.append(" ".join(f"{x + px * k:.2f} {y + py * k:.2f} {'m' if i == 0 else 'l'}"
                                for i, (px, py) in enumerate(c)) + " h")
        x += gs[g].width * k
    return "0 g " + " ".join(ops) + " f*"


def _acroform_pdf(value: str) -> bytes:
    v16 = "<FEFF" + value.encode("utf-16-be").hex().upper() + ">"
    objs = [
        "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> /Names << /JavaScript << /Names [(a) 6 0 R] >> >> >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Annots [4 0 R] /Contents 5 0 R >>",
        f"<< /Type /Annot /Subtype /Widget /FT /Tx /T {v16} /V {v16} /TU {v16} /Rect [50 700 500 720] /P 3 0 R >>",
        None,
        f"<< /S /JavaScript /JS {v16} >>",
    ]
    content = b"BT /F1 12 Tf 50 750 Td (Form) Tj ET"
    out = bytearray(b"%PDF-1.7\n")
    offs = []
    for i, o in enumerate(objs, 1):
        offs.append(len(out))
        if o is None:
            out += f"{i} 0 obj\n<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream\nendobj\n"
        else:
            out += f"{i} 0 obj\n{o}\nendobj\n".encode()
    x = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for o in offs:
        out += f"{o:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{x}\n%%EOF\n".encode()
    return bytes(out)


# ---------------------------------------------------------------------------------------------- images
def image_cases() -> list[tuple[str, bytes, list[str]]]:
    from PIL import Image, ImageDraw, ImageFont, PngImagePlugin
    out = []
    f = ImageFont.truetype(str(FONT), 36)

    def drawn(lines, size=(1400, 400)):
        img = Image.new("RGB", size, "white")
        d = ImageDraw.Draw(img)
        for i, ln in enumerate(lines):
            d.text((40, 40 + 80 * i), ln, fill="black", font=f)
        return img

    img = drawn([f"성명: {NAME}", f"주민등록번호: {RRN}", f"연락처: {PHONE}"])
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", SENT)
    info.add_itxt("Description", SENT)
    b = io.BytesIO(); img.save(b, "PNG", pnginfo=info)
    out.append(("img/drawn_and_text_chunks.png", b.getvalue(), ["NAME", "RRN", "PHONE", "ADDR", "EMAIL"]))
    # harmless picture, PII only in metadata
    plain = drawn(["회의 사진"], (600, 200))
    b = io.BytesIO(); plain.save(b, "PNG", pnginfo=info)
    out.append(("img/meta_only.png", b.getvalue(), ALL))
    exif = Image.Exif()
    exif[0x010E] = SENT           # ImageDescription
    exif[0x013B] = NAME           # Artist
    exif[0x8298] = f"{EMAIL} {PHONE}"  # Copyright
    b = io.BytesIO(); img.save(b, "JPEG", exif=exif.tobytes(), quality=92, comment=SENT.encode())
    out.append(("img/drawn_exif.jpg", b.getvalue(), ALL))
    b = io.BytesIO(); plain.save(b, "JPEG", exif=exif.tobytes(), comment=SENT.encode())
    out.append(("img/exif_only.jpg", b.getvalue(), ALL))
    return out


def generate(dest: Path) -> list[dict]:
    import tempfile
    inp = dest / "in"
    inp.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as td:
        cases = docx_cases() + hwpx_cases() + text_cases() + pdf_cases(Path(td)) + image_cases()
    manifest = []
    for rel, data, vals in cases:
        path = inp / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        manifest.append({"file": rel, "values": vals})
    (dest / "manifest.json").write_text(json.dumps({"values": VALUES, "files": manifest}, ensure_ascii=False, indent=1),
                                        encoding="utf-8")
    return manifest


def main(argv: list[str]) -> int:
    import argparse
    import subprocess
    import time
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["generate", "run"])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--allow-unreadable", action="store_true")
    ap.add_argument("--no-ocr", action="store_true", help="oracle without OCR of output pages")
    a = ap.parse_args(argv)
    t = time.perf_counter()
    man = generate(a.dir)
    by_fmt: dict[str, int] = {}
    for m in man:
        by_fmt[m["file"].split("/")[0]] = by_fmt.get(m["file"].split("/")[0], 0) + 1
    print(f"generated {len(man)} files in {time.perf_counter() - t:.1f} s: {by_fmt}")
    if a.cmd == "generate":
        return 0
    out = a.dir / "out"
    cmd = [str(ROOT / ".venv/bin/veil-redact"), "redact", str(a.dir / "in"), "--out", str(out), "--threads", "1"]
    if a.allow_unreadable:
        cmd.append("--allow-unreadable")
    print("$", " ".join(cmd))
    t = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(f"veil-redact exit {r.returncode} in {time.perf_counter() - t:.0f} s")
    (a.dir / "summary.txt").write_text(r.stdout + "\n--- stderr ---\n" + r.stderr, encoding="utf-8")
    sys.path.insert(0, str(Path(__file__).parent))
    import leak_oracle
    return leak_oracle.evaluate(a.dir, r.stdout, ocr=not a.no_ocr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
