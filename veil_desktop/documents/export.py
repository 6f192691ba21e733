"""``export_document``: write a masked copy, verify it, publish it atomically, write the report.

Order of operations (each step fails closed — on any error nothing is left at ``out_path``):
1. refuse the source path (also via a hard link) and unsupported output types;
2. re-read the source and check it is byte-identical to what was opened (the plan refers to that text);
3. refuse if the plan masks a value that also appears unmasked elsewhere in the reviewable text;
4. build the output bytes with the format's writer (in memory; the source file is only read);
5. write them to a temp file in a private folder next to the output (``.veil-tmp-<pid>-*``, mode 0700,
   removed on every exit path; one left by a killed process is swept by the next export into that
   folder), fsync, re-read that file from disk and run the independent leak check (``leakcheck``) on
   what is actually there;
6. ``os.replace`` the temp file onto ``out_path`` and write ``<out_path>.report.json`` the same way.

An existing file at ``out_path`` is replaced only with ``overwrite=True`` (the window asks first) or when
it is an earlier output of this tool (``is_own_output``: its report beside it records its SHA-256).

Thread-safety: no module state but the set of folders already swept for stale temp files (behind a lock);
safe to call from a worker thread (one call per document at a time).
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..masking import Masker, MaskStyle, Replacement
from . import leakcheck
from .errors import DocumentError, LeakDetected, NeedsReview
from .formats import format_of, spec, writer_for
from .limits import ResourceLimit, document_budget
from .matching import ValueMatcher, find_unmasked_copies, masked_values, strip_separators
from .model import Document, ExportResult
from .report import build_report, dumps


def report_path_for(out_path: Path) -> Path:
    return out_path.with_name(out_path.name + ".report.json")


def _validate_plan(doc: Document, plan: list[Replacement]) -> list[Replacement]:
    plan = sorted(plan, key=lambda r: r.start)
    pos = 0
    for r in plan:
        if not (0 <= r.start < r.end <= len(doc.text)):
            raise DocumentError(f"A replacement ({r.start}..{r.end}) lies outside the document text; "
                                "the review does not match this document.")
        if r.start < pos:
            raise DocumentError("The masking plan has overlapping replacements.")
        pos = r.end
    return plan


def _copy_replacements(text: str, plan: list[Replacement], copies: list[tuple[int, int]],
                       misread: "dict[tuple[int, int], str] | None" = None) -> list[Replacement]:
    """Replacements for unmasked copies: same label and replacement text as the value's first mask
    (``misread``: copies OCR read otherwise -> the core of the value they are, ``ocr_copies``)."""
    first: dict[str, Replacement] = {}
    for r in plan:
        first.setdefault(strip_separators(text[r.start:r.end]), r)
    out: list[Replacement] = []
    for a, b in sorted(copies, key=lambda c: (c[0], -c[1])):
        if out and a < out[-1].end:
            continue  # overlaps the copy before it: masking that one already breaks this one up
        r = first.get(strip_separators(text[a:b])) or first.get((misread or {}).get((a, b), ""))
        if r is not None:
            out.append(Replacement(a, b, r.text, r.label))
    return out


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.resolve() == b.resolve():
            return True
        return b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


PRIVATE_PREFIX = ".veil-tmp-"
_PRIVATE_DIR = re.compile(r"^\.veil-tmp-(\d+)-[A-Za-z0-9_]+$")
_LEGACY_PART = re.compile(r"^\.veil-[A-Za-z0-9_]{8}\.part$")   # temp files of versions before 0700 dirs
STALE_SECONDS = 24 * 3600


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def sweep_stale(folder: Path) -> list[str]:
    """Remove temp files/folders a killed export left in ``folder``: private folders of processes that
    no longer run (or older than a day) and legacy ``.veil-*.part`` files. Returns the names removed."""
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for e in entries:
        try:
            m = _PRIVATE_DIR.match(e.name)
            if m and e.is_dir(follow_symlinks=False):
                if _pid_alive(int(m.group(1))) and now - e.stat(follow_symlinks=False).st_mtime < STALE_SECONDS:
                    continue
                shutil.rmtree(e.path, ignore_errors=True)
                removed.append(e.name)
            elif _LEGACY_PART.match(e.name) and e.is_file(follow_symlinks=False):
                os.unlink(e.path)
                removed.append(e.name)
        except OSError:
            continue
    return removed


_SWEPT: set[str] = set()          # folders already swept by this process (the module's only state)
_SWEPT_LOCK = threading.Lock()


class PrivateDir:
    """A per-call private temp folder next to the output (mode 0700), removed on exit whatever happens
    (exceptions, ``KeyboardInterrupt``, a ``SystemExit`` raised by a SIGTERM handler)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path: Path | None = None

    def __enter__(self) -> Path:
        key = str(self.folder.resolve())
        with _SWEPT_LOCK:                     # once per folder and process: a batch writes many files
            first = key not in _SWEPT
            _SWEPT.add(key)
        if first:
            sweep_stale(self.folder)
        try:
            self.path = Path(tempfile.mkdtemp(prefix=f"{PRIVATE_PREFIX}{os.getpid()}-", dir=self.folder))
        except OSError as e:
            raise DocumentError(f"Cannot write into the folder {self.folder}: {e.strerror or e}.") from None
        return self.path

    def __exit__(self, *exc) -> None:
        if self.path is not None:
            shutil.rmtree(self.path, ignore_errors=True)
            self.path = None


def _write_atomic(path: Path, data: bytes, verify=None) -> None:
    """Write ``data`` to ``path`` via a temp file in a private folder beside it; ``verify(temp_path)``
    may raise. Nothing is left behind on any exit path."""
    folder = path.parent
    if not folder.is_dir():
        raise DocumentError(f"The output folder does not exist or is not a folder: {folder}")
    with PrivateDir(folder) as private:
        tmp = private / (".veil-" + os.urandom(4).hex() + ".part")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        except OSError as e:
            raise DocumentError(_write_message(path, e)) from None
        if verify is not None:
            verify(tmp)
        try:
            os.replace(tmp, path)
        except OSError as e:
            raise DocumentError(_write_message(path, e)) from None


def is_own_output(out: Path) -> bool:
    """True if ``out`` was written by this tool: the report beside it names it and records its SHA-256."""
    report = report_path_for(out)
    try:
        if not out.is_file() or not report.is_file() or report.stat().st_size > 256 * 1024 * 1024:
            return False
        data = json.loads(report.read_bytes())
        rec = data.get("output") if isinstance(data, dict) else None
        if not isinstance(rec, dict) or rec.get("name") != out.name:
            return False
        h = hashlib.sha256()
        with open(out, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return rec.get("sha256") == h.hexdigest()
    except (OSError, ValueError, RecursionError):
        return False


def _check_overwrite(out: Path, overwrite: bool) -> None:
    if overwrite:
        return
    report = report_path_for(out)
    if (out.exists() or report.exists()) and not is_own_output(out):
        which = out if out.exists() else report
        raise DocumentError(f"{which.name} already exists in {which.parent} and was not written by this "
                            "tool; it was left untouched. Choose another output folder or name, or allow "
                            "overwriting (veil-redact: --overwrite).")


def _write_message(path: Path, e: OSError) -> str:
    if e.errno == errno.ENOSPC:
        return f"The disk is full; {path.name} was not written (nothing was left behind)."
    if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"No permission to write {path}; choose another output folder."
    return f"Could not write {path}: {e.strerror or e}."


#: the built-in independent checks, by ``Format.leak_check`` kind (a format may bring its own ``check``)
BUILTIN_CHECKS = {"text": leakcheck.check_text_bytes, "zip": leakcheck.check_zip_bytes,
                  "pdf": leakcheck.check_pdf_bytes, "image": leakcheck.check_image_bytes}


def leak_check_for(out_fmt: str):
    """``(kind, check)`` for an output of suffix ``out_fmt`` (``txt`` = text), from the format registry."""
    if out_fmt == "txt":
        return "text", BUILTIN_CHECKS["text"]
    f = spec(out_fmt)
    return f.leak_check, f.check or BUILTIN_CHECKS[f.leak_check]


def export_document(doc: Document, plan: Iterable[Replacement], out_path: "str | os.PathLike[str]", *,
                    detector_id: str = "", threshold: float | None = None,
                    styles: "Mapping[str, MaskStyle | str] | Masker | None" = None,
                    default_style: "MaskStyle | str | None" = None,
                    decisions: Iterable[Any] | None = None,
                    warnings: Iterable[str] = (), mask_copies: bool = False,
                    review: "Mapping[str, Any] | None" = None,
                    overwrite: bool = True, tag_language: str | None = None,
                    report_extra: "Mapping[str, Any] | None" = None,
                    second_opinion=None) -> ExportResult:
    """Write ``doc`` with ``plan`` applied to ``out_path`` (same format, or ``.txt``); see module doc.

    ``mask_copies``: a value the plan masks that also occurs unmasked elsewhere is refused by default
    (``LeakDetected`` naming where); with ``True`` those copies are masked too, with the same replacement
    text as the value's first replacement, and listed under ``propagated`` in the report.

    ``overwrite``: with ``False`` an existing ``out_path`` (or report) that this tool did not write is
    refused (``DocumentError``); an earlier output of this tool (``is_own_output``) is replaced.

    ``report_extra``: further top-level report sections (no document text), written with the report.

    ``second_opinion(data, kind) -> (blocking, possible)``: detection run again over the output's text
    views before it is published (``documents.second_opinion``); a blocking finding fails closed
    (``LeakDetected`` naming the place), possible misses go into the report.

    Raises ``DocumentError`` (clear message, nothing written) or ``LeakDetected`` (output deleted).
    """
    try:
        with document_budget(f".{doc.format} file", export=True):
            return _export(doc, plan, out_path, detector_id=detector_id, threshold=threshold,
                           styles=styles, default_style=default_style, decisions=decisions,
                           warnings=warnings, mask_copies=mask_copies, review=review,
                           overwrite=overwrite, tag_language=tag_language, report_extra=report_extra,
                           second_opinion=second_opinion)
    except MemoryError:
        raise ResourceLimit(f"Ran out of memory while exporting {doc.path.name}; nothing was written. "
                            "Split the document into smaller files.") from None
    except RecursionError:
        raise DocumentError(f"{doc.path.name} is nested too deeply to be exported; nothing was written.") \
            from None


def _export(doc: Document, plan: Iterable[Replacement], out_path, *, detector_id, threshold, styles,
            default_style, decisions, warnings, mask_copies, review, overwrite, tag_language,
            report_extra=None, second_opinion=None) -> ExportResult:
    out = Path(out_path)
    out_fmt = format_of(out)
    writer = writer_for(doc.format, out_fmt)  # raises UnsupportedFormat naming the choices
    if _same_file(doc.path, out) or _same_file(doc.path, report_path_for(out)):
        raise DocumentError("The output would overwrite the original document; choose another name "
                            "or folder.")
    if not out.parent.is_dir():
        raise DocumentError(f"The output folder does not exist or is not a folder: {out.parent}")
    if out.is_dir():
        raise DocumentError(f"{out} is a folder; choose a file name.")
    _check_overwrite(out, overwrite)
    if isinstance(styles, Masker):  # the Masker that built the plan: record its styles, default, tag language
        default_style = default_style or styles.default
        tag_language = tag_language or styles.lang
        styles = styles.styles
    plan = _validate_plan(doc, list(plan))

    try:
        source = doc.path.read_bytes()
    except OSError as e:
        raise DocumentError(f"Cannot read the original {doc.path.name}: {e.strerror or e}.") from None
    if hashlib.sha256(source).hexdigest() != doc.sha256:
        raise DocumentError(f"{doc.path.name} changed on disk since it was opened; open it again.")

    removed = [(p.start, p.end) for p in doc.parts if p.removed]
    from .ocr_copies import lookalike_copies

    misread = {(a, b): core for a, b, core in lookalike_copies(doc, doc.text, plan)}   # OCR read them otherwise
    copies = [(a, b) for a, b in find_unmasked_copies(doc.text, plan) + list(misread)
              if not any(s <= a and b <= e for s, e in removed)]  # removed parts are not written
    propagated: list[Replacement] = []
    if copies and mask_copies:
        propagated = _copy_replacements(doc.text, plan, copies, misread)
        plan = _validate_plan(doc, plan + propagated)
    elif copies:
        where = [f"{(doc.part_at(a).name if doc.part_at(a) else '?')} at character {a}"
                 for a, _ in copies[:10]]
        raise LeakDetected(
            f"{len(copies)} unmasked cop{'y' if len(copies) == 1 else 'ies'} of masked values remain "
            f"in the text (first: {where[0]}); mask them too before exporting.", where)

    out_bytes = writer(doc, plan, source)

    # the values as they are in the file (boilerplate such as part headers left out)
    matcher = ValueMatcher(masked_values(doc.text, plan, content_of=doc.content_of))
    summary: dict[str, Any] = {}

    def verify(tmp: Path) -> None:
        data = tmp.read_bytes()  # what is really on disk, not what we meant to write
        kind, check = leak_check_for(out_fmt)
        with document_budget("output", export=True, fresh=True):   # its own running total
            rep = check(data, matcher) if matcher else leakcheck.LeakReport()
            ocr_read = set(doc.extra.get("pdf_ocr") or ())
            ocr_read |= {pic.page for pic in doc.extra.get("pdf_pictures") or ()}
            if kind == "pdf" and matcher and ocr_read:   # scanned pages, reviewed pictures: read them again
                extra = leakcheck.check_pdf_ocr(data, matcher, sorted(ocr_read))
                rep.scanned += extra.scanned
                rep.hits += extra.hits
            if kind in ("zip", "hwp") and matcher and doc.extra.get("picture_pages"):   # reviewed pictures
                extra = leakcheck.check_package_pictures(data, matcher)
                rep.scanned += extra.scanned
                rep.hits += extra.hits
        summary.update({"method": kind, "values_checked": len(matcher.cores),
                        "unverifiable": matcher.unverifiable, "views_scanned": len(rep.scanned),
                        "result": "clean" if rep.clean else "leak"})
        if not rep.clean:
            raise LeakDetected(
                f"A masked value was still found in the output ({rep.hits[0]}); the output was deleted "
                "and the original is untouched. Open the file in the window and mask that copy too (it may be "
                "escaped, split or hidden in metadata or an attribute), or remove it from the original, then "
                "export again.", rep.hits)
        if second_opinion is not None:
            from .second_opinion import summary as opinion_summary

            with document_budget("output", export=True, fresh=True):
                blocking, possible = second_opinion(data, kind)
            summary["second_opinion"] = opinion_summary(blocking, possible)
            if blocking:
                where = ", ".join(f"{f.label} in {f.place}" for f in blocking[:3])
                raise NeedsReview(
                    f"The second opinion found what looks like personal information where no reviewer sees "
                    f"it ({where}); the output was deleted and the file needs review. Open it in the window, "
                    "look at that part (document properties, settings, attributes) and mask or remove it.",
                    [f"{f.label} in {f.place}" for f in blocking])
        summary["output_sha256"] = hashlib.sha256(data).hexdigest()

    _write_atomic(out, out_bytes, verify)

    report_file = report_path_for(out)
    report = build_report(doc, plan, output_name=out.name, output_format=out_fmt,
                          output_sha256=summary["output_sha256"], output_size=len(out_bytes),
                          detector_id=detector_id, threshold=threshold, styles=styles,
                          default_style=default_style, decisions=decisions, tag_language=tag_language,
                          leak_check={k: v for k, v in summary.items() if k not in ("output_sha256", "second_opinion")},
                          propagated=propagated,
                          warnings=list(warnings) + list(doc.notes), review=review)
    if "second_opinion" in summary:
        report["second_opinion"] = summary["second_opinion"]
    for key, value in (report_extra or {}).items():
        if key in report:
            raise ValueError(f"report section {key!r} is the export's own")
        report[key] = value
    try:
        _write_atomic(report_file, dumps(report))
    except DocumentError:
        out.unlink(missing_ok=True)  # an export without its report is not a finished export
        raise
    return ExportResult(source=doc.path, output=out, report=report_file, format=out_fmt,
                        replacements=len(plan), counts=dict(report["counts"]),
                        input_sha256=doc.sha256, output_sha256=summary["output_sha256"],
                        leak_check=report["leak_check"], warnings=tuple(report["warnings"]))
