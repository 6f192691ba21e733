"""Test setup shared by the whole suite.

Qt runs offscreen (set here, before anything imports PySide6), and every test gets its own
user-data directory so autosaves and settings never touch the real profile.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["ORT_DISABLE_TELEMETRY"] = "1"  # before anything imports onnxruntime (offline by design)

import pytest  # noqa: E402

#: the window tests' shared fixtures (model_dir, doc, make_window)
pytest_plugins = ["tests.ui_helpers"]


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    base = tmp_path_factory.mktemp("userdata")
    monkeypatch.setenv("VEIL_DATA_DIR", str(base / "data"))
    monkeypatch.setenv("VEIL_CONFIG_DIR", str(base / "config"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(base / "numba-cache"))
    yield
