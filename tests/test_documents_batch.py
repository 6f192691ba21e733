"""``veil-redact redact``: a folder of real TXT/DOCX/HWPX/PDF/HWP files (built by the other document tests'
builders) through the real default detector (a tiny real ONNX model folder + the rule stage)."""
from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from tests.fixtures.tiny_model import build_tiny_model
from tests.test_documents_docx import PII as DOCX_PII
from tests.test_documents_docx import build_docx
from tests.test_documents_hwp import build_hwp
from tests.test_documents_hwpx import build_hwpx
from tests.test_documents_pdf import ASCII_LINES, make_pdf
from veil_desktop.cli import main

NAMES = ["홍길동", "김민수", "이영희", "장보고", "안중근"]  # 윤봉길 would clash with 홍길동 (길: I vs E)


@pytest.fixture()
def model(tmp_path_factory):
    folder = tmp_path_factory.mktemp("model") / "tiny"
    return build_tiny_model(folder, entities={n: "PERSON" for n in NAMES}, score=0.9)


def hashes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def build_inputs(root: Path) -> Path:
    src = root / "in"
    (src / "sub").mkdir(parents=True)
    (src / "memo.txt").write_bytes("담당자 홍길동 (010-1234-5678)\r\n메일 hong@example.com\r\n".encode("cp949"))
    build_docx(src / "report.docx")
    (src / "report.png").unlink()           # the builder's picture source; not an input type anyway
    build_hwpx(src / "sub" / "form.hwpx")
    make_pdf(src / "sub" / "scan.pdf", [ASCII_LINES], meta=False)
    build_hwp(src / "old.hwp")
    (src / "notes.xyz").write_text("ignored: not a supported type")
    (src / "broken.docx").write_bytes(b"PK\x03\x04 this is not a real zip")
    return src


def test_batch_folder(tmp_path, model, capsys):
    src = build_inputs(tmp_path)
    before = hashes(src)
    out = tmp_path / "out"
    code = main(["redact", str(src), "--out", str(out), "--model", str(model), "--threads", "1",
                 "--style", "PHONE=partial", "--style", "tag"])
    captured = capsys.readouterr()
    assert code == 1                                   # broken.docx could not be redacted
    assert hashes(src) == before                       # originals byte-identical
    produced = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert produced == sorted([
        "memo.txt", "memo.txt.report.json", "report.docx", "report.docx.report.json",
        "old.hwp", "old.hwp.report.json", "sub/form.hwpx", "sub/form.hwpx.report.json",
        "sub/scan.pdf", "sub/scan.pdf.report.json"])
    assert not (out / "broken.docx").exists()
    summary = captured.out
    assert "broken.docx" in summary and "FAILED" in summary and "damaged" in summary
    assert "5 of 6 file(s) redacted; 1 failed" in summary
    assert "[1/6]" in captured.err and "[6/6]" in captured.err        # progress on stderr
    # the default tags are the window's: Korean in a Korean document (masking.resolve_tag_language)
    assert (out / "memo.txt").read_bytes() == "담당자 [인명] (010-****-****)\r\n메일 [이메일]\r\n".encode("cp949")

    report = json.loads((out / "report.docx.report.json").read_text("utf-8"))
    assert report["detector"].endswith("+veil-rules-1") and report["threshold"] == 0.5
    assert report["masking"] == {"default": "tag", "per_label": {"PHONE": "partial"}, "tag_language": "ko"}
    assert report["counts"]["PERSON"] >= 5 and report["leak_check"]["result"] == "clean"
    assert {d["decision"] for d in report["decisions"]} <= {"accepted", "propagated", "below_threshold"}
    with zipfile.ZipFile(out / "report.docx") as z:
        blob = "".join(z.read(n).decode("utf-8", "replace") for n in z.namelist())
    for name in NAMES:
        assert name not in blob
    assert "1234-5678" not in blob and "hong@example.com" not in blob
    with zipfile.ZipFile(out / "sub" / "form.hwpx") as z:
        assert "김민수" not in z.read("Contents/section0.xml").decode()
        assert "김민수" not in z.read("Preview/PrvText.txt").decode()
    from veil_desktop.documents import open_document

    hwp_txt = open_document(out / "old.hwp").text            # written back as HWP, read again
    # same-length masking inside HWP records: the tag is cut to the value's length ([인] for a 3-letter name)
    assert "홍길동" not in hwp_txt and "[인]" in hwp_txt and "[PERSON]" not in hwp_txt
    for f in out.rglob("*.report.json"):
        raw = f.read_text("utf-8")
        for name in NAMES:
            assert name not in raw


def test_batch_threshold_and_txt_mode(tmp_path, model, capsys):
    src = tmp_path / "a.txt"
    src.write_text("홍길동 010-1234-5678", encoding="utf-8")
    out = tmp_path / "o"
    # model spans score 0.9, the phone rule 0.97: with S = 0.95 only the phone is masked
    assert main(["redact", str(src), "--out", str(out), "--model", str(model), "--min-score", "0.95",
                 "--quiet"]) == 0
    assert (out / "a.txt").read_text("utf-8") == "홍길동 [전화번호]"
    decisions = json.loads((out / "a.txt.report.json").read_text("utf-8"))["decisions"]
    assert [(d["label"], d["decision"]) for d in decisions] == [("PERSON", "below_threshold"),
                                                                 ("PHONE", "accepted")]
    doc = build_docx(tmp_path / "r.docx")
    assert main(["redact", str(doc), "--out", str(out), "--model", str(model), "--txt", "--quiet"]) == 0
    text = (out / "r.docx.txt").read_text("utf-8")
    assert text.startswith("담당자 연락처: [전화번호] 입니다.")
    for v in DOCX_PII:
        if v in NAMES:
            assert v not in text


def test_batch_usage_and_model_errors(tmp_path, model, capsys):
    src = tmp_path / "a.txt"
    src.write_text("홍길동", encoding="utf-8")
    assert main(["redact", str(src), "--out", str(tmp_path / "o"), "--model", str(tmp_path / "nope")]) == 2
    assert "no model folder" in capsys.readouterr().err.lower()
    assert main(["redact", str(src), "--out", str(tmp_path / "o"), "--model", str(model),
                 "--style", "PERSON=bogus"]) == 2
    assert "unknown masking style" in capsys.readouterr().err
    assert main(["redact", str(src), "--out", str(src), "--model", str(model)]) == 2
    assert "not a folder" in capsys.readouterr().err
    code = main(["redact", str(tmp_path / "missing.docx"), "--out", str(tmp_path / "o"), "--model", str(model)])
    assert code == 1 and "no such file" in capsys.readouterr().out
    assert src.read_text("utf-8") == "홍길동"


def test_failed_file_leaves_no_output_even_from_an_earlier_run(tmp_path, model, capsys):
    src = tmp_path / "in" / "a.txt"
    src.parent.mkdir()
    src.write_text("홍길동 010-1234-5678", encoding="utf-8")
    out = tmp_path / "o"
    assert main(["redact", str(src), "--out", str(out), "--model", str(model), "--quiet"]) == 0
    assert (out / "a.txt").is_file() and (out / "a.txt.report.json").is_file()
    src.write_bytes(b"\x00\x01\x02binary\xff" * 50)          # now unreadable as text
    assert main(["redact", str(src), "--out", str(out), "--model", str(model), "--quiet"]) == 1
    assert "earlier output a.txt removed" in capsys.readouterr().out
    assert not (out / "a.txt").exists() and not (out / "a.txt.report.json").exists()
