"""Term lists (review/terms.py): CSV import/export with per-line errors, spacing/width-tolerant matching,
keep/mask semantics, the user's stored list, and ``veil-redact redact --terms`` through the real default
detector over a tiny real ONNX model folder."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures.tiny_model import build_tiny_model
from veil_desktop.cli import main
from veil_desktop.detect.span import Span
from veil_desktop.review.terms import (
    Term, TermList, TermsError, load_user_terms, save_user_terms, term_key, user_terms_path,
)

CSV = "term,action,label\n박서연,mask,PERSON\n프로젝트 가람,mask,OTHER\n홍길동,keep,\nACME,mask,organization\n"


def values(text: str, spans) -> list[str]:
    return [text[s.start:s.end] for s in spans]


# ------------------------------------------------------------------------------------------ core
def test_csv_round_trip_and_labels():
    tl = TermList.from_csv_text("\ufeff" + CSV)          # a BOM from Excel is accepted
    assert [(t.term, t.action, t.label) for t in tl.terms] == [
        ("박서연", "mask", "PERSON"), ("프로젝트 가람", "mask", "OTHER"), ("홍길동", "keep", ""),
        ("ACME", "mask", "ORGANIZATION")]
    assert TermList.from_csv_text(tl.to_csv_text()) == tl
    assert tl.to_csv_text().splitlines()[0] == "term,action,label"
    # display names are accepted as labels
    assert TermList.from_csv_text("term,action,label\n김철수,mask,인명\n").terms[0].label == "PERSON"


def test_csv_errors_name_each_bad_line():
    bad = ("term,action,label\n"
           "박서연,mask,PERSON\n"      # line 2 ok
           ",mask,PERSON\n"            # 3 empty term
           "김철수,delete,\n"          # 4 bad action
           "이수진,mask,\n"            # 5 label missing
           "최영,mask,NOPE\n"          # 6 unknown label
           "a,b\n"                     # 7 wrong column count
           "박서연,keep,\n")           # 8 conflicts with line 2
    with pytest.raises(TermsError) as ei:
        TermList.from_csv_text(bad)
    errs = ei.value.errors
    assert [e.split(":")[0] for e in errs[:5]] == ["line 3", "line 4", "line 5", "line 6", "line 7"]
    assert "empty term" in errs[0] and "'delete'" in errs[1] and "needs a label" in errs[2]
    assert "'NOPE'" in errs[3] and "3 columns" in errs[4]
    assert any("listed twice" in e for e in errs)
    with pytest.raises(TermsError, match="header"):
        TermList.from_csv_text("이름,동작,라벨\n박서연,mask,PERSON\n")
    with pytest.raises(TermsError, match="empty"):
        TermList.from_csv_text("")


def test_load_refuses_non_utf8_and_big_files(tmp_path):
    p = tmp_path / "t.csv"
    p.write_bytes("term,action,label\n박서연,mask,PERSON\n".encode("cp949"))
    with pytest.raises(TermsError, match="not UTF-8"):
        TermList.load(p)
    with pytest.raises(TermsError, match="does not exist"):
        TermList.load(tmp_path / "missing.csv")
    big = tmp_path / "big.csv"
    big.write_bytes(b"term,action,label\n" + b"x" * (9 * 1024 * 1024))
    with pytest.raises(TermsError, match="too large"):
        TermList.load(big)


def test_mask_matching_tolerates_spacing_width_case_and_zero_width():
    tl = TermList.from_csv_text(CSV)
    text = ("박 서 연 님, 박서연 님, 박\u200b서연 님. 프로젝트가람 / 프로젝트  가람. "
            "ＡＣＭＥ and acme, not ACMEX nor XACME.")
    spans = tl.mask_spans(text)
    assert values(text, spans) == ["박 서 연", "박서연", "박\u200b서연", "프로젝트가람", "프로젝트  가람",
                                   "ＡＣＭＥ", "acme"]
    assert [s.label for s in spans] == ["PERSON"] * 3 + ["OTHER"] * 2 + ["ORGANIZATION"] * 2
    assert {s.source for s in spans} == {"list"} and {s.score for s in spans} == {1.0}


def test_keep_drops_only_detections_inside_a_kept_term():
    tl = TermList.from_csv_text(CSV)
    text = "홍길동 사장과 홍 길동, 홍길동씨 그리고 이영희"
    det = [Span(0, 3, "PERSON", 0.9), Span(8, 12, "PERSON", 0.9), Span(14, 18, "PERSON", 0.9),
           Span(23, 26, "PERSON", 0.9), Span(1, 3, "PERSON", 0.7)]
    res = tl.apply(text, det)
    assert values(text, res.kept) == ["홍길동", "홍 길동", "길동"]
    assert values(text, res.spans) == ["홍길동씨", "이영희"]   # larger than the kept term: stays (safe)
    rep = res.report(tl)
    assert rep == {"mask_terms": 3, "keep_terms": 1, "mask_hits": 0, "mask_hits_per_label": {},
                   "keep_hits": 3}
    assert "홍길동" not in json.dumps(rep, ensure_ascii=False)


def test_mask_wins_over_keep_where_they_overlap():
    tl = TermList([Term("서울시청", "keep"), Term("시청 김민준", "mask", "PERSON")])
    text = "서울시청 김민준 주무관"
    res = tl.apply(text, [Span(0, 4, "ORGANIZATION", 0.9)])
    assert values(text, res.list_spans) == ["시청 김민준"]
    assert res.kept == [] and values(text, res.spans) == ["서울시청"]


def test_user_list_is_stored_in_the_config_dir():
    assert load_user_terms() == TermList()
    tl = TermList.from_csv_text(CSV)
    path = save_user_terms(tl)
    assert path == user_terms_path() and path.read_text("utf-8").startswith("term,action,label\n")
    assert load_user_terms() == tl
    assert term_key("Ｐｒｏ ｊｅｃｔ") == "project"


# ------------------------------------------------------------------------------------------ CLI
ENTITIES = {"홍길동": "PERSON", "이영희": "PERSON", "안중근": "PERSON"}


@pytest.fixture()
def model(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("model") / "tiny", entities=ENTITIES, score=0.9)


DOC = ("담당자 홍길동 과장과 박서연이 프로젝트가람 회의에 참석.\n"
       "참석: 박 서 연, 이영희, 안중근. 문의 홍길동 (010-1234-5678)\n")


def test_cli_redact_with_terms(tmp_path, model, capsys):
    src = tmp_path / "in"
    src.mkdir()
    (src / "memo.txt").write_text(DOC, encoding="utf-8")
    terms = tmp_path / "terms.csv"
    terms.write_text(CSV, encoding="utf-8")

    out_plain = tmp_path / "plain"
    assert main(["redact", str(src), "--out", str(out_plain), "--model", str(model), "--threads", "1",
                 "--quiet"]) == 0
    plain = (out_plain / "memo.txt").read_text("utf-8")
    assert "홍길동" not in plain and "박서연" in plain           # without the list: detector only

    out = tmp_path / "out"
    code = main(["redact", str(src), "--out", str(out), "--model", str(model), "--threads", "1",
                 "--quiet", "--terms", str(terms)])
    assert code == 0, capsys.readouterr()
    masked = (out / "memo.txt").read_text("utf-8")
    assert masked == ("담당자 홍길동 과장과 [인명]이 [기타] 회의에 참석.\n"
                      "참석: [인명], [인명], [인명]. 문의 홍길동 ([전화번호])\n")
    # other detections unchanged: the same masks as without the list, except the list's own effect
    assert plain.replace("[인명] 과장", "홍길동 과장").replace("문의 [인명]", "문의 홍길동") \
        .replace("박서연", "[인명]").replace("프로젝트가람", "[기타]").replace("박 서 연", "[인명]") == masked
    report_text = (out / "memo.txt.report.json").read_text("utf-8")
    report = json.loads(report_text)
    assert report["term_list"] == {"mask_terms": 3, "keep_terms": 1, "mask_hits": 3,
                                   "mask_hits_per_label": {"OTHER": 1, "PERSON": 2}, "keep_hits": 2}
    assert report["leak_check"]["result"] == "clean"
    assert sum(d["decision"] == "kept_by_list" for d in report["decisions"]) == 2
    assert sum(d.get("source") == "list" for d in report["decisions"]) == 3
    for word in ("박서연", "가람", "홍길동", "ACME"):
        assert word not in report_text                          # the report never names the terms


def test_cli_bad_terms_file_is_a_usage_error_and_writes_nothing(tmp_path, model, capsys):
    src = tmp_path / "memo.txt"
    src.write_text(DOC, encoding="utf-8")
    terms = tmp_path / "terms.csv"
    terms.write_text("term,action,label\n박서연,mask,\n가람,erase,OTHER\n", encoding="utf-8")
    out = tmp_path / "out"
    code = main(["redact", str(src), "--out", str(out), "--model", str(model), "--terms", str(terms)])
    err = capsys.readouterr().err
    assert code == 2
    assert "line 2: a mask term needs a label" in err and "line 3: action must be" in err
    assert not out.exists()


def test_cli_terms_reach_hiding_places_split_runs_zero_width_full_width(tmp_path, model, capsys):
    """A mask term split over two DOCX runs, in a table cell, in the header, with a zero-width space and
    in full-width letters: all masked in the written file (the leak check re-reads it)."""
    import zipfile

    import docx

    d = docx.Document()
    p = d.add_paragraph("담당 ")
    p.add_run("박서")
    p.add_run("연 주무관")                                 # the term split over two runs
    d.add_paragraph("참석 박\u200b서연, 협력사 ＡＣＭＥ 및 acme")
    d.add_table(rows=1, cols=1).cell(0, 0).text = "비고: 프로젝트  가람"
    d.sections[0].header.paragraphs[0].text = "문서 관리: 박서연"
    src = tmp_path / "letter.docx"
    d.save(str(src))
    terms = tmp_path / "terms.csv"
    terms.write_text(CSV, encoding="utf-8")
    out = tmp_path / "out"
    code = main(["redact", str(src), "--out", str(out), "--model", str(model), "--threads", "1", "--quiet",
                 "--terms", str(terms)])
    assert code == 0, capsys.readouterr()
    with zipfile.ZipFile(out / "letter.docx") as z:
        xml = "".join(z.read(n).decode("utf-8") for n in z.namelist() if n.endswith(".xml"))
    plain = xml.replace("\u200b", "")
    for value in ("박서연", "박서", "가람", "ＡＣＭＥ", "acme", "ACME"):
        assert value not in plain, value
    report = json.loads((out / "letter.docx.report.json").read_text("utf-8"))
    assert report["term_list"]["mask_hits_per_label"] == {"ORGANIZATION": 2, "OTHER": 1, "PERSON": 3}
    assert report["leak_check"]["result"] == "clean"
