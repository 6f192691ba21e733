"""Every dialog of the window at 1024×768, in Korean or English (issue 22: "screenshots of every dialog in
ko and en at 1024×768, looked at"). Real window, the embedded default detector, real files in a private
folder: the main window, F1's cheat sheet, About, Settings with a broken model folder, Export, the export
summary with pending and hidden suggestions, the copies list, the export result, the hit lists (accept
above, Mark all), the find bar's regex message, term lists and their CSV errors, the "other reason"
prompt, a document that cannot be opened, Export all's summary and result, duplicates and the review merge.

    xvfb-run -a .venv/bin/python benchmarks/ui_dialog_screenshots.py --lang ko|en

Writes ``docs/dlg_<name>[_en].png``; the sizes are printed (every dialog must fit the 1024×768 screen)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shots import ROOT, Shots  # noqa: E402

SCREEN = (1024, 768)


def build_folder(folder: Path) -> None:
    sample = (ROOT / "resources" / "samples" / "sample_ko.txt").read_text("utf-8")
    folder.mkdir(parents=True)
    (folder / "1_민원_통보서.txt").write_text(sample, encoding="utf-8")
    (folder / "2_통보서_사본.txt").write_text("\n".join(sample.splitlines()[:6]) + "\n", encoding="utf-8")
    (folder / "3_소설.txt").write_text("홍길동 님께. 소설 홍길동전을 읽은 홍길동 과장이 서명함. 홍길동\n"
                                       "연락처 010-2345-6789\n", encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--lang", default="ko", choices=("ko", "en"))
    args = ap.parse_args()
    s = Shots(args.lang, args.out, prefix="veil-dlg-shots-", reviewer="김검토")
    lang, tmp = args.lang, s.tmp

    from PySide6.QtWidgets import QMessageBox

    from veil_desktop.review.settings import PendingPolicy
    from veil_desktop.review.state import Status
    from veil_desktop.review.workspace import DocStatus
    from veil_desktop.ui.about import AboutDialog
    from veil_desktop.ui.dialogs import ExportDialog, SettingsDialog, ShortcutsDialog
    from veil_desktop.ui.i18n import tr
    from veil_desktop.ui.terms_dialog import TermsDialog

    sizes: dict[str, tuple[int, int]] = {}

    def dialog_shot(dlg, name):
        dlg.show()
        s.settle()
        if dlg.width() > SCREEN[0] or dlg.height() > SCREEN[1]:       # never larger than the screen
            dlg.resize(min(dlg.width(), SCREEN[0]), min(dlg.height(), SCREEN[1]))
        dlg.move(max(0, (SCREEN[0] - dlg.width()) // 2), max(0, (SCREEN[1] - dlg.height()) // 2))
        s.shot(dlg, name)
        sizes[name] = (dlg.width(), dlg.height())

    folder = tmp / "민원_묶음"
    build_folder(folder)
    w = s.window(SCREEN)
    tools = w.tools
    tools.open_paths([folder])
    s.wait(lambda: len(tools.ws) == 3 and all(e.status not in (DocStatus.QUEUED, DocStatus.DETECTING)
                                              for e in tools.ws.entries)
           and not tools.background_running and not w.detection.running and w.state is not None)
    w._go_pending(True)
    s.shot(w, "dlg_window")
    sizes["dlg_window"] = (w.width(), w.height())

    dialog_shot(ShortcutsDialog(w, lang), "dlg_shortcuts")
    dialog_shot(AboutDialog(w, lang), "dlg_about")

    bad = tmp / "모델"
    bad.mkdir()
    (bad / "config.json").write_text("{not json", encoding="utf-8")
    sd = SettingsDialog(w, w.settings, lang)
    sd.model_dir.setText(str(bad))
    sd.validate_model()
    s.wait(lambda: sd.model_status.text() != tr("settings.model_checking", lang), 30)
    dialog_shot(sd, "dlg_settings_model_error")
    sd.reject()

    ed = ExportDialog(w, w.state, w.settings, w.path, w.document, lang)
    ed.set_style("PERSON", "partial")
    ed.update_preview()
    dialog_shot(ed, "dlg_export")
    ed.reject()

    dlg = w.bulk.accept_above(0.5)
    dialog_shot(dlg, "dlg_hits_accept_above")
    dlg.reject()

    from PySide6.QtWidgets import QInputDialog
    w._go_pending(True)
    w._on_change_label()                                      # L: the label chooser
    s.settle()
    cl = w.findChild(QInputDialog, "changeLabel")
    dialog_shot(cl, "dlg_change_label")
    cl.reject()

    # the summary before writing, with pending suggestions and some hidden below the threshold
    scores = sorted(it.score for it in w.state)
    w.threshold_slider.setValue(min(99, int((scores[len(scores) // 4] if scores else 0.5) * 100) + 1))
    summary = w.exporter.review_and_export(tmp / "out1.txt", styles={}, default_style="tag",
                                           policy=PendingPolicy.BLOCK, tag_lang=lang)
    dialog_shot(summary, "dlg_export_summary")
    summary.reject()
    w.threshold_slider.setValue(0)

    # the find bar: a regex that does not compile, then Mark all on the novel (an in-word hit unchecked)
    tools._on_find()
    bar = tools.find_bar
    bar.regex.setChecked(True)
    bar.query.setText("(홍길동")
    s.wait(lambda: not bar.scanning, 10)
    s.shot(w, "dlg_find_regex_error")
    bar.regex.setChecked(False)
    loaded = []
    w.documentLoaded.connect(lambda p: loaded.append(p))
    tools.goto(2)
    s.wait(lambda: bool(loaded) and not w.detection.running and w.state is not None, 120)
    bar.query.setText("홍길동")
    s.wait(lambda: not bar.scanning, 10)
    bar.mark_btn.click()
    dialog_shot(tools.mark_dialog, "dlg_mark_all")
    tools.mark_dialog.reject()
    tools.find_toolbar.hide()
    s.settle()

    # a single export that leaves a copy in clear: the copies list, then the result
    items = sorted((it for it in w.state if w.state.value(it) == "홍길동"), key=lambda it: it.start)
    w.state.set_status([it.id for it in w.state], Status.ACCEPTED)
    if len(items) > 1:
        w.state.set_status([items[-1].id], Status.REJECTED)
    finished = []
    w.exportFinished.connect(finished.append)
    summary = w.exporter.review_and_export(tmp / "3_소설.masked.txt", styles={}, default_style="tag",
                                           policy=PendingPolicy.BLOCK, tag_lang=lang)
    summary.export_button.click()
    s.wait(lambda: bool(finished) or w.exporter.copies_dialog is not None, 120)
    if not finished:
        copies = w.exporter.copies_dialog
        dialog_shot(copies, "dlg_copies")
        copies.set_all(True)
        copies.apply_button.click()
        s.wait(lambda: bool(finished), 120)
    if finished[0]:
        dialog_shot(w.exporter.result_dialog, "dlg_export_result")
        w.exporter.result_dialog.done(0)
    else:
        print("export failed:", w.last_error)

    # term lists: the editor, and a CSV with errors
    td = TermsDialog(w, tools.terms, lang)
    from veil_desktop.review.terms import Term, TermList
    td.set_terms(TermList([Term("가람 프로젝트", "mask", "OTHER"), Term("강남구청", "keep")]))
    dialog_shot(td, "dlg_terms")
    csv = tmp / "용어.csv"
    csv.write_text("term,action,label\n박서연,mask,\n가람,erase,OTHER\n나라,mask,XYZ\n", encoding="utf-8")
    td.import_file(csv)
    box = td.findChildren(QMessageBox)[-1]
    dialog_shot(box, "dlg_terms_error")
    box.done(0)
    td.reject()

    # the "other reason" prompt (disclosure reasons)
    qi = tools.disclosure.other_reason_dialog()
    qi.setTextValue("내부 검토 중인 사항" if lang == "ko" else "under internal review")
    dialog_shot(qi, "dlg_reason_other")
    qi.reject()

    # a document that cannot be opened
    broken = tmp / "손상된_문서.docx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    errors = []
    w.errorShown.connect(errors.append)
    w.open_path(broken)
    s.wait(lambda: bool(errors), 30)
    box = [b for b in w.findChildren(QMessageBox) if b.isVisible()][-1]
    dialog_shot(box, "dlg_open_error")
    box.done(0)
    loaded.clear()
    tools.goto(0)
    s.wait(lambda: bool(loaded) and w.state is not None and not w.detection.running, 120)

    # duplicates across the workspace (document 2 repeats the start of document 1)
    shown = []
    tools.disclosure.duplicatesShown.connect(shown.append)
    tools.disclosure._on_duplicates()
    s.wait(lambda: bool(shown), 30)
    dialog_shot(shown[0], "dlg_duplicates")
    shown[0].done(0)

    # a second reviewer disagrees on two items: the merge dialog
    dis, st = tools.disclosure, w.state
    its = st.in_text_order()
    st.set_status([it.id for it in its], Status.ACCEPTED)
    dis.export_review(tmp / "first")
    st.set_status([its[0].id], Status.REJECTED)
    st.set_reason([its[min(2, len(its) - 1)].id], "5")
    w.settings = w.settings.__class__(**{**w.settings.__dict__, "reviewer": "이검토"})
    second = dis.export_review(tmp / "second")
    st.undo()
    st.undo()
    w.settings = w.settings.__class__(**{**w.settings.__dict__, "reviewer": "김검토"})
    merged = []
    dis.mergeShown.connect(merged.append)
    dis.merge_with(second)
    s.wait(lambda: bool(merged), 10)
    merged[0].choose(0, "b")
    dialog_shot(merged[0], "dlg_merge")
    merged[0].done(0)

    # Export all: the summary before writing (document 2 still pending), then the result
    checked = []
    tools.exportAllChecked.connect(checked.append)
    tools.check_export_all(tmp / "out")
    s.wait(lambda: bool(checked), 60)
    dlg = checked[0]
    dialog_shot(dlg, "dlg_export_all_summary")
    if getattr(dlg, "below_box", None) is not None:
        dlg.below_box.setChecked(True)
    done = []
    tools.exportAllFinished.connect(done.append)
    dlg.export_button.click()
    s.wait(lambda: bool(done), 120)
    dialog_shot(tools.export_all_result, "dlg_export_all_result")
    tools.export_all_result.done(0)

    w.close()
    print(json.dumps(sizes, ensure_ascii=False))
    too_big = {k: v for k, v in sizes.items() if v[0] > SCREEN[0] or v[1] > SCREEN[1]}
    return 1 if too_big else 0


if __name__ == "__main__":
    raise SystemExit(main())
