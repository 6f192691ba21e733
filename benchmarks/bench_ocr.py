"""OCR benchmark: Korean pages drawn here, read back by the shipped OCR (documents/ocr.py).

Pages are drawn with the bundled NanumGothic at 10 pt on A4 — running prose, a form with boxed fields and
a table with grid lines — at 300 and 200 dpi, each clean and degraded (rotated by up to ±1.5°, Gaussian
blur, salt-and-pepper noise, JPEG compression). For every page the script prints

- character accuracy: 1 − (Levenshtein distance / reference length), whitespace ignored;
- PII recall on the OCR text relative to the typed text: the default detector (embedded model + rules) runs
  on the typed text and on the OCR text; a planted value counts as found when a detected span covers it
  (the value's place in the OCR text is found through a character alignment with the typed text, so a
  value OCR misread by a character counts as found when the detector masks what OCR read); ratio = OCR
  recall / typed recall;
- seconds per page (OCR only, 2 threads: ``OMP_THREAD_LIMIT=2``).

Targets (issue 14): accuracy ≥ 97 % at 300 dpi and ≥ 94 % at 200 dpi, PII recall ≥ 95 % of the typed
text's, ≤ 3 s per A4 page.

    OMP_THREAD_LIMIT=2 .venv/bin/python benchmarks/bench_ocr.py [--pages-per-kind 2] [--seed 7] [--dpi 300,200]
"""
from __future__ import annotations

import argparse
import difflib
import io
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_THREAD_LIMIT", "2")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageDraw, ImageFilter, ImageFont  # noqa: E402

from veil_desktop.documents import ocr  # noqa: E402
from veil_desktop.paths import resources_dir  # noqa: E402

SURNAMES = "김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 홍".split()
GIVEN = "민준 서연 도윤 지우 하준 서윤 은우 지민 예준 수아 시우 하은 주원 지호 유진 현우 다은 준서 채원 건우".split()
ROADS = ["세종대로 110", "월드컵북로 396", "테헤란로 152", "중앙대로 240", "해운대로 570", "문화로 17",
         "충장로 45", "대학로 101"]
CITIES = ["서울특별시 중구", "서울특별시 마포구", "서울특별시 강남구", "부산광역시 해운대구",
          "대전광역시 서구", "광주광역시 동구", "경기도 성남시 분당구", "인천광역시 남동구"]
PROSE = [
    "위 사람은 {date} 민원실을 방문하여 관련 서류를 제출하였으며 담당자 {name2} 주무관이 이를 접수하였습니다.",
    "신청인 {name}의 주소는 {addr}이며 연락처는 {phone}입니다.",
    "처리 결과는 서면으로 통지하며 문의 사항은 담당 부서로 연락하여 주시기 바랍니다.",
    "본 건과 관련하여 {name} 님께서 제출하신 주민등록번호 {rrn}는 본인 확인 용도로만 사용됩니다.",
    "첨부 서류: 주민등록등본 1부, 가족관계증명서 1부, 위임장 1부.",
    "민원 처리 기한은 접수일로부터 14일이며 필요한 경우 한 차례 연장할 수 있습니다.",
]


def person(rng):
    return rng.choice(SURNAMES) + rng.choice(GIVEN)


def values(rng):
    return {
        "name": person(rng), "name2": person(rng),
        "addr": f"{rng.choice(CITIES)} {rng.choice(ROADS)}",
        "phone": f"010-{rng.randint(2000, 9999)}-{rng.randint(1000, 9999)}",
        "rrn": f"{rng.randint(60, 99):02d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}-"
               f"{rng.choice('12')}{rng.randint(100000, 999999)}",
        "date": f"2024년 {rng.randint(1, 12)}월 {rng.randint(1, 28)}일",
    }


def draw(kind: str, rng: random.Random, dpi: int):
    """Returns (image, typed_lines, planted_values)."""
    px = lambda mm: int(round(mm / 25.4 * dpi))  # noqa: E731
    W, H = px(210), px(297)
    font = ImageFont.truetype(str(resources_dir() / "fonts" / "NanumGothic.ttf"), int(round(10 / 72 * dpi)))
    img = Image.new("L", (W, H), 255)
    d = ImageDraw.Draw(img)
    x0, y = px(20), px(20)
    line_h = int(round(10 / 72 * dpi * 1.9))
    typed: list[str] = []
    planted: list[str] = []
    if kind == "prose":
        for _ in range(3):
            v = values(rng)
            planted += [v["name"], v["name2"], v["addr"], v["phone"], v["rrn"]]
            for t in PROSE:
                line = t.format(**v)
                d.text((x0, y), line, font=font, fill=0)
                typed.append(line)
                y += line_h
            y += line_h // 2
    elif kind == "form":
        d.text((x0, y), "개인정보 수집·이용 동의서 (신청인 기재란)", font=font, fill=0)
        typed.append("개인정보 수집·이용 동의서 (신청인 기재란)")
        y += line_h * 2
        for _ in range(3):
            v = values(rng)
            planted += [v["name"], v["addr"], v["phone"], v["rrn"]]
            for label, val in (("성명", v["name"]), ("주민등록번호", v["rrn"]), ("주소", v["addr"]),
                               ("휴대전화", v["phone"])):
                d.rectangle([x0, y - px(2), W - px(20), y + line_h - px(2)], outline=0, width=2)
                d.line([x0 + px(40), y - px(2), x0 + px(40), y + line_h - px(2)], fill=0, width=2)
                d.text((x0 + px(3), y + px(1)), label, font=font, fill=0)
                d.text((x0 + px(45), y + px(1)), val, font=font, fill=0)
                typed.append(f"{label} {val}")
                y += line_h
            y += line_h
    else:  # table
        header = ["번호", "성명", "연락처", "주소"]
        cols = [x0, x0 + px(15), x0 + px(40), x0 + px(80), W - px(15)]
        rows = [header]
        for i in range(10):
            v = values(rng)
            planted += [v["name"], v["phone"], v["addr"]]
            rows.append([str(i + 1), v["name"], v["phone"], v["addr"]])
        for r in rows:
            for c in range(4):
                d.rectangle([cols[c], y - px(2), cols[c + 1], y + line_h - px(2)], outline=0, width=2)
                d.text((cols[c] + px(2), y + px(1)), r[c], font=font, fill=0)
            typed.append(" ".join(r))
            y += line_h
    return img, typed, planted


def degrade(img: Image.Image, rng: random.Random) -> Image.Image:
    img = img.rotate(rng.uniform(-1.5, 1.5), resample=Image.BICUBIC, expand=True, fillcolor=255)
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.6, 1.0)))
    px = img.load()
    w, h = img.size
    for _ in range(int(w * h * 0.002)):
        px[rng.randrange(w), rng.randrange(h)] = rng.choice((0, 255))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=75)
    return Image.open(io.BytesIO(buf.getvalue())).convert("L")


def levenshtein(a: str, b: str) -> int:
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def squash(s: str) -> str:
    return "".join(s.split())


def found(detector, text: str, vals: list[str], typed: str | None = None) -> int:
    """How many planted values a detected span covers (≥ 80 % of the value's characters).

    With ``typed``: ``text`` is OCR output of ``typed``; each value's place in ``typed`` is mapped into
    ``text`` through a character alignment (difflib), so a value OCR misread by a character still counts as
    found when the detector masks what OCR read there (that is what reaches the burned page)."""
    spans = list(detector.detect(text))
    mapper = None
    if typed is not None:
        sm = difflib.SequenceMatcher(None, typed, text, autojunk=False)
        blocks = sm.get_matching_blocks()

        def mapper(a: int, b: int) -> tuple[int, int]:
            # the OCR range between the nearest aligned characters around typed[a:b]
            lo, hi = 0, len(text)
            for blk in blocks:
                if blk.size == 0:
                    continue
                if blk.a <= a < blk.a + blk.size:
                    lo = blk.b + (a - blk.a)
                elif blk.a + blk.size <= a:
                    lo = max(lo, blk.b + blk.size)
                if blk.a < b <= blk.a + blk.size:
                    hi = min(hi, blk.b + (b - blk.a))
                elif blk.a >= b:
                    hi = min(hi, blk.b)
            return lo, max(lo, hi)
    n = 0
    source = typed if typed is not None else text
    for v in vals:
        start = source.find(v)
        hit = False
        while start >= 0 and not hit:
            a, b = start, start + len(v)
            if mapper is not None:
                a, b = mapper(a, b)
            if b > a and b - a <= 2 * len(v):
                covered = sum(min(b, s.end) - max(a, s.start) for s in spans if s.start < b and s.end > a)
                hit = covered >= (b - a) * 0.8
            start = source.find(v, start + 1)
        n += hit
    return n


def _without_second_look(img):
    """(OcrPage, seconds, CPU seconds) of ``img`` read without the second look and line re-reading."""
    keep = ocr._second_look, ocr._reread_lines
    ocr._second_look = lambda *a, **k: ([], set(), (None, []))
    ocr._reread_lines = lambda api, view, symbols: symbols
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        page = ocr.ocr_image(img)
        return page, time.perf_counter() - t0, time.process_time() - c0
    finally:
        ocr._second_look, ocr._reread_lines = keep


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages-per-kind", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--compare", action="store_true",
                    help="read every page twice, interleaved: as shipped and without the second look / line "
                         "re-reading of issue 26 (ocr._second_look, ocr._reread_lines), and print both")
    ap.add_argument("--dpi", default="300,200",
                    help="comma-separated resolutions to draw the pages at (targets exist for 300 and 200; "
                         "e.g. --dpi 150,100 for low-resolution scans and faxes)")
    args = ap.parse_args()
    dpis = [int(v) for v in args.dpi.split(",") if v.strip()]
    if not ocr.available():
        print("OCR not available", file=sys.stderr)
        return 2
    from veil_desktop.detect.default import build_default_detector

    detector = build_default_detector()
    rng = random.Random(args.seed)
    rows = []
    print(f"{'dpi':>4} {'kind':6} {'degraded':8} {'acc':>7} {'typed':>6} {'ocr':>6} {'s/page':>7} {'cpu s':>7}")
    for dpi in dpis:
        for kind in ("prose", "form", "table"):
            for _ in range(args.pages_per_kind):
                base, typed, planted = draw(kind, rng, dpi)
                for degraded in (False, True):
                    img = degrade(base, rng) if degraded else base
                    if args.compare:
                        plain = _without_second_look(img)
                        ref0, hyp0 = squash("".join(typed)), squash(plain[0].text)
                        print(f"{'':>4} {'':6} {'':8} {1 - levenshtein(ref0, hyp0) / max(1, len(ref0)):7.2%} "
                              f"{'':>6} {'':>6} {plain[1]:7.2f} {plain[2]:7.2f}  (without second look)")
                    t0, c0 = time.perf_counter(), time.process_time()
                    page = ocr.ocr_image(img)
                    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
                    ref, hyp = squash("".join(typed)), squash(page.text)
                    acc = 1 - levenshtein(ref, hyp) / max(1, len(ref))
                    typed_text = "\n".join(typed)
                    f_typed = found(detector, typed_text, planted)
                    f_ocr = found(detector, page.text, planted, typed=typed_text)
                    rows.append((dpi, kind, degraded, acc, f_typed, f_ocr, len(planted), secs, cpu))
                    print(f"{dpi:>4} {kind:6} {str(degraded):8} {acc:7.2%} {f_typed:>3}/{len(planted):<2} "
                          f"{f_ocr:>3}/{len(planted):<2} {secs:7.2f} {cpu:7.2f}", flush=True)
    print()
    ok_all = True
    for dpi in dpis:
        target = {300: 0.97, 200: 0.94}.get(dpi)
        accs = [r[3] for r in rows if r[0] == dpi]
        mean = statistics.mean(accs)
        met = target is None or mean >= target
        ok_all &= met
        print(f"character accuracy at {dpi} dpi: mean {mean:.2%} (min {min(accs):.2%}, max {max(accs):.2%}) "
              f"over {len(accs)} pages; " + ("no target" if target is None else
                                              f"target ≥ {target:.0%}: {'met' if met else 'NOT met'}"))
    typed_found = sum(r[4] for r in rows)
    ocr_found = sum(r[5] for r in rows)
    ratio = ocr_found / max(1, typed_found)
    print(f"PII recall on OCR text relative to typed text: {ocr_found}/{typed_found} = {ratio:.1%}; "
          f"target ≥ 95%: {'met' if ratio >= 0.95 else 'NOT met'}")
    secs = [r[7] for r in rows]
    a4 = statistics.median(secs)
    print(f"seconds per A4 page (OCR, OMP_THREAD_LIMIT={os.environ.get('OMP_THREAD_LIMIT')}): median {a4:.2f} "
          f"(min {min(secs):.2f}, max {max(secs):.2f}); target ≤ 3 s: {'met' if a4 <= 3 else 'NOT met'}")
    cpus = [r[8] for r in rows]
    print(f"CPU seconds per page (this process, all threads): median {statistics.median(cpus):.2f} "
          f"(min {min(cpus):.2f}, max {max(cpus):.2f}); load average now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
