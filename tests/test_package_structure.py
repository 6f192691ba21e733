"""Package structure of DOCX/HWPX outputs (issue 26, default deny): relationship ids, relationship types
and targets, ``[Content_Types].xml``, part names, HWPX manifest ids/hrefs/media types, references to
binary items, ZIP time stamps. A hostile author can put anything there; none of it is shown for review,
so the exporter rebuilds it (``documents/opc.py``, ``hwpx.scrub``).

Each test builds its own package here with a value in one of those places, exports it, and re-reads the
output with readers that are not the product's: zipfile + lxml (every member's bytes and name),
python-docx (opens the DOCX through its relationships and content types), LibreOffice
(``soffice --headless --convert-to txt``, where installed) and the HWPX package check of
``tests/test_hwpx_package.py``."""
from __future__ import annotations

import io
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import docx
import pytest
from lxml import etree
from PIL import Image

from tests.fixtures.leak_builders import CT_MAIN, REL, W_NS, assert_gone, make_docx, para, redact
from tests.test_hwpx_package import package_problems
from veil_desktop.documents import opc

NAME = "김민수"
DIGITS = "8512031234567"          # an RRN without separators
PHONE = "01012345678"
CT_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
HYPER = REL + "hyperlink"
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


def _png(colour=(200, 10, 10), size=(8, 8)) -> bytes:
    b = io.BytesIO()
    Image.new("RGB", size, colour).save(b, "PNG")
    return b.getvalue()


def _drawing(rid: str, attr: str = "r:embed") -> str:
    return ('<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/'
            'wordprocessingDrawing"><wp:extent cx="95250" cy="95250"/><wp:docPr id="1" name="Picture 1"/>'
            '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="'
            'http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.'
            'openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="0" name="p.png"/>'
            f'<pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip {attr}="{rid}"/></pic:blipFill><pic:spPr/>'
            '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')


def _hdr(text: str) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr xmlns:w="{W_NS}" '
            f'xmlns:r="{R}"><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:hdr>')


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def _assert_absent(path: Path, *values: str) -> None:
    """No value in any member's bytes (UTF-8, UTF-16, %-escaped) nor in any member name."""
    for name, data in _members(path).items():
        for v in values:
            assert v not in name, (v, name)
            for b in (v.encode(), v.encode("utf-16-le"), v.encode("utf-16-be")):
                assert b not in data, (v, name)
    assert_gone(path, *values)


def _soffice_text(path: Path, tmp: Path) -> str:
    out = tmp / "lo"
    subprocess.run([SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp / 'lo_profile'}",
                    "--convert-to", "txt:Text", "--outdir", str(out), str(path)],
                   check=True, capture_output=True, timeout=180)
    return (out / (path.stem + ".txt")).read_text("utf-8-sig")


# -- DOCX: relationship ids --------------------------------------------------------------------------------
def _hostile_ids_docx(tmp_path: Path) -> Path:
    body = (para(f"담당 {NAME} 님") + _drawing(f"rId{DIGITS}")
            + f'<w:p><w:hyperlink r:id="rId{NAME}"><w:r><w:t>누리집</w:t></w:r></w:hyperlink></w:p>'
            + f'<w:sectPr><w:headerReference w:type="default" r:id="{PHONE}"/></w:sectPr>')
    return make_docx(tmp_path / "ids.docx", body,
                     doc_rels=[(f"rId{DIGITS}", "image", "media/image1.png"),
                               (f"rId{NAME}", "hyperlink", "https://example.org/", "External"),
                               (PHONE, "header", "header1.xml")],
                     parts={"word/media/image1.png": _png(), "word/header1.xml": _hdr("머리말 문장")},
                     overrides={"word/header1.xml": "application/vnd.openxmlformats-officedocument."
                                                    "wordprocessingml.header+xml"})


def test_relationship_ids_are_renumbered_and_every_reference_follows(tmp_path):
    src = _hostile_ids_docx(tmp_path)
    out = tmp_path / "out.docx"
    redact(src, out, {NAME: "PERSON"})
    _assert_absent(out, NAME, DIGITS, PHONE)
    m = _members(out)
    rels = etree.fromstring(m["word/_rels/document.xml.rels"])
    ids = [el.get("Id") for el in rels]
    assert ids == [f"rId{i}" for i in range(1, len(ids) + 1)] and len(ids) == 3
    by_type = {el.get("Type").rsplit("/", 1)[-1]: el for el in rels}
    assert by_type["image"].get("Target") == "media/image1.png"
    assert by_type["header"].get("Target") == "header1.xml"
    assert by_type["hyperlink"].get("Target") == "https://example.org/"
    body = etree.fromstring(m["word/document.xml"])
    refs = [v for el in body.iter() for a, v in el.attrib.items() if a.startswith("{%s}" % R)]
    assert sorted(refs) == sorted(ids)          # every reference names a rebuilt id
    blip = next(body.iter("{http://schemas.openxmlformats.org/drawingml/2006/main}blip"))
    assert blip.get("{%s}embed" % R) == by_type["image"].get("Id")
    # an independent reader follows them: the picture, the header and the link resolve
    d = docx.Document(str(out))
    assert len(d.inline_shapes) == 1
    assert d.sections[0].header.paragraphs[0].text == "머리말 문장"
    assert "담당 [PERSON] 님" in [p.text for p in d.paragraphs]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_opens_the_rebuilt_package(tmp_path):
    src = _hostile_ids_docx(tmp_path)
    out = tmp_path / "out.docx"
    redact(src, out, {NAME: "PERSON"})
    text = _soffice_text(out, tmp_path)
    assert "담당 [PERSON] 님" in text and "누리집" in text and NAME not in text


def test_every_relationship_attribute_and_vml_relid_is_mapped(tmp_path):
    """r:id / r:embed / r:link / r:pict / r:dm... wherever they stand, and VML ``o:relid``: all mapped."""
    vml = ('<w:p><w:r><w:pict xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:'
           f'office:office"><v:shape><v:imagedata o:relid="img{DIGITS}"/></v:shape></w:pict></w:r></w:p>')
    dgm = (f'<w:p><w:r><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" '
           f'r:dm="d{DIGITS}" r:lo="d{DIGITS}"/></w:r></w:p>')
    body = para("본문") + _drawing(f"link{PHONE}", "r:link") + vml + dgm
    src = make_docx(tmp_path / "a.docx", body,
                    doc_rels=[(f"link{PHONE}", "image", "media/image1.png"),
                              (f"img{DIGITS}", "image", "media/image2.png"),
                              (f"d{DIGITS}", "diagramData", "diagrams/data1.xml")],
                    parts={"word/media/image1.png": _png(), "word/media/image2.png": _png((0, 0, 200)),
                           "word/diagrams/data1.xml": '<?xml version="1.0"?><dgm:dataModel xmlns:dgm="'
                           'http://schemas.openxmlformats.org/drawingml/2006/diagram"/>'})
    out = tmp_path / "out.docx"
    redact(src, out, {"본문": "OTHER"})
    _assert_absent(out, DIGITS, PHONE)
    m = _members(out)
    ids = {el.get("Target"): el.get("Id") for el in etree.fromstring(m["word/_rels/document.xml.rels"])}
    doc = m["word/document.xml"].decode()
    assert f'r:link="{ids["media/image1.png"]}"' in doc
    assert f'o:relid="{ids["media/image2.png"]}"' in doc
    assert f'r:dm="{ids["diagrams/data1.xml"]}" r:lo="{ids["diagrams/data1.xml"]}"' in doc
    docx.Document(str(out))


def test_a_reference_to_no_relationship_goes_with_its_element(tmp_path):
    """``r:embed="rId01012345678"`` naming nothing: its value can never be rebuilt, the element goes (a
    hyperlink keeps its text)."""
    body = (para("본문") + _drawing(f"rId{PHONE}")
            + f'<w:p><w:hyperlink r:id="x{DIGITS}"><w:r><w:t>링크 글</w:t></w:r></w:hyperlink></w:p>')
    src = make_docx(tmp_path / "a.docx", body)
    out = tmp_path / "out.docx"
    redact(src, out, {"본문": "OTHER"})
    _assert_absent(out, PHONE, DIGITS)
    d = docx.Document(str(out))
    assert "링크 글" in [p.text for p in d.paragraphs]
    assert b"a:blip" not in _members(out)["word/document.xml"]


def test_relationship_types_outside_the_schema_hosts_are_dropped(tmp_path):
    src = make_docx(tmp_path / "a.docx", para("본문"),
                    doc_rels=[("rX", f"http://attacker.example/{NAME}", "https://example.org/a", "External"),
                              ("rY", f"{REL}x{DIGITS}", "https://example.org/b", "External"),
                              ("rZ", HYPER, "https://example.org/c", "External")])
    out = tmp_path / "out.docx"
    redact(src, out, {"본문": "OTHER"})
    _assert_absent(out, NAME, DIGITS, "attacker.example")
    rels = etree.fromstring(_members(out)["word/_rels/document.xml.rels"])
    assert [(el.get("Id"), el.get("Type"), el.get("Target")) for el in rels] == \
        [("rId1", HYPER, "https://example.org/c")]


# -- DOCX: [Content_Types].xml -----------------------------------------------------------------------------
def test_content_types_are_rebuilt_from_the_parts_present(tmp_path):
    body = para("본문") + _drawing("rP")
    src = make_docx(tmp_path / "a.docx", body,
                    doc_rels=[("rP", "image", "media/image1.png"), ("rC", "customXml", "../customXml/item1.xml")],
                    parts={"word/media/image1.png": _png(),
                           "customXml/item1.xml": '<?xml version="1.0"?><root><v>값</v></root>',
                           "word/unknown.xml": '<?xml version="1.0"?><x/>'},
                    overrides={"word/media/image1.png": f"image/png; name={NAME}.png",
                               f"word/ghost_{PHONE}.xml": "application/xml",
                               "customXml/item1.xml": f"application/xml;charset=utf-8;x={DIGITS}",
                               "word/unknown.xml": f"{NAME}/x-{PHONE}"})
    files = _members(src)   # plus a Default for an extension no part has
    files["[Content_Types].xml"] = files["[Content_Types].xml"].decode().replace(
        "<Default ", f'<Default Extension="k{PHONE}" ContentType="text/plain; n={NAME}"/><Default ', 1).encode()
    with zipfile.ZipFile(src, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in files.items():
            z.writestr(n, b)
    out = tmp_path / "out.docx"
    redact(src, out, {"본문": "OTHER"})
    _assert_absent(out, NAME, PHONE, DIGITS)
    m = _members(out)
    root = etree.fromstring(m["[Content_Types].xml"])
    defaults = {el.get("Extension"): el.get("ContentType") for el in root.iter(CT_NS + "Default")}
    overrides = {el.get("PartName"): el.get("ContentType") for el in root.iter(CT_NS + "Override")}
    exts = {n.rsplit(".", 1)[-1] for n in m if n != "[Content_Types].xml"}
    assert set(defaults) == exts == {"xml", "rels", "png"}
    assert defaults["png"] == "image/png"
    assert all("/" + n.lstrip("/") in {"/" + x for x in m} for n in overrides)     # only parts present
    assert overrides["/word/document.xml"] == CT_MAIN
    # the unknown part with an ungrammatical type: renamed, typed application/xml (the xml Default)
    assert "word/part1.xml" in m and "/word/part1.xml" not in overrides
    assert not any(";" in t or " " in t for t in list(defaults.values()) + list(overrides.values()))
    d = docx.Document(str(out))
    assert len(d.inline_shapes) == 1


@pytest.mark.parametrize("value, expected", [
    ("image/png", "image/png"),
    ("image/png; name=김민수.png", "image/png"),
    (" application/x-javascript ;charset=utf-16", "application/x-javascript"),
    ("application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml",
     "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"),
    ("application/vnd.example.unknown+xml", "application/vnd.example.unknown+xml"),
    ("김민수/png", None), ("image/x-8512031234567", None), ("image", None), ("image/png/x", None),
    ("", None), (None, None), ("x-custom/thing", None),
])
def test_media_type_grammar(value, expected):
    assert opc.clean_media_type(value) == expected


# -- DOCX: part names --------------------------------------------------------------------------------------
def test_ascii_part_names_outside_the_grammar_are_renamed(tmp_path):
    header = f"word/kim_minsu_phone_{PHONE}.xml"
    body = para("본문") + _drawing("rP") + '<w:sectPr><w:headerReference w:type="default" r:id="rH"/></w:sectPr>'
    src = make_docx(tmp_path / "a.docx", body,
                    doc_rels=[("rP", "image", f"media/{DIGITS}.png"),
                              ("rH", "header", header.split("/", 1)[1])],
                    parts={f"word/media/{DIGITS}.png": _png(), header: _hdr("머리말")},
                    overrides={header: "application/vnd.openxmlformats-officedocument.wordprocessingml."
                                       "header+xml"})
    out = tmp_path / "out.docx"
    redact(src, out, {"본문": "OTHER"})
    _assert_absent(out, PHONE, DIGITS, "kim_minsu")
    m = _members(out)
    assert sorted(m) == ["[Content_Types].xml", "_rels/.rels", "word/_rels/document.xml.rels",
                         "word/document.xml", "word/header1.xml", "word/media/image1.png"]
    assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in zipfile.ZipFile(out).infolist())
    d = docx.Document(str(out))
    assert d.sections[0].header.paragraphs[0].text == "머리말" and len(d.inline_shapes) == 1


def test_a_picture_is_named_by_its_bytes_not_by_its_extension(tmp_path):
    """A JPEG stored as ``.png`` (and a name with digits): written ``imageN.jpeg``, ``image/jpeg``."""
    b = io.BytesIO()
    Image.new("RGB", (16, 16), (10, 120, 10)).save(b, "JPEG")
    src = make_docx(tmp_path / "a.docx", para("본문") + _drawing("rP"),
                    doc_rels=[("rP", "image", f"media/image{PHONE}.png")],
                    parts={f"word/media/image{PHONE}.png": b.getvalue()})
    out = tmp_path / "out.docx"
    redact(src, out, {"본문": "OTHER"})
    m = _members(out)
    assert [n for n in m if n.startswith("word/media/")] == ["word/media/image1.jpeg"]
    ct = etree.fromstring(m["[Content_Types].xml"])
    assert {el.get("Extension"): el.get("ContentType") for el in ct.iter(CT_NS + "Default")}["jpeg"] == \
        "image/jpeg"
    _assert_absent(out, PHONE)


def test_a_package_of_grammar_names_keeps_them(tmp_path):
    """What Word/python-docx write is already of the grammar: the same part names come out (thumbnail
    aside), the same content types for them, and the text reads the same."""
    d = docx.Document()
    d.add_paragraph(f"담당 {NAME}")
    d.sections[0].header.paragraphs[0].text = "머리말"
    pic = tmp_path / "p.png"
    pic.write_bytes(_png())
    d.add_picture(str(pic))
    src = tmp_path / "a.docx"
    d.save(str(src))
    out = tmp_path / "out.docx"
    redact(src, out, {NAME: "PERSON"})
    before = set(_members(src)) - {"docProps/thumbnail.jpeg"}
    after = set(_members(out))
    assert after == before
    d2 = docx.Document(str(out))
    assert [p.text for p in d2.paragraphs][0] == "담당 [PERSON]"
    assert d2.sections[0].header.paragraphs[0].text == "머리말" and len(d2.inline_shapes) == 1


# -- HWPX --------------------------------------------------------------------------------------------------
HNS = ('xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph" xmlns:hs="http://www.hancom.co.kr/hwpml/'
       '2011/section" xmlns:hc="http://www.hancom.co.kr/hwpml/2011/core"')


def _section(text: str, ref: str | None = None) -> str:
    pic = (f'<hp:p id="1"><hp:run charPrIDRef="0"><hp:pic id="2"><hc:img binaryItemIDRef="{ref}" bright="0"/>'
           '</hp:pic></hp:run></hp:p>') if ref else ""
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hs:sec {HNS}><hp:p id="0">'
            f'<hp:run charPrIDRef="0"><hp:t>{text}</hp:t></hp:run></hp:p>{pic}</hs:sec>')


def _hwpx(path: Path, items: str, spine: str, files: dict[str, bytes | str], mimetype: str = "application/hwp+zip"):
    hpf = ('<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><opf:package xmlns:opf="http://www.idpf.org/'
           '2007/opf/" version="" unique-identifier="" id=""><opf:metadata><opf:title>보고서</opf:title>'
           '</opf:metadata><opf:manifest><opf:item id="header" href="Contents/header.xml" media-type="'
           f'application/xml"/>{items}</opf:manifest><opf:spine><opf:itemref idref="header" linear="yes"/>'
           f'{spine}</opf:spine></opf:package>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype", (2085, 12, 3, 0, 0, 0)), mimetype, compress_type=zipfile.ZIP_STORED)
        z.writestr("Contents/header.xml", '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hh:head '
                   'xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head" version="1.4" secCnt="1"/>')
        z.writestr("Contents/content.hpf", hpf)
        z.writestr("META-INF/container.xml", '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>'
                   '<ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container"><ocf:rootfiles>'
                   '<ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml;'
                   f' n={DIGITS}"/></ocf:rootfiles></ocf:container>')
        for n, b in files.items():
            z.writestr(n, b)
    return path


def test_hwpx_manifest_ids_hrefs_media_types_and_item_references_are_rebuilt(tmp_path):
    sec1 = f"Contents/section{PHONE}.xml"
    items = (f'<opf:item id="{NAME}사진" href="BinData/{DIGITS}.png" media-type="image/png; name={NAME}.png" '
             f'isEmbeded="1" note="{NAME}"/>'
             f'<opf:item id="s{DIGITS}" href="Contents/section0.xml" media-type="application/xml"/>'
             f'<opf:item id="sec_{PHONE}" href="{sec1}" media-type="application/xml ;charset={PHONE}"/>')
    spine = (f'<opf:itemref idref="s{DIGITS}" linear="yes" x="{NAME}"/><opf:itemref idref="sec_{PHONE}" '
             f'linear="yes"/><opf:itemref idref="gone{DIGITS}"/>')
    src = _hwpx(tmp_path / "a.hwpx", items, spine,
                {"Contents/section0.xml": _section(f"담당 {NAME} 님", f"{NAME}사진"),
                 sec1: _section("둘째 구역"), f"BinData/{DIGITS}.png": _png()})
    assert package_problems(src.read_bytes()) == [f"content.hpf spine idref unresolved: gone{DIGITS}"]
    out = tmp_path / "out.hwpx"
    redact(src, out, {NAME: "PERSON"})
    _assert_absent(out, NAME, DIGITS, PHONE)
    assert package_problems(out.read_bytes()) == []
    m = _members(out)
    assert sorted(m) == ["BinData/image1.png", "Contents/content.hpf", "Contents/header.xml",
                         "Contents/section0.xml", "Contents/section1.xml", "META-INF/container.xml", "mimetype"]
    hpf = etree.fromstring(m["Contents/content.hpf"])
    items = [dict(el.attrib) for el in hpf.iter("{http://www.idpf.org/2007/opf/}item")]
    assert items == [
        {"id": "header", "href": "Contents/header.xml", "media-type": "application/xml"},
        {"id": "image1", "href": "BinData/image1.png", "media-type": "image/png", "isEmbeded": "1"},
        {"id": "section0", "href": "Contents/section0.xml", "media-type": "application/xml"},
        {"id": "section1", "href": "Contents/section1.xml", "media-type": "application/xml"}]
    spine = [dict(el.attrib) for el in hpf.iter("{http://www.idpf.org/2007/opf/}itemref")]
    assert spine == [{"idref": "header", "linear": "yes"}, {"idref": "section0", "linear": "yes"},
                     {"idref": "section1", "linear": "yes"}]
    assert b'binaryItemIDRef="image1"' in m["Contents/section0.xml"]
    assert b'media-type="application/hwpml-package+xml"' in m["META-INF/container.xml"]
    assert m["mimetype"] == b"application/hwp+zip"
    infos = zipfile.ZipFile(out).infolist()
    assert infos[0].filename == "mimetype" and infos[0].compress_type == zipfile.ZIP_STORED
    assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in infos)
    from veil_desktop.documents import open_document
    text = open_document(out).text
    assert "담당 [PERSON] 님" in text and "둘째 구역" in text


def test_hwpx_reference_to_no_item_goes_with_its_object(tmp_path):
    items = '<opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/>'
    src = _hwpx(tmp_path / "a.hwpx", items, '<opf:itemref idref="section0" linear="yes"/>',
                {"Contents/section0.xml": _section("본문 문장", f"rId{PHONE}")})
    out = tmp_path / "out.hwpx"
    redact(src, out, {"본문": "OTHER"})
    _assert_absent(out, PHONE)
    sec = _members(out)["Contents/section0.xml"]
    assert b"hp:pic" not in sec and "문장".encode() in sec
    assert package_problems(out.read_bytes()) == []


def test_hwpx_mimetype_is_written_anew(tmp_path):
    items = '<opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/>'
    src = _hwpx(tmp_path / "a.hwpx", items, '<opf:itemref idref="section0" linear="yes"/>',
                {"Contents/section0.xml": _section("본문 문장")}, mimetype=f"application/hwp+zip {PHONE}")
    out = tmp_path / "out.hwpx"
    redact(src, out, {"본문": "OTHER"})
    assert _members(out)["mimetype"] == b"application/hwp+zip"
    _assert_absent(out, PHONE)


def test_unreferenced_parts_keep_a_grammar_name_and_lose_any_other(tmp_path):
    """A part no relationship reaches: ``customXml/item9.xml`` is of the grammar and keeps its name (so
    messages name what the input had); ``word/kim_01012345678.xml`` becomes ``word/part1.xml``."""
    src = make_docx(tmp_path / "a.docx", para("본문"),
                    parts={"customXml/item9.xml": '<?xml version="1.0"?><data><v>값</v></data>',
                           f"word/kim_{PHONE}.xml": '<?xml version="1.0"?><data><v>값</v></data>'})
    out = tmp_path / "out.docx"
    redact(src, out, {"본문": "OTHER"})
    names = set(_members(out))
    assert {"customXml/item9.xml", "word/part1.xml"} <= names and f"word/kim_{PHONE}.xml" not in names
    _assert_absent(out, PHONE, "kim_")


def test_an_unreferenced_singleton_keeps_its_grammar_name(tmp_path):
    src = make_docx(tmp_path / "a.docx", para("본문"),
                    parts={"word/people.xml": '<?xml version="1.0"?><w15:people xmlns:w15="http://schemas.'
                                              'microsoft.com/office/word/2012/wordml"/>'})
    out = tmp_path / "out.docx"
    redact(src, out, {"본문": "OTHER"})
    m = _members(out)
    assert "word/people.xml" in m
    ct = etree.fromstring(m["[Content_Types].xml"])
    assert {el.get("PartName"): el.get("ContentType") for el in ct.iter(CT_NS + "Override")}[
        "/word/people.xml"] == "application/vnd.openxmlformats-officedocument.wordprocessingml.people+xml"


# -- DOCX: Word session ids (8 hex digits) ------------------------------------------------------------------
W14 = "http://schemas.microsoft.com/office/word/2010/wordml"
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"


def test_rsids_and_paragraph_ids_are_renumbered_consistently(tmp_path):
    # an all-digit rsid / paraId is a phone's 8 digits (red team 5, 2a): 01039472 + 0103 9473
    body = (f'<w:p xmlns:w14="{W14}" w14:paraId="01039472" w14:textId="77777777" w:rsidR="01039472" '
            f'w:rsidRDefault="01039473"><w:r w:rsidRPr="01039472"><w:t>첫 문단</w:t></w:r></w:p>'
            f'<w:p xmlns:w14="{W14}" w14:paraId="1A2B3C4D" w:rsidR="01039473"><w:r><w:t>둘째 문단</w:t></w:r></w:p>')
    settings = (f'<w:settings xmlns:w="{W_NS}"><w:rsids><w:rsidRoot w:val="01039472"/><w:rsid w:val="01039472"/>'
                '<w:rsid w:val="01039473"/></w:rsids></w:settings>')
    extended = (f'<w15:commentsEx xmlns:w15="{W15}"><w15:commentEx w15:paraId="1A2B3C4D" w15:done="0"/>'
                "</w15:commentsEx>")
    src = make_docx(tmp_path / "rsid.docx", body,
                    doc_rels=[("rId1", "settings", "settings.xml"),
                              ("rId2", "http://schemas.microsoft.com/office/2011/relationships/commentsExtended",
                               "commentsExtended.xml")],
                    parts={"word/settings.xml": settings, "word/commentsExtended.xml": extended},
                    overrides={"word/settings.xml": "application/vnd.openxmlformats-officedocument."
                                                    "wordprocessingml.settings+xml"})
    out = tmp_path / "out.docx"
    redact(src, out, {"첫 문단": "PERSON"})
    m = _members(out)
    for name, data in m.items():
        for v in (b"01039472", b"01039473", b"0103", b"77777777", b"1A2B3C4D"):
            assert v not in data, (v, name)
    doc = etree.fromstring(m["word/document.xml"])
    ps = list(doc.iter(f"{{{W_NS}}}p"))
    para_ids = [p.get(f"{{{W14}}}paraId") for p in ps]
    rsid_r = [p.get(f"{{{W_NS}}}rsidR") for p in ps]
    # one injective map: equal stays equal, different stays different, paraIds below 0x80000000
    assert rsid_r[0] != rsid_r[1] and ps[0].find(f"{{{W_NS}}}r").get(f"{{{W_NS}}}rsidRPr") == rsid_r[0]
    assert ps[0].get(f"{{{W_NS}}}rsidRDefault") == rsid_r[1]
    assert all(re.fullmatch(r"[1-7][A-F]{7}", v) and int(v, 16) < 0x80000000 for v in para_ids + rsid_r)
    st = etree.fromstring(m["word/settings.xml"])
    vals = [el.get(f"{{{W_NS}}}val") for el in st.iter() if el.get(f"{{{W_NS}}}val")]
    assert vals == [rsid_r[0], rsid_r[0], rsid_r[1]]
    ex = etree.fromstring(m["word/commentsExtended.xml"])
    assert next(ex.iter(f"{{{W15}}}commentEx")).get(f"{{{W15}}}paraId") == para_ids[1]
    assert [p.text for p in docx.Document(str(out)).paragraphs] == ["[PERSON]", "둘째 문단"]


def test_new_session_ids_have_no_digit_run():
    ids = [opc._new_hex_id(n) for n in (0, 1, 5, 6, 6 ** 7 - 1, 6 ** 7, 7 * 6 ** 7 - 1)]
    assert ids[:3] == ["1AAAAAAA", "1AAAAAAB", "1AAAAAAF"] and ids[3] == "1AAAAABA"
    assert ids[4] == "1FFFFFFF" and ids[5] == "2AAAAAAA" and ids[6] == "7FFFFFFF"
    with pytest.raises(ValueError):
        opc._new_hex_id(7 * 6 ** 7)
