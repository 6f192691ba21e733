"""Masking plans: styles per label, consistency of the same value, overlap merging."""
import pytest

from veil_desktop.detect.span import Span
from veil_desktop.masking import Masker, MaskStyle, Replacement, apply_replacements, mask_text

TEXT = "홍길동은 서울특별시 강남구 테헤란로 152, 101동 1203호에 산다. 전화 010-1234-5678. 홍길동과 김민준."


def span(value: str, label: str, nth: int = 0, source="model") -> Span:
    i = -1
    for _ in range(nth + 1):
        i = TEXT.index(value, i + 1)
    return Span(i, i + len(value), label, 0.9, source)


SPANS = [span("홍길동", "PERSON"), span("서울특별시 강남구 테헤란로 152, 101동 1203호", "ADDRESS"),
         span("010-1234-5678", "PHONE", source="rule"), span("홍길동", "PERSON", 1), span("김민준", "PERSON")]


def test_tag_style():
    assert mask_text(TEXT, SPANS) == "[PERSON]은 [ADDRESS]에 산다. 전화 [PHONE]. [PERSON]과 [PERSON]."


def test_stars_keep_spaces_and_length():
    out = mask_text(TEXT, SPANS, default=MaskStyle.STARS)
    assert out.startswith("***은 ***** *** **** ****")
    assert "010" not in out and "홍" not in out and len(out) == len(TEXT)


def test_partial_styles():
    out = mask_text(TEXT, SPANS, default="partial")
    assert out.startswith("홍**은 서울특별시 강남구 **** **** **** *****에 산다.")
    assert "010-****-****" in out
    assert "5678" not in out and "1203" not in out and "101동" not in out


def test_pseudonyms_consistent_per_value_and_numbered_by_first_appearance():
    out = mask_text(TEXT, SPANS, styles={"PERSON": "pseudonym"})
    assert out.startswith("인물1은 [ADDRESS]")
    assert out.endswith("인물1과 인물2.")


def test_overlapping_spans_are_merged_to_their_union():
    a = TEXT.index("서울특별시")
    spans = [Span(a, a + 9, "ADDRESS"), Span(a + 6, a + 14, "ORGANIZATION")]
    plan = Masker().plan(TEXT, spans)
    assert plan == [Replacement(a, a + 14, "[ADDRESS]", "ADDRESS")]


def test_rrn_partial_keeps_birth_date_only():
    m = Masker(default="partial")
    assert m.mask_value("880412-1234567", "RRN") == "880412-*******"
    assert m.mask_value("minjun.kim@example.com", "EMAIL") == "mi********@example.com"


def test_apply_rejects_overlaps_and_bad_styles():
    with pytest.raises(ValueError):
        apply_replacements("abcdef", [Replacement(0, 3, "x", "P"), Replacement(2, 4, "y", "P")])
    with pytest.raises(ValueError, match="unknown masking style"):
        Masker(default="blur")
    with pytest.raises(ValueError):
        Masker().plan("abc", [Span(0, 5, "PERSON")])


def test_korean_tags_in_korean_documents_english_as_option():
    from veil_desktop.masking import tag_language

    assert tag_language(TEXT) == "ko" and tag_language("John lives in Seoul") == "en"
    assert mask_text(TEXT, SPANS, lang="ko") == "[인명]은 [주소]에 산다. 전화 [전화번호]. [인명]과 [인명]."
    assert Masker(lang="ko").mask_value("900101-1234567", "RRN") == "[주민등록번호]"
    assert Masker(lang="en").mask_value("900101-1234567", "RRN") == "[RRN]"
    assert Masker(lang="ko").mask_value("x", "NEW_LABEL") == "[NEW_LABEL]"   # unknown label: its id
    with pytest.raises(ValueError):
        Masker(lang="fr")


def test_styles_offered_per_label_make_sense():
    from veil_desktop.masking import styles_for_label

    assert MaskStyle.PARTIAL in styles_for_label("PERSON")
    assert MaskStyle.PARTIAL in styles_for_label("RRN")          # keeps the birth date, not a "surname"
    # partial would equal stars for these: not offered
    for label in ("ORGANIZATION", "CARD", "ACCOUNT", "SOME_NEW_LABEL"):
        assert styles_for_label(label) == (MaskStyle.TAG, MaskStyle.STARS, MaskStyle.PSEUDONYM)


def test_style_examples_are_computed_per_label():
    from veil_desktop.masking import style_example

    assert style_example("RRN", "tag", "ko") == "[주민등록번호]"
    assert style_example("RRN", "partial") == "900101-*******"
    assert style_example("PHONE", "partial") == "010-****-****"
    assert style_example("PERSON", "partial") == "김**"
    assert style_example("ADDRESS", "partial", "ko") == "서울특별시 강남구 **** ***"
    assert style_example("PERSON", "pseudonym") == "인물1"
    assert style_example("NEW_LABEL", "stars") == "*******"
