"""Session persistence without Qt: round trip, document hash keying, atomic writes, ordering."""
import json

import pytest

from veil_desktop.detect.span import Span
from veil_desktop.review import ReviewState, SessionInfo, Status, document_hash, load_session, session_path
from veil_desktop.review.session import Autosaver, SessionCorruptError, write_atomic
from veil_desktop.paths import user_data_dir

TEXT = "수신: 김민준 귀하. 연락처 010-2345-6789"


def make_state():
    st = ReviewState(TEXT, threshold=0.4)
    st.add_detected([Span(4, 7, "PERSON", 0.91), Span(16, 29, "PHONE", 1.0, "rule")])
    return st


def test_round_trip_restores_items_decisions_and_threshold():
    st = make_state()
    st.set_status([st.item_at_row(0).id], Status.ACCEPTED)
    st.set_status([st.item_at_row(1).id], Status.REJECTED)
    manual = st.add_manual(0, 2, "OTHER")
    saver = Autosaver()
    snap = saver.snapshot(st, SessionInfo(document_hash(TEXT), "/x/a.txt", "tiny-1", detection_complete=True))
    st.set_status([st.item_at_row(0).id], Status.REJECTED)  # after the snapshot: not in it
    st.undo()
    assert saver.write(snap)
    assert snap.path.parent == user_data_dir() / "sessions"

    fresh = ReviewState(TEXT)
    info = load_session(fresh)
    assert info is not None and info.model_id == "tiny-1" and info.detection_complete
    assert fresh.threshold == pytest.approx(0.4)
    got = [(it.id, it.span, it.status) for it in fresh]
    assert got == [(it.id, it.span, it.status) for it in st]
    assert fresh.item(manual.id).source == "manual"
    # ids continue after the restored ones
    new = fresh.add_manual(8, 10, "OTHER")
    assert new.id > manual.id


def test_other_document_has_no_session_and_mismatch_is_refused():
    st = make_state()
    saver = Autosaver()
    saver.write(saver.snapshot(st, SessionInfo(document_hash(TEXT))))
    assert load_session(ReviewState(TEXT + " ")) is None
    data = json.loads(session_path(document_hash(TEXT)).read_text(encoding="utf-8"))
    from veil_desktop.review.session import restore_into
    with pytest.raises(ValueError):
        restore_into(ReviewState(TEXT + " "), data)


def test_stale_snapshot_never_overwrites_newer():
    st = make_state()
    saver = Autosaver()
    info = SessionInfo(document_hash(TEXT))
    old = saver.snapshot(st, info)
    st.set_status([st.item_at_row(0).id], Status.ACCEPTED)
    new = saver.snapshot(st, info)
    assert saver.write(new)
    assert not saver.write(old)
    restored = ReviewState(TEXT)
    load_session(restored)
    assert restored.item_at_row(0).status is Status.ACCEPTED


def test_corrupt_session_is_kept_aside(tmp_path):
    path = session_path(document_hash(TEXT))
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(SessionCorruptError):
        load_session(ReviewState(TEXT))
    assert not path.exists()
    assert any(p.name.startswith(path.stem + ".corrupt") for p in path.parent.iterdir())


def test_write_atomic_leaves_no_temp_files(tmp_path):
    target = tmp_path / "s.json"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]
