"""Hostile inputs (issue 10, items 4 and 5): bombs and oversize documents are refused with a clear message
(never a MemoryError or a traceback), a batch never aborts and always prints its summary, temp files live
in a private folder that is removed on every exit path and swept after a kill -9, and a file this tool
did not write is never overwritten silently.

Every hostile file is built here. Bomb tests lower the limits (``limits``/``safezip`` constants) so they
prove the *mechanism* with megabytes instead of allocating gigabytes; ``benchmarks/bench_hostile.py``
runs the full-size files through the batch CLI and measures peak RSS.
"""
from __future__ import annotations

import hashlib
import io
import os
import signal
import stat
import struct
import subprocess
import sys
import textwrap
import zipfile
import zlib
from pathlib import Path

import pytest

from tests.fixtures.tiny_model import build_tiny_model
from tests.test_documents_hwp import para, record, write_cfb
from veil_desktop.cli import main
from veil_desktop.documents import (DocumentError, LeakDetected, export_document, limits,
                                    open_document, safezip)
from veil_desktop.documents import export as export_mod
from veil_desktop.documents import hwp as hwp_mod
from veil_desktop.documents import textfile as textfile_mod
from veil_desktop.documents.limits import ResourceLimit

NAMES = ["홍길동", "김민수"]


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def zeros_member(zf: zipfile.ZipFile, name: str, size: int) -> None:
    """A member of ``size`` zero bytes, compressed in 1 MB steps (never ``size`` bytes in memory)."""
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    with zf.open(info, "w", force_zip64=size > 2**31) as f:
        block = b"\0" * (1 << 20)
        left = size
        while left > 0:
            f.write(block[:min(left, len(block))])
            left -= len(block)


def zip_bytes(build) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        build(zf)
    return buf.getvalue()


def minimal_docx(path: Path, body: str = "담당자 홍길동 연락처 010-1234-5678", extra=None) -> Path:
    from docx import Document

    d = Document()
    d.add_paragraph(body)
    d.save(str(path))
    if extra:
        with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as zf:
            extra(zf)
    return path


def one_letter_paragraphs_docx(path: Path, n: int) -> Path:
    """A DOCX whose body is ``n`` one-letter paragraphs (the '610 KB that grows to GBs' class)."""
    minimal_docx(path)
    with zipfile.ZipFile(path) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    doc = members["word/document.xml"].decode()
    head, tail = doc.split("<w:body>", 1)
    body = "<w:p><w:r><w:t>a</w:t></w:r></w:p>" * n
    members["word/document.xml"] = (head + "<w:body>" + body + tail.split("</w:p>", 1)[1]).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


# ------------------------------------------------------------------------------------ ZIP bombs
def test_declared_bomb_is_refused_before_inflating(tmp_path):
    # a member whose central directory declares 400 MB (> the 384 MB limit): refused from the directory
    # alone, before a byte is inflated (building a real 400 MB member would take the test 20 s)
    data = bytearray(zip_bytes(lambda zf: zeros_member(zf, "word/media/z.bin", 1 << 20)))
    cd = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, cd + 24, 400 << 20)
    (tmp_path / "bomb.docx").write_bytes(bytes(data))
    with pytest.raises(ResourceLimit, match="unpack to 400 MB .*possible ZIP bomb"):
        open_document(tmp_path / "bomb.docx")


def test_nested_bomb_stops_at_the_running_total(tmp_path, monkeypatch):
    """Each inner ZIP is within the declared-size check on its own; together they pass the running total
    over everything inflated (outer and nested), so the re-read stops with ResourceLimit, not MemoryError."""
    monkeypatch.setattr(limits, "MAX_INFLATED_TOTAL", 4 << 20)
    monkeypatch.setattr(safezip, "MAX_TOTAL_UNCOMPRESSED", 4 << 20)
    inner = zip_bytes(lambda zf: zeros_member(zf, "sheet.xml", 3 << 20))
    outer = zip_bytes(lambda zf: [zf.writestr(f"word/embeddings/pkg{i}.xlsx", inner) for i in range(2)])
    assert len(outer) < 20_000
    seen = []
    with pytest.raises(ResourceLimit, match="more than 4 MB"):
        for name, data in safezip.iter_members(outer, "document", nested=True):
            seen.append((name, len(data)))
    # the first nested member was inflated in full, the second one stopped at the limit
    assert ("word/embeddings/pkg0.xlsx!/sheet.xml", 3 << 20) in seen
    assert not any(n.startswith("word/embeddings/pkg1.xlsx!/") for n, _ in seen)


def test_nested_bomb_fails_the_leak_check_closed(monkeypatch):
    """The leak check re-reads outputs with nested ZIPs opened: over the running total it reports the
    output as unverifiable (= a leak: the export is deleted), never a MemoryError."""
    from veil_desktop.documents import leakcheck
    from veil_desktop.documents.matching import ValueMatcher

    monkeypatch.setattr(limits, "MAX_INFLATED_TOTAL", 4 << 20)
    monkeypatch.setattr(safezip, "MAX_TOTAL_UNCOMPRESSED", 4 << 20)
    inner = zip_bytes(lambda zf: zeros_member(zf, "sheet.xml", 3 << 20))
    outer = zip_bytes(lambda zf: [zf.writestr("word/document.xml", "<w:document/>")]
                      + [zf.writestr(f"word/embeddings/pkg{i}.xlsx", inner) for i in range(2)])
    rep = leakcheck.check_zip_bytes(outer, ValueMatcher(["홍길동"]))
    assert not rep.clean and any("cannot be verified" in h and "more than 4 MB" in h for h in rep.hits)


def test_bombs_in_a_batch_are_failed_rows_and_the_batch_goes_on(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(limits, "MAX_XML_ELEMENTS", 30_000)
    src_dir = tmp_path / "in"
    src_dir.mkdir()
    data = bytearray(zip_bytes(lambda zf: zeros_member(zf, "word/document.xml", 1 << 20)))
    struct.pack_into("<I", data, data.index(b"PK\x01\x02") + 24, 900 << 20)
    (src_dir / "a_declared.docx").write_bytes(bytes(data))
    one_letter_paragraphs_docx(src_dir / "b_paras.docx", 20_000)
    (src_dir / "c_after.txt").write_text("담당자 홍길동 010-1234-5678\n", encoding="utf-8")
    before = {p.name: sha(p) for p in src_dir.iterdir()}
    model = build_tiny_model(tmp_path / "m", entities={n: "PERSON" for n in NAMES}, score=0.9)
    out = tmp_path / "out"
    code = main(["redact", str(src_dir), "--out", str(out), "--model", str(model), "--threads", "1",
                 "--quiet"])
    summary = capsys.readouterr().out
    assert code == 1
    rows = {line.split()[0].rsplit("/", 1)[-1]: line for line in summary.splitlines() if "/in/" in line}
    assert "FAILED" in rows["a_declared.docx"] and "possible ZIP bomb" in rows["a_declared.docx"]
    assert "FAILED" in rows["b_paras.docx"] and "more than 30,000 XML elements" in rows["b_paras.docx"]
    assert " ok " in rows["c_after.txt"]
    assert "1 of 3 file(s) redacted; 2 failed" in summary
    assert sorted(p.name for p in out.iterdir()) == ["c_after.txt", "c_after.txt.report.json"]
    assert {p.name: sha(p) for p in src_dir.iterdir()} == before


def test_member_lying_about_its_size_is_damaged_not_inflated(tmp_path):
    data = bytearray(zip_bytes(lambda zf: zeros_member(zf, "word/document.xml", 2 << 20)))
    # declare 1,000 bytes in the local header and the central directory: zipfile stops there
    lh = data.index(b"PK\x03\x04")
    struct.pack_into("<I", data, lh + 22, 1000)
    cd = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, cd + 24, 1000)
    (tmp_path / "lie.docx").write_bytes(bytes(data))
    with pytest.raises(DocumentError, match="damaged"):
        open_document(tmp_path / "lie.docx")


def test_one_letter_paragraph_bomb_is_refused_by_element_count(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_XML_ELEMENTS", 30_000)
    src = one_letter_paragraphs_docx(tmp_path / "paras.docx", 20_000)      # ~60,000 elements
    assert src.stat().st_size < 60_000          # the python-docx template is most of it
    with pytest.raises(ResourceLimit, match="more than 30,000 XML elements.*Split"):
        open_document(src)
    # just under the limit it opens, and exports (the export allows the writer's re-parse)
    monkeypatch.setattr(limits, "MAX_XML_ELEMENTS", 100_000)
    doc = open_document(src)
    assert doc.text.count("a\n") == 20_000
    res = export_document(doc, [], tmp_path / "o.docx")
    assert res.leak_check["result"] == "clean"


def _limit(monkeypatch, name: str, value: int) -> None:
    """Set a per-document limit where it is read (``limits``, and ``model``'s fast-path copy)."""
    import veil_desktop.documents.model as model_mod

    monkeypatch.setattr(limits, name, value)
    if hasattr(model_mod, name):
        monkeypatch.setattr(model_mod, name, value)


def test_paragraph_and_character_limits(tmp_path, monkeypatch):
    _limit(monkeypatch, "MAX_SLOTS", 5_000)
    src = one_letter_paragraphs_docx(tmp_path / "paras.docx", 6_000)
    with pytest.raises(ResourceLimit, match="more than 5,000 paragraphs"):
        open_document(src)
    _limit(monkeypatch, "MAX_SLOTS", 2_000_000)
    _limit(monkeypatch, "MAX_DOCUMENT_CHARS", 10_000)
    with pytest.raises(ResourceLimit, match="longer than 10,000 characters"):
        open_document(src)


def test_xml_part_size_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(safezip, "MAX_XML_PART", 100_000)
    src = one_letter_paragraphs_docx(tmp_path / "paras.docx", 5_000)       # ~170 KB of XML
    with pytest.raises(ResourceLimit, match="larger than 0 MB of XML"):
        open_document(src)


# ------------------------------------------------------------------------------------ text and HWP
def test_big_text_file_is_refused_with_a_message(tmp_path, monkeypatch):
    _limit(monkeypatch, "MAX_DOCUMENT_CHARS", 50_000)
    p = tmp_path / "big.txt"
    p.write_text("가나다라 010-1234-5678\n" * 4_000, encoding="utf-8")      # 72,000 characters
    with pytest.raises(ResourceLimit, match="longer than 50,000 characters.*Split"):
        open_document(p)
    monkeypatch.setattr(textfile_mod, "MAX_TEXT_BYTES", 100_000)
    with pytest.raises(ResourceLimit, match="text file is too large"):
        open_document(p)


def hwp_with_section(path: Path, body: bytes) -> Path:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    section = c.compress(body) + c.flush()
    header = b"HWP Document File".ljust(32, b"\0") + struct.pack("<II", 0x05000300, 1)
    path.write_bytes(write_cfb({"FileHeader": header.ljust(256, b"\0"), "DocInfo": b"\x03\0",
                                "BodyText/Section0": section}))
    return path


def test_hwp_that_expands_to_millions_of_characters_is_refused(tmp_path, monkeypatch):
    # one 4 MB paragraph of '가' (2 M characters) compresses to a few KB
    body = record(0x42, 0, b"\0" * 22) + record(0x43, 1, "가".encode("utf-16-le") * 2_000_000)
    src = hwp_with_section(tmp_path / "big.hwp", body)
    assert src.stat().st_size < 40_000
    monkeypatch.setattr(hwp_mod, "MAX_SECTION_BYTES", 1 << 20)
    with pytest.raises(ResourceLimit, match="unpacks to more than 1 MB"):
        open_document(src)
    monkeypatch.setattr(hwp_mod, "MAX_SECTION_BYTES", 128 << 20)
    monkeypatch.setattr(hwp_mod, "MAX_TOTAL_SECTION_BYTES", 1 << 20)
    with pytest.raises(ResourceLimit, match="too large to review"):
        open_document(src)
    monkeypatch.setattr(hwp_mod, "MAX_TOTAL_SECTION_BYTES", 80 << 20)
    _limit(monkeypatch, "MAX_DOCUMENT_CHARS", 1_000_000)
    with pytest.raises(ResourceLimit, match="longer than 1,000,000 characters"):
        open_document(src)


def test_hwp_many_tiny_paragraphs_hit_the_paragraph_limit(tmp_path, monkeypatch):
    _limit(monkeypatch, "MAX_SLOTS", 10_000)
    src = hwp_with_section(tmp_path / "paras.hwp", para("가") * 20_000)
    with pytest.raises(ResourceLimit, match="more than 10,000 paragraphs"):
        open_document(src)


# ------------------------------------------------------------------------------------ batch never aborts
class Faulty:
    """The real default detector, with faults injected for marked documents (a MemoryError cannot be
    provoked honestly in a test without allocating gigabytes)."""

    def __init__(self, inner, faults):
        self.inner, self.faults, self.id = inner, faults, inner.id

    def stream(self, text, **kw):
        for marker, exc in self.faults.items():
            if marker in text:
                if exc == "sigterm":
                    signal.raise_signal(signal.SIGTERM)
                else:
                    raise exc
        return self.inner.stream(text, **kw)

    def detect(self, text):          # the Detector protocol (the export's second opinion calls it)
        return self.inner.detect(text)


def _run_with(monkeypatch, tmp_path, faults, files: dict[str, str], extra=()):
    from veil_desktop import redact_cli as batch

    model = build_tiny_model(tmp_path / "m", entities={n: "PERSON" for n in NAMES}, score=0.9)
    real = batch._make_detector
    monkeypatch.setattr(batch, "_make_detector", lambda args: Faulty(real(args), faults))
    src = tmp_path / "in"
    src.mkdir(exist_ok=True)
    for name, text in files.items():
        (src / name).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    code = main(["redact", str(src), "--out", str(out), "--model", str(model), "--threads", "1", "--quiet",
                 *extra])
    return code, out


def test_every_failure_is_a_row_and_the_batch_goes_on(tmp_path, monkeypatch, capsys):
    files = {"a_ok.txt": "홍길동 010-1234-5678\n", "b_oom.txt": "MARK-OOM 김민수\n",
             "c_deep.txt": "MARK-DEEP 김민수\n", "d_bug.txt": "MARK-BUG 김민수\n",
             "e_ok.txt": "김민수 010-2222-3333\n"}
    faults = {"MARK-OOM": MemoryError(), "MARK-DEEP": RecursionError("maximum recursion depth"),
              "MARK-BUG": KeyError("boom")}
    code, out = _run_with(monkeypatch, tmp_path, faults, files)
    summary = capsys.readouterr().out
    assert code == 1
    rows = {line.split()[0].rsplit("/", 1)[-1]: line for line in summary.splitlines() if ".txt" in line}
    assert "ran out of memory" in rows["b_oom.txt"] and "FAILED" in rows["b_oom.txt"]
    assert "nested too deeply" in rows["c_deep.txt"]
    assert "unexpected error (KeyError)" in rows["d_bug.txt"]
    assert "ok" in rows["e_ok.txt"].split()                   # later files still processed
    assert "2 of 5 file(s) redacted; 3 failed" in summary
    assert sorted(p.name for p in out.iterdir()) == ["a_ok.txt", "a_ok.txt.report.json", "e_ok.txt",
                                                     "e_ok.txt.report.json"]


def test_sigterm_prints_the_summary_and_leaves_no_temp_files(tmp_path, monkeypatch, capsys):
    files = {"a_ok.txt": "홍길동 010-1234-5678\n", "b_term.txt": "MARK-TERM 김민수\n", "c_never.txt": "김민수\n"}
    code, out = _run_with(monkeypatch, tmp_path, {"MARK-TERM": "sigterm"}, files)
    cap = capsys.readouterr()
    assert code == 143
    assert "interrupted" in cap.err
    assert "c_never.txt" in cap.out and "not processed" in cap.out and "1 of 3 file(s) redacted" in cap.out
    assert [p.name for p in out.iterdir() if p.name.startswith(".veil")] == []
    assert signal.getsignal(signal.SIGTERM) is not None


# ------------------------------------------------------------------------------------ hygiene
def test_temp_file_is_in_a_private_folder_removed_on_every_path(tmp_path):
    seen = {}

    def verify(tmp: Path):
        seen["dir_mode"] = stat.S_IMODE(tmp.parent.stat().st_mode)
        seen["file_mode"] = stat.S_IMODE(tmp.stat().st_mode)
        seen["dir"] = tmp.parent
        assert tmp.parent.parent == tmp_path and tmp.parent.name.startswith(f".veil-tmp-{os.getpid()}-")

    export_mod._write_atomic(tmp_path / "o.txt", b"data", verify)
    assert seen["dir_mode"] == 0o700 and seen["file_mode"] == 0o600 and not seen["dir"].exists()
    assert (tmp_path / "o.txt").read_bytes() == b"data"

    for exc in (LeakDetected("leak", ["x"]), KeyboardInterrupt(), SystemExit(143)):
        def boom(tmp: Path, exc=exc):
            raise exc
        with pytest.raises(type(exc)):
            export_mod._write_atomic(tmp_path / "p.txt", b"secret", boom)
        assert not (tmp_path / "p.txt").exists()
        assert [p.name for p in tmp_path.iterdir()] == ["o.txt"]


def test_kill_9_leftovers_are_swept_by_the_next_export(tmp_path):
    # a real process killed with SIGKILL while its temp file (unmasked content) is on disk
    script = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {str(Path(__file__).resolve().parent.parent)!r})
        from pathlib import Path
        from veil_desktop.documents.export import _write_atomic
        def die(tmp):
            os.kill(os.getpid(), signal.SIGKILL)
        _write_atomic(Path({str(tmp_path / 'o.txt')!r}), "홍길동 010-1234-5678".encode(), die)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL
    left = [p for p in tmp_path.iterdir() if p.name.startswith(".veil-tmp-")]
    assert len(left) == 1 and any(left[0].iterdir())
    (tmp_path / ".veil-abcd1234.part").write_bytes("김민수".encode())         # an older version's leftover
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        busy = tmp_path / f".veil-tmp-{live.pid}-busy"
        busy.mkdir()
        src = tmp_path / "in.txt"
        src.write_text("홍길동 전화 010-1234-5678", encoding="utf-8")
        doc = open_document(src)
        export_document(doc, [], tmp_path / "out.txt")
        names = sorted(p.name for p in tmp_path.iterdir())
        # the killed run's folder and the legacy .part file are gone; its output was never published
        assert names == sorted(["in.txt", "out.txt", "out.txt.report.json", busy.name])
        assert busy.exists()                               # a running process's folder is left alone
    finally:
        live.kill()
        live.wait()


def test_existing_file_not_written_by_us_is_never_overwritten(tmp_path, capsys):
    src = tmp_path / "in" / "memo.txt"
    src.parent.mkdir()
    src.write_text("담당자 홍길동 010-1234-5678\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    foreign = out / "memo.txt"
    foreign.write_text("someone else's file", encoding="utf-8")
    doc = open_document(src)
    with pytest.raises(DocumentError, match="was not written by this tool.*--overwrite"):
        export_document(doc, [], foreign, overwrite=False)
    assert foreign.read_text(encoding="utf-8") == "someone else's file"

    model = build_tiny_model(tmp_path / "m", entities={n: "PERSON" for n in NAMES}, score=0.9)
    args = ["redact", str(src.parent), "--out", str(out), "--model", str(model), "--threads", "1", "--quiet"]
    assert main(args) == 1
    row = capsys.readouterr().out
    assert "FAILED" in row and "--overwrite" in row
    assert foreign.read_text(encoding="utf-8") == "someone else's file"      # not removed either
    assert main(args + ["--overwrite"]) == 0
    assert "홍길동" not in foreign.read_text(encoding="utf-8")
    # now it is our output: a second run replaces it without --overwrite
    assert main(args) == 0
    capsys.readouterr()
    # a file with a forged report beside it (hash does not match) is still foreign
    foreign.write_text("edited by hand", encoding="utf-8")
    assert main(args) == 1
    assert foreign.read_text(encoding="utf-8") == "edited by hand"


def test_long_documents_are_detected_in_slices_with_the_same_spans(tmp_path, monkeypatch):
    """The batch reads a long text in slices cut at line ends (bounded detector memory); the spans are
    those of one pass over the whole text."""
    from veil_desktop.detect.default import build_default_detector
    from veil_desktop import redact_cli as batch

    model = build_tiny_model(tmp_path / "m", entities={n: "PERSON" for n in NAMES}, score=0.9)
    det = build_default_detector(model_dir=model, threads=1)
    text = "".join(f"{i}번 담당 {NAMES[i % 2]} 님 연락처 010-{1000 + i}-5678 서울특별시 종로구 세종대로 {i}\n"
                   for i in range(60))
    whole = sorted(det.detect(text))
    from veil_desktop.detect import driver

    monkeypatch.setattr(driver, "BATCH_SLICE_CHARS", 200)
    monkeypatch.setattr(driver, "BATCH_MAX_CHARS", 300)
    assert len(driver.slice_bounds(text, 200, max_chars=300)) > 5
    assert all(text[b - 1] == "\n" for _, b in driver.slice_bounds(text, 200, max_chars=300))
    assert sorted(batch._detect(det, text, "x", False)) == whole
    assert {s.label for s in whole} >= {"PERSON", "PHONE"}
    calls = []
    real_stream = det.stream
    monkeypatch.setattr(det, "stream", lambda t, **kw: calls.append(len(t)) or real_stream(t, **kw))
    batch._detect(det, text, "x", False)
    assert len(calls) > 5 and max(calls) <= 300
