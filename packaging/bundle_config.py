"""What goes into the frozen bundle and what is pruned from it — data shared by the spec, build.py, the
size report and tests/test_packaging.py, so the rules are written (and tested) once.

Pruning works on PyInstaller TOC entries ``(dest_name, src_path, typecode)`` after analysis. Rules:

- Python modules we never need at run time are excluded before analysis (``EXCLUDED_MODULES``): test and
  training stacks, Tk, the ``onnx`` package (only onnxruntime runs models), onnxruntime's tooling, and
  every Qt module the UI does not use (QML/Quick, WebEngine, Multimedia, Network, ...).
- Qt plugins are kept by an allow-list per plugin folder (``QT_PLUGINS_KEEP``); folders not listed are
  dropped whole (sql drivers, QML tooling, TLS/network backends, EGL/wayland integrations, ...).
- Qt shared libraries are kept by an allow-list of Qt module names (``QT_LIBS_KEEP``): the analysis also
  pulls in libraries that only the dropped plugins need (Quick/Qml for the virtual keyboard, Pdf for the
  pdf image plugin, ...). ``packaging/ci_bundle.sh`` verifies with ``ldd`` that nothing kept is left with
  an unresolved Qt dependency, and the self-test proves the window still comes up.
- Qt translations: only Korean and English.
- onnxruntime's C-API library (``libonnxruntime.so.*``, Linux) is not loaded by the Python binding
  (verified with ``ldd`` on the pybind module), so it is dropped.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path, PurePosixPath

APP_NAME = "veil-desktop"

#: licence files at the repository root that travel in the wheel and the bundle as resources/licenses/<name>
#: (the font's OFL.txt lives in resources/fonts/ and travels with it). Read by the About box.
LICENCE_FILES = ("NOTICE", "LICENSE")

EXCLUDED_MODULES = [
    # training / test / dev stacks
    "torch", "torchvision", "transformers", "safetensors", "accelerate", "datasets", "sklearn", "scipy",
    "pandas", "matplotlib", "IPython", "jupyter", "notebook", "pytest", "_pytest", "pytestqt", "py",
    "hypothesis", "psutil", "setuptools", "pkg_resources", "pip", "wheel", "distutils",
    "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib", "lib2to3", "pydoc_data",
    # the onnx python package (graph building) is dev-only; onnxruntime runs the models
    "onnx", "onnxruntime.quantization", "onnxruntime.tools", "onnxruntime.transformers",
    "onnxruntime.datasets", "onnxruntime.backend", "onnxruntime.training",
    # lxml parts python-docx never uses
    "lxml.objectify", "lxml.html", "lxml.isoschematron", "lxml.cssselect", "lxml.sax",
    # Pillow (PDF export renders pages to JPEG): its AVIF/WebP codecs and Tk/Qt bridges are optional imports
    # inside Pillow; JPEG/PNG/TIFF stay in _imaging. FreeType (PIL._imagingft) must stay: documents/pdf.py
    # draws each embedded font's glyphs to catch a lying ToUnicode map (without it every PDF font would be
    # "not checkable" in the bundle only), and the self-test's OCR page draws its Korean text with it.
    "PIL._avif", "PIL._webp", "PIL._imagingtk", "PIL.ImageTk", "PIL.ImageQt",
    # the cluster extra (issue 23: "the offline bundle need not carry it"): Dask distributed and what only it
    # pulls in (TLS via cryptography, tornado, msgpack ...); `--workers`/`--scheduler` then say to install
    # veil-desktop[cluster] (cluster.run)
    "dask", "distributed", "cryptography", "tornado", "msgpack", "cloudpickle", "toolz", "tlz", "zict",
    "tblib", "partd", "locket", "fsspec", "sortedcontainers", "click",
    # reached only through optional imports (numba's HTML annotation, pygments' image formatter)
    "pygments", "jinja2", "markupsafe", "yaml",
    # numba extras that need compilers / GPUs / other packages
    "numba.cuda", "numba.tests", "llvmlite.tests", "numpy.tests", "numpy.f2py", "numpy.distutils",
    # Qt modules the UI does not use (only QtCore / QtGui / QtWidgets (+ QtSvg) are needed)
    "PySide6.QtNetwork", "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets",
    "PySide6.QtQuickControls2", "PySide6.QtQuick3D", "PySide6.QtWebEngineCore",
    "PySide6.QtWebEngineWidgets", "PySide6.QtWebEngineQuick", "PySide6.QtWebChannel",
    "PySide6.QtWebSockets", "PySide6.QtMultimedia", "PySide6.QtMultimediaWidgets",
    "PySide6.Qt3DCore", "PySide6.Qt3DRender", "PySide6.QtCharts", "PySide6.QtDataVisualization",
    "PySide6.QtGraphs", "PySide6.QtSql", "PySide6.QtTest", "PySide6.QtDesigner", "PySide6.QtUiTools",
    "PySide6.QtHelp", "PySide6.QtPdf", "PySide6.QtPdfWidgets", "PySide6.QtBluetooth",
    "PySide6.QtPositioning", "PySide6.QtLocation", "PySide6.QtSensors", "PySide6.QtSerialPort",
    "PySide6.QtRemoteObjects", "PySide6.QtScxml", "PySide6.QtStateMachine", "PySide6.QtTextToSpeech",
    "PySide6.QtNetworkAuth", "PySide6.QtHttpServer", "PySide6.QtSpatialAudio", "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets", "PySide6.QtXml", "PySide6.QtConcurrent", "PySide6.QtDBus",
    "PySide6.QtAxContainer", "PySide6.QtNfc", "PySide6.QtSerialBus", "PySide6.QtCanvasPainter",
]

#: plugin folder -> plugin base names kept (without ``lib`` prefix / extension). Folders not listed go.
QT_PLUGINS_KEEP: dict[str, set[str]] = {
    # offscreen + minimal for headless runs and the self-test; xcb for X11 and XWayland; windows/cocoa.
    "platforms": {"qoffscreen", "qminimal", "qxcb", "qwindows", "qcocoa"},
    # png is built into QtGui; jpeg/gif/ico/svg cover icons and pasted images.
    "imageformats": {"qjpeg", "qgif", "qico", "qsvg"},
    "iconengines": {"qsvgicon"},
    # Korean is typed through an input method (ibus/fcitx via ibus, or compose): required on Linux.
    "platforminputcontexts": {"ibusplatforminputcontextplugin", "composeplatforminputcontextplugin"},
    # native file dialogs through the XDG portal (D-Bus only). Not qgtk3: it would run the system's GTK
    # against the cairo/pango/glib copies PyInstaller bundles for it (8 MB, and a classic crash source).
    "platformthemes": {"qxdgdesktopportal"},
    "xcbglintegrations": {"qxcb-glx-integration", "qxcb-egl-integration"},
    # Windows 11 / Windows / Fusion styles
    "styles": {"qmodernwindowsstyle", "qwindowsvistastyle"},
}

#: Qt shared libraries kept, by Qt module name (``libQt6<Name>.so.6`` / ``Qt6<Name>.dll``).
QT_LIBS_KEEP = {"Core", "Gui", "Widgets", "DBus", "XcbQpa", "Svg", "OpenGL"}

#: Qt translation catalogues kept (``qt_ko.qm``, ``qtbase_ko.qm`` ...).
QT_TRANSLATION_LANGS = {"ko", "en"}

_QT_LIB = re.compile(r"^(?:lib)?Qt6(?P<name>[A-Za-z0-9]+?)(?:\.so(?:\.\d+)*|\.dll|\.dylib)$")
_PLUGIN_NAME = re.compile(r"^(?:lib)?(?P<name>.+?)(?:\.so|\.dll|\.dylib)$")
_TRANSLATION = re.compile(r"^[a-z_]+?_(?P<lang>[a-z]{2})(?:_[A-Z]{2})?\.qm$")


def _parts(dest: str) -> tuple[str, ...]:
    return PurePosixPath(dest.replace("\\", "/")).parts


def app_imports(package_dir: Path, module: str) -> bool:
    """Whether any source file of the app imports ``module`` (``import X`` / ``from X[.y] import``).

    Used to keep optional heavy packages (Pillow) out of the bundle unless app code really uses them,
    even when one is added later by another module's author.
    """
    pat = re.compile(rf"^\s*(?:import|from)\s+{re.escape(module)}(?:[\s.]|$)", re.MULTILINE)
    return any(pat.search(p.read_text(encoding="utf-8", errors="replace"))
               for p in package_dir.rglob("*.py"))


def prune_reason(dest: str) -> str | None:
    """Why the bundle entry at ``dest`` (its path inside the bundle) is dropped, or None to keep it."""
    parts = _parts(dest)
    name = parts[-1] if parts else dest
    if "PySide6" in parts:
        i = parts.index("PySide6")
        rest = parts[i + 1:]
        if rest and rest[0] == "Qt":  # Linux/macOS wheels: PySide6/Qt/plugins; Windows: PySide6/plugins
            rest = rest[1:]
        if len(rest) >= 3 and rest[0] == "plugins":
            folder = rest[1]
            if folder not in QT_PLUGINS_KEEP:
                return f"Qt plugin folder {folder}/ not used"
            m = _PLUGIN_NAME.match(name)
            if m and m.group("name") not in QT_PLUGINS_KEEP[folder]:
                return f"Qt plugin {folder}/{m.group('name')} not used"
            return None
        if len(rest) >= 2 and rest[0] == "translations":
            m = _TRANSLATION.match(name)
            if m and m.group("lang") not in QT_TRANSLATION_LANGS:
                return "Qt translation not ko/en"
            return None
        if rest and rest[0] == "qml":
            return "QML modules not used"
        if name.startswith("opengl32sw"):
            return "software OpenGL (Qt Widgets do not need it)"
    m = _QT_LIB.match(name)
    if m and m.group("name") not in QT_LIBS_KEEP:
        return f"Qt library Qt6{m.group('name')} only needed by pruned modules/plugins"
    if len(parts) >= 3 and parts[-3:-1] == ("onnxruntime", "capi") and name.startswith("libonnxruntime.so"):
        return "onnxruntime C-API library (the Python binding does not load it)"
    return None


def prune_toc(toc):
    """Split a PyInstaller TOC into (kept entries, [(dest, src, reason)] removed)."""
    kept, removed = [], []
    for entry in toc:
        reason = prune_reason(entry[0])
        if reason is None:
            kept.append(entry)
        else:
            removed.append((entry[0], entry[1], reason))
    return kept, removed


_NEEDED = re.compile(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]")


def elf_needed(path: str) -> list[str] | None:
    """DT_NEEDED entries of an ELF file (``readelf -d``), or None when they cannot be read."""
    import subprocess

    try:
        out = subprocess.run(["readelf", "-d", "--wide", path], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return _NEEDED.findall(out.stdout)


def unreferenced_system_libs(binaries, needed=elf_needed) -> dict[str, str]:
    """Top-level libraries (PyInstaller's copies of system libs) that no kept binary needs any more.

    PyInstaller resolves dependencies before pruning, so the libraries that only a dropped plugin needed
    (e.g. cairo/pango/gdk-pixbuf for the GTK3 theme) are still in the list. Roots are every other binary
    (extension modules, Qt libraries and plugins, ctypes-loaded package libraries); anything top-level not
    reachable from them through DT_NEEDED is returned as ``{dest: reason}``. Linux only; when ``readelf``
    is missing nothing is returned (nothing is dropped).
    """
    top = {e[0]: e[1] for e in binaries if "/" not in e[0].replace("\\", "/") and e[2] != "SYMLINK"}
    if not top or not sys.platform.startswith("linux"):
        return {}
    roots = [e[1] for e in binaries if e[0] not in top and e[2] != "SYMLINK"]
    reachable: set[str] = {d for d in top if d.startswith("libpython")}
    stack = list(roots) + [top[d] for d in reachable]
    while stack:
        deps = needed(stack.pop())
        if deps is None:
            return {}  # cannot tell: keep everything
        for name in deps:
            if name in top and name not in reachable:
                reachable.add(name)
                stack.append(top[name])
    return {d: "system library needed only by pruned plugins/libraries" for d in top if d not in reachable}


#: Files copied from a model folder given with ``build.py --model`` (a model folder is data, never code).
MODEL_FILE_SUFFIXES = {".json", ".txt", ".onnx", ".onnx_data", ".data", ".md", ".model"}
MODEL_FILE_NAMES = {"LICENSE", "LICENCE", "NOTICE", "README"}
#: never copied, even if present: code, and training checkpoints the runtime does not read.
MODEL_FILE_REFUSED_SUFFIXES = {".py", ".pyc", ".pyd", ".so", ".dll", ".dylib", ".exe", ".sh", ".bat",
                               ".safetensors", ".bin", ".pt", ".pth", ".ckpt", ".h5", ".msgpack", ".pkl"}


def model_datas(models_root: Path, dest_root: str) -> list[tuple[str, str]]:
    """PyInstaller ``datas`` entries for every model folder under ``models_root``: allowed files only."""
    out: list[tuple[str, str]] = []
    if not models_root.is_dir():
        return out
    for folder in sorted(p for p in models_root.iterdir() if p.is_dir()):
        for f in sorted(folder.rglob("*")):
            rel = PurePosixPath(f.relative_to(folder).as_posix())
            if f.is_file() and model_file_allowed(rel):
                out.append((str(f), str(PurePosixPath(dest_root) / folder.name / rel.parent)))
    return out


def model_file_allowed(rel: PurePosixPath) -> bool:
    """Whether ``rel`` (path inside a model folder) is bundled."""
    if any(p.startswith(".") for p in rel.parts):
        return False
    if rel.suffix.lower() in MODEL_FILE_REFUSED_SUFFIXES:
        return False
    return rel.suffix.lower() in MODEL_FILE_SUFFIXES or rel.stem.upper() in MODEL_FILE_NAMES
