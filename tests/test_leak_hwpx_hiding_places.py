"""HWPX hiding places (issue 10 class 2, issue 16 structure): each built here, exported, every output
member re-read by the test; the value must be gone or its member removed, and it must have been shown."""
from __future__ import annotations

import zipfile

from tests.fixtures.leak_builders import assert_gone, hp, make_hwpx, member_views, redact
from veil_desktop.documents import open_document

NAME = "김민수"
PHONE = "010-2345-6789"


def _names(path):
    with zipfile.ZipFile(path) as z:
        return z.namelist()


def test_header_xml_and_settings_are_reviewed(tmp_path):
    header = (f'<hh:refList><hh:styles itemCnt="1"><hh:style id="0" type="PARA" name="{NAME} 서식" '
              f'engName="Normal"/></hh:styles></hh:refList><hh:fontfaces><hh:fontface lang="HANGUL">'
              f'<hh:font id="0" face="함초롬바탕"/></hh:fontface></hh:fontfaces>')
    settings = (f'<?xml version="1.0"?><ha:HWPApplicationSetting xmlns:ha="http://www.hancom.co.kr/hwpml/2011/'
                f'app"><ha:CaretPosition listIDRef="0" memo="{PHONE}"/></ha:HWPApplicationSetting>')
    src = make_hwpx(tmp_path / "a.hwpx", hp("본문"), header=header, extra={"settings.xml": settings})
    text = open_document(src).text
    assert f"[Attribute] {NAME} 서식" in text and f"[Attribute] {PHONE}" in text
    assert "함초롬바탕" not in text
    redact(src, tmp_path / "o.hwpx", {NAME: "PERSON", PHONE: "PHONE"})
    assert_gone(tmp_path / "o.hwpx", NAME, PHONE)


def test_scripts_and_ole_bindata_removed_picture_names_neutral(tmp_path):
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
    items = (f'<opf:item id="s" href="Scripts/headerScripts" media-type="application/x-javascript"/>'
             f'<opf:item id="img" href="BinData/{NAME}.png" media-type="image/png"/>'
             f'<opf:item id="ole" href="BinData/BIN0001.OLE" media-type="application/ole"/>')
    src = make_hwpx(tmp_path / "a.hwpx", hp(f"본문 {NAME}"), manifest_items=items, extra={
        "Scripts/headerScripts": f"var who = '{NAME} {PHONE}';".encode("utf-16-le"),
        f"BinData/{NAME}.png": png,
        "BinData/BIN0001.OLE": b"\xd0\xcf\x11\xe0" + PHONE.encode("utf-16-le")})
    doc = open_document(src)
    assert doc.extra["removed_members"] == ["BinData/BIN0001.OLE", "Scripts/headerScripts"]
    assert any("Removed from the export" in n for n in doc.notes)
    _doc, res = redact(src, tmp_path / "o.hwpx", {NAME: "PERSON"})
    assert res.leak_check["result"] == "clean"
    names = _names(tmp_path / "o.hwpx")
    assert "Scripts/headerScripts" not in names and "BinData/BIN0001.OLE" not in names
    assert "BinData/image1.png" in names
    assert_gone(tmp_path / "o.hwpx", NAME, PHONE, "headerScripts", "BIN0001")
    hpf = member_views(tmp_path / "o.hwpx")["Contents/content.hpf"]
    assert 'href="BinData/image1.png"' in hpf


def test_field_name_attribute_and_parameters_without_internal_names(tmp_path):
    field = (f'<hp:p id="0"><hp:run charPrIDRef="0"><hp:ctrl><hp:fieldBegin type="MEMO" name="{NAME}">'
             f'<hp:parameters><hp:stringParam name="Author">{NAME}</hp:stringParam>'
             f'<hp:stringParam name="Command">tel:{PHONE}</hp:stringParam></hp:parameters></hp:fieldBegin>'
             f'</hp:ctrl><hp:t>연락</hp:t></hp:run></hp:p>')
    src = make_hwpx(tmp_path / "a.hwpx", field,
                    extra={"Preview/PrvText.txt": f"연락 {NAME}".encode("utf-8")})
    text = open_document(src).text
    assert f"[Field] {NAME}\n" in text and f"[Field] tel:{PHONE}" in text
    assert "stringParam" not in text and "Command" not in text and "Author" not in text
    redact(src, tmp_path / "o.hwpx", {NAME: "PERSON", PHONE: "PHONE"})
    assert_gone(tmp_path / "o.hwpx", NAME, PHONE)
    with zipfile.ZipFile(tmp_path / "o.hwpx") as z:
        prv = z.read("Preview/PrvText.txt").decode("utf-8")
    assert prv == "연락" and "Field" not in prv  # preview: body text only


def test_footnote_and_table_structure(tmp_path):
    sec = ('<hp:p id="0"><hp:run charPrIDRef="0"><hp:t>선정되었습니다.</hp:t><hp:ctrl><hp:footNote number="1">'
           f'<hp:subList>{hp(NAME + " 님의 추천")}</hp:subList></hp:footNote></hp:ctrl><hp:t> 다음 문장</hp:t>'
           '</hp:run></hp:p>'
           '<hp:p id="1"><hp:run charPrIDRef="0"><hp:tbl><hp:tr><hp:tc><hp:subList>' + hp("이름") +
           '</hp:subList></hp:tc><hp:tc><hp:subList>' + hp(NAME) + hp("과장") + '</hp:subList></hp:tc></hp:tr>'
           '<hp:tr><hp:tc><hp:subList>' + hp("전화") + '</hp:subList></hp:tc><hp:tc><hp:subList>' + hp(PHONE) +
           '</hp:subList></hp:tc></hp:tr></hp:tbl></hp:run></hp:p>')
    doc = open_document(make_hwpx(tmp_path / "a.hwpx", sec))
    assert f"선정되었습니다. 다음 문장\n[Footnote] {NAME} 님의 추천\n" in doc.text
    assert f"이름 | {NAME} 과장\n전화 | {PHONE}\n" in doc.text
    cap = next(c for c in doc.captions if c.key == "footnote")
    assert doc.text[cap.start:cap.end] == "Footnote"


def test_percent_encoded_field_command_is_shown_decoded(tmp_path):
    from urllib.parse import quote

    field = ('<hp:p id="0"><hp:run charPrIDRef="0"><hp:ctrl><hp:fieldBegin type="HYPERLINK"><hp:parameters>'
             f'<hp:stringParam name="Command">mailto:{quote(NAME)}@example.kr;1;0;0;</hp:stringParam>'
             '</hp:parameters></hp:fieldBegin></hp:ctrl><hp:t>메일</hp:t></hp:run></hp:p>')
    src = make_hwpx(tmp_path / "a.hwpx", field)
    assert f"[Field] mailto:{NAME}@example.kr;1;0;0;" in open_document(src).text
    redact(src, tmp_path / "o.hwpx", {NAME: "PERSON"})
    assert_gone(tmp_path / "o.hwpx", NAME, quote(NAME))


def test_inline_header_text_box_and_table_are_not_glued(tmp_path):
    sec = ('<hp:p id="0"><hp:run charPrIDRef="0"><hp:t>첫 문단</hp:t><hp:ctrl><hp:header><hp:subList>'
           + hp(f"머리글 {NAME}") + '</hp:subList></hp:header></hp:ctrl><hp:rect><hp:drawText><hp:subList>'
           + hp(f"글상자 {PHONE}") + '</hp:subList></hp:drawText></hp:rect><hp:t> 계속</hp:t>'
           '<hp:tbl><hp:tr><hp:tc><hp:subList>' + hp("이름") + '</hp:subList></hp:tc><hp:tc><hp:subList>'
           + hp(NAME) + '</hp:subList></hp:tc></hp:tr></hp:tbl></hp:run></hp:p>')
    src = make_hwpx(tmp_path / "a.hwpx", sec)
    text = open_document(src).text
    assert text.startswith(f"첫 문단 계속\n이름 | {NAME}\n\n[Header] 머리글 {NAME}\n[Text box] 글상자 {PHONE}\n"), text
    redact(src, tmp_path / "o.hwpx", {NAME: "PERSON", PHONE: "PHONE"})
    assert_gone(tmp_path / "o.hwpx", NAME, PHONE)
