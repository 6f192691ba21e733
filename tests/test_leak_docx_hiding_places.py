"""DOCX hiding places (issue 10, class 1-2): for each place, a DOCX is built here with a name/number in
that place, opened, every occurrence accepted (as a reviewer would after seeing it), exported, and the
bytes of every output part re-read by the test itself: the value must be gone, or the part removed.
A place the reader does not show would leave the value in clear (or fail the export) — so each test also
asserts the value was *shown* for review."""
from __future__ import annotations

import io
import json
import zipfile

import docx
import pytest

from tests.fixtures.leak_builders import (CT_MAIN, REL, W_NS, assert_gone, make_docx, member_views,
                                          para, rels_xml, redact, wdoc)
from veil_desktop.documents import open_document

NAME = "김민수"
PHONE = "010-2345-6789"
RRN = "900101-1234567"


def _members(path):
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def _export(tmp_path, src, values=None):
    values = values or {NAME: "PERSON"}
    doc, res = redact(src, tmp_path / "out.docx", values)
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.docx", *values)
    docx.Document(str(tmp_path / "out.docx"))  # still a Word file python-docx opens
    return doc, res


def test_text_after_comment_and_pi_inside_w_t(tmp_path):
    body = (f'<w:p><w:r><w:t>담당 김<!-- x -->민수<?pi y?> 님</w:t></w:r></w:p>'
            f'<!-- 사본: {NAME} --><?veil {NAME}?>' + para("끝"))
    src = make_docx(tmp_path / "a.docx", body)
    doc = open_document(src)
    assert "담당 김민수 님" in doc.text  # text after the comment and PI is shown
    _export(tmp_path, src)
    out = _members(tmp_path / "out.docx")["word/document.xml"].decode()
    assert "<!--" not in out and "<?veil" not in out  # comments/PIs are not published


def test_cdata_inside_w_t(tmp_path):
    src = make_docx(tmp_path / "a.docx", f'<w:p><w:r><w:t><![CDATA[담당 {NAME}]]></w:t></w:r></w:p>')
    assert f"담당 {NAME}" in open_document(src).text
    _export(tmp_path, src)


def test_form_field_default_help_status_and_list(tmp_path):
    ff = (f'<w:p><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="신청인 {NAME}"/>'
          f'<w:helpText w:type="text" w:val="예: {PHONE}"/><w:statusText w:type="text" w:val="{RRN}"/>'
          f'<w:textInput><w:default w:val="{NAME}"/></w:textInput><w:ddList><w:listEntry w:val="{NAME} 과장"/>'
          f'</w:ddList></w:ffData></w:fldChar></w:r><w:r><w:t>양식</w:t></w:r></w:p>')
    src = make_docx(tmp_path / "a.docx", ff)
    text = open_document(src).text
    assert f"[Form field] {NAME}" in text and f"[Form field] 예: {PHONE}" in text and RRN in text
    _export(tmp_path, src, {NAME: "PERSON", PHONE: "PHONE", RRN: "RRN"})


def test_content_control_alias_tag_list_items_and_date(tmp_path):
    sdt = (f'<w:sdt><w:sdtPr><w:alias w:val="{NAME} 연락처"/><w:tag w:val="{PHONE}"/>'
           f'<w:date w:fullDate="1990-01-01T00:00:00Z"/><w:comboBox><w:listItem w:displayText="{NAME}" '
           f'w:value="{RRN}"/></w:comboBox></w:sdtPr><w:sdtContent><w:p><w:r><w:t>선택</w:t></w:r></w:p>'
           f'</w:sdtContent></w:sdt>')
    src = make_docx(tmp_path / "a.docx", sdt)
    text = open_document(src).text
    assert f"[Content control] {NAME} 연락처" in text and f"[Content control] {PHONE}" in text
    assert "[Content control] 1990-01-01T00:00:00Z" in text and RRN in text
    _export(tmp_path, src, {NAME: "PERSON", PHONE: "PHONE", RRN: "RRN"})


def test_bookmark_smart_tag_custom_xml_and_hyperlink_attributes(tmp_path):
    body = (f'<w:p><w:bookmarkStart w:id="1" w:name="{NAME}_연락처"/><w:bookmarkEnd w:id="1"/>'
            f'<w:bookmarkStart w:id="2" w:name="_GoBack"/><w:bookmarkEnd w:id="2"/>'
            f'<w:smartTag w:uri="urn:x" w:element="{NAME}"><w:smartTagPr><w:attr w:name="phone" '
            f'w:val="{PHONE}"/></w:smartTagPr><w:r><w:t>태그</w:t></w:r></w:smartTag>'
            f'<w:hyperlink w:anchor="{NAME}" w:tooltip="{PHONE} 으로 전화"><w:r><w:t>링크</w:t></w:r>'
            f'</w:hyperlink></w:p>')
    src = make_docx(tmp_path / "a.docx", body)
    text = open_document(src).text
    # bookmark names are never published as written: renamed on export (issue 26), so not shown
    assert f"{NAME}_연락처" not in text and "_GoBack" not in text
    assert f"[Attribute] {NAME}" in text and f"[Attribute] {PHONE}" in text
    assert f"[Link tooltip] {PHONE} 으로 전화" in text
    _export(tmp_path, src, {NAME: "PERSON", PHONE: "PHONE"})
    out = _members(tmp_path / "out.docx")["word/document.xml"].decode()
    assert 'w:name="_veil_bm1"' in out and 'w:name="_GoBack"' in out and "연락처" not in out


def test_settings_doc_vars_and_mail_merge(tmp_path):
    settings = (f'<?xml version="1.0" encoding="UTF-8"?><w:settings xmlns:w="{W_NS}"><w:mailMerge>'
                f'<w:mainDocumentType w:val="formLetters"/><w:connectString w:val="Provider=x;Data Source='
                f'C:\\{NAME}\\명단.xlsx"/><w:query w:val="SELECT * FROM 명단 WHERE 이름=\'{NAME}\'"/>'
                f'</w:mailMerge><w:docVars><w:docVar w:name="담당자" w:val="{NAME} {PHONE}"/></w:docVars>'
                f'</w:settings>')
    src = make_docx(tmp_path / "a.docx", para("본문"), doc_rels=[("rS", "settings", "settings.xml")],
                    parts={"word/settings.xml": settings})
    text = open_document(src).text
    assert f"[Document variable] {NAME} {PHONE}" in text and "[Mail merge] SELECT" in text
    _export(tmp_path, src, {NAME: "PERSON", PHONE: "PHONE"})


def test_styles_and_numbering_text(tmp_path):
    styles = (f'<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="{W_NS}"><w:style w:type="paragraph" '
              f'w:styleId="a"><w:name w:val="{NAME} 서식"/><w:rPr><w:rFonts w:eastAsia="맑은 고딕"/></w:rPr>'
              f'</w:style></w:styles>')
    numbering = (f'<?xml version="1.0" encoding="UTF-8"?><w:numbering xmlns:w="{W_NS}"><w:abstractNum '
                 f'w:abstractNumId="0"><w:nsid w:val="1A2B3C4D"/><w:lvl w:ilvl="0"><w:lvlText w:val="{NAME} %1."/>'
                 f'</w:lvl></w:abstractNum></w:numbering>')
    src = make_docx(tmp_path / "a.docx", para("본문"),
                    doc_rels=[("rS", "styles", "styles.xml"), ("rN", "numbering", "numbering.xml")],
                    parts={"word/styles.xml": styles, "word/numbering.xml": numbering})
    text = open_document(src).text
    assert f"{NAME} 서식" in text and f"{NAME} %1." in text
    assert "맑은 고딕" not in text and "1A2B3C4D" not in text  # fonts and ids are not text
    _export(tmp_path, src)


def test_renamed_main_part_and_oddly_named_header(tmp_path):
    hdr = wdoc(para(f"머리글 {NAME}"), "hdr").replace("<w:body>", "").replace("</w:body>", "")
    body = para(f"본문 {PHONE}") + '<w:sectPr><w:headerReference w:type="default" r:id="rH"/></w:sectPr>'
    src = make_docx(tmp_path / "a.docx", body, main="word/main.xml",
                    doc_rels=[("rH", "header", "kopf-x.xml")], parts={"word/kopf-x.xml": hdr})
    doc = open_document(src)
    assert doc.parts[0].source == "word/main.xml" and doc.parts[0].kind == "body"
    assert f"── Header 1 ──\n머리글 {NAME}" in doc.text
    _export(tmp_path, src, {NAME: "PERSON", PHONE: "PHONE"})


def test_glossary_chartex_and_custom_xml_of_any_name(tmp_path):
    gloss = wdoc(para(f"상용구 {NAME}"), "glossaryDocument").replace("<w:body>", "<w:docParts><w:docPart>"
                                                                   "<w:docPartBody>").replace(
        "</w:body>", "</w:docPartBody></w:docPart></w:docParts>")
    chartex = ('<?xml version="1.0" encoding="UTF-8"?><cx:chartSpace xmlns:cx="http://schemas.microsoft.com/'
               f'office/drawing/2014/chartex"><cx:chartData><cx:data id="0"><cx:strDim type="cat"><cx:lvl '
               f'ptCount="1"><cx:pt idx="0">{NAME}</cx:pt></cx:lvl></cx:strDim></cx:data></cx:chartData>'
               '</cx:chartSpace>')
    custom = f'<?xml version="1.0"?><직원 이름="{NAME}" xmlns="urn:x"><전화>{PHONE}</전화></직원>'
    src = make_docx(tmp_path / "a.docx", para("본문"),
                    doc_rels=[("rG", "glossaryDocument", "glossary/document.xml"),
                              ("rC", "http://schemas.microsoft.com/office/2014/relationships/chartEx",
                               "charts/chartEx1.xml"),
                              ("rX", "customXml", "../customXml/employee-data.xml")],
                    parts={"word/glossary/document.xml": gloss, "word/charts/chartEx1.xml": chartex,
                           "customXml/employee-data.xml": custom})
    text = open_document(src).text
    assert f"상용구 {NAME}" in text and f"\n{NAME}\n" in text and PHONE in text
    assert f"[Attribute] {NAME}" in text  # attribute of a custom XML part
    _export(tmp_path, src, {NAME: "PERSON", PHONE: "PHONE"})


def test_unreferenced_xml_part_is_reviewed(tmp_path):
    src = make_docx(tmp_path / "a.docx", para("본문"),
                    parts={"word/stray-notes.xml": f'<?xml version="1.0"?><메모 작성="{PHONE}">{NAME} 님</메모>'})
    text = open_document(src).text
    assert f"{NAME} 님" in text and "Other document data" in text
    _export(tmp_path, src, {NAME: "PERSON", PHONE: "PHONE"})


def test_app_xml_template_and_core_metadata_are_reviewed_and_written_back(tmp_path):
    app = ('<?xml version="1.0"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
           f'extended-properties"><Template>{NAME}_양식.dotm</Template><Company>한빛</Company>'
           f'<Manager>{NAME}</Manager><Pages>1</Pages></Properties>')
    core = ('<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
            'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>'
            f'{NAME} 이력서</dc:title><dc:creator>이창호</dc:creator><cp:lastModifiedBy>조훈현'
            '</cp:lastModifiedBy></cp:coreProperties>')
    src = make_docx(tmp_path / "a.docx", para("본문"),
                    root_rels=[("rA", "extended-properties", "docProps/app.xml"),
                               ("rC", "http://schemas.openxmlformats.org/package/2006/relationships/metadata/"
                                "core-properties", "docProps/core.xml")],
                    parts={"docProps/app.xml": app, "docProps/core.xml": core})
    doc = open_document(src)
    meta = doc.text[doc.text.index("── Document properties"):]
    assert f"[Template] {NAME}_양식.dotm" in meta and f"[Title] {NAME} 이력서" in meta
    removed = doc.text[doc.parts[-1].start:]
    assert doc.parts[-1].removed and "[Author] 이창호" in removed and "[Last modified by] 조훈현" in removed
    assert f"[Manager] {NAME}" in removed
    _export(tmp_path, src)
    views = member_views(tmp_path / "out.docx")
    assert "[PERSON] 이력서" in views["docProps/core.xml"] and "이창호" not in views["docProps/core.xml"]
    assert "조훈현" not in views["docProps/core.xml"] and "[PERSON]_양식.dotm" in views["docProps/app.xml"]


_ALTCHUNK_HTML = f"<html><body><p>숨은 내용 {NAME} {PHONE}</p></body></html>".encode("utf-8")


@pytest.mark.parametrize("kind", ["altChunk", "vbaProject", "oleObject", "unreferenced binary"])
def test_unreviewable_parts_are_removed_and_reported(tmp_path, kind):
    body = para(f"본문 {NAME}")
    doc_rels, parts, overrides, main_type = [], {}, {}, CT_MAIN
    if kind == "altChunk":
        body += '<w:altChunk r:id="rA"/>'
        doc_rels = [("rA", "aFChunk", "afchunk.htm")]
        parts = {"word/afchunk.htm": _ALTCHUNK_HTML}
    elif kind == "vbaProject":
        doc_rels = [("rV", "http://schemas.microsoft.com/office/2006/relationships/vbaProject",
                     "vbaProject.bin")]
        parts = {"word/vbaProject.bin": b"\xd0\xcf\x11\xe0" + f"Sub x() ' {NAME}".encode("utf-16-le")}
        overrides = {"word/vbaProject.bin": "application/vnd.ms-office.vbaProject"}
        main_type = "application/vnd.ms-word.document.macroEnabled.main+xml"
    elif kind == "oleObject":
        body += ('<w:p><w:r><w:object><o:OLEObject xmlns:o="urn:schemas-microsoft-com:office:office" '
                 'Type="Embed" ProgID="Excel.Sheet.12" r:id="rO"/></w:object></w:r></w:p>')
        doc_rels = [("rO", "oleObject", "embeddings/oleObject1.bin")]
        parts = {"word/embeddings/oleObject1.bin": b"\xd0\xcf\x11\xe0" + f"{NAME} {PHONE}".encode("utf-16-le")}
    else:
        parts = {"word/secret.dat": b"\x00\x01" + f"{NAME} {PHONE}".encode("utf-16-le")}
    src = make_docx(tmp_path / "a.docx", body, doc_rels=doc_rels, parts=parts, overrides=overrides,
                    main_type=main_type)
    doc = open_document(src)
    if kind == "altChunk":  # what is dropped is shown (not written): "숨은 내용 김민수 010-…"
        removed = doc.text[doc.parts[-1].start:]
        assert doc.parts[-1].removed and f"[Embedded HTML/RTF (removed)] 숨은 내용 {NAME} {PHONE}" in removed
    removed_member = next(iter(parts))
    assert doc.extra["removed_members"] == [removed_member]
    assert any("Removed from the export" in n for n in doc.notes)
    _doc, res = _export(tmp_path, src, {NAME: "PERSON"})
    assert_gone(tmp_path / "out.docx", PHONE, "숨은 내용", "Sub x()")  # only in the removed part
    out = _members(tmp_path / "out.docx")
    assert removed_member not in out
    rels = out["word/_rels/document.xml.rels"].decode()
    assert removed_member.split("/", 1)[1] not in rels
    assert "altChunk" not in out["word/document.xml"].decode()
    assert "OLEObject" not in out["word/document.xml"].decode()
    assert "macroEnabled" not in out["[Content_Types].xml"].decode()
    report = json.loads((tmp_path / "out.docx.report.json").read_text("utf-8"))
    assert any("Removed from the export" in w for w in report["warnings"])


def test_comment_author_shown_in_caption_and_blanked(tmp_path):
    comments = (f'<?xml version="1.0"?><w:comments xmlns:w="{W_NS}"><w:comment w:id="0" w:author="{NAME}" '
                f'w:initials="KM">{para("확인 부탁")}</w:comment></w:comments>')
    src = make_docx(tmp_path / "a.docx", para("본문"), doc_rels=[("rC", "comments", "comments.xml")],
                    parts={"word/comments.xml": comments})
    doc = open_document(src)
    assert f"── Comments ──\n\n[Comment {NAME}] \n확인 부탁" in doc.text or \
        f"[Comment {NAME}] \n확인 부탁" in doc.text
    cap = next(c for c in doc.captions if c.key == "comment")
    assert cap.detail == NAME
    redact(src, tmp_path / "out.docx", {"확인": "OTHER"})
    assert_gone(tmp_path / "out.docx", NAME, 'initials="KM"')


def _png(text_chunk: bytes = b"") -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    raw = zlib.compress(b"\x00\xff\x00\x00")
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + (chunk(b"tEXt", text_chunk) if text_chunk else b"") + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


def test_part_names_and_picture_metadata(tmp_path):
    """A name in a part's file name (never reviewed) and in a picture's text metadata: the part gets a
    neutral name (relationships and content types follow), the metadata is stripped, pixels kept."""
    from PIL import Image

    body = ('<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/'
            'wordprocessingDrawing"><wp:extent cx="9525" cy="9525"/><wp:docPr id="1" name="Picture 1"/>'
            '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="'
            'http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.'
            'openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" name="x.png"/>'
            '<pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rP"/></pic:blipFill><pic:spPr/>'
            '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>') + para("사진")
    src = make_docx(tmp_path / "a.docx", body,
                    doc_rels=[("rP", "image", "media/%EA%B9%80%EB%AF%BC%EC%88%98.png")],
                    parts={f"word/media/{NAME}.png": _png(b"Author\x00" + "이창호".encode("utf-8"))})
    redact(src, tmp_path / "out.docx", {"사진": "OTHER"})
    assert_gone(tmp_path / "out.docx", NAME, "이창호", "Author")
    out = _members(tmp_path / "out.docx")
    pics = [n for n in out if n.startswith("word/media/")]
    assert pics == ["word/media/image1.png"]      # the package grammar's name (opc.rebuild_docx)
    assert 'Target="media/image1.png"' in out["word/_rels/document.xml.rels"].decode()
    assert Image.open(io.BytesIO(out[pics[0]])).getpixel((0, 0)) == (255, 0, 0)
    d = docx.Document(str(tmp_path / "out.docx"))
    assert d.inline_shapes[0].type is not None and len(d.inline_shapes) == 1


def test_txt_export_leaves_out_the_removed_part(tmp_path):
    """Authors and tracked deletions are shown for review in a removed part; a TXT export must not
    write them (they are not in the plan, so the leak check could not catch them)."""
    core = ('<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
            'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>이창호'
            '</dc:creator></cp:coreProperties>')
    body = para("본문") + f'<w:p><w:del w:id="1" w:author="x"><w:r><w:delText>{RRN}</w:delText></w:r></w:del></w:p>'
    src = make_docx(tmp_path / "a.docx", body, parts={"docProps/core.xml": core},
                    root_rels=[("rC", "http://schemas.openxmlformats.org/package/2006/relationships/metadata/"
                                "core-properties", "docProps/core.xml")])
    doc = open_document(src)
    assert "이창호" in doc.text and RRN in doc.text and doc.parts[-1].removed
    redact(src, tmp_path / "o.txt", {"본문": "OTHER"})
    out = (tmp_path / "o.txt").read_text("utf-8")
    assert "이창호" not in out and RRN not in out and "Removed from the export" not in out
    assert "[OTHER]" in out


def test_table_rows_with_content_controls_and_multi_paragraph_cells():
    import tempfile
    from pathlib import Path

    cell = lambda *ps: "<w:tc>" + "".join(para(p) for p in ps) + "</w:tc>"  # noqa: E731
    sdt_cell = (f'<w:sdt><w:sdtPr/><w:sdtContent><w:tc><w:sdt><w:sdtContent>{para(NAME)}</w:sdtContent>'
                f'</w:sdt></w:tc></w:sdtContent></w:sdt>')
    body = (f"<w:tbl><w:tr>{cell('이름')}{sdt_cell}{cell('서울특별시 종로구', '세종대로 175')}</w:tr>"
            f"<w:tr>{cell('전화')}{cell(PHONE)}{cell('')}</w:tr></w:tbl>" + para("끝"))
    src = make_docx(Path(tempfile.mkdtemp()) / "t.docx", body)
    text = open_document(src).text
    assert f"이름 | {NAME} | 서울특별시 종로구 세종대로 175\n전화 | {PHONE} | \n끝\n" in text


def test_percent_encoded_link_target_is_shown_decoded_and_masked(tmp_path):
    from urllib.parse import quote

    target = f"https://example.kr/search?q={quote(NAME)}&tel={quote(PHONE)}"
    src = make_docx(tmp_path / "a.docx", '<w:p><w:hyperlink r:id="rL"><w:r><w:t>검색</w:t></w:r></w:hyperlink></w:p>',
                    doc_rels=[("rL", "hyperlink", target.replace("&", "&amp;"), "External")])
    text = open_document(src).text
    assert f"https://example.kr/search?q={NAME}&tel={PHONE}" in text   # decoded for the reviewer
    _export(tmp_path, src, {NAME: "PERSON", PHONE: "PHONE"})
    rels = _members(tmp_path / "out.docx")["word/_rels/document.xml.rels"].decode()
    assert "q=[PERSON]&amp;tel=[PHONE]" in rels


def test_txt_export_does_not_write_the_comment_author(tmp_path):
    comments = (f'<?xml version="1.0"?><w:comments xmlns:w="{W_NS}"><w:comment w:id="0" w:author="{NAME}">'
                f'{para("확인 부탁")}</w:comment></w:comments>')
    src = make_docx(tmp_path / "a.docx", para("본문"), doc_rels=[("rC", "comments", "comments.xml")],
                    parts={"word/comments.xml": comments})
    redact(src, tmp_path / "o.txt", {"본문": "OTHER"})
    out = (tmp_path / "o.txt").read_text("utf-8")
    assert NAME not in out and "[Comment] \n확인 부탁" in out


def test_two_text_boxes_in_one_paragraph_stay_in_order(tmp_path):
    def box(t):
        return ('<w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent>'
                + para(t) + '</w:txbxContent></v:textbox></v:shape></w:pict></w:r>')
    body = f'<w:p><w:r><w:t>앞</w:t></w:r>{box("상자1 " + NAME)}{box("상자2 " + PHONE)}<w:r><w:t>뒤</w:t></w:r></w:p>'
    src = make_docx(tmp_path / "a.docx", body)
    text = open_document(src).text
    assert text.startswith(f"앞뒤\n[Text box] 상자1 {NAME}\n[Text box] 상자2 {PHONE}\n"), text
    _export(tmp_path, src, {NAME: "PERSON", PHONE: "PHONE"})
