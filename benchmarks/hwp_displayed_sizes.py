"""Bench (never a test): the displayed sizes ``hwp.displayed_sizes`` finds for the BinData pictures of real
Hancom HWP 5 files, against their pixel sizes (issue 26: a picture stored squashed and shown stretched).

    .venv/bin/python benchmarks/hwp_displayed_sizes.py [../shared/data/hwp-samples/*.hwp]

Per file: each picture member, its pixels, every displayed (width, height) in HWPUNIT and the ratio of the
displayed aspect to the pixels' (1.00: shown as stored; past ocr.PIXEL_ASPECT_TOLERANCE it is also read
stretched, past ocr.MAX_PIXEL_ASPECT it is held). Ordinary files should sit near 1."""
from __future__ import annotations

import glob
import io
import sys
from pathlib import Path

from PIL import Image

from veil_desktop.documents import ocr
from veil_desktop.documents.hwp import (_inflate, _load, _pictures, bin_items, border_fill_pictures, picture_shapes,
                                       shown_pictures)


def measure(path: Path) -> tuple[int, int, int]:
    """Prints the file's pictures; returns (pictures, with a displayed size, shown at another aspect)."""
    try:
        src = _load(path.read_bytes())
    except Exception as e:  # noqa: BLE001 - refused files (password, distribution, HWP 3) are listed
        print(f"{path.name}: not read ({type(e).__name__}: {str(e)[:60]})")
        return 0, 0, 0
    shapes: list = []
    cells: list = []
    for name in src.sections():
        raw = src.streams[name]
        picture_shapes(_inflate(raw, name) if src.compressed else raw, shapes, cells)
    pics = _pictures(src)
    shown = shown_pictures(src, pics, shapes, cells)      # as read_hwp gives review_pictures
    info = src.streams.get("DocInfo", b"")
    info = _inflate(info, "DocInfo") if src.compressed else info
    fills = border_fill_pictures(info)
    print(f"{path.name}: {len(pics)} picture member(s), {len(shapes)} picture control(s) or filled shape(s), "
          f"{len(bin_items(info))} embedded BinItem(s), {sum(1 for f, _ in cells if f in fills)} of "
          f"{len(cells)} table cell(s) with a stretched picture fill")
    other = 0
    for p in pics:
        try:
            with Image.open(io.BytesIO(p.data)) as im:
                px = im.size
        except Exception:  # noqa: BLE001
            px = None
        sizes = shown.get(p.name, [])
        ratios = [(w / h) / (px[0] / px[1]) for w, h in sizes] if px else []
        if any(not 1 / ocr.PIXEL_ASPECT_TOLERANCE <= r <= ocr.PIXEL_ASPECT_TOLERANCE for r in ratios):
            other += 1
        print(f"  {p.name:24} pixels {px}  displayed "
              + (", ".join(f"{w:.0f}x{h:.0f} (x{r:.3f})" for (w, h), r in zip(sizes, ratios)) or "none"))
    return len(pics), sum(1 for p in pics if shown.get(p.name)), other


def main(argv: list[str]) -> int:
    files = argv or sorted(glob.glob("../shared/data/hwp-samples/*.hwp"))
    total = [0, 0, 0]
    for f in files:
        for i, v in enumerate(measure(Path(f))):
            total[i] += v
    print(f"total: {total[0]} pictures, {total[1]} with a displayed size, {total[2]} shown at another aspect "
          f"(past x{ocr.PIXEL_ASPECT_TOLERANCE})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
