"""OCR cost of the picture check (issue 26): a DOCX with 20 small distinct pictures (text strips, seals,
text-free icons), opened with ``open_document`` (every frame of every picture rebuilt and OCR'd) and
exported (every picture re-encoded). Prints seconds; no network, no data outside this script.

Run: ``nice .venv/bin/python benchmarks/bench_pictures_ocr.py [N]`` (N pictures, default 20).
"""
from __future__ import annotations

import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from tests.fixtures.leak_builders import make_docx, para  # noqa: E402
from veil_desktop.documents import export_document, open_document, pictures  # noqa: E402
from veil_desktop.paths import resources_dir  # noqa: E402


def _pictures(n: int) -> list[bytes]:
    font = ImageFont.truetype(str(resources_dir() / "fonts" / "NanumGothic.ttf"), 16)
    out = []
    for i in range(n):
        kind = i % 4
        if kind == 0:      # a 900x22 strip with a line
            im = Image.new("RGB", (900, 22), "white")
            ImageDraw.Draw(im).text((4, 1), f"담당자 {i}번 연락처 010-2345-{6000 + i}", font=font, fill="black")
        elif kind == 1:    # a 76 px seal
            im = Image.new("RGB", (76, 76), "white")
            d = ImageDraw.Draw(im)
            d.ellipse((2, 2, 73, 73), outline=(200, 0, 0), width=3)
            d.text((38, 38), f"인{i}", font=font, fill=(200, 0, 0), anchor="mm")
        elif kind == 2:    # a small icon without text
            im = Image.new("RGB", (48, 48), "white")
            ImageDraw.Draw(im).rectangle((8 + i % 5, 8, 40, 40), fill=(0, 90, 200))
        else:              # a small photo-like gradient
            im = Image.linear_gradient("L").resize((160, 120)).convert("RGB").rotate(i * 7)
        buf = io.BytesIO()
        im.save(buf, "PNG")
        out.append(buf.getvalue())
    return out


def drawing(rid: str, n: int) -> str:
    return ('<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/'
            f'wordprocessingDrawing"><wp:extent cx="952500" cy="952500"/><wp:docPr id="{n}" name="P{n}"/>'
            '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="'
            'http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.'
            f'openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="{n}" name="p{n}"/>'
            f'<pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="{rid}"/></pic:blipFill><pic:spPr/>'
            '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>')


def main(n: int = 20) -> None:
    tmp = Path(tempfile.mkdtemp())
    pics = _pictures(n)
    body = para("보고서") + "".join(drawing(f"rP{i}", i) for i in range(1, n + 1))
    src = make_docx(tmp / "pictures.docx", body, doc_rels=[(f"rP{i}", "image", f"media/image{i}.png")
                                                         for i in range(1, n + 1)],
                    parts={f"word/media/image{i}.png": b for i, b in enumerate(pics, 1)})
    from veil_desktop.documents import ocr
    ocr.ocr_image(Image.new("RGB", (40, 40), "white"))        # engine start-up, not counted
    t0 = time.perf_counter()
    doc = open_document(src)
    t1 = time.perf_counter()
    export_document(doc, [], tmp / "out.docx")
    t2 = time.perf_counter()
    rv = pictures.review_pictures([type("M", (), {"name": f"p{i}.png", "data": b})() for i, b in enumerate(pics)])
    t3 = time.perf_counter()
    held = sum(1 for v in rv.verdicts.values() if v != "clean")
    print(f"pictures: {n}  frames OCR'd: {rv.frames_ocred}  held for review: {held} "
          f"({', '.join(f'{k}={v}' for k, v in sorted(rv.verdicts.items(), key=lambda kv: int(kv[0].split()[1])))})")
    print(f"open_document (rebuild + OCR every picture): {t1 - t0:.2f} s")
    print(f"export_document (rebuild every picture, leak check): {t2 - t1:.2f} s")
    print(f"review_pictures alone: {t3 - t2:.2f} s  ({(t3 - t2) / n:.3f} s per picture)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
