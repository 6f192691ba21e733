"""Screenshots of the disclosure workflow for docs/UI.md (prints the files it wrote; asserts nothing).

    xvfb-run -s "-screen 0 1024x768x24" env QT_QPA_PLATFORM=xcb \\
        .venv/bin/python benchmarks/ui_disclosure_screenshots.py [--out docs] [--lang ko]

Under Xvfb (1024x768) so that the reason chooser, a popup menu, is on the grabbed screen. A fresh profile
(temporary user dirs), the app's default detector (embedded compact model + rules), the bundled Korean
sample as TXT. Writes: ui_disclosure_reasons.png (the window, reason column, chooser open on ``G``) and
ui_disclosure_merge.png (merge dialog with a second reviewer's review).
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
        print("wrote", path)

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

    w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
