"""HWP 5 in-place writer over real Hancom documents (default: ../shared/data/hwp-samples).

For each file: read it (or print why it is refused), export it with nothing masked, then plant a name and
a phone number into its longest plain run of text with our own writer and export it with that value
masked. Printed per file:

- ``refused``: the reader's message (password, distribution, HWP 3 ...);
- ``same``: the unmasked export's text equals the original's (our reader);
- ``h5 in/out``: pyhwp's ``hwp5txt`` (an independent reader; dev extra, test-only) opens the input /
  the masked output;
- ``kept %``: characters of the input's hwp5txt text kept in the *unmasked* export's hwp5txt text
  (``difflib`` matching blocks / input length; hwp5txt shows tables and shapes as markers only; when
  hwp5txt cannot read the input, our reader's text is compared instead);
- ``outside``: the masked output's hwp5txt text equals the planted file's outside the masked span (the
  planted value and its same-length mask removed from each);
- ``leak``: the planted value was found anywhere in the masked output (``leakcheck_hwp``) — must be no;
- ``review``: the document needs review (a picture holds text or could not be checked).

Run: ``.venv/bin/python benchmarks/bench_hwp_samples.py [FOLDER]`` (about 2 minutes on 2 cores).
"""
from __future__ import annotations

import difflib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from veil_desktop.documents.errors import DocumentError  # noqa: E402
from veil_desktop.documents.hwp import read_hwp, write_hwp  # noqa: E402
from veil_desktop.documents.hwp_records import fit  # noqa: E402
from veil_desktop.documents.leakcheck_hwp import check_hwp_bytes  # noqa: E402
from veil_desktop.documents.limits import ResourceLimit  # noqa: E402
from veil_desktop.documents.matching import ValueMatcher  # noqa: E402
from veil_desktop.masking import Replacement  # noqa: E402

PLANT = "홍길동 010-9876-5432"


def hwp5txt(path: Path) -> str | None:
    exe = Path(sys.executable).with_name("hwp5txt")
    r = subprocess.run([str(exe), str(path)], capture_output=True, timeout=300)
    return r.stdout.decode("utf-8", "replace") if r.returncode == 0 else None


def kept(a: str, b: str) -> float:
    if not a:
        return 100.0
    m = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return 100.0 * sum(x.size for x in m.get_matching_blocks()) / len(a)


def main(folder: Path) -> None:
    files = sorted(folder.glob("*.hwp"))
    rows, totals = [], {"files": len(files), "refused": 0, "same": 0, "h5_out": 0, "h5_in": 0,
                        "planted": 0, "leaks": 0, "review": 0,
                        "outside": 0}
    kept_all: list[float] = []
    tmp = Path(tempfile.mkdtemp(prefix="bench_hwp_"))
    print(f"{'file':40} {'result':9} {'same':5} {'h5 in':6} {'h5 out':6} {'kept %':7} {'outside':8} "
          f"{'leak':5} review")
    for f in files:
        data = f.read_bytes()
        try:
            doc = read_hwp(f, data)
        except (DocumentError, ResourceLimit) as e:
            totals["refused"] += 1
            print(f"{f.name:40} refused   {str(e)[:70]}")
            continue
        same_out = write_hwp(doc, [], data)
        (tmp / "same.hwp").write_bytes(same_out)
        same = read_hwp(tmp / "same.hwp", same_out).text == doc.text
        runs = [(m.end() - m.start(), s.start + m.start()) for s in doc.segments
                for m in re.finditer(r"[^\t\n]+", doc.text[s.start:s.end])]
        room, start = max(runs, default=(0, 0))
        src, cur, value = data, doc, None
        if room >= 2:
            value = PLANT if room > len(PLANT) else PLANT[:min(3, room)]
            cover = value + " " if room > len(value) else value
            src = write_hwp(doc, [Replacement(start, start + len(cover), cover, "PERSON")], data)
            (tmp / "planted.hwp").write_bytes(src)
            cur = read_hwp(tmp / "planted.hwp", src)
            totals["planted"] += 1
        plan = [Replacement(start, start + len(value), "[PERSON]", "PERSON")] if value else []
        out = write_hwp(cur, plan, src)
        (tmp / "out.hwp").write_bytes(out)
        leak = bool(value) and not check_hwp_bytes(out, ValueMatcher([value])).clean
        h_in, h_same, h_out = hwp5txt(f), hwp5txt(tmp / "same.hwp"), hwp5txt(tmp / "out.hwp")
        ours = read_hwp(tmp / "same.hwp", same_out).text
        k = kept(h_in, h_same or "") if h_in is not None else kept(doc.text, ours)
        outside = None
        if value and h_out is not None:
            h_planted = hwp5txt(tmp / "planted.hwp") or ""
            outside = h_planted.replace(value, "") == h_out.replace(fit("[PERSON]", len(value)), "")
            totals["outside"] += bool(outside)
        kept_all.append(k)
        totals["same"] += same
        totals["h5_in"] += h_in is not None
        totals["h5_out"] += h_out is not None
        totals["leaks"] += leak
        totals["review"] += doc.needs_review
        print(f"{f.name:40} {'ok':9} {str(same):5} {str(h_in is not None):6} {str(h_out is not None):6} "
              f"{k:7.1f} {str(outside):8} {str(leak):5} {doc.needs_review}")
        rows.append(f.name)
    n = len(rows)
    print()
    print(f"files {totals['files']}: written {n}, refused {totals['refused']}; unmasked export unchanged "
          f"{totals['same']}/{n}; hwp5txt opens {totals['h5_in']}/{n} inputs and {totals['h5_out']}/{n} "
          f"outputs; planted+masked {totals['planted']} (hwp5txt text equal outside the mask "
          f"{totals['outside']}), leaks {totals['leaks']}; needs review "
          f"{totals['review']}; kept text (unmasked export, hwp5txt) min {min(kept_all, default=0):.1f} % mean "
          f"{sum(kept_all) / max(1, len(kept_all)):.1f} %")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data" / "hwp-samples")
