"""Benchmark: every real HWPX sample (``../shared/data/hwpx-samples/``, files saved by Hancom Office that
no one here wrote) through open → export → package check.

Per file:
1. ``open_document`` (a ``DocumentError`` is FAILED: open, with its message);
2. export with nothing masked (empty plan): the output re-opened must show the same reviewable text
   as the input outside the "removed" part (which shows authors etc. that are always blanked); where
   the input had parts removed (OLE objects), whole lines missing (the object's own caption, which
   leaves with it) are reported per file, anything else is FAILED;
3. export with one value masked: the first word of at least two Hangul letters (or, failing that, a
   Latin word) in the body's own text (``pick_value``: slots of body/section parts, never captions) is
   masked as a PERSON with all its copies (``propagate_spans``); the output re-opened must show it
   that many times fewer (copies glued inside a longer word are no span and stay) and show
   ``[PERSON]``; a blank document has nothing to mask;
4. both outputs pass the package check of ``tests/test_hwpx_package.py`` (CRCs, mimetype first and
   stored, manifest entries present, declared XML well-formed, content.hpf references resolved) no
   worse than the input.
A document whose ``unreadable`` list is not empty (e.g. a picture that holds text) is counted as
"held for review" (the batch CLI holds it back) with its reasons; it is still exported here.

Run: ``nice .venv/bin/python benchmarks/bench_hwpx_samples.py [--dir DIR] [--json OUT]``
Exit status 1 if any file FAILED.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("VEIL_SHARED", ROOT.parent / "shared"))


def _checker():
    spec = importlib.util.spec_from_file_location("hwpx_package_check", ROOT / "tests" / "test_hwpx_package.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def kept_text(doc) -> str:
    return "".join(doc.text[p.start:p.end] for p in doc.parts if not p.removed)


def pick_value(doc, published: str) -> str | None:
    """The first word of two or more Hangul letters (else letters/digits) inside the text of a body or
    section part's slots (never a caption or a part header) that the unmasked export still shows
    (``published``: not text that leaves with a removed object), or None (a blank document)."""
    body = {(p.start, p.end) for p in doc.parts if p.kind in ("body", "section") and not p.removed}
    for pat in (r"[가-힣]{2,}", r"[A-Za-z가-힣][0-9A-Za-z가-힣]+"):
        for seg in doc.segments:
            if not any(s <= seg.start and seg.end <= e for s, e in body):
                continue
            for m in re.finditer(pat, doc.text[seg.start:seg.end]):
                if m.group(0) in published:
                    return m.group(0)
    return None


def _lost_lines(before: str, after: str) -> int | None:
    """How many lines of ``before`` are missing in ``after`` if ``after``'s lines are ``before``'s in
    order with some left out (None if anything else changed)."""
    a, b = before.split("\n"), after.split("\n")
    j = 0
    for line in a:
        if j < len(b) and b[j] == line:
            j += 1
    return len(a) - len(b) if j == len(b) else None


def run_one(path: Path, tmp: Path, chk) -> dict:
    from veil_desktop.detect.span import Span
    from veil_desktop.documents import DocumentError, LeakDetected, export_document, open_document, \
        propagate_spans
    from veil_desktop.masking import Masker

    r: dict = {"file": path.name, "status": "ok", "reason": "", "held": []}
    src = path.read_bytes()
    r["input_problems"] = chk.package_problems(src)
    t0 = time.perf_counter()
    try:
        doc = open_document(path)
    except DocumentError as e:
        r.update(status="FAILED", stage="open", reason=str(e)[:300])
        return r
    r["open_s"] = round(time.perf_counter() - t0, 3)
    r["held"] = sorted({f"{u.reason}: {u.caption_en}" for u in doc.unreadable})
    try:
        out0 = tmp / ("plain_" + path.name)
        export_document(doc, [], out0)
        again = open_document(out0)
        if kept_text(again) != kept_text(doc):
            lost = _lost_lines(kept_text(doc), kept_text(again))
            if lost is None or not doc.extra.get("removed_members"):
                r.update(status="FAILED", stage="export-unmasked", reason="re-opened text differs from input")
                return r
            # only whole lines gone, and the input had parts removed (an OLE object's own caption text
            # goes with the object): reported, not a failure
            r["lines_gone_with_removed_objects"] = lost
        worse = chk.no_worse(src, out0.read_bytes())
        if worse:
            r.update(status="FAILED", stage="package-unmasked", reason="; ".join(worse)[:300])
            return r
        value = pick_value(doc, kept_text(again))
        r["masked_value_len"] = len(value) if value else 0
        if value:
            i = doc.text.find(value)
            spans = propagate_spans(doc.text, [Span(i, i + len(value), "PERSON", 0.99, "rule")])
            masker = Masker()
            out1 = tmp / ("masked_" + path.name)
            export_document(doc, masker.plan(doc.text, spans), out1, styles=masker)
            again = open_document(out1)
            kept = [(p.start, p.end) for p in doc.parts if not p.removed]
            masked = sum(1 for sp in spans if any(a <= sp.start and sp.end <= b for a, b in kept))
            left = kept_text(doc).count(value) - masked   # copies glued into a longer word are not spans
            r["masked_copies"] = masked
            if kept_text(again).count(value) != left or "[PERSON]" not in again.text:
                r.update(status="FAILED", stage="export-masked", reason="value still shown or mask missing")
                return r
            worse = chk.no_worse(src, out1.read_bytes())
            if worse:
                r.update(status="FAILED", stage="package-masked", reason="; ".join(worse)[:300])
                return r
    except (DocumentError, LeakDetected) as e:
        r.update(status="FAILED", stage="export", reason=f"{type(e).__name__}: {str(e)[:300]}")
        return r
    except Exception as e:  # noqa: BLE001 - a traceback is a failure to report, not to crash on
        r.update(status="FAILED", stage="export", reason=f"{type(e).__name__} (traceback): {str(e)[:200]}")
        return r
    if r["held"]:
        r["status"] = "held"
    return r


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", type=Path, default=SHARED / "data" / "hwpx-samples")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    files = sorted(a.dir.glob("*.hwpx"))
    if not files:
        print(f"no .hwpx files in {a.dir}")
        return 2
    chk = _checker()
    rows = []
    with tempfile.TemporaryDirectory() as td:
        for f in files:
            r = run_one(f, Path(td), chk)
            rows.append(r)
            extra = r["reason"] or "; ".join(r["held"])
            if r.get("lines_gone_with_removed_objects"):
                extra += f" ({r['lines_gone_with_removed_objects']} line(s) left with removed objects)"
            print(f"{r['status']:7} {f.name:48} in-problems={len(r['input_problems'])} {r.get('stage', '')} "
                  f"{extra}"[:400])
    opened = sum(1 for r in rows if r.get("stage") != "open")
    exported = sum(1 for r in rows if r["status"] in ("ok", "held"))
    held = sum(1 for r in rows if r["status"] == "held")
    failed = sum(1 for r in rows if r["status"] == "FAILED")
    print(f"\nfiles {len(rows)}  opened {opened}  exported {exported}  held for review {held}  failed {failed}")
    if a.json:
        a.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
