"""Issue 26, class 2: what the markup itself holds, which no reader shows. A namespace URI
(``xmlns:acct="urn:x-bank:…"``, red-team batch 4, file 2a) is kept only when a format specification
defines it; any other becomes ``urn:veil:ns:N`` consistently across the package (prefix kept, so
``mc:Ignorable`` and every qualified name stay valid); names that may be text (``<acct:정하람/>``) get
stand-ins; comments and PIs before/after the root are dropped; a DOCTYPE anywhere in the prolog is refused;
CDATA text, ``xml:base`` and ``xsi:schemaLocation`` values are reviewed. The leak check and the second
opinion read namespace URIs, declarations and names too, so a miss there fails closed.

Outputs are re-read with zipfile and ElementTree (not the product's readers); python-docx re-opens them."""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
import zipfile

import docx as python_docx
import pytest

from tests.fixtures.leak_builders import (W_NS, assert_gone, hp, make_docx, make_hwpx, para, redact)
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.documents import open_document
from veil_desktop.documents.errors import DocumentError
from veil_desktop.documents.leakcheck import check_zip_bytes
from veil_desktop.documents.matching import ValueMatcher
from veil_desktop.documents.second_opinion import second_opinion, text_views
from veil_desktop.documents.xmlwalk import harmless_value

NAME = "정하람"
RRN = "950822-2419075"
ACCOUNT = "1002-738-415069"
PHONE = "010-6294-3058"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
CT_CUSTOM = "application/vnd.openxmlformats-officedocument.customXmlProperties+xml"
HANCOM = {"ha": "http://www.hancom.co.kr/hwpml/2011/app", "hp": "http://www.hancom.co.kr/hwpml/2011/paragraph",
          "hp10": "http://www.hancom.co.kr/hwpml/2016/paragraph", "hs": "http://www.hancom.co.kr/hwpml/2011/section",
          "hc": "http://www.hancom.co.kr/hwpml/2011/core", "hh": "http://www.hancom.co.kr/hwpml/2011/head",
          "hhs": "http://www.hancom.co.kr/hwpml/2011/history",
          "hm": "http://www.hancom.co.kr/hwpml/2011/master-page", "hpf": "http://www.hancom.co.kr/schema/2011/hpf",
          "dc": "http://purl.org/dc/elements/1.1/", "opf": "http://www.idpf.org/2007/opf/",
          "ooxmlchart": "http://www.hancom.co.kr/hwpml/2016/ooxmlchart",
          "hwpunitchar": "http://www.hancom.co.kr/hwpml/2016/HwpUnitChar", "epub": "http://www.idpf.org/2007/ops",
          "config": "urn:oasis:names:tc:opendocument:xmlns:config:1.0"}


def _members(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def _declarations(data: bytes) -> list[tuple[str, str]]:
    """(prefix, URI) of every namespace declaration, by ElementTree's own parser."""
    return [ns for _ev, ns in ET.iterparse(io.BytesIO(data), events=("start-ns",))]


def _names(data: bytes) -> list[str]:
    out = []
    for el in ET.fromstring(data).iter():
        out.append(el.tag.rsplit("}", 1)[-1])
        out += [a.rsplit("}", 1)[-1] for a in el.attrib]
    return out


def _with_root_decl(path, member: str, decl: str, ignorable: str | None = None) -> None:
    """Add ``decl`` (and ``mc:Ignorable``) to the root element of ``member`` in the ZIP at ``path``."""
    files = _members(path)
    text = files[member].decode("utf-8")
    start = re.search(r"<(?!\?)[^\s>]+", text).end()
    extra = f" {decl}" + (f' xmlns:mc="{MC}" mc:Ignorable="{ignorable}"' if ignorable else "")
    files[member] = (text[:start] + extra + text[start:]).encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in files.items():
            z.writestr(n, b)


def test_unknown_namespace_uris_get_consistent_stand_ins_and_word_namespaces_survive(tmp_path):
    store = "{6A1C3B2D-1111-2222-3333-444455556666}"
    item = (f'<?xml version="1.0"?><form xmlns="urn:x-civil:{PHONE}"><addr>민원 창구</addr></form>')
    props = (f'<?xml version="1.0"?><ds:datastoreItem ds:itemID="{store}" xmlns:ds="http://schemas.'
             f'openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs><ds:schemaRef '
             f'ds:uri="urn:x-civil:{PHONE}"/></ds:schemaRefs></ds:datastoreItem>')
    body = (para(f"신청인 {NAME} 민원 회신") + f'<w:p><w:r><w:t>안내</w:t></w:r><acct:note acct:ref="7"/></w:p>'
            + f'<w:sdt><w:sdtPr><w:dataBinding w:prefixMappings="xmlns:f=\'urn:x-civil:{PHONE}\'" '
              f'w:xpath="/f:form[1]/f:addr[1]" w:storeItemID="{store}"/></w:sdtPr><w:sdtContent>'
            + para("민원 창구") + "</w:sdtContent></w:sdt>")
    src = make_docx(tmp_path / "a.docx", body,
                    doc_rels=[("rC", "customXml", "../customXml/item1.xml")],
                    parts={"customXml/item1.xml": item, "customXml/itemProps1.xml": props,
                           "customXml/_rels/item1.xml.rels": '<?xml version="1.0"?><Relationships xmlns="http'
                           '://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type='
                           '"http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps"'
                           ' Target="itemProps1.xml"/></Relationships>'},
                    overrides={"customXml/itemProps1.xml": CT_CUSTOM})
    _with_root_decl(src, "word/document.xml", f'xmlns:acct="urn:x-bank:{ACCOUNT}" xmlns:w14="{W14}"',
                    ignorable="w14 acct")
    assert ACCOUNT not in open_document(src).text          # never shown: neutralised, not reviewed
    _doc, res = redact(src, tmp_path / "out.docx", {NAME: "PERSON"})
    assert res.leak_check["result"] == "clean"
    out = _members(tmp_path / "out.docx")
    assert_gone(tmp_path / "out.docx", ACCOUNT, "1002738415069", "62943058", NAME)
    decl = dict(_declarations(out["word/document.xml"]))
    assert decl["w"] == W_NS and decl["w14"] == W14 and decl["mc"] == MC      # Word's own: verbatim
    assert re.fullmatch(r"urn:veil:ns:\d+", decl["acct"])                      # prefix kept, URI neutral
    root = ET.fromstring(out["word/document.xml"])
    assert root.get(f"{{{MC}}}Ignorable") == "w14 acct"                         # still declared, still valid
    note = root.find(f".//{{{decl['acct']}}}note")
    assert note is not None and note.get(f"{{{decl['acct']}}}ref") == "7"
    # the custom XML's namespace gets ONE stand-in: its declaration, the schema reference and the binding
    form_ns = dict(_declarations(out["customXml/item1.xml"]))[""]
    assert re.fullmatch(r"urn:veil:ns:\d+", form_ns) and form_ns != decl["acct"]
    binding = root.find(f".//{{{W_NS}}}dataBinding")
    assert binding.get(f"{{{W_NS}}}prefixMappings") == f"xmlns:f='{form_ns}'"
    ref = ET.fromstring(out["customXml/itemProps1.xml"]).find(
        ".//{http://schemas.openxmlformats.org/officeDocument/2006/customXml}schemaRef")
    assert ref.get("{http://schemas.openxmlformats.org/officeDocument/2006/customXml}uri") == form_ns
    reopened = python_docx.Document(str(tmp_path / "out.docx"))
    assert reopened.paragraphs[0].text.startswith("신청인 ") and NAME not in reopened.paragraphs[0].text


def test_a_python_docx_file_keeps_every_namespace_byte_for_byte(tmp_path):
    d = python_docx.Document()
    d.add_paragraph(f"담당 {NAME} 주무관")
    d.save(tmp_path / "a.docx")
    before = {n: _declarations(b) for n, b in _members(tmp_path / "a.docx").items() if n.endswith(".xml")}
    redact(tmp_path / "a.docx", tmp_path / "out.docx", {NAME: "PERSON"})
    after = {n: _declarations(b) for n, b in _members(tmp_path / "out.docx").items() if n.endswith(".xml")}
    assert after == before and len(dict(after["word/document.xml"])) >= 15
    assert not any("urn:veil" in u for decls in after.values() for _p, u in decls)


def test_names_that_hold_text_get_stand_ins_and_the_binding_path_follows(tmp_path):
    item = (f'<?xml version="1.0" encoding="UTF-8"?><hr:직원 xmlns:hr="urn:x-hr"><hr:{NAME}>부서 배정'
            f'</hr:{NAME}><hr:x{RRN} hr:a{ACCOUNT}="1"/></hr:직원>')
    body = (f'<w:sdt><w:sdtPr><w:dataBinding w:prefixMappings="xmlns:hr=\'urn:x-hr\'" '
            f'w:xpath="/hr:직원[1]/hr:{NAME}[1]" w:storeItemID="{{6A1C3B2D-1111-2222-3333-444455556666}}"/>'
            f'</w:sdtPr><w:sdtContent>{para("부서 배정")}</w:sdtContent></w:sdt>' + para("본문 안내"))
    src = make_docx(tmp_path / "a.docx", body, doc_rels=[("rC", "customXml", "../customXml/item1.xml")],
                    parts={"customXml/item1.xml": item})
    doc, res = redact(src, tmp_path / "out.docx", {})
    assert res.leak_check["result"] == "clean"
    out = _members(tmp_path / "out.docx")
    assert_gone(tmp_path / "out.docx", NAME, "직원", "9508222419075", "1002738415069")
    for member in ("customXml/item1.xml", "word/document.xml"):
        assert all(n.isascii() and not re.search(r"\d{5}", n.replace("-", "")) for n in _names(out[member]))
    item_root = ET.fromstring(out["customXml/item1.xml"])
    hr_ns = dict(_declarations(out["customXml/item1.xml"]))["hr"]
    first = item_root[0].tag.rsplit("}", 1)[-1]
    assert item_root[0].text == "부서 배정" and re.fullmatch(r"veil_n\d+", first)
    xpath = ET.fromstring(out["word/document.xml"]).find(f".//{{{W_NS}}}dataBinding").get(f"{{{W_NS}}}xpath")
    root_name = item_root.tag.rsplit("}", 1)[-1]
    assert xpath == f"/hr:{root_name}[1]/hr:{first}[1]"        # the path still names the same element
    assert re.fullmatch(r"urn:veil:ns:\d+", hr_ns)


def test_prolog_and_epilog_comments_and_pis_are_not_published(tmp_path):
    settings = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><!-- 작성자 {NAME} {RRN} -->'
                f'<?veil-note {ACCOUNT}?><w:settings xmlns:w="{W_NS}"><w:zoom w:percent="100"/></w:settings>'
                f'<!-- {PHONE} -->')
    src = make_docx(tmp_path / "a.docx", para("본문 안내"), doc_rels=[("rS", "settings", "settings.xml")],
                    parts={"word/settings.xml": settings})
    _doc, res = redact(src, tmp_path / "out.docx", {})
    assert res.leak_check["result"] == "clean"
    out = _members(tmp_path / "out.docx")
    assert_gone(tmp_path / "out.docx", NAME, "9508222419075", "1002738415069", "01062943058")
    assert b"<!--" not in out["word/settings.xml"] and b"<?veil" not in out["word/settings.xml"]
    assert ET.fromstring(out["word/settings.xml"]).find(f"{{{W_NS}}}zoom").get(f"{{{W_NS}}}percent") == "100"
    header = (f'<?xml version="1.0" encoding="UTF-8"?><!-- {RRN} --><hh:head {HWPX_DECL} version="1.4" '
              'secCnt="1"/><?pi ' + ACCOUNT + "?>")
    src = make_hwpx(tmp_path / "a.hwpx", hp("본문 안내"))
    files = _members(src)
    files["Contents/header.xml"] = header.encode("utf-8")
    _rezip(src, files)
    _doc, res = redact(src, tmp_path / "out.hwpx", {})
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.hwpx", "9508222419075", "1002738415069")


HWPX_DECL = " ".join(f'xmlns:{p}="{u}"' for p, u in HANCOM.items())


def _rezip(path, files: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in files.items():
            if n == "mimetype":
                z.writestr(zipfile.ZipInfo("mimetype"), b, compress_type=zipfile.ZIP_STORED)
            else:
                z.writestr(n, b)


@pytest.mark.parametrize("kind", ["docx", "hwpx"])
def test_a_doctype_after_a_long_prolog_is_refused(tmp_path, kind):
    prolog = "<!--" + "x" * 70_000 + "-->" + f'<!DOCTYPE r [<!ENTITY e "{RRN}">]>'
    if kind == "docx":
        src = make_docx(tmp_path / "a.docx", para("본문"))
        member = "word/document.xml"
    else:
        src = make_hwpx(tmp_path / "a.hwpx", hp("본문"))
        member = "Contents/section0.xml"
    files = _members(src)
    text = files[member].decode("utf-8")
    cut = text.index("?>") + 2
    files[member] = (text[:cut] + prolog + text[cut:]).encode("utf-8")
    _rezip(src, files)
    with pytest.raises(DocumentError, match="DTD/entities"):
        open_document(src)


def test_cdata_text_is_reviewed_and_masked(tmp_path):
    src = make_docx(tmp_path / "a.docx", f"<w:p><w:r><w:t><![CDATA[담당 {NAME}]]></w:t></w:r></w:p>")
    assert f"담당 {NAME}" in open_document(src).text
    _doc, res = redact(src, tmp_path / "out.docx", {NAME: "PERSON"})
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.docx", NAME)
    src = make_hwpx(tmp_path / "a.hwpx", f'<hp:p id="0"><hp:run charPrIDRef="0"><hp:t><![CDATA[담당 {NAME}]]>'
                    '</hp:t></hp:run></hp:p>')
    assert f"담당 {NAME}" in open_document(src).text
    _doc, res = redact(src, tmp_path / "out.hwpx", {NAME: "PERSON"})
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.hwpx", NAME)


def test_xml_base_and_schema_location_values_are_shown_for_review(tmp_path):
    xsi = "http://www.w3.org/2001/XMLSchema-instance"
    body = (f'<w:p xml:base="urn:x-bank:{ACCOUNT}"><w:r><w:t>본문</w:t></w:r></w:p>'
            f'<w:p xmlns:xsi="{xsi}" xsi:schemaLocation="urn:x-civil {RRN}.xsd"><w:r><w:t>둘째</w:t></w:r></w:p>'
            f'<w:p xmlns:xsi="{xsi}" xsi:schemaLocation="{W_NS} http://schemas.openxmlformats.org/'
            f'wordprocessingml/2006/main.xsd"><w:r><w:t>셋째</w:t></w:r></w:p>')
    src = make_docx(tmp_path / "a.docx", body)
    text = open_document(src).text
    assert f"urn:x-bank:{ACCOUNT}" in text and f"urn:x-civil {RRN}.xsd" in text
    assert "main.xsd" not in text                       # the spec's own schema location: not noise
    _doc, res = redact(src, tmp_path / "out.docx", {ACCOUNT: "ACCOUNT", RRN: "RRN"})
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.docx", ACCOUNT, "1002738415069", "9508222419075")
    src = make_hwpx(tmp_path / "a.hwpx", f'<hp:p id="0" xml:base="urn:x-bank:{ACCOUNT}"><hp:run charPrIDRef="0">'
                    '<hp:t>본문</hp:t></hp:run></hp:p>')
    assert f"urn:x-bank:{ACCOUNT}" in open_document(src).text


def test_schema_uri_grammar_has_no_room_for_numbers():
    class El:   # harmless_value looks at the element's name only
        tag = "{%s}customXml" % W_NS
    assert not harmless_value(El, "uri", f"urn:x-bank:{ACCOUNT}")
    assert not harmless_value(El, "uri", f"http://schemas.microsoft.com/office/{RRN}")
    assert not harmless_value(El, "uri", "urn:x-anything:jung")         # not a format's URN namespace
    assert harmless_value(El, "uri", "http://schemas.microsoft.com/office/drawing/2016/11/main")
    assert harmless_value(El, "uri", "urn:schemas-microsoft-com:office:smarttags")
    assert harmless_value(El, "uri", "http://www.hancom.co.kr/hwpml/2011/paragraph")


def test_hwpx_unknown_namespace_is_rewritten_and_hancom_namespaces_kept(tmp_path):
    src = make_hwpx(tmp_path / "a.hwpx", hp(f"신청인 {NAME}"))
    files = _members(src)
    sec = files["Contents/section0.xml"].decode("utf-8")
    sec = sec.replace(sec[sec.index("<hs:sec "):sec.index(">", sec.index("<hs:sec ")) + 1],
                      f'<hs:sec {HWPX_DECL} xmlns:acct="urn:x-bank:{ACCOUNT}">')
    files["Contents/section0.xml"] = sec.encode("utf-8")
    _rezip(src, files)
    _doc, res = redact(src, tmp_path / "out.hwpx", {NAME: "PERSON"})
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.hwpx", ACCOUNT, "1002738415069", NAME)
    out = _members(tmp_path / "out.hwpx")
    decl = dict(_declarations(out["Contents/section0.xml"]))
    assert {p: decl[p] for p in HANCOM} == HANCOM                  # all 15 of Hancom's own, verbatim
    assert re.fullmatch(r"urn:veil:ns:\d+", decl["acct"])
    assert list(out)[0] == "mimetype"


def _zip(members: dict[str, str]) -> bytes:
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as z:
        for n, t in members.items():
            z.writestr(n, t)
    return b.getvalue()


def test_leak_check_reads_namespace_uris_declarations_and_names():
    doc = (f'<?xml version="1.0"?><w:document xmlns:w="{W_NS}" xmlns:acct="urn:x-bank:{ACCOUNT}">'
           '<w:body/></w:document>')
    rep = check_zip_bytes(_zip({"word/document.xml": doc}), ValueMatcher([ACCOUNT]))
    assert not rep.clean and any("attributes" in h for h in rep.hits)
    dtd = f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "{RRN}">]><r>&e;</r>'
    assert not check_zip_bytes(_zip({"word/x.xml": dtd}), ValueMatcher([RRN])).clean
    named = f'<?xml version="1.0"?><r xmlns:acct="urn:veil:ns:1"><acct:{NAME}/></r>'
    rep = check_zip_bytes(_zip({"word/x.xml": named}), ValueMatcher([NAME]))
    assert not rep.clean and any("names" in h for h in rep.hits)
    # the formats' own namespace URIs are no found value (a masked "Hancom" or "Microsoft")
    own = (f'<?xml version="1.0"?><hs:sec {HWPX_DECL} xmlns:o="urn:schemas-microsoft-com:office:office">'
           '<hp:p/></hs:sec>')
    assert check_zip_bytes(_zip({"Contents/section0.xml": own}), ValueMatcher(["Hancom", "microsoft"])).clean


def test_second_opinion_blocks_on_what_the_markup_holds():
    doc = (f'<?xml version="1.0"?><w:document xmlns:w="{W_NS}" xmlns:acct="urn:x-bank:{ACCOUNT}">'
           f'<w:body><w:p><w:r><w:t>본문 안내</w:t></w:r></w:p></w:body></w:document><!-- {PHONE} -->')
    views = text_views(_zip({"word/document.xml": doc}), "zip")
    markup = next(v for v in views if v.place == "word/document.xml (markup)")
    assert not markup.visible and f"urn:x-bank:{ACCOUNT}" in markup.text and PHONE in markup.text
    blocking, _possible = second_opinion(views, lambda t: [], RuleDetector().detect)
    assert {f.place for f in blocking} == {"word/document.xml (markup)"}
    assert "PHONE" in {f.label for f in blocking}


def test_second_opinion_markup_views_of_ordinary_outputs_are_empty(tmp_path):
    d = python_docx.Document()
    d.add_paragraph("회의 안내")
    d.save(tmp_path / "a.docx")
    redact(tmp_path / "a.docx", tmp_path / "out.docx", {})
    make_hwpx(tmp_path / "b.hwpx", hp("예산 현황"))
    redact(tmp_path / "b.hwpx", tmp_path / "out.hwpx", {})
    for out in ("out.docx", "out.hwpx"):
        views = text_views((tmp_path / out).read_bytes(), "zip")
        markup = [v for v in views if v.place.endswith("(markup)")]
        assert markup and all(v.text == "" for v in markup), [(v.place, v.text) for v in markup if v.text]
