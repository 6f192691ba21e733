"""The printable redaction log (``<output>.redaction-log.pdf``): the rows of the CSV log as an A4 table. No Qt.

Beside ``<output>.redaction-log.csv`` (``review.reasons.redaction_log_csv``) the export core writes the same
rows as a PDF that can be printed and attached to the decision notice (정보공개 결정 통지서): a header with
the document's name, its SHA-256, the reviewer, the date and the number of parts per reason code (with
each code's title), then one table row per masked part — where (page or part), label, reason, masked form.
The original value is never in it: the rows carry only the masked form.

How it is drawn: PDFium (pypdfium2, a product dependency) builds real pages with text objects in the
bundled NanumGothic (``resources/fonts/NanumGothic.ttf``, embedded as a CID TrueType font with a
``ToUnicode`` map, so Korean prints, can be selected and is extracted by any reader). Text is measured
with the same font through Pillow (FreeType) to wrap cells; a row never splits across pages and the table
header repeats on every page. The font is embedded whole (PDFium does not subset), so a log is about
2.5 MB whatever its length.
"""
from __future__ import annotations

import ctypes
import io
from collections import Counter
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from .reasons import OTHER_PREFIX, reason_title

PAGE_W, PAGE_H = 595.0, 842.0           # A4 in points
MARGIN = 40.0
FONT_FILE = "fonts/NanumGothic.ttf"
BODY_PT = 8.5
LINE_PT = 11.5                          # line pitch in table cells
CELL_PAD = 3.0
MAX_CELL_LINES = 8                      # a longer cell ends in "…"

#: (key, Korean heading, English heading, width in points); the widths fill PAGE_W - 2 * MARGIN
COLUMNS: tuple[tuple[str, str, str, float], ...] = (
    ("no", "번호", "No.", 34.0),
    ("where", "위치", "Where", 74.0),
    ("label", "항목", "Label", 88.0),
    ("reason", "비공개 사유", "Reason", 130.0),
    ("masked", "가림 표시", "Masked as", 189.0),
)

_TEXT = {
    "ko": {"title": "비공개 처리 내역", "document": "문서", "sha": "SHA-256", "reviewer": "검토자",
           "date": "작성일", "total": "가린 부분", "counts": "사유별 건수", "none": "사유 없음",
           "unit": "건", "cont": "(계속)", "page": "{n} / {total}쪽",
           "note": "원래 값은 이 문서에 담기지 않습니다. 가림 표시는 출력 파일에 쓰인 그대로입니다."},
    "en": {"title": "Redaction log", "document": "Document", "sha": "SHA-256", "reviewer": "Reviewer",
           "date": "Date", "total": "Masked parts", "counts": "Parts per reason", "none": "no reason",
           "unit": "", "cont": "(continued)", "page": "page {n} of {total}",
           "note": "Original values are not in this log; the masked form is as written in the output."},
}


def pdf_log_path_for(out_path) -> Path:
    """``<output>.redaction-log.pdf``, beside the CSV log."""
    out_path = Path(out_path)
    return out_path.with_name(out_path.name + ".redaction-log.pdf")


def _code_short(code: str | None, lang: str) -> str:
    if not code:
        return _TEXT[lang]["none"]
    if code.startswith(OTHER_PREFIX):
        return "기타" if lang == "ko" else "other"
    return f"{code}호" if lang == "ko" else f"item {code}"


def _code_long(code: str, lang: str) -> str:
    """``제9조제1항제6호`` / ``Art. 9(1) item 6``; ``기타: …`` / ``other: …``."""
    if code.startswith(OTHER_PREFIX):
        return reason_title(code, lang)
    return f"제9조제1항제{code}호" if lang == "ko" else f"Art. 9(1) item {code}"


class _Measure:
    """Advance widths of the embedded font (Pillow/FreeType at 1000 units per em)."""

    def __init__(self, font_path: Path) -> None:
        from PIL import ImageFont

        self._font = ImageFont.truetype(str(font_path), 1000, layout_engine=ImageFont.Layout.BASIC)
        self._cache: dict[str, float] = {}

    def width(self, s: str, size: float) -> float:
        total = 0.0
        for ch in s:
            w = self._cache.get(ch)
            if w is None:
                w = self._cache[ch] = float(self._font.getlength(ch))
            total += w
        return total * size / 1000.0

    def wrap(self, s: str, size: float, width: float, max_lines: int = MAX_CELL_LINES) -> list[str]:
        """Greedy wrap of ``s`` into lines at most ``width`` wide: at a space where one is on the line,
        else between any two characters (Korean breaks anywhere); the last allowed line ends in "…"."""
        out: list[str] = []
        for para in (" ".join(s.split()) or "",):
            rest = para
            while rest:
                if self.width(rest, size) <= width:
                    out.append(rest)
                    break
                n = 1
                while n < len(rest) and self.width(rest[:n + 1], size) <= width:
                    n += 1
                cut = rest.rfind(" ", 1, n + 1)
                if cut > 0 and rest[n:n + 1] != " ":
                    line, rest = rest[:cut], rest[cut + 1:]
                else:
                    line, rest = rest[:n].rstrip(), rest[n:].lstrip()
                out.append(line)
        if not out:
            out = [""]
        if len(out) > max_lines:
            last = out[max_lines - 1]
            while last and self.width(last + "…", size) > width:
                last = last[:-1]
            out = out[:max_lines - 1] + [last + "…"]
        return out


class _Writer:
    """Pages, text and rules through PDFium's editing API (pypdfium2.raw)."""

    def __init__(self, font_bytes: bytes) -> None:
        import pypdfium2 as pdfium
        import pypdfium2.raw as raw

        self.raw = raw
        self.pdf = pdfium.PdfDocument.new()
        self._font_buf = (ctypes.c_uint8 * len(font_bytes)).from_buffer_copy(font_bytes)
        self.font = raw.FPDFText_LoadFont(self.pdf.raw, self._font_buf, len(font_bytes), raw.FPDF_FONT_TRUETYPE,
                                          True)
        if not self.font:
            raise ValueError("PDFium could not load the log font")
        self.page = None
        self.count = 0

    def new_page(self) -> None:
        self.end_page()
        self.page = self.raw.FPDFPage_New(self.pdf.raw, self.count, PAGE_W, PAGE_H)
        self.count += 1

    def end_page(self) -> None:
        if self.page is not None:
            if not self.raw.FPDFPage_GenerateContent(self.page):
                raise ValueError("PDFium could not write a page of the log")
            self.raw.FPDF_ClosePage(self.page)
            self.page = None

    def text(self, x: float, top: float, s: str, size: float, grey: int = 0) -> None:
        """``s`` with its baseline ``size`` * 0.8 below ``top`` (points from the page's top edge)."""
        if not s:
            return
        raw = self.raw
        obj = raw.FPDFPageObj_CreateTextObj(self.pdf.raw, self.font, size)
        buf = ctypes.create_string_buffer((s + "\0").encode("utf-16-le"))
        if not raw.FPDFText_SetText(obj, ctypes.cast(buf, ctypes.POINTER(raw.FPDF_WCHAR))):
            raw.FPDFPageObj_Destroy(obj)
            raise ValueError("PDFium could not set a text of the log")
        if grey:
            raw.FPDFPageObj_SetFillColor(obj, grey, grey, grey, 255)
        raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, PAGE_H - top - size * 0.8)
        raw.FPDFPage_InsertObject(self.page, obj)

    def rect(self, x: float, top: float, w: float, h: float, *, fill: int | None = None,
             stroke: float = 0.0) -> None:
        raw = self.raw
        obj = raw.FPDFPageObj_CreateNewRect(x, PAGE_H - top - h, w, h)
        if fill is not None:
            raw.FPDFPageObj_SetFillColor(obj, fill, fill, fill, 255)
        if stroke:
            raw.FPDFPageObj_SetStrokeColor(obj, 90, 90, 90, 255)
            raw.FPDFPageObj_SetStrokeWidth(obj, stroke)
        raw.FPDFPath_SetDrawMode(obj, raw.FPDF_FILLMODE_ALTERNATE if fill is not None else raw.FPDF_FILLMODE_NONE,
                                 bool(stroke))
        raw.FPDFPage_InsertObject(self.page, obj)

    def finish(self) -> bytes:
        self.end_page()
        buf = io.BytesIO()
        try:
            self.pdf.save(buf)
        finally:
            self.raw.FPDFFont_Close(self.font)
            self.pdf.close()
        return buf.getvalue()


def redaction_log_pdf(rows: Iterable[Mapping[str, object]], *, document_name: str, document_sha256: str,
                      reviewer: str = "", date: str = "", lang: str = "ko") -> bytes:
    """The redaction log as PDF bytes. ``rows`` as for ``redaction_log_csv`` (``where``, ``label``,
    ``reason``, ``masked``; offsets are not printed); ``lang`` "ko" or "en" for the headings."""
    from ..documents.pdf import PDFIUM_LOCK
    from ..labels import display_name
    from ..paths import resources_dir

    lang = "en" if lang == "en" else "ko"
    t = _TEXT[lang]
    rows = list(rows)
    font_path = resources_dir() / FONT_FILE
    font_bytes = font_path.read_bytes()
    m = _Measure(font_path)
    inner = PAGE_W - 2 * MARGIN

    def cells(n: int, r: Mapping[str, object]) -> list[list[str]]:
        code = r.get("reason")
        code = str(code) if code else None
        reason = _code_long(code, lang) if code else t["none"]
        values = {"no": str(n), "where": str(r.get("where") or "—"),
                  "label": display_name(str(r.get("label")), lang), "reason": reason,
                  "masked": str(r.get("masked") or "")}
        return [m.wrap(values[key], BODY_PT, w - 2 * CELL_PAD) for key, _ko, _en, w in COLUMNS]

    table = [cells(n, r) for n, r in enumerate(rows, 1)]
    counts = Counter((str(r.get("reason")) if r.get("reason") else None) for r in rows)
    codes = sorted((c for c in counts if c), key=lambda c: (c.startswith(OTHER_PREFIX), c))
    with PDFIUM_LOCK:
        w = _Writer(font_bytes)
        w.new_page()
        y = MARGIN
        w.text(MARGIN, y, t["title"], 16)
        y += 26
        for key, value in (("document", document_name), ("sha", document_sha256), ("reviewer", reviewer or "—"),
                           ("date", date or "—"), ("total", f"{len(rows)}{t['unit']}")):
            w.text(MARGIN, y, t[key], 9, grey=80)
            for line in m.wrap(value, 9, inner - 70, 3):
                w.text(MARGIN + 70, y, line, 9)
                y += 12.5
        w.text(MARGIN, y, t["counts"], 9, grey=80)
        for c in codes + ([None] if None in counts else []):
            label = f"{_code_short(c, lang)}  {counts[c]}{t['unit']}"
            w.text(MARGIN + 70, y, label, 9)
            title = reason_title(c, lang) if c else ""
            for line in m.wrap(title, 8, inner - 150, 2) if title else [""]:
                w.text(MARGIN + 150, y + 0.5, line, 8, grey=70)
                y += 11.5
        y += 4
        for line in m.wrap(t["note"], 8, inner, 2):
            w.text(MARGIN, y, line, 8, grey=90)
            y += 11
        y += 8

        def header(y: float) -> float:
            h = LINE_PT + 2 * CELL_PAD
            w.rect(MARGIN, y, inner, h, fill=225, stroke=0.6)
            x = MARGIN
            for _key, ko, en, cw in COLUMNS:
                w.text(x + CELL_PAD, y + CELL_PAD + 1, ko if lang == "ko" else en, BODY_PT)
                x += cw
            return y + h

        bottom = PAGE_H - MARGIN - 14           # the page number sits below
        y = header(y)
        for row in table:
            h = max(len(c) for c in row) * LINE_PT + 2 * CELL_PAD
            if y + h > bottom:
                w.new_page()
                y = MARGIN
                w.text(MARGIN, y, f"{t['title']} {t['cont']} — {document_name}", 8, grey=90)
                y = header(y + 14)
            w.rect(MARGIN, y, inner, h, stroke=0.3)
            x = MARGIN
            for lines, (_key, _ko, _en, cw) in zip(row, COLUMNS):
                for k, line in enumerate(lines):
                    w.text(x + CELL_PAD, y + CELL_PAD + 1 + k * LINE_PT, line, BODY_PT)
                x += cw
            y += h
        w.end_page()
        total = w.count
        import pypdfium2.raw as raw

        for i in range(total):                  # page numbers, now that the count is known
            w.page = raw.FPDF_LoadPage(w.pdf.raw, i)
            label = t["page"].format(n=i + 1, total=total)
            w.text(PAGE_W - MARGIN - m.width(label, 8), PAGE_H - MARGIN - 8, label, 8, grey=90)
            w.end_page()
        return w.finish()


def write_redaction_log_pdf(out_path, rows: Sequence[Mapping[str, object]], **header) -> Path:
    """Write ``<out_path>.redaction-log.pdf`` atomically; returns its path."""
    from .session import write_atomic

    path = pdf_log_path_for(out_path)
    write_atomic(path, redaction_log_pdf(rows, **header))
    return path
