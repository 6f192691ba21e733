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


# -- ReviewSession (review/review_session.py): the window's state, without Qt ---------------------------
def _loaded(tmp_path, text=TEXT):
    from veil_desktop.review.loading import load_for_review

    p = tmp_path / "민원.txt"
    p.write_text(text, encoding="utf-8")
    return p, load_for_review(p, threshold=0.7)


def test_review_session_imports_no_qt():
    import subprocess
    import sys

    code = ("import sys, veil_desktop.review.review_session as m; m.ReviewSession(); "
            "print(sorted(k for k in sys.modules if k.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt6')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_review_session_install_detect_autosave_and_restore(tmp_path):
    from veil_desktop.review.review_session import ReviewSession
    from veil_desktop.review.summary import DetectionStatus

    path, loaded = _loaded(tmp_path)
    rs = ReviewSession()
    assert not rs.has_document and rs.snapshot() is None and rs.item_count() == 0
    state = rs.install(loaded, default_threshold=0.55)
    assert rs.path == path and rs.state is state and rs.document.text == TEXT
    # a new document: the configured default threshold, detection not run, to be detected
    assert state.threshold == 0.55 and rs.detection_status is DetectionStatus.NOT_RUN and rs.needs_detection
    assert rs.info.doc_hash == document_hash(TEXT) and not rs.restored
    rs.detection_started()
    assert rs.detection_status is DetectionStatus.RUNNING and rs.detection_incomplete == "running"
    rs.detector_loaded("tiny-7")
    state.add_detected([Span(4, 7, "PERSON", 0.91)])
    assert rs.detection_ended(cancelled=False) is DetectionStatus.COMPLETE and rs.detection_incomplete is None
    assert rs.info.detection_complete and rs.info.model_id == "tiny-7" and rs.item_count() == 1
    state.set_status([state.item_at_row(0).id], Status.ACCEPTED)
    assert rs.save_now()                       # a real file, re-read below
    assert session_path(document_hash(TEXT)).exists()

    # reopened: the saved review is restored, detection complete -> not run again, its detector shown
    again = ReviewSession()
    again.install(_loaded(tmp_path)[1], default_threshold=0.1)
    assert again.restored and not again.needs_detection and again.detector_id == "tiny-7"
    assert again.state.threshold == 0.55 and again.decided_count() == 1
    assert again.detection_status is DetectionStatus.COMPLETE
    # a failed or cancelled run is recorded as such (export is blocked then)
    assert again.detection_ended(cancelled=True, error="engine lost") is DetectionStatus.FAILED
    assert not again.info.detection_complete
    again.detection_cancelled()
    assert again.detection_status is DetectionStatus.CANCELLED


def test_review_session_empty_review_is_saved_only_when_asked(tmp_path):
    from veil_desktop.review.review_session import ReviewSession

    rs = ReviewSession()
    rs.install(_loaded(tmp_path)[1], default_threshold=0.5)
    assert rs.snapshot(even_empty=False) is None and not rs.save_now()
    assert not session_path(document_hash(TEXT)).exists()
    assert rs.save_now(even_empty=True) and session_path(document_hash(TEXT)).exists()


def test_review_session_check_export_blocks_then_builds_the_request(tmp_path):
    from veil_desktop.review.export_job import export_review
    from veil_desktop.review.loading import snapshot_state
    from veil_desktop.review.review_session import ReviewSession
    from veil_desktop.review.settings import AppSettings

    path, loaded = _loaded(tmp_path)
    rs = ReviewSession()
    state = rs.install(loaded, default_threshold=0.5)
    settings = AppSettings()
    out = tmp_path / "out.txt"
    # the original is never the output
    assert rs.check_export(path, settings).same_file and rs.check_export(path, settings).request is None
    rs.detection_started()
    state.add_detected([Span(4, 7, "PERSON", 0.91), Span(16, 29, "PHONE", 1.0, "rule")])
    check = rs.check_export(out, settings)
    assert check.request is None and set(check.blockers) == {"detection", "pending"}
    assert rs.check_export(out, settings, partial_ok=True).blockers == ("pending",)
    rs.detector_loaded("tiny-7")
    rs.detection_ended(cancelled=False)
    state.set_status([it.id for it in state], Status.ACCEPTED)
    check = rs.check_export(out, settings, tag_lang="en")
    req = check.request
    assert check.blockers == () and req.out_path == out and req.detector_id == "tiny-7"
    assert req.policy.value == "block" and req.tag_lang == "en" and req.review["detection"] == "complete"
    result = export_review(rs.document, snapshot_state(state), req)
    written = out.read_text(encoding="utf-8")
    assert "김민준" not in written and "010-2345-6789" not in written and written.startswith("수신: ")
    assert str(getattr(result, "output", result)) == str(out)
