"""One default masking style for the window and ``veil-redact redact`` (``masking.DEFAULT_MASK_STYLE``,
``masking.resolve_tag_language``, ``masking.export_masker``): the same Korean document with the same
decisions comes out identical from the batch CLI and from the planner + export job the window runs."""
from __future__ import annotations

import json
import re

import pytest

from tests.fixtures.tiny_model import build_tiny_model
from veil_desktop.cli import main
from veil_desktop.detect.span import Span
from veil_desktop.documents import open_document
from veil_desktop.masking import (DEFAULT_MASK_STYLE, TAG_LANGUAGE_CHOICES, MaskStyle, export_masker,
                                  resolve_tag_language, style_example)
from veil_desktop.review.export import PendingPolicy
from veil_desktop.review.export_job import ExportRequest, export_review
from veil_desktop.review.settings import AppSettings
from veil_desktop.review.state import ReviewState, Status

NAMES = ["홍길동", "김민수", "이영희"]
DOC = ("민원 처리 결과 통보\n"
       "신청인 홍길동 (연락처 010-2345-6789) 님의 민원을 김민수 주무관이 처리하였습니다.\n"
       "참고인 이영희 (hong.gd@example.com), 주민등록번호 900101-1234567.\n"
       "홍길동 님께 결과를 알려 드립니다.\n")
VALUES = NAMES + ["010-2345-6789", "hong.gd@example.com", "900101-1234567"]


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("model") / "tiny", entities={n: "PERSON" for n in NAMES},
                            score=0.9)


def test_the_default_is_one_style_and_the_documents_tag_language():
    assert DEFAULT_MASK_STYLE is MaskStyle.TAG
    assert AppSettings().default_style == DEFAULT_MASK_STYLE.value            # the window's settings
    fixed, problems = AppSettings.from_json({"default_style": "bogus", "styles": {"PERSON": "bogus"}})
    assert (fixed.default_style, fixed.styles.get("PERSON", DEFAULT_MASK_STYLE.value)) == \
        (DEFAULT_MASK_STYLE.value, DEFAULT_MASK_STYLE.value)
    from veil_desktop.redact_cli import parse_styles

    assert parse_styles([]) == ({}, DEFAULT_MASK_STYLE)                       # the CLI's
    assert TAG_LANGUAGE_CHOICES == ("auto", "ko", "en")
    assert resolve_tag_language(DOC) == resolve_tag_language(DOC, "auto") == "ko"
    assert resolve_tag_language("John Smith, 10 Main St.") == "en"
    assert resolve_tag_language(DOC, "en") == "en" and resolve_tag_language("John", "ko") == "ko"
    with pytest.raises(ValueError, match="unknown tag language"):
        resolve_tag_language(DOC, "jp")
    m = export_masker(DOC)
    assert (m.default, m.lang, m.styles) == (DEFAULT_MASK_STYLE, "ko", {})
    assert m.mask_value("홍길동", "PERSON") == "[인명]" and m.mask_value("900101-1234567", "RRN") == "[주민등록번호]"
    assert export_masker(DOC, tag_lang="en").mask_value("홍길동", "PERSON") == "[PERSON]"


def _replay(doc, report) -> ReviewState:
    """The CLI's decisions as a reviewer's: accepted/propagated -> accepted, below the score -> rejected."""
    st = ReviewState(doc.text)
    for d in report["decisions"]:
        status = Status.ACCEPTED if d["decision"] in ("accepted", "propagated") else Status.REJECTED
        st.add_detected([Span(d["start"], d["end"], d["label"], d["score"], d["source"])], status=status)
    return st


def _leaks(text: str) -> list[str]:
    """Pieces the leak rule forbids: 2 syllables of a name, 4 digits of a number, the e-mail's local part."""
    out = []
    for name in NAMES:
        out += [name[i:i + 2] for i in range(len(name) - 1) if name[i:i + 2] in text]
    digits = re.sub(r"\D", "", text)
    for v in ("01023456789", "9001011234567"):
        out += [v[i:i + 4] for i in range(len(v) - 3) if v[i:i + 4] in digits]
    return out + [p for p in ("hong.gd", "example.com") if p in text]


@pytest.mark.parametrize("cli_args, tag_lang, person_tag", [
    ([], None, "[인명]"),                         # defaults on both sides: Korean tags in a Korean document
    (["--tag-lang", "en"], "en", "[PERSON]"),      # the explicit way to English tags, both sides
])
def test_cli_and_window_planner_mask_a_korean_document_identically(tmp_path, model, cli_args, tag_lang,
                                                                   person_tag):
    src = tmp_path / "민원.txt"
    src.write_text(DOC, encoding="utf-8")
    out = tmp_path / "cli"
    assert main(["redact", str(src), "--out", str(out), "--model", str(model), "--threads", "1", "--quiet",
                 *cli_args]) == 0
    cli_text = (out / "민원.txt").read_text("utf-8")
    report = json.loads((out / "민원.txt.report.json").read_text("utf-8"))
    assert {d["decision"] for d in report["decisions"]} >= {"accepted"}

    # the window's path: its default settings, the same decisions, the export job it runs on the pool
    doc = open_document(src)
    st = _replay(doc, report)
    s = AppSettings()
    win = tmp_path / "window.txt"
    req = ExportRequest(win, dict(s.styles), s.default_style, PendingPolicy.BLOCK, tag_lang=tag_lang)
    res = export_review(doc, st, req)
    assert res.leak_check["result"] == "clean"
    win_text = win.read_text("utf-8")

    assert win_text == cli_text
    # both reports record the tag language the masked text was written in
    want_lang = "ko" if person_tag == "[인명]" else "en"
    assert report["masking"]["tag_language"] == want_lang
    win_report = json.loads((tmp_path / "window.txt.report.json").read_text("utf-8"))
    assert win_report["masking"]["tag_language"] == want_lang
    assert cli_text.count(person_tag) == 4                                 # 홍길동 ×2, 김민수, 이영희
    assert _leaks(cli_text) == []
    assert "[PERSON]" not in cli_text if person_tag == "[인명]" else "[인명]" not in cli_text
    assert cli_text.startswith("민원 처리 결과 통보\n신청인 " + person_tag)


def test_redact_help_documents_every_style_and_tag_language(capsys):
    with pytest.raises(SystemExit) as e:
        main(["redact", "--help"])
    assert e.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for style in MaskStyle:
        assert f"{style.value} = " in text
    assert f"{style_example('PERSON', 'tag', 'ko')} / {style_example('PERSON', 'tag', 'en')}" in text
    assert style_example("RRN", "partial") in text and style_example("PERSON", "pseudonym") in text
    assert "--tag-lang {auto,ko,en}" in text
    assert f"default {DEFAULT_MASK_STYLE.value}, as in the window" in text


def test_redact_rejects_an_unknown_tag_language(tmp_path, capsys):
    src = tmp_path / "a.txt"
    src.write_text(DOC, encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        main(["redact", str(src), "--out", str(tmp_path / "o"), "--tag-lang", "jp"])
    assert e.value.code == 2 and "invalid choice" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
