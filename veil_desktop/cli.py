"""``veil-redact``: the command-line face of the detection core (no Qt).

Subcommands:

- ``detect [--model DIR] [--onnx FILE] [--threads N] [--json] [--no-rules] [--no-skip-ids] FILE...`` —
  print the spans of each file. With ``--json``: one JSON object per input file, one per line, in argument
  order: ``{"file": ..., "detector": ..., "spans": [{"start", "end", "label", "score", "source", "text"}]}``,
  offsets into the file's decoded text, **streamed**: files are processed one at a time and each span is
  written as soon as it is final (so the array is in finalisation order — structured rule spans first —
  not sorted); a failure mid-file closes the line with ``"error"``. Without ``--json``: a readable table.
- ``quantize IN_DIR OUT_DIR`` — write a copy of a model folder with a dynamic-INT8 ONNX file.
- ``redact`` — batch redaction, registered by ``veil_desktop.redact_cli``.

Exit codes: 0 success, 1 a file could not be read/processed, 2 usage or model problems.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Sequence

MODEL_HELP = (
    "No detection model is available.\n"
    "Get the veil model on a computer with internet access:\n"
    "  1. download the model folder kakao1513/veil-pii-ko-small-3 from the Hugging Face Hub\n"
    "     (e.g. `huggingface-cli download kakao1513/veil-pii-ko-small-3 --local-dir veil-pii-ko-small-3`);\n"
    "  2. copy that folder (config.json, tokenizer files, model.fp32.onnx) to this computer;\n"
    "  3. run: veil-redact detect --model /path/to/veil-pii-ko-small-3 FILE..."
)

#: Inputs longer than this (characters) get a progress line on stderr.
PROGRESS_MIN_CHARS = 20_000


class CliError(Exception):
    """A problem to report in one line and exit with ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


# ---------------------------------------------------------------------------------------------- detector
def make_detector(model: str | None, *, threads: int | None, rules: bool, onnx_file: str | None = None,
                  skip_ids: bool = True):
    """The detector the ``detect`` command uses (see the module docstring). Raises ``CliError``."""
    from .detect.model_folder import ModelFolderError

    try:
        from .detect.default import build_default_detector

        folder = Path(model) if model is not None else None
        return build_default_detector(folder, threads=threads, rules=rules, onnx_file=onnx_file,
                                      skip_ids=skip_ids)
    except ModelFolderError as e:
        if model is None:
            raise CliError(f"{e}\n\n{MODEL_HELP}") from None
        raise CliError(str(e)) from None


def read_text(path: Path) -> str:
    """The decoded text of ``path``: through ``documents.open_document`` when available, else UTF-8."""
    try:
        from .documents import open_document
    except ImportError:
        open_document = None
    if open_document is not None:
        try:
            return open_document(path).text
        except Exception as e:  # DocumentError and friends carry a readable message
            raise CliError(f"{path}: {e}", code=1) from None
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such file", code=1) from None
    except UnicodeDecodeError as e:
        raise CliError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})", code=1) from None
    except OSError as e:
        raise CliError(f"{path}: {e.strerror or e}", code=1) from None


class _ProgressLine:
    """``label: 41% (3.2 s)`` on stderr, at most twice a second, for inputs of PROGRESS_MIN_CHARS+."""

    def __init__(self, label: str, show: bool) -> None:
        self.label, self.show = label, show
        self.t0 = self.last = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.show and (now - self.last >= 0.5 or done == total):
            self.last = now
            sys.stderr.write(f"\r{self.label}: {done}/{total} characters ({done / max(1, total):.0%}, "
                             f"{now - self.t0:.1f} s)")
            sys.stderr.flush()

    def close(self) -> None:
        if self.show:
            sys.stderr.write("\n")


def run_detection(detector, text: str, *, label: str, progress: bool) -> list:
    """All spans of ``text`` (the one detector driver, batch slices); a progress line on stderr for long
    inputs when ``progress``."""
    from .detect.driver import detect_spans

    line = _ProgressLine(label, progress and len(text) >= PROGRESS_MIN_CHARS)
    try:
        return detect_spans(detector, text, on_progress=line)
    finally:
        line.close()


def stream_json(detector, text: str, *, file: str, out=None, label: str = "", progress: bool = False) -> int:
    """Write one JSON line for ``text`` to ``out`` while detecting: the header first, then every span as
    soon as the detector has finalised it (no list of all spans, no one big string). Spans appear in the
    order they became final (structured rule spans first, then model spans in document order); sort by
    ``start`` if you need document order. A failure mid-stream still closes the line, with ``"error"``.
    Returns the number of spans written."""
    from .detect.events import Progress, SpansFound

    out = out or sys.stdout
    w = out.write
    w(json.dumps({"file": file, "detector": getattr(detector, "id", None)}, ensure_ascii=False)[:-1])
    w(', "spans": [')
    n = 0
    show = progress and len(text) >= PROGRESS_MIN_CHARS
    try:
        # long texts in batch slices through the one detector driver: memory stays bounded
        from .detect.driver import BATCH_MAX_CHARS, BATCH_SLICE_CHARS, drive

        line = _ProgressLine(label, show)
        for ev in drive(detector, text, size=BATCH_SLICE_CHARS, max_chars=BATCH_MAX_CHARS):
            if isinstance(ev, SpansFound):
                for s in sorted(ev.spans, key=lambda s: (s.start, s.end)):
                    w((", " if n else "") + json.dumps(s.to_json(text), ensure_ascii=False))
                    n += 1
                out.flush()
            elif isinstance(ev, Progress):
                line(ev.done, ev.total)
    except Exception as e:  # noqa: BLE001 - keep the line valid JSON and say what happened
        w("], " + json.dumps({"error": f"detection failed: {type(e).__name__}: {e}"}, ensure_ascii=False)[1:]
          + "\n")
        out.flush()
        raise CliError(f"{file}: detection failed: {type(e).__name__}: {e}", code=1) from None
    finally:
        if show:
            sys.stderr.write("\n")
    w("]}\n")
    out.flush()
    return n


def _cmd_detect(args: argparse.Namespace) -> int:
    files = [Path(f) for f in args.files]
    detector = make_detector(args.model, threads=args.threads, rules=not args.no_rules, onnx_file=args.onnx,
                             skip_ids=not args.no_skip_ids)
    status = 0
    for path in files:  # one file at a time: its text is released before the next is read
        try:
            text = read_text(path)
            if args.json:
                stream_json(detector, text, file=str(path), label=path.name, progress=not args.quiet)
            else:
                spans = run_detection(detector, text, label=path.name, progress=not args.quiet)
                _print_table(path, text, spans)
        except CliError as e:
            print(f"veil-redact: {e}", file=sys.stderr)
            status = 1
            if args.json and e.code == 1 and "detection failed" not in str(e):
                print(json.dumps({"file": str(path), "error": str(e)}, ensure_ascii=False), flush=True)
            continue
        finally:
            text = None  # noqa: F841
    return status


def _print_table(path: Path, text: str, spans: list) -> None:
    print(f"{path}  ({len(spans)} span{'s' if len(spans) != 1 else ''})")
    if not spans:
        return
    print(f"  {'start':>8} {'end':>8}  {'label':<14} {'score':>5}  text")
    for s in spans:
        snippet = text[s.start:s.end].replace("\n", "⏎")
        if len(snippet) > 60:
            snippet = snippet[:57] + "…"
        print(f"  {s.start:>8} {s.end:>8}  {s.label:<14} {s.score:>5.2f}  {snippet}")


# ---------------------------------------------------------------------------------------------- quantize
#: Files copied from the source folder by ``quantize`` (data only: never code).
_COPY = ("config.json", "tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json",
         "README.md", "MODEL_CARD.md", "LICENSE")


def quantize_folder(src: Path, dst: Path, *, onnx_file: str | None = None) -> Path:
    """Write ``dst`` = ``src``'s config/tokenizer files + ``model.int8.onnx`` (dynamic INT8 weights).

    The source is validated first (a broken folder is refused before anything is written); the output
    folder must not exist or be empty; the ONNX file is written to a temporary name and renamed.
    """
    from .detect.model_folder import ModelFolderError, find_onnx, load_model_folder

    load_model_folder(src, onnx_file=onnx_file, threads=1)
    src_onnx = find_onnx(src, onnx_file)
    if dst.exists() and (not dst.is_dir() or any(dst.iterdir())):
        raise CliError(f"{dst} already exists and is not an empty folder; choose a new output folder")
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as e:  # onnxruntime.quantization needs the onnx package (a dev/bench extra)
        raise CliError(f"quantization needs the 'onnx' package: pip install onnx ({e})") from None
    dst.mkdir(parents=True, exist_ok=True)
    for name in _COPY:
        if (src / name).is_file():
            shutil.copy2(src / name, dst / name)
    tmp = dst / "model.int8.onnx.partial"
    out = dst / "model.int8.onnx"
    try:
        quantize_dynamic(str(src_onnx), str(tmp), weight_type=QuantType.QInt8)
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()
    try:
        load_model_folder(dst, onnx_file=out.name, threads=1)
    except ModelFolderError as e:
        raise CliError(f"the quantized model does not load: {e}") from None
    return out


def _cmd_quantize(args: argparse.Namespace) -> int:
    from .detect.model_folder import ModelFolderError

    try:
        out = quantize_folder(Path(args.in_dir), Path(args.out_dir), onnx_file=args.onnx)
    except ModelFolderError as e:
        raise CliError(str(e)) from None
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")
    return 0


# ---------------------------------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="veil-redact", description="Detect and redact personal information in "
                                "Korean documents, offline.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    d = sub.add_parser("detect", help="print the PII spans of text files")
    d.add_argument("--model", metavar="DIR", help="model folder (config.json, tokenizer, .onnx); default: "
                   "the embedded model")
    d.add_argument("--onnx", metavar="FILE", help="ONNX file inside the model folder (default model.fp32.onnx)")
    d.add_argument("--threads", type=int, metavar="N", help="inference threads (default: physical cores)")
    d.add_argument("--json", action="store_true", help="one JSON object per input file, one per line")
    d.add_argument("--no-rules", action="store_true", help="model spans only (no structured-PII rules)")
    d.add_argument("--no-skip-ids", action="store_true", help="let the model read ASCII identifier-like tokens "
                   "(by default they are hidden from it, as when the model card's accuracy was measured)")
    d.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    d.add_argument("files", nargs="+", metavar="FILE")
    d.set_defaults(func=_cmd_detect)

    q = sub.add_parser("quantize", help="write a dynamic-INT8 copy of a model folder")
    q.add_argument("in_dir", metavar="IN_DIR")
    q.add_argument("out_dir", metavar="OUT_DIR")
    q.add_argument("--onnx", metavar="FILE", help="ONNX file to quantize (default model.fp32.onnx)")
    q.set_defaults(func=_cmd_quantize)

    try:  # batch redaction lives with the documents code; the CLI works without it
        from .redact_cli import add_parser as _add_redact
    except ImportError:
        _add_redact = None
    if _add_redact is not None:
        _add_redact(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    # onnxruntime and numba are imported lazily by the commands, before anything could import Qt.
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "threads", None) is not None and args.threads < 1:
        parser.error("--threads must be at least 1")
    try:
        return int(args.func(args) or 0)
    except CliError as e:
        print(f"veil-redact: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("veil-redact: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
