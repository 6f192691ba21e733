"""``veil-desktop --self-test``: prove that an installed (usually frozen) app works, offline, end to end.

Steps (each timed, each reported ``ok``/``FAIL`` with a one-line reason; a missing module is a FAIL that
names the module, never a crash):

1. ``resources``       the bundled sample, font, icon and embedded model folder are present and sane;
2. ``native libs``     onnxruntime (CPU provider); numba JIT (when bundled); the Viterbi kernel warms up;
3. ``load detector``   ``detect.default.build_default_detector()``;
4. ``detect sample``   detection on ``resources/samples/sample_ko.txt`` finds the sample's structured PII;
5. ``main window``     the real main window, offscreen: shown and exposed, opens the sample through the normal
                       background path (default detector in a QRunnable on QThreadPool), detection fills
                       the review list; the Korean font has Hangul glyphs;
6. ``export TXT``      open -> plan -> ``export_document`` -> leak check, in a temp folder;
7. ``export DOCX``     the same for a DOCX built from the sample (body, table and header);
   ``export PDF``      the same for a PDF written with PDFium (real text layer); the export is rasterised
                       (Pillow JPEG) and must have no text layer left;
8. ``no network``      no socket connect / DNS lookup was attempted during the run (in-process guard);
   ``no telemetry``    onnxruntime's telemetry is off (``ORT_DISABLE_TELEMETRY=1``) and wrote nothing;
9. ``bundle unchanged`` (frozen only) nothing was written inside the application folder;
+  ``model <name>``    for every extra model folder shipped with ``build.py --model``: it loads and detects.

The process exits 0 only if every step passed. Importing this module imports neither Qt nor any heavy
dependency; each step imports what it needs, so a broken bundle is diagnosed step by step.

Threading: everything runs on the calling (main) thread; the window step creates the QApplication.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import socket
import sys
import tempfile
import time
import traceback
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

#: Where onnxruntime's 1DS telemetry keeps its device id and event store (Linux/macOS; XDG cache).
_ORT_TELEMETRY_DIR = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "Microsoft" \
    / "DeveloperTools" / ".onnxruntime"

#: Values in the bundled sample that every detector configuration must find (rules cover them all).
SAMPLE_MUST_FIND = ("880412-1234567", "010-2345-6789", "minjun.kim@example.com")


@dataclass
class StepResult:
    name: str
    ok: bool
    seconds: float
    detail: str


class StepFailed(Exception):
    """A check inside a step did not hold; the message is the reported reason."""


# --------------------------------------------------------------------------------------------------
# network guard


@dataclass
class NetworkGuard:
    """Make every outgoing connection / name lookup in this process fail, and record the attempts.

    This is the in-process half of the offline proof (the other half is running the bundle under
    ``unshare -n`` or with no network adapter): a code path that *tries* to reach the network fails the
    self-test even on a machine where the attempt would have succeeded.
    """

    attempts: list[str] = field(default_factory=list)
    _saved: dict[str, object] = field(default_factory=dict)

    def install(self) -> "NetworkGuard":
        guard = self

        def blocked(what: str):
            def _raise(*args, **kwargs):
                target = args[1] if what.startswith("socket.") and len(args) > 1 else (args[:1] or "?")
                guard.attempts.append(f"{what}({target!r})")
                raise OSError(f"network access is disabled in veil-desktop ({what})")
            return _raise

        self._saved = {
            "connect": socket.socket.connect,
            "connect_ex": socket.socket.connect_ex,
            "create_connection": socket.create_connection,
            "getaddrinfo": socket.getaddrinfo,
        }
        socket.socket.connect = blocked("socket.connect")  # type: ignore[method-assign]
        socket.socket.connect_ex = blocked("socket.connect_ex")  # type: ignore[method-assign]
        socket.create_connection = blocked("create_connection")  # type: ignore[assignment]
        socket.getaddrinfo = blocked("getaddrinfo")  # type: ignore[assignment]
        return self

    def uninstall(self) -> None:
        if not self._saved:
            return
        socket.socket.connect = self._saved["connect"]  # type: ignore[method-assign]
        socket.socket.connect_ex = self._saved["connect_ex"]  # type: ignore[method-assign]
        socket.create_connection = self._saved["create_connection"]  # type: ignore[assignment]
        socket.getaddrinfo = self._saved["getaddrinfo"]  # type: ignore[assignment]
        self._saved = {}


# --------------------------------------------------------------------------------------------------
# helpers


def _describe_exception(exc: BaseException) -> str:
    if isinstance(exc, ModuleNotFoundError):
        return f"module {exc.name!r} is missing ({exc})"
    if isinstance(exc, StepFailed):
        return str(exc)
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    cause = exc.__cause__  # a wrapped error (e.g. DocumentError from a TypeError): name the real one too
    because = f"; caused by {_describe_exception(cause)}" if cause is not None and cause is not exc else ""
    return f"{type(exc).__name__}: {exc}{where}{because}"


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise StepFailed(message)


def _bundle_root() -> Path | None:
    """The application folder of a frozen build (the executable's directory), else None."""
    if getattr(sys, "frozen", False):
        return Path(sys.executable).resolve().parent
    return None


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """``{relative path: (size, mtime_ns)}`` of every file under ``root``."""
    snap: dict[str, tuple[int, int]] = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            p = Path(dirpath) / name
            try:
                st = p.stat()
            except OSError:
                continue
            snap[str(p.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return snap


def _covered(spans, text: str, value: str) -> bool:
    """True when every occurrence of ``value`` in ``text`` lies inside the union of ``spans``."""
    covered = [False] * len(text)
    for s in spans:
        for i in range(max(0, s.start), min(len(text), s.end)):
            covered[i] = True
    start = text.find(value)
    if start < 0:
        return False
    while start >= 0:
        if not all(covered[start:start + len(value)]):
            return False
        start = text.find(value, start + 1)
    return True


def _write_text_pdf(text: str, font: Path, out: Path, width: int = 44) -> None:
    """Write ``text`` as a one-page-per-50-lines PDF with a real text layer (pypdfium2, embedded ``font``).

    The frozen app has no PDF *writer* library (fpdf2 is a test dependency), so the self-test builds its
    input with PDFium itself: a CID TrueType font, one text object per (wrapped) line.
    """
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    lines: list[str] = []
    for line in text.splitlines():
        while len(line) > width:
            lines.append(line[:width])
            line = line[width:]
        if line.strip():
            lines.append(line)
    data = font.read_bytes()
    buf = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
    pdf = pdfium.PdfDocument.new()
    try:
        handle = raw.FPDFText_LoadFont(pdf.raw, buf, len(data), raw.FPDF_FONT_TRUETYPE, True)
        _check(bool(handle), f"PDFium could not load {font.name}")
        for first in range(0, len(lines), 50):
            page = pdf.new_page(595, 842)
            for i, line in enumerate(lines[first:first + 50]):
                obj = raw.FPDFPageObj_CreateTextObj(pdf.raw, handle, ctypes.c_float(11))
                wide = ctypes.create_string_buffer((line + "\0").encode("utf-16-le"))
                _check(bool(raw.FPDFText_SetText(obj, ctypes.cast(wide, ctypes.POINTER(raw.FPDF_WCHAR)))),
                       "PDFium could not set a text object's text")
                raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 40, 800 - 15 * i)
                raw.FPDFPage_InsertObject(page.raw, obj)
            _check(bool(raw.FPDFPage_GenerateContent(page.raw)), "PDFium could not generate page content")
            page.close()
        raw.FPDFFont_Close(handle)
        pdf.save(str(out))
    finally:
        pdf.close()


def _docx_visible_text(path: Path) -> str:
    """All text of every XML part of a DOCX (tags stripped): what a leak scanner must search."""
    import re

    chunks = []
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            if name.endswith((".xml", ".rels")):
                xml = zf.read(name).decode("utf-8", errors="replace")
                chunks.append(re.sub(r"<[^>]+>", "", xml))
                chunks.append(xml)  # attributes (alt text, hyperlink targets) too
    return "\n".join(chunks)


# --------------------------------------------------------------------------------------------------
# the self-test


class SelfTest:
    """Runs the steps in order; later steps use what earlier ones produced (``self.detector`` ...).

    A step that needs something an earlier step failed to produce fails with that reason.
    """

    def __init__(self, workdir: Path, *, build_window: bool = True) -> None:
        self.workdir = workdir
        self.build_window = build_window
        self.results: list[StepResult] = []
        self.detector = None
        self.sample_text: str | None = None
        self.guard = NetworkGuard()

    # -- running ----------------------------------------------------------------------------
    def step(self, name: str, fn: Callable[[], str]) -> StepResult:
        t = time.perf_counter()
        try:
            detail = fn() or ""
            ok = True
        except Exception as exc:  # noqa: BLE001 - every failure becomes a reported FAIL line
            detail, ok = _describe_exception(exc), False
        result = StepResult(name, ok, time.perf_counter() - t, detail)
        self.results.append(result)
        return result

    def run(self) -> list[StepResult]:
        self.workdir.mkdir(parents=True, exist_ok=True)
        root = _bundle_root()
        before = _snapshot(root) if root else None
        telemetry_before = _snapshot(_ORT_TELEMETRY_DIR) if _ORT_TELEMETRY_DIR.is_dir() else {}
        saved_env = {k: os.environ.get(k) for k in ("VEIL_DATA_DIR", "VEIL_CONFIG_DIR")}
        self.guard.install()
        try:
            self.step("resources", self._resources)
            self.step("native libs", self._native)
            self.step("load detector", self._load_detector)
            self.step("detect sample", self._detect_sample)
            # From here on a throw-away profile: the window autosaves sessions and settings; none of it may
            # reach the user's real profile (and a restored session from an earlier run would skip detection).
            os.environ["VEIL_DATA_DIR"] = str(self.workdir / "profile" / "data")
            os.environ["VEIL_CONFIG_DIR"] = str(self.workdir / "profile" / "config")
            if self.build_window:
                self.step("main window", self._main_window)
            self.step("export TXT", self._export_txt)
            self.step("export DOCX", self._export_docx)
            self.step("export PDF", self._export_pdf)
            self.step("OCR page", self._ocr_page)
            for folder in self._extra_model_folders():
                self.step(f"model {folder.name}", lambda f=folder: self._extra_model(f))
        finally:
            self.guard.uninstall()
            for k, v in saved_env.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        self.step("no network", self._no_network)
        self.step("no telemetry", lambda: self._no_telemetry(telemetry_before))
        if root is not None and before is not None:
            self.step("bundle unchanged", lambda: self._bundle_unchanged(root, before))
        return self.results

    # -- steps ------------------------------------------------------------------------------
    def _resources(self) -> str:
        from veil_desktop import paths

        res = paths.resources_dir()
        _check(res.is_dir(), f"resources folder not found at {res}")
        sample = res / "samples" / "sample_ko.txt"
        _check(sample.is_file(), f"sample missing: {sample}")
        self.sample_text = sample.read_text(encoding="utf-8")
        fonts = sorted((res / "fonts").glob("*.[ot]tf"))
        _check(bool(fonts), f"no bundled font in {res / 'fonts'}")
        for f in fonts:
            with open(f, "rb") as fh:
                magic = fh.read(4)
            _check(magic in (b"\x00\x01\x00\x00", b"OTTO", b"true"), f"{f.name} is not a TrueType/OpenType font")
        _check((res / "fonts" / "OFL.txt").is_file(), "font licence text (fonts/OFL.txt) missing")
        _check((res / "icons" / "veil-desktop.png").is_file(), "app icon missing")
        model = paths.default_model_dir()
        _check((model / "config.json").is_file(), f"embedded model folder incomplete: {model}/config.json missing")
        onnx = sorted(model.glob("*.onnx"))
        _check(bool(onnx), f"embedded model folder has no .onnx file: {model}")
        mb = sum(p.stat().st_size for p in model.iterdir() if p.is_file()) / 1e6
        return f"{res}; font {fonts[0].name}; model {model.name} ({mb:.1f} MB)"

    def _native(self) -> str:
        import onnxruntime

        providers = onnxruntime.get_available_providers()
        _check("CPUExecutionProvider" in providers, f"onnxruntime has no CPU provider: {providers}")
        parts = [f"onnxruntime {onnxruntime.__version__}"]
        try:
            import numba
        except ModuleNotFoundError as exc:
            if exc.name not in ("numba", "llvmlite"):
                raise  # numba is there but incomplete: a packaging bug, not an optional absence
            numba = None
        if numba is not None:
            # A real JIT compile proves llvmlite's native library loads inside the bundle.
            add = numba.njit("int64(int64, int64)", nogil=True)(lambda a, b: a + b)
            _check(add(40, 2) == 42, "numba-compiled function returned a wrong value")
            parts.append(f"numba {numba.__version__} JIT ok")
        from veil_desktop.detect import viterbi

        backend = viterbi.warm_up()  # compiles (or loads from cache) and runs the Viterbi kernel once
        if numba is not None and not os.environ.get("VEIL_NO_NUMBA"):
            _check(backend.startswith("numba"), f"numba is bundled but the Viterbi fell back: {backend}")
        if not os.environ.get("VEIL_NO_NUMBA") and importlib.util.find_spec("veil_desktop.detect._viterbi_aot"):
            _check(backend.startswith("numba-aot"), f"the AOT Viterbi module is shipped but not used: {backend}")
        parts.append(f"Viterbi: {backend}")
        if numba is not None:
            parts.append(f"NUMBA_CACHE_DIR={os.environ.get('NUMBA_CACHE_DIR', '(unset)')}")
        return "; ".join(parts)

    def _load_detector(self) -> str:
        from veil_desktop.detect.default import build_default_detector

        self.detector = build_default_detector()
        labels = list(getattr(self.detector, "labels", []))
        return f"{getattr(self.detector, 'id', type(self.detector).__name__)}; {len(labels)} labels"

    def _detect_sample(self) -> str:
        _check(self.detector is not None, "no detector (load detector failed)")
        _check(self.sample_text is not None, "no sample text (resources failed)")
        text = self.sample_text
        spans = self.detector.detect(text)
        _check(len(spans) > 0, "no PII found in the Korean sample")
        for s in spans:
            _check(0 <= s.start < s.end <= len(text), f"span out of range: {s}")
        missed = [v for v in SAMPLE_MUST_FIND if not _covered(spans, text, v)]
        _check(not missed, f"missed in sample: {', '.join(missed)}")
        labels = sorted({s.label for s in spans})
        return f"{len(spans)} spans: {', '.join(labels)}"

    def _main_window(self) -> str:
        # Offscreen unless the caller chose a platform: the self-test never pops up a window.
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _check(self.detector is not None, "no detector (load detector failed)")
        _check(self.sample_text is not None, "no sample text (resources failed)")
        from veil_desktop.ui.selftest_window import check_main_window

        doc = self.workdir / "window" / "sample_ko.txt"
        doc.parent.mkdir(parents=True, exist_ok=True)
        doc.write_text(self.sample_text, encoding="utf-8")
        # no detector passed: the window detects as in production (default detector on a QThreadPool worker)
        return check_main_window(doc, self.workdir / "window" / "settings.ini")

    def _export(self, src: Path, suffix: str) -> tuple[Path, set[str], object]:
        """open -> detect -> plan -> export -> the export's own leak check; returns (out, masked values, result)."""
        from veil_desktop.documents import export_document, open_document, propagate_spans
        from veil_desktop.masking import Masker

        _check(self.detector is not None, "no detector (load detector failed)")
        doc = open_document(src)
        # as the batch CLI does: every copy of a detected value is masked (export refuses unmasked copies)
        spans = propagate_spans(doc.text, self.detector.detect(doc.text))
        plan = Masker().plan(doc.text, spans)
        _check(bool(plan), f"empty masking plan for {src.name}")
        out = self.workdir / f"redacted{suffix}"
        result = export_document(doc, plan, out)
        _check(out.is_file(), f"export did not write {out.name}")
        _check(src.is_file(), "the source document disappeared")
        leaks = getattr(result, "leaks", None)
        _check(not leaks, f"leak check failed: {leaks}")
        values = {doc.text[r.start:r.end] for r in plan}
        return out, values, result

    def _export_txt(self) -> str:
        _check(self.sample_text is not None, "no sample text (resources failed)")
        src = self.workdir / "sample_ko.txt"
        src.write_text(self.sample_text, encoding="utf-8")
        out, values, _ = self._export(src, ".txt")
        written = out.read_text(encoding="utf-8")
        leaked = [v for v in values if v.strip() and v in written]
        _check(not leaked, f"redacted TXT still contains: {leaked[:3]}")
        return f"{len(values)} values masked; leak check clean"

    def _export_docx(self) -> str:
        _check(self.sample_text is not None, "no sample text (resources failed)")
        import docx

        lines = [ln for ln in self.sample_text.splitlines() if ln.strip()]
        d = docx.Document()
        d.sections[0].header.paragraphs[0].text = lines[0]
        for ln in lines[1:-2]:
            d.add_paragraph(ln)
        table = d.add_table(rows=1, cols=2)
        table.cell(0, 0).text, table.cell(0, 1).text = lines[-2], lines[-1]
        src = self.workdir / "sample_ko.docx"
        d.save(src)
        out, values, _ = self._export(src, ".docx")
        scanned = _docx_visible_text(out)
        leaked = [v for v in values if len(v.strip()) > 1 and v in scanned]
        _check(not leaked, f"redacted DOCX still contains: {leaked[:3]}")
        must = [v for v in SAMPLE_MUST_FIND if v in scanned]
        _check(not must, f"redacted DOCX still contains sample PII: {must}")
        return f"{len(values)} values masked; all XML parts scanned clean"

    def _export_pdf(self) -> str:
        _check(self.sample_text is not None, "no sample text (resources failed)")
        from veil_desktop import paths

        fonts = sorted((paths.resources_dir() / "fonts").glob("*.ttf"))
        _check(bool(fonts), "no TrueType font to write the test PDF with")
        src = self.workdir / "sample_ko.pdf"
        _write_text_pdf(self.sample_text, fonts[0], src)
        out, values, _ = self._export(src, ".pdf")
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(str(out))
        try:
            _check(len(pdf) >= 1, "redacted PDF has no pages")
            text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
        finally:
            pdf.close()
        _check(not text.strip(), f"redacted PDF still has a text layer ({len(text)} characters)")
        return f"{len(values)} values masked; rasterised, no text layer; leak check clean"

    def _ocr_page(self) -> str:
        """A page drawn with the bundled font, saved as PNG, read by OCR, redacted; OCR of the output must
        no longer read the masked values."""
        from PIL import Image, ImageDraw, ImageFont

        from veil_desktop import paths
        from veil_desktop.documents import ocr

        _check(ocr.available(), "OCR unavailable: tesserocr or resources/tessdata missing")
        font = ImageFont.truetype(str(sorted((paths.resources_dir() / "fonts").glob("*.ttf"))[0]), 34)
        img = Image.new("RGB", (1240, 500), "white")
        draw = ImageDraw.Draw(img)
        lines = ["민원 신청서", "성명: 홍길동", "주민등록번호: 900101-1234567", "연락처: 010-2345-6789"]
        for i, line in enumerate(lines):
            draw.text((80, 60 + 80 * i), line, font=font, fill="black")
        src = self.workdir / "scan.png"
        img.save(src)
        out, values, result = self._export(src, ".png")
        _check({"900101-1234567", "010-2345-6789"} <= values, f"OCR page: values not detected ({len(values)} masked)")
        again = ocr.ocr_image(Image.open(out)).text
        left = ocr.recognisable(sorted(values), again)
        _check(not left, f"{len(left)} masked value(s) still readable by OCR in the output")
        import tesserocr

        conf = (result.leak_check or {}).get("result")
        return (f"tesseract {tesserocr.tesseract_version().split()[1]}; {len(values)} values burned; "
                f"re-OCR clean; leak check {conf}")

    def _extra_model_folders(self) -> list[Path]:
        """Model folders shipped next to the embedded one (``build.py --model DIR``)."""
        try:
            from veil_desktop import paths

            embedded = paths.default_model_dir()
            root = embedded.parent
            return sorted(p for p in root.iterdir() if p.is_dir() and p.name != embedded.name) \
                if root.is_dir() else []
        except Exception:  # noqa: BLE001 - the resources step reports a broken resources folder
            return []

    def _extra_model(self, folder: Path) -> str:
        """A bundled extra model folder loads and detects on the sample, like the default one."""
        _check(self.sample_text is not None, "no sample text (resources failed)")
        from veil_desktop.detect.default import build_default_detector

        detector = build_default_detector(folder)
        spans = detector.detect(self.sample_text)
        missed = [v for v in SAMPLE_MUST_FIND if not _covered(spans, self.sample_text, v)]
        _check(not missed, f"missed in sample: {', '.join(missed)}")
        return f"{detector.id}: {len(spans)} spans: {', '.join(sorted({s.label for s in spans}))}"

    def _no_network(self) -> str:
        _check(not self.guard.attempts, f"network access attempted: {self.guard.attempts[:3]}")
        return "no connect/DNS attempts"

    def _no_telemetry(self, before: dict[str, tuple[int, int]]) -> str:
        _check(os.environ.get("ORT_DISABLE_TELEMETRY") == "1",
               "onnxruntime telemetry is on: ORT_DISABLE_TELEMETRY=1 must be set before onnxruntime is imported")
        after = _snapshot(_ORT_TELEMETRY_DIR) if _ORT_TELEMETRY_DIR.is_dir() else {}
        _check(after == before, f"onnxruntime wrote its telemetry store during the run: {_ORT_TELEMETRY_DIR}")
        return "ORT_DISABLE_TELEMETRY=1; onnxruntime's telemetry store untouched"

    def _bundle_unchanged(self, root: Path, before: dict[str, tuple[int, int]]) -> str:
        after = _snapshot(root)
        changed = sorted(set(after.items()) ^ set(before.items()))
        names = sorted({name for name, _ in changed})
        _check(not names, f"files written inside the bundle: {names[:5]}")
        return f"{len(after)} files in {root.name}/ untouched"


# --------------------------------------------------------------------------------------------------
# reporting / CLI


def format_report(results: list[StepResult]) -> str:
    width = max([len(r.name) for r in results] + [4])
    lines = [f"{'STEP'.ljust(width)}  RESULT  {'TIME':>8}  DETAIL"]
    for r in results:
        lines.append(f"{r.name.ljust(width)}  {'ok' if r.ok else 'FAIL':6}  {r.seconds:7.3f}s  {r.detail}")
    passed = sum(r.ok for r in results)
    verdict = "PASS" if results and passed == len(results) else "FAIL"
    lines.append(f"RESULT: {verdict} ({passed}/{len(results)} steps ok)")
    return "\n".join(lines)


def run_selftest(workdir: Path | None = None, *, build_window: bool = True) -> list[StepResult]:
    """Run all steps in-process and return their results (used by ``main`` and the tests)."""
    if workdir is not None:
        return SelfTest(workdir, build_window=build_window).run()
    with tempfile.TemporaryDirectory(prefix="veil-selftest-") as tmp:
        return SelfTest(Path(tmp), build_window=build_window).run()


def main(argv: list[str] | None = None) -> int:
    """CLI: ``veil-desktop --self-test [--keep DIR] [--no-window] [--linger S]``; 0 only if all steps passed."""
    parser = argparse.ArgumentParser(prog="veil-desktop --self-test",
                                     description="Check this installation end to end, offline.")
    parser.add_argument("--keep", metavar="DIR", type=Path,
                        help="write the test documents and exports to DIR (kept) instead of a temp folder")
    parser.add_argument("--no-window", action="store_true", help="skip the main-window step")
    parser.add_argument("--linger", type=float, default=0.0, metavar="S",
                        help="stay alive S seconds after the steps, so that background threads of native "
                             "libraries get the chance to act (CI watches for network syscalls meanwhile)")
    if argv is None:  # called from ``veil-desktop --self-test ...``: drop the flag that brought us here
        argv = [a for a in sys.argv[1:] if a != "--self-test"]
    args = parser.parse_args(argv)
    frozen = "frozen" if getattr(sys, "frozen", False) else "source"
    print(f"veil-desktop self-test ({frozen}; Python {platform.python_version()}; "
          f"{platform.system()} {platform.machine()})", flush=True)
    t = time.perf_counter()
    results = run_selftest(args.keep, build_window=not args.no_window)
    print(format_report(results))
    from veil_desktop.detect import viterbi

    # which kernel decoded the last detection of this process (numba-aot / numba-jit / numpy)
    print(f"viterbi: {viterbi.last_ran() or viterbi.kernel_name()}")
    print(f"total {time.perf_counter() - t:.2f} s", flush=True)
    if args.linger > 0:
        time.sleep(args.linger)
    return 0 if results and all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
