"""``veil-redact redact``: batch redaction of files and folders (no Qt).

    veil-redact redact INPUT... --out DIR [--min-score S] [--style LABEL=STYLE|STYLE ...]
                                [--tag-lang auto|ko|en] [--model DIR] [--threads N] [--txt] [--quiet]
                                [--terms FILE] [--pictures review|blank|remove] [--reason LABEL=N ...]
                                [--workers N | --scheduler ADDR]

Every document given, or found in a folder given (sub-folders too), is read, its personal information
is detected, and every finding with a score of at least S (default 0.5, as in the window) is masked —
wherever the same value occurs in that document, because a value masked once and left elsewhere would
still be readable. Formats:
{formats}

Each output goes to DIR under the same name (files found in a folder keep their path inside it), in the
same format; a format that cannot be written back gets masked text with ``.txt`` added (``a.hwp.txt``);
``--txt`` writes masked text for every file. Beside each output: ``<output>.report.json`` (what was masked,
where, why, and the result of the leak check — never the original values). The originals are only read,
and an existing file in DIR that this tool did not write is never replaced (unless ``--overwrite``).

Masking is the window's: every value becomes its label as a tag in the document's language — ``[인명]``,
``[주민등록번호]`` in a Korean document, ``[PERSON]``, ``[RRN]`` otherwise. ``--tag-lang`` forces one language;
``--style`` picks another style for all labels (``--style stars``) or one (``--style PHONE=partial``).

``--terms FILE`` applies a term list (UTF-8 CSV ``term,action,label``): every ``mask`` term is masked
wherever it occurs (spacing and width variants too), findings inside a ``keep`` term are left; the report
counts the list's hits without naming the terms.

Every output is read back by an independent check before it is published; if a masked value is still
found in it, nothing is published for that file. A file with parts that cannot be read as text (a scanned
page, a picture that holds text, a text layer that does not match its glyphs) **needs review**: it is not
exported (row ``REVIEW``, naming the pages) unless ``--allow-unreadable``; ``--pictures blank|remove``
replaces or drops the pictures that hold text instead of holding the file back.

A summary table is printed at the end, also after a failure or an interruption (Ctrl+C: the files not
reached are listed). Exit status: 1 if any file could not be redacted safely or needs review (it then has
no output), 2 for usage or model problems, 130/143 when interrupted, else 0.
"""
from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

# the per-file work lives in batch.py (floor below, shared with the cluster runner); its names are
# re-exported here for callers of the CLI module
from .batch import (Job, Row, Terminated, _detect, _sweep_out_tree, build_review, collect_jobs,  # noqa: F401
                    parse_styles, print_summary, redact_one)
from .detect.span import DEFAULT_MIN_SCORE
from .documents.errors import DocumentError
from .documents.formats import SUPPORTED_FORMATS
from .masking import DEFAULT_MASK_STYLE, TAG_LANGUAGE_CHOICES, MaskStyle, style_example


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "redact", help="redact documents (" + ", ".join(SUPPORTED_FORMATS) + ") into an output folder",
        description=_description(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="files or folders")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (created if missing)")
    p.add_argument("--min-score", type=float, default=DEFAULT_MIN_SCORE, metavar="S",
                   help=f"accept spans with score >= S (default {DEFAULT_MIN_SCORE})")
    p.add_argument("--style", action="append", default=[], metavar="LABEL=STYLE|STYLE",
                   help="masking style, repeatable: a bare STYLE sets it for every label (default "
                   f"{DEFAULT_MASK_STYLE.value}, as in the window), LABEL=STYLE for one label. Styles: "
                   + "; ".join(_style_help(s) for s in MaskStyle))
    p.add_argument("--tag-lang", choices=TAG_LANGUAGE_CHOICES, default="auto",
                   help="language of tags: auto (default, as in the window) = Korean tags ([인명], "
                   "[주민등록번호]) in a document with Hangul, English ([PERSON], [RRN]) otherwise; "
                   "ko or en = always that language")
    p.add_argument("--model", metavar="DIR", help="model folder (default: the embedded model)")
    p.add_argument("--threads", type=int, metavar="N", help="inference threads")
    p.add_argument("--txt", action="store_true", help="write masked text (.txt) for every file")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.add_argument("--overwrite", action="store_true",
                   help="replace existing files in --out that this tool did not write (default: refuse)")
    p.add_argument("--allow-unreadable", action="store_true",
                   help="export files with unreadable pages/parts (scans, pictures, garbled text layer) "
                   "instead of holding them back for review; the report lists those pages")
    p.add_argument("--pictures", choices=("review", "blank", "remove"), default="review",
                   help="pictures inside documents (DOCX, HWPX) that OCR finds text in, or cannot read with "
                   "confidence: review (default) = the file needs review and is not exported; blank = each such "
                   "picture is replaced by a white one of the same size; remove = it is dropped. Every picture is "
                   "rebuilt from its pixels (no metadata) in any case")
    p.add_argument("--terms", metavar="FILE", help="term list CSV (term,action,label): mask terms are always "
                   "masked, detections inside keep terms are left")
    d = p.add_argument_group("disclosure (공공기관의 정보공개에 관한 법률 제9조제1항)")
    d.add_argument("--reason", action="append", default=[], metavar="LABEL=N",
                   help="disclosure reason of a label's masked parts, repeatable: N = 1-8 (제9조제1항 N호), "
                   "other:TEXT or none; defaults: personal information 6, ORGANIZATION / BUSINESS_REG / "
                   "CORP_REG none. Every decision of the report carries its reason, and a redaction log "
                   "(<output>.redaction-log.csv and a printable .redaction-log.pdf: where, label, reason, masked "
                   "form; never the value) is "
                   "written beside each output")
    d.add_argument("--reason-in-output", choices=("long", "short"),
                   help="print the reason beside each mask: long = [비공개 제9조제1항제6호], short = (6호)")
    d.add_argument("--redaction-log", action="store_true",
                   help="write the redaction log also without --reason (default reasons)")
    c = p.add_argument_group("cluster (optional extra veil-desktop[cluster]: Dask distributed; resumable "
                             "manifest .veil-manifest.sqlite in --out)")
    p.add_argument("--summary-json", metavar="F", help="write a machine-readable summary to F (exit code, "
                   "counts, speed, one row per file; the same with or without a cluster)")
    c.add_argument("--workers", type=int, metavar="N", help="run on a local Dask cluster of N worker processes "
                   "(listens on 127.0.0.1 only)")
    c.add_argument("--scheduler", metavar="ADDR", help="run on an existing Dask cluster: tls://HOST:PORT (with "
                   "--tls-ca/--tls-cert/--tls-key); plain tcp:// only on loopback unless --insecure")
    c.add_argument("--scheduler-file", metavar="F", help="the scheduler address from a Dask scheduler file")
    c.add_argument("--tls-ca", metavar="FILE", help="CA certificate for a tls:// scheduler")
    c.add_argument("--tls-cert", metavar="FILE", help="client certificate for a tls:// scheduler")
    c.add_argument("--tls-key", metavar="FILE", help="client key for a tls:// scheduler")
    c.add_argument("--insecure", action="store_true", help="allow a plain tcp:// scheduler that is not loopback")
    c.add_argument("--file-timeout", type=float, metavar="S", help="per-file time limit in seconds on a "
                   "cluster (default 600): a file over it becomes FAILED and its worker is restarted")
    p.set_defaults(func=run)
    return p


def _description() -> str:
    """The module docstring for ``--help``, its format list from the format registry."""
    from .documents.formats import formats

    names = "\n".join(f"  {', '.join('.' + x for x in f.suffixes):<12} {f.description}" for f in formats())
    return __doc__.split("\n\n", 2)[2].replace("{formats}", names)


def _style_help(style: MaskStyle) -> str:
    """One ``--style`` choice for ``--help``, with examples computed by the real ``Masker``."""
    what = {MaskStyle.TAG: "the label's name in brackets",
            MaskStyle.STARS: "every character but spaces becomes *",
            MaskStyle.PARTIAL: "keeps the surname, birth date, address region, first three phone digits or "
                               "e-mail domain (PERSON, ADDRESS, PHONE, RRN, FOREIGNER_RN, EMAIL; other labels: "
                               "letters and digits become *)",
            MaskStyle.PSEUDONYM: "numbered stand-ins, the same value the same number within a file"}[style]
    if style is MaskStyle.TAG:
        eg = f"{style_example('PERSON', style, 'ko')} / {style_example('PERSON', style, 'en')}"
    elif style is MaskStyle.PARTIAL:
        eg = f"{style_example('PERSON', style)}, {style_example('RRN', style)}"
    else:
        eg = style_example("PERSON", style)
    return f"{style.value} = {what} ({eg})".replace("%", "%%")


def _usage_error(msg: str) -> int:
    print(f"veil-redact redact: {msg}", file=sys.stderr)
    return 2


def _make_detector(args):
    try:
        from .detect.default import build_default_detector
        from .detect.model_folder import ModelFolderError
    except ImportError as e:  # the detection core is not installed/complete
        raise DocumentError(f"The detector is not available ({e}).") from None
    try:
        return build_default_detector(model_dir=args.model, threads=args.threads)
    except ModelFolderError as e:
        raise DocumentError(str(e)) from None


def _on_sigterm(signum, frame):  # pragma: no cover - exercised by the subprocess test
    raise Terminated()


def run(args: argparse.Namespace) -> int:
    try:
        styles = parse_styles(args.style)
    except ValueError as e:
        return _usage_error(str(e))
    if not 0.0 <= args.min_score <= 1.0:
        return _usage_error("--min-score must be between 0 and 1")
    from .review.reasons import ReasonError, parse_reason_args

    try:
        reasons = parse_reason_args(getattr(args, "reason", []) or [])
    except ReasonError as e:
        return _usage_error(str(e))
    disclosure = {"reasons": reasons, "reason_in_output": getattr(args, "reason_in_output", None) or "",
                  "redaction_log": bool(reasons) or bool(getattr(args, "redaction_log", False)),
                  "pictures": getattr(args, "pictures", "review") or "review"}
    terms = None
    if getattr(args, "terms", None):
        from .review.terms import TermList, TermsError

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
    from .cluster.run import cluster_only, run_cluster, wanted  # no Dask import unless a cluster run

    if wanted(args):
        return run_cluster(args, jobs, rows, out_dir)
    if cluster_only(args):
        return _usage_error(cluster_only(args))
    t_start = time.monotonic()

    def summary_json(code: int) -> None:
        if getattr(args, "summary_json", None):
            from .batch import report_chars, write_summary_json

            write_summary_json(Path(args.summary_json), rows, code, time.monotonic() - t_start,
                               sum(report_chars(r.output) for r in rows if r.status == "ok"),
                               processed=sum(1 for r in rows if not r.message.startswith("not processed")))

    if jobs:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            return _usage_error(f"cannot create {out_dir}: {e.strerror or e}")
        try:
            detector = _make_detector(args)
        except DocumentError as e:
            return _usage_error(str(e))
        _sweep_out_tree(out_dir)
        progress = not args.quiet
        live = progress and sys.stderr.isatty()   # a line redrawn in place; else one line per file
        old_term = None
        try:
            old_term = signal.signal(signal.SIGTERM, _on_sigterm)
        except ValueError:      # not the main thread (embedded use): no handler, Ctrl+C still works
            pass
        done = 0
        try:
            for i, job in enumerate(jobs, 1):
                label = f"[{i}/{len(jobs)}] {job.source.name}"
                if live:
                    sys.stderr.write(f"\r{label}")
                    sys.stderr.flush()
                rows.append(redact_one(job, detector, styles, args.min_score, label, live, terms,
                                       overwrite=getattr(args, "overwrite", False),
                                       allow_unreadable=getattr(args, "allow_unreadable", False),
                                       tag_lang=getattr(args, "tag_lang", "auto"), **disclosure))
                done = i
                if progress:
                    sys.stderr.write(f"{chr(13) if live else ''}{label} {rows[-1].status}\n")
        except (KeyboardInterrupt, Terminated) as e:
            code = 143 if isinstance(e, Terminated) else 130
            for job in jobs[done:]:
                rows.append(Row(job.source, None, "FAILED", "not processed: the run was interrupted"))
            sys.stderr.write("\nveil-redact: interrupted; no partial output was left behind\n")
            print_summary(rows)
            summary_json(code)
            return code
        finally:
            if old_term is not None:
                signal.signal(signal.SIGTERM, old_term)
    print_summary(rows)
    summary_json(0)
    return 0 if all(r.status == "ok" for r in rows) else 1

