"""Second red-team corpus (issue 26, benchmarks/redteam2.py): one cheap variant per class, redacted by the
real CLI (default detector) and judged by the independent oracle (benchmarks/leak_oracle.py +
benchmarks/redteam2_oracle.py). Variants HEAD still leaks on are left out of the subset and named in
benchmarks/redteam2.py (SUBSET) and docs/DOCUMENTS.md — not weakened here."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import redteam2  # noqa: E402
import redteam2_oracle  # noqa: E402


def test_redteam2_subset_no_published_leak_no_false_alarm(tmp_path):
    man = redteam2.generate(tmp_path, subset=True)
    assert {m["class"] for m in man} == {"1", "2", "3", "4", "5", "6"}
    values = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))["values"]
    # the oracle can fail: it sees every planted value in the inputs of the text-readable variants
    for rel in ("c2_href_targets.docx", "c5_split_cells.csv"):
        m = next(m for m in man if m["file"] == rel)
        seen = {k for k, _, _ in redteam2_oracle.leaks(tmp_path / "in" / rel, m["values"], values, ocr=False)}
        assert seen == set(m["values"]), rel
    summary = redteam2.redact(tmp_path, ROOT)
    res = redteam2_oracle.judge(tmp_path, summary, ocr=True)
    assert len(res) == len(man) == 12
    assert all(r["status"] != "missing" for r in res), summary
    leaks = [(r["file"], r["leaks"]) for r in res if r["verdict"] == "LEAK"]
    assert leaks == []
    false_alarms = [r["file"] for r in res if r["verdict"] == "FALSE ALARM"]
    assert false_alarms == [], summary
    # class 6 files are exported; the variants holding PII that were published really were judged
    assert all(r["status"] == "ok" for r in res if r["class"] == "6")
    published = [r for r in res if r["status"] == "ok" and r["values"]]
    assert len(published) >= 1, summary    # at least one PII variant was published and read by the oracle
