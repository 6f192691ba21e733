"""The format registry (issue 21): every suffix list, reader, writer, leak-check kind and output name is
derived from ``documents/formats/``; adding a format is one module. This test adds a toy format (``.memo``:
lines of ``key=value``) the way a new format module does — one ``Format`` and one ``register`` call — and
then opens, detects, reviews and exports it through the unchanged product (``open_document``, the export
core, ``veil-redact redact``), including the independent leak check."""
from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from veil_desktop.documents import formats
from veil_desktop.documents.model import Document, Part, Segment


def _read_memo(path: Path, data: bytes, encoding):
    import hashlib

    text = data.decode("utf-8")
    if any("=" not in line for line in text.splitlines()):
        raise ValueError("not key=value lines")         # a reader's own parse error
    return Document(path=path, format="memo", text=text, parts=(Part("본문", 0, len(text), path.name),),
                    segments=(Segment(0, len(text), "", 0),), sha256=hashlib.sha256(data).hexdigest(),
                    size=len(data), encoding="utf-8", newline="\n")


def _write_memo(doc, plan, source):
    from veil_desktop.masking import apply_replacements

    return apply_replacements(doc.text, plan).encode("utf-8")


@pytest.fixture
def memo_format():
    module = types.ModuleType("toy_memo_format")      # stands for documents/formats/memo.py
    module.FORMAT = formats.Format("memo", ("memo",), "Memo (key=value lines)", "메모", _read_memo,
                                   {"memo": _write_memo, "txt": formats.plain_text_export}, leak_check="text",
                                   sniff=lambda head: b"=" in head)
    sys.modules["toy_memo_format"] = module
    formats.register(module.FORMAT)
    yield module.FORMAT
    formats.unregister("memo")
    del sys.modules["toy_memo_format"]
    assert "memo" not in formats.SUPPORTED_FORMATS


def test_a_registered_format_is_everywhere(memo_format, tmp_path):
    from veil_desktop.documents import EXPORTS, SUPPORTED_FORMATS, open_document, output_name, supported_suffixes

    assert SUPPORTED_FORMATS["memo"] == "Memo (key=value lines)" and EXPORTS["memo"] == ("memo", "txt")
    assert ".memo" in supported_suffixes() and formats.CHECK_KIND["memo"] == "text"
    assert output_name(Path("a.memo"), beside_source=True) == Path("a.masked.memo")
    assert output_name(Path("sub/a.memo"), "txt") == Path("sub/a.memo.txt")
    src = tmp_path / "a.memo"
    src.write_text("name=김민준\nphone=010-2345-6789\n", encoding="utf-8")
    doc = open_document(src)
    assert doc.format == "memo" and doc.text.startswith("name=")
    bad = tmp_path / "b.memo"
    bad.write_bytes(b"\x00\x01binary")
    from veil_desktop.documents.errors import DocumentError

    with pytest.raises(DocumentError, match="not a Memo"):
        open_document(bad)          # the reader fails; the format's sniffer names the likely cause


def test_the_cli_redacts_a_registered_format_with_its_leak_check(memo_format, tmp_path):
    from veil_desktop.redact_cli import collect_jobs
    from veil_desktop.cli import main

    src = tmp_path / "in"
    src.mkdir()
    (src / "a.memo").write_text("phone=010-2345-6789\nrrn=900101-1234568\n", encoding="utf-8")
    jobs, failed = collect_jobs([str(src)], tmp_path / "out", False)
    assert [j.output.name for j in jobs] == ["a.memo"] and not failed
    assert main(["redact", str(src), "--out", str(tmp_path / "out"), "--quiet", "--threads", "1"]) == 0
    out = (tmp_path / "out" / "a.memo").read_text("utf-8")
    assert "010-2345-6789" not in out and "900101-1234568" not in out and out.startswith("phone=")
    report = json.loads((tmp_path / "out" / "a.memo.report.json").read_text("utf-8"))
    assert report["input"]["format"] == "memo" and report["leak_check"]["method"] == "text"
    assert report["leak_check"]["result"] == "clean"


def test_registry_refuses_a_clash_and_unknown_outputs(memo_format):
    with pytest.raises(ValueError, match="already registered"):
        formats.register(memo_format)
    from veil_desktop.documents.errors import UnsupportedFormat

    with pytest.raises(UnsupportedFormat, match="choose one of: .memo, .txt"):
        formats.writer_for("memo", "docx")
    assert formats.writer_for("memo", "memo") is _write_memo
