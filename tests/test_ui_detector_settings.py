"""Settings that matter to the detector reach the production factory (``ui/detection.py``): ``skip_ids``
from the Settings dialog is passed to ``default_factory`` and a change rebuilds the cached detector and
detects again — on a tiny real model that tags the ASCII letters/digits of an identifier."""
from __future__ import annotations

from tests.fixtures.tiny_model import build_tiny_model
from tests.ui_helpers import open_and_detect
from veil_desktop.review.settings import AppSettings
from veil_desktop.ui.detection import DetectorCache, detector_key
from veil_desktop.ui.dialogs import SettingsDialog
from veil_desktop.ui.settings_store import SettingsStore

TEXT = "주문번호 A1B2C3D7 김철수\n"


def found(w):
    return sorted((w.state.value(it), it.start) for it in w.state)


def test_skip_ids_from_the_settings_dialog_rebuilds_the_detector(qtbot, tmp_path):
    from veil_desktop.ui.main_window import MainWindow

    model = build_tiny_model(tmp_path / "k", char_tags={"A": "S-PERSON", "7": "S-PERSON"},
                             entities={"김철수": "PERSON"})
    SettingsStore().save(AppSettings(model_dir=str(model), threads=1))       # skip_ids: on (default)
    w = MainWindow(SettingsStore())
    qtbot.addWidget(w)
    w.show()
    doc = tmp_path / "order.txt"
    doc.write_text(TEXT, encoding="utf-8")
    assert open_and_detect(qtbot, w, doc) is False
    cache = w.detection.detectors
    assert cache.builds == 1
    ident = TEXT.index("A1B2C3D7")
    # the identifier is hidden from the model: nothing inside it is suggested
    assert not [v for v, s in found(w) if ident <= s < ident + 8]

    dlg = SettingsDialog(w, w.settings, "en")
    qtbot.addWidget(dlg)
    assert dlg.skip_ids.isChecked() and dlg.skip_ids.text().startswith("Hide ASCII identifiers")
    dlg.skip_ids.setChecked(False)
    with qtbot.waitSignal(w.detectionFinished, timeout=30000):
        w.apply_settings(dlg.result_settings())            # what OK in the dialog does
    assert w.settings.skip_ids is False and SettingsStore().load().skip_ids is False
    assert cache.builds == 2                               # a new detector for the new setting
    inside = [(v, s - ident) for v, s in found(w) if ident <= s < ident + 8]
    assert ("A", 0) in inside and ("7", 7) in inside       # the model now reads the identifier

    # a setting the detector does not depend on keeps the cached detector (and does not detect again)
    from dataclasses import replace

    w.apply_settings(replace(w.settings, default_style="stars"))
    assert not w.detection.running and cache.builds == 2


def test_detector_cache_passes_options_and_keys_on_them():
    calls = []

    def factory(model_dir, threads, *, skip_ids):
        calls.append((model_dir, threads, skip_ids))
        return object()

    cache = DetectorCache(factory)
    on, off = AppSettings(threads=2), AppSettings(threads=2, skip_ids=False)
    first = cache.get(on)
    assert cache.get(on) is first and calls == [(None, 2, True)]
    assert cache.get(off) is not first and calls[-1] == (None, 2, False)
    assert detector_key(on) != detector_key(off)
    # an embedder's two-argument factory still works (a fixed detector has no options)
    fixed = object()
    assert DetectorCache(lambda d, t: fixed).get(off) is fixed
