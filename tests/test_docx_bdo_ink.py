"""DOCX: text under a bidirectional override (``w:bdo``) and handwriting kept as InkML (red team 7, 2b/6a).

``<w:bdo w:val="rtl">`` (ECMA-376 17.3.2.3) makes Word show its runs' characters right to left: the XML
holds ``6715-4747-010`` and the reader sees ``010-7474-5176``. The reader presents it as the Unicode
override it is (RLO ... PDF), so detection reads the display order and masking hits the stored characters.
A ``w14:contentPart`` ink part (InkML strokes, e.g. a signature) is not text anything can read: it is
removed with its relationship and the content part that shows it, and the report says so.

Every package is built here; the output's members are read back by the test itself."""
from __future__ import annotations

import types
import zipfile

import docx

from tests.fixtures.leak_builders import assert_gone, make_docx, para
from veil_desktop.detect.default import CombinedDetector
from veil_desktop.detect.normalize import detection_view
from veil_desktop.detect.rules import RuleDetector
from veil_desktop.documents import export_document, open_document
from veil_desktop.masking import Masker

SHOWN_PHONE = "010-7474-5176"
STORED_PHONE = SHOWN_PHONE[::-1]            # "6715-4747-010": what the XML holds under bdo rtl
SHOWN_RRN = "821130-1528934"
INKML = "http://www.w3.org/2003/InkML"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
W14_NS = "http://schemas.microsoft.com/office/word/2010/wordml"
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"


def bdo(text: str, val: str = "rtl") -> str:
    return f'<w:bdo w:val="{val}"><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:bdo>'


def run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def ink_xml() -> str:
    traces = "".join(f'<inkml:trace contextRef="#ctx0">{x} 300, {x + 40} 900, {x + 90} 320</inkml:trace>'
                     for x in range(100, 2000, 150))
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><inkml:ink xmlns:inkml="{INKML}">'
            '<inkml:definitions><inkml:context xml:id="ctx0"/></inkml:definitions>' + traces + '</inkml:ink>')


def content_part(rid: str = "rIdInk") -> str:
    return (f'<w:p><w:r><mc:AlternateContent xmlns:mc="{MC_NS}" xmlns:w14="{W14_NS}" xmlns:a="{A_NS}">'
            f'<mc:Choice Requires="w14"><w14:contentPart bwMode="auto" r:id="{rid}"><w14:nvContentPartPr>'
            '<w14:cNvPr id="3" name="잉크 3"/><w14:cNvContentPartPr/></w14:nvContentPartPr><w14:xfrm>'
            '<a:off x="0" y="0"/><a:ext cx="5715000" cy="1047750"/></w14:xfrm></w14:contentPart></mc:Choice>'
            '<mc:Fallback/></mc:AlternateContent></w:r></w:p>')


def members(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def rule_spans(text: str):
    """The default detector's rule stage (over the detection view, as the CLI runs it), without the model."""
    stage = CombinedDetector(types.SimpleNamespace(id="none", labels=()), RuleDetector(entities=True))
    return stage.rule_spans(text)


def rule_view(text: str) -> str:
    return detection_view(text, spaced_digits=True).text


def export_with_rules(src, out):
    doc = open_document(src)
    spans = rule_spans(doc.text)
    res = export_document(doc, Masker().plan(doc.text, spans), out)
    return doc, spans, res


def test_bdo_reversed_phone_and_rrn_are_read_in_display_order_and_masked(tmp_path):
    body = (para("민원 접수 현황")
            + f'<w:p>{run("연락처: ")}{bdo(STORED_PHONE)}</w:p>'
            + f'<w:p>{run("주민등록번호: ")}{bdo(SHOWN_RRN[::-1])}</w:p>' + para("끝."))
    src = make_docx(tmp_path / "a.docx", body)
    doc, spans, res = export_with_rules(src, tmp_path / "out.docx")
    # the override is shown as the control it is, around the characters as stored
    assert f"\u202e{STORED_PHONE}\u202c" in doc.text
    assert f"연락처: {SHOWN_PHONE}" in rule_view(doc.text)       # what Word shows
    found = {s.label: doc.text[s.start:s.end].strip("\u202e\u202c") for s in spans}
    assert found.get("PHONE") == STORED_PHONE        # detected on the display order, mapped to storage
    assert "RRN" in found and SHOWN_RRN[::-1] in found["RRN"]
    assert res.leak_check["result"] == "clean"
    xml = members(tmp_path / "out.docx")["word/document.xml"].decode()
    for v in (STORED_PHONE, SHOWN_PHONE, SHOWN_RRN, SHOWN_RRN[::-1], "67154747010", "01074745176"):
        assert v not in xml, v
    assert "연락처" in xml and "끝." in xml        # the rest stays
    assert "\u202e" not in xml and "\u202c" not in xml   # the controls are the reader's, never written
    assert_gone(tmp_path / "out.docx", STORED_PHONE, SHOWN_PHONE)
    docx.Document(str(tmp_path / "out.docx"))


def test_value_half_outside_half_inside_the_override(tmp_path):
    # "010-" in a plain run, then "6715-4747" under bdo rtl: UAX #9 (as Word) shows 010-7474-5176; the one
    # span read on the display order covers both runs' stored characters
    body = f'<w:p>{run("전화 010-")}{bdo("6715-4747")}{run(" 입니다")}</w:p>'
    src = make_docx(tmp_path / "a.docx", body)
    doc, spans, res = export_with_rules(src, tmp_path / "out.docx")
    assert "전화 010-7474-5176 입니다" in rule_view(doc.text)
    assert [s.label for s in spans] == ["PHONE"], (doc.text, spans)
    xml = members(tmp_path / "out.docx")["word/document.xml"].decode()
    for v in ("6715", "4747", "010-"):
        assert v not in xml, v
    assert "전화" in xml and "입니다" in xml


def test_bdo_over_plain_text_is_not_a_finding(tmp_path):
    body = f'<w:p>{run("구역: ")}{bdo("ABC")}{bdo("본관", "ltr")}</w:p>'
    src = make_docx(tmp_path / "a.docx", body)
    doc, spans, res = export_with_rules(src, tmp_path / "out.docx")
    assert spans == [] and not doc.unreadable
    xml = members(tmp_path / "out.docx")["word/document.xml"].decode()
    assert ">ABC<" in xml and ">본관<" in xml and 'w:val="rtl"' in xml


def test_ink_content_part_is_removed_with_its_relationship_and_reported(tmp_path):
    body = para("신청인 서명:") + content_part() + para("끝.")
    src = make_docx(tmp_path / "a.docx", body,
                    doc_rels=[("rIdInk", "customXml", "ink/ink1.xml")],
                    parts={"word/ink/ink1.xml": ink_xml()},
                    overrides={"word/ink/ink1.xml": "application/inkml+xml"})
    doc, spans, res = export_with_rules(src, tmp_path / "out.docx")
    assert "inkml:trace" not in doc.text and "2040 320" not in doc.text   # strokes are not shown as text
    assert not doc.unreadable
    out = members(tmp_path / "out.docx")
    for name, data in out.items():
        assert INKML.encode() not in data, name
        assert b"<inkml:trace" not in data, name
    doc_xml = out["word/document.xml"].decode()
    assert "contentPart" not in doc_xml and "AlternateContent" not in doc_xml
    assert "서명:" in doc_xml and "끝." in doc_xml
    assert "ink" not in out["word/_rels/document.xml.rels"].decode().lower()
    assert any("ink" in n.lower() for n in doc.notes), doc.notes
    assert res.leak_check["result"] == "clean"
    docx.Document(str(tmp_path / "out.docx"))


def test_inkml_under_any_name_is_removed_and_other_custom_xml_is_kept(tmp_path):
    item = ('<?xml version="1.0" encoding="UTF-8"?><root xmlns="urn:example:form">'
            '<status>접수</status></root>')
    body = para("서명") + content_part("rIdA")
    src = make_docx(tmp_path / "a.docx", body,
                    doc_rels=[("rIdA", "customXml", "../customXml/item1.xml"),
                              ("rIdB", "customXml", "../customXml/item2.xml")],
                    parts={"customXml/item1.xml": ink_xml(), "customXml/item2.xml": item})
    doc, spans, res = export_with_rules(src, tmp_path / "out.docx")
    out = members(tmp_path / "out.docx")
    assert not any(INKML.encode() in d for d in out.values())
    assert any("<status>접수</status>".encode() in d for d in out.values())   # kept (namespace renamed)
