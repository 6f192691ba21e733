"""Draw the application icon (`resources/icons/veil-desktop.png` + `.ico`) with Pillow.

The icon is a document page whose text lines are partly covered by black redaction bars, on a rounded
indigo tile. It is generated, not downloaded, so its provenance is this script; rerun it after a change:

    .venv/bin/python packaging/make_icon.py
"""
from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "icons"
ICO_SIZES = [(16, 16), (24, 24), (32, 32), (48, 48), (64, 64), (128, 128), (256, 256)]


def draw(size: int = 1024) -> Image.Image:
    """Draw the icon at ``size`` px (drawn large, downsampled for smooth edges)."""
    s = size / 256  # design grid is 256 x 256
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([8 * s, 8 * s, 248 * s, 248 * s], radius=44 * s, fill=(49, 46, 129, 255))
    # the page, with a folded corner
    page = [(60 * s, 36 * s), (170 * s, 36 * s), (200 * s, 66 * s), (200 * s, 220 * s), (60 * s, 220 * s)]
    d.polygon(page, fill=(248, 250, 252, 255))
    d.polygon([(170 * s, 36 * s), (170 * s, 66 * s), (200 * s, 66 * s)], fill=(199, 210, 254, 255))
    # text lines (grey) and redaction bars (black) over parts of them
    lines = [(82, 86, 178, False), (82, 112, 150, True), (82, 138, 178, False), (82, 164, 136, True),
             (82, 190, 170, False)]
    for x0, y, x1, redacted in lines:
        d.rounded_rectangle([x0 * s, (y - 5) * s, x1 * s, (y + 5) * s], radius=4 * s,
                            fill=(148, 163, 184, 255))
        if redacted:
            d.rectangle([(x0 + 30) * s, (y - 9) * s, (x1 + 8) * s, (y + 9) * s], fill=(15, 23, 42, 255))
    return img


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    big = draw()
    png = big.resize((256, 256), Image.LANCZOS)
    png.save(OUT / "veil-desktop.png", optimize=True)
    png.save(OUT / "veil-desktop.ico", sizes=ICO_SIZES)
    print(f"wrote {OUT / 'veil-desktop.png'} and {OUT / 'veil-desktop.ico'}")


if __name__ == "__main__":
    main()
