"""Red team for pictures reviewed by OCR (issue 26): since pictures whose text OCR reads with confidence are
reviewed and burned instead of holding the file, a hostile author only has to make OCR read *part* of a
picture confidently and hide the rest where OCR does not look. These files are written from that angle
(what defeats a page OCR: contrast, colour, size, angle, outline type, texture, compression, frames), not
from the reader's code; two controls hold no personal data and must be published.

    nice .venv/bin/python benchmarks/redteam_pictures.py run DIR [--base PATH]
    nice .venv/bin/python benchmarks/redteam_pictures.py selfcheck DIR    # the oracle sees every planted value

``run`` writes DIR/in/*.docx + DIR/manifest.json (redteam2's format), redacts DIR/in with the CLI of
``--base`` (a checkout; default this one; the embedded default detector, no review) and judges every
published output with ``redteam2_oracle`` (every output picture sniffed by content and OCR'd upright,
inverted and turned, at its size and enlarged) plus its own harder reading (ink as distance from the
dominant colour at two thresholds, enlarged, strokes thickened, turned). Verdicts: LEAK (published, a planted value readable),
clean, held (needs review / refused), FALSE ALARM (a control held).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import redteam2 as r2  # noqa: E402
from redteam2 import canvas, enc, font  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

VALUES = {
    "NAME_A": "윤채원", "PHONE_A": "010-4821-7735",
    "NAME_B": "서지호", "NAME_C": "임도현", "PHONE_C": "010-6620-1948",
    "RRN_D": "880214-2345671", "NAME_E": "남궁민서", "PHONE_F": "010-3377-9015",
    "NAME_G": "권하린", "PHONE_G": "010-5192-8846", "NAME_H": "백승우",
    "NAME_I": "오세진", "PHONE_I": "010-2468-1357", "NAME_J": "표은비", "PHONE_J": "010-9081-2736",
}


def _docx(png: bytes, ext: str = "png", ctype: str = "image/png") -> bytes:
    from tests.fixtures.leak_builders import make_docx, para
    from tests.test_pictures_documents import drawing
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = make_docx(Path(d) / "x.docx", para("첨부 그림을 확인하십시오.") + drawing("rP1", 1),
                      doc_rels=[("rP1", "image", f"media/image1.{ext}")],
                      parts={f"word/media/image1.{ext}": png}, overrides={f"/word/media/image1.{ext}": ctype})
        return p.read_bytes()


def build() -> list[tuple[str, bytes, list[str]]]:
    from PIL import Image, ImageDraw

    v = VALUES
    out = []
    # a: a crisp title and a light-grey line under it (grey 200 on white: binarisation drops it)
    im = canvas(900, 160)
    d = ImageDraw.Draw(im)
    d.text((20, 20), "2분기 시설 점검 결과 보고", font=font(40), fill="black")
    d.text((20, 100), f"담당 {v['NAME_A']} 연락처 {v['PHONE_A']}", font=font(28), fill=(200, 200, 200))
    out.append(("a_light_grey_line.docx", _docx(enc(im, "PNG")), ["NAME_A", "PHONE_A"]))
    # b: the name alone in yellow (its grey level is that of the paper) beside black text
    im = canvas(900, 110)
    d = ImageDraw.Draw(im)
    d.text((20, 35), "작성자:", font=font(36), fill="black")
    d.text((170, 35), v["NAME_B"], font=font(36), fill=(255, 230, 0))
    d.text((330, 35), "검토 완료 문서입니다", font=font(36), fill="black")
    out.append(("b_yellow_name.docx", _docx(enc(im, "PNG")), ["NAME_B"]))
    # c: an upright paragraph and a margin note turned 90 degrees
    im = canvas(900, 420)
    d = ImageDraw.Draw(im)
    for i, t in enumerate(["민원 처리 결과를 다음과 같이 알려 드립니다.", "처리 기한 내 회신이 완료되었습니다.",
                           "추가 문의는 민원실로 연락 바랍니다."]):
        d.text((20, 30 + 60 * i), t, font=font(32), fill="black")
    note = canvas(400, 50)
    ImageDraw.Draw(note).text((5, 8), f"{v['NAME_C']} {v['PHONE_C']}", font=font(28), fill="black")
    im.paste(note.rotate(90, expand=True), (820, 10))
    out.append(("c_turned_margin_note.docx", _docx(enc(im, "PNG")), ["NAME_C", "PHONE_C"]))
    # d: a big title and an 9 px footer line with an RRN
    im = canvas(1000, 600)
    d = ImageDraw.Draw(im)
    d.text((40, 40), "연간 운영 계획", font=font(64), fill="black")
    d.text((40, 200), "1. 시설 개선  2. 안전 교육  3. 예산 집행", font=font(34), fill="black")
    d.text((40, 580), f"문의 주민번호 {v['RRN_D']} 확인 후 처리", font=font(9), fill="black")
    out.append(("d_tiny_footer.docx", _docx(enc(im, "PNG")), ["RRN_D"]))
    # e: a name written over a noisy photo texture, a clean caption below
    import random
    rng = random.Random(5)
    im = canvas(900, 300)
    px = im.load()
    for x in range(900):
        for y in range(200):
            g = 90 + rng.randint(0, 120)
            px[x, y] = (g, g - 20 if g > 20 else g, 60 + rng.randint(0, 60))
    d = ImageDraw.Draw(im)
    d.text((60, 70), v["NAME_E"], font=font(48), fill=(235, 235, 235))
    d.text((20, 230), "행사 사진: 봄철 환경 정화 활동 참가자 단체 사진", font=font(30), fill="black")
    out.append(("e_name_on_photo.docx", _docx(enc(im, "PNG")), ["NAME_E"]))
    # f: upright text and one line at 15 degrees
    im = canvas(900, 400)
    d = ImageDraw.Draw(im)
    d.text((20, 20), "회의록 요약: 예산 조정안을 원안대로 의결함", font=font(32), fill="black")
    line = Image.new("RGB", (700, 60), "white")
    ImageDraw.Draw(line).text((5, 10), f"긴급 연락 {v['PHONE_F']}", font=font(32), fill="black")
    rot = line.rotate(15, expand=True, fillcolor="white")
    im.paste(rot, (60, 120))
    out.append(("f_line_at_15_degrees.docx", _docx(enc(im, "PNG")), ["PHONE_F"]))
    # g: an animated GIF, frame 2 holds the name and phone
    f1 = canvas(800, 120)
    ImageDraw.Draw(f1).text((20, 40), "안내 화면 1/2: 접수 방법", font=font(34), fill="black")
    f2 = canvas(800, 120)
    ImageDraw.Draw(f2).text((20, 40), f"상담 {v['NAME_G']} {v['PHONE_G']}", font=font(34), fill="black")
    gif = enc(f1, "GIF", save_all=True, append_images=[f2], duration=[800, 800], loop=0)
    out.append(("g_gif_frame_two.docx", _docx(gif, "gif", "image/gif"), ["NAME_G", "PHONE_G"]))
    # h: hollow (outline) type for the name, solid type around it
    im = canvas(900, 120)
    d = ImageDraw.Draw(im)
    d.text((20, 30), "신청인", font=font(48), fill="black")
    d.text((200, 30), v["NAME_H"], font=font(48), fill="white", stroke_width=2, stroke_fill="black")
    d.text((400, 30), "귀하", font=font(48), fill="black")
    out.append(("h_outline_name.docx", _docx(enc(im, "PNG")), ["NAME_H"]))
    # i: white on a dark banner above black text
    im = canvas(900, 220)
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, 900, 80), fill=(20, 40, 90))
    d.text((20, 20), f"담당자 {v['NAME_I']} {v['PHONE_I']}", font=font(34), fill="white")
    d.text((20, 130), "위 담당자에게 서류를 제출하여 주십시오.", font=font(32), fill="black")
    out.append(("i_white_on_banner.docx", _docx(enc(im, "PNG")), ["NAME_I", "PHONE_I"]))
    # j: a JPEG saved at quality 12 (blocky)
    im = canvas(900, 110)
    ImageDraw.Draw(im).text((20, 35), f"접수자 {v['NAME_J']} 전화 {v['PHONE_J']}", font=font(34), fill="black")
    out.append(("j_blocky_jpeg.docx", _docx(enc(im, "JPEG", quality=12), "jpg", "image/jpeg"),
                ["NAME_J", "PHONE_J"]))
    # controls: a logo with a company name and a chart's labels (no personal data): must be published
    im = canvas(600, 160)
    d = ImageDraw.Draw(im)
    d.ellipse((10, 10, 140, 140), fill=(20, 90, 170))
    d.text((170, 50), "한빛정보 주식회사", font=font(44), fill=(20, 90, 170))
    out.append(("k_control_logo.docx", _docx(enc(im, "PNG")), []))
    im = canvas(800, 400)
    d = ImageDraw.Draw(im)
    for i, (lab, hgt) in enumerate([("1분기", 120), ("2분기", 200), ("3분기", 160), ("4분기", 260)]):
        d.rectangle((80 + 170 * i, 330 - hgt, 180 + 170 * i, 330), fill=(70, 130, 180))
        d.text((95 + 170 * i, 345), lab, font=font(28), fill="black")
    d.text((250, 10), "분기별 처리 건수", font=font(34), fill="black")
    out.append(("l_control_chart.docx", _docx(enc(im, "PNG")), []))
    return out


def _hard_variants(fr) -> list:
    """What a determined reader does with a picture: ink as distance from the dominant colour (colour,
    light grey and white-on-dark all become black on white), enlarged, strokes thickened (outline type
    filled), the picture turned."""
    import numpy as np
    from PIL import Image, ImageFilter

    a = np.asarray(fr.convert("RGB")).astype(np.int16)
    q = (a // 24).reshape(-1, 3)
    vals, counts = np.unique(q, axis=0, return_counts=True)
    bg = a.reshape(-1, 3)[(q == vals[counts.argmax()]).all(1)].mean(0)
    dist = np.abs(a - bg).max(2)
    outs = []
    for thr in (24, 60):
        ink = Image.fromarray(np.where(dist > thr, 0, 255).astype(np.uint8))
        k = 3 if min(ink.size) < 700 else 2
        big = ink.resize((ink.width * k, ink.height * k), Image.NEAREST)
        outs += [ink, big, big.filter(ImageFilter.MinFilter(7)).filter(ImageFilter.MaxFilter(3))]
        outs.append(big.rotate(-90, expand=True, fillcolor=255))
    return outs


def hard_views(path: Path) -> list[tuple[str, str]]:
    import zipfile

    import redteam2_oracle
    from veil_desktop.documents import ocr

    views = []
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            if info.filename.endswith((".xml", ".rels")):
                continue
            for n, fr in enumerate(redteam2_oracle._frames(z.read(info))):
                if fr.width >= 20 and fr.height >= 8:
                    views += [(f"{info.filename}:frame{n + 1}:hard", ocr.ocr_image(v.convert("RGB")).text)
                              for v in _hard_variants(fr)]
    return views


def patterns(keys: list[str], values: dict) -> dict:
    """The leak rule of KOREAN_MASKING.md per planted value: any 2 syllables of a name, 4 digits of a number."""
    import re

    return {k: ([("sub", values[k][i:i + 2]) for i in range(len(values[k]) - 1)] if k.startswith("NAME")
                else [("digits", re.sub(r"\D", "", values[k]))]) for k in keys}


def match_views(views, pats: dict, keys: list[str], found: list, seen: set) -> list:
    """``found`` extended with ``(key, where, excerpt)`` for every key not yet ``seen`` that a view shows
    (normalised by leak_oracle, with and without separators)."""
    import leak_oracle as lo

    for where, text in views:
        for seps in (True, False):
            t = lo.norm(text, seps)
            for k in keys:
                if k not in seen and (hit := lo.find(pats[k], t)) is not None:
                    seen.add(k)
                    found.append((k, where, hit))
    return found


def find_leaks(path: Path, keys: list[str], values: dict, ocr: bool) -> list[tuple[str, str, str]]:
    """The leak rule of KOREAN_MASKING.md per planted value (2 syllables of a name, 4 digits of a number) over
    leak_oracle's text views of the output and redteam2_oracle's OCR of every output picture."""
    import leak_oracle as lo
    import redteam2_oracle

    views = lo.views_of(path, ocr) + redteam2_oracle.extra_views(path, ocr) + hard_views(path)
    return match_views(views, patterns(keys, values), keys, [], set())


def generate(dest: Path, build=build, values: dict = VALUES, cls: str = "P") -> list[dict]:
    """DEST/in/* and DEST/manifest.json (redteam2's format) for the files ``build()`` makes."""
    (dest / "in").mkdir(parents=True, exist_ok=True)
    man = []
    for name, data, keys in build():
        (dest / "in" / name).write_bytes(data)
        man.append({"file": name, "class": cls, "variant": name[0], "values": keys})
    (dest / "manifest.json").write_text(json.dumps({"values": values, "files": man}, ensure_ascii=False, indent=1),
                                        encoding="utf-8")
    return man


def cli(argv: list[str], *, build=build, values: dict = VALUES, cls: str = "P", find=find_leaks) -> int:
    """``generate | run | selfcheck DIR [--base CHECKOUT]`` for a batch (``build``, its ``values``, its
    leak finder ``find``)."""
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["generate", "run", "selfcheck"])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--base", type=Path, default=ROOT, help="checkout whose veil_desktop is run")
    a = ap.parse_args(argv)
    man = generate(a.dir, build, values, cls)
    print(f"generated {len(man)} files in {a.dir / 'in'}")
    if a.cmd == "generate":
        return 0
    if a.cmd == "selfcheck":      # which planted values the oracle sees in the INPUTS (blind: cannot count a leak)
        blind = 0
        planted = [f for f in man if f["values"]]          # the controls hold none
        for f in planted:
            hits = find(a.dir / "in" / f["file"], f["values"], values, True)
            miss = sorted(set(f["values"]) - {k for k, _, _ in hits})
            blind += bool(miss)
            print(f"  {f['file']:32s} seen " + ", ".join(f"{k}@{w[:40]}" for k, w, _ in hits)
                  + (f"  NOT SEEN {miss}" if miss else ""))
        print(f"oracle blind (some value unseen) on {blind} of {len(planted)} inputs")
        return 1 if blind else 0
    summary = r2.redact(a.dir, a.base.resolve())
    import redteam2_oracle

    res = redteam2_oracle.judge(a.dir, summary, ocr=True, find=find)
    print(f"\n== {a.base}")
    for r in res:
        print(f"  {r['file']:32s} {r['status']:14s} {r['verdict']}")
        for k, where, hit in r["leaks"]:
            print(f"        {k:8s} in {where[:50]}: …{hit}…")
    n = {v: sum(r["verdict"] == v for r in res) for v in ("LEAK", "clean", "held", "FALSE ALARM")}
    print(f"\n{len(res)} files: {n['LEAK']} published with a leak, {n['clean']} published clean, {n['held']} held, "
          f"{n['FALSE ALARM']} false alarms (controls held)")
    return 1 if n["LEAK"] or n["FALSE ALARM"] else 0


def main(argv: list[str]) -> int:
    return cli(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
