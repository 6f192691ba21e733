"""One file of a batch (``veil-redact redact``, and each task of ``veil_desktop.cluster``): collect the
jobs of the inputs, open -> detect (the one detector driver) -> decide without a reviewer
(:func:`build_review`) -> the one export core (``review.export_job.export_review``) -> a summary row.
No argument parsing here (``redact_cli.py``), no Qt.

Never raises for a per-file problem: every failure is that file's ``FAILED`` (or ``REVIEW``) row.
"""
from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from .documents.errors import DocumentError, LeakDetected, NeedsReview
from .documents.export import is_own_output
from .documents.formats import SUPPORTED_FORMATS, is_sidecar, output_name
from .masking import DEFAULT_MASK_STYLE, MaskStyle

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


def report_chars(output: Path | None) -> int:
    """Characters of text the report beside ``output`` says its input held (0 when there is none)."""
    import json

    from .documents.export import report_path_for

    if output is None:
        return 0
    try:
        return int(json.loads(report_path_for(output).read_text("utf-8"))["input"].get("text_length", 0))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return 0


def write_summary_json(path: Path, rows: list[Row], code: int, wall: float, chars: int, **extra) -> None:
    """``--summary-json``: the run's exit code, counts per status, speed and one entry per file (the same
    fields for a single-process and a cluster run; ``extra`` adds the cluster's scheduler/worker fields),
    written atomically."""
    import json
    import os

    status = Counter(r.status for r in rows)
    data = {
        "exit_code": code if code else (0 if all(r.status == "ok" for r in rows) else 1),
        "files": len(rows), "ok": status["ok"], "review": status["REVIEW"], "failed": status["FAILED"],
        "not_processed": sum(1 for r in rows if r.message.startswith("not processed")),
        "seconds": round(wall, 3), "chars": chars,
        "chars_per_s": round(chars / wall, 1) if wall else None,
        **extra,
        "rows": [{"source": str(r.source), "output": str(r.output) if r.output else None, "status": r.status,
                  "message": r.message, "counts": dict(r.counts), "seconds": round(r.seconds, 3)} for r in rows],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), "utf-8")
    os.replace(tmp, path)
