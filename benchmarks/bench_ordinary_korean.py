"""Ordinary Korean office documents through the batch CLI: how many are held back, and why (issue 26).

    nice -n 10 .venv/bin/python benchmarks/bench_ordinary_korean.py DIR [--seed 26] [--generate-only] [--no-ocr]

issue 26, "Done when": *ordinary Korean documents are never held back (<= 2 %)* and *0 false alarms* (a file
refused or held by the fail-closed leak check / second opinion because of something that is not personal
information: an English word found in format bytes, a table of budget figures taken for an identifier ...).

The corpus (DIR/in, DIR/manifest.json; seeded, deterministic) is written by software this project did not
write wherever possible: DOCX by python-docx (headings, a budget table with 4-9 digit amounts such as
12,500,000원, dates 2026-03-14, a header with a document number, a footer with a PAGE field, a logo PNG and
a bar chart with axis numbers drawn by Pillow, English acronyms PDF/HWP/KPI/OECD/ISO 9001), PDF by fpdf2
(same content, header/footer with "- n / N -"; a third each with logo and chart, logo only, no picture),
TXT and Markdown notices and minutes (Markdown saved as ``.md.txt``: the CLI has no .md format), CSV budget
tables (with and without thousands separators) and event schedules (times, room numbers), and PNG scans of a
notice rendered by Pillow (150 dpi; half with a slight skew, blur and grain). The prose is KLUE-NER v1.1 dev news sentences (wikitree, CC BY-SA 4.0, KLUE
benchmark, Park et al. 2021) from ``../shared/data`` without a person tag; about half of the files also
carry one planted contact (a person's name, a mobile phone, a street address), which a reviewer expects
masked. The Korean font is the repository's resources/fonts/NanumGothic.ttf (OFL): ``fc-list :lang=ko``
finds none on this machine.

The files are redacted as a user would (``benchmarks/redteam2.redact``: ``veil-redact redact DIR/in --out
DIR/out --quiet --threads 1``, default detector), each is classified from the summary table as published
(``ok``), needs review (``REVIEW``) or refused (``FAILED``) with the product's own message, grouped by cause;
every published file with a planted contact is read by ``benchmarks/leak_oracle.py`` (all views, OCR of
pictures and pages) and compared with its input (an output byte-identical to an input with a planted
contact is a leak too; a PNG output's compressed pixels are left out of the oracle's raw-bytes view, where
they read as digit noise). For a refusal by the leak check the file is redacted once more in a process whose
leak check prints what it matched; for a hold, the reader's own reason per part is printed. Figures:
overall and per format; target <= 2 % held back and 0 false alarms. Results: DIR/results.json.

Every file of this corpus is ordinary, so every hold is counted against the <= 2 % target; a hold or
refusal that comes from the leak check or the second opinion is a *false alarm* unless what it found is a
planted value left unmasked (then it is a caught miss: the row is marked "check: planted contact").
The planted values are chosen so that the oracle does not find them in a copy of the same file written
without the contact (no digit run of the document is a piece of the phone, no name/street fragment
occurs in the prose), so an oracle hit is the planted value, not a budget figure.
"""
from __future__ import annotations

import csv
import io
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import leak_oracle  # noqa: E402
import redteam2  # noqa: E402

FONT = ROOT / "resources" / "fonts" / "NanumGothic.ttf"
KLUE = ROOT.parent / "shared" / "data" / "klue-ner-v1.1-dev-first4000.tsv"

COUNTS = {"docx": 36, "pdf": 24, "txt": 16, "csv": 16, "md": 12, "png": 16}      # 120 files

NAMES = ["김민준", "이서연", "박지호", "최유진", "정도윤", "강하은", "조현우", "윤지민", "장서준", "임수빈",
         "한예린", "신동현", "서지안", "권나연", "황민재", "안소율", "송태윤", "류하린", "전우진", "홍채원",
         "문가은", "배준혁", "백서영", "남궁민호", "유다인", "고은비", "노승현", "하지원", "곽태민", "성예은"]
ADDRS = ["서울특별시 마포구 월드컵북로 396", "부산광역시 해운대구 센텀중앙로 79", "대구광역시 수성구 달구벌대로 2450",
         "인천광역시 연수구 컨벤시아대로 165", "광주광역시 서구 상무중앙로 110", "대전광역시 유성구 대학로 99",
         "경기도 성남시 분당구 판교역로 235", "울산광역시 남구 삼산로 274", "강원특별자치도 춘천시 중앙로 1",
         "충청북도 청주시 상당구 상당로 82", "전라남도 목포시 영산로 333", "경상북도 포항시 남구 대잠동길 28",
         "서울특별시 강남구 테헤란로 152", "서울특별시 종로구 세종대로 209", "경기도 수원시 팔달구 효원로 241",
         "제주특별자치도 제주시 문연로 6"]
DEPTS = ["기획예산팀", "총무과", "정보화담당관실", "교육지원과", "경영지원팀", "대외협력팀", "품질관리팀", "시설관리과"]
ORGS = ["한빛시청", "미래교육청", "누리재단", "다온공사", "세움연구원", "가람구청"]
THEMES = [
    ("2026년 상반기 사업 추진 계획", "추진 배경", "세부 추진 계획"),
    ("제3차 운영위원회 회의록", "회의 개요", "논의 사항"),
    ("2026년 1분기 예산 집행 현황 보고", "집행 현황", "향후 계획"),
    ("정보보호 교육 실시 결과 보고", "교육 개요", "결과 및 개선 사항"),
    ("시민 참여 행사 개최 안내", "행사 개요", "세부 일정"),
    ("주간 업무 보고", "주요 업무 실적", "다음 주 계획"),
    ("물품 구매 요청서", "구매 목적", "구매 내역"),
    ("ISO 9001 사후 심사 대응 계획", "심사 개요", "부서별 준비 사항"),
]
ACRONYM_LINES = [
    "최종 보고서는 PDF와 HWP 두 가지 형식으로 제출하며, 원본 DOCX 파일은 내부 문서함에 보관합니다.",
    "핵심성과지표(KPI) 달성률은 전년 대비 4.2%p 상승하였으며 OECD 평균 수준에 근접하였습니다.",
    "ISO 9001 및 ISO 27001 인증 갱신 심사는 2026년 5월 중 진행될 예정입니다.",
    "ERP 시스템과 연계된 CSV 자료를 바탕으로 분기별 KPI 대시보드를 갱신하였습니다.",
    "첨부된 PDF 파일의 Q&A 항목을 참고하여 HWP 양식으로 의견을 작성해 주시기 바랍니다.",
    "본 계획은 OECD 디지털 정부 지표와 UN SDGs 목표를 참고하여 수립하였습니다.",
]
BUDGET_ITEMS = ["인건비", "운영비", "여비", "업무추진비", "자산취득비", "연구개발비", "홍보비", "교육훈련비",
                "시설유지비", "전산운영비"]
ROOMS = ["본관 302호", "별관 2층 대회의실", "B동 1104호", "제2회의실(본관 5층)", "교육장 A(지하 1층)", "501호 세미나실"]
EVENTS = ["개회식 및 인사말", "기조 강연", "사례 발표", "분임 토의", "질의응답(Q&A)", "폐회 및 설문 조사", "네트워킹",
          "현장 견학"]


# ------------------------------------------------------------------------------------------ sentences
def klue_sentences() -> list[str]:
    """KLUE-NER dev news sentences (wikitree) without a person tag, markup removed."""
    out = []
    for line in KLUE.read_text(encoding="utf-8").splitlines():
        if not line.startswith("## klue-ner") or not line.split("\t")[0].endswith("wikitree"):
            continue
        mark = line.split("\t", 1)[1]
        if ":PS>" in mark:
            continue
        text = re.sub(r"<([^<>:]+):[A-Z]{2}>", r"\1", mark).strip()
        if 25 <= len(text) <= 160 and not re.search(r"[<>\u2e80-\u9fff\uf900-\ufaff]", text):   # no Hanja
            out.append(text)
    return out


# ------------------------------------------------------------------------------------------ content
def won(n: int) -> str:
    return f"{n:,}원"


def budget_rows(rng: random.Random, n: int = 6) -> list[list]:
    rows = []
    for item in rng.sample(BUDGET_ITEMS, n):
        budget = rng.choice([rng.randrange(1_000, 99_999) * 100, rng.randrange(10, 999) * 100_000,
                             rng.randrange(100, 9_999) * 10_000])
        spent = int(budget * rng.uniform(0.3, 0.98)) // 1000 * 1000
        rows.append([item, budget, spent, budget - spent, f"{100 * spent / budget:.1f}%"])
    return rows


def schedule_rows(rng: random.Random, date: str) -> list[list[str]]:
    rows, h, m = [], rng.choice([9, 10, 13, 14]), 0
    for ev in rng.sample(EVENTS, 5):
        dur = rng.choice([20, 30, 40, 50, 60])
        eh, em = h + (m + dur) // 60, (m + dur) % 60
        rows.append([date, f"{h:02d}:{m:02d}~{eh:02d}:{em:02d}", rng.choice(ROOMS), ev, rng.choice(DEPTS)])
        h, m = eh, em
    return rows


def make_content(i: int, rng: random.Random, sents: list[str], n: int = 0) -> dict:
    title, sec1, sec2 = THEMES[i % len(THEMES)]
    month, day = rng.randrange(1, 13), rng.randrange(1, 29)
    date = f"2026-{month:02d}-{day:02d}"
    dept, org = rng.choice(DEPTS), rng.choice(ORGS)
    return {
        "title": title, "sec1": sec1, "sec2": sec2, "date": date, "dept": dept, "org": org,
        "docno": f"{dept}-{rng.randrange(100, 9999)}",
        "body1": rng.sample(sents, rng.randrange(3, 6)),
        "body2": rng.sample(sents, rng.randrange(2, 5)),
        "acronyms": rng.sample(ACRONYM_LINES, 2),
        "budget": budget_rows(rng, rng.randrange(4, 8)),
        "schedule": schedule_rows(rng, date),
        "chart": [rng.randrange(5, 95) * 1000 for _ in range(4)],
        "quarter": rng.choice(["1분기", "2분기", "3분기", "4분기"]),
        "comma_csv": rng.random() < 0.5,
        "office_phone": rng.random() < 0.3,
        "scan_skew": rng.choice([0.0, 0.0, 0.4, -0.6]),
        "pdf_pictures": ("logo+chart", "logo", "none")[n % 3],      # PDF: a third each
    }


def contact_line(c: dict, pii: dict | None) -> str | None:
    if pii is None:
        return None
    return f"담당자: {pii['NAME']} 주무관 (연락처 {pii['PHONE']}, 주소 {pii['ADDR']})"


def office_line(c: dict) -> str | None:
    return f"문의: {c['org']} {c['dept']} (대표전화 02-2100-{4000 + len(c['dept']) * 7})" if c["office_phone"] else None


def budget_header() -> list[str]:
    return ["항목", "예산액", "집행액", "잔액", "집행률"]


def budget_cells(r: list) -> list[str]:
    return [r[0], won(r[1]), won(r[2]), won(r[3]), r[4]]


def total_cells(rows: list[list]) -> list[str]:
    b, s = sum(r[1] for r in rows), sum(r[2] for r in rows)
    return ["합계", won(b), won(s), won(b - s), f"{100 * s / b:.1f}%"]


# ------------------------------------------------------------------------------------------ pictures
def pil_font(px: int):
    from PIL import ImageFont
    return ImageFont.truetype(str(FONT), px)


def logo_png(org: str) -> bytes:
    from PIL import Image, ImageDraw
    img = Image.new("RGB", (240, 80), "white")
    d = ImageDraw.Draw(img)
    d.ellipse((8, 8, 72, 72), fill=(20, 90, 160))
    d.polygon([(40, 18), (62, 58), (18, 58)], fill="white")
    d.text((84, 22), org, fill=(20, 90, 160), font=pil_font(28))
    return redteam2.enc(img, "PNG")


def chart_png(values: list[int], quarter: str) -> bytes:
    from PIL import Image, ImageDraw
    w, h = 900, 500
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    f = pil_font(20)
    x0, y0, x1, y1 = 110, 60, 860, 430
    top = (max(values) // 20000 + 1) * 20000
    d.text((x0, 15), f"분기별 집행액 추이 (단위: 천원, {quarter} 기준)", fill="black", font=f)
    for k in range(0, top + 1, 20000):
        y = y1 - (y1 - y0) * k / top
        d.line((x0, y, x1, y), fill=(210, 210, 210))
        d.text((10, y - 11), f"{k:,}", fill="black", font=f)
    d.line((x0, y0, x0, y1), fill="black", width=2)
    d.line((x0, y1, x1, y1), fill="black", width=2)
    bw = (x1 - x0) // len(values)
    for n, v in enumerate(values):
        bx = x0 + n * bw + bw // 4
        by = y1 - (y1 - y0) * v / top
        d.rectangle((bx, by, bx + bw // 2, y1), fill=(70, 130, 180))
        d.text((bx, by - 26), f"{v:,}", fill="black", font=f)
        d.text((bx + 10, y1 + 12), f"{n + 1}분기", fill="black", font=f)
    return redteam2.enc(img, "PNG")


def notice_png(c: dict, pii: dict | None) -> bytes:
    """A scanned A4 notice (150 dpi, slightly grey paper): title, prose, a schedule table, contact."""
    from PIL import Image, ImageDraw
    w, h = 1240, 1754
    img = Image.new("RGB", (w, h), (248, 247, 243))
    d = ImageDraw.Draw(img)
    big, f, small = pil_font(46), pil_font(27), pil_font(22)
    d.text((100, 90), c["org"], fill=(30, 30, 30), font=small)
    d.text((100, 140), c["title"], fill="black", font=big)
    d.text((100, 215), f"{c['dept']} | {c['date']} | 문서번호 {c['docno']}", fill=(40, 40, 40), font=small)
    y = 290
    for s in c["body1"][:3] + c["acronyms"][:1]:
        for line in wrap(s, 40):
            d.text((100, y), line, fill="black", font=f)
            y += 42
        y += 14
    y += 20
    d.text((100, y), "■ 세부 일정", fill="black", font=f)
    y += 50
    cols = [100, 290, 490, 790, 1140]
    for row in [["일자", "시간", "장소", "내용"]] + [r[:4] for r in c["schedule"]]:
        d.rectangle((cols[0] - 8, y - 6, cols[-1], y + 40), outline=(90, 90, 90))
        for k, cell in enumerate(row):
            d.text((cols[k], y), cell, fill="black", font=small)
        y += 46
    y += 40
    extra = [x for x in (contact_line(c, pii), office_line(c)) if x]
    for s in extra:
        for line in wrap(s, 42):
            d.text((100, y), line, fill="black", font=f)
            y += 42
    d.text((w // 2 - 30, h - 90), "- 1 -", fill=(60, 60, 60), font=small)
    if c["scan_skew"]:                  # fed through a scanner: a slight skew, a little blur and grain
        from PIL import ImageFilter
        img = img.rotate(c["scan_skew"], resample=Image.BICUBIC, fillcolor=(248, 247, 243))
        img = img.filter(ImageFilter.GaussianBlur(0.6))
        noise = Image.effect_noise(img.size, 6).convert("RGB")
        img = Image.blend(img, noise, 0.04)
    return redteam2.enc(img, "PNG")


def wrap(s: str, n: int) -> list[str]:
    words, lines, cur = s.split(" "), [], ""
    for wd in words:
        if cur and len(cur) + 1 + len(wd) > n:
            lines.append(cur)
            cur = wd
        else:
            cur = f"{cur} {wd}" if cur else wd
    return lines + [cur] if cur else lines


# ------------------------------------------------------------------------------------------ writers
def write_docx(c: dict, pii: dict | None) -> bytes:
    import docx
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Cm, Pt

    d = docx.Document()
    st = d.styles["Normal"]
    st.font.name = "맑은 고딕"
    st.font.size = Pt(10.5)
    st.element.rPr.rFonts.set(qn("w:eastAsia"), "맑은 고딕")
    sec = d.sections[0]
    hp = sec.header.paragraphs[0]
    hp.text = f"{c['org']} {c['dept']}\t\t문서번호 {c['docno']}"
    fp = sec.footer.paragraphs[0]
    fp.alignment = WD_ALIGN_PARAGRAPH.CENTER
    fp.add_run("- ")
    fld = OxmlElement("w:fldSimple")
    fld.set(qn("w:instr"), "PAGE")
    r = OxmlElement("w:r")
    t = OxmlElement("w:t")
    t.text = "1"
    r.append(t)
    fld.append(r)
    fp._p.append(fld)
    fp.add_run(" -")
    d.add_picture(io.BytesIO(logo_png(c["org"])), width=Cm(4))
    d.add_heading(c["title"], 0)
    d.add_paragraph(f"작성일: {c['date']}    작성 부서: {c['dept']}")
    d.add_heading(f"1. {c['sec1']}", 1)
    for s in c["body1"]:
        d.add_paragraph(s)
    for s in c["acronyms"]:
        d.add_paragraph(s, style="List Bullet")
    d.add_heading(f"2. {c['sec2']}", 1)
    d.add_paragraph(f"표 1. {c['quarter']} 예산 집행 현황 (단위: 원)")
    rows = c["budget"]
    tb = d.add_table(rows=1, cols=5)
    tb.style = "Table Grid"
    for k, h in enumerate(budget_header()):
        tb.rows[0].cells[k].text = h
    for row in [budget_cells(r) for r in rows] + [total_cells(rows)]:
        cells = tb.add_row().cells
        for k, v in enumerate(row):
            cells[k].text = v
    d.add_paragraph("")
    d.add_picture(io.BytesIO(chart_png(c["chart"], c["quarter"])), width=Cm(14))
    d.add_paragraph("그림 1. 분기별 집행액 추이")
    for s in c["body2"]:
        d.add_paragraph(s)
    d.add_heading("3. 일정", 1)
    st2 = d.add_table(rows=1, cols=4)
    st2.style = "Table Grid"
    for k, h in enumerate(["일자", "시간", "장소", "내용"]):
        st2.rows[0].cells[k].text = h
    for row in c["schedule"]:
        cells = st2.add_row().cells
        for k, v in enumerate(row[:4]):
            cells[k].text = v
    for s in (contact_line(c, pii), office_line(c)):
        if s:
            d.add_paragraph(s)
    d.add_paragraph(f"붙임 1. {c['title']} 세부 자료 1부.  끝.")
    d.core_properties.author = c["dept"]
    d.core_properties.title = c["title"]
    b = io.BytesIO()
    d.save(b)
    return b.getvalue()


def write_pdf(c: dict, pii: dict | None) -> bytes:
    from fpdf import FPDF
    from fpdf.enums import XPos, YPos
    nl = {"new_x": XPos.LMARGIN, "new_y": YPos.NEXT}

    class Doc(FPDF):
        def header(self):
            self.set_font("nanum", size=8)
            self.cell(0, 6, f"{c['org']} {c['dept']}   문서번호 {c['docno']}", align="R")
            self.ln(8)

        def footer(self):
            self.set_y(-14)
            self.set_font("nanum", size=8)
            self.cell(0, 8, f"- {self.page_no()} / {{nb}} -", align="C")

    p = Doc(format="A4")
    p.set_creation_date(__import__("datetime").datetime(2026, 3, 14, 9, 0, 0))
    p.add_font("nanum", fname=str(FONT))
    p.set_auto_page_break(True, 18)
    p.alias_nb_pages()
    p.set_title(c["title"])
    p.set_author(c["dept"])
    p.add_page()
    if c["pdf_pictures"] != "none":
        p.image(io.BytesIO(logo_png(c["org"])), w=36)
    p.set_font("nanum", size=18)
    p.multi_cell(0, 10, c["title"], **nl)
    p.set_font("nanum", size=10)
    p.multi_cell(0, 6, f"작성일: {c['date']}    작성 부서: {c['dept']}", **nl)
    p.ln(3)
    for head, body in ((f"1. {c['sec1']}", c["body1"] + c["acronyms"]), (f"2. {c['sec2']}", c["body2"])):
        p.set_font("nanum", size=13)
        p.multi_cell(0, 8, head, **nl)
        p.set_font("nanum", size=10)
        for s in body:
            p.multi_cell(0, 6, s, **nl)
            p.ln(1)
    p.ln(2)
    p.multi_cell(0, 6, f"표 1. {c['quarter']} 예산 집행 현황 (단위: 원)", **nl)
    widths = (34, 38, 38, 38, 26)
    rows = c["budget"]
    for n, row in enumerate([budget_header()] + [budget_cells(r) for r in rows] + [total_cells(rows)]):
        for k, v in enumerate(row):
            p.cell(widths[k], 7, v, border=1, align="C" if n == 0 or k == 0 else "R")
        p.ln(7)
    p.ln(3)
    if c["pdf_pictures"] == "logo+chart":
        p.image(io.BytesIO(chart_png(c["chart"], c["quarter"])), w=140)
        p.multi_cell(0, 6, "그림 1. 분기별 집행액 추이", **nl)
    for s in (contact_line(c, pii), office_line(c)):
        if s:
            p.multi_cell(0, 6, s, **nl)
    p.multi_cell(0, 6, f"붙임 1. {c['title']} 세부 자료 1부.  끝.", **nl)
    return bytes(p.output())


def write_txt(c: dict, pii: dict | None) -> bytes:
    lines = [f"[{c['org']}] {c['title']}", f"문서번호: {c['docno']}  /  작성일: {c['date']}  /  {c['dept']}", "",
             f"1. {c['sec1']}"] + [f"  - {s}" for s in c["body1"]] + [""] + [f"  * {s}" for s in c["acronyms"]]
    lines += ["", f"2. {c['sec2']}"] + [f"  - {s}" for s in c["body2"]] + ["", "3. 일정"]
    lines += [f"  {r[0]} {r[1]}  {r[2]}  {r[3]}" for r in c["schedule"]]
    lines += ["", f"4. {c['quarter']} 예산 집행 (단위: 원)"]
    lines += [f"  {r[0]}: 예산 {won(r[1])}, 집행 {won(r[2])} ({r[4]})" for r in c["budget"]]
    lines += [""] + [s for s in (contact_line(c, pii), office_line(c)) if s] + ["", "- 1 -"]
    return ("\n".join(lines) + "\n").encode("utf-8")


def write_md(c: dict, pii: dict | None) -> bytes:
    lines = [f"# {c['title']}", "", f"- 작성일: {c['date']}", f"- 작성 부서: {c['org']} {c['dept']}",
             f"- 문서번호: {c['docno']}", "", f"## 1. {c['sec1']}", ""] + c["body1"] + [""]
    lines += [f"- {s}" for s in c["acronyms"]] + ["", f"## 2. {c['sec2']}", ""] + c["body2"] + [""]
    lines += [f"### 표 1. {c['quarter']} 예산 집행 현황 (단위: 원)", "", "| " + " | ".join(budget_header()) + " |",
              "|---|---:|---:|---:|---:|"]
    lines += ["| " + " | ".join(budget_cells(r)) + " |" for r in c["budget"]]
    lines += ["| " + " | ".join(total_cells(c["budget"])) + " |", "", "## 3. 일정", "",
              "| 일자 | 시간 | 장소 | 내용 |", "|---|---|---|---|"]
    lines += ["| " + " | ".join(r[:4]) + " |" for r in c["schedule"]]
    lines += [""] + [s for s in (contact_line(c, pii), office_line(c)) if s]
    return ("\n".join(lines) + "\n").encode("utf-8")


def write_csv(c: dict, pii: dict | None, kind: str) -> bytes:
    b = io.StringIO()
    w = csv.writer(b, lineterminator="\r\n")
    if kind == "budget":
        w.writerow(budget_header() + ["비고"])
        for r in c["budget"]:
            amounts = [f"{v:,}" if c["comma_csv"] else str(v) for v in r[1:4]]
            w.writerow([r[0]] + amounts + [r[4], f"{c['quarter']} 기준"])
        if pii:
            w.writerow(["작성자", "", "", "", "", f"{pii['NAME']} {pii['PHONE']} {pii['ADDR']}"])
    else:
        w.writerow(["일자", "시간", "장소", "내용", "담당 부서", "담당자 연락처"])
        for n, r in enumerate(c["schedule"]):
            who = f"{pii['NAME']} {pii['PHONE']}" if pii and n == 0 else ""
            w.writerow(r + [who])
        if pii:
            w.writerow(["", "", "", "집결 장소", "", pii["ADDR"]])
    return b.getvalue().encode("utf-8-sig")


def build(fmt: str, n: int, c: dict, pii: dict | None) -> tuple[str, bytes]:
    if fmt == "docx":
        return f"docx_{n:03d}.docx", write_docx(c, pii)
    if fmt == "pdf":
        return f"pdf_{n:03d}.pdf", write_pdf(c, pii)
    if fmt == "txt":
        return f"txt_{n:03d}.txt", write_txt(c, pii)
    if fmt == "md":
        return f"md_{n:03d}.md", write_md(c, pii)     # not a supported suffix: written as .txt below
    if fmt == "csv":
        kind = "budget" if n % 2 == 0 else "schedule"
        return f"csv_{kind}_{n:03d}.csv", write_csv(c, pii, kind)
    return f"scan_{n:03d}.png", notice_png(c, pii)


# ------------------------------------------------------------------------------------------ generate
def control_texts(fmt: str, c: dict, control: Path) -> list[str]:
    """What the oracle could read in ``control`` (the file written without the contact), normalised both
    ways. DOCX: every member but the pictures; TXT/CSV: every view; PDF: the text layer and metadata (the
    file's bytes, fonts and picture streams are binary noise that the product's rasterised output does not
    keep); PNG and
    the pictures: the text drawn in them (the generator's own strings)."""
    data = control.read_bytes()
    drawn = [write_txt(c, None).decode("utf-8"), " ".join(f"{v:,}" for v in c["chart"]),
             " ".join(f"{k:,}" for k in range(0, 200001, 20000))]
    if data[:2] == b"PK":
        import zipfile
        z = zipfile.ZipFile(io.BytesIO(data))
        views = [t for i in z.infolist() if not i.filename.endswith(".png") for t in leak_oracle.text_views(z.read(i))]
    elif fmt == "pdf":
        views = [t for w, t in leak_oracle.views_of(control, ocr=False) if w.startswith(("page", "metadata"))]
    elif fmt == "png":
        views = []
    else:
        views = [t for _, t in leak_oracle.views_of(control, ocr=False)]
    return [leak_oracle.norm(t, s) for t in views + drawn for s in (True, False)]


def pick_pii(rng: random.Random, normed: list[str]) -> dict:
    """A contact the oracle does not find in ``normed`` (control_texts): no 2-syllable piece of the name and
    no 3-character piece of the street in it, no digit run of it a piece of the phone's digits."""
    joined = "\x00".join(normed)
    runs = {m.group() for t in normed for m in re.finditer(r"\d{4,11}(?!\d)", t) if not t[max(0, m.start() - 1):m.start()].isdigit()}
    for _ in range(2000):
        while True:
            phone = f"010-{rng.randrange(2000, 9999)}-{rng.randrange(1000, 9999)}"
            if not re.search(r"(\d)\1\1", phone):
                break
        vals = {"NAME": rng.choice(NAMES), "PHONE": phone, "ADDR": rng.choice(ADDRS),
                "RRN": "000000-0000000", "EMAIL": "none@example.invalid"}
        pats = leak_oracle.patterns(vals)
        digits = pats["PHONE"][0][1]
        if any(p in joined for k in ("NAME", "ADDR") for _, p in pats[k]) or any(r in digits for r in runs):
            continue
        return vals
    raise RuntimeError("no contact the oracle cannot find in the control file")


def generate(dest: Path, seed: int) -> list[dict]:
    inp = dest / "in"
    ctl = dest / "control"
    for d in (inp, ctl):
        d.mkdir(parents=True, exist_ok=True)
    sents = klue_sentences()
    man = []
    i = 0
    import logging
    logging.getLogger("fontTools").setLevel(logging.ERROR)     # fpdf2's font subsetting: "TSI0 NOT subset"
    for fmt, count in COUNTS.items():
        t0 = time.perf_counter()
        for n in range(count):
            rng = random.Random(f"{seed}:{fmt}:{n}")
            c = make_content(i, rng, sents, n)
            planted = (n % 2 == 0) if fmt != "csv" else (n % 4 in (0, 1))
            name, data = build(fmt, n, c, None)
            if fmt == "md":
                name = name + ".txt"          # the CLI reads .txt; a Markdown file saved as text
            pii = None
            if planted:
                (ctl / name).write_bytes(data)
                try:
                    pii = pick_pii(random.Random(f"{seed}:pii:{fmt}:{n}"), control_texts(fmt, c, ctl / name))
                except RuntimeError as e:
                    raise RuntimeError(f"{name}: {e}") from None
                _, data = build(fmt, n, c, pii)
            (inp / name).write_bytes(data)
            man.append({"file": name, "format": fmt, "values": ["NAME", "PHONE", "ADDR"] if pii else [],
                        "pii": pii, "pictures": c["pdf_pictures"] if fmt == "pdf" else
                        ("logo+chart" if fmt == "docx" else "page" if fmt == "png" else "none")})
            i += 1
        print(f"  {fmt}: {count} files, {time.perf_counter() - t0:.1f} s", flush=True)
    (dest / "manifest.json").write_text(json.dumps({"seed": seed, "files": man}, ensure_ascii=False, indent=1),
                                        encoding="utf-8")
    return man


# ------------------------------------------------------------------------------------------ judge
ROW = re.compile(r"^(?P<name>\S.*?)\s{2,}(?P<status>ok|REVIEW|FAILED)\s+(?P<masked>\d+)\s+(?P<sec>[\d.]+)"
                 r"(?:\s{2}(?P<detail>.*))?$")


def parse_summary(stdout: str) -> dict[str, dict]:
    rows = {}
    for ln in stdout.splitlines():
        m = ROW.match(ln)
        if m:
            rows[Path(m.group("name").lstrip("…")).name] = {
                "status": m.group("status"), "masked": int(m.group("masked")), "sec": float(m.group("sec")),
                "detail": (m.group("detail") or "").strip()}
    return rows


def cause_of(detail: str) -> str:
    """The product's message without file-specific numbers: the group key."""
    s = re.sub(r"\(earlier output .*?\)", "", detail)
    s = re.sub(r"\d+", "N", s)
    return s[:220].strip()


def second_opinion_or_leak(detail: str) -> bool:
    d = detail.lower()
    return d.startswith("leak check") or ("needs review" in d and "cannot be read as text" not in d)


def png_without_image_data(data: bytes) -> bytes:
    """``data`` (a PNG) with the compressed pixels of its IDAT chunks blanked: read as text they are noise
    in which the digit rule finds runs such as ``0104`` (seen: a published scan "leaking" its phone from
    its deflate stream); every other chunk (text, private, after IEND) stays as it is."""
    import struct
    out, pos = bytearray(data), 8
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I", data[pos:pos + 4])[0], data[pos + 4:pos + 8]
        if kind == b"IDAT":
            out[pos + 8:pos + 8 + n] = b" " * min(n, len(data) - pos - 8)
        pos += 12 + n
        if kind == b"IEND":
            break
    return bytes(out)


def oracle_leaks(path: Path, keys: list[str], values: dict, ocr: bool) -> list[tuple[str, str, str]]:
    """leak_oracle.leaks_in, with a PNG output's raw-bytes view read without its compressed pixels."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return leak_oracle.leaks_in(path, keys, values, ocr=ocr)
    views = [("bytes", t) for t in leak_oracle.text_views(png_without_image_data(data))]
    views += leak_oracle.image_views(data, ocr)
    pats, found, seen = leak_oracle.patterns(values), [], set()
    for where, text in views:
        for seps in (True, False):
            t = leak_oracle.norm(text, seps)
            for k in keys:
                hit = None if k in seen else leak_oracle.find(pats[k], t)
                if hit is not None:
                    seen.add(k)
                    found.append((k, where, hit))
    return found


DIAG = r"""
import sys
from veil_desktop.documents import leakcheck
orig = leakcheck._scan_text
def scan(name, text, matcher, rep, xml):
    n = len(rep.hits)
    orig(name, text, matcher, rep, xml)
    if len(rep.hits) > n:
        h = matcher.search(text)
        if h:
            print("DIAG-HIT", repr(text[h[0]:h[1]]), "IN", repr(text[max(0, h[0] - 30):h[1] + 30]), "AT", name)
        else:
            print("DIAG-HIT (a view of)", name)
leakcheck._scan_text = scan
from veil_desktop.cli import main
sys.argv = ["veil-redact", "redact", sys.argv[1], "--out", sys.argv[2], "--quiet", "--threads", "1"]
main()
"""


def diagnose_leak_check(src: Path, tmp: Path) -> str:
    """What the leak check found, for a file it refused: the file redacted once more in a process whose
    leak check prints the matched text (the values of this corpus are planted or public news text)."""
    import subprocess
    r = subprocess.run([sys.executable, "-c", DIAG, str(src), str(tmp)], capture_output=True, text=True,
                       cwd=str(ROOT), env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    return " | ".join(ln[9:] for ln in r.stdout.splitlines() if ln.startswith("DIAG-HIT"))[:400] or "(not found)"


def diagnose_review(src: Path) -> str:
    """The reader's own reason for each unreadable part (the CLI's message names the page, not why)."""
    try:
        from veil_desktop.documents import open_document
        doc = open_document(src)
        return "; ".join(f"{u.where}: {u.reason} ({u.caption_en})" for u in doc.unreadable)[:400]
    except Exception as e:  # noqa: BLE001 - diagnosis only
        return f"(cannot open: {type(e).__name__})"


def planted_in(fragment: str, pii: dict | None) -> bool:
    if not pii:
        return False
    t = leak_oracle.norm(fragment)
    pats = leak_oracle.patterns(pii)
    return any(leak_oracle.find(pats[k], t) is not None for k in ("NAME", "PHONE", "ADDR"))


def judge(dest: Path, stdout: str, ocr: bool) -> list[dict]:
    man = json.loads((dest / "manifest.json").read_text(encoding="utf-8"))["files"]
    rows = parse_summary(stdout)
    res = []
    for f in man:
        rel = f["file"]
        row = rows.get(rel, {"status": "MISSING", "masked": 0, "sec": 0.0, "detail": "no row in the summary"})
        r = dict(f, **row)
        out = dest / "out" / rel
        r["verdict"] = {"ok": "published", "REVIEW": "needs review"}.get(row["status"], "refused")
        r["leaks"] = []
        r["notes"] = []
        if row["status"] == "ok" and out.exists():
            rep = out.with_name(out.name + ".report.json")
            if rep.exists():
                r["report"] = summarise_report(json.loads(rep.read_text(encoding="utf-8")))
            if f["pii"]:
                if out.read_bytes() == (dest / "in" / rel).read_bytes():
                    r["leaks"].append(("ALL", "output", "byte-identical to the input"))
                r["leaks"] += oracle_leaks(out, f["values"], f["pii"], ocr)
        elif row["status"] == "ok":
            r["verdict"] = "refused"
            r["detail"] = "status ok but no output file"
        if r["verdict"] != "published":
            r["false_alarm"] = second_opinion_or_leak(r["detail"])
            if r["detail"].startswith("leak check"):
                r["diagnosis"] = diagnose_leak_check(dest / "in" / rel, dest / "diag")
                frag = re.findall(r"^'([^']*)'", r["diagnosis"])
                if frag and planted_in(frag[0], f["pii"]):
                    r["false_alarm"] = False          # a planted value left unmasked: a caught miss
                    r["caught_miss"] = True
            elif r["verdict"] == "needs review":
                r["diagnosis"] = diagnose_review(dest / "in" / rel)
        res.append(r)
    return res


def summarise_report(rep: dict) -> dict:
    """What the report says about the checks (it holds no original values)."""
    so = rep.get("second_opinion") or {}
    lc = rep.get("leak_check") or {}
    return {"counts": rep.get("counts"), "leak_check": lc.get("result"), "unverifiable": lc.get("unverifiable"),
            "second_opinion": so.get("result"), "possible_misses": so.get("possible_misses") or [],
            "blocking": so.get("blocking") or []}


def pct(a: int, n: int) -> str:
    return f"{100.0 * a / n:.1f} %" if n else "-"


def print_figures(res: list[dict], head: str, wall: float) -> bool:
    n = len(res)
    by = Counter(r["verdict"] for r in res)
    held = by["needs review"] + by["refused"]
    fa = [r for r in res if r.get("false_alarm")]
    leaky = [r for r in res if r["leaks"]]
    planted = [r for r in res if r["pii"]]
    print(f"\nHEAD {head}; redaction wall time {wall:.0f} s")
    print(f"files {n} (planted contact in {len(planted)}): published {by['published']} ({pct(by['published'], n)}), "
          f"needs review {by['needs review']} ({pct(by['needs review'], n)}), refused {by['refused']} "
          f"({pct(by['refused'], n)})")
    print(f"held back (review + refused): {held} ({pct(held, n)}); false alarms (leak check / second opinion): "
          f"{len(fa)}; published with a leak: {len(leaky)} of "
          f"{sum(1 for r in planted if r['verdict'] == 'published')} published with a planted contact")
    print(f"\n{'format':<8}{'files':>6}{'published':>11}{'review':>8}{'refused':>9}{'held %':>9}{'f.alarm':>9}"
          f"{'leaks':>7}")
    fmts = list(dict.fromkeys(r["format"] for r in res))
    for fm in fmts:
        rs = [r for r in res if r["format"] == fm]
        c = Counter(r["verdict"] for r in rs)
        h = c["needs review"] + c["refused"]
        print(f"{fm:<8}{len(rs):>6}{c['published']:>11}{c['needs review']:>8}{c['refused']:>9}{pct(h, len(rs)):>9}"
              f"{sum(1 for r in rs if r.get('false_alarm')):>9}{sum(1 for r in rs if r['leaks']):>7}")
    groups = defaultdict(list)
    for r in res:
        if r["verdict"] != "published":
            groups[(r["verdict"], cause_of(r["detail"]))].append(r)
    if groups:
        print("\nheld back / refused, grouped by the product's message:")
    for (verdict, cause), rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        fa_n = sum(1 for r in rs if r.get("false_alarm"))
        tag = f"FALSE ALARM x{fa_n}" if fa_n else "hold"
        print(f"  [{len(rs)}] {verdict} ({tag}): {cause}")
        for r in rs[:3]:
            mark = " (caught a planted value left unmasked)" if r.get("caught_miss") else ""
            print(f"      {r['file']}{mark}: {r['detail'][:300]}")
            if r.get("diagnosis"):
                print(f"        why: {r['diagnosis']}")
        if len(rs) > 3:
            print(f"      … and {', '.join(r['file'] for r in rs[3:])}")
    for r in leaky:
        print(f"LEAK {r['file']}")
        for k, where, hit in r["leaks"]:
            print(f"    {k:6s} in {where[:60]}: …{hit}…")
    notes = [r for r in res if r["verdict"] == "published" and "left unmasked" in r["detail"]]
    if notes:
        print(f"\npublished with suggestions under the threshold left unmasked: {len(notes)} "
              f"(e.g. {notes[0]['file']}: {notes[0]['detail'][:160]})")
    pm = [r for r in res if r.get("report") and r["report"]["possible_misses"]]
    if pm:
        labels = Counter(m.get("label") for r in pm for m in r["report"]["possible_misses"])
        print(f"\npublished, with 'possible misses' the second opinion lists (not a hold): {len(pm)} files "
              f"({sum(1 for r in pm if not r['pii'])} without a planted contact); labels: "
              + ", ".join(f"{k} {v}" for k, v in labels.most_common()))
        for r in pm[:4]:
            print(f"      {r['file']} (planted: {'yes' if r['pii'] else 'no'}): "
                  f"{json.dumps(r['report']['possible_misses'], ensure_ascii=False)[:240]}")
    pdfs = [r for r in res if r["format"] == "pdf"]
    if pdfs:
        print("\nPDF by pictures on the page: " + "; ".join(
            f"{k}: {sum(1 for r in pdfs if r['pictures'] == k and r['verdict'] != 'published')} of "
            f"{sum(1 for r in pdfs if r['pictures'] == k)} held" for k in ("logo+chart", "logo", "none")))
    ok_held = held <= 0.02 * n
    ok_fa = not fa
    print(f"\ntarget <= 2 % held back: {'met' if ok_held else 'NOT met'} ({pct(held, n)}); "
          f"0 false alarms: {'met' if ok_fa else 'NOT met'} ({len(fa)}); 0 leaks: "
          f"{'met' if not leaky else 'NOT met'} ({len(leaky)})")
    return ok_held and ok_fa and not leaky


def main(argv: list[str]) -> int:
    import argparse
    import subprocess
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--generate-only", action="store_true")
    ap.add_argument("--no-ocr", action="store_true", help="oracle without OCR of output pages/pictures")
    a = ap.parse_args(argv)
    import shutil
    for old in ("out", "diag"):
        if (a.dir / old).exists():
            shutil.rmtree(a.dir / old)
    t0 = time.perf_counter()
    man = generate(a.dir, a.seed)
    print(f"generated {len(man)} files in {a.dir / 'in'} ({time.perf_counter() - t0:.0f} s): "
          + ", ".join(f"{k} {v}" for k, v in COUNTS.items()))
    if a.generate_only:
        return 0
    head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "veil_desktop"], capture_output=True, text=True,
                           cwd=ROOT).stdout.rstrip()
    if dirty:
        head += " + uncommitted: " + " ".join(ln[3:] for ln in dirty.splitlines())
    t1 = time.perf_counter()
    stdout = redteam2.redact(a.dir, ROOT)
    wall = time.perf_counter() - t1
    res = judge(a.dir, stdout, ocr=not a.no_ocr)
    (a.dir / "results.json").write_text(json.dumps(res, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return 0 if print_figures(res, head, wall) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
