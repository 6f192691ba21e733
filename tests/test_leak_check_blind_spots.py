"""Leak-check blind spots (issue 10 class 1 and 3): a masked value copied somewhere a recipient could read
it — an XML comment, a PI, CDATA, an attribute, an unreferenced part, NFD Hangul, zero-width characters,
%-escapes, character references, UTF-16 inside a binary, a member name, picture metadata — must FAIL the
check (and the export: nothing written). Plus the copy matcher's Unicode/spacing robustness."""
from __future__ import annotations

import io
import struct
import unicodedata
import zipfile
import zlib
from urllib.parse import quote

import pytest

from tests.fixtures.leak_builders import make_docx, para
from veil_desktop.detect.span import Span
from veil_desktop.documents import LeakDetected, export_document, open_document
from veil_desktop.documents import docx as docx_mod
from veil_desktop.documents import leakcheck
from veil_desktop.documents.matching import ValueMatcher, find_unmasked_copies, strip_separators
from veil_desktop.documents.safezip import Member
from veil_desktop.masking import Masker

NAME = "김민수"
PHONE = "010-2345-6789"
RRN = "900101-1234567"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _png_with_text(text: str) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"zTXt", b"Author\x00\x00" + zlib.compress(text.encode("latin-1", "replace")
                                                              + text.encode("utf-8")))
            + chunk(b"IEND", b""))


def _xml(inner: str) -> str:
    return f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{W}"><w:body>{inner}</w:body></w:document>'


# (id, member name, member bytes) — each holds NAME or PHONE in a form a reader would show or extract
INJECTIONS = [
    ("xml comment", "word/document.xml", _xml(f"<!-- {NAME} -->" + para("x")).encode()),
    ("processing instruction", "word/document.xml", _xml(f"<?note {NAME}?>" + para("x")).encode()),
    ("cdata", "word/document.xml", _xml(f"<w:p><w:r><w:t><![CDATA[<b>{NAME}</b>]]></w:t></w:r></w:p>").encode()),
    ("attribute", "word/document.xml", _xml(f'<w:p w:foo="{PHONE}"/>').encode()),
    ("attribute in comment", "word/document.xml", _xml(f'<!-- <w:p w:foo="{NAME}"/> -->').encode()),
    ("unreferenced part", "word/zz-unused.xml", f"<a>{NAME}</a>".encode()),
    ("nfd hangul", "word/document.xml", _xml(para(unicodedata.normalize("NFD", NAME))).encode()),
    ("zero-width space", "word/document.xml", _xml(para("김\u200b민\u200d수")).encode()),
    ("soft hyphen and bom", "word/document.xml", _xml(para("010\u00ad2345\ufeff6789")).encode()),
    ("letter-spaced digits", "word/document.xml", _xml(para("0 1 0 2 3 4 5 6 7 8 9")).encode()),
    ("full-width digits", "word/document.xml", _xml(para("０１０－２３４５－６７８９")).encode()),
    ("hex char refs", "word/document.xml", _xml(para("".join(f"&#x{ord(c):x};" for c in NAME))).encode()),
    ("double escaped", "word/document.xml", _xml(para("".join(f"&amp;#{ord(c)};" for c in NAME))).encode()),
    ("url escaped utf-8", "word/_rels/document.xml.rels",
     f'<Relationships xmlns="x"><Relationship Id="r" Target="https://x/?q={quote(NAME)}" '
     'TargetMode="External"/></Relationships>'.encode()),
    ("url escaped cp949", "word/document.xml",
     _xml(f'<w:hyperlink w:tooltip="{quote(NAME.encode("cp949"))}"/>').encode()),
    ("utf-16 in binary", "word/media/blob.bin", b"\x00\x01\x02\x03" + NAME.encode("utf-16-le") + b"\xff\x00"),
    ("cp949 text member", "word/note.txt", f"메모: {NAME} 확인".encode("cp949")),
    ("member name", f"word/media/{NAME}.png", _png_with_text("x")),
    ("png text chunk", "word/media/image9.png", _png_with_text(NAME)),
    ("rtf escapes", "word/chunk.rtf", ("{\\rtf1 " + "".join(f"\\'{b:02x}" for b in NAME.encode("cp949"))
                                       + "}").encode()),
    ("nested zip", "word/embeddings/pkg.zip", None),
]


def _nested_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("xl/sharedStrings.xml", f"<sst><si><t>{NAME}</t></si></sst>")
    return buf.getvalue()


def _zip(members: dict[str, bytes], comment: bytes = b"") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in members.items():
            z.writestr(n, b)
        z.comment = comment
    return buf.getvalue()


MATCHER = ValueMatcher([NAME, PHONE, RRN])


@pytest.mark.parametrize("case", INJECTIONS, ids=[c[0] for c in INJECTIONS])
def test_leak_check_finds_the_value(case):
    _id, name, data = case
    data = _nested_zip() if data is None else data
    clean = {"word/document.xml": _xml(para("안녕하세요")).encode()}
    assert leakcheck.check_zip_bytes(_zip(clean), MATCHER).clean  # control: no false alarm
    rep = leakcheck.check_zip_bytes(_zip({**clean, name: data}), MATCHER)
    assert not rep.clean, rep.scanned[-5:]


def test_leak_check_zip_comment_member_comment_and_text_outputs():
    assert not leakcheck.check_zip_bytes(_zip({"a.xml": b"<a/>"}, comment=NAME.encode()), MATCHER).clean
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        info = zipfile.ZipInfo("a.xml")
        info.comment = PHONE.encode()
        z.writestr(info, b"<a/>")
    assert not leakcheck.check_zip_bytes(buf.getvalue(), MATCHER).clean
    for text in (f"이름: {unicodedata.normalize('NFD', NAME)}", "주민 9 0 0 1 0 1 - 1 2 3 4 5 6 7",
                 f"<p>김<b></b>민수</p>", "%EA%B9%80%EB%AF%BC%EC%88%98"):
        assert not leakcheck.check_text_bytes(text.encode("utf-8"), MATCHER).clean, text
    assert not leakcheck.check_text_bytes(f"\ufeff이름 {NAME}".encode("utf-16"), MATCHER).clean
    assert leakcheck.check_text_bytes("이름 [PERSON], 전화 010-****-****".encode(), MATCHER).clean


def test_unreadable_output_fails_closed():
    rep = leakcheck.check_zip_bytes(b"PK\x03\x04 not really a zip", MATCHER)
    assert not rep.clean and "cannot be re-read" in rep.hits[0]


@pytest.mark.parametrize("case", [c for c in INJECTIONS if c[1] != "word/document.xml"][:6]
                         + [c for c in INJECTIONS if c[0] in ("xml comment", "cdata", "nfd hangul",
                                                              "zero-width space", "hex char refs")],
                         ids=lambda c: c[0])
def test_export_fails_when_the_writer_leaves_a_copy(tmp_path, monkeypatch, case):
    """End to end: a (simulated) writer fault copies the masked value into a place; the independent
    re-read catches it, nothing is written, the original is untouched."""
    _id, name, data = case
    data = _nested_zip() if data is None else data
    src = make_docx(tmp_path / "a.docx", para(f"담당 {NAME} {PHONE}"))
    before = src.read_bytes()
    doc = open_document(src)
    a = doc.text.index(NAME)
    b = doc.text.index(PHONE)
    plan = Masker().plan(doc.text, [Span(a, a + 3, "PERSON", 0.9, "rule"),
                                    Span(b, b + len(PHONE), "PHONE", 0.9, "rule")])
    real_scrub = docx_mod.PROFILE.scrub

    def leaky_scrub(members, d):
        out = [m for m in real_scrub(members, d)]
        if name == "word/document.xml":  # the masked body plus the copy
            body = next(m for m in out if m.name == name)
            inner = data.decode().split("<w:body>", 1)[1].split("</w:body>", 1)[0]
            patched = body.data.decode().replace("</w:body>", inner + "</w:body>")
            out = [Member(m.name, patched.encode(), m.compress_type, m.date_time) if m is body else m
                   for m in out]
        else:
            out = [m for m in out if m.name != name] + [Member(name, data, zipfile.ZIP_DEFLATED,
                                                               (2024, 1, 1, 0, 0, 0))]
        return out

    monkeypatch.setattr(docx_mod.PROFILE, "scrub", leaky_scrub)
    with pytest.raises(LeakDetected):
        export_document(doc, plan, tmp_path / "o.docx")
    assert not (tmp_path / "o.docx").exists() and not list(tmp_path.glob(".veil-*"))
    assert src.read_bytes() == before


# -- the copy matcher --------------------------------------------------------------------------------
@pytest.mark.parametrize("copy", [
    unicodedata.normalize("NFD", NAME), "김\u200b민수", "김\u200d민\u200c수", "김\u00ad민수", "김민\ufeff수",
    "김 민 수", "ＫＩＭ".lower() and NAME,
])
def test_copy_matcher_finds_tricked_copies_and_maps_offsets_back(copy):
    text = f"담당 {NAME} 님. 사본: {copy} 님"
    plan = Masker().plan(text, [Span(3, 6, "PERSON", 0.9, "rule")])
    copies = find_unmasked_copies(text, plan)
    assert len(copies) == 1
    a, b = copies[0]
    assert text[a:b] == copy and strip_separators(text[a:b]) == NAME


def test_copy_matcher_digits_spaced_and_split_in_a_quoted_csv_cell(tmp_path):
    src = tmp_path / "a.csv"
    src.write_text(f'이름,전화\n홍길동,{PHONE}\n홍길동,"010-2345\n-6789"\n주민,9 0 0 1 0 1 - 1 2 3 4 5 6 7\n'
                   f'주민2,{RRN}\n', encoding="utf-8")
    doc = open_document(src)
    i, j = doc.text.index(PHONE), doc.text.index(RRN)
    plan = Masker().plan(doc.text, [Span(i, i + len(PHONE), "PHONE", 0.9, "rule"),
                                    Span(j, j + len(RRN), "RRN", 0.9, "rule")])
    copies = find_unmasked_copies(doc.text, plan)
    assert [doc.text[a:b] for a, b in copies] == ["010-2345\n-6789", "9 0 0 1 0 1 - 1 2 3 4 5 6 7"]
    with pytest.raises(LeakDetected):
        export_document(doc, plan, tmp_path / "o.csv")
    res = export_document(doc, plan, tmp_path / "o.csv", mask_copies=True)
    assert res.leak_check["result"] == "clean"
    out = (tmp_path / "o.csv").read_text("utf-8")
    assert "2345" not in out and "1 2 3 4 5 6 7" not in out


def test_matcher_case_and_boundaries_still_hold():
    m = ValueMatcher(["hong@example.com", "Kim Lee"])
    assert m.search("mail HONG@Example.COM") is not None
    assert m.search("KIM LEE") is not None and m.search("Kim Leeds") is None
    assert ValueMatcher([NAME]).search("김민순") is None


def test_bytes_outside_members_and_local_header_names():
    clean = _zip({"word/document.xml": _xml(para("안녕하세요")).encode()})
    assert leakcheck.check_zip_bytes(clean, MATCHER).clean
    prefixed = f"메모 {NAME}\n".encode() + clean          # before the first member (zip tools still open it)
    assert not leakcheck.check_zip_bytes(prefixed, MATCHER).clean
    # a local header whose name differs from the central directory's
    local_name = b"word/document.xml"
    forged = clean.replace(local_name, "w/김민수.xml".encode().ljust(len(local_name), b"_"), 1)
    assert not leakcheck.check_zip_bytes(forged, MATCHER).clean


def test_windowed_search_finds_values_at_the_end_and_across_window_seams(monkeypatch):
    monkeypatch.setattr(leakcheck, "WINDOW_CHARS", 1000)
    monkeypatch.setattr(leakcheck, "WINDOW_OVERLAP", 100)
    filler = "일반 문장입니다. " * 300                      # 3,000 characters: several windows
    assert leakcheck._search(MATCHER, filler) is None
    assert leakcheck._search(MATCHER, filler + NAME) == len(filler)
    seam = 998                                           # NAME straddles the first window's end (1,000)
    text = filler[:seam] + NAME + filler[seam:]
    assert leakcheck._search(MATCHER, text) == seam
    assert not leakcheck.check_text_bytes(text.encode("utf-8"), MATCHER).clean
