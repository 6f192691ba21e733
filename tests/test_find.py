"""Find core (review/find.py) and the grouped mark API (ReviewState.add_manual_many): options, errors,
window seams of the incremental scanner, one undo step for "mark all"."""
from __future__ import annotations

import re

import pytest

from veil_desktop.review.find import (
    FindError, FindOptions, MatchScanner, compile_query, find_all, fold_width,
)
from veil_desktop.review.state import ReviewState, Status


def vals(text, matches):
    return [text[a:b] for a, b in matches]


def test_literal_options():
    text = "김민준, 김 민 준, 김\u200b민준, 김민\n준; Kim Minjun, KIM MINJUN, ＫＩＭ　ＭＩＮＪＵＮ, kimminjun"
    assert vals(text, find_all(text, "김 민 준")) == ["김민준", "김 민 준", "김\u200b민준", "김민\n준"]
    assert vals(text, find_all(text, "김민준", FindOptions(spacing_tolerant=False))) == ["김민준"]
    assert vals(text, find_all(text, "kim minjun")) == ["Kim Minjun", "KIM MINJUN", "ＫＩＭ　ＭＩＮＪＵＮ",
                                                         "kimminjun"]
    assert vals(text, find_all(text, "kim minjun", FindOptions(case_sensitive=True))) == ["kimminjun"]
    assert vals(text, find_all(text, "KIM MINJUN", FindOptions(width_insensitive=False,
                                                                 spacing_tolerant=False,
                                                                 case_sensitive=True))) == ["KIM MINJUN"]
    assert len(fold_width(text)) == len(text)


def test_regex_and_errors():
    text = "전화 010-1234-5678, ０１０－９８７６－５４３２ 끝"
    opts = FindOptions(regex=True)
    assert vals(text, find_all(text, r"010-\d{4}-\d{4}", opts)) == ["010-1234-5678", "０１０－９８７６－５４３２"]
    with pytest.raises(FindError, match="regular expression"):
        compile_query("(unclosed", opts)
    with pytest.raises(FindError, match="empty text"):
        compile_query("a*", opts)
    with pytest.raises(FindError):
        compile_query("   ")
    with pytest.raises(FindError, match="too long"):
        compile_query("가" * 1001)


def test_scanner_finds_matches_across_window_seams():
    unit = "가나다 김민준 라마바 "
    text = unit * 500
    pattern = compile_query("김민준")
    expected = [m.span() for m in re.finditer("김민준", text)]
    for chunk in (1, 3, 7, 64, 1000):
        sc = MatchScanner(text, pattern, chunk=chunk)
        steps = 0
        while not sc.done:
            sc.step()
            steps += 1
        assert sc.matches == expected, chunk
        assert steps >= len(text) // (chunk + 3)   # bounded work per step (a match may run past the window)
    # a spaced match that straddles a seam is found once, whole
    text2 = "x" * 10 + "김 민 준" + "y" * 10
    sc = MatchScanner(text2, pattern, chunk=11)
    sc.scan()
    assert vals(text2, sc.matches) == ["김 민 준"]
    sc = MatchScanner(text, pattern)
    sc.scan()
    assert sc.first_at_or_after(len(unit) + 1) == 1 and sc.first_at_or_after(len(text)) is None


def test_scan_with_budget_is_incremental_on_a_million_characters():
    text = ("가나다라마바사 " * 125_000)[:1_000_000] + "김민준"
    sc = MatchScanner(fold_width(text), compile_query("김민준"), chunk=4096)
    sc.scan(budget_s=0.0)          # one window per call at a zero budget
    assert not sc.done and sc.pos == 4096
    sc.scan()
    assert sc.done and sc.matches == [(1_000_000, 1_000_003)]


def test_mark_all_is_one_undo_step():
    text = "김민준과 김 민 준, 그리고 김민준."
    st = ReviewState(text)
    st.add_manual(0, 3, "PERSON")                       # an existing item: accepted, not duplicated
    matches = find_all(text, "김민준")
    cmd = st.add_manual_many(matches, "PERSON")
    assert cmd is not None
    assert sorted(st.value(it) for it in st) == ["김 민 준", "김민준", "김민준"]
    assert all(it.status is Status.ACCEPTED and it.label == "PERSON" for it in st)
    assert st.undo_text() == cmd.description
    st.undo()
    assert [st.value(it) for it in st] == ["김민준"]     # the whole mark-all went in one step
    st.redo()
    assert len(st) == 3
    assert st.add_manual_many(matches, "PERSON") is None  # nothing new: no empty undo step
