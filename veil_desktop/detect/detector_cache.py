"""The window's detector, built once for the current settings and reused (no Qt).

``default_factory`` is the production detector of the window (``build_default_detector`` with
``WINDOW_BATCH`` windows per run); ``DetectorCache`` builds it for ``detector_key(settings)`` and rebuilds
when a setting it depends on changes (model folder, threads, ``skip_ids``). ``get()`` is called on pool
threads; a lock makes concurrent first calls build only one detector.
"""
from __future__ import annotations

import inspect
import threading
from pathlib import Path
from typing import Callable

from .events import Detector

#: ``factory(model_dir, threads, **detector_options(settings))``; a factory that takes only the first two
#: (an embedder's fixed detector) is called with those
DetectorFactory = Callable[..., Detector]

#: windows per ``session.run`` in the window: a cancel waits for the batch in progress, and a batch of 4
#: windows of the compact model took ~35-50 ms (90th percentile) where 16 (the CLI's default) took ~140-160 ms
#: on the shared 2-vCPU machine; spans are the same for any batch size (windows are independent)
WINDOW_BATCH = 4


def default_factory(model_dir: Path | None, threads: int | None, *, skip_ids: bool = True) -> Detector:
    """The production detector for the window: ``build_default_detector`` (model + rule stage), with
    ``WINDOW_BATCH`` windows per run and the reviewer's ``skip_ids`` setting."""
    from .default import build_default_detector

    return build_default_detector(model_dir, threads, batch_size=WINDOW_BATCH, skip_ids=skip_ids)


def detector_options(settings) -> dict:
    """The settings the detector is built from, besides the folder and the threads (factory keywords)."""
    return {"skip_ids": bool(settings.skip_ids)}


def detector_key(settings) -> tuple:
    """Everything the cached detector depends on: a change means a new detector (and a new detection)."""
    return (settings.model_dir, settings.engine_threads(), tuple(sorted(detector_options(settings).items())))


def _takes_options(factory: Callable) -> bool:
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind is p.VAR_KEYWORD or p.name == "skip_ids" for p in params)


class DetectorCache:
    """Builds the detector for the current settings once and reuses it (sessions are expensive).

    ``factory(model_dir or None, threads or None, **detector_options(settings))`` defaults to
    ``default_factory``; ``wrappers`` (e.g. the term lists' keep filter) are applied to what it builds.
    ``builds`` counts the detectors built (tests).
    """

    def __init__(self, factory: DetectorFactory | None = None) -> None:
        self.factory: DetectorFactory = factory or default_factory
        self.wrappers: list[Callable[[Detector], Detector]] = []
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._detector: Detector | None = None
        self.builds = 0

    def get(self, settings) -> Detector:
        key = detector_key(settings)
        with self._lock:
            if self._detector is None or key != self._key:
                self._detector = None  # release the old session before building the new one
                model_dir = Path(settings.model_dir) if settings.model_dir else None
                if _takes_options(self.factory):
                    detector = self.factory(model_dir, settings.engine_threads(), **detector_options(settings))
                else:
                    detector = self.factory(model_dir, settings.engine_threads())
                for wrap in self.wrappers:
                    detector = wrap(detector)
                self._detector, self._key = detector, key
                self.builds += 1
            return self._detector

    def current(self) -> Detector | None:
        return self._detector


def validate_model_folder(folder: Path) -> str:
    """Load ``folder`` as a model folder; returns a one-line description, raises ``ModelFolderError``."""
    from .model_folder import load_model_folder

    mf = load_model_folder(folder, threads=1)
    return f"{Path(folder).name}: {', '.join(mf.labels)}"
