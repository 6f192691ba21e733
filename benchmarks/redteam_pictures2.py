"""Second, fresh batch of the picture red team (issue 26): written after batch 1
(``redteam_pictures.py``) had been tuned to 0 leaks, to measure what is left, not what was fixed. Written
from what a hostile author or a careless office does to a picture and from the image-format and package
specifications (PNG bit depths and alpha, EXIF orientation, DrawingML flipH, stretched extents, pictures
side by side), never from the product's picture reader. New planted values (no name, phone or RRN of
batch 1); two controls without personal data that must be published.

    nice .venv/bin/python benchmarks/redteam_pictures2.py selfcheck DIR   # the oracle sees every value in the inputs
    nice .venv/bin/python benchmarks/redteam_pictures2.py run DIR [--base PATH]

``run`` writes DIR/in + DIR/manifest.json, redacts DIR/in with the CLI (embedded default detector, no
review; redteam2.redact) and judges every published output with batch 1's oracle plus views a recipient's
viewer produces and batch 1's oracle does not: the picture as a viewer shows it (EXIF orientation applied,
alpha composited over white paper, 16-bit grey scaled to 8 bits), mirrored (DrawingML flipH), turned 90 and
180 degrees, enlarged when small, batch 1's ink views of it, and all pictures of a package side by side
(a value split over two adjacent pictures). Verdicts as in batch 1: LEAK, clean, held, FALSE ALARM.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import redteam2 as r2  # noqa: E402
import redteam_pictures as rp  # noqa: E402
from redteam2 import canvas, enc, font  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

VALUES = {
    "NAME_M": "한도윤", "PHONE_M": "010-7356-2209",
    "NAME_N": "차유진", "PHONE_N": "010-8842-3061",
    "NAME_O": "주아람", "PHONE_O": "010-4193-5527",
    "NAME_P": "방윤호", "PHONE_P": "010-2957-6618",
    "NAME_Q": "탁소연", "RRN_Q": "930517-1428360",
    "NAME_R": "변지안", "PHONE_R": "010-6083-2471",
    "NAME_S": "엄태경", "PHONE_S": "010-3318-7402",
    "NAME_T": "공예린", "PHONE_T": "010-9245-3806",
    "NAME_U": "국민재", "PHONE_U": "010-7719-4258",
    "NAME_V": "신하늘", "PHONE_V": "010-5064-8813", "NAME_V2": "류가온", "PHONE_V2": "010-2290-7154",
}
EMU = 9525          # EMU per pixel at 96 dpi


def _docx(pics: list[tuple[bytes, str, str]], *, sizes=None, flip: str = "") -> bytes:
    """A DOCX with one paragraph of text and ``pics`` (data, ext, content type) drawn one per paragraph,
    each at its pixel size (96 dpi) unless ``sizes`` gives (cx, cy) in EMU; ``flip`` an a:xfrm attribute."""
    from PIL import Image
    import io

    body = r2.para("첨부 그림을 확인하십시오.")
    rels, parts, defaults = [], {}, {}
    for i, (data, ext, ctype) in enumerate(pics, 1):
        if sizes:
            cx, cy = sizes[i - 1]
        else:
            w, h = Image.open(io.BytesIO(data)).size
            cx, cy = w * EMU, h * EMU
        d = r2.drawing(f"rP{i}", i, cx, cy)
        if flip:
            d = d.replace("<a:xfrm>", f"<a:xfrm {flip}>")
        body += d
        rels.append((f"rP{i}", "image", f"media/image{i}.{ext}", False))
        parts[f"word/media/image{i}.{ext}"] = data
        defaults[ext] = ctype
    return r2.docx(body, rels=rels, parts=parts, defaults=defaults)


def _hwpx(paras: list[str], bindata: dict) -> bytes:
    return r2.hwpx([r2.hrun("첨부 그림을 확인하십시오.")] + paras, bindata)


def _hunit(px: int) -> int:
    return px * 75           # HWPUNIT: 7200 per inch, 96 px per inch


def build() -> list[tuple[str, bytes, list[str]]]:
    import numpy as np
    from PIL import Image, ImageDraw, ImageFilter

    v = VALUES
    out = []
    # m: the contact line printed as a halftone (ink only on a 2-px dot grid) over a light dot screen,
    #    as a newsletter or a photocopied flyer does; the title solid
    im = canvas(900, 170)
    d = ImageDraw.Draw(im)
    d.text((20, 15), "주민 설명회 안내문", font=font(40), fill="black")
    mask = Image.new("L", (900, 170), 0)
    ImageDraw.Draw(mask).text((20, 95), f"문의 {v['NAME_M']} {v['PHONE_M']}", font=font(38), fill=255)
    a = np.asarray(im).copy()
    yy, xx = np.mgrid[0:170, 0:900]
    screen = ((xx % 6 < 2) & (yy % 6 < 2)) & (yy > 80)                  # light dot screen behind the line
    a[screen] = (185, 185, 185)
    dots = (xx % 3 < 2) & (yy % 3 < 2)                                  # the text's own halftone
    a[(np.asarray(mask) > 127) & dots] = (0, 0, 0)
    out.append(("m_halftone_line.docx", _docx([(enc(Image.fromarray(a), "PNG"), "png", "image/png")]),
                ["NAME_M", "PHONE_M"]))
    # n: every other letter in a light orange (the grey level of the paper), the others dark blue
    im = canvas(900, 110)
    d = ImageDraw.Draw(im)
    x = 20
    for i, ch in enumerate(f"담당자 {v['NAME_N']} 연락처 {v['PHONE_N']}"):
        d.text((x, 35), ch, font=font(36), fill=(20, 30, 120) if i % 2 == 0 else (255, 185, 80))
        x += font(36).getlength(ch)
    out.append(("n_alternating_colours.docx", _docx([(enc(im, "PNG"), "png", "image/png")]),
                ["NAME_N", "PHONE_N"]))
    # o: HWPX, one picture cut in two and set side by side as characters of one paragraph: the name's first
    #    syllable and 010-41 in the left one, the rest in the right one; a reader sees one picture
    f = font(34)
    cut = 420
    im = canvas(900, 120)
    d = ImageDraw.Draw(im)
    l1, l2 = f"신청인 성명: {v['NAME_O'][0]}", f"연락처: {v['PHONE_O'][:6]}"
    d.text((cut - f.getlength(l1), 15), l1 + v["NAME_O"][1:], font=f, fill="black")
    d.text((cut - f.getlength(l2), 70), l2 + v["PHONE_O"][6:], font=f, fill="black")
    left, right = im.crop((0, 0, cut, 120)), im.crop((cut, 0, 900, 120))
    out.append(("o_split_two_pictures.hwpx", _hwpx(
        [r2.hpic("s1", _hunit(cut), _hunit(120)) + r2.hpic("s2", _hunit(900 - cut), _hunit(120))],
        {"s1.png": (enc(left, "PNG"), "image/png"), "s2.png": (enc(right, "PNG"), "image/png")}),
        ["NAME_O", "PHONE_O"]))
    # p: a 250x18 thumbnail strip (13 px type) stretched to the full text width in the document
    im = canvas(250, 18)
    ImageDraw.Draw(im).text((3, 2), f"담당 {v['NAME_P']} {v['PHONE_P']}", font=font(13), fill="black")
    out.append(("p_tiny_stretched.docx", _docx([(enc(im, "PNG"), "png", "image/png")],
                                              sizes=[(5715000, 5715000 * 18 // 250)]), ["NAME_P", "PHONE_P"]))
    # q: the pixels mirrored, the drawing flipped back (a:xfrm flipH="1", ECMA-376 20.1.7.6): upright on
    #    the page
    im = canvas(900, 180)
    d = ImageDraw.Draw(im)
    d.text((20, 20), "본인 확인서", font=font(40), fill="black")
    d.text((20, 105), f"성명 {v['NAME_Q']} 주민등록번호 {v['RRN_Q']}", font=font(32), fill="black")
    out.append(("q_mirrored_flipH.docx", _docx([(enc(im.transpose(Image.FLIP_LEFT_RIGHT), "PNG"),
                                                 "png", "image/png")], flip='flipH="1"'), ["NAME_Q", "RRN_Q"]))
    # r: HWPX, a transparent PNG whose colour is black everywhere; only the alpha channel draws the text
    mask = Image.new("L", (900, 160), 0)
    d = ImageDraw.Draw(mask)
    d.text((20, 20), "현장 점검 담당자", font=font(38), fill=255)
    d.text((20, 95), f"{v['NAME_R']} {v['PHONE_R']}", font=font(36), fill=255)
    im = Image.new("RGBA", (900, 160), (0, 0, 0, 0))
    im.putalpha(mask)
    out.append(("r_alpha_only.hwpx", _hwpx([r2.hpic("a1", _hunit(900), _hunit(160))],
                                          {"a1.png": (enc(im, "PNG"), "image/png")}), ["NAME_R", "PHONE_R"]))
    # s: a 16-bit greyscale PNG (bit depth 16, colour type 0; a scanner's or a camera's export): dark grey
    #    text on light grey paper
    mask = Image.new("L", (900, 160), 0)
    d = ImageDraw.Draw(mask)
    d.text((20, 20), "검사 결과 통보", font=font(38), fill=255)
    d.text((20, 95), f"검사 담당 {v['NAME_S']} {v['PHONE_S']}", font=font(34), fill=255)
    a16 = np.where(np.asarray(mask) > 127, 9000, 58000).astype(np.uint16)
    out.append(("s_16bit_grey.docx", _docx([(enc(Image.fromarray(a16), "PNG"), "png", "image/png")]),
                ["NAME_S", "PHONE_S"]))
    # t: a phone photo of a form: the pixels stored turned, EXIF Orientation 8 (rotate 90 CCW to view)
    up = canvas(900, 200)
    d = ImageDraw.Draw(up)
    d.text((20, 25), "출장 신청서", font=font(42), fill="black")
    d.text((20, 120), f"신청자 {v['NAME_T']} {v['PHONE_T']}", font=font(34), fill="black")
    stored = up.rotate(-90, expand=True)        # viewer turns it 90 CCW (orientation 8) -> upright
    exif = Image.Exif()
    exif[0x0112] = 8
    jpg = enc(stored, "JPEG", quality=90, exif=exif.tobytes())
    out.append(("t_exif_orientation.docx", _docx([(jpg, "jpg", "image/jpeg")], sizes=[(900 * EMU, 200 * EMU)]),
                ["NAME_T", "PHONE_T"]))
    # u: a business card photographed on a desk: perspective, uneven light, JPEG
    card = canvas(700, 400, (250, 248, 240))
    d = ImageDraw.Draw(card)
    d.rectangle((0, 0, 700, 18), fill=(30, 80, 150))
    d.text((40, 60), "한결물산 주식회사", font=font(30), fill=(30, 80, 150))
    d.text((40, 140), v["NAME_U"], font=font(56), fill="black")
    d.text((230, 162), "영업팀 과장", font=font(28), fill=(70, 70, 70))
    d.text((40, 260), f"M. {v['PHONE_U']}", font=font(30), fill="black")
    d.text((40, 310), "서울시 중구 세종대로 110", font=font(26), fill=(70, 70, 70))
    desk = np.zeros((560, 900, 3), np.uint8)
    yy, xx = np.mgrid[0:560, 0:900]
    grain = (np.sin(xx / 7.0 + np.sin(yy / 40.0) * 3) * 12).astype(np.int16)
    desk[..., 0] = np.clip(120 + grain, 0, 255)
    desk[..., 1] = np.clip(80 + grain, 0, 255)
    desk[..., 2] = np.clip(50 + grain // 2, 0, 255)
    photo = Image.fromarray(desk)
    # where the card's corners land in the photo: tl, tr, br, bl
    dst = [(150, 90), (790, 40), (830, 470), (110, 500)]
    src = [(0, 0), (700, 0), (700, 400), (0, 400)]
    A, B = [], []
    for (X, Y), (x0, y0) in zip(dst, src):
        A += [[X, Y, 1, 0, 0, 0, -x0 * X, -x0 * Y], [0, 0, 0, X, Y, 1, -y0 * X, -y0 * Y]]
        B += [x0, y0]
    coef = np.linalg.solve(np.array(A, float), np.array(B, float))
    warped = card.transform((900, 560), Image.PERSPECTIVE, tuple(coef), Image.BICUBIC)
    m = Image.new("L", (700, 400), 255).transform((900, 560), Image.PERSPECTIVE, tuple(coef), Image.BICUBIC)
    photo.paste(warped, (0, 0), m)
    light = np.clip(0.75 + 0.35 * (xx / 900.0), 0, 1.1)[..., None]
    pa = np.clip(np.asarray(photo).astype(float) * light, 0, 255).astype(np.uint8)
    photo = Image.fromarray(pa).filter(ImageFilter.GaussianBlur(0.8))
    out.append(("u_business_card_photo.docx", _docx([(enc(photo, "JPEG", quality=80), "jpg", "image/jpeg")]),
                ["NAME_U", "PHONE_U"]))
    # v: a screenshot of a spreadsheet contact list: 11 px type in 15 px rows, grid lines touching the cells
    rows = [("1", "김나래", "총무과", "010-3941-0275"), ("2", "이준서", "회계과", "010-7402-5583"),
            ("3", v["NAME_V"], "민원과", v["PHONE_V"]), ("4", "정우빈", "시설과", "010-6159-3320"),
            ("5", v["NAME_V2"], "복지과", v["PHONE_V2"]), ("6", "장서아", "총무과", "010-8836-1094")]
    cols = [0, 30, 100, 170, 290]
    im = canvas(291, 16 * (len(rows) + 1) + 1)
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, 290, 16), fill=(220, 230, 241))
    for r, row in enumerate([("번호", "성명", "부서", "휴대전화")] + rows):
        for c, t in enumerate(row):
            d.text((cols[c] + 3, 16 * r + 2), t, font=font(11), fill="black")
    for r in range(len(rows) + 2):
        d.line((0, 16 * r, 290, 16 * r), fill=(160, 160, 160))
    for c in cols:
        d.line((c, 0, c, im.height), fill=(160, 160, 160))
    out.append(("v_spreadsheet_screenshot.docx", _docx([(enc(im, "PNG"), "png", "image/png")]),
                ["NAME_V", "PHONE_V", "NAME_V2", "PHONE_V2"]))
    # controls: a settings dialog screenshot (English labels, numbers that are not personal data) and a
    #   scanned blank consent form (headings and labels only, no values)
    im = canvas(640, 360, (240, 240, 240))
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, 640, 32), fill=(45, 95, 160))
    d.text((12, 6), "Sync Settings", font=font(18), fill="white")
    for i, t in enumerate(["Server port: 8443", "Timeout (seconds): 30", "Retries: 5",
                           "Storage used: 1,284 MB of 5,000 MB", "Version 4.12.0 (build 20261104)"]):
        d.text((24, 56 + 38 * i), t, font=font(18), fill="black")
    d.rectangle((24, 250, 424, 266), outline=(120, 120, 120), fill="white")
    d.rectangle((25, 251, 126, 265), fill=(60, 160, 90))
    for x0, lab in ((400, "OK"), (500, "Cancel")):
        d.rectangle((x0, 300, x0 + 90, 334), outline=(110, 110, 110), fill=(225, 225, 225))
        d.text((x0 + 20, 307), lab, font=font(18), fill="black")
    out.append(("w_control_dialog.docx", _docx([(enc(im, "PNG"), "png", "image/png")]), []))
    im = canvas(850, 600)
    d = ImageDraw.Draw(im)
    d.text((230, 30), "개인정보 수집·이용 동의서", font=font(36), fill="black")
    for i, lab in enumerate(["성명", "생년월일", "주소", "연락처", "서명"]):
        y = 120 + 80 * i
        d.rectangle((60, y, 790, y + 80), outline="black", width=2)
        d.line((230, y, 230, y + 80), fill="black", width=2)
        d.text((80, y + 24), lab, font=font(28), fill="black")
    rng = random.Random(3)
    px = im.load()
    for _ in range(6000):
        x, y = rng.randrange(850), rng.randrange(600)
        g = rng.randint(120, 220)
        px[x, y] = (g, g, g)
    im = im.rotate(0.7, resample=Image.BICUBIC, fillcolor="white")
    out.append(("x_control_blank_form.hwpx", _hwpx([r2.hpic("f1", _hunit(850), _hunit(600))],
                                                  {"f1.jpg": (enc(im.convert("L"), "JPEG", quality=75),
                                                              "image/jpeg")}), []))
    return out


# ------------------------------------------------------------------------------------------- oracle
def _as_shown(data: bytes) -> list:
    """Each frame of a picture as a viewer puts it on white paper: EXIF orientation applied, alpha (or a
    transparent palette entry) composited over white, 16/32-bit grey scaled to 8 bits by its range."""
    import io

    import numpy as np
    from PIL import Image, ImageOps, ImageSequence

    try:
        img = Image.open(io.BytesIO(data))
        img.load()
    except Exception:  # noqa: BLE001 - not a picture
        return []
    outs = []
    for fr in ImageSequence.Iterator(img):
        fr = ImageOps.exif_transpose(fr.copy()) if img.format in ("JPEG", "TIFF", "PNG", "WEBP") else fr.copy()
        if fr.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
            a = np.asarray(fr).astype(np.float64)
            lo_, hi = a.min(), a.max()
            fr = Image.fromarray(((a - lo_) / max(hi - lo_, 1) * 255).astype(np.uint8))
        if fr.mode == "P" and "transparency" in fr.info:
            fr = fr.convert("RGBA")
        if fr.mode in ("RGBA", "LA", "PA", "RGBa", "La"):
            paper = Image.new("RGBA", fr.size, (255, 255, 255, 255))
            fr = Image.alpha_composite(paper, fr.convert("RGBA"))
        outs.append(fr.convert("RGB"))
    return outs


def _turns(img) -> list:
    from PIL import Image
    if img.height < 100:
        k = max(2, 100 // max(img.height, 1))
        img = img.resize((img.width * k, img.height * k), Image.LANCZOS)
    return [img, img.transpose(Image.FLIP_LEFT_RIGHT), img.rotate(180, expand=True),
            img.rotate(90, expand=True), img.rotate(-90, expand=True)]


def _descreened(img) -> list:
    """A halftone or dot screen as the eye sees it from a little further away: box-averaged over 2 and 3 px
    cells, stretched to full contrast, enlarged 2x."""
    from PIL import Image, ImageOps
    outs = []
    for k in (2, 3):
        if img.width // k >= 20 and img.height // k >= 8:
            s = ImageOps.autocontrast(img.convert("L").resize((img.width // k, img.height // k), Image.BOX))
            outs.append(s.resize((s.width * 2, s.height * 2), Image.LANCZOS).convert("RGB"))
    return outs


def shown_views(path: Path) -> list[tuple[str, str]]:
    import zipfile

    from PIL import Image
    from veil_desktop.documents import ocr

    views, shown = [], []
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            if info.filename.endswith((".xml", ".rels", ".hpf")) or info.filename == "mimetype":
                continue
            for n, fr in enumerate(_as_shown(z.read(info))):
                if fr.width < 8 or fr.height < 8:
                    continue
                shown.append(fr)
                where = f"{info.filename}:frame{n + 1}:shown"
                views += [(where, ocr.ocr_image(t).text) for t in _turns(fr)]
                views += [(where + ":ink", ocr.ocr_image(t.convert("RGB")).text) for t in rp._hard_variants(fr)]
                views += [(where + ":descreened", ocr.ocr_image(t).text) for t in _descreened(fr)]
    if len(shown) > 1:                       # side by side, as adjacent pictures of one paragraph show
        h = max(f.height for f in shown)
        row = Image.new("RGB", (sum(f.width for f in shown), h), "white")
        x = 0
        for f in shown:
            row.paste(f, (x, 0))
            x += f.width
        views += [("all pictures side by side", ocr.ocr_image(t).text) for t in _turns(row)[:2]]
    return views


def find_leaks(path: Path, keys: list[str], values: dict, ocr: bool) -> list[tuple[str, str, str]]:
    """Batch 1's finder (leak rule of KOREAN_MASKING.md over leak_oracle, redteam2_oracle and the ink
    views) plus the views of ``shown_views``."""
    found = rp.find_leaks(path, keys, values, ocr)
    seen = {k for k, _, _ in found}
    if not ocr or len(seen) == len(keys):
        return found
    return rp.match_views(shown_views(path), rp.patterns(keys, values), keys, found, seen)


def main(argv: list[str]) -> int:
    return rp.cli(argv, build=build, values=VALUES, cls="P2", find=find_leaks)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
