"""Screenshots of the reviewer's tools for docs/UI.md (prints the files it wrote; asserts nothing).

    xvfb-run -a .venv/bin/python benchmarks/ui_tool_screenshots.py [--out docs] [--lang ko]

A fresh profile (temporary user dirs), the app's default detector (embedded compact model + rules), a folder
of four documents built from resources/samples/sample_ko.txt (TXT, DOCX, HWPX-free: TXT copy, PDF via fpdf2),
and a term list. Writes: ui_workspace.png (document list + find bar), ui_pages.png (PDF page view with
item boxes), ui_terms.png (term lists dialog).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shots import ROOT, Shots  # noqa: E402


def build_folder(folder: Path) -> None:
    import docx
    from fpdf import FPDF

    text = (ROOT / "resources" / "samples" / "sample_ko.txt").read_text("utf-8")
    folder.mkdir(parents=True)
    (folder / "1_민원_통보서.txt").write_text(text, encoding="utf-8")
    d = docx.Document()
    for line in text.splitlines()[:9]:
        d.add_paragraph(line)
    d.save(str(folder / "2_통보서_사본.docx"))
    (folder / "3_회의록.txt").write_text(
        "회의록\n참석: 가람 프로젝트 팀 박서연 팀장, 김 민 준 주무관, 강남구청 교통행정과\n"
        "안건: 가람프로젝트 예산 (담당 이서연, 010-9876-5432)\n", encoding="utf-8")
    pdf = FPDF()
    pdf.add_font("K", "", str(ROOT / "resources" / "fonts" / "NanumGothic.ttf"))
    pdf.set_font("K", size=12)
    pdf.add_page()
    for line in text.splitlines():
        pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(folder / "4_스캔본.pdf"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--lang", default="ko", choices=("ko", "en"))
    args = ap.parse_args()
    s = Shots(args.lang, args.out)        # private profile, app font, settings
    app, tmp, wait = s.app, s.tmp, s.wait

    from veil_desktop.review.state import Status
    from veil_desktop.review.terms import Term, TermList, save_user_terms
    from veil_desktop.review.workspace import DocStatus

    save_user_terms(TermList([Term("가람 프로젝트", "mask", "OTHER"), Term("박서연", "mask", "PERSON"),
                              Term("강남구청", "keep")]))
    folder = tmp / "민원_묶음"
    build_folder(folder)
    w = s.window((1280, 800))

    tools = w.tools
    tools.open_paths([folder])
    wait(lambda: all(e.status not in (DocStatus.QUEUED, DocStatus.DETECTING) for e in tools.ws.entries)
         and not tools.background_running and not w.detection.running and w.state is not None)
    # the first document: reviewed (everything accepted); then the meeting notes on screen with the find bar
    w.state.set_status([it.id for it in w.state if it.status is Status.PENDING], Status.ACCEPTED)
    wait(lambda: tools.ws[0].status is DocStatus.REVIEWED, 10)
    tools.goto(2)
    wait(lambda: w.path is not None and w.path.name == "3_회의록.txt" and not w.detection.running, 60)
    tools._on_find()
    tools.find_bar.query.setText("김민준")
    wait(lambda: not tools.find_bar.scanning, 10)
    for _ in range(20):
        app.processEvents()
    s.shot(w, "ui_workspace", lang_suffix=False)

    tools.find_toolbar.hide()
    tools.goto(3)
    wait(lambda: w.path is not None and w.path.suffix == ".pdf" and not w.detection.running, 60)
    got = []
    tools.pagesReady.connect(lambda: got.append(1))
    tools.show_pages()
    wait(lambda: bool(got), 30)
    w._go_pending(True)
    for _ in range(20):
        app.processEvents()
    pv = tools.pages                                      # the page image is rendered on the pool
    wait(lambda: (0, round(pv._scale, 4)) in pv._images, 30)
    for _ in range(20):
        app.processEvents()
    s.shot(w, "ui_pages", lang_suffix=False)

    from veil_desktop.ui.terms_dialog import TermsDialog

    dlg = TermsDialog(w, tools.terms, args.lang)
    dlg.show()
    for _ in range(20):
        app.processEvents()
    s.shot(dlg, "ui_terms", lang_suffix=False)
    dlg.close()
    w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
