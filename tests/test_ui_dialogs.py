"""Export / settings / cheat-sheet dialogs, the settings store and the string catalogue."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QThreadPool

from tests.fixtures.tiny_model import build_tiny_model
from veil_desktop.detect.span import Span
from veil_desktop.review import AppSettings, PendingPolicy, ReviewState, Status
from veil_desktop.ui import i18n
from veil_desktop.ui.actions import ACTIONS
from veil_desktop.ui.dialogs import ExportDialog, SettingsDialog, ShortcutsDialog, suggest_output
from veil_desktop.ui.settings_store import SettingsStore

TEXT = "수신: 김민준 귀하. 담당 김민준, 연락처 010-2345-6789"


@pytest.fixture(autouse=True)
def _drain_pool():
    yield
    QThreadPool.globalInstance().waitForDone(10000)


def make_state():
    st = ReviewState(TEXT)
    a = TEXT.index("김민준")
    b = TEXT.index("김민준", a + 1)
    p = TEXT.index("010")
    st.add_detected([Span(a, a + 3, "PERSON", 0.9), Span(b, b + 3, "PERSON", 0.9),
                     Span(p, p + 13, "PHONE", 1.0, "rule")])
    return st


def test_export_dialog_preview_follows_styles_and_policy(qtbot, tmp_path):
    st = make_state()
    src = tmp_path / "in.txt"
    dlg = ExportDialog(None, st, AppSettings(), src, None, "en")
    qtbot.addWidget(dlg)
    # blocked: three pending, nothing decided -> preview unmasked, Export disabled, message shown
    assert dlg.policy() is PendingPolicy.BLOCK
    assert not dlg.ok_button.isEnabled() and "3 suggestions" in dlg.message.text()
    assert dlg.preview.toPlainText() == TEXT
    dlg.set_policy(PendingPolicy.ACCEPT)
    dlg.set_style("PERSON", "pseudonym")
    dlg.set_style("PHONE", "partial")
    dlg.update_preview()
    assert dlg.preview.toPlainText() == "수신: 인물1 귀하. 담당 인물1, 연락처 010-****-****"
    assert dlg.ok_button.isEnabled()
    assert dlg.out_path() == tmp_path / "in.masked.txt"
    # the source path is refused
    dlg.set_out_path(src)
    assert not dlg.ok_button.isEnabled()
    # decisions show in the preview under the reject policy
    st.set_status([st.item_at_row(0).id], Status.ACCEPTED, propagate=True)
    dlg2 = ExportDialog(None, st, AppSettings(styles={"PERSON": "partial"}), src, None, "ko")
    qtbot.addWidget(dlg2)
    dlg2.set_policy(PendingPolicy.REJECT)
    dlg2.update_preview()
    assert dlg2.preview.toPlainText() == "수신: 김** 귀하. 담당 김**, 연락처 010-2345-6789"
    assert dlg2.styles()["PERSON"] == "partial"


def test_suggest_output_never_the_source(tmp_path):
    src = tmp_path / "보고서.docx"
    assert suggest_output(src, "docx") == tmp_path / "보고서.masked.docx"
    assert suggest_output(tmp_path / "a.hwp", "hwp") == tmp_path / "a.masked.hwp"  # HWP is written back in place


def test_settings_dialog_validates_model_folder(qtbot, tmp_path):
    dlg = SettingsDialog(None, AppSettings(threads=2, language="en"), "en")
    qtbot.addWidget(dlg)
    bad = tmp_path / "not-a-model"
    bad.mkdir()
    (bad / "config.json").write_text("{}", encoding="utf-8")
    dlg.model_dir.setText(str(bad))
    dlg.validate_model()
    qtbot.waitUntil(lambda: dlg.model_status.text() != "Checking…", timeout=10000)
    assert str(bad) in dlg.model_status.text() and not dlg.ok_button.isEnabled()

    good = build_tiny_model(tmp_path / "tiny", entities={"김민준": "PERSON"})
    dlg.model_dir.setText(str(good))
    dlg.validate_model()
    qtbot.waitUntil(lambda: dlg.ok_button.isEnabled(), timeout=20000)
    assert "PERSON" in dlg.model_status.text()
    result = dlg.result_settings()
    assert (result.model_dir, result.threads, result.language) == (str(good), 2, "en")


def test_settings_store_round_trip_and_garbage(tmp_path):
    store = SettingsStore(tmp_path / "s.ini")
    assert store.load() == AppSettings().normalised()
    s = AppSettings(model_dir="/m", threads=3, language="en", styles={"PERSON": "partial"},
                    pending_policy="accept", threshold=0.7).with_recent("/a.txt").with_recent("/b.txt")
    store.save(s)
    loaded = SettingsStore(tmp_path / "s.ini").load()
    assert loaded == s.normalised() and loaded.recent_files == ("/b.txt", "/a.txt")
    # hand-edited nonsense is clamped, not fatal
    store.save(replace(s, threshold=7.0, language="fr", styles={"PERSON": "blur"}))
    odd = store.load()
    assert (odd.threshold, odd.language, odd.styles) == (1.0, "ko", {"PERSON": "tag"})
    (tmp_path / "s.ini").write_text("[app]\njson=\"{broken\"\n", encoding="utf-8")
    assert SettingsStore(tmp_path / "s.ini").load() == AppSettings().normalised()


def test_catalogue_complete_and_cheat_sheet_lists_every_shortcut(qtbot):
    for key in i18n.keys():
        ko, en = i18n.tr(key, "ko"), i18n.tr(key, "en")
        assert ko and en and ko != key
    for spec in ACTIONS:
        assert f"action.{spec.id}" in i18n.keys()
    dlg = ShortcutsDialog(None, "en")
    qtbot.addWidget(dlg)
    rows = {dlg.table.item(r, 1).text(): dlg.table.item(r, 0).text() for r in range(dlg.table.rowCount())}
    assert rows["Accept"] == "A / Return / Enter"
    assert rows["Undo"] == "Ctrl+Z" and rows["Redo"] == "Ctrl+Shift+Z / Ctrl+Y"
    assert len(rows) == sum(1 for s in ACTIONS if s.shortcuts)


def test_cheat_sheet_lists_every_shortcut_the_window_registers(qtbot):
    """F1 against what is really registered: every QAction of a real window (its own and those the
    reviewer's tools add: find, workspace, export all, page view) with a shortcut has a row with the same
    keys and the same text, and the sheet lists nothing the window does not have."""
    from PySide6.QtGui import QAction, QKeySequence

    from veil_desktop.ui.main_window import MainWindow

    w = MainWindow(SettingsStore(), detector_factory=lambda d, t: None)
    qtbot.addWidget(w)
    w.lang = "en"
    w.retranslate()
    registered = {}
    for act in w.findChildren(QAction):
        keys = [k.toString(QKeySequence.SequenceFormat.PortableText) for k in act.shortcuts()]
        if keys:
            registered[act.text()] = " / ".join(keys)
    dlg = ShortcutsDialog(w, "en")
    qtbot.addWidget(dlg)
    portable = QKeySequence.SequenceFormat.PortableText   # "Delete" and "Del" are one key
    rows = {dlg.table.item(r, 1).text(): " / ".join(QKeySequence(k).toString(portable)
                                                    for k in dlg.table.item(r, 0).text().split(" / "))
            for r in range(dlg.table.rowCount())}
    for text, keys in {"Find and mark…": "Ctrl+F", "Next document": "Ctrl+PgDown",
                       "Previous document": "Ctrl+PgUp", "Export all reviewed…": "Ctrl+Shift+E",
                       "Pages": "F6", "Open folder…": "Ctrl+Shift+O", "Open files…": "Ctrl+Alt+O"}.items():
        assert registered[text] == keys and rows[text] == keys
    assert rows == registered
