"""Screenshots of the issue-22 window parts at 1024×768: the status bar with hidden suggestions, Export all's
summary (before writing) and result (outcomes in the UI language, the copies fix button), Mark all's hit
list (an in-word hit listed unchecked). Real window, the embedded default detector, real files.

    xvfb-run -a .venv/bin/python benchmarks/ui_issue22_screenshots.py --lang ko|en

Writes docs/ui22_*.png (palette-quantised with Pillow to stay small)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shots import ROOT, Shots  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--lang", default="ko", choices=("ko", "en"))
    args = ap.parse_args()
    s = Shots(args.lang, args.out, prefix="veil-i22-shots-")   # private profile, app font, settings
    tmp, wait, settle, shot = s.tmp, s.wait, s.settle, s.shot

    from veil_desktop.review.state import Status
    from veil_desktop.review.workspace import DocStatus

    folder = tmp / "inbox"
    folder.mkdir()
    (folder / "1_민원.txt").write_text("민원인 홍길동 (010-1234-5678) 님께. 담당 김철수 주무관\n", encoding="utf-8")
    (folder / "2_회신.txt").write_text("수신 이영희 님, 연락처 010-2222-3333\n", encoding="utf-8")
    (folder / "3_소설.txt").write_text("홍길동 님께. 소설 홍길동전을 읽은 홍길동 과장이 서명함. 홍길동\n",
                                       encoding="utf-8")

    w = s.window((1024, 768))

    tools = w.tools
    ws = tools.ws
    tools.open_paths([folder])
    wait(lambda: len(ws) == 3 and all(e.status not in (DocStatus.QUEUED, DocStatus.DETECTING) for e in ws.entries)
         and not tools.background_running and not w.detection.running and w.state is not None)
    # document 1: threshold 1.00 hides every suggestion
    w.threshold_slider.setValue(100)
    settle()
    w.refresh_status()
    shot(w, "ui22_hidden_status")
    # document 2: everything accepted
    loaded = []
    w.documentLoaded.connect(lambda p: loaded.append(p))
    tools.goto(1)
    wait(lambda: bool(loaded))
    w.state.set_status([it.id for it in w.state], Status.ACCEPTED)
    # document 3: accept the first 홍길동, reject another (a copy left in clear), Mark all's list
    loaded.clear()
    tools.goto(2)
    wait(lambda: bool(loaded))
    tools._on_find()
    tools.find_bar.query.setText("홍길동")
    wait(lambda: not tools.find_bar.scanning)
    tools.find_bar.mark_btn.click()
    settle()
    shot(tools.mark_dialog, "ui22_mark_all")
    tools.mark_dialog.reject()
    settle()
    items = sorted((it for it in w.state if w.state.value(it) == "홍길동"), key=lambda it: it.start)
    for it in w.state:
        w.state.set_status([it.id], Status.ACCEPTED)
    if len(items) > 1:
        w.state.set_status([items[-1].id], Status.REJECTED)
    settle(60)

    dest = tmp / "out"
    checked = []
    tools.exportAllChecked.connect(checked.append)
    tools.check_export_all(dest)
    wait(lambda: bool(checked))
    dlg = checked[0]
    shot(dlg, "ui22_export_all_summary")
    if dlg.below_box is not None:
        dlg.below_box.setChecked(True)
    done = []
    tools.exportAllFinished.connect(done.append)
    dlg.export_button.click()
    wait(lambda: bool(done))
    shot(tools.export_all_result, "ui22_export_all_result")
    tools.export_all_result.done(0)
    w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
