"""Issue 16 structure bullet: section captions are keys the UI translates (no XML part paths, no Korean in
the core), shown in the window in its language with every offset unchanged."""
from __future__ import annotations

import docx

from tests.fixtures.leak_builders import make_docx, para
from veil_desktop.documents import open_document
from veil_desktop.documents.model import CAPTIONS_EN
from veil_desktop.review import ReviewState
from veil_desktop.review.loading import Loaded
from veil_desktop.ui import i18n
from veil_desktop.ui.main_window import MainWindow
from veil_desktop.ui.settings_store import SettingsStore

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _sample(tmp_path):
    d = docx.Document()
    d.sections[0].header.paragraphs[0].text = "머리글 김민수"
    t = d.add_table(rows=2, cols=2)
    t.cell(0, 0).text, t.cell(0, 1).text = "이름", "김민수"
    t.cell(1, 0).text, t.cell(1, 1).text = "주민번호", "900101-1234567"
    run = d.add_paragraph("검토 ").add_run("요청")
    d.add_comment(run, text="확인", author="박지성")
    d.core_properties.title = "이력서"
    p = tmp_path / "s.docx"
    d.save(str(p))
    return open_document(p)


def test_every_core_caption_has_both_languages():
    for key in CAPTIONS_EN:
        assert f"caption.{key}" in i18n.keys(), key
        assert i18n.tr(f"caption.{key}", "ko") != i18n.tr(f"caption.{key}", "en") or key in ("customxml",)


def test_document_has_no_part_paths_and_captions_map_to_text(tmp_path):
    doc = _sample(tmp_path)
    assert "word/" not in doc.text and "머리글 (" not in doc.text
    assert "이름 | 김민수\n주민번호 | 900101-1234567\n" in doc.text      # table rows as rows
    for c in doc.captions:
        assert doc.text[c.start:c.end] == (CAPTIONS_EN[c.key].replace("{detail}", c.detail).strip())
    assert any(c.key == "comment" and c.detail == "박지성" for c in doc.captions)
    ko = i18n.localize_captions(doc.text, doc.captions, "ko")
    assert len(ko) == len(doc.text)
    assert "── 머리글 1" in ko and "[메모 박지성]" in ko and "[제목]" in ko and "Header" not in ko
    assert i18n.localize_captions(doc.text, doc.captions, "en") == doc.text
    # everything outside the captions is unchanged (offsets of items stay valid)
    mask = [True] * len(doc.text)
    for c in doc.captions:
        a, b = (c.start - 1, c.end + 1) if c.inline else (c.start, c.end)
        for i in range(a, b):
            mask[i] = False
    assert all(x == y for x, y, keep in zip(doc.text, ko, mask) if keep)


def test_window_shows_captions_in_its_language(qtbot, tmp_path):
    doc = _sample(tmp_path)
    w = MainWindow(SettingsStore(), detector_factory=lambda d, t: None)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.lang = "ko"
    w.view.lang = "ko"
    w.show_loaded(Loaded(doc.path, doc, ReviewState(doc.text), None))
    w.view.finish_loading()
    shown = w.view.toPlainText()
    assert "머리글 1" in shown and "Header 1" not in shown
    assert len(shown) == len(doc.text.replace("\r", " "))
    i = doc.text.index("900101-1234567")
    assert shown[i:i + 14] == "900101-1234567"   # offsets unchanged
