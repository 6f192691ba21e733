"""Corrupt session and settings files (issue 10, item 5): whatever is in the file — valid JSON of the
wrong shape, deep nesting, absurd numbers, a folder in its place — it is moved aside, the document/app
starts on defaults, and a one-line message is exposed for the window to show."""
from __future__ import annotations

import json

import pytest

from veil_desktop.detect.span import Span
from veil_desktop.review import ReviewState, SessionInfo, Status, document_hash, load_session, session_path
from veil_desktop.review.session import Autosaver, SessionCorruptError
from veil_desktop.review.settings import AppSettings

TEXT = "수신: 김민준 귀하. 연락처 010-2345-6789"


def valid_session() -> dict:
    st = ReviewState(TEXT, threshold=0.4)
    st.add_detected([Span(4, 7, "PERSON", 0.91)])
    st.set_status([st.item_at_row(0).id], Status.ACCEPTED)
    saver = Autosaver()
    snap = saver.snapshot(st, SessionInfo(document_hash(TEXT)))
    return snap.to_dict()


def bad_item(**kw) -> dict:
    d = valid_session()
    d["items"][0].update(kw)
    return d


CORRUPT = {
    "list": "[]",
    "number": "42",
    "null": "null",
    "string": '"hello"',
    "deep": "[" * 100_000 + "]" * 100_000,
    "deep_object": '{"a":' * 50_000 + "1" + "}" * 50_000,
    "items_not_list": json.dumps({**valid_session(), "items": {"0": 1}}),
    "item_not_object": json.dumps({**valid_session(), "items": [7]}),
    "span_outside": json.dumps(bad_item(start=5, end=10_000)),
    "negative": json.dumps(bad_item(start=-3)),
    "float_offsets": json.dumps(bad_item(start=4.5)),
    "bool_offsets": json.dumps(bad_item(end=True)),
    "bad_status": json.dumps(bad_item(status="maybe")),
    "inf_score": json.dumps(bad_item(score=1e400)),
    "nan_threshold": json.dumps({**valid_session(), "threshold": float("nan")}),
    "not_utf8": b"\xff\xfe\x00garbage",
}


@pytest.mark.parametrize("kind", sorted(CORRUPT))
def test_corrupt_session_is_moved_aside_and_the_document_starts_fresh(kind):
    path = session_path(document_hash(TEXT))
    payload = CORRUPT[kind]
    path.write_bytes(payload if isinstance(payload, bytes) else payload.encode("utf-8"))
    state = ReviewState(TEXT)
    with pytest.raises(SessionCorruptError) as exc:
        load_session(state)
    msg = str(exc.value)
    assert "\n" not in msg and msg == exc.value.message and "started a fresh review" in msg
    assert not path.exists() and exc.value.aside is not None and exc.value.aside.exists()
    assert len(state) == 0                                  # defaults: nothing half-restored
    assert load_session(ReviewState(TEXT)) is None          # not locked out: next open is clean


def test_a_folder_in_place_of_the_session_file():
    path = session_path(document_hash(TEXT))
    path.mkdir()
    (path / "x").write_text("?")
    with pytest.raises(SessionCorruptError, match="folder"):
        load_session(ReviewState(TEXT))
    assert not path.exists()
    # autosave works again afterwards
    st = ReviewState(TEXT)
    st.add_detected([Span(4, 7, "PERSON", 0.91)])
    saver = Autosaver()
    assert saver.write(saver.snapshot(st, SessionInfo(document_hash(TEXT))))
    restored = ReviewState(TEXT)
    assert load_session(restored) is not None and len(restored) == 1


def test_a_file_in_place_of_the_sessions_folder():
    from veil_desktop.paths import user_data_dir

    user_data_dir().mkdir(parents=True, exist_ok=True)
    (user_data_dir() / "sessions").write_text("not a folder")
    assert load_session(ReviewState(TEXT)) is None
    assert (user_data_dir() / "sessions").is_dir()


def test_valid_session_still_restores():
    path = session_path(document_hash(TEXT))
    path.write_text(json.dumps(valid_session()), encoding="utf-8")
    state = ReviewState(TEXT)
    info = load_session(state)
    assert info is not None and len(state) == 1 and state.item_at_row(0).status is Status.ACCEPTED
    assert state.threshold == pytest.approx(0.4)


# ------------------------------------------------------------------------------------ settings
SETTINGS = {"list": "[1,2]", "number": "7", "inf_threads": '{"threads":1e400}',
            "nan_threshold": '{"threshold":NaN}', "deep": "[" * 100_000 + "]" * 100_000,
            "bad_types": '{"styles":[1],"recent_files":5,"skip_ids":"yes","model_dir":3}'}


@pytest.mark.parametrize("kind", sorted(SETTINGS))
def test_corrupt_settings_are_moved_aside_and_the_app_starts_on_defaults(tmp_path, kind):
    from veil_desktop.ui.settings_store import SettingsStore

    ini = tmp_path / "settings.ini"
    store = SettingsStore(ini)
    store.save(AppSettings(threads=3, language="en"))
    from PySide6.QtCore import QSettings

    qs = QSettings(str(ini), QSettings.Format.IniFormat)
    qs.setValue("app/json", SETTINGS[kind])
    qs.sync()
    del qs
    loaded = SettingsStore(ini)
    assert loaded.load() == AppSettings().normalised()
    assert loaded.load_message and "default settings" in loaded.load_message and "\n" not in loaded.load_message
    assert not ini.exists() and list(tmp_path.glob("settings.ini.corrupt-*"))
    again = SettingsStore(ini)
    assert again.load() == AppSettings().normalised() and again.load_message is None


def test_settings_folder_in_place_of_the_file(tmp_path):
    from veil_desktop.ui.settings_store import SettingsStore

    (tmp_path / "settings.ini").mkdir()
    store = SettingsStore(tmp_path / "settings.ini")
    assert store.load() == AppSettings().normalised() and "folder" in store.load_message
    store.save(AppSettings(threads=2))
    assert SettingsStore(tmp_path / "settings.ini").load().threads == 2


def test_good_settings_have_no_message(tmp_path):
    from veil_desktop.ui.settings_store import SettingsStore

    store = SettingsStore(tmp_path / "s.ini")
    store.save(AppSettings(threads=3, threshold=0.7))
    fresh = SettingsStore(tmp_path / "s.ini")
    assert fresh.load().threads == 3 and fresh.load_message is None


def test_window_starts_on_defaults_and_says_so(tmp_path, qtbot):
    from PySide6.QtCore import QSettings

    from veil_desktop.ui.main_window import MainWindow
    from veil_desktop.ui.settings_store import SettingsStore

    ini = tmp_path / "settings.ini"
    qs = QSettings(str(ini), QSettings.Format.IniFormat)
    qs.setValue("app/json", '{"threads":1e400}')
    qs.sync()
    del qs
    w = MainWindow(SettingsStore(ini), detector_factory=lambda d, t: None)
    qtbot.addWidget(w)
    assert w.settings == AppSettings().normalised()
    shown = w.statusBar().currentMessage()
    assert "기본 설정으로 시작" in shown and "settings.ini.corrupt-" in shown
