"""``veil-desktop --self-test`` logic, run in-process on a test-built resources folder.

The resources folder holds the repository's sample, font and icon plus a tiny *real* model folder
(tests/fixtures/tiny_model.py), so every step runs the production code path: onnxruntime session, rules,
the real main window (offscreen), TXT and DOCX export with the documents' leak check.
"""
from __future__ import annotations

import shutil
import socket
import sys
import zipfile
from pathlib import Path

import pytest

from tests.fixtures.tiny_model import build_tiny_model
from veil_desktop import selftest

ROOT = Path(__file__).resolve().parent.parent
ENTITIES = {"김민준": "PERSON", "이서연": "PERSON", "박지훈": "PERSON", "강남구청": "ORGANIZATION"}
FULL_STEPS = ["resources", "native libs", "load detector", "detect sample", "main window", "export TXT",
              "export DOCX", "export PDF", "OCR page", "no network", "no telemetry"]


@pytest.fixture
def resources(tmp_path, monkeypatch):
    # what the frozen entry (packaging/entry.py) sets before anything imports onnxruntime
    monkeypatch.setenv("ORT_DISABLE_TELEMETRY", "1")
    res = tmp_path / "resources"
    for sub in ("samples", "fonts", "icons", "tessdata"):  # tessdata: the OCR step
        shutil.copytree(ROOT / "resources" / sub, res / sub)
    build_tiny_model(res / "models" / "veil-compact-ko", entities=ENTITIES, score=0.95)
    monkeypatch.setenv("VEIL_RESOURCES_DIR", str(res))
    return res


def test_selftest_passes_with_the_network_refused(resources, qapp, monkeypatch, tmp_path, capsys):
    refused: list[tuple] = []

    def refuse(self, address):
        refused.append(address)
        raise OSError("network disabled by the test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    profile_before = (Path(selftest.os.environ["VEIL_DATA_DIR"]), Path(selftest.os.environ["VEIL_CONFIG_DIR"]))
    keep = tmp_path / "out"
    selftest.main(["--keep", str(keep)])
    out = capsys.readouterr().out
    # "no telemetry" is left out here: this test process imported onnxruntime long before any test could set
    # ORT_DISABLE_TELEMETRY, so onnxruntime's telemetry is live in it. The subprocess test below runs the
    # self-test the way the app does (variable set first) and requires every step, that one included.
    for name in FULL_STEPS[:-1]:
        assert any(line.startswith(name + " ") and " ok " in line for line in out.splitlines()), (name, out)
    failed = [line for line in out.splitlines() if " FAIL " in line and not line.startswith("RESULT")]
    assert all(line.startswith("no telemetry ") for line in failed), out
    assert "(pool thread: veil-compact-ko+veil-rules-1)" in out  # the production detection path ran
    assert refused == []
    # the exports exist, are masked, and the sources were left alone
    txt = (keep / "redacted.txt").read_text(encoding="utf-8")
    assert "880412-1234567" not in txt and "010-2345-6789" not in txt and "minjun.kim@example.com" not in txt
    assert "880412-1234567" in (keep / "sample_ko.txt").read_text(encoding="utf-8")
    with zipfile.ZipFile(keep / "redacted.docx") as zf:
        xml = "".join(zf.read(n).decode("utf-8", "replace") for n in zf.namelist() if n.endswith(".xml"))
    assert "880412-1234567" not in xml and "김민준" not in xml
    import pypdfium2 as pdfium

    src, red = pdfium.PdfDocument(str(keep / "sample_ko.pdf")), pdfium.PdfDocument(str(keep / "redacted.pdf"))
    assert "880412-1234567" in src[0].get_textpage().get_text_range()  # the input had a real text layer
    assert red[0].get_textpage().get_text_range() == "" and len(red) == len(src)
    src.close()
    red.close()
    # the window ran in a throw-away profile inside the work folder, and the user's profile env is back
    assert (keep / "profile").is_dir()
    assert (Path(selftest.os.environ["VEIL_DATA_DIR"]), Path(selftest.os.environ["VEIL_CONFIG_DIR"])) \
        == profile_before


def test_selftest_through_the_app_entry_passes_every_step(resources, tmp_path):
    """``packaging/entry.py --self-test`` in a fresh interpreter, exactly as the frozen app runs it."""
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}  # the entry must set it
    env.update(QT_QPA_PLATFORM="offscreen", XDG_CACHE_HOME=str(tmp_path / "xdg-cache"))
    proc = subprocess.run([sys.executable, str(ROOT / "packaging" / "entry.py"), "--self-test",
                           "--keep", str(tmp_path / "out")], capture_output=True, text=True, env=env,
                          timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"RESULT: PASS ({len(FULL_STEPS)}/{len(FULL_STEPS)} steps ok)" in proc.stdout
    assert not (tmp_path / "xdg-cache" / "Microsoft").exists()  # onnxruntime's telemetry store


def test_a_network_attempt_fails_the_selftest(resources, monkeypatch, tmp_path):
    original = selftest.SelfTest._export_txt

    def export_then_phone_home(self):
        detail = original(self)
        socket.create_connection(("192.0.2.1", 80), timeout=1)  # TEST-NET-1: never routable
        return detail

    monkeypatch.setattr(selftest.SelfTest, "_export_txt", export_then_phone_home)
    results = {r.name: r for r in selftest.run_selftest(tmp_path / "w", build_window=False)}
    assert not results["export TXT"].ok
    assert "network access is disabled" in results["export TXT"].detail
    assert not results["no network"].ok
    assert "create_connection" in results["no network"].detail
    # the guard is gone afterwards: socket functions are the originals again
    assert socket.create_connection.__module__ == "socket"


def test_a_missing_module_is_a_clear_failure_not_a_crash(resources, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "veil_desktop.detect.default", None)  # makes the import fail
    monkeypatch.setattr(sys, "argv", ["veil-desktop", "--self-test", "--no-window"])
    rc = selftest.main()  # argv from sys.argv, with the --self-test flag that dispatched here dropped
    out = capsys.readouterr().out
    assert rc == 1
    def line_of(step: str) -> str:
        return next(line for line in out.splitlines() if line.startswith(step + " "))

    assert " FAIL " in line_of("load detector") and "veil_desktop.detect.default" in line_of("load detector")
    assert "no detector (load detector failed)" in line_of("detect sample")
    assert " ok " in line_of("resources")
    assert "RESULT: FAIL" in out


def test_onnxruntime_telemetry_left_on_fails_the_selftest(resources, monkeypatch, tmp_path):
    monkeypatch.delenv("ORT_DISABLE_TELEMETRY")
    results = {r.name: r for r in selftest.run_selftest(tmp_path / "w", build_window=False)}
    assert results["detect sample"].ok
    assert not results["no telemetry"].ok
    assert "ORT_DISABLE_TELEMETRY=1" in results["no telemetry"].detail


def test_missing_embedded_model_fails_the_resources_step(resources, tmp_path):
    shutil.rmtree(resources / "models" / "veil-compact-ko")
    results = {r.name: r for r in selftest.run_selftest(tmp_path / "w", build_window=False)}
    assert not results["resources"].ok and "config.json missing" in results["resources"].detail
    assert not results["load detector"].ok and "embedded model is missing" in results["load detector"].detail


def test_extra_bundled_model_folders_get_their_own_step(resources, tmp_path):
    build_tiny_model(resources / "models" / "veil-pii-ko-small-3", entities={"한빛파킹": "ORGANIZATION"})
    results = {r.name: r for r in selftest.run_selftest(tmp_path / "w", build_window=False)}
    step = results["model veil-pii-ko-small-3"]
    assert step.ok, step.detail
    assert "ORGANIZATION" in step.detail and "RRN" in step.detail


def test_writes_inside_the_bundle_are_detected(tmp_path):
    bundle = tmp_path / "veil-desktop"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "_internal" / "a.so").write_bytes(b"x")
    before = selftest._snapshot(bundle)
    st = selftest.SelfTest(tmp_path / "w")
    assert "untouched" in st._bundle_unchanged(bundle, before)
    (bundle / "_internal" / "__pycache__").mkdir()
    (bundle / "_internal" / "__pycache__" / "x.nbi").write_bytes(b"cache")
    with pytest.raises(selftest.StepFailed, match="x.nbi"):
        st._bundle_unchanged(bundle, before)


def test_network_guard_blocks_and_restores():
    guard = selftest.NetworkGuard().install()
    try:
        with pytest.raises(OSError, match="disabled"):
            socket.getaddrinfo("example.com", 443)
        with socket.socket() as sock, pytest.raises(OSError, match="disabled"):
            sock.connect(("127.0.0.1", 9))
    finally:
        guard.uninstall()
    assert [a.split("(")[0] for a in guard.attempts] == ["getaddrinfo", "socket.connect"]
    assert socket.getaddrinfo("127.0.0.1", 9)  # numeric lookups work again without a resolver
