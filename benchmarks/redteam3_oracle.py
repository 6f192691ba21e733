"""Oracle for the third red-team corpus (benchmarks/redteam3.py): redteam2_oracle's views, and more.

Same manifest format and ``judge(d, summary, ocr)`` signature as ``redteam2_oracle.judge``; the table is
printed by ``redteam2_oracle.print_table``. Added (redteam2_oracle.judge cannot take these keys/views):
  * ``ACCOUNT``: a bank account, judged like the other numbers (a run of >= 4 digits of the output that
    is a piece of the account's digits);
  * every view read again with Sino-Korean digit words as digits (a run of >= 4 of 공/영 일 이 삼 사 오 육/륙
    칠 팔 구 becomes digits: a recipient reads "공일공 오팔이삼" as 010 5823), and with Cyrillic/Greek
    look-alike letters read as Latin (a recipient reads "сhаewоn" as "chaewon");
  * picture metadata (Pillow's info and Exif) of every ZIP member Pillow opens, whatever its format
    (leak_oracle only does PNG/JPEG members);
  * every picture (a published image, every frame of every ZIP member) OCR'd again turned by +-30 degrees
    and as grey thresholded at 60 and 160, whole and in 160 px bands (dark text on a coloured band, a slanted line: ``selfcheck``
    showed the views above miss them in the unredacted inputs).
Shares no code with the product's readers or leak check (Tesseract via leak_oracle.ocr_text aside).
"""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import leak_oracle as lo
import redteam2_oracle as r2o

DIGIT_WORDS = {"공": "0", "영": "0", "일": "1", "이": "2", "삼": "3", "사": "4", "오": "5", "육": "6", "륙": "6",
               "칠": "7", "팔": "8", "구": "9"}
_WORD_RUN = re.compile("[" + "".join(DIGIT_WORDS) + "]{4,}")
LOOKALIKE = str.maketrans({"а": "a", "е": "e", "о": "o", "с": "c", "у": "y", "х": "x", "р": "p", "і": "i",
                           "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ո": "n", "α": "a", "ο": "o", "ε": "e",
                           "ν": "v", "κ": "k", "ρ": "p", "τ": "t", "ι": "i", "υ": "u", "ω": "w"})


def spoken_digits(t: str) -> str:
    return _WORD_RUN.sub(lambda m: "".join(DIGIT_WORDS[c] for c in m.group()), t)


def member_metadata(path: Path) -> list[tuple[str, str]]:
    data = path.read_bytes()
    if data[:2] != b"PK":
        return []
    views = []
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        members = [(i.filename, z.read(i)) for i in z.infolist()]
    except Exception:  # noqa: BLE001
        return []
    from PIL import Image
    for name, b in members:
        try:
            img = Image.open(io.BytesIO(b))
        except Exception:  # noqa: BLE001 - not a picture
            continue
        for k, v in img.info.items():
            if isinstance(v, bytes):
                views += [(f"{name}:info:{k}", t) for t in lo.text_views(v)]
            else:
                views.append((f"{name}:info:{k}", str(v)))
        try:
            views += [(f"{name}:exif:{k}", str(v)) for k, v in img.getexif().items()]
        except Exception:  # noqa: BLE001
            pass
    return views


def more_ocr(path: Path) -> list[tuple[str, str]]:
    from PIL import ImageOps
    data = path.read_bytes()
    if data[:5] == b"%PDF-":
        return []
    pics = [("image", data)]
    if data[:2] == b"PK":
        try:
            z = zipfile.ZipFile(io.BytesIO(data))
            pics = [(i.filename, z.read(i)) for i in z.infolist() if not i.filename.endswith((".xml", ".rels"))]
        except Exception:  # noqa: BLE001
            return []
    views = []
    for name, b in pics:
        for n, fr in enumerate(r2o._frames(b)):
            if fr.width < 20 or fr.height < 8:
                continue
            from PIL import Image
            g = ImageOps.autocontrast(fr.convert("L"), cutoff=1)
            k = 4 if g.height < 100 else (3 if max(g.size) < 1500 else 1)
            big = g.resize((g.width * k, g.height * k), Image.LANCZOS) if k > 1 else g
            ims = [("rot+30", big.rotate(30, expand=True, fillcolor=255, resample=Image.BICUBIC)),
                   ("rot-30", big.rotate(-30, expand=True, fillcolor=255, resample=Image.BICUBIC))]
            for t in (60, 160):
                th = g.point(lambda v, t=t: 0 if v < t else 255)
                ims.append((f"thr{t}", th))
                if g.height <= 2000:              # in bands: Tesseract's page layout drops lines on colour bands
                    ims += [(f"thr{t}-band{y}", ImageOps.expand(th.crop((0, y, g.width, min(g.height, y + 160))),
                                                                  40, fill=255))
                            for y in range(0, max(1, g.height - 40), 120)]
            for label, im in ims:
                views.append((f"{name}:frame{n + 1}:ocr-{label}", lo.ocr_text(im.convert("RGB"))))
    return views


def leaks(path: Path, keys: list[str], values: dict, ocr: bool) -> list[tuple[str, str, str]]:
    pats = lo.patterns(values)
    if "ACCOUNT" in values:
        pats["ACCOUNT"] = [("digits", re.sub(r"\D", "", values["ACCOUNT"]))]
    views = (lo.views_of(path, ocr) + r2o.extra_views(path, ocr) + member_metadata(path)
             + (more_ocr(path) if ocr else []))
    found, seen = [], set()
    for where, text in views:
        for seps in (True, False):
            base = lo.norm(text, seps)
            for label, t in (("", base), (" (digit words)", spoken_digits(base)),
                             (" (look-alikes)", base.translate(LOOKALIKE))):
                if label and t == base:
                    continue
                for k in keys:
                    if k in seen:
                        continue
                    hit = lo.find(pats[k], t)
                    if hit is not None:
                        seen.add(k)
                        found.append((k, where + label, hit))
    return found


def judge(d: Path, summary: str, ocr: bool = True) -> list[dict]:
    """The second oracle's judging, with this oracle's leak finder."""
    return r2o.judge(d, summary, ocr, find=leaks)
