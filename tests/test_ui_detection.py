"""The one detection path: the window builds the production detector (``build_default_detector`` over a
tiny real model folder, plus the real rule stage) and runs it in a ``QRunnable`` on ``QThreadPool`` —
no child process, no injected detector. Cancel, stale jobs and failures on that path."""
from __future__ import annotations

import os
import sys
import threading
from dataclasses import replace

import numpy as np
import psutil
import pytest
from PySide6.QtCore import QThreadPool
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.fixtures.tiny_model import BIOES_LABELS, build_tiny_model
from tests.ui_helpers import open_and_detect, production_detector, sample_text, show_window
from veil_desktop.detect.default import CombinedDetector
from veil_desktop.review.settings import AppSettings
from veil_desktop.review.summary import DetectionStatus
from veil_desktop.ui.main_window import MainWindow
from veil_desktop.ui.settings_store import SettingsStore
from veil_desktop.ui.worker import DETECT_NICE

SAMPLE = sample_text()


@pytest.fixture
def window(make_window):
    return make_window()  # tests/ui_helpers.py: the tiny model folder (model_dir), drained at the end


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def long_text(copies):
    return "\n".join(f"[{i}]\n{SAMPLE}" for i in range(copies))


def test_default_detector_runs_on_a_pool_thread_not_a_child_process(qtbot, window, tmp_path):
    gui = threading.get_ident()
    # children that lived before this test (an earlier test's multiprocessing resource tracker) are not ours
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    seen: dict[str, object] = {}
    window.detection.started.connect(lambda _id: seen.setdefault("worker", window.detection.worker))
    path = write(tmp_path, "long.txt", long_text(40))
    assert open_and_detect(qtbot, window, path, timeout=60000) is False
    # the production detector (model + rule stage), built by the window's own factory
    detector = window.detection.detectors.current()
    inner = getattr(detector, "_inner", detector)  # the review tools may wrap it (term lists)
    assert isinstance(inner, CombinedDetector) and window.detector_id == "model+veil-rules-1"
    worker = seen["worker"]  # the job ran in a QRunnable on a QThreadPool thread, not on this one
    assert worker.thread_name == "Thread (pooled)" and worker.thread_id != gui and worker.pool_busy >= 1
    if sys.platform.startswith("linux"):  # it ran below the GUI thread's priority (ui/worker.py DETECT_NICE)
        assert worker.nice == min(19, os.getpriority(os.PRIO_PROCESS, os.getpid()) + DETECT_NICE)
    assert [p for p in psutil.Process().children(recursive=True) if p.pid not in before] == []  # no detection process
    found = {(window.state.value(it), it.label, it.source) for it in window.state}
    assert ("김민준", "PERSON", "model") in found and ("010-2345-6789", "PHONE", "rule") in found
    # the window shows exactly what the detector finds for the same text
    assert len(window.state) == len(detector.detect(window.state.text))


def test_cancel_stops_the_pool_worker_and_keeps_what_was_found(qtbot, window, model_dir, tmp_path):
    big = write(tmp_path, "big.txt", long_text(400))
    window.open_path(big)
    qtbot.waitUntil(lambda: window.state is not None and len(window.state) > 0, timeout=60000)
    worker = window.detection.worker
    assert worker is not None and not worker.ended.is_set()
    with qtbot.waitSignal(window.detectionFinished, timeout=5000) as blocker:
        window.cancel_detection()
    assert blocker.args == [True]
    n = len(window.state)
    assert worker.ended.wait(10)  # the pool thread really stops (the figure is in benchmarks/bench_ui.py)
    window.detection.pool.waitForDone(10000)  # the detection pool (ui/detection.py)
    QThreadPool.globalInstance().waitForDone(10000)
    QApplication.processEvents()
    assert len(window.state) == n  # nothing arrives after the cancel
    assert 0 < n < len(production_detector(model_dir).detect(window.state.text))
    assert not window.session.detection_complete and not window.progress.isVisible()


def test_switching_documents_mid_run_shows_only_the_new_one(qtbot, window, tmp_path):
    window.open_path(write(tmp_path, "big.txt", long_text(300)))
    qtbot.waitUntil(lambda: window.detection.running, timeout=30000)
    small = write(tmp_path, "small.txt", "담당: 이서연 주무관\n")
    assert open_and_detect(qtbot, window, small) is False
    window.detection.pool.waitForDone(20000)  # the detection pool (ui/detection.py)
    QThreadPool.globalInstance().waitForDone(20000)
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
    assert not w.progress.isVisible() and not w.detection.running
    w.close()
    w.detection.pool.waitForDone(10000)  # the detection pool (ui/detection.py)
    QThreadPool.globalInstance().waitForDone(10000)


def test_engine_failure_inside_the_worker_is_a_message_and_the_window_recovers(qtbot, model_dir, tmp_path):
    # a real model folder that loads (its probe input passes) but whose ONNX graph fails on most Hangul
    # tokens: the Gather table has only 200 rows; onnxruntime raises inside session.run on the pool thread
    broken = build_tiny_model(tmp_path / "broken", table=np.zeros((200, len(BIOES_LABELS)), dtype=np.float32))
    w = show_window(qtbot, broken)
    doc = write(tmp_path, "s.txt", SAMPLE)
    with qtbot.waitSignal(w.errorShown, timeout=60000) as blocker:
        w.open_path(doc)
    assert "out of data bounds" in blocker.args[0]
    assert isinstance(w.findChild(QMessageBox), QMessageBox)
    qtbot.waitUntil(lambda: not w.progress.isVisible(), timeout=5000)
    assert not w.detection.running and w.actions_by_id["run_detection"].isEnabled()
    assert not w.session.detection_complete
    # the rule stage's spans, delivered before the model failed, are kept
    assert {it.label for it in w.state} >= {"PHONE", "RRN"}
    for box in w.findChildren(QMessageBox):
        box.done(0)
    # pointing the settings at a good model folder re-runs detection, which now completes
    with qtbot.waitSignal(w.detectionFinished, timeout=60000) as done:
        w.apply_settings(replace(w.settings, model_dir=str(model_dir)))
    assert done.args == [False] and w.session.detection_complete
    assert ("김민준", "PERSON") in {(w.state.value(it), it.label) for it in w.state}
    w.stop_detection()
    w.detection.pool.waitForDone(10000)  # the detection pool (ui/detection.py)
    QThreadPool.globalInstance().waitForDone(10000)


def test_the_window_shows_its_review_session(qtbot, window, tmp_path):
    """The document, its review, the detection status and the detector id live on the ReviewSession
    (review/review_session.py, no Qt); the window only shows them (read-only views, nothing of its own)."""
    doc = write(tmp_path, "s.txt", SAMPLE)
    assert open_and_detect(qtbot, window, doc) is False
    rv = window.review
    assert rv.path == doc and rv.state is window.state and rv.document is window.document and len(rv.state) > 0
    assert rv.detection_status is DetectionStatus.COMPLETE and rv.info is window.session and rv.info.detection_complete
    assert rv.detector_id == window.detector_id == window.detection.detectors.current().id != ""
    assert not {"state", "document", "path", "session", "last_error", "detection_status", "detector_id"} & set(
        vars(window))
    with pytest.raises(AttributeError):
        window.state = None
    window.export_to(doc)                      # the original is never the output: refused by the session
    assert window.last_error == rv.last_error != "" and doc.read_text(encoding="utf-8") == SAMPLE
