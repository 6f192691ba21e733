"""The resumable manifest: one SQLite file in ``--out`` (``.veil-manifest.sqlite``), written by the client only.

One row per input file: input path, size, sha256, the settings it was redacted with (a fingerprint of the
options that change the output), status (``pending`` while queued or running, then ``ok``, ``REVIEW`` or
``FAILED``), output path and sha256, report path, the one-line message, counts, seconds and characters.
Rerunning the same command skips a file whose row is ``ok`` or ``REVIEW`` with the same settings, whose
input still has the recorded size and SHA-256, and (for ``ok``) whose output is still ours with the recorded
SHA-256; everything else (``pending`` = interrupted, ``FAILED``, changed input or settings) is redone.
Every change is committed at once, so a killed client loses at most the rows in flight.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path

MANIFEST_NAME = ".veil-manifest.sqlite"
FINISHED = ("ok", "REVIEW")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    source TEXT PRIMARY KEY,
    output TEXT NOT NULL,
    size INTEGER,
    sha256 TEXT,
    settings TEXT NOT NULL,
    status TEXT NOT NULL,
    output_sha256 TEXT,
    report TEXT,
    message TEXT NOT NULL DEFAULT '',
    counts TEXT NOT NULL DEFAULT '{}',
    seconds REAL NOT NULL DEFAULT 0,
    chars INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL
);
"""


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def settings_fingerprint(args) -> str:
    """What changes a file's output: min score, styles, tag language, --txt, --allow-unreadable, the model
    folder and the term list's content."""
    terms = getattr(args, "terms", None)
    terms_sha = ""
    if terms:
        try:
            terms_sha = file_sha256(Path(terms))
        except OSError:
            terms_sha = "unreadable"
    from .. import __version__

    key = {"v": __version__, "min_score": args.min_score, "style": list(args.style),
           "tag_lang": getattr(args, "tag_lang", "auto"), "txt": bool(args.txt),
           "allow_unreadable": bool(getattr(args, "allow_unreadable", False)),
           "model": str(Path(args.model).resolve()) if args.model else "", "terms": terms_sha,
           "pictures": getattr(args, "pictures", "review"), "reason": list(getattr(args, "reason", []) or []),
           "reason_in_output": getattr(args, "reason_in_output", None),
           "redaction_log": bool(getattr(args, "redaction_log", False))}
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]


class Manifest:
    def __init__(self, out_dir: Path):
        self.path = Path(out_dir) / MANIFEST_NAME
        self.db = sqlite3.connect(self.path, timeout=30)
        self.db.execute("PRAGMA journal_mode=DELETE")     # safe on network file systems (no WAL)
        self.db.executescript(_SCHEMA)
        self.db.commit()

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def row(self, source: Path) -> dict | None:
        cur = self.db.execute("SELECT * FROM files WHERE source = ?", (_key(source),))
        r = cur.fetchone()
        if r is None:
            return None
        return dict(zip([c[0] for c in cur.description], r))

    def rows(self) -> list[dict]:
        cur = self.db.execute("SELECT * FROM files ORDER BY source")
        names = [c[0] for c in cur.description]
        return [dict(zip(names, r)) for r in cur.fetchall()]

    def is_done(self, source: Path, output: Path, settings: str) -> dict | None:
        """The finished row to reuse for this file, or ``None`` when it must be (re)done."""
        from ..documents.export import is_own_output

        r = self.row(source)
        if r is None or r["status"] not in FINISHED or r["settings"] != settings or r["output"] != _key(output):
            return None
        try:
            if source.stat().st_size != r["size"] or file_sha256(source) != r["sha256"]:
                return None
            if r["status"] == "ok":
                if not is_own_output(output) or file_sha256(output) != r["output_sha256"]:
                    return None
            elif output.exists() and is_own_output(output):     # REVIEW must have no output of ours
                return None
        except OSError:
            return None
        return r

    def mark_pending(self, jobs, settings: str) -> None:
        """Every file to do is ``pending`` until its result comes back (an interrupted run leaves it so)."""
        now = time.time()
        self.db.executemany(
            "INSERT INTO files (source, output, settings, status, updated) VALUES (?, ?, ?, 'pending', ?) "
            "ON CONFLICT(source) DO UPDATE SET output=excluded.output, settings=excluded.settings, "
            "status='pending', message='', updated=excluded.updated",
            [(_key(j.source), _key(j.output), settings, now) for j in jobs])
        self.db.commit()

    def record(self, results: list[dict], settings: str) -> None:
        """Store the rows a task sent back (one transaction)."""
        now = time.time()
        self.db.executemany(
            "INSERT INTO files (source, output, size, sha256, settings, status, output_sha256, report, message, "
            "counts, seconds, chars, attempts, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?) "
            "ON CONFLICT(source) DO UPDATE SET output=excluded.output, size=excluded.size, sha256=excluded.sha256, "
            "settings=excluded.settings, status=excluded.status, output_sha256=excluded.output_sha256, "
            "report=excluded.report, message=excluded.message, counts=excluded.counts, seconds=excluded.seconds, "
            "chars=excluded.chars, attempts=files.attempts + 1, updated=excluded.updated",
            [(_key(Path(r["source"])), _key(Path(r["job_output"])), r.get("size"), r.get("sha256"), settings,
              r["status"], r.get("output_sha256"), r.get("report"), r.get("message", ""),
              json.dumps(r.get("counts", {}), sort_keys=True), float(r.get("seconds", 0.0)),
              int(r.get("chars", 0)), now) for r in results])
        self.db.commit()


def _key(p: Path) -> str:
    return str(Path(p).resolve())
