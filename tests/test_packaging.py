"""Fast checks of the bundle definition (the real build + frozen self-test run in packaging/ci_bundle.sh).

- the spec, executed by a recording stand-in for PyInstaller's build classes, references an entry script
  and data folders that exist, and excludes nothing the app imports at run time;
- the prune rules keep what Qt needs to start (offscreen/xcb, Core/Gui/Widgets, ko/en) and drop the rest,
  checked against the PySide6 installation actually in the venv;
- the bundled font loads in Qt and has Hangul; the icon files are valid;
- ``build.py --model`` copies model data only, never code;
- the frozen entry's numba cache selection never picks an unwritable directory.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
sys.path.insert(0, str(PACKAGING))

import bundle_config as cfg  # noqa: E402
import bundle_report  # noqa: E402


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ------------------------------------------------------------------------------------------- the spec

class _Recorder:
    """Records the arguments PyInstaller's Analysis/PYZ/EXE/COLLECT would receive."""

    calls: dict[str, dict] = {}

    def __init__(self, *args, **kwargs):
        type(self).calls[type(self).__name__] = {"args": args, "kwargs": kwargs}
        self.pure, self.scripts, self.binaries, self.datas = [], [], [], []


def _run_spec(monkeypatch, env: dict[str, str] | None = None) -> dict[str, dict]:
    for k, v in (env or {}).items():
        monkeypatch.setenv(k, v)
    _Recorder.calls = {}
    names = {n: type(n, (_Recorder,), {}) for n in ("Analysis", "PYZ", "EXE", "COLLECT")}
    spec_path = PACKAGING / "veil-desktop.spec"
    code = compile(spec_path.read_text(encoding="utf-8"), str(spec_path), "exec")
    exec(code, {"SPECPATH": str(PACKAGING), "__file__": str(spec_path), **names})  # noqa: S102
    return _Recorder.calls


def test_spec_references_existing_entry_and_data(monkeypatch):
    calls = _run_spec(monkeypatch)
    analysis = calls["Analysis"]
    scripts = analysis["args"][0]
    assert [Path(s).name for s in scripts] == ["entry.py"]
    assert all(Path(s).is_file() for s in scripts)
    datas = analysis["kwargs"]["datas"]
    dests = {dest for _src, dest in datas}
    assert {"resources/samples", "resources/fonts", "resources/icons"} <= dests
    for src, _dest in datas:
        assert Path(src).exists(), f"spec data source missing: {src}"
    # python-docx's templates must travel (DOCX export opens them at run time)
    assert any(dest.startswith("docx") and "templates" in dest for _src, dest in datas)
    assert calls["EXE"]["kwargs"]["name"] == "veil-desktop"
    assert calls["COLLECT"]["kwargs"]["name"] == "veil-desktop"  # onedir: a COLLECT step exists
    assert calls["EXE"]["kwargs"]["exclude_binaries"] is True


def test_spec_ships_a_given_model_folder_and_numba_only_on_request(monkeypatch, tmp_path):
    model = tmp_path / "veil-pii-ko-small-3"
    model.mkdir()
    monkeypatch.delenv("VEIL_BUNDLE_NUMBA", raising=False)
    calls = _run_spec(monkeypatch, {"VEIL_BUNDLE_MODEL": str(model)})
    datas = calls["Analysis"]["kwargs"]["datas"]
    assert (str(model), "resources/models/veil-pii-ko-small-3") in datas
    excludes = calls["Analysis"]["kwargs"]["excludes"]
    assert "numba" in excludes and "llvmlite" in excludes
    calls = _run_spec(monkeypatch, {"VEIL_BUNDLE_NUMBA": "1", "VEIL_BUNDLE_MODEL": ""})
    assert "numba" not in calls["Analysis"]["kwargs"]["excludes"]
    assert "numba._devicearray" in calls["Analysis"]["kwargs"]["hiddenimports"]


def test_excludes_spare_everything_the_app_needs(monkeypatch):
    excludes = set(_run_spec(monkeypatch)["Analysis"]["kwargs"]["excludes"])
    needed = {"onnxruntime", "tokenizers", "numpy", "PySide6", "PySide6.QtCore", "PySide6.QtGui",
              "PySide6.QtWidgets", "docx", "lxml", "lxml.etree", "charset_normalizer", "pypdfium2",
              "platformdirs", "olefile", "defusedxml", "veil_desktop"}
    assert not needed & excludes
    # and the heavy dev-only stacks are out
    assert {"torch", "transformers", "pytest", "tkinter", "onnx"} <= excludes


def test_spec_hiddenimports_are_real_modules(monkeypatch):
    hidden = _run_spec(monkeypatch)["Analysis"]["kwargs"]["hiddenimports"]
    assert "veil_desktop.selftest" in hidden and "veil_desktop.ui.app" in hidden
    assert not [m for m in hidden if m.startswith("veil_desktop.cli")]
    for m in hidden:
        assert importlib.util.find_spec(m) is not None, m


# -------------------------------------------------------------------------------------------- pruning

@pytest.mark.parametrize("dest", [
    "PySide6/Qt/plugins/platforms/libqoffscreen.so",
    "PySide6/Qt/plugins/platforms/libqxcb.so",
    "PySide6/plugins/platforms/qwindows.dll",
    "PySide6/Qt/plugins/imageformats/libqjpeg.so",
    "PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so",
    "PySide6/Qt/lib/libQt6Core.so.6",
    "PySide6/Qt/lib/libQt6Widgets.so.6",
    "PySide6/Qt6Gui.dll",
    "PySide6/Qt/lib/libicudata.so.73",
    "PySide6/Qt/translations/qtbase_ko.qm",
    "PySide6/translations/qt_en.qm",
    "onnxruntime/capi/onnxruntime_pybind11_state.cpython-311-x86_64-linux-gnu.so",
    "onnxruntime/capi/libonnxruntime_providers_shared.so",
    "numpy.libs/libscipy_openblas64_-32a4b2a6.so",
    "resources/fonts/NanumGothic.ttf",
])
def test_prune_keeps_what_the_app_needs(dest):
    assert cfg.prune_reason(dest) is None


@pytest.mark.parametrize("dest, why", [
    ("PySide6/Qt/plugins/sqldrivers/libqsqlite.so", "sqldrivers"),
    ("PySide6/Qt/plugins/platforms/libqvnc.so", "qvnc"),
    ("PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so", "qtvirtualkeyboard"),
    ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "qgtk3"),
    ("PySide6/Qt/lib/libQt6Quick.so.6", "Qt6Quick"),
    ("PySide6/Qt/lib/libQt6Network.so.6", "Qt6Network"),
    ("PySide6/Qt6Qml.dll", "Qt6Qml"),
    ("PySide6/Qt/translations/qtbase_de.qm", "ko/en"),
    ("PySide6/opengl32sw.dll", "OpenGL"),
    ("onnxruntime/capi/libonnxruntime.so.1.32.0", "C-API"),
])
def test_prune_drops_unused_parts(dest, why):
    reason = cfg.prune_reason(dest)
    assert reason is not None and why in reason


def test_prune_rules_match_the_installed_pyside6():
    """The allow-lists name plugins that exist: a typo would silently drop a needed plugin."""
    import PySide6

    plugins = Path(PySide6.__file__).parent / "Qt" / "plugins"
    if not plugins.is_dir():  # Windows wheel layout
        plugins = Path(PySide6.__file__).parent / "plugins"
    kept = set()
    for p in plugins.rglob("*"):
        if p.is_file():
            dest = "PySide6/" + p.relative_to(plugins.parent.parent).as_posix()
            if cfg.prune_reason(dest) is None:
                kept.add(p.relative_to(plugins).as_posix())
    stems = {PurePosixPath(k).parent.name + "/" + PurePosixPath(k).name.split(".")[0].removeprefix("lib")
             for k in kept}
    if sys.platform.startswith("linux"):
        assert {"platforms/qoffscreen", "platforms/qxcb", "platforms/qminimal", "imageformats/qjpeg",
                "platforminputcontexts/ibusplatforminputcontextplugin"} <= stems
    assert not any(k.startswith(("sqldrivers/", "qmltooling/", "tls/", "networkinformation/")) for k in kept)


def test_prune_toc_splits_and_reports():
    toc = [("PySide6/Qt/lib/libQt6Core.so.6", "/x/libQt6Core.so.6", "BINARY"),
           ("PySide6/Qt/lib/libQt6Quick.so.6", "/x/libQt6Quick.so.6", "BINARY")]
    kept, removed = cfg.prune_toc(toc)
    assert kept == toc[:1]
    assert [(d, s) for d, s, _r in removed] == [(toc[1][0], toc[1][1])]


# ----------------------------------------------------------------------------------- font and icon

def test_bundled_font_registers_and_has_hangul(qapp):
    from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics

    font_file = ROOT / "resources" / "fonts" / "NanumGothic.ttf"
    assert font_file.stat().st_size < 5_000_000
    assert (ROOT / "resources" / "fonts" / "OFL.txt").read_text(encoding="utf-8").count("SIL OPEN FONT LICENSE")
    fid = QFontDatabase.addApplicationFont(str(font_file))
    assert fid >= 0
    families = QFontDatabase.applicationFontFamilies(fid)
    assert "NanumGothic" in families
    metrics = QFontMetrics(QFont("NanumGothic", 11))
    assert all(metrics.inFontUcs4(ord(ch)) for ch in "민원처리결과통보서")


def test_icons_are_valid_images():
    from PIL import Image

    png = Image.open(ROOT / "resources" / "icons" / "veil-desktop.png")
    assert png.size == (256, 256) and png.mode == "RGBA"
    ico = Image.open(ROOT / "resources" / "icons" / "veil-desktop.ico")
    assert {(16, 16), (32, 32), (48, 48), (256, 256)} <= set(ico.info["sizes"])


# ------------------------------------------------------------------------------ build.py --model

def test_stage_model_copies_data_and_refuses_code(tmp_path):
    build = _load("veil_build", PACKAGING / "build.py")
    src = tmp_path / "veil-pii-ko-small-3"
    (src / "onnx").mkdir(parents=True)
    (src / "config.json").write_text('{"id2label": {"0": "O"}}', encoding="utf-8")
    (src / "tokenizer.json").write_text("{}", encoding="utf-8")
    (src / "model.onnx").write_bytes(b"onnx")
    (src / "onnx" / "model_quantized.onnx").write_bytes(b"onnx")
    (src / "LICENSE").write_text("Apache-2.0", encoding="utf-8")
    (src / "modeling_evil.py").write_text("import os; os.system('x')", encoding="utf-8")
    (src / "model.safetensors").write_bytes(b"weights")
    (src / ".git").mkdir()
    (src / ".git" / "config").write_text("x", encoding="utf-8")
    dest, refused = build.stage_model(src, tmp_path / "staging")
    copied = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert copied == ["LICENSE", "config.json", "model.onnx", "onnx/model_quantized.onnx", "tokenizer.json"]
    assert sorted(refused) == [".git/config", "model.safetensors", "modeling_evil.py"]


def test_stage_model_rejects_folders_that_are_not_models(tmp_path):
    build = _load("veil_build", PACKAGING / "build.py")
    with pytest.raises(SystemExit, match="config.json"):
        build.stage_model(tmp_path, tmp_path / "staging")
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(SystemExit, match="no .onnx"):
        build.stage_model(tmp_path, tmp_path / "staging")


# ------------------------------------------------------------------------------------ size report

def test_bundle_report_breaks_down_by_component(tmp_path):
    b = tmp_path / "veil-desktop"
    files = {
        "veil-desktop": 1000,
        "_internal/PySide6/Qt/lib/libQt6Core.so.6": 5000,
        "_internal/PySide6/Qt/plugins/platforms/libqxcb.so": 300,
        "_internal/onnxruntime/capi/onnxruntime_pybind11_state.so": 7000,
        "_internal/resources/models/veil-compact-ko/model.onnx": 2000,
        "_internal/libfoo.so.1": 10,
    }
    for rel, size in files.items():
        (b / rel).parent.mkdir(parents=True, exist_ok=True)
        (b / rel).write_bytes(b"x" * size)
    total, rows = bundle_report.breakdown(b)
    assert total == sum(files.values())
    by = {name: size for name, size, _n in rows}
    assert by["onnxruntime"] == 7000
    assert by["Qt libraries (Core/Gui/Widgets/ICU...)"] == 5000
    assert by["Qt plugins"] == 300
    assert by["embedded model(s)"] == 2000
    assert by["executable (bootloader)"] == 1000
    assert rows[0][0] == "onnxruntime"  # largest first


# ------------------------------------------------------------------------------- frozen entry

def test_numba_cache_goes_to_a_writable_user_dir(monkeypatch, tmp_path):
    entry = _load("veil_entry", PACKAGING / "entry.py")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    chosen = entry.configure_numba_cache()
    assert chosen == os.environ["NUMBA_CACHE_DIR"]
    assert Path(chosen) == Path(os.environ["VEIL_DATA_DIR"]) / "cache" / "numba"
    assert Path(chosen).is_dir()


def test_numba_cache_skips_unwritable_candidates(monkeypatch, tmp_path):
    entry = _load("veil_entry", PACKAGING / "entry.py")
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    # below a regular file nothing can be created, not even by root
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "numba"))
    monkeypatch.setenv("VEIL_DATA_DIR", str(blocker / "data"))
    monkeypatch.setattr(entry.tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    chosen = entry.configure_numba_cache()
    assert chosen is not None and Path(chosen).parent == tmp_path / "tmp"
    # and when nothing at all is writable, the variable is removed instead of pointing at a dead path
    monkeypatch.setattr(entry.tempfile, "gettempdir", lambda: str(blocker / "tmp"))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker / "numba"))
    assert entry.configure_numba_cache() is None
    assert "NUMBA_CACHE_DIR" not in os.environ


def test_entry_preloads_onnxruntime_before_qt():
    """Run the entry's preload in a fresh interpreter: onnxruntime must be imported, Qt must not."""
    import subprocess

    code = ("import sys, runpy; m = runpy.run_path(%r, run_name='veil_entry'); m['preload_native'](); "
            "print('onnxruntime' in sys.modules, any(k.startswith('PySide6') for k in sys.modules))"
            % str(PACKAGING / "entry.py"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "False"]


def test_frozen_numba_cache_goes_to_numba_cache_dir_not_next_to_the_code(monkeypatch, tmp_path):
    """In a bundle a jitted function has no .py file; the entry's locator still caches in NUMBA_CACHE_DIR."""
    numba = pytest.importorskip("numba")
    from numba.core import caching

    entry = _load("veil_entry", PACKAGING / "entry.py")
    cache = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(cache))
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    monkeypatch.setattr(impl, "_locator_classes", list(impl._locator_classes))
    assert entry.use_numba_cache_dir_when_frozen() is True
    assert impl._locator_classes[0].__name__ == "FrozenAppCacheLocator"
    assert not any("InTree" in c.__name__ for c in impl._locator_classes)
    # a function whose source file does not exist, as in the PYZ archive of a bundle
    namespace = {"__name__": "veil_desktop.detect.fake_frozen"}
    exec(compile("def double(x):\n    return 2 * x\n", "veil_desktop/detect/fake_frozen.py", "exec"), namespace)
    double = numba.njit("int64(int64)", cache=True)(namespace["double"])
    assert double(21) == 42
    written = sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*") if p.is_file())
    assert written and all(w.startswith("frozen-veil_desktop_detect_fake_frozen/") for w in written)
    assert any(w.endswith(".nbi") for w in written)


def test_startup_probe_reports_once_the_main_window_is_exposed(tmp_path):
    """--startup-time: the real entry starts the real window, reports once it is exposed, and exits 0.

    Run in a child process: the probe ends the application's event loop by design, which must not leak
    into the rest of this test session (it did, in-process: later Qt tests' waits ended at once)."""
    import re
    import subprocess
    import sys

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", VEIL_STARTUP_T0="0",
               VEIL_DATA_DIR=str(tmp_path / "data"), VEIL_CONFIG_DIR=str(tmp_path / "config"))
    proc = subprocess.run([sys.executable, str(PACKAGING / "entry.py"), "--startup-time"], env=env,
                          capture_output=True, text=True, timeout=120)
    m = re.search(r"STARTUP_SECONDS=([0-9.]+) .*window: '([^']*)'", proc.stdout)
    assert proc.returncode == 0 and m, (proc.returncode, proc.stdout, proc.stderr[-2000:])
    assert float(m.group(1)) > 1e9  # seconds since 1970: t0 came from VEIL_STARTUP_T0
    assert m.group(2).endswith("veil-desktop")  # the app's own main window was the one exposed


def test_embedded_model_folders_ship_model_data_only(tmp_path):
    models = tmp_path / "models"
    (models / "veil-compact-ko" / "onnx").mkdir(parents=True)
    for name in ("config.json", "tokenizer.json", "model.onnx", "MODEL_CARD.md", "onnx/model.int8.onnx",
                 "train_helper.py", "best.safetensors"):
        (models / "veil-compact-ko" / name).write_text("x", encoding="utf-8")
    (models / "stray.onnx").write_text("x", encoding="utf-8")  # not in a model folder: not shipped
    datas = cfg.model_datas(models, "resources/models")
    shipped = sorted((Path(src).relative_to(models).as_posix(), dest) for src, dest in datas)
    assert shipped == [
        ("veil-compact-ko/MODEL_CARD.md", "resources/models/veil-compact-ko"),
        ("veil-compact-ko/config.json", "resources/models/veil-compact-ko"),
        ("veil-compact-ko/model.onnx", "resources/models/veil-compact-ko"),
        ("veil-compact-ko/onnx/model.int8.onnx", "resources/models/veil-compact-ko/onnx"),
        ("veil-compact-ko/tokenizer.json", "resources/models/veil-compact-ko"),
    ]
