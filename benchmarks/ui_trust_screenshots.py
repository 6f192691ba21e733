"""Screenshots of the export summary, the result dialog, a bulk-action hit list and a DOCX with a table,
for docs/UI.md (prints the files it wrote; asserts nothing).

    xvfb-run -a .venv/bin/python benchmarks/ui_trust_screenshots.py [--out docs] [--lang ko]

A fresh profile (temporary user dirs) and the app's default detector (embedded compact model + rules). The
DOCX (python-docx) holds a header, a paragraph and a table of people with phone numbers and RRNs. Writes
``ui_docx_table[_en].png`` (the window at 1280x800), ``ui_export_dialog[_en].png`` (styles per label),
``ui_hit_list[_en].png`` (Ctrl+Shift+A),
``ui_export_summary[_en].png`` (threshold raised so some suggestions are hidden, detection complete),
``ui_copies[_en].png``, ``ui_export_result[_en].png`` and ``ui_banner[_en].png`` (a long document whose
detection was cancelled).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shots import ROOT, Shots  # noqa: E402

ROWS = [("성명", "소속", "연락처", "주민등록번호"),
        ("김민준", "강남구청 교통행정과", "010-2345-6789", "880412-1234567"),
        ("이서연", "서초구청 민원실", "010-9876-5432", "920315-2345678"),
        ("박지훈", "한빛상사", "02-555-0147", "750101-1456789")]


def build_docx(path: Path) -> None:
    import docx

    d = docx.Document()
    d.sections[0].header.paragraphs[0].text = "강남구청 교통행정과 — 담당 김민준"
    d.add_paragraph("불법 주정차 과태료 이의신청 검토 결과를 아래와 같이 통보합니다.")
    d.add_paragraph("신청인 이서연 님(서울특별시 서초구 반포대로 58, 101동 1203호)의 이의신청은 받아들여졌습니다.")
    t = d.add_table(rows=len(ROWS), cols=len(ROWS[0]))
    for r, row in enumerate(ROWS):
        for c, value in enumerate(row):
            t.cell(r, c).text = value
    d.add_paragraph("문의: 교통행정과 주무관 박지훈 (02-555-0147, jihoon.park@example.com)")
    d.save(str(path))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--lang", default="ko", choices=("ko", "en"))
    args = ap.parse_args()
    s = Shots(args.lang, args.out, prefix="veil-trust-shots-")   # private profile, app font, settings
    tmp, wait, shot = s.tmp, s.wait, s.shot

    from veil_desktop.review.export import PendingPolicy
    from veil_desktop.review.state import Status

    src = tmp / "이의신청_검토결과.docx"
    build_docx(src)

    w = s.window((1280, 800))

    done = []
    w.detectionFinished.connect(lambda c: done.append(c))
    w.open_path(src)
    wait(lambda: bool(done) and w.state is not None)
    w._go_pending(True)
    shot(w, "ui_docx_table")

    # the export dialog: styles per label with examples, tag language, pending policy
    from veil_desktop.ui.dialogs import ExportDialog

    ed = ExportDialog(w, w.state, w.settings, w.path, w.document, w.lang)
    ed.set_style("PERSON", "partial")
    ed.set_style("RRN", "partial")
    ed.update_preview()
    ed.show()
    shot(ed, "ui_export_dialog")
    ed.close()

    # Ctrl+Shift+A: the hit list first
    dlg = w.bulk.accept_above(0.5)
    shot(dlg, "ui_hit_list")
    dlg.reject()

    # the reviewer accepts what is on screen, raises the threshold: some suggestions are hidden below it
    scores = sorted(it.score for it in w.state)
    cut = scores[len(scores) // 5] + 0.01 if scores else 0.5
    w.threshold_slider.setValue(min(99, int(cut * 100) + 1))
    visible = [it.id for it in w.state if w.state.is_visible(it) and it.status is Status.PENDING]
    w.state.set_status(visible, Status.ACCEPTED)
    out_file = tmp / "이의신청_검토결과.masked.docx"
    summary = w.exporter.review_and_export(out_file, styles={"PERSON": "partial"}, default_style="tag",
                                           policy=PendingPolicy.BLOCK, tag_lang=args.lang)
    shot(summary, "ui_export_summary")
    if summary.below_box is not None:
        summary.below_box.setChecked(True)
    finished = []
    w.exportFinished.connect(lambda p: finished.append(p))
    summary.export_button.click()
    wait(lambda: bool(finished) or w.exporter.copies_dialog is not None, 120)
    if not finished:   # a hidden suggestion repeats a masked value: the copies list comes first
        copies = w.exporter.copies_dialog
        shot(copies, "ui_copies")
        copies.set_all(True)
        copies.apply_button.click()
        wait(lambda: bool(finished), 120)
    if not finished[0]:
        print("export failed:", w.last_error)
        return 1
    shot(w.exporter.result_dialog, "ui_export_result")
    w.exporter.result_dialog.done(0)

    # a long document whose detection is cancelled: the lasting banner
    long = tmp / "민원_모음.txt"
    sample = (ROOT / "resources" / "samples" / "sample_ko.txt").read_text("utf-8")
    long.write_text("\n\n".join(f"[{i}]\n{sample}" for i in range(300)), encoding="utf-8")
    loaded = []
    w.documentLoaded.connect(lambda p: loaded.append(p))
    w.open_path(long)
    wait(lambda: bool(loaded) and w.state is not None and len(w.state) > 20, 300)
    w.cancel_detection()
    w._go_pending(True)
    shot(w, "ui_banner")
    w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
