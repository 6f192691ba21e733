"""The evaluation command: scoring definitions, leak rules, and the CLI on a corpus written here."""
import json

import pytest

from tests.fixtures.tiny_model import build_tiny_model
from veil_desktop import evaluate as E
from veil_desktop.detect.span import Span


def S(text, needle, label, source="model", start=0):
    i = text.index(needle, start)
    return Span(i, i + len(needle), label, 1.0, source)


# ---------------------------------------------------------------------------------- leaks

def test_number_leak_needs_four_digits_in_one_uncovered_run():
    text = "연락처 010-1234-5678"
    gold = S(text, "010-1234-5678", "PHONE")
    assert E.is_leak(text, gold, [])
    assert not E.is_leak(text, gold, [gold])
    # "5678" survives -> leak; "678" survives -> not a leak
    assert E.is_leak(text, gold, [S(text, "010-1234-", "PHONE")])
    assert not E.is_leak(text, gold, [S(text, "010-1234-5", "PHONE")])
    # separators do not break a run: "34-56" + more digits
    assert E.is_leak(text, gold, [S(text, "010-12", "PHONE"), S(text, "78", "PHONE")])


def test_name_leak_counts_syllables_in_total():
    text = "담당자 김민준 과장"
    gold = S(text, "김민준", "PERSON")
    assert E.is_leak(text, gold, [S(text, "민", "PERSON")])        # 김 + 준 survive
    assert not E.is_leak(text, gold, [S(text, "김민", "PERSON")])  # only 준 survives


def test_address_leak_ignores_region_words_but_not_the_house_number():
    text = "주소 서울특별시 강남구 테헤란로 77길 12, 102동 405호"
    gold = S(text, "서울특별시 강남구 테헤란로 77길 12, 102동 405호", "ADDRESS")
    assert not E.is_leak(text, gold, [S(text, "테헤란로 77길 12, 102동 405호", "ADDRESS")])
    assert E.is_leak(text, gold, [S(text, "서울특별시 강남구 테헤란로", "ADDRESS")])   # "77길 12, …" survives
    assert E.unit_exposed(text, gold, [S(text, "서울특별시 강남구 테헤란로 77길 12, 102동", "ADDRESS")]) == (2, 1)
    assert E.unit_exposed(text, gold, [gold]) == (2, 0)


# ---------------------------------------------------------------------------------- scoring

def test_exact_and_partial_counts_and_unlabelled_labels():
    text = "김철수 010-1234-5678 서울특별시 강남구 테헤란로 1 넥스트웨이브"
    gold = [S(text, "김철수", "PERSON"), S(text, "010-1234-5678", "PHONE"),
            S(text, "서울특별시 강남구 테헤란로 1", "ADDRESS")]
    pred = [S(text, "김철수", "PERSON"),                       # exact
            S(text, "010-1234", "PHONE"),                      # partial only
            S(text, "강남구 테헤란로 1", "ADDRESS"),            # partial only
            S(text, "넥스트웨이브", "ORGANIZATION")]             # not annotated in this corpus
    rep = E.Report()
    E.score_doc(rep, text, gold, pred, {"PERSON", "PHONE", "ADDRESS"})
    assert (rep.exact["PERSON"].tp, rep.exact["PHONE"].tp, rep.exact["PHONE"].fp, rep.exact["PHONE"].fn) == (1, 0, 1, 1)
    assert rep.partial["PHONE"].prf() == (1.0, 1.0, 1.0)
    assert rep.partial["ADDRESS"].gold_found == 1
    assert "ORGANIZATION" not in rep.exact and rep.unscored == {"ORGANIZATION": 1}
    assert rep.leaks["PHONE"] == 1          # "5678" survives
    assert rep.leaks.get("ADDRESS", 0) == 0  # only the region word 서울특별시 survives
    e, p, leaks = rep.group(["PERSON", "PHONE", "ADDRESS"])
    assert (e.tp, e.fp, e.fn, p.gold, p.pred, leaks) == (1, 2, 2, 3, 3, 1)


def test_markdown_table_has_a_row_per_label_and_totals():
    rep = E.Report()
    text = "010-1234-5678"
    E.score_doc(rep, text, [S(text, text, "PHONE")], [S(text, text, "PHONE", "rule")], None)
    md = E.markdown(rep, "t")
    assert "| PHONE | 1 | 1 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 1.000 | 0 (0.0%) |" in md
    assert "**structured (micro)**" in md and "**all (micro)**" in md


# ---------------------------------------------------------------------------------- the command

@pytest.fixture()
def corpus(tmp_path):
    rows = [
        {"text": "민원인 김철수(880412-2145678) 연락처 010-1234-5678, 주소 서울특별시 강남구 테헤란로 42길 15-3, "
                 "102동 405호 (우편번호 06234).",
         "pii": [{"type": "PERSON", "text": "김철수"}, {"type": "RRN", "text": "880412-2145678"},
                 {"type": "PHONE", "text": "010-1234-5678"},
                 {"type": "ADDRESS", "text": "서울특별시 강남구 테헤란로 42길 15-3, 102동 405호"},
                 {"type": "POSTAL_CODE", "text": "06234"}], "domain": "t"},
        {"text": "환급 계좌는 신한은행 110-452-987654이며 문의는 sy.kim@gov.kr로 주세요. 주문번호 240512-1234567.",
         "pii": [{"type": "ACCOUNT", "text": "110-452-987654"}, {"type": "EMAIL", "text": "sy.kim@gov.kr"},
                 {"type": "URL", "text": "gov.kr"}], "domain": "t"},
    ]
    p = tmp_path / "mini.jsonl"
    p.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    return p


def test_cli_rules_on_a_corpus(corpus, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert E.main(["--detector", "rules", "--data", "ko-pii", "--data-path", str(corpus), "--split", "all",
                   "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| PHONE | 1 | 1 |" in printed and "veil-rules-1 on ko-pii / all" in printed
    res = json.loads(out.read_text(encoding="utf-8"))
    assert res["docs"] == 2
    # PERSON is not something the rules can emit: left out of the table unless --all-labels
    assert "PERSON" not in res["labels"]
    s = res["labels"]["_structured"]
    assert (s["gold"], s["pred"], s["exact"]["p"], s["exact"]["r"], s["leaks"]) == (5, 5, 1.0, 1.0, 0)
    assert res["labels"]["ADDRESS"]["exact"]["f1"] == 1.0
    assert res["address_units"] == 2 and res["address_unit_leaks"] == 0


def test_cli_all_labels_counts_what_the_detector_cannot_emit(corpus, tmp_path):
    out = tmp_path / "r.json"
    E.main(["--detector", "rules", "--data-path", str(corpus), "--split", "all", "--all-labels", "--json", str(out)])
    res = json.loads(out.read_text(encoding="utf-8"))
    assert res["labels"]["PERSON"]["partial"]["r"] == 0.0 and res["labels"]["PERSON"]["leaks"] == 1


def test_cli_model_and_default_detectors(corpus, tmp_path):
    folder = build_tiny_model(tmp_path / "m", entities={"김철수": "PERSON"}, score=0.9)
    out = tmp_path / "m.json"
    E.main(["--detector", f"model:{folder}", "--data-path", str(corpus), "--split", "all", "--threads", "1",
            "--json", str(out)])
    res = json.loads(out.read_text(encoding="utf-8"))
    assert res["labels"]["PERSON"]["exact"]["f1"] == 1.0 and "PHONE" not in res["labels"]
    E.main(["--detector", "default", "--model", str(folder), "--data-path", str(corpus), "--split", "all",
            "--threads", "1", "--json", str(out)])
    res = json.loads(out.read_text(encoding="utf-8"))
    assert res["detector"] == "m+veil-rules-1"
    assert res["labels"]["PERSON"]["exact"]["f1"] == 1.0 and res["labels"]["PHONE"]["exact"]["f1"] == 1.0


def test_cli_refuses_unknown_detector(corpus):
    with pytest.raises(SystemExit):
        E.main(["--detector", "magic", "--data-path", str(corpus)])


def test_cli_clear_errors_for_missing_corpus_and_model(tmp_path, corpus):
    with pytest.raises(SystemExit, match="cannot read the ko-pii corpus"):
        E.main(["--detector", "rules", "--data-path", str(tmp_path / "none.jsonl")])
    with pytest.raises(SystemExit, match="There is no model folder at"):
        E.main(["--detector", "default", "--model", str(tmp_path / "nomodel"), "--data-path", str(corpus)])
    with pytest.raises(SystemExit, match="unknown rule labels"):
        E.main(["--detector", "rules", "--labels", "PHONE,SHOE", "--data-path", str(corpus)])


# ---------------------------------------------------------------------------------- issue 17 additions

def test_heldout_split_is_whole_domains_and_klue_falls_back_to_the_hash_split():
    from veil_desktop.datasets import HELDOUT_DOMAINS, Doc, in_split

    held = sorted(HELDOUT_DOMAINS)[0]
    docs = [Doc(f"d{i}", f"문서 {i}", [], held if i % 2 else "사내 업무 이메일", "ko-pii") for i in range(40)]
    heldout = [d for d in docs if in_split(d, "heldout")]
    assert heldout and all(d.domain == held for d in heldout) and len(heldout) == 20
    assert all(d.domain != held for d in docs if in_split(d, "tuning"))
    assert {d.id for d in docs if in_split(d, "heldout-test")} == {d.id for d in heldout if d.split == "test"}
    assert all(d.split in ("train", "dev") for d in docs if in_split(d, "tuning-dev"))
    klue = [Doc(f"k{i}", f"문장 {i}", [], "wikitree", "klue") for i in range(40)]
    assert [d.id for d in klue if in_split(d, "heldout")] == [d.id for d in klue if d.split == "test"]
    assert [d.id for d in klue if in_split(d, "tuning")] == [d.id for d in klue if d.split != "test"]


def test_other_identifiers_group_false_positive_rate_and_service_numbers():
    rep = E.Report()
    text = "홈페이지 www.seoulclinic.kr 고객센터 1588-1234 사번 EMP-2024-0012 " + "가" * 930
    gold = [S(text, "www.seoulclinic.kr", "URL"), S(text, "1588-1234", "PHONE")]
    pred = [S(text, "www.seoulclinic.kr", "URL", "rule"), S(text, "EMP-2024-0012", "URL", "rule")]
    E.score_doc(rep, text, gold, pred, None)
    rep.chars = 1000  # as if the document were 1,000 characters long
    md = E.markdown(rep)
    assert "| **other identifiers (micro)** | 1 | 2 |" in md
    assert "**structured (micro)** | 1 | 0 |" in md   # the PHONE row: a service number left unmasked
    assert "URL 1.00" in md                            # one false positive in 1,000 characters
    assert "Public service numbers annotated as PHONE (1588-…, 1330, 110 …): 1; left unmasked by design" in md
    js = E.to_json(rep)
    assert js["labels"]["_other_ids"]["gold"] == 1 and js["labels"]["URL"]["fp_per_1000_chars"] == 1.0
    assert (js["service_numbers"], js["service_numbers_kept"]) == (1, 1)


def test_identifier_leaks_count_letters_and_digits_birth_dates_count_digits():
    text = "처방전 번호 RX-ABCD-12 생년월일 1982년 5월 14일"
    rx = S(text, "RX-ABCD-12", "MEDICAL_ID")
    assert E.is_leak(text, rx, [S(text, "12", "MEDICAL_ID")])         # RXABCD: 6 letters survive
    assert not E.is_leak(text, rx, [S(text, "RX-ABC", "MEDICAL_ID")])  # D12: 3 survive
    bd = S(text, "1982년 5월 14일", "BIRTH_DATE")
    assert E.is_leak(text, bd, [])
    assert not E.is_leak(text, bd, [S(text, "1982", "BIRTH_DATE")])   # "년 5월 14일": 3 digits


def test_default_without_context_is_the_baseline_of_the_refine_stage(tmp_path):
    from veil_desktop.detect.rules.refine import DEMOTED_SCORE

    folder = build_tiny_model(tmp_path / "m", entities={"채권자": "PERSON"}, score=0.9)
    text = "채권자는 변 씨에게 청구한다"
    with_ctx = E.make_detector("default", str(folder), threads=1)
    without = E.make_detector("default-no-context", str(folder), threads=1)
    assert without.id.endswith("-no-context")
    # refine demotes the role noun (kept, below the default threshold) and the rules add the surname + title
    assert [(text[s.start:s.end], s.label, s.score == DEMOTED_SCORE) for s in with_ctx.detect(text)] == [
        ("채권자", "PERSON", True), ("변", "PERSON", False)]
    assert [(text[s.start:s.end], s.label) for s in without.detect(text)] == [("채권자", "PERSON")]


# ---------------------------------------------------------------------------------- --min-score

def test_min_score_default_is_the_products_one_constant():
    import inspect

    from veil_desktop.detect.span import DEFAULT_MIN_SCORE
    from veil_desktop import redact_cli as batch
    from veil_desktop.review.settings import AppSettings

    assert DEFAULT_MIN_SCORE == 0.5
    assert batch.DEFAULT_MIN_SCORE is DEFAULT_MIN_SCORE  # veil-redact redact --min-score
    assert AppSettings().threshold == DEFAULT_MIN_SCORE  # the window's default threshold
    assert inspect.signature(E.evaluate).parameters["min_score"].default is DEFAULT_MIN_SCORE


def test_evaluate_scores_only_what_passes_the_threshold_demoted_spans_included(tmp_path):
    """A demoted span (score 0.2) counts as not predicted at the default min score, as the batch CLI leaves it
    unmasked; ``min_score=0`` scores every span."""
    from veil_desktop.datasets import Doc

    folder = build_tiny_model(tmp_path / "m", entities={"채권자": "PERSON", "김철수": "PERSON"}, score=0.9)
    text = "채권자 김철수는 청구한다"
    doc = Doc(id="d", text=text, spans=[S(text, "김철수", "PERSON")], unlabelled=())
    det = E.make_detector("default", str(folder), threads=1)
    rep = E.evaluate(det, [doc], frozenset({"PERSON"}))
    e, p, leaks = rep.group(["PERSON"])
    assert (e.tp, e.fp, e.fn, leaks) == (1, 0, 0, 0)   # 채권자 demoted: not a false positive at 0.5
    rep0 = E.evaluate(det, [doc], frozenset({"PERSON"}), min_score=0.0)
    e, p, leaks = rep0.group(["PERSON"])
    assert (e.tp, e.fp, e.fn, leaks) == (1, 1, 0, 0)   # every span scored: 채권자 is a false positive


def test_cli_min_score_default_and_zero(corpus, tmp_path):
    folder = build_tiny_model(tmp_path / "m", entities={"김철수": "PERSON"}, score=0.4)  # a weak model span
    out = tmp_path / "m.json"
    E.main(["--detector", f"model:{folder}", "--data-path", str(corpus), "--split", "all", "--threads", "1",
            "--json", str(out)])
    res = json.loads(out.read_text(encoding="utf-8"))
    assert res["min_score"] == 0.5
    assert res["labels"]["PERSON"]["pred"] == 0 and res["labels"]["PERSON"]["leaks"] == 1  # left unmasked
    E.main(["--detector", f"model:{folder}", "--data-path", str(corpus), "--split", "all", "--threads", "1",
            "--min-score", "0", "--json", str(out)])
    res = json.loads(out.read_text(encoding="utf-8"))
    assert res["min_score"] == 0.0
    assert res["labels"]["PERSON"]["exact"]["f1"] == 1.0 and res["labels"]["PERSON"]["leaks"] == 0
    with pytest.raises(SystemExit):
        E.main(["--detector", "rules", "--data-path", str(corpus), "--min-score", "1.5"])
