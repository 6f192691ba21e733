"""``veil-redact redact``: batch redaction of files and folders (no Qt).

    veil-redact redact INPUT... --out DIR [--min-score S] [--style LABEL=STYLE|STYLE ...] [--model DIR]
                                [--threads N] [--txt] [--quiet] [--terms FILE]

Every supported file given, or found (recursively) in a folder given, is opened, run through the default
detector, and every span with score ≥ S (default 0.5) is accepted; each accepted value is then masked
*everywhere* in that document (``propagate_spans``), because the fail-closed export refuses a value that
is masked once and left elsewhere. The output goes to ``DIR/<same name>`` (files found in a folder keep
their path relative to it; ``.hwp`` becomes ``<name>.hwp.txt``; ``--txt`` writes masked text for every
file) with ``<output>.report.json`` beside it. Originals are only read.

``--terms FILE`` applies a term list (UTF-8 CSV ``term,action,label``, see ``review/terms.py``): every
``mask`` term is masked with its label wherever it occurs (spacing and width variants too, whatever the
score), detections lying inside a ``keep`` term are left unmasked; the report counts the list's hits
under ``term_list`` without naming the terms.

A summary table is printed at the end; the exit status is 1 if any file could not be redacted safely
(that file then has no output), 2 for usage or model problems, else 0.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..masking import Masker, MaskStyle
from .errors import DocumentError, LeakDetected
from .formats import SUPPORTED_FORMATS

DEFAULT_MIN_SCORE = 0.5


@dataclass
class Job:
    source: Path
    output: Path


@dataclass
class Row:
    source: Path
    output: Path | None
    status: str                    # "ok" or "FAILED"
    message: str = ""
    counts: Counter = field(default_factory=Counter)
    seconds: float = 0.0


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "redact", help="redact documents (txt, csv, docx, hwpx, pdf, hwp) into an output folder",
        description=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="files or folders")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (created if missing)")
    p.add_argument("--min-score", type=float, default=DEFAULT_MIN_SCORE, metavar="S",
                   help=f"accept spans with score >= S (default {DEFAULT_MIN_SCORE})")
    p.add_argument("--style", action="append", default=[], metavar="LABEL=STYLE|STYLE",
                   help="masking style: " + ", ".join(s.value for s in MaskStyle)
                   + "; a bare STYLE sets the default (tag); repeatable")
    p.add_argument("--model", metavar="DIR", help="model folder (default: the embedded model)")
    p.add_argument("--threads", type=int, metavar="N", help="inference threads")
    p.add_argument("--txt", action="store_true", help="write masked text (.txt) for every file")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.add_argument("--terms", metavar="FILE", help="term list CSV (term,action,label): mask terms are always "
                   "masked, detections inside keep terms are left")
    p.set_defaults(func=run)
    return p


def parse_styles(values: list[str]) -> tuple[dict[str, MaskStyle], MaskStyle]:
    styles: dict[str, MaskStyle] = {}
    default = MaskStyle.TAG
    for v in values:
        label, sep, style = v.partition("=")
        try:
            if sep:
                if not label.strip():
                    raise ValueError(f"missing label in --style {v!r}")
                styles[label.strip().upper()] = MaskStyle.parse(style.strip().lower())
            else:
                default = MaskStyle.parse(v.strip().lower())
        except ValueError as e:
            raise ValueError(f"--style {v!r}: {e}") from None
    return styles, default


def _usage_error(msg: str) -> int:
    print(f"veil-redact redact: {msg}", file=sys.stderr)
    return 2


def collect_jobs(inputs: list[str], out_dir: Path, txt: bool) -> tuple[list[Job], list[Row]]:
    """Expand files and folders into jobs; unusable inputs become failed rows."""
    suffixes = {"." + s for s in SUPPORTED_FORMATS}
    jobs: list[Job] = []
    failed: list[Row] = []
    out_res = out_dir.resolve()

    def out_name(rel: Path) -> Path:
        if txt and rel.suffix.lower() != ".txt":
            return rel.with_name(rel.name + ".txt")
        if rel.suffix.lower() == ".hwp":
            return rel.with_name(rel.name + ".txt")
        return rel

    for raw in inputs:
        p = Path(raw)
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if not f.is_file() or f.suffix.lower() not in suffixes:
                    continue
                if out_res == f.resolve().parent or out_res in f.resolve().parents:
                    continue  # our own earlier outputs inside an input folder
                if f.name.startswith(".veil-"):
                    continue
                jobs.append(Job(f, out_dir / out_name(f.relative_to(p))))
        elif p.is_file():
            if p.suffix.lower() not in suffixes:
                failed.append(Row(p, None, "FAILED", f"unsupported file type {p.suffix or '(none)'}"))
                continue
            jobs.append(Job(p, out_dir / out_name(Path(p.name))))
        else:
            failed.append(Row(p, None, "FAILED", "no such file or folder"))
    seen: dict[Path, Path] = {}
    unique: list[Job] = []
    for j in jobs:
        key = j.output.resolve()
        if key in seen:
            failed.append(Row(j.source, None, "FAILED", f"same output name as {seen[key]}"))
            continue
        seen[key] = j.source
        unique.append(j)
    return unique, failed


def _make_detector(args):
    try:
        from ..detect.default import build_default_detector
        from ..detect.model_folder import ModelFolderError
    except ImportError as e:  # the detection core is not installed/complete
        raise DocumentError(f"The detector is not available ({e}).") from None
    try:
        return build_default_detector(model_dir=args.model, threads=args.threads)
    except ModelFolderError as e:
        raise DocumentError(str(e)) from None


def _detect(detector, text: str, label: str, progress: bool) -> list:
    from ..detect.events import Progress, SpansFound

    if not text.strip():
        return []
    if not hasattr(detector, "stream"):
        return list(detector.detect(text))
    spans: list = []
    last = 0.0
    for ev in detector.stream(text):
        if isinstance(ev, SpansFound):
            spans.extend(ev.spans)
        elif progress and isinstance(ev, Progress):
            now = time.monotonic()
            if now - last >= 0.5:
                last = now
                sys.stderr.write(f"\r{label} {_bar(ev.fraction)} {ev.fraction:4.0%}")
                sys.stderr.flush()
    return spans


def _bar(fraction: float, width: int = 20) -> str:
    n = int(round(fraction * width))
    return "[" + "#" * n + "." * (width - n) + "]"


def redact_one(job: Job, detector, masker_args: tuple[dict, MaskStyle], min_score: float,
               label: str, progress: bool, terms=None) -> Row:
    from . import export_document, open_document, propagate_spans

    t0 = time.perf_counter()
    try:
        doc = open_document(job.source)
        spans = _detect(detector, doc.text, label, progress)
        term_hits = None
        if terms:  # review.terms.TermList: keep terms drop detections, mask terms are always accepted
            applied = terms.apply(doc.text, spans)
            spans, term_hits = applied.spans, applied
        accepted = [s for s in spans if s.score >= min_score]
        rejected = [s for s in spans if s.score < min_score]
        if term_hits is not None:
            accepted = accepted + term_hits.list_spans
        full = propagate_spans(doc.text, accepted)
        masker = Masker(masker_args[0], masker_args[1])
        plan = masker.plan(doc.text, full)
        decisions = ([{"start": s.start, "end": s.end, "label": s.label, "score": s.score,
                       "source": s.source, "decision": "accepted"} for s in accepted]
                     + [{"start": s.start, "end": s.end, "label": s.label, "score": s.score,
                         "source": s.source, "decision": "propagated"} for s in full[len(accepted):]]
                     + [{"start": s.start, "end": s.end, "label": s.label, "score": s.score,
                         "source": s.source, "decision": "below_threshold"} for s in rejected]
                     + [{"start": s.start, "end": s.end, "label": s.label, "score": s.score,
                         "source": s.source, "decision": "kept_by_list"}
                        for s in (term_hits.kept if term_hits is not None else [])])
        decisions.sort(key=lambda d: (d["start"], d["end"]))
        job.output.parent.mkdir(parents=True, exist_ok=True)
        res = export_document(doc, plan, job.output, detector_id=getattr(detector, "id", ""),
                              threshold=min_score, styles=masker, decisions=decisions)
        if term_hits is not None:
            _add_to_report(res.report, "term_list", term_hits.report(terms))
        return Row(job.source, job.output, "ok", "", Counter(res.counts), time.perf_counter() - t0)
    except LeakDetected as e:
        msg = f"leak check: {e}"
    except (DocumentError, OSError) as e:
        msg = str(e)
    return Row(job.source, None, "FAILED", msg + _remove_stale(job.output), seconds=time.perf_counter() - t0)


def _add_to_report(report: Path, key: str, value) -> None:
    """Add ``key`` to a report written by ``export_document`` (atomically: temp file + rename)."""
    import json
    import os
    import tempfile

    from .report import dumps

    data = json.loads(report.read_text("utf-8"))
    data[key] = value
    fd, tmp = tempfile.mkstemp(dir=report.parent, prefix=".veil-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(dumps(data))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, report)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _remove_stale(output: Path) -> str:
    """A failed file must have no output: remove an earlier run's output *of ours* (it has a report
    beside it), so a stale redaction is never taken for the current one."""
    from .export import report_path_for

    report = report_path_for(output)
    if output.is_file() and report.is_file():
        try:
            output.unlink()
            report.unlink()
        except OSError:
            return f" (an earlier output {output.name} could not be removed)"
        return f" (earlier output {output.name} removed)"
    return ""


def print_summary(rows: list[Row], out=None) -> None:
    out = out or sys.stdout
    if not rows:
        print("no input files", file=out)
        return
    name_w = min(48, max(len("file"), *(len(str(r.source)) for r in rows)))
    print(f"{'file':<{name_w}}  {'status':<6}  {'masked':>6}  {'sec':>6}  details", file=out)
    for r in rows:
        name = str(r.source)
        if len(name) > name_w:
            name = "…" + name[-(name_w - 1):]
        detail = (", ".join(f"{k} {v}" for k, v in sorted(r.counts.items())) if r.status == "ok"
                  else r.message)
        print(f"{name:<{name_w}}  {r.status:<6}  {sum(r.counts.values()):>6}  {r.seconds:>6.1f}  {detail}",
              file=out)
    ok = sum(r.status == "ok" for r in rows)
    print(f"{ok} of {len(rows)} file(s) redacted; {len(rows) - ok} failed", file=out)


def run(args: argparse.Namespace) -> int:
    try:
        styles = parse_styles(args.style)
    except ValueError as e:
        return _usage_error(str(e))
    if not 0.0 <= args.min_score <= 1.0:
        return _usage_error("--min-score must be between 0 and 1")
    terms = None
    if getattr(args, "terms", None):
        from ..review.terms import TermList, TermsError

        try:
            terms = TermList.load(args.terms)
        except TermsError as e:
            return _usage_error(f"--terms {args.terms}: " + "\n  ".join([str(e)] + e.errors[1:]))
    out_dir = Path(args.out)
    if out_dir.exists() and not out_dir.is_dir():
        return _usage_error(f"--out {out_dir} is not a folder")
    jobs, rows = collect_jobs(args.inputs, out_dir, args.txt)
    if not jobs and not rows:
        return _usage_error("no supported files found in the inputs")
    if jobs:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            return _usage_error(f"cannot create {out_dir}: {e.strerror or e}")
        try:
            detector = _make_detector(args)
        except DocumentError as e:
            return _usage_error(str(e))
        progress = not args.quiet
        for i, job in enumerate(jobs, 1):
            label = f"[{i}/{len(jobs)}] {job.source.name}"
            if progress:
                sys.stderr.write(f"\r{label}")
                sys.stderr.flush()
            rows.append(redact_one(job, detector, styles, args.min_score, label, progress, terms))
            if progress:
                sys.stderr.write(f"\r{label} {rows[-1].status}\n")
    print_summary(rows)
    return 0 if all(r.status == "ok" for r in rows) else 1
