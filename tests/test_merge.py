"""merge_spans: the documented priority between rule and model spans."""
import random

from veil_desktop.detect.merge import merge_spans
from veil_desktop.detect.span import Span


def M(a, b, label, score=0.9):
    return Span(a, b, label, score, "model")


def R(a, b, label, score=0.9):
    return Span(a, b, label, score, "rule")


def at(text, needle, label, score, source):
    i = text.index(needle)
    return Span(i, i + len(needle), label, score, source)


def test_disjoint_spans_all_kept_with_their_source():
    out = merge_spans([M(0, 3, "PERSON")], [R(10, 23, "PHONE", 0.97), R(30, 40, "ADDRESS")])
    assert out == [M(0, 3, "PERSON"), R(10, 23, "PHONE", 0.97), R(30, 40, "ADDRESS")]


def test_structured_rule_span_beats_an_overlapping_model_span():
    text = "연락처 010-1234-5678 입니다"
    phone = at(text, "010-1234-5678", "PHONE", 0.97, "rule")
    model_person = at(text, "010-1234", "PERSON", 0.99, "model")  # even a more confident model span loses
    assert merge_spans([model_person], [phone], text) == [phone]


def test_model_span_is_cut_around_a_structured_span_and_trimmed():
    text = "주소: 서울특별시 강남구 테헤란로 427, 302호 (06234) 입니다"
    model_addr = at(text, "서울특별시 강남구 테헤란로 427, 302호 (06234)", "ADDRESS", 0.8, "model")
    postal = at(text, "06234", "POSTAL_CODE", 0.9, "rule")
    out = merge_spans([model_addr], [postal], text)
    assert [(text[s.start:s.end], s.label, s.source) for s in out] == [
        ("서울특별시 강남구 테헤란로 427, 302호", "ADDRESS", "model"), ("06234", "POSTAL_CODE", "rule")]


def test_cut_pieces_without_enough_letters_disappear():
    text = "김 010-1234-5678"
    model = Span(0, len(text), "PERSON", 0.9, "model")
    phone = at(text, "010-1234-5678", "PHONE", 0.97, "rule")
    assert merge_spans([model], [phone], text) == [phone]


def test_rule_and_model_addresses_that_overlap_become_their_union():
    text = "거주지는 서울특별시 강남구 테헤란로 42길 15, 102동 405호이며 우편물은"
    rule = at(text, "서울특별시 강남구 테헤란로 42길 15, 102동 405호", "ADDRESS", 0.93, "rule")
    model = at(text, "강남구 테헤란로 42길 15, 102동 405호이며", "ADDRESS", 0.7, "model")
    [u] = merge_spans([model], [rule], text)
    assert (u.start, u.end, u.label, u.score, u.source) == (rule.start, model.end, "ADDRESS", 0.93, "rule")


def test_address_union_drops_trailing_commas_and_unbalanced_brackets():
    text = "(제출처: 세종특별자치시 도움6로 11, 미래빌딩) 및 세종특별자치시 도움로 11(어진동), 끝"
    rule = at(text, "세종특별자치시 도움6로 11, 미래빌딩", "ADDRESS", 0.93, "rule")
    model = at(text, "세종특별자치시 도움6로 11, 미래빌딩)", "ADDRESS", 0.9, "model")
    rule2 = at(text, "세종특별자치시 도움로 11(어진동)", "ADDRESS", 0.93, "rule")
    model2 = at(text, "세종특별자치시 도움로 11(어진동),", "ADDRESS", 0.9, "model")
    got = [text[s.start:s.end] for s in merge_spans([model, model2], [rule, rule2], text)]
    assert got == ["세종특별자치시 도움6로 11, 미래빌딩", "세종특별자치시 도움로 11(어진동)"]


def test_address_union_is_transitive_across_two_model_spans():
    rule = R(10, 30, "ADDRESS", 0.93)
    m1, m2 = M(5, 12, "ADDRESS", 0.6), M(28, 45, "ADDRESS", 0.7)
    [u] = merge_spans([m1, m2], [rule])
    assert (u.start, u.end, u.score, u.source) == (5, 45, 0.93, "rule")


def test_model_address_longer_than_the_rule_keeps_model_source():
    [u] = merge_spans([M(0, 40, "ADDRESS", 0.8)], [R(5, 20, "ADDRESS", 0.93)])
    assert (u.start, u.end, u.score, u.source) == (0, 40, 0.93, "model")


def test_rule_address_against_model_person_higher_score_wins_and_the_loser_is_cut():
    # the winner stays whole, the loser keeps its parts outside the winner: nothing gets unmasked
    assert merge_spans([M(0, 10, "PERSON", 0.95)], [R(5, 30, "ADDRESS", 0.8)]) == [
        M(0, 10, "PERSON", 0.95), R(10, 30, "ADDRESS", 0.8)]
    assert merge_spans([M(0, 10, "PERSON", 0.6)], [R(5, 30, "ADDRESS", 0.8)]) == [
        M(0, 5, "PERSON", 0.6), R(5, 30, "ADDRESS", 0.8)]
    # equal scores: the longer span wins
    assert merge_spans([M(0, 10, "ORGANIZATION", 0.8)], [R(5, 30, "ADDRESS", 0.8)]) == [
        M(0, 5, "ORGANIZATION", 0.8), R(5, 30, "ADDRESS", 0.8)]


def test_an_address_containing_a_model_organization_wins_whatever_the_scores():
    text = "제출처: 세종특별자치시 도움6로 11, 정부세종청사 5동 3층 입니다"
    addr = at(text, "세종특별자치시 도움6로 11, 정부세종청사 5동 3층", "ADDRESS", 0.93, "rule")
    org = at(text, "정부세종청사", "ORGANIZATION", 0.99, "model")
    assert merge_spans([org], [addr], text) == [addr]


def test_overlapping_rule_spans_are_resolved_first():
    out = merge_spans([], [R(0, 13, "PHONE", 0.97), R(4, 13, "ACCOUNT", 0.88)])
    assert out == [R(0, 13, "PHONE", 0.97)]


def test_output_is_sorted_non_overlapping_and_only_from_inputs_on_random_inputs():
    rng = random.Random(11)
    labels_m = ["PERSON", "ADDRESS", "ORGANIZATION"]
    labels_r = ["PHONE", "ADDRESS", "RRN", "POSTAL_CODE"]
    for _ in range(300):
        model, pos = [], 0
        while pos < 200:  # model spans never overlap each other (the Detector contract)
            a = pos + rng.randint(0, 15)
            b = a + rng.randint(1, 20)
            model.append(M(a, b, rng.choice(labels_m), round(rng.random(), 2)))
            pos = b
        rules = [R(a, a + rng.randint(1, 25), rng.choice(labels_r), round(rng.random(), 2))
                 for a in (rng.randint(0, 200) for _ in range(rng.randint(0, 12)))]
        out = merge_spans(model, rules)
        assert out == sorted(out, key=lambda s: (s.start, s.end))
        assert all(x.end <= y.start for x, y in zip(out, out[1:]))
        lo = min([s.start for s in model + rules])
        hi = max([s.end for s in model + rules])
        assert all(lo <= s.start < s.end <= hi for s in out)
        assert all(s.source in ("model", "rule") for s in out)
        # structured rule spans that survived rule-vs-rule resolution are never lost
        for s in out:
            if s.source == "model":
                assert not any(s.overlaps(r) and r.label != "ADDRESS" and r in out for r in rules)
        # merging never unmasks: a character covered by a model span or a surviving rule span stays covered,
        # except single characters left between cuts (pieces shorter than MIN_PIECE are dropped)
        from veil_desktop.detect.rules import resolve_overlaps
        before = {i for sp in model + resolve_overlaps(rules) for i in range(sp.start, sp.end)}
        after = {i for sp in out for i in range(sp.start, sp.end)}
        lost = sorted(before - after)
        assert all(not (b == a + 1) for a, b in zip(lost, lost[1:])), lost


def _random_case(rng, n=200):
    labels_m = ["PERSON", "ADDRESS", "ORGANIZATION"]
    labels_r = ["PHONE", "ADDRESS", "RRN", "POSTAL_CODE", "EMAIL"]
    model, pos = [], 0
    while pos < n:
        a = pos + rng.randint(0, 15)
        b = a + rng.randint(1, 20)
        model.append(M(a, b, rng.choice(labels_m), round(rng.random(), 2)))
        pos = b
    rules = [R(a, a + rng.randint(1, 25), rng.choice(labels_r), round(rng.random(), 2))
             for a in (rng.randint(0, n) for _ in range(rng.randint(0, 12)))]
    return model, rules


def test_model_spans_that_overlap_no_rule_span_come_out_unchanged():
    # the contract of issue 15: rule spans are added on top; they never reshape a model span they do not meet
    rng = random.Random(15)
    text = "가나다라마바사아자차" * 30  # letters everywhere: no edge trimming can play a role
    for _ in range(300):
        model, rules = _random_case(rng, 250)
        out = set(merge_spans(model, rules, text))
        for m in model:
            if not any(m.overlaps(r) for r in rules):
                assert m in out


def test_no_character_an_input_covered_is_left_uncovered_except_short_cut_remnants():
    rng = random.Random(16)
    text = "가나다라마바사아자차" * 30
    for _ in range(300):
        model, rules = _random_case(rng, 250)
        out = merge_spans(model, rules, text)
        covered = [False] * len(text)
        for s in out:
            for i in range(s.start, s.end):
                covered[i] = True
        for m in model:
            lost = [i for i in range(m.start, m.end) if not covered[i]]
            # what a cut drops is a remnant of fewer than MIN_PIECE (2) characters between blockers
            runs, prev = [], None
            for i in lost:
                if prev is None or i != prev + 1:
                    runs.append(0)
                runs[-1] += 1
                prev = i
            assert all(r < 2 for r in runs), (m, out)


def test_a_value_found_by_both_is_one_span_for_the_reviewer():
    text = "담당 김민수 010-1234-5678 연락"
    phone = at(text, "010-1234-5678", "PHONE", 0.97, "rule")
    person_over = at(text, "김민수 010-1234", "PERSON", 0.8, "model")   # the model ran into the number
    out = merge_spans([person_over], [phone], text)
    assert [(text[s.start:s.end], s.label, s.source) for s in out] == [
        ("김민수", "PERSON", "model"), ("010-1234-5678", "PHONE", "rule")]
    # each character of the number is covered by exactly one span
    assert sum(s.start <= text.index("010") < s.end for s in out) == 1


def test_overlapping_latin_person_spans_become_one_name():
    """The romanised-name rule's `LEE JAEHOON` and the model's `JAEHOON` (relabelled PERSON by refine)
    were cut into `LEE` + `JAEHOON`: one name is one span, with the higher score."""
    text = "Applicant: LEE JAEHOON, passport"
    rule = at(text, "LEE JAEHOON", "PERSON", 0.88, "rule")
    model = at(text, "JAEHOON", "PERSON", 1.0, "model")
    out = merge_spans([model], [rule], text)
    assert [(text[s.start:s.end], s.label, s.score, s.source) for s in out] == [("LEE JAEHOON", "PERSON", 1.0, "rule")]


def test_hangul_person_spans_are_not_unioned():
    text = "담당 김민수 과장"
    rule = at(text, "김민수 과장", "PERSON", 0.9, "rule")
    model = at(text, "김민수", "PERSON", 0.95, "model")
    out = merge_spans([model], [rule], text)
    # the existing cut, not a union: Hangul spans keep their own boundaries
    assert [(text[s.start:s.end], s.source) for s in out] == [("김민수", "model"), ("과장", "rule")]
