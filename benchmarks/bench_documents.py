"""Benchmark: a 100-page DOCX redacted end to end (read → detect → plan → write → leak check → report).

The question it answers: how much does document handling add to detection? (Target: ≤ 20 %.)

- Document: ~100 pages of Korean administrative text — the synthetic documents of
  ``../shared/data/ko-pii-synthetic-1398.jsonl`` concatenated (their PII values are fake) — written with
  python-docx: one paragraph per line, every third paragraph split into differently formatted runs, a
  header and footer, a 2×3 table every 10 pages, a page break about every 1,500 characters. Falls back
  to a built-in Korean template if ``../shared`` is absent.
- Detector: ``build_default_detector(model_dir=…)`` (model + rules). Default: what ships — the embedded
  compact model + rule stage. ``--twin`` uses the random-weight twin of veil-pii-ko-small-3 built by
  ``benchmarks/bench_detect.py`` in ``.bench-cache/veil-twin`` (the slower real-model architecture; the
  historical "+3.1 %" figure was measured with it); ``--model DIR`` any other folder. ``--viterbi aot``
  decodes with the ahead-of-time kernel the offline bundle ships (``build/aot/``), ``jit`` (default) with
  the numba JIT a source checkout uses.
- Timed stages (median of ``--repeat`` runs): ``open`` (open_document), ``detect`` (detector.detect),
  ``plan`` (threshold 0.5, propagate_spans, Masker.plan), ``export`` (export_document: unmasked-copy check,
  DOCX writer, temp file, independent leak check, os.replace, report), and inside it, measured
  separately on the same inputs: ``writer`` and ``leakcheck``.

Run: ``nice -n 5 .venv/bin/python benchmarks/bench_documents.py [--pages 100] [--threads 2] [--repeat 3] [--pdf]
[--pdf-repeat N] [--viterbi aot] [--twin | --model DIR]``
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHARED = Path(os.environ.get("VEIL_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "data" / "ko-pii-synthetic-1398.jsonl"
TWIN = ROOT / ".bench-cache" / "veil-twin"
CHARS_PER_PAGE = 1500

_FALLBACK = ("민원 처리 결과 안내\n신청인 김서윤(010-3471-8829) 님께서 2024년 3월 4일 제출하신 민원에 대하여 "
             "다음과 같이 회신합니다.\n주소: 서울특별시 서초구 반포대로 58, 101동 1203호\n담당 부서 행정지원과 "
             "박지훈 주무관(02-2100-3456, jh.park@example.go.kr)\n계좌 국민은행 123456-01-234567로 환급 "
             "예정입니다.\n")


def corpus_text(n_chars: int) -> str:
    parts, total = [], 0
    if CORPUS.is_file():
        with CORPUS.open(encoding="utf-8") as f:
            for line in f:
                t = json.loads(line)["text"].strip()
                parts.append(t)
                total += len(t)
                if total >= n_chars:
                    break
    while total < n_chars:
        parts.append(_FALLBACK)
        total += len(_FALLBACK)
    return "\n\n".join(parts)


def build_docx(path: Path, pages: int) -> int:
    import docx
    from docx.enum.text import WD_BREAK

    text = corpus_text(int(pages * CHARS_PER_PAGE * 1.2))  # page breaks fall at line ends: some slack
    d = docx.Document()
    d.sections[0].header.paragraphs[0].text = "대외비 — 민원 처리 기록"
    d.sections[0].footer.paragraphs[0].text = "문의: 행정지원과 02-2100-3456"
    since_break, page, n_chars = 0, 1, 0
    for i, line in enumerate(text.split("\n")):
        p = d.add_paragraph()
        if i % 3 == 0 and len(line) > 12:
            a, b = len(line) // 3, 2 * len(line) // 3
            p.add_run(line[:a]).bold = True
            p.add_run(line[a:b]).italic = True
            p.add_run(line[b:])
        else:
            p.add_run(line)
        since_break += len(line)
        n_chars += len(line)
        if since_break >= CHARS_PER_PAGE:
            since_break = 0
            page += 1
            if page % 10 == 0:
                t = d.add_table(rows=2, cols=3)
                for r in range(2):
                    for c in range(3):
                        t.cell(r, c).text = f"항목 {r}-{c}"
            if page > pages:
                break
            p.add_run().add_break(WD_BREAK.PAGE)
    d.save(str(path))
    return page


def build_pdf(path: Path, pages: int) -> None:
    from fpdf import FPDF

    font = ROOT / "resources" / "fonts" / "NanumGothic.ttf"
    text = corpus_text(pages * CHARS_PER_PAGE)
    pdf = FPDF()
    pdf.add_font("K", "", str(font))
    pdf.set_auto_page_break(True, 15)
    pdf.add_page()
    pdf.set_font("K", size=10)
    for line in text.split("\n"):
        if pdf.page_no() > pages:
            break
        pdf.multi_cell(0, 5, line or " ", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


_CPU: dict[str, float] = {}


def timed(fn, key: str | None = None):
    """Wall time of ``fn()``; its process CPU time (all threads) is kept in ``_CPU[key]``. On a shared
    machine wall time depends on the other load; CPU time much less so."""
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    if key:
        _CPU[key] = time.process_time() - c0
    return out, time.perf_counter() - t0


def run_once(src: Path, out_dir: Path, detector, suffix: str) -> dict[str, float]:
    from veil_desktop.documents import export_document, open_document, propagate_spans
    from veil_desktop.documents import leakcheck
    from veil_desktop.documents.formats import writer_for
    from veil_desktop.documents.matching import ValueMatcher, masked_values
    from veil_desktop.masking import Masker

    doc, t_open = timed(lambda: open_document(src), "open")
    spans, t_detect = timed(lambda: detector.detect(doc.text), "detect")

    def plan_it():
        accepted = propagate_spans(doc.text, [s for s in spans if s.score >= 0.5])
        return Masker().plan(doc.text, accepted)

    plan, t_plan = timed(plan_it, "plan")
    out = out_dir / f"out{suffix}"
    res, t_export = timed(lambda: export_document(doc, plan, out, detector_id=detector.id, threshold=0.5),
                          "export")
    source = src.read_bytes()
    data, t_writer = timed(lambda: writer_for(doc.format, doc.format)(doc, plan, source), "writer")
    matcher = ValueMatcher(masked_values(doc.text, plan, content_of=doc.content_of))
    check = leakcheck.check_pdf_bytes if suffix == ".pdf" else leakcheck.check_zip_bytes
    rep, t_leak = timed(lambda: check(out.read_bytes(), matcher), "leakcheck")
    assert rep.clean and res.leak_check["result"] == "clean"
    return {"open": t_open, "detect": t_detect, "plan": t_plan, "export": t_export, "writer": t_writer,
            "leakcheck": t_leak, "chars": len(doc.text), "spans": len(spans), "replacements": len(plan),
            "values_checked": res.leak_check["values_checked"], "size": src.stat().st_size,
            **{f"cpu_{k}": v for k, v in _CPU.items()}}


def report(name: str, runs: list[dict[str, float]], threads: int) -> None:
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    share = [100 * (r["open"] + r["plan"] + r["export"]) / r["detect"] for r in runs]
    share_cpu = [100 * (r["cpu_open"] + r["cpu_plan"] + r["cpu_export"]) / r["cpu_detect"] for r in runs]
    handling = med["open"] + med["plan"] + med["export"]
    print(f"\n== {name}: {int(med['chars']):,} characters, {med['size'] / 1e6:.2f} MB, "
          f"{int(med['spans'])} spans -> {int(med['replacements'])} replacements, "
          f"{int(med['values_checked'])} distinct values leak-checked")
    print(f"   machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"threads={threads}, median of {len(runs)} run(s)")
    print(f"   {'stage':<10} {'wall':>8}   {'cpu':>8}")
    for k in ("open", "detect", "plan", "export", "writer", "leakcheck"):
        note = "   (part of export)" if k in ("writer", "leakcheck") else ""
        print(f"   {k:<10} {med[k]:8.2f} s {med['cpu_' + k]:8.2f} s{note}")
    cpu_handling = med["cpu_open"] + med["cpu_plan"] + med["cpu_export"]
    print(f"   file handling (open + plan + export): wall {handling:.2f} s = "
          f"{100 * handling / med['detect']:.1f} % of detection wall time; "
          f"cpu {cpu_handling:.2f} s = {100 * cpu_handling / med['cpu_detect']:.1f} % of detection cpu time")
    print(f"   per run (handling ÷ detection, each run its own ratio): wall median {statistics.median(share):.1f} % "
          f"(min–max {min(share):.1f}–{max(share):.1f} %), cpu median {statistics.median(share_cpu):.1f} % "
          f"({min(share_cpu):.1f}–{max(share_cpu):.1f} %); load average {os.getloadavg()[0]:.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--model", type=Path, help="model folder (default: the embedded compact model, as shipped)")
    ap.add_argument("--twin", action="store_true", help="use the random-weight twin in .bench-cache/veil-twin")
    ap.add_argument("--viterbi", choices=("jit", "aot", "numpy"), default="jit",
                    help="Viterbi kernel (aot = what the bundle ships, from build/aot/)")
    ap.add_argument("--pdf-repeat", type=int, default=None, help="runs of the PDF (default repeat // 3, ≥ 1)")
    ap.add_argument("--pdf", action="store_true", help="also a PDF of the same length (rasterised export)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_detect import use_viterbi

    use_viterbi(args.viterbi)
    from veil_desktop.detect import viterbi
    from veil_desktop.detect.default import build_default_detector

    model = args.model or (TWIN if args.twin else None)
    detector = build_default_detector(model_dir=model, threads=args.threads)
    print(f"detector: {detector.id} ({model or 'embedded model'}); viterbi {viterbi.warm_up()}; "
          f"load average {os.getloadavg()[0]:.2f}"
          + ("" if CORPUS.is_file() else "  [../shared corpus missing: built-in template text]"))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        src = tmp / "bench.docx"
        pages = build_docx(src, args.pages)
        detector.detect("워밍업 김철수 010-1234-5678")  # session/numba warm-up outside the timings
        runs = [run_once(src, tmp, detector, ".docx") for _ in range(args.repeat)]
        report(f"DOCX, {pages} pages", runs, args.threads)
        if args.pdf:
            pdf = tmp / "bench.pdf"
            build_pdf(pdf, args.pages)
            n_pdf = args.pdf_repeat if args.pdf_repeat is not None else max(1, args.repeat // 3)
            runs = [run_once(pdf, tmp, detector, ".pdf") for _ in range(n_pdf)]
            report(f"PDF, {args.pages} pages (rasterised at 150 dpi)", runs, args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
