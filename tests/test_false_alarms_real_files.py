"""Issue 26, class 6 on real files: every HWPX/DOCX under ``../shared/data`` (saved by Hancom Office and
other software; the tests skip when the folder is absent) exports cleanly when short English words of its
own text (three or four Latin letters, as an NER model tags ``PDF``/``HWP``/``Logo`` as ORGANIZATION) are
masked: the leak check finds no false copy in the file's own format bytes (MIME types, part paths, part
names, enumerations), and attribute values with a harmless grammar are not put up for review.

Measured by the loops of these two tests (``QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q
tests/test_false_alarms_real_files.py``; the "before" figures by the same loops run against the base
commit 69649a3, which reads only 18 of the 22 files): attribute lines shown for review 1004 (18 files)
-> 4 (22 files); false alarms with up to two such words masked per file: 1 of 17 exported (``HWP``
"found" in the ``mimetype`` member) -> 0 of 21."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.fixtures.leak_builders import redact
from veil_desktop.documents import LeakDetected, open_document

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
FILES = sorted([*DATA.glob("**/*.hwpx"), *DATA.glob("**/*.docx")]) if DATA.is_dir() else []
pytestmark = pytest.mark.skipif(not FILES, reason="../shared/data (HWPX/DOCX samples) is absent")
WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]{3,4}(?![A-Za-z])")


def _words(doc) -> list[str]:
    """Short English words of the document's own text (slots, not the tool's captions)."""
    text = "\n".join(doc.text[g.start:g.end] for g in doc.segments)
    return list(dict.fromkeys(WORD.findall(text)))[:2]


def test_real_files_show_few_attributes_for_review():
    docs = [open_document(f) for f in FILES]
    lines = sum(len(re.findall(r"(?m)^\[Attribute\] ", d.text)) for d in docs)
    assert len(docs) >= 20 and lines <= 10, lines


def test_masking_english_words_of_real_files_gives_no_false_alarm(tmp_path):
    exported, alarms = 0, []
    for i, path in enumerate(FILES):
        words = _words(open_document(path))
        if not words:
            continue
        exported += 1
        try:
            _doc, res = redact(path, tmp_path / f"out{i}{path.suffix}", {w: "ORGANIZATION" for w in words})
        except LeakDetected as e:
            alarms.append((path.name, words, str(e)[:200]))
            continue
        if res.leak_check["result"] != "clean" or res.leak_check["values_checked"] != len(words):
            alarms.append((path.name, words, res.leak_check))
    assert exported >= 10 and not alarms, (exported, alarms)
