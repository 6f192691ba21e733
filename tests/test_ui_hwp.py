"""HWP in the window (issue 25): open a ``.hwp``, review, export as ``.hwp`` (the suggested name), reopen the
export in the window: the masked text is shown, the rest of the text is as it was."""
from __future__ import annotations

from tests.test_documents_hwp import build_hwp, para
from tests.ui_helpers import open_and_detect
from veil_desktop.review.state import Status

LINES = ["민원 회신: 담당 김민준 주무관", "연락처 010-2345-6789 으로 문의하세요", "처리 부서 강남구청 교통행정과"]


def test_open_review_export_hwp_and_reopen_it(qtbot, make_window, tmp_path):
    src = build_hwp(tmp_path / "민원.hwp", body=b"".join(para(line) for line in LINES))
    w = make_window()
    assert open_and_detect(qtbot, w, src) is False
    found = {(w.state.value(it), it.label) for it in w.state}
    assert {("김민준", "PERSON"), ("010-2345-6789", "PHONE"), ("강남구청", "ORGANIZATION")} <= found
    w.state.set_status([it.id for it in w.state], Status.ACCEPTED)
    out = tmp_path / "민원.masked.hwp"
    with qtbot.waitSignal(w.exportFinished, timeout=30000) as blocker:
        w.export_to(out, policy="block")
    assert blocker.args == [str(out)] and out.read_bytes()[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

    again = make_window()
    open_and_detect(qtbot, again, out)
    text = again.document.text
    for value in ("김민준", "010-2345-6789", "강남구청", "2345", "6789"):
        assert value not in text
    assert "민원 회신: 담당" in text and "교통행정과" in text and "으로 문의하세요" in text
