"""OCR's digit confusions (issue 22): OCR reads ``010`` as ``)10``, ``O10`` or ``0l0``; the rule stage reads
such phone/RRN-shaped numbers as digits, and the span covers the original characters, so the burn box
and the mask hide every one of them. Ordinary text is not touched."""
from __future__ import annotations

import pytest

from veil_desktop.detect.normalize import detection_view
from veil_desktop.detect.default import build_default_detector
from veil_desktop.masking import Masker, apply_replacements


@pytest.fixture(scope="module")
def detector():
    return build_default_detector(threads=1)      # the rule stage reads the detection view there


@pytest.mark.parametrize("ocr, label", [(")10-1234-5678", "PHONE"), ("O10-1234-5678", "PHONE"),
                                        ("0l0-1234-5678", "PHONE"), ("010-12|4-5678", "PHONE"),
                                        ("9O0101-1234568", "RRN"), ("010-5823-/461", "PHONE"),
                                        ("010-S823-7461", "PHONE"), ("010-5B23-74Z1", "PHONE")])
def test_confused_digits_are_found_and_masked_whole(detector, ocr, label):
    text = f"연락처 {ocr} 로 회신 바랍니다"
    spans = [s for s in detector.detect(text) if s.label == label]
    a = text.index(ocr)
    assert [(s.start, s.end) for s in spans] == [(a, a + len(ocr))]
    out = apply_replacements(text, Masker().plan(text, spans))
    assert ocr not in out and "1234" not in out and "5678" not in out


def test_ordinary_text_is_left_as_written():
    for text in ("Room IO1-2345 (lobby)", "모델 ABC-1234-5678", "(주)한빛 02-1234", "Illinois-1234-5678x",
                 "SBZ-2024-1234", "경로 2024/11/30 14:00", "BS-12345-SZ"):
        view = detection_view(text, spaced_digits=True)
        assert view.text == text, text
