"""Fast checks of the bundle definition (the real build + frozen self-test run in packaging/ci_bundle.sh).

- the spec, executed by a recording stand-in for PyInstaller's build classes, references an entry script
  and data folders that exist, and excludes nothing the app imports at run time;
- the prune rules keep what Qt needs to start (offscreen/xcb, Core/Gui/Widgets, ko/en) and drop the rest,
  checked against the PySide6 installation actually in the venv;
- the bundled font loads in Qt and has Hangul; the icon files are valid;
- ``build.py --model`` copies model data only, never code;
- the frozen entry's numba cache selection never picks an unwritable directory;
- the wheel (built from a clean copy of the sources) carries the model, font, icons, sample, NOTICE and the
  licence texts, with PEP 639 metadata; unpacked like pip installs it, ``paths`` finds its resources there
  (not in the checkout); the checkout and frozen layouts resolve too;
- the numba-AOT Viterbi: ``packaging/build_aot.py`` really compiles it and it runs without numba; the
  kernel selection prefers it and reports ``numba-aot``;
- the About box shows NOTICE, LICENSE and OFL.txt, and Help > About opens it.
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


_FAKE_AOT = Path(__import__("tempfile").mkdtemp(prefix="veil-fake-aot-")) / "_viterbi_aot.so"
_FAKE_AOT.write_bytes(b"\x7fELF")  # the spec only checks that the compiled module exists


def _run_spec(monkeypatch, env: dict[str, str] | None = None) -> dict[str, dict]:
    monkeypatch.delenv("VEIL_BUNDLE_VITERBI", raising=False)
    monkeypatch.setenv("VEIL_BUNDLE_AOT", str(_FAKE_AOT))
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
    calls = _run_spec(monkeypatch, {"VEIL_BUNDLE_MODEL": str(model)})
    datas = calls["Analysis"]["kwargs"]["datas"]
    assert (str(model), "resources/models/veil-pii-ko-small-3") in datas
    excludes = calls["Analysis"]["kwargs"]["excludes"]
    assert "numba" in excludes and "llvmlite" in excludes
    calls = _run_spec(monkeypatch, {"VEIL_BUNDLE_VITERBI": "jit", "VEIL_BUNDLE_MODEL": ""})
    assert "numba" not in calls["Analysis"]["kwargs"]["excludes"]
    assert "numba._devicearray" in calls["Analysis"]["kwargs"]["hiddenimports"]
    assert calls["Analysis"]["kwargs"]["binaries"] == []  # no AOT module next to the JIT


def test_spec_default_ships_the_aot_viterbi_without_numba(monkeypatch):
    """Default bundle: the numba.pycc module goes next to detect/viterbi.py; numba and llvmlite stay out."""
    kw = _run_spec(monkeypatch)["Analysis"]["kwargs"]
    assert kw["binaries"] == [(str(_FAKE_AOT), "veil_desktop/detect")]
    assert {"numba", "llvmlite"} <= set(kw["excludes"])
    assert "numba._devicearray" not in kw["hiddenimports"]
    # numpy-only build: neither the module nor numba
    kw = _run_spec(monkeypatch, {"VEIL_BUNDLE_VITERBI": "numpy"})["Analysis"]["kwargs"]
    assert kw["binaries"] == [] and {"numba", "llvmlite"} <= set(kw["excludes"])


def test_spec_refuses_aot_without_the_compiled_module(monkeypatch, tmp_path):
    with pytest.raises(SystemExit, match="VEIL_BUNDLE_AOT"):
        _run_spec(monkeypatch, {"VEIL_BUNDLE_AOT": str(tmp_path / "missing.so")})
    with pytest.raises(SystemExit, match="aot, jit or numpy"):
        _run_spec(monkeypatch, {"VEIL_BUNDLE_VITERBI": "llvm"})


def test_spec_ships_notice_licences_and_every_resource_folder(monkeypatch):
    datas = _run_spec(monkeypatch)["Analysis"]["kwargs"]["datas"]
    assert (str(ROOT / "NOTICE"), "resources/licenses") in datas
    assert (str(ROOT / "LICENSE"), "resources/licenses") in datas
    dests = {dest for _src, dest in datas}
    for d in (ROOT / "resources").iterdir():
        if d.is_dir() and d.name != "models":
            assert f"resources/{d.name}" in dests, d.name
    assert any(dest == "resources/models/veil-compact-ko" and src.endswith("model.onnx") for src, dest in datas)


def test_excludes_spare_everything_the_app_needs(monkeypatch):
    excludes = set(_run_spec(monkeypatch)["Analysis"]["kwargs"]["excludes"])
    needed = {"onnxruntime", "tokenizers", "numpy", "PySide6", "PySide6.QtCore", "PySide6.QtGui",
              "PySide6.QtWidgets", "docx", "lxml", "lxml.etree", "charset_normalizer", "pypdfium2",
              "platformdirs", "olefile", "defusedxml", "veil_desktop"}
    assert not needed & excludes
    # Pillow's FreeType: documents/pdf.py's glyph-vs-text-layer check and the self-test's OCR page use it
    assert "PIL._imagingft" not in excludes and "PIL.ImageFont" not in excludes
    # and the heavy dev-only stacks are out
    assert {"torch", "transformers", "pytest", "tkinter", "onnx"} <= excludes
    # and the cluster extra (Dask distributed and its TLS stack): not in the offline bundle
    assert {"dask", "distributed", "cryptography", "tornado"} <= excludes


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


# ------------------------------------------------------------------------------ wheel and sdist (issue 12)

def _load_setup():
    return _load("veil_setup", ROOT / "setup.py")  # setup() itself only runs as __main__


@pytest.fixture(scope="module")
def built_wheel(tmp_path_factory) -> Path:
    """A wheel built from a clean copy of the project sources (never from the checkout's build/ dir).

    No build isolation: the project venv has setuptools >= 77 (dev extra), so nothing is downloaded."""
    import shutil
    import subprocess

    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "NOTICE", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc", "_viterbi_aot*")
    shutil.copytree(ROOT / "veil_desktop", src / "veil_desktop", ignore=ignore)
    shutil.copytree(ROOT / "resources", src / "resources", ignore=ignore)
    # a module deleted from the sources but still in setuptools' reused build/lib must not ship
    (src / "build" / "lib" / "veil_desktop" / "ui").mkdir(parents=True)
    (src / "build" / "lib" / "veil_desktop" / "ui" / "deleted_module.py").write_text("x = 1\n", encoding="utf-8")
    out = base / "dist"
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                           "-w", str(out), str(src)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]
    wheels = sorted(out.glob("veil_desktop-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_carries_model_font_icons_sample_and_licences(built_wheel):
    import zipfile

    with zipfile.ZipFile(built_wheel) as zf:
        names = set(zf.namelist())
        meta = zf.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode("utf-8")
        res = "veil_desktop/_resources/"
        # every file of the embedded model folder, byte for byte
        model = ROOT / "resources" / "models" / "veil-compact-ko"
        for f in model.iterdir():
            if f.is_file() and cfg.model_file_allowed(PurePosixPath(f.name)):
                assert zf.read(f"{res}models/veil-compact-ko/{f.name}") == f.read_bytes(), f.name
        assert zf.read(res + "fonts/NanumGothic.ttf") == (ROOT / "resources/fonts/NanumGothic.ttf").read_bytes()
        assert zf.read(res + "licenses/NOTICE") == (ROOT / "NOTICE").read_bytes()
        assert b"CC BY-SA 4.0" in zf.read(res + "licenses/NOTICE")
        assert b"Apache License" in zf.read(res + "licenses/LICENSE")
        assert b"SIL OPEN FONT LICENSE" in zf.read(res + "fonts/OFL.txt")
    assert {res + "icons/veil-desktop.png", res + "icons/veil-desktop.ico", res + "samples/sample_ko.txt"} <= names
    assert "veil_desktop/ui/deleted_module.py" not in names  # stale build/lib content was cleared
    assert "veil_desktop/paths.py" in names and "veil_desktop/ui/about.py" in names
    # the package data is data: no code from resources/ (a model folder is never executed)
    assert not [n for n in names if n.startswith(res) and n.endswith((".py", ".pyc", ".so", ".dll"))]
    # PEP 639 licence metadata: SPDX expression, licence files in .dist-info/licenses/
    assert "License-Expression: Apache-2.0" in meta
    import veil_desktop

    assert f"\nVersion: {veil_desktop.__version__}\n" in meta  # pyproject's version comes from the package
    for lic in ("License-File: LICENSE", "License-File: NOTICE", "License-File: resources/fonts/OFL.txt"):
        assert lic in meta
    assert any(n.endswith(".dist-info/licenses/NOTICE") for n in names)
    assert "Classifier: Natural Language :: Korean" in meta and "Requires-Python: >=3.11" in meta
    assert "Requires-Dist: numba" in meta and "Requires-Dist: onnxruntime" in meta
    # the two entry points
    ep = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    with zipfile.ZipFile(built_wheel) as zf:
        entry_points = zf.read(ep).decode("utf-8")
    assert "veil-redact = veil_desktop.cli:main" in entry_points
    assert "veil-desktop = veil_desktop.launcher:main" in entry_points


def test_installed_wheel_layout_finds_its_resources_not_the_checkout(built_wheel, tmp_path):
    """Unpack the wheel as pip would into a site-packages folder and resolve paths from a foreign cwd."""
    import subprocess
    import zipfile

    site = tmp_path / "site-packages"
    with zipfile.ZipFile(built_wheel) as zf:
        zf.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import json, veil_desktop, veil_desktop.paths as p; print(json.dumps({'pkg': veil_desktop.__file__, "
            "'res': str(p.resources_dir()), 'model': str(p.default_model_dir()), "
            "'lic': [str(x) for x in p.licence_files()]}))")
    env = {k: v for k, v in os.environ.items() if k not in ("VEIL_RESOURCES_DIR", "PYTHONPATH")}
    env["PYTHONPATH"] = str(site)
    proc = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    import json

    got = json.loads(proc.stdout)
    assert Path(got["pkg"]).parent == site / "veil_desktop"  # the unpacked copy, not the checkout's package
    assert Path(got["res"]) == site / "veil_desktop" / "_resources"
    assert (Path(got["model"]) / "config.json").is_file() and list(Path(got["model"]).glob("*.onnx"))
    assert [Path(x).relative_to(site).as_posix() for x in got["lic"]] == [
        "veil_desktop/_resources/licenses/NOTICE", "veil_desktop/_resources/licenses/LICENSE",
        "veil_desktop/_resources/fonts/OFL.txt"]


def test_setup_ships_resources_by_the_bundle_rule_and_refuses_code(tmp_path):
    setup = _load_setup()
    shipped = {rel for _src, rel in setup.resource_files()}
    for f in (ROOT / "resources" / "models" / "veil-compact-ko").iterdir():
        rel = PurePosixPath(f.name)
        assert (f"models/veil-compact-ko/{f.name}" in shipped) == cfg.model_file_allowed(rel), f.name
    assert {"licenses/NOTICE", "licenses/LICENSE", "fonts/OFL.txt", "fonts/NanumGothic.ttf"} <= shipped
    # a fake project: code, checkpoints, caches and hidden files under resources/ never ship
    (tmp_path / "resources" / "models" / "m" / "__pycache__").mkdir(parents=True)
    for rel in ("models/m/config.json", "models/m/model.onnx", "models/m/evil.py", "models/m/w.safetensors",
                "models/m/__pycache__/x.pyc", "models/m/.git", "samples/a.txt", "tessdata/kor.traineddata"):
        (tmp_path / "resources" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "resources" / rel).write_text("x", encoding="utf-8")
    (tmp_path / "NOTICE").write_text("n", encoding="utf-8")
    got = sorted(rel for _src, rel in setup.resource_files(tmp_path))
    assert got == ["licenses/NOTICE", "models/m/config.json", "models/m/model.onnx", "samples/a.txt",
                   "tessdata/kor.traineddata"]


# ------------------------------------------------------------------------------------- paths layouts

def test_paths_checkout_layout(monkeypatch):
    from veil_desktop import paths

    monkeypatch.delenv("VEIL_RESOURCES_DIR", raising=False)
    assert paths.resources_dir() == ROOT / "resources"
    assert paths.licence_files() == [ROOT / "NOTICE", ROOT / "LICENSE", ROOT / "resources" / "fonts" / "OFL.txt"]


def test_paths_frozen_layout(monkeypatch, tmp_path):
    """The bundle's layout (spec datas): _MEIPASS/resources/{licenses,fonts,models}/..."""
    from veil_desktop import paths

    res = tmp_path / "_internal" / "resources"
    for rel in ("licenses/NOTICE", "licenses/LICENSE", "fonts/OFL.txt", "models/veil-compact-ko/config.json"):
        (res / rel).parent.mkdir(parents=True, exist_ok=True)
        (res / rel).write_text(rel, encoding="utf-8")
    monkeypatch.delenv("VEIL_RESOURCES_DIR", raising=False)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path / "_internal"), raising=False)
    assert paths.resources_dir() == res
    assert paths.default_model_dir() == res / "models" / "veil-compact-ko"
    assert [p.relative_to(res).as_posix() for p in paths.licence_files()] == [
        "licenses/NOTICE", "licenses/LICENSE", "fonts/OFL.txt"]
    (res / "licenses" / "THIRD-PARTY-LICENSES.txt").write_text("x", encoding="utf-8")  # bundle only
    assert paths.licence_files()[-1] == res / "licenses" / "THIRD-PARTY-LICENSES.txt"


# ------------------------------------------------------------------------------- numba AOT Viterbi

def test_viterbi_prefers_the_aot_module_and_reports_it(monkeypatch):
    """When ``veil_desktop.detect._viterbi_aot`` is importable (the bundle), it decodes and is reported."""
    import types

    import numpy as np

    from veil_desktop.detect import viterbi as V

    calls = []

    def fake_aot(emis, lengths, trans, start, end, out):
        calls.append(emis.shape)
        V.viterbi_numpy(emis, lengths, trans, start, end, out)

    monkeypatch.setitem(sys.modules, "veil_desktop.detect._viterbi_aot", types.SimpleNamespace(viterbi=fake_aot))
    monkeypatch.delenv("VEIL_NO_NUMBA", raising=False)
    monkeypatch.setattr(V, "_kernel", None)
    monkeypatch.setattr(V, "_backend", None)
    monkeypatch.setattr(V, "_last_ran", None)
    monkeypatch.setattr(V, "_aot_probed", False)
    monkeypatch.setattr(V, "_bg_thread", None)
    # the first detection of a process already decodes with the AOT module (no background load needed)
    assert V.kernel_nowait() is fake_aot and V._bg_thread is None
    assert V.backend().startswith("numba-aot") and V.kernel_name() == "numba-aot"
    kinds = np.array([0, 1, 2, 3, 4], dtype=np.int8)
    types_ = np.array([-1, 0, 0, 0, 0], dtype=np.int16)
    tags = V.viterbi(np.zeros((2, 4, 5), np.float32), np.array([4, 2]), *V.transitions(kinds, types_))
    assert calls == [(2, 4, 5)] and V.last_ran() == "numba-aot" and tags.shape == (2, 4)
    # VEIL_NO_NUMBA still forces numpy, with or without the module
    monkeypatch.setenv("VEIL_NO_NUMBA", "1")
    monkeypatch.setattr(V, "_kernel", None)
    assert V.kernel_name() == "numpy"
    V.viterbi(np.zeros((1, 3, 5), np.float32), np.array([3]), *V.transitions(kinds, types_))
    assert V.last_ran() == "numpy" and len(calls) == 1


def test_aot_module_compiles_and_runs_without_numba(tmp_path):
    """packaging/build_aot.py: numba.pycc builds the kernel; in a child interpreter where numba and llvmlite
    cannot be imported it returns the numpy kernel's tags (build_aot.verify raises otherwise). Needs a C
    compiler, as the bundle build does (.ci/run installs gcc)."""
    build_aot = _load("veil_build_aot", PACKAGING / "build_aot.py")
    module = build_aot.build(tmp_path / "aot")
    assert module.name.startswith("_viterbi_aot") and module.stat().st_size > 10_000
    build_aot.verify(module)


# ---------------------------------------------------------------------------------------- About box

def test_about_box_shows_notice_and_every_licence_text(qtbot):
    from PySide6.QtWidgets import QLabel

    import veil_desktop
    from veil_desktop.ui.about import EXPECTED, AboutDialog

    for lang in ("ko", "en"):
        dlg = AboutDialog(None, lang)
        qtbot.addWidget(dlg)
        assert dlg.tabs.count() == len(EXPECTED) == 3
        notice = dlg.texts["NOTICE"].toPlainText()
        assert "KLUE" in notice and "CC BY-SA 4.0" in notice and "MIT License" in notice
        assert notice == (ROOT / "NOTICE").read_text(encoding="utf-8")
        assert "Apache License" in dlg.texts["LICENSE"].toPlainText()
        assert "SIL OPEN FONT LICENSE" in dlg.texts["OFL.txt"].toPlainText()
        assert dlg.texts["NOTICE"].isReadOnly()
        assert veil_desktop.__version__ in dlg.findChildren(QLabel)[0].text()  # the version line
    assert dlg.windowTitle() == "About veil-desktop"


def test_about_box_says_when_a_licence_file_is_missing(qtbot, monkeypatch, tmp_path):
    from veil_desktop.ui.about import AboutDialog

    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "OFL.txt").write_text("SIL OPEN FONT LICENSE", encoding="utf-8")
    monkeypatch.setenv("VEIL_RESOURCES_DIR", str(tmp_path))  # no NOTICE / LICENSE anywhere near it
    dlg = AboutDialog(None, "en")
    qtbot.addWidget(dlg)
    assert dlg.texts["NOTICE"].toPlainText().startswith("Licence file not found: NOTICE")
    assert dlg.texts["OFL.txt"].toPlainText() == "SIL OPEN FONT LICENSE"


def test_help_menu_about_action_opens_the_about_box(qtbot, monkeypatch):
    """Help > About in the real main window opens the About box with the shipped notices."""
    from tests.ui_helpers import show_window
    from veil_desktop import paths
    from veil_desktop.ui import about

    shown = []
    monkeypatch.setattr(about.AboutDialog, "exec", lambda self: shown.append(self) or 0)
    w = show_window(qtbot, paths.default_model_dir())
    act = w.actions_by_id["about"]
    assert act in w.menus["help"].actions() and act.isEnabled()
    act.trigger()
    assert len(shown) == 1 and shown[0].parent() is w
    assert "KLUE" in shown[0].texts["NOTICE"].toPlainText()


def test_bench_detect_reports_the_kernel_and_its_share(tmp_path):
    """entry.py --bench-detect (what packaging/bench_bundle.py launches): one parsable line per run."""
    import subprocess

    bench = _load("veil_bench_bundle", PACKAGING / "bench_bundle.py")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", VEIL_NO_NUMBA="1")
    proc = subprocess.run([sys.executable, str(PACKAGING / "entry.py"), "--bench-detect", "--chars", "3000",
                           "--repeat", "2"], env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    m = bench._LINE.search(proc.stdout)
    assert proc.returncode == 0 and m, (proc.stdout, proc.stderr[-2000:])
    assert m.group(1) == "numpy" and int(m.group(2)) == 3000 and int(m.group(3)) > 10
    walls = [float(x) for x in m.group(4).split(",")]
    assert len(walls) == 2 and 0 < float(m.group(6)) < sum(walls)  # decoding is part of detection


# ------------------------------------------------------------------------------ third-party licences

def test_third_party_licences_cover_what_the_bundle_ships():
    """packaging/third_party.py: the run-time closure of pyproject's dependencies, limited to what the
    bundle collected; each with its declared licence and the licence texts its wheel carries."""
    tp = _load("veil_third_party", PACKAGING / "third_party.py")
    shipped = {"numpy", "PySide6", "shiboken6", "onnxruntime", "PIL", "lxml", "docx"}
    dists = tp.closure(tp.project_requirements(), shipped=shipped)
    names = {tp._norm(d.metadata["Name"]) for d in dists}
    assert {"numpy", "pyside6-essentials", "shiboken6", "onnxruntime", "pillow", "lxml", "python-docx"} <= names
    assert not names & {"numba", "llvmlite", "huggingface-hub", "pytest", "pyinstaller"}  # not shipped / dev
    text = tp.render(dists)
    assert "PySide6_Essentials" in text and "LGPL-3.0" in text  # declared licence even without a file
    # ... and the standard texts for wheels that ship none: the LGPL with the GPL it amends
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in text and "GNU GENERAL PUBLIC LICENSE" in text
    assert "applies to: PySide6_Essentials" in text
    assert "numpy" in text and "BSD" in text
    assert text.count("=" * 100) >= 2  # full licence texts follow the list
    # extras and foreign markers never enter the closure
    assert tp._applies('pytest>=8; extra == "dev"') is False
    assert tp._applies('PySide6-Essentials>=6.6; python_version < "3"') is False


def test_about_box_shows_the_third_party_file_when_the_bundle_has_it(qtbot, monkeypatch, tmp_path):
    import shutil

    from veil_desktop.ui.about import AboutDialog

    res = tmp_path / "resources"
    (res / "licenses").mkdir(parents=True)
    (res / "fonts").mkdir()
    shutil.copy2(ROOT / "NOTICE", res / "licenses" / "NOTICE")
    shutil.copy2(ROOT / "LICENSE", res / "licenses" / "LICENSE")
    shutil.copy2(ROOT / "resources" / "fonts" / "OFL.txt", res / "fonts" / "OFL.txt")
    (res / "licenses" / "THIRD-PARTY-LICENSES.txt").write_text("numpy 2: BSD-3-Clause", encoding="utf-8")
    monkeypatch.setenv("VEIL_RESOURCES_DIR", str(res))
    dlg = AboutDialog(None, "en")
    qtbot.addWidget(dlg)
    assert dlg.tabs.count() == 4 and dlg.tabs.tabText(3) == "Third-party licences"
    assert dlg.texts["THIRD-PARTY-LICENSES.txt"].toPlainText() == "numpy 2: BSD-3-Clause"
