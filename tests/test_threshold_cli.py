"""Issue 10 item 6 on the batch side: suggestions under --min-score are never dropped silently — the
report's ``review`` section and the summary line count the ones left in clear (a copy of a masked value
is masked anyway and not counted)."""
from __future__ import annotations

import json

import pytest

from tests.fixtures.tiny_model import build_tiny_model
from veil_desktop.cli import main


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "model", entities={"홍길동": "PERSON"})


def test_below_min_score_is_counted_in_report_and_summary(tmp_path, model, capsys):
    src = tmp_path / "a.txt"
    src.write_text("홍길동 010-1234-5678\n", encoding="utf-8")
    out = tmp_path / "o"
    # model spans score 0.95, the phone rule 0.97: with 0.96 the name stays in clear, on purpose
    assert main(["redact", str(src), "--out", str(out), "--model", str(model), "--min-score", "0.96",
                 "--quiet"]) == 0
    report = json.loads((out / "a.txt.report.json").read_text("utf-8"))
    assert report["review"]["pending_below_threshold"] == 1
    assert report["review"]["pending_below_threshold_per_label"] == {"PERSON": 1}
    summary = capsys.readouterr().out
    assert "1 suggestion(s) under 0.96 left unmasked" in summary
    # nothing below the threshold: no note, count 0
    assert main(["redact", str(src), "--out", str(out), "--model", str(model), "--overwrite", "--quiet"]) == 0
    report = json.loads((out / "a.txt.report.json").read_text("utf-8"))
    assert report["review"]["pending_below_threshold"] == 0
    assert "left unmasked" not in capsys.readouterr().out
