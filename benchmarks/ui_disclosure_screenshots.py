"""Screenshots of the disclosure workflow for docs/UI.md (prints the files it wrote; asserts nothing).

    xvfb-run -s "-screen 0 1024x768x24" env QT_QPA_PLATFORM=xcb \\
        .venv/bin/python benchmarks/ui_disclosure_screenshots.py [--out docs] [--lang ko]

Under Xvfb (1024x768) so that the reason chooser, a popup menu, is on the grabbed screen. A fresh profile
(temporary user dirs), the app's default detector (embedded compact model + rules), the bundled Korean
sample as TXT. Writes: ui_disclosure_reasons.png (the window, reason column, chooser open on ``G``),
ui_disclosure_merge.png (merge dialog with a second reviewer's review: masked forms, no values),
ui_disclosure_log_pdf.png (page 1 of the export's printable redaction log, rendered by pdfium),
ui_disclosure_duplicates.png (the same page in three PDFs of a workspace) and ui_pages_rotated.png (a
PDF page with /Rotate 90 in the page view, zoomed in three steps, boxes on the turned glyphs).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--lang", default="ko", choices=("ko", "en"))
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="veil-shots-"))
    os.environ["VEIL_DATA_DIR"] = str(tmp / "data")
    os.environ["VEIL_CONFIG_DIR"] = str(tmp / "config")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QApplication

    from veil_desktop.review.settings import AppSettings
    from veil_desktop.review.state import Status
    from veil_desktop.ui.main_window import MainWindow
    from veil_desktop.ui.settings_store import SettingsStore

    app = QApplication.instance() or QApplication([])
    SettingsStore().save(AppSettings(language=args.lang, reviewer="김검토", reasons={"ORGANIZATION": "7"}))
    out = Path(args.out)
    sample = tmp / "민원_통보서.txt"
    sample.write_text((ROOT / "resources" / "samples" / "sample_ko.txt").read_text("utf-8"), encoding="utf-8")

    w = MainWindow(SettingsStore())
    w.show()
    w.move(0, 0)
    w.resize(1024, 740)

    def wait(cond, timeout=600.0):
        t0 = time.monotonic()
        while not cond():
            app.processEvents()
            time.sleep(0.01)
            if time.monotonic() - t0 > timeout:
                raise SystemExit("timed out")

    def settle():
        for _ in range(30):
            app.processEvents()
            time.sleep(0.01)

    def screen(path: Path):
        settle()
        app.primaryScreen().grabWindow(0).save(str(path))
        small(path)
        print("wrote", path)

    def small(path: Path):
        from PIL import Image

        Image.open(path).convert("RGB").quantize(colors=128).save(path, optimize=True)

    done = []
    w.detectionFinished.connect(lambda _c: done.append(1))
    w.open_path(sample)
    wait(lambda: bool(done) and w.state is not None)
    st, dis = w.state, w.tools.disclosure
    items = st.in_text_order()
    st.set_status([it.id for it in items], Status.ACCEPTED)
    org = [it.id for it in items if it.label == "ORGANIZATION"]
    if org:
        st.set_reason(org[:1], "7")
    settle()
    # the chooser on a few selected rows (as after Shift+click in the table and G)
    w.select_item(items[1].id)
    w.table.selectRow(1)
    w.table.selectionModel().select(w.proxy.index(2, 0), w.table.selectionModel().SelectionFlag.Select
                                    | w.table.selectionModel().SelectionFlag.Rows)
    w.table.setFocus()
    settle()
    w.table.horizontalScrollBar().setValue(w.table.horizontalScrollBar().maximum())   # the reason column
    settle()
    menu = dis.reason_menu()
    menu.popup(w.mapToGlobal(QPoint(180, 160)))
    screen(out / "ui_disclosure_reasons.png")
    menu.close()

    # a second reviewer disagrees on two items
    review_a = dis.export_review(tmp / "first")
    st.set_status([items[0].id], Status.REJECTED)
    st.set_reason([items[2].id], "5")
    w.settings = w.settings.__class__(**{**w.settings.__dict__, "reviewer": "이검토"})
    second = dis.export_review(tmp / "second")
    st.undo()
    st.undo()
    w.settings = w.settings.__class__(**{**w.settings.__dict__, "reviewer": "김검토"})
    del review_a
    shown = []
    dis.mergeShown.connect(shown.append)
    dis.merge_with(second)
    wait(lambda: bool(shown), 10)
    dlg = shown[0]
    dlg.move(60, 120)
    dlg.choose(0, "b")
    screen(out / "ui_disclosure_merge.png")
    dlg.done(0)
    settle()

    # the printable redaction log of an export (page 1, rendered by pdfium at about 110 dpi)
    import pypdfium2 as pdfium

    w.settings = w.settings.__class__(**{**w.settings.__dict__, "redaction_log": True, "reason_in_output": "short"})
    exported = []
    w.exportFinished.connect(exported.append)
    target = tmp / "out" / "민원_통보서.masked.txt"
    target.parent.mkdir()
    from PySide6.QtCore import QTimer

    # the sample repeats a masked value: the reviewer agrees to mask the copy too
    def mask_every_copy():
        dlg = w.exporter.copies_dialog
        for i in range(len(dlg.hits)):
            dlg.set_checked(i, True)
        dlg.done(1)

    w.copiesFound.connect(lambda _n: QTimer.singleShot(0, mask_every_copy))
    w.export_to(target, styles={}, default_style="tag", policy="block", overwrite=True, below_threshold_ok=True)
    wait(lambda: any(exported), 60)
    for d in ([w.exporter.result_dialog] if w.exporter.result_dialog else []):
        d.done(0)
    log = pdfium.PdfDocument(str(target) + ".redaction-log.pdf")
    page = log[0]
    img = page.render(scale=1.5).to_pil().convert("RGB")
    page.close()
    log.close()
    img = img.crop((0, 0, img.width, min(img.height, 700)))     # the header and the first rows
    img.save(out / "ui_disclosure_log_pdf.png")
    small(out / "ui_disclosure_log_pdf.png")
    print("wrote", out / "ui_disclosure_log_pdf.png")

    # duplicates: the same page in three PDFs of a workspace
    from fpdf import FPDF

    def pdf_with(path: Path, pages: list[list[str]], rotate: int = 0) -> Path:
        pdf = FPDF(unit="pt", format="A4")
        pdf.add_font("K", "", str(ROOT / "resources" / "fonts" / "NanumGothic.ttf"))
        for lines in pages:
            pdf.add_page()
            pdf.set_font("K", size=16)
            for k, line in enumerate(lines):
                pdf.text(60, 90 + 34 * k, line)
        doc = pdfium.PdfDocument(bytes(pdf.output()))
        if rotate:
            pg = doc[0]
            pg.set_rotation(rotate)
            pg.close()
        doc.save(str(path))
        doc.close()
        return path

    shared = ["민원 처리 안내", "담당자 김민준 주무관 (민원과)", "연락처 010-2345-6789", "처리 기한은 접수일부터 7일입니다."]
    pdfs = [pdf_with(tmp / f"회신_{i + 1}.pdf", [[f"{i + 1}번 회신 표지", f"접수번호 민원과-2026-04{12 + i}"], shared])
            for i in range(3)]
    w.tools.open_paths([str(p) for p in pdfs])
    from veil_desktop.review.workspace import DocStatus

    def ws_ready():
        ws = w.tools.ws
        return (ws is not None and len(ws.entries) >= 3 and not w.detection.running
                and all(e.status not in (DocStatus.QUEUED, DocStatus.DETECTING) for e in ws.entries))

    try:
        wait(ws_ready, 300)
    except SystemExit:
        ws = w.tools.ws
        print("ws", ws and [(e.path, e.status) for e in ws.entries], w.path, w.detection.running)
        raise
    w.open_path(pdfs[0])       # its session (from the background queue) is restored: no detection runs
    wait(lambda: w.state is not None and str(w.path) == str(pdfs[0]) and not w.detection.running
         and len(w.state) > 0, 120)
    w.state.set_status([it.id for it in w.state], Status.ACCEPTED)
    dups = []
    dis.duplicatesShown.connect(dups.append)
    dis.actions["duplicates"].trigger()
    wait(lambda: bool(dups), 60)
    ddlg = dups[0]
    ddlg.move(60, 120)
    screen(out / "ui_disclosure_duplicates.png")
    ddlg.done(0)
    settle()

    # the page view: a PDF page with /Rotate 90, zoomed in (Ctrl+=)
    rotated = pdf_with(tmp / "회전된_쪽.pdf", [["회전된 쪽 (/Rotate 90)", "담당자 김민준 주무관", "연락처 010-2345-6789",
                                              "주소 서울특별시 강남구 테헤란로 152"]], rotate=90)
    done.clear()
    w.open_path(rotated)
    wait(lambda: bool(done) and w.state is not None and str(w.path) == str(rotated), 120)
    ready = []
    w.tools.pagesReady.connect(lambda: ready.append(1))
    w.tools.show_pages()
    wait(lambda: bool(ready), 60)
    for _ in range(3):                      # Ctrl+= three times: 195 % of fit width
        w.tools.actions["zoom_in"].trigger()
    pv = w.tools.pages
    wait(lambda: (0, round(pv.scale, 4)) in pv._images, 60)
    items = w.state.in_text_order()
    if items:
        w.select_item(items[0].id)
    screen(out / "ui_pages_rotated.png")

    w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
