"""The default detection path: a child process running ``build_default_detector`` (here over a tiny real
model folder, plus the real rule stage), driven by the window."""
from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QThreadPool
from PySide6.QtWidgets import QApplication

from tests.fixtures.tiny_model import build_tiny_model
from tests.ui_helpers import ENTITIES, sample_text
from veil_desktop.review.settings import AppSettings
from veil_desktop.ui.main_window import MainWindow
from veil_desktop.ui.settings_store import SettingsStore

SAMPLE = sample_text()


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "model", entities=ENTITIES)


@pytest.fixture
def window(qtbot, model_dir):
    SettingsStore().save(AppSettings(model_dir=str(model_dir), threads=1))
    w = MainWindow(SettingsStore())
    assert w._process is not None  # no injected factory: the child-process path
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()
    QThreadPool.globalInstance().waitForDone(10000)


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_detects_in_child_process_with_rules_and_model(qtbot, window, tmp_path):
    with qtbot.waitSignal(window.detectionFinished, timeout=60000) as blocker:
        window.open_path(write(tmp_path, "s.txt", SAMPLE))
    assert blocker.args == [False]
    found = {(window.state.value(it), it.label, it.source) for it in window.state}
    assert ("김민준", "PERSON", "model") in found
    assert ("010-2345-6789", "PHONE", "rule") in found and ("880412-1234567", "RRN", "rule") in found
    assert window.detector_id.endswith("+veil-rules-1") and window.session.detection_complete


def test_cancel_and_stale_job_in_child_process(qtbot, window, tmp_path):
    with qtbot.waitSignal(window.detectionFinished, timeout=60000):
        window.open_path(write(tmp_path, "one.txt", SAMPLE))
    per_copy = len(window.state)
    copies = 400
    big = write(tmp_path, "big.txt", "\n".join(SAMPLE for _ in range(copies)))
    window.open_path(big)
    qtbot.waitUntil(lambda: window.state is not None and window.state.text.startswith(SAMPLE + "\n")
                    and len(window.state) > 0, timeout=60000)
    with qtbot.waitSignal(window.detectionFinished, timeout=10000) as blocker:
        window.cancel_detection()
    assert blocker.args == [True]
    n = len(window.state)
    time.sleep(1.0)  # let any in-flight batch of the cancelled job arrive; it must be dropped
    QApplication.processEvents()
    assert len(window.state) == n < per_copy * copies
    assert not window.session.detection_complete

    # start a long job again and switch documents at once: only the new document's spans appear
    window.run_detection()
    small = write(tmp_path, "small.txt", "담당: 이서연 주무관\n")
    with qtbot.waitSignal(window.detectionFinished, timeout=60000) as blocker:
        window.open_path(small)
    assert blocker.args == [False]
    time.sleep(0.5)
    QApplication.processEvents()
    assert [(window.state.value(it), it.label) for it in window.state] == [("이서연", "PERSON")]


def test_bad_model_folder_is_a_message(qtbot, tmp_path):
    empty = tmp_path / "empty-model"
    empty.mkdir()
    SettingsStore().save(AppSettings(model_dir=str(empty)))
    w = MainWindow(SettingsStore())
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.errorShown, timeout=60000) as blocker:
        w.open_path(write(tmp_path, "s.txt", SAMPLE))
    assert str(empty) in blocker.args[0] and "config.json" in blocker.args[0]
    assert not w.progress.isVisible()
    w.close()
    QThreadPool.globalInstance().waitForDone(10000)


def test_killed_detection_process_is_a_message_and_restarts(qtbot, window, tmp_path):
    with qtbot.waitSignal(window.detectionFinished, timeout=60000):
        window.open_path(write(tmp_path, "s.txt", SAMPLE))
    big = write(tmp_path, "big.txt", "\n".join(SAMPLE for _ in range(300)))
    with qtbot.waitSignal(window.documentLoaded, timeout=30000):
        window.open_path(big)
    proc = window._process._proc
    with qtbot.waitSignal(window.errorShown, timeout=30000) as blocker:
        proc.kill()
    assert "stopped unexpectedly" in blocker.args[0]
    qtbot.waitUntil(lambda: not window.progress.isVisible(), timeout=5000)
    # the next run starts a fresh process and completes
    with qtbot.waitSignal(window.detectionFinished, timeout=120000) as blocker:
        window.run_detection()
    assert blocker.args == [False] and window._process._proc is not proc
    assert window.session.detection_complete
