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
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from .detect.span import DEFAULT_MIN_SCORE
from .masking import DEFAULT_MASK_STYLE, TAG_LANGUAGE_CHOICES, MaskStyle, style_example
from .documents.errors import DocumentError, LeakDetected, NeedsReview
from .documents.export import is_own_output
from .documents.formats import SUPPORTED_FORMATS, is_sidecar, output_name



@dataclass
class Job:
    source: Path
    output: Path


@dataclass
class Row:
    source: Path
    output: Path | None
    status: str                    # "ok", "REVIEW" (needs review, not exported) or "FAILED"
    message: str = ""
    counts: Counter = field(default_factory=Counter)
    seconds: float = 0.0


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
                   "(<output>.redaction-log.csv: where, label, reason, masked form; never the value) is "
                   "written beside each output")
    d.add_argument("--reason-in-output", choices=("long", "short"),
                   help="print the reason beside each mask: long = [비공개 제9조제1항제6호], short = (6호)")
    d.add_argument("--redaction-log", action="store_true",
                   help="write the redaction log also without --reason (default reasons)")
    c = p.add_argument_group("cluster (optional extra veil-desktop[cluster]: Dask distributed; resumable "
                             "manifest .veil-manifest.sqlite in --out)")
    c.add_argument("--workers", type=int, metavar="N", help="run on a local Dask cluster of N worker processes "
                   "(listens on 127.0.0.1 only)")
    c.add_argument("--scheduler", metavar="ADDR", help="run on an existing Dask cluster: tls://HOST:PORT (with "
                   "--tls-ca/--tls-cert/--tls-key); plain tcp:// only on loopback unless --insecure")
    c.add_argument("--scheduler-file", metavar="F", help="the scheduler address from a Dask scheduler file")
    c.add_argument("--tls-ca", metavar="FILE", help="CA certificate for a tls:// scheduler")
    c.add_argument("--tls-cert", metavar="FILE", help="client certificate for a tls:// scheduler")
    c.add_argument("--tls-key", metavar="FILE", help="client key for a tls:// scheduler")
    c.add_argument("--insecure", action="store_true", help="allow a plain tcp:// scheduler that is not loopback")
    c.add_argument("--summary-json", metavar="F", help="write a machine-readable summary to F")
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


def parse_styles(values: list[str]) -> tuple[dict[str, MaskStyle], MaskStyle]:
    styles: dict[str, MaskStyle] = {}
    default = DEFAULT_MASK_STYLE
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

    def out_name(rel: Path) -> Path:            # the one naming rule (documents.formats.output_name)
        return output_name(rel, "txt" if txt else None)

    for raw in inputs:
        p = Path(raw)
        if p.is_dir():
            try:
                found = sorted(p.rglob("*"))
            except OSError as e:        # an unreadable subfolder: that input fails, the rest goes on
                failed.append(Row(p, None, "FAILED", f"cannot list the folder: {e.strerror or e}"))
                continue
            for f in found:
                if not f.is_file() or f.suffix.lower() not in suffixes:
                    continue
                if out_res == f.resolve().parent or out_res in f.resolve().parents:
                    continue  # our own earlier outputs inside an input folder
                if f.name.startswith(".veil-") or is_sidecar(f) or is_own_output(f):
                    continue  # temp files, and outputs of ours (their report names them) from earlier runs
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
        from .detect.default import build_default_detector
        from .detect.model_folder import ModelFolderError
    except ImportError as e:  # the detection core is not installed/complete
        raise DocumentError(f"The detector is not available ({e}).") from None
    try:
        return build_default_detector(model_dir=args.model, threads=args.threads)
    except ModelFolderError as e:
        raise DocumentError(str(e)) from None


def _detect(detector, text: str, label: str, progress: bool) -> list:
    """Every span of ``text`` through the one detector driver (batch slices, bounded memory), with a
    progress bar on stderr."""
    from .detect.driver import detect_spans

    last = [0.0]

    def show(done: int, total: int) -> None:
        now = time.monotonic()
        if progress and now - last[0] >= 0.5:
            last[0] = now
            frac = done / max(1, total)
            sys.stderr.write(f"\r{label} {_bar(frac)} {frac:4.0%}")
            sys.stderr.flush()

    return detect_spans(detector, text, on_progress=show)


def _bar(fraction: float, width: int = 20) -> str:
    n = int(round(fraction * width))
    return "[" + "#" * n + "." * (width - n) + "]"


#: parts of a document its recipient does not see as its text (metadata, settings, attributes, custom XML,
#: chart/memo captions, bookmarks, variables): in batch mode a suggestion there is masked whatever its score
UNSEEN_KINDS = frozenset({
    "settings", "styles", "customxml", "other", "links", "metadata", "attribute", "bookmark", "variable",
    "mail_merge", "object_name", "alt", "alt_title", "glossary", "chart", "memo", "link_tip", "control",
    "form", "field", "scripts", "meta_title", "meta_subject", "meta_keywords", "meta_description",
    "meta_category", "meta_status", "meta_author", "meta_last_modified_by", "meta_company", "meta_manager",
    "meta_template", "meta_custom", "meta_other", "meta_comment_author"})


def build_review(text: str, spans, min_score: float, term_hits=None, document=None):
    """The review the batch decides without a reviewer: every detection at or above ``min_score``
    accepted — and, whatever its score, every suggestion in a part the recipient never sees as text
    (``UNSEEN_KINDS``: metadata, attributes, custom XML, captions outside the body) — the rest pending
    below the threshold (left unmasked, counted); term-list ``mask`` hits accepted with source ``list``."""
    from .review.state import ReviewState, Status

    def unseen(it) -> bool:
        part = document.part_at(it.start) if document is not None and hasattr(document, "part_at") else None
        return part is not None and part.kind in UNSEEN_KINDS

    state = ReviewState(text, threshold=min_score)
    state.add_detected(spans)
    state.restore_items([replace(it, status=Status.ACCEPTED) if it.score >= min_score or unseen(it) else it
                         for it in state])
    if term_hits is not None and term_hits.list_spans:
        from .review.workspace import accept_list_hits

        accept_list_hits(state, term_hits.list_spans)
    return state


def redact_one(job: Job, detector, masker_args: tuple[dict, MaskStyle], min_score: float,
               label: str, progress: bool, terms=None, *, overwrite: bool = False,
               allow_unreadable: bool = False, tag_lang: str = "auto", reasons: dict | None = None,
               reason_in_output: str = "", redaction_log: bool = False, pictures: str = "review") -> Row:
    """Redact one file through the one export core (``review.export_job.export_review``, as the window
    and *Export all* do): detections ≥ ``min_score`` accepted, every copy of an accepted value masked
    too. Never raises for a per-file problem: any exception (``MemoryError`` and ``RecursionError``
    included) becomes this file's ``FAILED`` row with a one-line reason; only ``KeyboardInterrupt``/
    ``SystemExit`` (Ctrl+C, SIGTERM) leave, after the export cleaned up."""
    from .documents import open_document
    from .review.export import PendingPolicy
    from .review.export_job import ExportRequest, export_review

    t0 = time.perf_counter()
    try:
        doc = open_document(job.source, pictures=pictures)
        unreadable = _unreadable_pages(doc)
        if unreadable and not allow_unreadable:
            return Row(job.source, None, "REVIEW",
                       f"needs review: {unreadable} cannot be read as text (scan, picture or a text layer "
                       "that does not match its glyphs); not exported — check it in the window, or rerun "
                       "with --allow-unreadable" + _remove_stale(job.output),
                       seconds=time.perf_counter() - t0)
        spans = _detect(detector, doc.text, label, progress)
        term_hits = None
        if terms:  # review.terms.TermList: keep terms drop detections, mask terms are always accepted
            term_hits = terms.apply(doc.text, spans)
            spans = term_hits.spans
        state = build_review(doc.text, spans, min_score, term_hits, document=doc)
        job.output.parent.mkdir(parents=True, exist_ok=True)
        styles, default = masker_args
        req = ExportRequest(job.output, {k: v.value for k, v in styles.items()}, default.value,
                            PendingPolicy.BLOCK, getattr(detector, "id", ""), mask_copies=True,
                            allow_below_threshold=True, tag_lang=tag_lang, overwrite=overwrite,
                            report_extra={"term_list": term_hits.report(terms)} if term_hits is not None else {},
                            kept_by_list=tuple(term_hits.kept) if term_hits is not None else (),
                            reasons=reasons, reason_in_output=reason_in_output or "",
                            redaction_log=redaction_log, second_opinion=detector.detect)
        res = export_review(doc, state, req)
        below = _below_from_report(res.report)
        note = f"unreadable {unreadable} exported as is (--allow-unreadable)" if unreadable else ""
        if below:
            note = "; ".join(n for n in (note, f"{below} suggestion(s) under {min_score:.2f} left unmasked "
                                               "(--min-score)") if n)
        return Row(job.source, job.output, "ok", note, Counter(res.counts), time.perf_counter() - t0)
    except NeedsReview as e:             # the second opinion: a person must look at a hidden part
        return Row(job.source, None, "REVIEW", "needs review: " + " ".join(str(e).split())
                   + _remove_stale(job.output), seconds=time.perf_counter() - t0)
    except LeakDetected as e:
        msg = f"leak check: {e}"
    except (DocumentError, OSError) as e:
        msg = str(e)
    except MemoryError:
        msg = ("ran out of memory while processing this file (too large, or built to exhaust memory); "
               "split it into smaller files")
    except RecursionError:
        msg = "the file is nested too deeply to be processed (damaged or hostile file)"
    except Exception as e:  # noqa: BLE001 - one bad file must never abort the batch
        msg = (f"unexpected error ({type(e).__name__}); the file could not be redacted — please report "
               "it with the file type and this message")
    msg = " ".join(msg.split())        # one line in the summary
    return Row(job.source, None, "FAILED", msg + _remove_stale(job.output), seconds=time.perf_counter() - t0)


def _below_from_report(report: Path) -> int:
    import json

    return int(json.loads(report.read_text("utf-8")).get("review", {}).get("pending_below_threshold", 0))


def _unreadable_pages(doc) -> str:
    """"page(s) 2, 5" / "2 part(s)" for a document that needs review, "" otherwise."""
    pages = doc.unreadable_pages()
    if pages:
        return "page(s) " + ", ".join(str(p) for p in sorted(pages))
    parts = [u.where for u in doc.unreadable if u.page is None]
    return ", ".join(parts)


def _remove_stale(output: Path) -> str:
    """A failed file must have no output: remove an earlier run's output *of ours* (its report beside it
    records its SHA-256), so a stale redaction is never taken for the current one. A file this tool did
    not write is left alone."""
    from .documents.export import is_own_output, report_path_for

    report = report_path_for(output)
    if is_own_output(output):
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
        name = "".join(c if c.isprintable() else "?" for c in str(r.source))   # one line per file
        if len(name) > name_w:
            name = "…" + name[-(name_w - 1):]
        detail = (", ".join(f"{k} {v}" for k, v in sorted(r.counts.items())) if r.status == "ok"
                  else r.message)
        if r.status == "ok" and r.message:
            detail = f"{detail}; {r.message}" if detail else r.message
        print(f"{name:<{name_w}}  {r.status:<6}  {sum(r.counts.values()):>6}  {r.seconds:>6.1f}  {detail}",
              file=out)
    ok = sum(r.status == "ok" for r in rows)
    review = sum(r.status == "REVIEW" for r in rows)
    failed = len(rows) - ok - review
    print(f"{ok} of {len(rows)} file(s) redacted; "
          + (f"{review} need(s) review (not exported); " if review else "")
          + f"{failed} failed", file=out)


class Terminated(BaseException):
    """Raised in the main thread by the SIGTERM handler: unwinds like Ctrl+C (temp files removed)."""


def _on_sigterm(signum, frame):  # pragma: no cover - exercised by the subprocess test
    raise Terminated()


def _sweep_out_tree(out_dir: Path) -> None:
    """Remove temp files/folders a killed run left anywhere under ``out_dir``."""
    from .documents.export import sweep_stale

    sweep_stale(out_dir)
    try:
        for d in out_dir.rglob("*"):
            if d.is_dir() and not d.name.startswith(".veil-tmp-"):
                sweep_stale(d)
    except OSError:
        pass


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
        old_term = None
        try:
            old_term = signal.signal(signal.SIGTERM, _on_sigterm)
        except ValueError:      # not the main thread (embedded use): no handler, Ctrl+C still works
            pass
        done = 0
        try:
            for i, job in enumerate(jobs, 1):
                label = f"[{i}/{len(jobs)}] {job.source.name}"
                if progress:
                    sys.stderr.write(f"\r{label}")
                    sys.stderr.flush()
                rows.append(redact_one(job, detector, styles, args.min_score, label, progress, terms,
                                       overwrite=getattr(args, "overwrite", False),
                                       allow_unreadable=getattr(args, "allow_unreadable", False),
                                       tag_lang=getattr(args, "tag_lang", "auto"), **disclosure))
                done = i
                if progress:
                    sys.stderr.write(f"\r{label} {rows[-1].status}\n")
        except (KeyboardInterrupt, Terminated) as e:
            code = 143 if isinstance(e, Terminated) else 130
            for job in jobs[done:]:
                rows.append(Row(job.source, None, "FAILED", "not processed: the run was interrupted"))
            sys.stderr.write("\nveil-redact: interrupted; no partial output was left behind\n")
            print_summary(rows)
            return code
        finally:
            if old_term is not None:
                signal.signal(signal.SIGTERM, old_term)
    print_summary(rows)
    return 0 if all(r.status == "ok" for r in rows) else 1
