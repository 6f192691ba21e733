"""``veil-desktop --screenshot OUT.png FILE``: opens FILE, detects to the end, renders the window, exits."""
from PySide6.QtCore import QThreadPool
from PySide6.QtGui import QImage

from tests.fixtures.tiny_model import build_tiny_model
from tests.ui_helpers import ENTITIES, sample_text
from veil_desktop.review.session import document_hash, session_path
from veil_desktop.ui.app import main


def test_screenshot_renders_window_with_highlights(tmp_path, qapp, capsys):
    model = build_tiny_model(tmp_path / "model", entities=ENTITIES)
    doc = tmp_path / "sample.txt"
    doc.write_text(sample_text(), encoding="utf-8")
    out = tmp_path / "shot" / "window.png"
    rc = main(["--screenshot", str(out), str(doc), "--model", str(model), "--threads", "1", "--size", "1200x700"])
    QThreadPool.globalInstance().waitForDone(10000)
    assert rc == 0
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1200, 700)
    # the report line names the item count found by the real detector (rules + tiny model)
    assert "items" in capsys.readouterr().out
    # highlights are really painted: the current item (the first pending, 김민준, a PERSON) is filled with
    # the PERSON colour (#e6553a, darkened) in the document area
    def person_red(c):
        return c.red() > 170 and 50 < c.green() < 120 and 30 < c.blue() < 90

    hits = sum(1 for y in range(0, img.height(), 2) for x in range(0, img.width() // 2, 2)
               if person_red(img.pixelColor(x, y)))
    assert hits > 20
    # a screenshot run leaves a session like any review (so a second run shows the same state)
    assert session_path(document_hash(sample_text())).exists()


def test_screenshot_needs_a_file(tmp_path, qapp):
    assert main(["--screenshot", str(tmp_path / "x.png")]) == 2
