"""DOCX: real files built with python-docx (+ the XML Word writes for the parts python-docx does not
model), redacted, re-opened, and scanned for every PII value in every ZIP member."""
from __future__ import annotations

import html
import io
import re
import zipfile
from pathlib import Path

import docx
import pytest
from docx.shared import Pt
from PIL import Image

from veil_desktop.detect.span import Span
from veil_desktop.documents import (DocumentError, LeakDetected, export_document, open_document,
                                    propagate_spans)
from veil_desktop.documents import docx as docx_mod
from veil_desktop.documents import safezip
from veil_desktop.masking import Masker

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

PII = {  # value -> label; every one of these must be gone from the output
    "010-1234-5678": "PHONE", "김민수": "PERSON", "hong@example.com": "EMAIL", "이영희": "PERSON",
    "윤봉길": "PERSON", "010-5555-6666": "PHONE", "900101-1234567": "RRN", "장보고": "PERSON",
    "안중근": "PERSON", "서울특별시 종로구 세종대로 175": "ADDRESS",
    # metadata is reviewed like the body: title, keywords, description, custom properties
    "홍길동": "PERSON", "최고객": "PERSON", "정수정": "PERSON", "강감찬": "PERSON",
}
# always removed, whatever the review: authors, last modified by, comment authors/initials, user ids,
# tracked-change authors, the template path's account name
META_PII = ["박지성", "PJ", "이순신", "hong@corp.example", "choigogaek"]


def _png(path: Path) -> Path:
    Image.new("RGB", (8, 8), (200, 10, 10)).save(path)
    return path


def build_docx(path: Path) -> Path:
    d = docx.Document()
    cp = d.core_properties
    cp.author, cp.last_modified_by, cp.title = "최고객", "정수정", "홍길동 이력서"
    cp.subject, cp.keywords, cp.comments = "비밀 프로젝트", "최고객", "정수정 작성"
    d.sections[0].header.paragraphs[0].text = "작성자 김민수"
    d.sections[0].footer.paragraphs[0].text = "문의 hong@example.com"
    p = d.add_paragraph("담당자 연락처: ")
    r1 = p.add_run("010-")
    r1.bold = True
    r2 = p.add_run("1234-")
    r2.italic = True
    r2.font.size = Pt(14)
    r3 = p.add_run("5678")
    r3.underline = True
    p.add_run(" 입니다.")
    q = d.add_paragraph("검토자 ")
    rq = q.add_run("이영희")
    d.add_comment(rq, text="이영희 님 주소 서울특별시 종로구 세종대로 175 확인", author="박지성", initials="PJ")
    d.add_paragraph("각주 참조")
    d.add_paragraph("변경 추적 문단")
    d.add_paragraph("상자 문단")
    d.add_paragraph("링크 문단")
    d.add_picture(str(_png(path.with_suffix(".png"))))
    table = d.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "주소"
    table.cell(0, 1).text = "서울특별시 종로구 세종대로 175"
    buf = io.BytesIO()
    d.save(buf)
    return _add_raw_parts(buf.getvalue(), path)


_FOOTNOTES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:footnotes xmlns:w="{W_NS}">
<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>
<w:footnote w:id="1"><w:p><w:r><w:t xml:space="preserve">출처: 윤봉길 </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>010-5555-6666</w:t></w:r></w:p></w:footnote>
</w:footnotes>"""

_CUSTOM = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="담당"><vt:lpwstr>강감찬</vt:lpwstr></property></Properties>"""

_PEOPLE = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w15:people xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml"><w15:person w15:author="박지성"><w15:presenceInfo w15:providerId="AD" w15:userId="hong@corp.example"/></w15:person></w15:people>"""

_TEXTBOX = """<w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:docPr id="9" name="Text Box 9"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:txbx><w:txbxContent><w:p><w:r><w:t>상자 안 장보고 님</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent><w:p><w:r><w:t>상자 안 장보고 님</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>"""

_TRACKED = """<w:ins w:id="91" w:author="이순신" w:date="2024-01-01T00:00:00Z"><w:r><w:t xml:space="preserve"> 새 문장</w:t></w:r></w:ins><w:del w:id="92" w:author="이순신" w:date="2024-01-01T00:00:00Z"><w:r><w:delText>주민번호 900101-1234567 김민수</w:delText></w:r></w:del>"""

_LINK = """<w:fldSimple w:instr=" MERGEFIELD 안중근 "><w:r><w:t>필드</w:t></w:r></w:fldSimple><w:hyperlink r:id="rIdVeilLink" w:tooltip="hong@example.com 에게"><w:r><w:t>메일</w:t></w:r></w:hyperlink><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "mailto:hong@example.com" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>연락</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>"""


def _add_raw_parts(data: bytes, path: Path) -> Path:
    zin = zipfile.ZipFile(io.BytesIO(data))
    parts = {n: zin.read(n) for n in zin.namelist()}
    body = parts["word/document.xml"].decode("utf-8")

    def after_text(marker: str, xml: str) -> None:
        nonlocal body
        i = body.index(f">{marker}</w:t></w:r>") + len(f">{marker}</w:t></w:r>")
        body = body[:i] + xml + body[i:]

    after_text("각주 참조", '<w:r><w:footnoteReference w:id="1"/></w:r>')
    after_text("변경 추적 문단", _TRACKED)
    after_text("상자 문단", _TEXTBOX)
    after_text("링크 문단", _LINK)
    after_text("상자 문단", '<w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" alt="서명 안중근">'
               '<v:textpath string="장보고 귀하"/></v:shape></w:pict></w:r>')
    body = re.sub(r'(<wp:docPr [^>]*?)(/?>)', r'\1 descr="사진: 안중근"\2', body, count=1)
    parts["word/document.xml"] = body.encode("utf-8")
    parts["word/footnotes.xml"] = _FOOTNOTES.encode("utf-8")
    parts["word/people.xml"] = _PEOPLE.encode("utf-8")
    parts["word/_rels/settings.xml.rels"] = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.'
        'openxmlformats.org/package/2006/relationships"><Relationship Id="rIdT" Type="http://schemas.'
        'openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target="file:///C:\\Users'
        '\\choigogaek\\AppData\\Roaming\\Microsoft\\Templates\\Normal.dotm" TargetMode="External"/>'
        '</Relationships>').encode("utf-8")
    settings = parts["word/settings.xml"].decode("utf-8")
    parts["word/settings.xml"] = re.sub(r"(<w:settings[^>]*>)", r'\1<w:attachedTemplate r:id="rIdT"/>',
                                        settings, count=1).encode("utf-8")
    parts["docProps/custom.xml"] = _CUSTOM.encode("utf-8")
    rels = parts["word/_rels/document.xml.rels"].decode("utf-8").replace(
        "</Relationships>",
        '<Relationship Id="rIdVeilFn" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>'
        '<Relationship Id="rIdVeilPeople" Type="http://schemas.microsoft.com/office/2011/relationships/people" Target="people.xml"/>'
        '<Relationship Id="rIdVeilLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="mailto:hong@example.com" TargetMode="External"/></Relationships>')
    parts["word/_rels/document.xml.rels"] = rels.encode("utf-8")
    top = parts["_rels/.rels"].decode("utf-8").replace(
        "</Relationships>",
        '<Relationship Id="rIdVeilCustom" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties" Target="docProps/custom.xml"/></Relationships>')
    parts["_rels/.rels"] = top.encode("utf-8")
    ct = parts["[Content_Types].xml"].decode("utf-8").replace(
        "</Types>",
        '<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/>'
        '<Override PartName="/word/people.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.people+xml"/>'
        '<Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/></Types>')
    parts["[Content_Types].xml"] = ct.encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in parts.items():
            z.writestr(n, b)
    return path


def all_member_text(path: Path) -> dict[str, str]:
    """Test-side scan: every member, raw (entities unescaped) + tags stripped."""
    out = {}
    with zipfile.ZipFile(path) as z:
        for n in z.namelist():
            raw = z.read(n).decode("utf-8", "replace")
            out[n] = html.unescape(raw) + "\n" + html.unescape(re.sub(r"<[^>]+>", "", raw))
    return out


def spans_for(text: str, values: dict[str, str]) -> list[Span]:
    spans = []
    for v, label in values.items():
        i = text.find(v)
        if i >= 0:
            spans.append(Span(i, i + len(v), label, 0.9, "rule"))
    return propagate_spans(text, spans)


@pytest.fixture()
def sample(tmp_path):
    return build_docx(tmp_path / "이력서.docx")


def test_reader_surfaces_every_part(sample):
    doc = open_document(sample)
    assert doc.format == "docx"
    names = [p.name for p in doc.parts]
    for expected in ("Body", "Header 1", "Footer 1", "Footnotes", "Comments", "Link targets",
                     "Document properties"):
        assert expected in names, names
    assert names[0] == "Body" and names[-1] == "Removed from the export" and doc.parts[-1].removed
    assert "담당자 연락처: 010-1234-5678 입니다." in doc.text       # three runs, one value
    assert "── Header 1 ──\n작성자 김민수" in doc.text and "word/" not in doc.text.split("── Link")[0]
    assert "출처: 윤봉길 010-5555-6666" in doc.text                  # footnote
    assert "이영희 님 주소" in doc.text                              # comment
    assert "[Alt text] 사진: 안중근" in doc.text                      # alt text
    assert "[Shape text] 서명 안중근" in doc.text and "[Shape text] 장보고 귀하" in doc.text  # VML
    assert "[Text box] 상자 안 장보고 님\n" in doc.text                # after its paragraph, not glued
    assert "주소 | 서울특별시 종로구 세종대로 175\n" in doc.text       # a table row on one line
    assert "[Comment 박지성] \n이영희 님 주소" in doc.text              # comment with its author
    assert "[Title] 홍길동 이력서\n" in doc.text and "[Custom property] 담당: 강감찬" in doc.text
    assert "[Author] 최고객" in doc.text[doc.parts[-1].start:]          # shown, always removed
    assert doc.text.count("상자 안 장보고 님") == 1                  # text box once (no fallback copy)
    assert "새 문장" in doc.text                                     # tracked insertion
    assert "주민번호 900101-1234567" in doc.text[doc.parts[-1].start:]  # deletion, shown in last part
    assert 'HYPERLINK "mailto:hong@example.com"' in doc.text         # field code
    assert "mailto:hong@example.com\n" in doc.text                    # rels target
    loc = doc.locate(doc.text.index("5678"))
    assert loc.member == "word/document.xml" and loc.part == "Body" and loc.slot is not None
    assert doc.locate(0).part == "Body"
    hdr = doc.text.index("── Header")
    cap = next(c for c in doc.captions if c.key == "header")
    assert doc.text[cap.start:cap.end] == "Header 1" and cap.detail == "1"
    assert doc.locate(hdr).slot is None  # boilerplate


def test_export_masks_every_part_and_scrubs_metadata(sample, tmp_path):
    before = sample.read_bytes()
    doc = open_document(sample)
    spans = spans_for(doc.text, PII)
    masker = Masker({"PHONE": "partial"}, default="tag")
    out = tmp_path / "out.docx"
    res = export_document(doc, masker.plan(doc.text, spans), out, styles=masker, detector_id="t")
    assert sample.read_bytes() == before
    assert res.leak_check["result"] == "clean" and res.leak_check["values_checked"] == len(PII)

    members = all_member_text(out)
    for name, text in members.items():
        for value in list(PII) + META_PII:
            assert value not in text, (value, name)
        assert "01012345678" not in text.replace("-", "")
    assert not any(n.startswith("docProps/thumbnail") for n in members)
    assert "thumbnail" not in members["_rels/.rels"] and "thumbnail" not in members["[Content_Types].xml"]
    assert "Fallback" not in members["word/document.xml"]
    assert "w:del " not in members["word/document.xml"] and "delText" not in members["word/document.xml"]
    assert "w:ins " not in members["word/document.xml"]

    # a valid Word file: python-docx opens it; formatting of the three runs is kept
    d = docx.Document(str(out))
    para = next(p for p in d.paragraphs if p.text.startswith("담당자 연락처"))
    assert para.text == "담당자 연락처: 010-****-**** 입니다."
    runs = [(r.text, r.bold, r.italic, r.underline) for r in para.runs]
    assert runs[1:4] == [("010-****-****", True, None, None), ("", None, True, None), ("", None, None, True)]
    assert para.runs[2].font.size == Pt(14)
    assert any(p.text.endswith("새 문장") for p in d.paragraphs)  # insertion accepted
    assert d.sections[0].header.paragraphs[0].text == "작성자 [PERSON]"
    assert d.core_properties.author == "" and d.core_properties.title == "[PERSON] 이력서"
    assert d.core_properties.last_modified_by == "" and d.core_properties.keywords == "[PERSON]"
    assert d.tables[0].cell(0, 1).text == "[ADDRESS]"
    c = d.comments
    assert [x.text for x in c] == ["[PERSON] 님 주소 [ADDRESS] 확인"] and c.get(0).author == ""
    assert "mailto:[EMAIL]" in members["word/_rels/document.xml.rels"]
    assert "Normal.dotm" not in members["word/_rels/settings.xml.rels"]   # attached template: removed


def test_docx_document_variable_is_reviewed_and_masked(tmp_path):
    """A document variable (settings.xml) is shown for review and masked in the attribute."""
    src = build_docx(tmp_path / "a.docx")
    z = zipfile.ZipFile(src)
    parts = {n: z.read(n) for n in z.namelist()}
    z.close()
    settings = parts["word/settings.xml"].decode()
    settings = re.sub(r"(<w:settings[^>]*>)", r'\1<w:docVars><w:docVar w:name="x" w:val="김민수"/></w:docVars>',
                      settings, count=1)
    parts["word/settings.xml"] = settings.encode()
    with zipfile.ZipFile(src, "w") as z2:
        for n, b in parts.items():
            z2.writestr(n, b)
    before = src.read_bytes()
    doc = open_document(src)
    assert "[Document variable] 김민수\n" in doc.text
    res = export_document(doc, Masker().plan(doc.text, spans_for(doc.text, PII)), tmp_path / "o.docx")
    assert res.leak_check["result"] == "clean"
    settings = all_member_text(tmp_path / "o.docx")["word/settings.xml"]
    assert "김민수" not in settings and 'w:val="[PERSON]"' in settings
    assert src.read_bytes() == before


def test_txt_export_of_docx(sample, tmp_path):
    doc = open_document(sample)
    export_document(doc, Masker().plan(doc.text, spans_for(doc.text, PII)), tmp_path / "o.txt")
    text = (tmp_path / "o.txt").read_text("utf-8")
    assert "담당자 연락처: [PHONE] 입니다." in text
    for v in PII:
        assert v not in text


def test_corrupt_and_hostile_zips(tmp_path, monkeypatch):
    good = build_docx(tmp_path / "g.docx").read_bytes()
    bad = tmp_path / "corrupt.docx"
    bad.write_bytes(good[: len(good) // 2])
    with pytest.raises(DocumentError, match="damaged"):
        open_document(bad)
    notzip = tmp_path / "text.docx"
    notzip.write_text("hello")
    with pytest.raises(DocumentError, match="not a valid Word document"):
        open_document(notzip)
    ole = tmp_path / "old.docx"
    ole.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    with pytest.raises(DocumentError, match="old binary"):
        open_document(ole)
    nodoc = tmp_path / "nodoc.docx"
    with zipfile.ZipFile(nodoc, "w") as z:
        z.writestr("hello.txt", "x")
    with pytest.raises(DocumentError, match="not a Word document"):
        open_document(nodoc)
    # zip bomb: the declared uncompressed size is checked before anything is inflated
    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", b"<a/>")
        z.writestr("zeros.bin", b"\0" * (3 * 1024 * 1024))
    monkeypatch.setattr(safezip, "MAX_TOTAL_UNCOMPRESSED", 2 * 1024 * 1024)
    with pytest.raises(DocumentError, match="ZIP bomb"):
        open_document(bomb)
    # XXE / billion laughs: any DTD is refused
    xxe = tmp_path / "xxe.docx"
    with zipfile.ZipFile(xxe, "w") as z:
        z.writestr("word/document.xml", '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM '
                   '"file:///etc/passwd">]><w:document xmlns:w="%s"><w:body><w:p><w:r><w:t>&x;</w:t>'
                   '</w:r></w:p></w:body></w:document>' % W_NS)
    with pytest.raises(DocumentError, match="DTD"):
        open_document(xxe)


def test_copy_only_in_deleted_text_is_not_a_leak(sample, tmp_path):
    """Deleted tracked text is removed from the output, so an unmasked copy there is no leak."""
    doc = open_document(sample)
    removed = next(p for p in doc.parts if p.removed)
    spans = [s for s in spans_for(doc.text, PII) if not (removed.start <= s.start < removed.end)]
    assert "김민수" in doc.text[removed.start:removed.end]
    res = export_document(doc, Masker().plan(doc.text, spans), tmp_path / "o.docx")
    assert res.leak_check["result"] == "clean"
    for name, text in all_member_text(tmp_path / "o.docx").items():
        assert "김민수" not in text and "900101" not in text, name


def test_attribute_slots_and_space_preserve(sample, tmp_path):
    doc = open_document(sample)
    assert "[Field]  MERGEFIELD 안중근 " in doc.text and "[Link tooltip] hong@example.com 에게" in doc.text
    export_document(doc, Masker().plan(doc.text, spans_for(doc.text, PII)), tmp_path / "o.docx")
    with zipfile.ZipFile(tmp_path / "o.docx") as z:
        body = z.read("word/document.xml").decode()
    assert 'w:instr=" MERGEFIELD [PERSON] "' in body and 'w:tooltip="[EMAIL] 에게"' in body
    d = docx.Document(str(tmp_path / "o.docx"))
    q = next(p for p in d.paragraphs if p.text.startswith("검토자"))
    assert q.text == "검토자 [PERSON]"


def test_fallback_copy_left_in_place_is_caught(sample, tmp_path, monkeypatch):
    """Fail closed: without the cleaning step (simulated), the mc:Fallback text-box copy still holds the
    name; the independent re-read finds it and nothing is written."""
    doc = open_document(sample)
    monkeypatch.setattr(docx_mod.PROFILE, "clean", lambda name, root: False)
    with pytest.raises(LeakDetected) as ei:
        export_document(doc, Masker().plan(doc.text, spans_for(doc.text, PII)), tmp_path / "o.docx")
    assert any(loc.startswith("word/document.xml") for loc in ei.value.locations)
    assert not (tmp_path / "o.docx").exists() and not list(tmp_path.glob(".veil-*"))
