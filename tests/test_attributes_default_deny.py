"""Issue 26, class 2: attribute values are default deny. A value is kept unseen only when it has a known
harmless grammar (``xmlwalk.harmless_value``: ids, sizes, colours, rsids, enumerations, booleans,
measurements, part paths, schema URIs, font names); every other value is shown for review in its part
or neutralised by the writer (bookmark names renamed, local-file / tel links, sub-document and template
relationships removed, mailto queries cut). Each hostile case asserts on the output's bytes (raw and
decompressed, ``assert_gone``) that the planted value is gone; an ordinary python-docx file keeps its
harmless attributes and shows no attribute noise for review."""
from __future__ import annotations

import zipfile

import docx
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from lxml import etree

from tests.fixtures.leak_builders import (REL, W_NS, assert_gone, make_docx, member_views, para,
                                          redact)
from veil_desktop.documents import open_document
from veil_desktop.documents.xmlwalk import _font_name_personal, harmless_value, textual_attribute

NAME = "김민수"
RRN_DIGITS = "9001011234567"
PHONE_DIGITS = "01023456789"
ACCOUNT = "110234567890"
CT_CUSTOM = "application/vnd.openxmlformats-officedocument.customXmlProperties+xml"


def _members(path):
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def test_custom_xml_all_digit_attributes_and_bound_control_are_reviewed(tmp_path):
    item = (f'<?xml version="1.0"?><ns0:person xmlns:ns0="urn:hr" ns0:rrn="{RRN_DIGITS}" '
            f'phone="{PHONE_DIGITS}" account="{ACCOUNT}" version="1"><ns0:name>{NAME}</ns0:name>'
            f'<ns0:tel kind="{PHONE_DIGITS}"/></ns0:person>')
    body = ('<w:sdt><w:sdtPr><w:dataBinding w:prefixMappings="xmlns:ns0=\'urn:hr\'" '
            'w:xpath="/ns0:person[1]/ns0:name[1]" w:storeItemID="{11111111-2222-3333-4444-555555555555}"/>'
            f'</w:sdtPr><w:sdtContent><w:r><w:t>{NAME}</w:t></w:r></w:sdtContent></w:sdt>' + para("본문"))
    src = make_docx(tmp_path / "a.docx", body, doc_rels=[("rC", "customXml", "../customXml/item1.xml")],
                    parts={"customXml/item1.xml": item})
    text = open_document(src).text
    for v in (RRN_DIGITS, PHONE_DIGITS, ACCOUNT):
        assert f"[Attribute] {v}" in text            # an all-digit value is data, not an id
    assert "[Attribute] 1\n" not in text and "storeItemID" not in text and "/ns0:person" not in text
    values = {NAME: "PERSON", RRN_DIGITS: "RRN", PHONE_DIGITS: "PHONE", ACCOUNT: "ACCOUNT"}
    _doc, res = redact(src, tmp_path / "out.docx", values)
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.docx", *values)
    out = _members(tmp_path / "out.docx")
    assert b'version="1"' in out["customXml/item1.xml"]                  # the harmless one is kept
    assert b"{11111111-2222-3333-4444-555555555555}" in out["word/document.xml"]


def test_local_file_tel_and_mailto_links_are_neutralised(tmp_path):
    account = "choigogaek"
    body = (f'<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" '
            f'xmlns:o="urn:schemas-microsoft-com:office:office" id="s1"><v:imagedata '
            f'o:href="file:///C:/Users/{account}/Pictures/scan.jpg" o:title=""/></v:shape></w:pict></w:r></w:p>'
            f'<w:p><w:hyperlink r:id="rTel"><w:r><w:t>전화하기</w:t></w:r></w:hyperlink>'
            f'<w:hyperlink r:id="rMail"><w:r><w:t>메일</w:t></w:r></w:hyperlink>'
            f'<w:hyperlink r:id="rUnc"><w:r><w:t>공유폴더</w:t></w:r></w:hyperlink>'
            f'<w:hyperlink r:id="rWeb"><w:r><w:t>누리집</w:t></w:r></w:hyperlink></w:p>' + para(NAME))
    rels = [("rTel", "hyperlink", f"tel:{PHONE_DIGITS}", "External"),
            ("rMail", "hyperlink", "mailto:office@example.kr?subject=secretsubject&amp;body=secretbody",
             "External"),
            ("rUnc", "hyperlink", f"\\\\fileserver\\{account}\\docs", "External"),
            ("rWeb", "hyperlink", "https://www.example.org/docs", "External")]
    src = make_docx(tmp_path / "a.docx", body, doc_rels=rels)
    text = open_document(src).text
    assert f"file:///C:/Users/{account}" in text          # shown for review (not a harmless value)
    _doc, res = redact(src, tmp_path / "out.docx", {NAME: "PERSON"})   # the reviewer masks only the name
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.docx", NAME, account, PHONE_DIGITS, "secretsubject", "secretbody",
                "file:///", "tel:")
    out = _members(tmp_path / "out.docx")
    rels_out = out["word/_rels/document.xml.rels"].decode()
    assert "mailto:office@example.kr" in rels_out and "https://www.example.org/docs" in rels_out
    d = docx.Document(str(tmp_path / "out.docx"))
    assert d.paragraphs[1].text == "전화하기메일공유폴더누리집"   # link text kept, the link gone
    doc_xml = out["word/document.xml"].decode()
    assert doc_xml.count("<w:hyperlink") == 4 and doc_xml.count("r:id=") == 2


def test_sub_document_and_attached_template_relationships_are_removed(tmp_path):
    account = "choigogaek"
    settings = f'<w:settings xmlns:w="{W_NS}" xmlns:r="{REL[:-1]}"><w:attachedTemplate r:id="rT"/></w:settings>'
    src = make_docx(
        tmp_path / "a.docx", para(NAME) + '<w:subDoc r:id="rSub"/>' + para("끝"),
        doc_rels=[("rSub", "subDocument", f"file:///C:/Users/{account}/chapter1.docx", "External"),
                  ("rS", "settings", "settings.xml")],
        parts={"word/settings.xml": settings,
               "word/_rels/settings.xml.rels":
                   '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
                   f'2006/relationships"><Relationship Id="rT" Type="{REL}attachedTemplate" Target="file:///'
                   f'C:/Users/{account}/AppData/Roaming/Microsoft/Templates/Normal.dotm" TargetMode='
                   '"External"/></Relationships>'})
    _doc, res = redact(src, tmp_path / "out.docx", {NAME: "PERSON"})
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.docx", NAME, account, "chapter1", "Normal.dotm")
    out = _members(tmp_path / "out.docx")
    assert b"subDoc" not in out["word/document.xml"] and b"attachedTemplate" not in out["word/settings.xml"]
    docx.Document(str(tmp_path / "out.docx"))


def test_bookmark_names_are_renamed_with_every_reference(tmp_path):
    bm = "900101_1234567"
    body = (f'<w:p><w:bookmarkStart w:id="3" w:name="{bm}"/><w:r><w:t>표시</w:t></w:r>'
            f'<w:bookmarkEnd w:id="3"/><w:bookmarkStart w:id="4" w:name="_GoBack"/><w:bookmarkEnd w:id="4"/></w:p>'
            f'<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> REF '
            f'{bm} \\h </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
            f'<w:fldSimple w:instr=" PAGEREF {bm} "><w:r><w:t>1</w:t></w:r></w:fldSimple>'
            f'<w:hyperlink w:anchor="{bm}"><w:r><w:t>이동</w:t></w:r></w:hyperlink></w:p>' + para(NAME))
    src = make_docx(tmp_path / "a.docx", body)
    _doc, res = redact(src, tmp_path / "out.docx", {NAME: "PERSON"})   # nobody masks the bookmark
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.docx", NAME, "900101", "1234567")
    out = _members(tmp_path / "out.docx")["word/document.xml"].decode()
    assert 'w:name="_veil_bm1"' in out and 'w:name="_GoBack"' in out
    assert "REF _veil_bm1 \\h" in out and 'w:instr=" PAGEREF _veil_bm1 "' in out
    assert 'w:anchor="_veil_bm1"' in out


def test_chart_caches_are_reviewed_as_text(tmp_path):
    c = "http://schemas.openxmlformats.org/drawingml/2006/chart"
    chart = (f'<?xml version="1.0"?><c:chartSpace xmlns:c="{c}"><c:chart><c:plotArea><c:barChart><c:ser>'
             f'<c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0">'
             f'<c:v>{NAME} 실적</c:v></c:pt></c:strCache></c:strRef></c:tx><c:val><c:numRef><c:numCache>'
             f'<c:formatCode>General</c:formatCode><c:ptCount val="1"/><c:pt idx="0"><c:v>{PHONE_DIGITS}</c:v>'
             f'</c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>')
    src = make_docx(tmp_path / "a.docx", para("차트"), doc_rels=[("rCh", "chart", "charts/chart1.xml")],
                    parts={"word/charts/chart1.xml": chart})
    text = open_document(src).text
    assert f"{NAME} 실적" in text and PHONE_DIGITS in text
    _doc, res = redact(src, tmp_path / "out.docx", {NAME: "PERSON", PHONE_DIGITS: "PHONE"})
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.docx", NAME, PHONE_DIGITS)
    assert b'<c:ptCount val="1"/>' in _members(tmp_path / "out.docx")["word/charts/chart1.xml"]


@pytest.mark.parametrize("font,personal", [
    ("맑은 고딕", False), ("바탕체", False), ("HY견고딕", False), ("함초롬바탕", False), ("나눔고딕", False),
    ("굴림체", False), ("Times New Roman", False), ("@맑은 고딕", False), ("ＭＳ 明朝", False),
    ("宋体", False), ("홍길동체", True), ("김민수 010-2345-6789", True), ("hong@example.com", True),
    ("Arial 9001011234567", True)])
def test_font_names_need_a_font_grammar(font, personal):
    assert _font_name_personal(font) is personal


def test_person_named_font_is_shown_and_masked(tmp_path):
    font = f"{NAME}체"
    body = (f'<w:p><w:r><w:rPr><w:rFonts w:ascii="Calibri" w:eastAsia="{font}"/></w:rPr>'
            f'<w:t>글꼴</w:t></w:r></w:p>')
    src = make_docx(tmp_path / "a.docx", body)
    assert f"[Attribute] {font}" in open_document(src).text
    _doc, res = redact(src, tmp_path / "out.docx", {NAME: "PERSON"})
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.docx", NAME)
    assert b'w:ascii="Calibri"' in _members(tmp_path / "out.docx")["word/document.xml"]


@pytest.mark.parametrize("attr,value,ok", [
    ("w:rsidR", "00A1B2C3", True), ("w:w", "9360", True), ("w:color", "FF0000", True),
    ("w:val", "single", True), ("w:type", "dxa", True), ("w14:paraId", "1A2B3C4D", True),
    ("style", "position:absolute;margin-left:0;width:100pt", True), ("mc:Ignorable", "w14 w15 wp14", True),
    ("coordsize", "21600,21600", True), ("w:id", "12", True), ("w:val", "heading 1", True),
    ("w:val", RRN_DIGITS, False), ("w:val", PHONE_DIGITS, False), ("w:val", "851203_1234567", False),
    ("w:val", NAME, False), ("w:val", "hong@example.com", False), ("href", "file:///C:/Users/x/a", False),
    ("w:val", "tel:01023456789", False), ("w:id", "9001011234567", False),
])
def test_harmless_grammar_is_checked_on_the_value(attr, value, ok):
    ns = {"w": W_NS, "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
          "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006"}
    prefix, _, local = attr.rpartition(":")
    name = f"{{{ns[prefix]}}}{local}" if prefix else local
    el = etree.Element(f"{{{W_NS}}}name" if local == "val" else f"{{{W_NS}}}x")
    el.set(name, value)
    assert harmless_value(el, name, value) is ok
    assert textual_attribute(el, name, value) is (not ok)


def _count_attrs(data: bytes) -> int:
    root = etree.fromstring(data)
    return sum(len(el.attrib) for el in root.iter() if isinstance(el.tag, str))


def test_an_ordinary_python_docx_file_keeps_its_harmless_attributes(tmp_path):
    d = docx.Document()
    d.add_heading("보고서 제목", 1)
    p = d.add_paragraph(f"담당자 {NAME} 님께 ")
    p.add_run("굵게").bold = True
    bs, be = OxmlElement("w:bookmarkStart"), OxmlElement("w:bookmarkEnd")
    bs.set(qn("w:id"), "0"), bs.set(qn("w:name"), "Section_One"), be.set(qn("w:id"), "0")
    p._p.append(bs), p._p.append(be)
    rid = d.part.relate_to("https://www.example.org/docs", REL + "hyperlink", is_external=True)
    h = OxmlElement("w:hyperlink")
    h.set(qn("r:id"), rid)
    r, t = OxmlElement("w:r"), OxmlElement("w:t")
    t.text = "링크"
    r.append(t), h.append(r), p._p.append(h)
    table = d.add_table(rows=2, cols=2)
    table.style = "Table Grid"
    table.cell(0, 0).text, table.cell(1, 1).text = "이름", "값"
    d.add_paragraph("목록", style="List Bullet")
    src = tmp_path / "plain.docx"
    d.save(str(src))
    doc = open_document(src)
    assert "[Attribute]" not in doc.text and "Section_One" not in doc.text   # no attribute noise
    _doc, res = redact(src, tmp_path / "out.docx", {NAME: "PERSON"})
    assert res.leak_check["result"] == "clean"
    before, after = _members(src), _members(tmp_path / "out.docx")
    kept = 0
    for part in ("word/document.xml", "word/styles.xml", "word/numbering.xml", "word/settings.xml",
                 "word/theme/theme1.xml", "word/fontTable.xml", "word/_rels/document.xml.rels"):
        assert _count_attrs(after[part]) == _count_attrs(before[part]), part
        kept += _count_attrs(after[part])
    assert kept > 1000                                  # styles, latent styles, theme: all kept
    out_doc = after["word/document.xml"].decode()
    assert 'w:name="_veil_bm1"' in out_doc and "Section_One" not in out_doc
    assert "https://www.example.org/docs" in after["word/_rels/document.xml.rels"].decode()
    o = docx.Document(str(tmp_path / "out.docx"))
    assert o.tables[0].style.name == "Table Grid" and o.paragraphs[-1].style.name == "List Bullet"
    assert not any(NAME in v for v in member_views(tmp_path / "out.docx").values())


def test_hwpx_bookmark_and_memo_attributes_are_reviewed(tmp_path):
    from tests.fixtures.leak_builders import hp, make_hwpx
    bm = "900101_1234567"
    sec = (hp("본문") + f'<hp:p id="1"><hp:run charPrIDRef="0"><hp:ctrl><hp:bookmark name="{bm}"/></hp:ctrl>'
           f'<hp:t>책갈피</hp:t></hp:run></hp:p>')
    src = make_hwpx(tmp_path / "a.hwpx", sec, header=f'<hh:memoProperties><hh:memoPr id="1" width="15591" '
                                                      f'lineColor="#000000" memoShapeName="{NAME} 메모"/>'
                                                      '</hh:memoProperties>')
    text = open_document(src).text
    assert f"[Attribute] {bm}" in text and f"[Attribute] {NAME} 메모" in text
    assert "[Attribute] #000000" not in text and "[Attribute] 15591" not in text
    _doc, res = redact(src, tmp_path / "out.hwpx", {bm: "RRN", NAME: "PERSON"})
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.hwpx", NAME, "900101", "1234567")
    with zipfile.ZipFile(tmp_path / "out.hwpx") as z:
        assert b'lineColor="#000000"' in z.read("Contents/header.xml")
