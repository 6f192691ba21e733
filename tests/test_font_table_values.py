"""Issue 22: a font table's technical values (PANOSE numbers, Unicode/code-page signature bits, charset,
family, pitch, HWPX type info) are not offered as reviewable text — "기타 문서 데이터" once listed eight
``[속성] 0000…`` numbers from a Word font table — while font *names* stay reviewable (a font named after
a person is issue 26's attack class) and a value without the technical grammar is still shown."""
from __future__ import annotations

import zipfile

from tests.fixtures.leak_builders import HWPX_NS, W_NS, assert_gone, hp, make_docx, make_hwpx, para, redact
from veil_desktop.documents import open_document

CT_FONTS = "application/vnd.openxmlformats-officedocument.wordprocessingml.fontTable+xml"
RT_FONTS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/fontTable"

#: what Word 2016 writes for fonts a Korean document uses (values copied from real font tables)
WORD_FONTS = [
    ("맑은 고딕", "Malgun Gothic", "020B0503020000020004", "81", "swiss",
     ("9000002F", "29DFFFFF", "0000003F", "00000000", "003E0001", "00000000")),
    ("바탕", "Batang", "02030600000101010101", "81", "roman",
     ("B00002AF", "69D77CFB", "00000030", "00000000", "0008009F", "00000000")),
    ("Symbol", None, "00000000000000000000", "02", "auto",
     ("00000000", "10000000", "00000000", "00000000", "80000000", "00000000")),
    ("Times New Roman", None, "02020603050405020304", "00", "roman",
     ("E0002EFF", "C000785B", "00000009", "00000000", "000001FF", "00000000")),
]


def word_font(name, alt, panose, charset, family, sig, *, embed=False):
    usb = dict(zip(("usb0", "usb1", "usb2", "usb3", "csb0", "csb1"), sig))
    return (f'<w:font w:name="{name}">' + (f'<w:altName w:val="{alt}"/>' if alt else "")
            + f'<w:panose1 w:val="{panose}"/><w:charset w:val="{charset}"/><w:family w:val="{family}"/>'
            '<w:notTrueType/><w:pitch w:val="variable"/>'
            + "<w:sig " + " ".join(f'w:{k}="{v}"' for k, v in usb.items()) + "/>"
            + ('<w:embedRegular r:id="rId1" w:fontKey="{6C5D9B2A-0E5B-4C0B-9F53-0A0B0C0D0E0F}" '
               'w:subsetted="1"/>' if embed else "") + "</w:font>")


def font_docx(path, fonts: str):
    table = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:fonts xmlns:w="{W_NS}" '
             'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' + fonts + "</w:fonts>")
    return make_docx(path, para("민원 처리 결과를 알려 드립니다."), doc_rels=[("rIdFt", "fontTable", "fontTable.xml")],
                     parts={"word/fontTable.xml": table}, overrides={"word/fontTable.xml": CT_FONTS})


def other_text(doc) -> str:
    return "".join(doc.text[p.start:p.end] for p in doc.parts if p.source.endswith("fontTable.xml"))


def test_word_font_table_numbers_are_not_reviewable_text(tmp_path):
    src = font_docx(tmp_path / "fonts.docx", "".join(word_font(*f, embed=i == 0) for i, f in enumerate(WORD_FONTS)))
    with zipfile.ZipFile(src) as z:
        assert b"29DFFFFF" in z.read("word/fontTable.xml")       # the table really is in the file
    doc = open_document(src)
    assert "[Attribute]" not in other_text(doc) and "[Attribute]" not in doc.text, other_text(doc)
    for _name, _alt, panose, _cs, _fam, sig in WORD_FONTS:
        assert panose not in doc.text and not any(s in doc.text for s in sig if s != "00000000")


def test_a_person_named_font_and_digits_in_the_signature_are_still_shown(tmp_path):
    person = "김민수체"
    rrn = "9001011234567"            # 13 digits where a signature holds 8 hex digits
    phone = "01023456789"            # 11 digits where PANOSE holds 20 hex digits
    fonts = (word_font(person, "이서연", "020B0503020000020004", "81", "swiss",
                       (rrn, "29DFFFFF", "0000003F", "00000000", "003E0001", "00000000"))
             + word_font("맑은 고딕", "Malgun Gothic", phone, "81", "swiss", WORD_FONTS[0][5]))
    src = font_docx(tmp_path / "hostile.docx", fonts)
    doc = open_document(src)
    text = other_text(doc)
    for value in (person, "이서연", rrn, phone):
        assert f"[Attribute] {value}\n" in text, text
    assert "29DFFFFF" not in text and "020B0503020000020004" not in text      # the real ones stay unseen
    values = {person: "PERSON", "이서연": "PERSON", rrn: "RRN", phone: "PHONE"}
    _doc, res = redact(src, tmp_path / "out.docx", values)
    assert res.leak_check["result"] == "clean"
    assert_gone(tmp_path / "out.docx", *values)


def test_hwpx_font_faces_show_names_not_type_numbers(tmp_path):
    faces = "".join(
        f'<hh:fontface lang="{lang}" fontCnt="2">'
        '<hh:font id="0" face="함초롬돋움" type="TTF" isEmbedded="0"><hh:typeInfo familyType="FCAT_GOTHIC" '
        'weight="6" proportion="4" contrast="0" strokeVariation="1" armStyle="1" letterform="1" midline="1" '
        'xHeight="1"/></hh:font>'
        f'<hh:font id="1" face="{"박지훈체" if lang == "HANGUL" else "함초롬바탕"}" type="TTF" isEmbedded="0">'
        '<hh:substFont face="바탕" type="TTF" isEmbedded="0" binaryItemIDRef=""/>'
        '<hh:typeInfo familyType="FCAT_MYUNGJO" weight="6" proportion="4" contrast="0" strokeVariation="1" '
        'armStyle="1" letterform="1" midline="1" xHeight="1"/></hh:font></hh:fontface>'
        for lang in ("HANGUL", "LATIN", "HANJA", "JAPANESE", "OTHER", "SYMBOL", "USER"))
    src = make_hwpx(tmp_path / "fonts.hwpx", hp("민원 처리 결과"),
                    header=f'<hh:refList><hh:fontfaces itemCnt="7">{faces}</hh:fontfaces></hh:refList>')
    doc = open_document(src)
    shown = [line for line in doc.text.split("\n") if line.startswith("[")]
    assert any("박지훈체" in line for line in shown), doc.text          # the person-named font is reviewable
    assert not any(c.isdigit() for line in shown for c in line), shown  # no type-info numbers
    assert not any("함초롬" in line for line in shown)                  # real font names stay unseen


def test_font_table_grammar_holds_in_strict_walks_and_only_for_its_own_values():
    from lxml import etree

    from veil_desktop.documents.xmlwalk import harmless_value

    w = "{%s}" % W_NS
    sig = etree.Element(w + "sig")
    pan = etree.Element(w + "panose1")
    assert harmless_value(sig, w + "usb0", "00000000", strict=True)          # a custom-XML-strict walk too
    assert harmless_value(pan, w + "val", "00000000000000000000", strict=True)
    assert not harmless_value(sig, w + "usb0", "9001011234567", strict=True)  # 13 digits: not a signature
    assert not harmless_value(pan, w + "val", "010-2345-6789", strict=True)
    other = etree.Element(w + "val")                                          # the grammar is per element
    assert not harmless_value(other, w + "usb0", "00000000000000000000", strict=True)
