"""The one export core (issue 21): the window's export job, *Export all reviewed* and ``veil-redact redact``
all go through ``review.export_job.export_review``, so the same decisions give byte-identical outputs and
equal reports (timestamps aside). Real parts: the tiny real ONNX model folder, the real window (pytest-qt),
real files written and re-read, a real DOCX read back by python-docx."""
from __future__ import annotations

import json

import docx as python_docx
import pytest

from tests.ui_helpers import ENTITIES, open_and_detect
from veil_desktop.cli import main
from veil_desktop.review.session import SessionInfo, document_hash, take_snapshot, write_atomic
from veil_desktop.review.state import ReviewState, Status
from veil_desktop.review.workspace import DocEntry, export_one

NAMES = [n for n, label in ENTITIES.items() if label == "PERSON"][:2]


def _report(path):
    data = json.loads(path.with_name(path.name + ".report.json").read_text("utf-8"))
    data.pop("created_utc")
    data["review"].pop("export_all", None)       # export all says that it wrote the file, nothing else
    for d in data["decisions"]:                  # the audit trail: when a person decided (timestamps)
        d.pop("at", None)
    return data


def _docx(path, lines):
    d = python_docx.Document()
    for line in lines:
        d.add_paragraph(line)
    d.save(path)
    return path


@pytest.fixture
def sources(tmp_path):
    a, b = NAMES
    lines = [f"담당자 {a} 주무관, 연락처 010-2345-6789", f"{b}님 주민등록번호 900101-1234568",
             f"다시 한 번: {a}에게 보고", "일반 문장입니다. 서식 그대로 남습니다."]
    txt = tmp_path / "src" / "민원.txt"
    txt.parent.mkdir()
    txt.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return txt, _docx(tmp_path / "src" / "공문.docx", lines)


@pytest.mark.parametrize("kind", ["txt", "docx"])
def test_window_export_all_and_cli_write_identical_outputs_and_reports(qtbot, make_window, model_dir, sources,
                                                                       tmp_path, kind):
    src = sources[0] if kind == "txt" else sources[1]
    # 1. veil-redact redact: detections >= --min-score accepted, the rest left below the threshold
    cli_dir = tmp_path / "cli"
    assert main(["redact", str(src), "--out", str(cli_dir), "--model", str(model_dir), "--threads", "1",
                 "--quiet"]) == 0
    cli_out = cli_dir / src.name
    cli_report = _report(cli_out)

    # 2. the window, same decisions: accept what reaches the threshold, leave the rest pending below it
    w = make_window()
    open_and_detect(qtbot, w, src)
    state = w.state
    state.set_status([it.id for it in state if it.score >= state.threshold], Status.ACCEPTED)
    assert state.pending_count() == 0
    win_dir = tmp_path / "window"
    win_dir.mkdir()
    win_out = win_dir / src.name
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as blocker:
        w.export_to(win_out, policy="block", below_threshold_ok=True)
    assert blocker.args == [str(win_out)]

    # 3. export all, from the review saved as a session
    saved = ReviewState(state.text, threshold=state.threshold)
    saved.restore_items(list(state))
    snap = take_snapshot(saved, SessionInfo(document_hash(state.text), str(src), cli_report["detector"],
                                            state.threshold, True))
    write_atomic(snap.path, snap.to_bytes())
    all_dir = tmp_path / "all"
    from veil_desktop.detect.default import build_default_detector

    detector = build_default_detector(model_dir=model_dir, threads=1)     # the window's and the CLI's
    row = export_one(DocEntry(src), all_dir / src.name, allow_below_threshold=True,
                     second_opinion=detector.detect)
    assert row.status == "exported", row.message

    outputs = [cli_out.read_bytes(), win_out.read_bytes(), (all_dir / src.name).read_bytes()]
    assert outputs[0] == outputs[1] == outputs[2]
    reports = [cli_report, _report(win_out), _report(all_dir / src.name)]
    assert reports[0] == reports[1] == reports[2]
    # ... and what they agree on is a real redaction: every name and number masked, decisions recorded
    text = (cli_out.read_text("utf-8") if kind == "txt"
            else "\n".join(p.text for p in python_docx.Document(str(cli_out)).paragraphs))
    for value in (*NAMES, "010-2345-6789", "900101-1234568"):
        assert value not in text
    assert "[인명]" in text and "일반 문장입니다." in text
    assert {d["decision"] for d in cli_report["decisions"]} <= {"accepted", "below_threshold"}
    assert cli_report["counts"].get("PERSON", 0) >= 3 and cli_report["leak_check"]["result"] == "clean"
    assert cli_report["second_opinion"]["result"] in ("clean", "possible_misses")   # run by all three


def test_copies_of_an_accepted_value_are_masked_and_recorded_once(tmp_path, model_dir):
    """``mask_copies``: the core records every unmasked copy as an accepted item (the window's *mask
    copies* answer and the CLI's propagation are the same step) and the output has none left."""
    from veil_desktop.detect.span import Span
    from veil_desktop.documents import open_document
    from veil_desktop.review.export import PendingPolicy
    from veil_desktop.review.export_job import CopiesFound, ExportRequest, export_review

    name = NAMES[0]
    src = tmp_path / "memo.txt"
    src.write_text(f"{name} 과장. 다시 {name}. 끝으로 {name}\n", encoding="utf-8")
    doc = open_document(src)
    state = ReviewState(doc.text, threshold=0.5)
    first = doc.text.index(name)
    state.add_detected([Span(first, first + len(name), "PERSON", 0.9)], Status.ACCEPTED)
    req = ExportRequest(tmp_path / "out.txt", {}, "tag", PendingPolicy.BLOCK)
    found = export_review(doc, state, req)
    assert isinstance(found, CopiesFound) and found.count == 2 and not (tmp_path / "out.txt").exists()
    from dataclasses import replace

    res = export_review(doc, state, replace(req, mask_copies=True))
    out = (tmp_path / "out.txt").read_text("utf-8")
    assert name not in out and out.count("[인명]") == 3
    assert [it.status for it in state] == [Status.ACCEPTED] * 3 and res.counts == {"PERSON": 3}
