"""Base64 that decodes to personal text, in any format's reviewable text (issue 26, default deny): an HWPX
``hh:forbiddenWord`` (Hancom stores its line-breaking character lists there as base64 of UTF-16LE, in
76-column lines), a DOCX body line. The detectors cannot read base64 and a recipient can decode it, so the
file needs review; Hancom's own lists (punctuation and small kana) do not hold a file."""
from __future__ import annotations

import base64
import io
import zipfile
from pathlib import Path

import docx

from veil_desktop.documents import open_document

from test_documents_hwpx import build_hwpx

SECRET = "담당 홍길동 010-2345-6789"
#: the kind of list Hancom writes: characters a line may not start with (ASCII and CJK punctuation,
#: small kana, iteration marks)
KINSOKU = "!%),.:;?]}°·’”‰′″℃〉》」』】〕ぁぃぅぇぉっゃゅょゎゝゞァィゥェォッャュョヮ、。！％），．：；？］｝"


def _b64_lines(text: str, codec: str, width: int = 76) -> str:
    s = base64.b64encode(text.encode(codec)).decode("ascii")
    return "\n".join(s[i:i + width] for i in range(0, len(s), width))


def _hwpx_with_forbidden_words(tmp_path: Path, words: list[str]) -> Path:
    src = build_hwpx(tmp_path / "base.hwpx")
    out = tmp_path / "forbidden.hwpx"
    items = "".join(f"<hh:forbiddenWord>{w}</hh:forbiddenWord>" for w in words)
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "Contents/header.xml":
                data = data.replace(b"</hh:head>", f'<hh:forbiddenWordList itemCnt="{len(words)}">{items}'
                                    "</hh:forbiddenWordList></hh:head>".encode())
            zout.writestr(info, data)
    return out


def _encoded(doc) -> list:
    return [u for u in doc.unreadable if u.reason == "encoded_text"]


def test_hwpx_forbidden_word_holding_a_name_and_phone_needs_review(tmp_path):
    # split into 20-column lines: no single line is a 24-character run
    path = _hwpx_with_forbidden_words(tmp_path, [_b64_lines(SECRET, "utf-16-le", width=20)])
    doc = open_document(path)
    found = _encoded(doc)
    assert [u.where for u in found] == ["encoded text (Styles and numbering)"], doc.unreadable
    assert found[0].caption and found[0].caption_en
    assert "base64" in found[0].caption_en


def test_hancom_punctuation_lists_do_not_hold_the_file(tmp_path):
    words = [_b64_lines(" ", "utf-16-le"), _b64_lines(KINSOKU, "utf-16-le"),
             _b64_lines(KINSOKU[::-1], "utf-16-le")]
    assert min(len(w.replace("\n", "")) for w in words[1:]) > 100
    doc = open_document(_hwpx_with_forbidden_words(tmp_path, words))
    assert _encoded(doc) == []
    assert base64.b64encode(KINSOKU.encode("utf-16-le")).decode()[:40] in doc.text.replace("\n", "")


def test_docx_body_line_in_base64_needs_review_and_prose_does_not(tmp_path):
    d = docx.Document()
    d.add_paragraph("회의 결과를 아래와 같이 알려 드립니다. Administration and InternationalCooperation.")
    d.add_paragraph(_b64_lines(SECRET, "utf-8", width=16))
    p = tmp_path / "b64.docx"
    d.save(p)
    found = _encoded(open_document(p))
    assert [u.where for u in found] == ["encoded text (Body)"], found

    d = docx.Document()
    for line in ["ReferenceNumber", "AdministrationDepartment", "InternationalCooperationDivision",
                 "a3f9c2e1b4d5a6f7e8d9c0b1a2f3e4d5c6b7a8f9", "Q2hhcnRlcg=="]:
        d.add_paragraph(line)
    p = tmp_path / "plain.docx"
    d.save(p)
    assert _encoded(open_document(p)) == []
