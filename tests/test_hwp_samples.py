"""The HWP writer on real documents saved by Hancom Office (``../shared/data/hwp-samples``, 28 files; the
tests skip when the folder is absent). Every readable file round-trips: exported with nothing masked, its
text is unchanged (our reader and pyhwp's hwp5txt); with a name and a phone number planted by our own
writer into a real paragraph and then masked, no copy survives in any stream and the output still opens in
hwp5txt with the rest of its text kept. Password-protected, distribution and HWP 3 files are refused with
a message."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from veil_desktop.documents import DocumentError
from veil_desktop.documents.hwp import read_hwp, write_hwp
from veil_desktop.documents.leakcheck_hwp import check_hwp_bytes
from veil_desktop.documents.matching import ValueMatcher
from veil_desktop.masking import Replacement

from test_hwp_writer import assert_no_value, hwp5txt

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "data" / "hwp-samples"
REFUSED = {"password-12345.hwp": "password", "sample_hwp_distribution.hwp": "distribution",
           "viewtext.hwp": "distribution", "sample_hwp_big_file.hwp": "HWP 3|not an HWP 5"}
PLANT = "홍길동 010-9876-5432"
#: samples whose paragraphs hold at most one character between tabs (empty tables, shapes, pictures,
#: "1", "2", "3", tab stops)
NO_TEXT = {"multicolumns-widths.hwp", "sample_hwp_changing-image.hwp", "sample_hwp_making_caption.hwp",
           "sample_hwp_removing-row.hwp", "shapecomponent-rect-fill.hwp", "shapecontainer-2.hwp",
           "shapeline.hwp", "table.hwp", "tabdef.hwp"}

pytestmark = pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/data/hwp-samples is absent")


def _files() -> list[str]:
    return sorted(p.name for p in SAMPLES.glob("*.hwp")) if SAMPLES.is_dir() else []


def _hwp5txt_or_none(path: Path) -> str | None:
    try:
        return hwp5txt(path)
    except AssertionError:
        return None


def test_the_sample_set_is_there():
    assert len(_files()) == 28 and set(REFUSED) <= set(_files())


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_with_a_message(name):
    data = (SAMPLES / name).read_bytes()
    with pytest.raises(DocumentError, match=REFUSED[name]):
        read_hwp(SAMPLES / name, data)


@pytest.mark.parametrize("name", [n for n in _files() if n not in REFUSED])
def test_round_trip_unchanged_then_planted_and_masked(tmp_path, name):
    src = SAMPLES / name
    data = src.read_bytes()
    doc = read_hwp(src, data)
    before = _hwp5txt_or_none(src)

    out = write_hwp(doc, [], data)
    (tmp_path / "same.hwp").write_bytes(out)
    assert read_hwp(tmp_path / "same.hwp", out).text == doc.text
    after = hwp5txt(tmp_path / "same.hwp")      # every output opens (two inputs do not: no summary)
    if before is not None:
        assert after == before

    # plant a name and a phone number into the longest paragraph, with our own writer (a space after
    # it, so that the phone number's last digit is not glued to a following letter or digit)
    # the longest run of plain characters (no tab, no line break) in one paragraph (not in a picture's
    # OCR text: a BinData segment is read from the picture, our writer does not plant into it)
    runs = [(m.end() - m.start(), s.start + m.start()) for s in doc.segments
            if s.member.startswith("BodyText/")
            for m in re.finditer(r"[^\t\n]+", doc.text[s.start:s.end])]
    room, start = max(runs, default=(0, 0))
    if name in NO_TEXT:    # nothing to plant into without changing a paragraph's length
        assert room < 2
        return
    value = PLANT if room > len(PLANT) else PLANT[:min(3, room)]
    cover = value + " " if room > len(value) else value
    n = len(value)
    planted = write_hwp(doc, [Replacement(start, start + len(cover), cover, "PERSON")], data)
    (tmp_path / "planted.hwp").write_bytes(planted)
    pdoc = read_hwp(tmp_path / "planted.hwp", planted)
    at = pdoc.text.index(value)
    assert pdoc.text[:start] == doc.text[:start] and at == start
    assert pdoc.text[at + len(cover):] == doc.text[start + len(cover):]
    assert not check_hwp_bytes(planted, ValueMatcher([value])).clean
    planted_text = hwp5txt(tmp_path / "planted.hwp")

    masked = write_hwp(pdoc, [Replacement(at, at + n, "[PERSON]", "PERSON")], planted)
    (tmp_path / "masked.hwp").write_bytes(masked)
    mdoc = read_hwp(tmp_path / "masked.hwp", masked)
    # outside the masked span the text is the planted document's, character for character
    assert mdoc.text[:at] + mdoc.text[at + n:] == pdoc.text[:at] + pdoc.text[at + n:]
    assert len(mdoc.text) == len(doc.text)
    assert mdoc.text[at:at + n].startswith("[P") and value not in mdoc.text
    assert_no_value(masked, [value])
    assert check_hwp_bytes(masked, ValueMatcher([value])).clean
    text = hwp5txt(tmp_path / "masked.hwp")
    assert value not in text
    if value in planted_text:        # hwp5txt shows tables and shapes as <표>/<그림>, not their text
        assert "[P" in text
