"""Benchmark: every real HWPX sample (``../shared/data/hwpx-samples/``, files saved by Hancom Office that
no one here wrote) through open → export → package check.

Per file:
1. ``open_document`` (a ``DocumentError`` is FAILED: open, with its message);
2. export with nothing masked (empty plan): the output re-opened must show the same reviewable text
   as the input outside the "removed" part (which shows authors etc. that are always blanked); where
   the input had parts removed (OLE objects), whole lines missing (the object's own caption, which
   leaves with it) are reported per file, anything else is FAILED;
3. export with planted values masked: ``PLANT`` (a name and a phone number) written into the first
   ``hp:t`` of section 0 by zipfile+lxml (``plant``, not our writer), opened, both masked; neither value
   may survive in any member of the output (UTF-8/UTF-16, tags stripped) and the re-opened output
   shows ``[PERSON]`` and ``[PHONE]``;
   (information only, column ``first_word``) the first Hangul word of the body masked in the original:
   a common word can also sit in a style name, where the leak check refuses the export;
4. all outputs pass the package check of ``tests/test_hwpx_package.py`` (CRCs, mimetype first and
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


PLANT = {"한가람": "PERSON", "010-2468-1357": "PHONE"}


def plant(src: bytes) -> bytes:
    """``src`` with ``PLANT``'s values written into the first ``hp:t`` of ``Contents/section0.xml`` (a new
    ``hp:t`` in the first run if there is none) — by zipfile and lxml, not by the product's writer."""
    import io
    import zipfile

    from lxml import etree
    hp = "{http://www.hancom.co.kr/hwpml/2011/paragraph}"
    zin = zipfile.ZipFile(io.BytesIO(src))
    root = etree.fromstring(zin.read("Contents/section0.xml"))
    t = next(root.iter(hp + "t"), None)
    if t is None:
        t = etree.SubElement(next(root.iter(hp + "run")), hp + "t")
    t.text = "담당 " + " ".join(PLANT) + " " + (t.text or "")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "Contents/section0.xml":
                data = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
            zout.writestr(info, data, compress_type=info.compress_type)
    return buf.getvalue()


def surviving(out: bytes, values) -> list[str]:
    """Members of ``out`` in which any of ``values`` is still found (UTF-8, UTF-16LE; tags stripped)."""
    import io
    import zipfile
    found = []
    with zipfile.ZipFile(io.BytesIO(out)) as z:
        for n in z.namelist():
            b = z.read(n)
            views = [b.decode("utf-8", "replace"), b.decode("utf-16-le", "replace")]
            views += [re.sub(r"<[^>]+>", "", v) for v in views]
            if any(v in view for v in values for view in views):
                found.append(n)
    return found


def _lost_lines(before: str, after: str) -> int | None:
    """How many lines of ``before`` are missing in ``after`` if ``after``'s lines are ``before``'s in
    order with some left out (None if anything else changed)."""
    a, b = before.split("\n"), after.split("\n")
    j = 0
    for line in a:
        if j < len(b) and b[j] == line:
            j += 1
    return len(a) - len(b) if j == len(b) else None


def run_one(path: Path, tmp: Path, chk, first_word: bool = True) -> dict:
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
        # 3. planted values masked (what counts)
        planted = tmp / ("planted_" + path.name)
        planted.write_bytes(plant(src))
        pdoc = open_document(planted)
        spans = []
        for v, label in PLANT.items():
            i = pdoc.text.find(v)
            if i < 0:
                r.update(status="FAILED", stage="plant", reason=f"planted {label} not shown for review")
                return r
            spans.append(Span(i, i + len(v), label, 0.99, "rule"))
        masker = Masker()
        out1 = tmp / ("masked_" + path.name)
        export_document(pdoc, masker.plan(pdoc.text, propagate_spans(pdoc.text, spans)), out1, styles=masker)
        left = surviving(out1.read_bytes(), PLANT)
        again = open_document(out1)
        if left or "[PERSON]" not in kept_text(again) or "[PHONE]" not in kept_text(again):
            r.update(status="FAILED", stage="export-masked",
                     reason=f"planted value left in {left}" if left else "mask missing")
            return r
        worse = chk.no_worse(src, out1.read_bytes())
        if worse:
            r.update(status="FAILED", stage="package-masked", reason="; ".join(worse)[:300])
            return r
        # 4. (information only) the first body word masked: a common word also in style names etc.
        value = pick_value(doc, kept_text(doc)) if first_word else None
        r["first_word"] = "none" if first_word else "not tried"
        if value:
            i = doc.text.find(value)
            sp = propagate_spans(doc.text, [Span(i, i + len(value), "PERSON", 0.99, "rule")])
            try:
                export_document(doc, masker.plan(doc.text, sp), tmp / ("word_" + path.name), styles=masker)
                r["first_word"] = "exported"
            except LeakDetected as e:
                r["first_word"] = "refused by the leak check: " + ", ".join(list(e.locations)[:2])
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
            if r.get("first_word", "").startswith("refused"):
                extra += f" [first word: {r['first_word']}]"
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
