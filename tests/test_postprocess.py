"""Post-processing steps, each on its own and in the prescribed order."""
import pytest

from veil_desktop.detect.postprocess import (Piece, has_final_consonant, merge_across_windows, merge_addresses,
                                             postprocess, resolve_overlaps, strip_particles, trim_whitespace)


def P(text, sub, label="PERSON", *, occurrence=0, score=0.9, tok=None):
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(sub, start + 1)
    n = max(1, len(sub))
    ts = tok if tok is not None else start
    return Piece(start, start + len(sub), label, score * n, n, ts, ts + n)


def texts(pieces, text):
    return [text[p.start:p.end] for p in pieces]


def test_trim_whitespace():
    text = "  김철수 \n왔다"
    p = Piece(1, 7, "PERSON", 1.0, 1, 0, 1)
    assert texts(trim_whitespace([p], text), text) == ["김철수"]
    assert trim_whitespace([Piece(0, 2, "PERSON", 1.0, 1, 0, 1)], text) == []


def test_cross_window_merge_only_at_boundaries_and_small_gaps():
    text = "서울특별시 강남구  역삼동"
    a = Piece(0, 5, "ADDRESS", 4.0, 5, 0, 5)
    b = Piece(6, 9, "ADDRESS", 2.0, 3, 5, 8)
    c = Piece(11, 14, "ADDRESS", 3.0, 3, 8, 11)
    merged = merge_across_windows([a, b, c], text, {5, 8})
    assert texts(merged, text) == ["서울특별시 강남구", "역삼동"]  # two spaces before 역삼동: not merged
    assert merged[0].n_tok == 8 and merged[0].score == pytest.approx(6.0 / 8)
    assert texts(merge_across_windows([a, b, c], text, {8}), text) == ["서울특별시", "강남구", "역삼동"]
    other = Piece(6, 9, "PERSON", 2.0, 3, 5, 8)
    assert len(merge_across_windows([a, other], text, {5})) == 2  # different labels never merge


def test_resolve_overlaps_keeps_the_higher_score():
    a = Piece(0, 5, "ADDRESS", 0.6, 1, 0, 1)
    b = Piece(3, 8, "ORGANIZATION", 0.9, 1, 1, 2)
    c = Piece(9, 12, "PERSON", 0.5, 1, 2, 3)
    assert resolve_overlaps([a, b, c]) == [b, c]
    assert resolve_overlaps([a, c]) == [a, c]


@pytest.mark.parametrize("text,entity,expected", [
    ("김철수는 왔다", "김철수는", "김철수"),          # weak particle, 3 syllables remain
    ("김철수가 왔다", "김철수가", "김철수가"),        # the reference's PERSON list has no bare 가
    ("박영식이 왔다", "박영식이", "박영식이"),        # ... nor bare 이
    ("지은 씨", "지은", "지은"),                      # 은 is part of a 2-syllable name: kept
    ("이지은 왔다", "이지은", "이지은"),              # only 2 syllables would remain: 은 stays
    ("박서준을 봤다", "박서준을", "박서준"),
])
def test_weak_particles_need_three_syllables(text, entity, expected):
    ps = strip_particles([P(text, entity)], text)
    assert texts(ps, text) == [expected]


@pytest.mark.parametrize("text,entity,expected", [
    ("김철수에게 전화", "김철수에게", "김철수"),
    ("지훈한테 줘", "지훈한테", "지훈"),
    ("박지훈이라고 합니다", "박지훈이라고", "박지훈"),
    ("김철수님 안녕", "김철수님", "김철수"),
    ("지훈씨 안녕", "지훈씨", "지훈"),
    ("김씨 안녕", "김씨", "김씨"),                    # only one syllable would remain
    ("김철수님은 왔다", "김철수님은", "김철수"),      # particle after an honorific: both go
    ("김철수님이 왔다", "김철수님이", "김철수님이"),  # bare 이 is not a PERSON particle
    ("김철수 님께", "김철수 님", "김철수"),
])
def test_strong_particles(text, entity, expected):
    assert texts(strip_particles([P(text, entity)], text), text) == [expected]


@pytest.mark.parametrize("text,entity,expected", [
    ("지훈아 밥 먹자", "지훈아", "지훈"),    # 훈 has a final consonant: 아 is vocative
    ("철수야 밥 먹자", "철수야", "철수"),    # 수 has none: 야 is vocative
    ("수아 왔니", "수아", "수아"),          # 수 has none: 아 is part of the name
    ("김수아 왔니", "김수아", "김수아"),
    ("지훈야 왔니", "지훈야", "지훈야"),    # disagrees with 받침: kept
    ("민준아", "민준아", "민준"),
])
def test_vocative_follows_the_final_consonant(text, entity, expected):
    assert texts(strip_particles([P(text, entity)], text), text) == [expected]


def test_final_consonant():
    assert has_final_consonant("훈") and has_final_consonant("준") and not has_final_consonant("수")
    assert not has_final_consonant("a")


@pytest.mark.parametrize("text,entity,label,expected", [
    ("서울시 강남구 테헤란로 79에 있다", "서울시 강남구 테헤란로 79에", "ADDRESS", "서울시 강남구 테헤란로 79"),
    ("101호에서 만나", "101호에서", "ADDRESS", "101호"),
    ("역삼동에 산다", "역삼동에", "ADDRESS", "역삼동"),
    ("서울에 산다", "서울에", "ADDRESS", "서울에"),   # no digit / counter before the particle: kept
    ("삼성전자는 크다", "삼성전자는", "ORGANIZATION", "삼성전자는"),
    ("3층에서", "3층에서", "ADDRESS", "3층"),
    ("1,000만", "1,000만", "ORGANIZATION", "1,000"),    # 만 is on the list for non-PERSON labels
    ("호는", "호는", "ORGANIZATION", "호는"),            # never cut to fewer than 2 characters
    ("일로", "일로", "ORGANIZATION", "일로"),
    ("3에", "3에", "ADDRESS", "3에"),
    ("12에", "12에", "ADDRESS", "12"),
])
def test_other_labels_strip_only_after_digits_or_counters(text, entity, label, expected):
    assert texts(strip_particles([P(text, entity, label)], text), text) == [expected]


def test_address_merge():
    text = "서울시 강남구 역삼동  101호"
    ps = [P(text, "서울시", "ADDRESS"), P(text, "강남구", "ADDRESS"), P(text, "역삼동", "ADDRESS"),
          P(text, "101호", "ADDRESS")]
    assert texts(merge_addresses(ps, text), text) == ["서울시 강남구 역삼동", "101호"]
    mixed = [P(text, "서울시", "ADDRESS"), P(text, "강남구", "ORGANIZATION")]
    assert len(merge_addresses(mixed, text)) == 2


def test_order_particles_before_address_merge():
    # step 4 runs before step 5: once 에 is stripped, the gap to 5층 is "에 ", so they stay apart
    text = "테헤란로 79에 5층"
    a = Piece(0, 8, "ADDRESS", 0.9 * 4, 4, 0, 4)
    b = Piece(9, 11, "ADDRESS", 0.8 * 2, 2, 4, 6)
    out = postprocess([a, b], text, set())
    # 79에 + space + 5층: after stripping 에 the gap is "에 " (2 chars, not whitespace): not merged
    assert texts(out, text) == ["테헤란로 79", "5층"]


def test_full_pipeline_order():
    text = " 김철수는  서울시 강남구"
    pieces = [Piece(0, 5, "PERSON", 3.6, 4, 0, 4),          # " 김철수는" -> trim -> strip 는
              Piece(7, 10, "ADDRESS", 2.7, 3, 4, 7),
              Piece(11, 14, "ADDRESS", 2.4, 3, 7, 10)]
    out = postprocess(pieces, text, {7})
    assert texts(out, text) == ["김철수", "서울시 강남구"]
    assert out[1].n_tok == 6 and out[1].score == pytest.approx(5.1 / 6)
    assert out[0].to_span().score == pytest.approx(0.9)
