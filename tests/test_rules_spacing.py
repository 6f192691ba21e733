"""Spacing robustness: the joined copy and the offset mapping back to the original text."""
import random

from veil_desktop.detect.rules.fold import fold
from veil_desktop.detect.rules.spacing import join_split_syllables
from veil_desktop.detect.span import Span


def test_split_syllables_join_one_neighbour_each():
    assert join_split_syllables("김 민준 씨").joined == "김민준 씨"
    assert join_split_syllables("서울 정 릉로 77길").joined == "서울 정릉로 77길"
    assert join_split_syllables("강남 구 테헤란 로 42 길").joined == "강남구 테헤란로 42길"


def test_standalone_words_and_particles_after_numbers_are_not_joined():
    for text in ("이 사람은 그 책을 및 수 것", "15-3에 산다", "김철수 씨가 왔다", "나는 잘 안다",
                 "김서윤(880412)은 서울특별시", "자료 는 서울 에"):  # particles never glue to the next word
        jt = join_split_syllables(text)
        assert jt.joined == text and not jt.changed and jt.joined is text


def test_mapping_back_covers_removed_spaces():
    text = "주소는 정 릉로 77길 12에 있어요"
    jt = join_split_syllables(text)
    a = jt.joined.index("정릉로")
    b = jt.joined.index("12") + 2
    s = jt.span_to_original(Span(a, b, "ADDRESS", 0.9, "rule"))
    assert text[s.start:s.end] == "정 릉로 77길 12"
    assert (s.label, s.score, s.source) == ("ADDRESS", 0.9, "rule")


def test_to_original_is_the_inverse_of_the_deletion():
    rng = random.Random(7)
    syllables = ["김", "민", "준", "정", "릉", "로", "구", "강", "남", "이", "그", "서", "울", "7", "길", ","]
    for _ in range(200):
        text = "".join(rng.choice(syllables + [" "] * 4) for _ in range(rng.randint(1, 40)))
        jt = join_split_syllables(text)
        kept = [i for i in range(len(text)) if i not in set(jt.removed)]
        assert "".join(text[i] for i in kept) == jt.joined
        assert all(text[i] == " " for i in jt.removed)
        for j, i in enumerate(kept):
            assert jt.to_original(j) == i
            assert jt.to_joined(i) == j


def test_fold_keeps_length_and_maps_full_width():
    text = "전화：０１０－１２３４－５６７８　ＩＰ １９２．１６８．０．１ – 끝"
    folded = fold(text)
    assert len(folded) == len(text)
    assert folded == "전화:010-1234-5678 IP 192.168.0.1 - 끝"
    plain = "평범한 텍스트 010-1234-5678"
    assert fold(plain) is plain

