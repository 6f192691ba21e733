"""Korean throughout (issue 22): no Latin words in the Korean UI text other than names and codes.

Walks the whole catalogue in ``ko`` and the find bar's error messages (regex, too long, empty match — once
English regex-engine wording in the Korean UI) and fails on any Latin word outside the allow-list."""
from __future__ import annotations

import re

import pytest

from veil_desktop.review.state import ReviewState
from veil_desktop.ui import i18n
from veil_desktop.ui.document_view import DocumentView
from veil_desktop.ui.find_bar import FindBar, find_error_text

#: names and codes a Korean UI may show in Latin letters
ALLOW = {
    "PDF", "DOCX", "HWP", "HWPX", "OCR", "URL", "ID", "CSV", "TXT", "TSV", "JSON", "PNG", "JPEG", "TIFF", "XFDF",
    "RRN", "SHA", "ONNX", "Qt", "X11", "xcb", "Debian", "Ubuntu", "Apache", "LICENSE", "QT_QPA_PLATFORM",
    "offscreen", "sudo", "apt", "get", "install", "veil", "desktop", "redact", "Ctrl", "Shift", "Alt", "Enter",
    "Esc", "Tab", "PgUp", "PgDown", "Del", "Space", "Viterbi", "tesseract",
}


def latin_words(text: str) -> list[str]:
    text = re.sub(r"\{[^}]*\}", "", text)               # format fields
    text = re.sub(r"\*\.[A-Za-z0-9.-]+", "", text)      # file patterns (*.csv, *.veil-review.json)
    text = re.sub(r"\b[A-Za-z]+[-_][A-Za-z0-9_.-]+", "", text)   # codes: label names, package names
    text = re.sub(r"\bF\d+\b", "", text)                # function keys
    return [w for w in re.findall(r"[A-Za-z]+", text) if w not in ALLOW and not (w.isupper() and len(w) <= 12)]


def test_latin_words_are_found():
    assert latin_words("정규식 오류: unterminated character set") == ["unterminated", "character", "set"]
    assert latin_words("PDF 문서 (F5) {name} *.csv PERSON") == []


def test_the_korean_catalogue_has_no_latin_words():
    bad = {k: latin_words(i18n.tr(k, "ko")) for k in i18n.keys()}
    assert {k: v for k, v in bad.items() if v} == {}
    assert len(i18n.keys()) > 300                   # the walk really reads the catalogue


@pytest.mark.parametrize("query, regex", [("[", True), ("(a", True), ("a*", True), ("x" * 5000, False)])
def test_find_errors_are_korean(qtbot, query, regex):
    view = DocumentView()
    qtbot.addWidget(view)
    text = "담당 홍길동 과장\n"
    state = ReviewState(text)
    view.set_text(text, state)
    view.finish_loading()
    bar = FindBar(lang="ko")
    qtbot.addWidget(bar)
    bar.set_document(view, state)
    bar.regex.setChecked(regex)
    bar.query.setText(query)
    qtbot.waitUntil(lambda: not bar.scanning)
    msg = bar.count.text()
    assert msg and re.search(r"[가-힣]", msg) and latin_words(msg) == [], msg


def test_find_error_text_positions_and_english():
    assert find_error_text("Not a valid regular expression: unterminated character set at position 0", "ko") \
        == "정규식이 올바르지 않습니다. (1번째 글자 근처)"
    assert find_error_text("Not a valid regular expression: missing ), unterminated subpattern at position 0",
                           "en") == "Not a valid regular expression. (near character 1)"
    assert find_error_text("something new", "ko") == "찾을 수 없는 패턴입니다."


def test_korean_part_names_are_captioned_in_english():
    from veil_desktop.documents.model import Part
    from veil_desktop.ui.table_model import part_caption

    body = Part("본문", 0, 10, "memo.txt")
    assert (part_caption(body, "en"), part_caption(body, "ko")) == ("Body", "본문")
    sec = Part("구역 2", 10, 20, "doc.hwp")
    assert (part_caption(sec, "en"), part_caption(sec, "ko")) == ("Section 2", "구역 2")


def test_reader_notes_after_export_are_korean():
    from veil_desktop.ui.export_summary import note_text

    notes = ["Text recognised by OCR (2 page(s)); check the page image for what OCR missed.",
             "Pages OCR could not read reliably (needs review): 2, 3.",
             "1 of 3 page(s) have no usable text layer (scanned?) and were read by OCR: compare the page image "
             "with the text.",
             "Needs review: page(s) 2 hold content that could not be read as text (no text layer, pictures, or a "
             "text layer that does not match the glyphs).",
             "PDF export is a rasterised copy with black boxes burned in (no text layer)."]
    ko = [note_text(n, "ko") for n in notes]
    assert ko[0] == "OCR로 읽은 글자입니다 (2쪽). OCR이 놓친 내용은 쪽 이미지에서 확인하십시오."
    assert ko[1] == "OCR로 확실히 읽지 못한 쪽 (검토 필요): 2, 3쪽"
    assert all(latin_words(t) == [] for t in ko), ko
    assert note_text("Something new.", "ko") == "Something new."
