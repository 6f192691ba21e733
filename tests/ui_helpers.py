"""Shared helpers for the UI tests.

The window under test detects the way the app does: ``show_window(qtbot, model_dir)`` saves settings that
point at a tiny real model folder, and the window builds its detector with the production factory
(``detect.detector_cache.default_factory`` = ``build_default_detector``: ONNX model + rule stage) and runs it on
``QThreadPool``. Tests that need to pause a stream between batches (cancel mid-run, a stale batch in
flight, an engine error after N batches) wrap a detector built by that same factory
(``production_detector``) in ``HoldingDetector``; nothing else is injected."""
from __future__ import annotations

import threading
from pathlib import Path

from veil_desktop.detect.engine import ModelDetector
from veil_desktop.detect.events import SpansFound

ENTITIES = {"김민준": "PERSON", "이서연": "PERSON", "강남구청": "ORGANIZATION"}


def sample_text() -> str:
    from veil_desktop.paths import resources_dir

    return (resources_dir() / "samples" / "sample_ko.txt").read_text(encoding="utf-8")


class HoldingDetector:
    """Wraps a real detector. While ``hold`` is set for a text, the stream stops *after computing* a batch
    and before delivering it (``holding`` is set), until ``release`` is set. With ``deliver_late`` the
    held batch is delivered even if the job was cancelled meanwhile — like a batch already in flight.
    ``fail_after`` makes the stream raise after that many batches (an engine error)."""

    def __init__(self, inner, *, hold_text: str | None = None, hold_from_batch: int = 0,
                 deliver_late: bool = False, fail_after: int | None = None) -> None:
        self.inner = inner
        self.id = inner.id
        self.labels = inner.labels
        self.hold_text = hold_text
        self.hold_from_batch = hold_from_batch
        self.deliver_late = deliver_late
        self.fail_after = fail_after
        self.holding = threading.Event()
        self.release = threading.Event()
        self.batches_delivered = 0

    def stream(self, text, *, cancelled, first=None):
        n = 0
        for ev in self.inner.stream(text, cancelled=cancelled, first=first):
            if isinstance(ev, SpansFound):
                if self.fail_after is not None and n >= self.fail_after:
                    raise RuntimeError("simulated engine failure: onnxruntime session lost")
                # the window streams a long text slice by slice: hold on every slice of ``hold_text``
                if (self.hold_text is None or text in self.hold_text) and n >= self.hold_from_batch:
                    self.holding.set()
                    while not self.release.wait(0.01):
                        if cancelled() and not self.deliver_late:
                            return
                    if cancelled() and not self.deliver_late:
                        return
                n += 1
                self.batches_delivered += 1
            yield ev

    def detect(self, text):
        return self.inner.detect(text)


def tiny_detector(folder: Path) -> ModelDetector:
    """The bare model (no rule stage): only for tests about the model alone."""
    return ModelDetector(folder, threads=1)


def production_detector(folder: Path):
    """What the window builds for ``model_dir=folder, threads=1``: the production factory's detector."""
    from veil_desktop.detect.detector_cache import default_factory

    return default_factory(Path(folder), 1)


def show_window(qtbot, model_or_detector):
    """A main window with fresh settings, shown and exposed; qtbot closes it.

    ``model_or_detector``: a model folder (path) -> the settings point at it and the window detects
    through the production factory, exactly as the app does; a detector object (e.g. a
    ``HoldingDetector`` around ``production_detector(folder)``) -> the window uses that object."""
    from veil_desktop.review.settings import AppSettings
    from veil_desktop.ui.main_window import MainWindow
    from veil_desktop.ui.settings_store import SettingsStore

    if isinstance(model_or_detector, (str, Path)):
        SettingsStore().save(AppSettings(model_dir=str(model_or_detector), threads=1))
        factory = None
    else:
        factory = lambda _dir, _threads: model_or_detector  # noqa: E731
    w = MainWindow(SettingsStore(), detector_factory=factory)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def open_and_detect(qtbot, w, path, timeout=30000):
    """Open ``path`` in ``w`` and wait for its detection to finish; returns detectionFinished's argument."""
    with qtbot.waitSignal(w.detectionFinished, timeout=timeout) as blocker:
        w.open_path(path)
    return blocker.args[0]


# -- fixtures shared by the window test modules (a pytest plugin: tests/conftest.py loads it) ----------
import pytest  # noqa: E402


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    """A tiny real model folder that tags ``ENTITIES``."""
    from tests.fixtures.tiny_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny") / "model", entities=ENTITIES)


@pytest.fixture
def doc(tmp_path):
    """The bundled Korean sample as a TXT file."""
    p = tmp_path / "민원.txt"
    p.write_text(sample_text(), encoding="utf-8")
    return p


@pytest.fixture
def make_window(qtbot, model_dir):
    """``make(detector=None)`` -> a shown window detecting with ``detector`` or the tiny model folder; at the
    end every window's detection is cancelled, its message boxes and result dialogs are closed and the pools
    are drained."""
    from PySide6.QtCore import QThreadPool
    from PySide6.QtWidgets import QMessageBox

    from veil_desktop.ui.export_summary import ExportResultDialog

    windows = []

    def make(detector=None):
        w = show_window(qtbot, detector or model_dir)
        w.activateWindow()
        windows.append(w)
        return w

    yield make
    for w in windows:
        w.stop_detection()
        for d in w.findChildren(QMessageBox) + w.findChildren(ExportResultDialog):
            d.done(0)
        w.detection.pool.waitForDone(10000)
    QThreadPool.globalInstance().waitForDone(10000)
