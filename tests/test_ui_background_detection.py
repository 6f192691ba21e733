"""The workspace's background detection of a document that is not on screen goes through the same
machinery as the document on screen (``ui/detection.py``): the detection pool (not the global pool), the
lowered-priority worker, the cached production detector, paragraph slicing, cancel between slices. One
document at a time, the one on screen first: running detection on screen cancels the background job and
puts its document back in the queue; a cancelled job saves nothing."""
from __future__ import annotations

import os
import sys
import threading

import pytest
from PySide6.QtCore import QThreadPool

from tests.fixtures.tiny_model import build_tiny_model
from tests.ui_helpers import HoldingDetector, production_detector, show_window
from veil_desktop.review.session import document_hash, session_path
from veil_desktop.review.workspace import DocStatus
from veil_desktop.detect.driver import SLICE_CHARS, slice_bounds
from veil_desktop.ui.worker import DETECT_NICE, DocumentDetectWorker

ENTITIES = {"홍길동": "PERSON", "이영희": "PERSON"}


@pytest.fixture()
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("m") / "tiny", entities=ENTITIES, score=0.9)


class RecordingDetector(HoldingDetector):
    """Also records, per ``stream`` call, the calling thread and the length of the text it was given (calls
    over other texts than ``hold_text`` — the document on screen — are recorded with length -1)."""

    def __init__(self, inner, **kw) -> None:
        super().__init__(inner, **kw)
        self.calls: list[tuple[int, int]] = []

    def stream(self, text, *, cancelled, first=None):
        self.calls.append((threading.get_ident(), len(text) if text in self.hold_text else -1))
        yield from super().stream(text, cancelled=cancelled, first=first)


def test_background_job_runs_sliced_on_the_detection_pool_and_obeys_cancel(qtbot, model, tmp_path, monkeypatch):
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / "a.txt").write_text("담당자 홍길동\n", encoding="utf-8")
    para = "수신 이영희 님께 보내는 회신입니다. 검토 후 연락 바랍니다.\n" * 40 + "\n"
    long_text = para * (3 * SLICE_CHARS // len(para) + 1)            # ~3 slices, paragraphs
    (folder / "b.txt").write_text(long_text, encoding="utf-8")
    det = RecordingDetector(production_detector(model), hold_text=long_text)

    started_on: list[tuple[object, object]] = []                     # (pool, runnable) of every start
    real_start = QThreadPool.start

    def spy(pool, runnable, *args):
        started_on.append((pool, runnable))
        return real_start(pool, runnable, *args)

    monkeypatch.setattr(QThreadPool, "start", spy)
    w = show_window(qtbot, det)
    tools, ctl = w.tools, w.detection
    with qtbot.waitSignal(tools.backgroundStarted, timeout=30000):
        tools.open_paths([folder])                                  # a.txt on screen, b.txt in the background
    assert det.holding.wait(20)                                     # b.txt: first slice computed, held
    worker = ctl.background_worker
    assert isinstance(worker, DocumentDetectWorker) and tools.background_running and ctl.background_running
    # on the detection pool, never the global one
    pools = [p for p, r in started_on if r is worker]
    assert pools == [ctl.pool] and ctl.pool is not QThreadPool.globalInstance()
    assert worker.pool is ctl.pool and worker.pool_busy >= 1
    # the detector ran on the worker's (pool) thread, not the GUI thread, slice by slice
    bg_calls = [(tid, n) for tid, n in det.calls if tid == worker.thread_id and n > 0]
    assert bg_calls and worker.thread_id != threading.get_ident()
    assert all(n < len(long_text) and n <= 2 * SLICE_CHARS for _tid, n in bg_calls)
    if sys.platform.startswith("linux"):                            # the lowered-priority worker
        assert worker.nice == min(19, os.getpriority(os.PRIO_PROCESS, os.getpid()) + DETECT_NICE)
    # the production detector from the window's cache (wrapped by the term lists' keep filter)
    assert ctl.detectors.builds == 1
    assert tools.ws[1].status is DocStatus.DETECTING

    # the document on screen comes first: F5 on a.txt cancels the background job (without releasing the
    # hold: the worker stops at its cancel check), b.txt goes back to the queue, nothing is saved for it
    with qtbot.waitSignal(tools.backgroundFinished, timeout=5000) as fin:
        w.run_detection()
    assert fin.args == [1] and tools.ws[1].status is DocStatus.QUEUED and not ctl.background_running
    assert worker.cancelled and worker.ended.wait(5)
    assert not session_path(document_hash(long_text)).exists()
    n_calls_all = len(det.calls)

    # after a.txt's detection, the queue picks b.txt up again and completes it into its own session
    det.release.set()
    qtbot.waitUntil(lambda: tools.ws[1].status is DocStatus.PENDING and not tools.background_running,
                    timeout=60000)
    again = ctl.detectors.builds, [r for _p, r in started_on if isinstance(r, DocumentDetectWorker)]
    assert again[0] == 1 and len(again[1]) == 2 and again[1][1] is not worker
    assert all(p is ctl.pool for p, r in started_on if isinstance(r, DocumentDetectWorker))
    second = det.calls[n_calls_all:]                                # every stream call after the release
    assert [n for tid, n in second if tid == again[1][1].thread_id and n > 0] == [
        b - a for a, b in slice_bounds(long_text)]
    assert session_path(document_hash(long_text)).exists()
    assert tools.ws[1].pending == long_text.count("이영희")          # every slice's names, none on screen
    assert w.path.name == "a.txt" and all("이영희" not in w.state.value(it) for it in w.state)


def test_controller_background_result_cancel_failure_and_screen_first(qtbot, model):
    from PySide6.QtCore import QCoreApplication

    from veil_desktop.review.settings import AppSettings
    from veil_desktop.review.state import ReviewState
    from veil_desktop.ui.detection import DetectionController

    ctl = DetectionController(factory=lambda _d, _t: production_detector(model))
    settings = AppSettings(threads=1)
    ended: list[tuple] = []
    ctl.backgroundEnded.connect(lambda *a: ended.append(a))
    text = "수신 이영희 님\n"

    def prepare():
        return text, lambda spans, did: ("saved", [(s.start, s.end, s.label) for s in spans], did)

    # a result: finish() ran on the pool thread over the spans of the whole text
    with qtbot.waitSignal(ctl.backgroundEnded, timeout=30000) as done:
        job = ctl.start_background(prepare, settings)
    assert done.args[0] == job and done.args[2] == ""
    assert done.args[1][0] == "saved" and (3, 6, "PERSON") in done.args[1][1] and done.args[1][2]

    # cancelled before its detection: finish() never runs, nothing is reported
    gate, finished = threading.Event(), []

    def slow_prepare():
        gate.wait(10)
        return text, lambda spans, did: finished.append(spans)

    ended.clear()
    job = ctl.start_background(slow_prepare, settings)
    worker = ctl.background_worker
    assert ctl.cancel_background() == job and not ctl.background_running
    gate.set()
    assert worker.ended.wait(10)
    QCoreApplication.processEvents()
    assert ended == [] and finished == []

    # a failure inside the job is a message for that document
    def bad_prepare():
        raise OSError("disk gone")

    with qtbot.waitSignal(ctl.backgroundEnded, timeout=10000) as failed:
        job = ctl.start_background(bad_prepare, settings)
    assert failed.args == [job, None, "disk gone"]

    # the document on screen first: no background job while it is detected
    ctl.start(ReviewState("담당자 홍길동\n"), settings)
    assert ctl.running and ctl.start_background(prepare, settings) is None
    with qtbot.waitSignal(ctl.ended, timeout=30000):
        pass
    ctl.shutdown()
