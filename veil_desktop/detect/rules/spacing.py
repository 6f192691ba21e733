"""Spacing-split robustness: detect on a copy in which split syllables are joined, map spans back.

Speech-to-text transcripts and hurried typing split words: ``정 릉로 77길 12``, ``강남 구``, ``김 민준``.
``join_split_syllables(text)`` removes a single space next to a lone syllable (a one-syllable "word"): an
address suffix (구, 로, 길, 동 …) joins the word before it, any other lone syllable that is not a common
stand-alone word (이, 그, 및, 수, 것 …) joins the word after it; each fragment joins one neighbour only. A
detector runs on the joined copy; ``JoinedText.span_to_original`` maps its spans back so that the span
covers the removed spaces (``정 릉로 77길 12`` is one span in the original).

Invariants:
- ``joined`` is ``text`` with the characters at ``removed`` (ascending original offsets) deleted, nothing else;
- ``to_original(j)`` maps every joined offset to the original offset of the same character;
- when nothing is joined, ``joined is text`` and mapping is the identity (no copy is made).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from ..span import Span

# one-syllable words that stand alone in normal writing: never glue them to the next word
_STANDALONE = ("이그저제내네및또더좀잘못안곧꼭약총각전후본당위한두세몇새뭐왜다참막즉단등수것나너난넌꽤늘딱쭉확잠아어오와"
               "음예응헐씨님분측쪽건중외간상하듯뿐만데적줄바채때번개명원년월일차회은는을를의에과랑")  # + particles
# one-syllable address/unit suffixes: a lone one belongs to the word before it ("강남 구", "테헤란 로", "42 길")
_SUFFIX = "시도군구동읍면리로길가호층"
_H = "가-힣"
# Each syllable fragment joins ONE neighbour (so "서울 정 릉로" -> "서울 정릉로", not "서울정릉로"):
# - a lone suffix syllable joins the word on its left:             강남 구 -> 강남구
# - any other lone syllable (a word of its own: preceded by a space
#   or the start, not glued to a number or a bracket) joins the right: 정 릉로 -> 정릉로, 김 민준 -> 김민준
# (patterns start with a literal space so ``re`` scans fast; the lookbehinds inspect what precedes it)
_SPLIT = re.compile(
    rf" (?<=[{_H}0-9] )(?=[{_SUFFIX}](?![{_H}]))"
    rf"| (?<=[{_H}] )(?<![^ \t\n][{_H}] )(?<![{_STANDALONE}{_SUFFIX}] )(?=[{_H}])")


@dataclass(frozen=True)
class JoinedText:
    original: str
    joined: str
    removed: tuple[int, ...] = ()
    # removal i happens at joined position removed[i] - i (non-decreasing): the bisect key
    _keys: tuple[int, ...] = field(default=(), repr=False)

    @property
    def changed(self) -> bool:
        return bool(self.removed)

    def to_original(self, j: int) -> int:
        """Original offset of the character at joined offset ``j``."""
        return j + bisect.bisect_right(self._keys, j)

    def to_joined(self, i: int) -> int:
        """Joined offset of original offset ``i`` (a removed space maps to the character after it)."""
        return i - bisect.bisect_left(self.removed, i)

    def span_to_original(self, s: Span) -> Span:
        """``s`` (over ``joined``) as a span over ``original``; it covers every removed space inside it."""
        if not self.removed:
            return s
        a = self.to_original(s.start)
        b = self.to_original(s.end - 1) + 1
        return Span(a, b, s.label, s.score, s.source)


def join_split_syllables(text: str) -> JoinedText:
    removed = tuple(m.start() for m in _SPLIT.finditer(text))
    if not removed:
        return JoinedText(text, text)
    parts, prev = [], 0
    for r in removed:
        parts.append(text[prev:r])
        prev = r + 1
    parts.append(text[prev:])
    keys = tuple(r - i for i, r in enumerate(removed))
    return JoinedText(text, "".join(parts), removed, keys)
