"""The real window and ``veil-redact redact`` with their defaults mask the same Korean document identically
(one default: ``masking.DEFAULT_MASK_STYLE`` + ``masking.resolve_tag_language``)."""
from __future__ import annotations

import json

from tests.ui_helpers import open_and_detect
from veil_desktop.cli import main
from veil_desktop.review.state import Status


def test_window_export_with_defaults_equals_cli_output(qtbot, make_window, model_dir, doc, tmp_path):
    # the batch CLI with its defaults, the same model folder (the window's settings point at it)
    out = tmp_path / "cli"
    assert main(["redact", str(doc), "--out", str(out), "--model", str(model_dir), "--threads", "1",
                 "--quiet"]) == 0
    cli_text = (out / doc.name).read_text("utf-8")
    report = json.loads((out / (doc.name + ".report.json")).read_text("utf-8"))
    cli_accepted = {(d["start"], d["end"], d["label"]) for d in report["decisions"]
                    if d["decision"] in ("accepted", "propagated")}

    # the window: same decisions (accept what reaches the threshold, reject the rest), export with defaults
    w = make_window()
    open_and_detect(qtbot, w, doc)
    assert w.state.threshold == report["threshold"]
    w.state.set_status([it.id for it in w.state if it.score >= w.state.threshold], Status.ACCEPTED)
    w.state.set_status([it.id for it in w.state if it.score < w.state.threshold], Status.REJECTED)
    assert {(it.start, it.end, it.label) for it in w.state if it.status is Status.ACCEPTED} == cli_accepted
    win = tmp_path / "window.txt"
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        w.export_to(win, policy="block")          # no styles, no tag language: the window's defaults
    assert blocker.args == [str(win)]

    assert win.read_text("utf-8") == cli_text
    assert "[인명]" in cli_text and "[주민등록번호]" in cli_text and "[PERSON]" not in cli_text
    assert "김민준" not in cli_text and "이서연" not in cli_text
