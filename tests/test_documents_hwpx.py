"""HWPX: minimal valid HWPX files built here (mimetype first and stored, OWPML section XML, OPF
content.hpf, preview text and image), redacted, re-opened and scanned member by member."""
from __future__ import annotations

import html
import io
import re
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from veil_desktop.detect.span import Span
from veil_desktop.documents import (DocumentError, LeakDetected, export_document, open_document,
                                    propagate_spans)
from veil_desktop.documents import hwpx as hwpx_mod
from veil_desktop.masking import Masker

NS = ('xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" '
      'xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" '
      'xmlns:hc="http://www.hancom.co.kr/hwpml/2011/core"')


def run(text: str, char_pr: int = 0) -> str:
    return f'<hp:run charPrIDRef="{char_pr}"><hp:t>{text}</hp:t></hp:run>'


def para(*runs: str, pid: int = 0) -> str:
    return f'<hp:p id="{pid}" paraPrIDRef="0" styleIDRef="0" pageBreak="0" columnBreak="0" merged="0">{"".join(runs)}</hp:p>'


SECTION0 = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<hs:sec {NS}>
{para(run("담당자 연락처: "), run("010-", 1), run("1234-", 2), run("5678", 3), run(" 입니다."))}
{para(run("이름<hp:tab/>김민수<hp:lineBreak/>메일 hong@example.com"))}
{para('<hp:run charPrIDRef="0"><hp:tbl rowCnt="1" colCnt="2"><hp:tr><hp:tc><hp:subList>' + para(run("주소")) +
      '</hp:subList></hp:tc><hp:tc><hp:subList>' + para(run("서울특별시 종로구 세종대로 175")) +
      '</hp:subList></hp:tc></hp:tr></hp:tbl></hp:run>')}
{para(run("각주 참조"), '<hp:run charPrIDRef="0"><hp:ctrl><hp:footNote number="1"><hp:subList>' +
      para(run("출처: 윤봉길 010-5555-6666")) + '</hp:subList></hp:footNote></hp:ctrl></hp:run>')}
{para('<hp:run charPrIDRef="0"><hp:ctrl><hp:fieldBegin type="HYPERLINK"><hp:parameters><hp:stringParam name="Command">mailto:hong@example.com;1;0;0;</hp:stringParam></hp:parameters></hp:fieldBegin></hp:ctrl><hp:t>메일 보내기</hp:t></hp:run>')}
<hp:memogroup><hp:memo id="1"><hp:paraList>{para(run("메모: 이영희 확인"))}</hp:paraList></hp:memo></hp:memogroup>
</hs:sec>"""

SECTION1 = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<hs:sec {NS}>{para(run("둘째 구역 장보고 900101-1234567"))}</hs:sec>"""

HEADER = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<hh:head xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head" version="1.4" secCnt="2"><hh:docOption><hh:linkinfo path="C:\\Users\\choigogaek\\문서\\원본.hwp" pageInherit="0" footnoteInherit="0"/></hh:docOption><hh:trackChangeAuthors><hh:trackChangeAuthor id="1" name="이순신" mark="0" color="#000000"/></hh:trackChangeAuthors></hh:head>"""

CONTENT_HPF = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<opf:package xmlns:opf="http://www.idpf.org/2007/opf/" xmlns:dc="http://purl.org/dc/elements/1.1/" version="" unique-identifier="" id="">
<opf:metadata><opf:title>홍길동 이력서</opf:title><opf:language>ko</opf:language><opf:meta name="creator" content="text">최고객</opf:meta><opf:meta name="subject" content="text">비밀 프로젝트</opf:meta><opf:meta name="lastsaveby" content="text">정수정</opf:meta><opf:meta name="CreatedDate" content="text">2024-01-01T00:00:00Z</opf:meta><opf:meta name="keyword" content="text">강감찬</opf:meta></opf:metadata>
<opf:manifest><opf:item id="header" href="Contents/header.xml" media-type="application/xml"/><opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/><opf:item id="section1" href="Contents/section1.xml" media-type="application/xml"/><opf:item id="settings" href="settings.xml" media-type="application/xml"/><opf:item id="prvimage" href="Preview/PrvImage.png" media-type="image/png"/></opf:manifest>
<opf:spine><opf:itemref idref="header" linear="yes"/><opf:itemref idref="section0" linear="yes"/><opf:itemref idref="section1" linear="yes"/></opf:spine>
</opf:package>"""

CONTAINER = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container"><ocf:rootfiles><ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/><ocf:rootfile full-path="Preview/PrvText.txt" media-type="text/plain"/></ocf:rootfiles></ocf:container>"""

MANIFEST = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<odf:manifest xmlns:odf="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><odf:file-entry full-path="Preview/PrvImage.png" media-type="image/png"/></odf:manifest>"""

VERSION = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version" tagetApplication="WORDPROCESSOR" major="5" minor="1" micro="0" buildNumber="1" os="1" xmlVersion="1.4" application="Hancom Office Hangul" appVersion="11"/>"""

PII = {"010-1234-5678": "PHONE", "김민수": "PERSON", "hong@example.com": "EMAIL",
       "서울특별시 종로구 세종대로 175": "ADDRESS", "윤봉길": "PERSON", "010-5555-6666": "PHONE",
       "이영희": "PERSON", "장보고": "PERSON", "900101-1234567": "RRN",
       "홍길동": "PERSON", "강감찬": "PERSON"}   # metadata (title, keyword) is reviewed like the body
# always removed whatever the review: creator, last saved by, change-tracking authors, the link path
META_PII = ["최고객", "정수정", "이순신", "choigogaek"]


def build_hwpx(path: Path, prvtext_encoding: str = "utf-8") -> Path:
    png = io.BytesIO()
    Image.new("RGB", (16, 16), (0, 0, 0)).save(png, "PNG")
    prv = ("담당자 연락처: 010-1234-5678 입니다.\r\n이름 김민수 메일 hong@example.com\r\n"
           "둘째 구역 장보고 900101-1234567").encode(prvtext_encoding)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/hwp+zip", compress_type=zipfile.ZIP_STORED)
        z.writestr("version.xml", VERSION)
        z.writestr("Contents/header.xml", HEADER)
        z.writestr("Contents/section0.xml", SECTION0)
        z.writestr("Contents/section1.xml", SECTION1)
        z.writestr("Contents/content.hpf", CONTENT_HPF)
        z.writestr("META-INF/container.xml", CONTAINER)
        z.writestr("META-INF/manifest.xml", MANIFEST)
        z.writestr("settings.xml", '<?xml version="1.0" encoding="UTF-8"?><ha:HWPApplicationSetting '
                   'xmlns:ha="http://www.hancom.co.kr/hwpml/2011/app"/>')
        z.writestr("Preview/PrvText.txt", prv)
        z.writestr("Preview/PrvImage.png", png.getvalue())
    return path


def spans_for(text: str) -> list[Span]:
    spans = []
    for v, label in PII.items():
        i = text.find(v)
        assert i >= 0, v
        spans.append(Span(i, i + len(v), label, 0.9, "rule"))
    return propagate_spans(text, spans)


def member_texts(path: Path) -> dict[str, str]:
    out = {}
    with zipfile.ZipFile(path) as z:
        for n in z.namelist():
            b = z.read(n)
            views = [b.decode("utf-8", "replace"), b.decode("utf-16-le", "replace"), b.decode("cp949", "replace")]
            out[n] = "\n".join(html.unescape(v) + "\n" + html.unescape(re.sub(r"<[^>]+>", "", v)) for v in views)
    return out


def test_reader(tmp_path):
    doc = open_document(build_hwpx(tmp_path / "a.hwpx"))
    assert doc.format == "hwpx"
    assert [p.name for p in doc.parts] == ["Body", "Section 2", "Document properties",
                                           "Removed from the export"]
    assert doc.text.startswith("담당자 연락처: 010-1234-5678 입니다.\n이름\t김민수\n메일 hong@example.com\n")
    assert "서울특별시 종로구 세종대로 175" in doc.text
    assert "주소 | 서울특별시 종로구 세종대로 175\n" in doc.text          # a table row on one line
    assert "각주 참조\n[Footnote] 출처: 윤봉길 010-5555-6666\n" in doc.text  # not glued to the anchor
    assert "[Field] mailto:hong@example.com;1;0;0;" in doc.text and "stringParam" not in doc.text
    assert "[Memo] 메모: 이영희 확인" in doc.text
    assert "── Section 2 ──\n둘째 구역 장보고 900101-1234567" in doc.text and "Contents/" not in doc.text
    assert "[Title] 홍길동 이력서\n" in doc.text and "[Keywords] 강감찬" in doc.text
    removed = doc.text[doc.parts[-1].start:]
    assert doc.parts[-1].removed and "[Author] 최고객" in removed and "[Last modified by] 정수정" in removed
    assert "Preview" not in doc.text


@pytest.mark.parametrize("prv_enc", ["utf-8", "utf-16-le"])
def test_export_masks_and_regenerates_preview(tmp_path, prv_enc):
    src = build_hwpx(tmp_path / "a.hwpx", prv_enc)
    before = src.read_bytes()
    doc = open_document(src)
    masker = Masker({"PHONE": "partial"})
    out = tmp_path / "out" / "a.hwpx"
    out.parent.mkdir()
    res = export_document(doc, masker.plan(doc.text, spans_for(doc.text)), out, styles=masker)
    assert src.read_bytes() == before
    assert res.leak_check["result"] == "clean"
    with zipfile.ZipFile(out) as z:
        infos = z.infolist()
        assert infos[0].filename == "mimetype" and infos[0].compress_type == zipfile.ZIP_STORED
        assert z.read("mimetype") == b"application/hwp+zip"
        names = z.namelist()
        sec0 = z.read("Contents/section0.xml").decode()
        prv = z.read("Preview/PrvText.txt").decode(prv_enc)
        hpf = z.read("Contents/content.hpf").decode()
        manifest = z.read("META-INF/manifest.xml").decode()
    assert "Preview/PrvImage.png" not in names
    assert "PrvImage" not in hpf and "PrvImage" not in manifest
    for name, text in member_texts(out).items():
        for v in list(PII) + META_PII:
            assert v not in text, (v, name)
    # masked in place across runs: value in the first run, the next two emptied, char props kept
    assert ('<hp:run charPrIDRef="1"><hp:t>010-****-****</hp:t></hp:run>'
            '<hp:run charPrIDRef="2"><hp:t></hp:t></hp:run><hp:run charPrIDRef="3"><hp:t></hp:t></hp:run>') in sec0
    assert "<hp:t>이름<hp:tab/>[PERSON]<hp:lineBreak/>메일 [EMAIL]</hp:t>" in sec0
    assert prv.startswith("담당자 연락처: 010-****-**** 입니다.\r\n이름\t[PERSON]")
    assert "Field" not in prv and "stringParam" not in prv and "mailto" not in prv
    assert "<opf:language>ko</opf:language>" in hpf
    again = open_document(out)                       # our own reader accepts the output
    assert "둘째 구역 [PERSON] [RRN]" in again.text


def test_not_hwpx(tmp_path):
    p = tmp_path / "x.hwpx"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("mimetype", "application/zip")
        z.writestr("Contents/section0.xml", "<a/>")
    with pytest.raises(DocumentError, match="wrong mimetype"):
        open_document(p)
    (tmp_path / "y.hwpx").write_bytes(b"PK\x03\x04garbage")
    with pytest.raises(DocumentError, match="damaged|not a valid"):
        open_document(tmp_path / "y.hwpx")


def test_stale_preview_is_caught_by_the_leak_check(tmp_path, monkeypatch):
    """Fail closed: if the preview were not regenerated (simulated), the re-read finds the original."""
    src = build_hwpx(tmp_path / "a.hwpx")
    before = src.read_bytes()
    doc = open_document(src)
    monkeypatch.setattr(hwpx_mod.PROFILE, "scrub", lambda members, d: members)
    with pytest.raises(LeakDetected) as ei:
        export_document(doc, Masker().plan(doc.text, spans_for(doc.text)), tmp_path / "o.hwpx")
    assert any(loc.startswith("Preview/PrvText.txt") for loc in ei.value.locations)
    assert not (tmp_path / "o.hwpx").exists() and src.read_bytes() == before


def test_hwpx_xxe_and_member_cap(tmp_path, monkeypatch):
    from veil_desktop.documents import safezip

    p = build_hwpx(tmp_path / "a.hwpx")
    with zipfile.ZipFile(p, "a") as z:
        z.writestr("Contents/section9.xml", '<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "aaaa">'
                   '<!ENTITY b "&a;&a;&a;&a;">]><hs:sec xmlns:hs="x">&b;</hs:sec>')
    with pytest.raises(DocumentError, match="DTD"):
        open_document(p)
    monkeypatch.setattr(safezip, "MAX_MEMBERS", 5)
    with pytest.raises(DocumentError, match="too many parts"):
        open_document(build_hwpx(tmp_path / "b.hwpx"))
