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


def korean_and_latin_free(text: str, *values: str) -> bool:
    """``text`` is Korean and has no Latin words once the given names/paths are taken out."""
    for v in sorted(map(str, values), key=len, reverse=True):      # a path before its name
        text = text.replace(v, "")
    return bool(re.search(r"[가-힣]", text)) and latin_words(text) == []


def _model_folders(tmp_path):
    """Real broken model folders, one per kind of problem the loader reports."""
    import json

    def folder(name, files):
        d = tmp_path / name
        d.mkdir()
        for fn, data in files.items():
            (d / fn).write_text(data, encoding="utf-8")
        return d

    labels = {"id2label": {"0": "O", "1": "B-PER", "2": "I-PER", "3": "E-PER", "4": "S-PER"}}
    not_folder = tmp_path / "plain.txt"
    not_folder.write_text("x", encoding="utf-8")
    return {
        "missing": tmp_path / "nowhere",
        "not_folder": not_folder,
        "incomplete": folder("no-config", {}),
        "bad_json": folder("bad-json", {"config.json": "{not json"}),
        "bad_labels": folder("bad-labels", {"config.json": json.dumps({"id2label": {"0": "B-PER"}})}),
        "no_tokenizer": folder("no-tokenizer", {"config.json": json.dumps(labels)}),
        "bad_tokenizer": folder("bad-tokenizer", {"config.json": json.dumps(labels), "vocab.txt": "a\nb\n"}),
        "no_onnx": folder("no-onnx", {"config.json": json.dumps(labels),
                                      "vocab.txt": "[PAD]\n[UNK]\n[CLS]\n[SEP]\n가\n"}),
    }


def test_model_folder_errors_are_korean(tmp_path):
    from veil_desktop.detect.model_folder import ModelFolderError, load_model_folder

    seen = {}
    for expected, path in _model_folders(tmp_path).items():
        with pytest.raises(ModelFolderError) as ei:
            load_model_folder(path, threads=1)
        e = ei.value
        seen[expected] = e.code
        ko = i18n.model_error_text(e, "ko")
        assert korean_and_latin_free(ko, path, *e.fields.values()), (expected, ko)
        assert i18n.model_error_text(e, "en") == str(e)           # English keeps the loader's full sentence
    assert seen == {k: k for k in seen}                            # each folder gives its own code
    e = ModelFolderError("x", code="incomplete", folder="/m", file="config.json")
    assert i18n.model_error_text(e, "ko") == "모델 폴더에 config.json 파일이 없습니다: /m"
    assert i18n.model_error_text(ModelFolderError("x", code="new", folder="/m"), "ko") == "모델 폴더 /m을(를) 쓸 수 없습니다."


def test_settings_dialog_says_the_model_problem_in_korean(qtbot, tmp_path):
    from PySide6.QtCore import QThreadPool

    from veil_desktop.review import AppSettings
    from veil_desktop.ui.dialogs import SettingsDialog

    dlg = SettingsDialog(None, AppSettings(threads=1, language="ko"), "ko")
    qtbot.addWidget(dlg)
    bad = _model_folders(tmp_path)["bad_json"]
    dlg.model_dir.setText(str(bad))
    dlg.validate_model()
    qtbot.waitUntil(lambda: dlg.model_status.text() != i18n.tr("settings.model_checking", "ko"), timeout=10000)
    QThreadPool.globalInstance().waitForDone(5000)
    assert dlg.model_status.text() == f"모델 폴더의 config.json 파일이 올바른 JSON 설정 파일이 아닙니다: {bad}"
    assert not dlg.ok_button.isEnabled()


def test_term_list_errors_are_korean(qtbot, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    from veil_desktop.review.terms import Term, TermList, TermsError
    from veil_desktop.ui.terms_dialog import TermsDialog

    dlg = TermsDialog(None, TermList([Term("서울시청", "keep")]), lang="ko")
    qtbot.addWidget(dlg)
    bad = tmp_path / "bad.csv"
    bad.write_text("term,action,label\n박서연,mask,\n가람,erase,OTHER\n나라,mask,XYZ\n가,keep,,\n",
                   encoding="utf-8")
    assert dlg.import_file(bad) is False
    assert dlg.last_error.split("\n") == [
        "2번째 줄: 마스킹할 용어에는 유형이 필요합니다 (예: 인명, 기관, 기타)",
        "3번째 줄: 동작은 mask(마스킹) 또는 keep(유지)이어야 합니다 (입력: \u201cerase\u201d)",
        "4번째 줄: 알 수 없는 유형 \u201cXYZ\u201d",
        "5번째 줄: 열이 3개(용어, 동작, 유형)여야 하는데 4개입니다"]
    for box in dlg.findChildren(QMessageBox):
        box.done(0)
    cases = {
        "missing": tmp_path / "nowhere.csv", "folder": tmp_path,
        "header": (tmp_path / "h.csv", "용어,동작\n"), "empty_file": (tmp_path / "e.csv", ""),
        "not_utf8": (tmp_path / "u.csv", b"term,action,label\n\xff\xfe,keep,\n"),
        "duplicate": (tmp_path / "d.csv", "term,action,label\n홍길동,keep,\n홍길동,mask,PERSON\n"),
    }
    for code, spec in cases.items():
        if isinstance(spec, tuple):
            path, data = spec
            path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        else:
            path = spec
        with pytest.raises(TermsError) as ei:
            TermList.load(path)
        e = ei.value
        first = e.problem.fields.get("first", e.problem)
        assert getattr(first, "code", e.problem.code) == code, (code, str(e))
        ko = i18n.terms_error_text(e, "ko")
        assert korean_and_latin_free(ko, path, path.name, "term,action,label", "mask", "keep"), (code, ko)
        assert i18n.terms_error_text(e, "en").split(": ")[-1].rstrip(".").lower() in str(e).lower()


def test_undo_texts_of_every_command_are_korean():
    from veil_desktop.detect.span import Span
    from veil_desktop.review import Status
    from veil_desktop.review.export import accept_copies

    text = "담당 홍길동 과장, 홍길동 연락처 010-1234-5678\n"
    st = ReviewState(text)
    a = text.index("홍길동")
    st.add_detected([Span(a, a + 3, "PERSON", 0.9), Span(text.index("010"), text.index("010") + 13, "PHONE", 0.8)])
    ids = [it.id for it in st]
    b = text.index("홍길동", a + 1)
    texts = []
    for do in (lambda: st.set_status(ids[:1], Status.ACCEPTED),
               lambda: st.set_status(ids, Status.REJECTED),
               lambda: st.set_status(ids, Status.PENDING),
               lambda: st.accept_above(0.5),
               lambda: st.set_reason(ids[:1], "6"),
               lambda: st.set_reason(ids[:1], None),
               lambda: accept_copies(st, [Span(b, b + 3, "PERSON", 0.9)]),
               lambda: st.set_status(ids[:1], Status.REJECTED, description="term list: keep"),
               lambda: st.set_status(ids[:1], Status.ACCEPTED, description="term list: mask"),
               lambda: st.set_status(ids[1:], Status.REJECTED, description="import review"),
               lambda: st.set_status(ids[1:], Status.PENDING, description="merge reviews"),
               lambda: st.set_status(ids[1:], Status.ACCEPTED, description="import XFDF"),
               lambda: st.set_reason(ids[1:], "기타: 내부 검토 중")):
        assert do() is not None
        texts.append(i18n.undo_description(st.undo_text(), "ko"))
    assert texts == ["승인 1개", "거부 2개", "미검토로 2개", "점수 이상 승인", "비공개 사유 6: 1개", "비공개 사유 없음: 1개",
                     "사본 마스킹 1개", "용어 목록: 유지", "용어 목록: 마스킹", "검토 파일 가져오기", "검토 병합",
                     "XFDF 가져오기", "비공개 사유 기타: 내부 검토 중: 1개"]
    assert i18n.undo_description("mark 3 PERSON", "ko") == "표시: 인명 3개"
    assert i18n.undo_description("mask copies", "ko") == "사본 마스킹"
    assert all(latin_words(t) == [] for t in texts)



def test_window_says_a_missing_model_folder_in_korean(qtbot, make_window, doc, tmp_path):
    from tests.ui_helpers import open_and_detect

    nowhere = tmp_path / "models" / "gone"
    w = make_window(nowhere)                      # the settings point at a folder that is not there
    assert w.lang == "ko"
    assert open_and_detect(qtbot, w, doc) is True  # detection ended without a result
    assert w.last_error == i18n.tr("error.detect", "ko").format(
        message=f"모델 폴더가 없습니다: {nowhere}\n설정 파일, 토크나이저, ONNX 모델이 든 폴더를 고르십시오. "
                "비워 두면 내장 소형 모델을 씁니다.")
    assert korean_and_latin_free(w.last_error, nowhere)


def test_document_errors_are_korean(tmp_path):
    """Real broken files through the real readers: the messages the window shows are Korean."""
    import zipfile

    from veil_desktop.documents import open_document
    from veil_desktop.documents.errors import DocumentError

    zip_junk = tmp_path / "손상.docx"
    zip_junk.write_bytes(b"PK\x03\x04 not really a zip")
    no_body = tmp_path / "빈.docx"
    with zipfile.ZipFile(no_body, "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/content-types"/>')
    hwp_zip = tmp_path / "사실은.hwp"
    hwp_zip.write_bytes(zip_junk.read_bytes())
    not_hwp = tmp_path / "가짜.hwp"
    not_hwp.write_bytes(b"just text, not an OLE file" * 20)
    expected = {
        tmp_path / "없음.txt": "없음.txt 파일이 없습니다.",
        tmp_path: None,
        zip_junk: "올바른 워드 문서 파일이 아닙니다 (ZIP 구조가 손상됨).",
        no_body: None,
        hwp_zip: None,
        not_hwp: None,
    }
    for path, want in expected.items():
        with pytest.raises(DocumentError) as ei:
            open_document(path)
        ko = i18n.document_error_text(str(ei.value), "ko")
        suffixes = re.findall(r"\.\w+", ko)                          # the supported list, a code
        assert korean_and_latin_free(ko, path, path.name, *suffixes), (path.name, str(ei.value), ko)
        if want is not None:
            assert ko == want
        assert i18n.document_error_text(str(ei.value), "en") == str(ei.value)
    assert i18n.document_error_text("Something new.", "ko") == "Something new."


def test_window_says_an_unreadable_document_in_korean(qtbot, make_window, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    broken = tmp_path / "손상된_문서.docx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    w = make_window()
    with qtbot.waitSignal(w.errorShown, timeout=20000):
        w.open_path(broken)
    assert w.last_error == "문서를 열 수 없습니다.\n\n올바른 워드 문서 파일이 아닙니다 (ZIP 구조가 손상됨)."
    box = [b for b in w.findChildren(QMessageBox) if b.isVisible()][-1]
    assert [b.text() for b in box.buttons()] == ["확인"]           # not Qt's untranslated "OK"


def test_export_core_copies_message_is_korean(tmp_path):
    """The export core's own refusal (unmasked copies of a masked value) in Korean, the part named in the
    UI language and the offset counted from 1."""
    import docx

    from veil_desktop.documents import open_document
    from veil_desktop.documents.errors import LeakDetected
    from veil_desktop.documents.export import export_document
    from veil_desktop.masking import Replacement

    src = tmp_path / "통보.docx"
    d = docx.Document()
    d.add_paragraph("담당 홍길동 주무관. 문의는 홍길동에게.")
    d.save(str(src))
    doc = open_document(src)
    a = doc.text.index("홍길동")
    with pytest.raises(LeakDetected) as ei:
        export_document(doc, [Replacement(a, a + 3, "[인명]", "PERSON")], tmp_path / "out.docx")
    second = doc.text.index("홍길동", a + 1)
    assert i18n.document_error_text(str(ei.value), "ko") == (
        f"마스킹한 값의 사본 1개가 가려지지 않은 채 남아 있습니다 (첫 위치: 본문, {second + 1}번째 글자). "
        "사본도 마스킹한 뒤 내보내십시오.")
    assert not (tmp_path / "out.docx").exists()
