"""Hit lists for bulk actions: what a bulk decision would touch, with context, before it is applied.
No Qt.

Every bulk action in the window (accept above a score, accept/reject every occurrence, mask the
unmasked copies of masked values) first builds a list of ``Hit``s and shows it as a checkable list
(Acrobat's *Search & Redact*). Whole-word hits are checked by default; a hit *inside a word* (``검[토자]``,
``[마포구청]장``) is listed unchecked, so a bulk action never produces word fragments such as ``검**`` or
``****장`` unless the reviewer asks for it. For a copy inside a word the reviewer can mask the whole word
(``word_start``/``word_end``) instead of the fragment.

Korean words carry particles: ``김민준이``, ``서울에서`` — a value followed by a particle
(``PARTICLES``) still counts as a whole word.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..detect.span import Span
from .state import ReviewItem, ReviewState

#: particles / endings that may follow a whole word (longest first is not needed: the whole trailing run
#: of letters must be one of these)
PARTICLES = frozenset("""
이 가 은 는 을 를 의 에 와 과 도 만 로 께 님 씨 측 등 및 랑 나 야 아 요 께서 에서 에게 한테 으로 부터 까지 보다 처럼 마다
이나 이랑 이며 이고 이다 이요 입니다 이었다 였다 에는 에도 에서는 으로는 로는 과는 와는 님이 님은 님의 님께 님과 씨가 씨는
씨의 씨와 에게는 으로서 로서 으로써 로써 이라는 라는 이란 란 이라고 라고 하고 께서는 조차 밖에 뿐 마저
""".split())

CONTEXT_CHARS = 18


def _word_char(ch: str) -> bool:
    return ch.isalnum()


def _kind(ch: str) -> str:
    if ch.isdigit():
        return "digit"
    if ch.isascii() and ch.isalpha():
        return "latin"
    return "word"


def _trailing_run(text: str, end: int) -> int:
    j = end
    while j < len(text) and _word_char(text[j]) and _kind(text[j]) == "word":
        j += 1
    return j


def is_whole_word(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is a whole word: no letter/digit of the same kind glued before it, and after it
    either nothing glued or only a particle (``김민준이``). A run of digits next to letters is a boundary
    (``010-1234-5678번``)."""
    if start < 0 or end > len(text) or start >= end:
        return False
    if start > 0:
        before, first = text[start - 1], text[start]
        if _word_char(before) and (_kind(before) == _kind(first)):
            return False
    if end < len(text):
        last, after = text[end - 1], text[end]
        if _word_char(after) and _kind(after) == _kind(last):
            if _kind(after) != "word":
                return False
            j = _trailing_run(text, end)
            if text[end:j] not in PARTICLES:
                return False
    return True


def enclosing_word(text: str, start: int, end: int) -> tuple[int, int]:
    """The word around ``text[start:end]`` (letters/digits glued to it), without a trailing particle."""
    a, b = start, end
    while a > 0 and _word_char(text[a - 1]):
        a -= 1
    while b < len(text) and _word_char(text[b]):
        b += 1
    # drop a particle at the end (마포구청장은 -> 마포구청장), never below the hit itself
    for k in range(b - 1, end - 1, -1):
        if text[k:b] in PARTICLES and k >= end:
            b = k
            break
    return a, b


def context_of(text: str, start: int, end: int, width: int = CONTEXT_CHARS) -> str:
    """One line: ``…before[value]after…`` with line breaks and runs of spaces folded."""
    before = text[max(0, start - width):start]
    after = text[end:end + width]
    line = f"{'…' if start > width else ''}{before}[{text[start:end]}]{after}{'…' if end + width < len(text) else ''}"
    return " ".join(line.split())


@dataclass(frozen=True)
class Hit:
    start: int
    end: int
    label: str
    score: float
    context: str
    whole_word: bool
    word_start: int
    word_end: int
    item_id: int | None = None   # an existing review item (None: a copy that is not an item yet)
    part: str = ""               # the document part's name (header, footnote, page …), if known
    source: str = ""
    #: the ``documents.Part`` itself (its caption key lets the UI name it in its language)
    part_obj: Any = field(default=None, compare=False, repr=False)

    @property
    def default_checked(self) -> bool:
        return self.whole_word


def _part(document: Any, offset: int) -> Any:
    part_at = getattr(document, "part_at", None)
    return part_at(offset) if part_at is not None else None


def _hit(text: str, start: int, end: int, label: str, score: float, source: str, item_id: int | None,
         document: Any) -> Hit:
    ws, we = enclosing_word(text, start, end)
    part = _part(document, start)
    return Hit(start, end, label, score, context_of(text, start, end), is_whole_word(text, start, end), ws, we,
               item_id, part.name if part is not None else "", source, part)


def hits_for_items(state: ReviewState, items: Iterable[ReviewItem], document: Any = None) -> list[Hit]:
    """Hits for review items (accept above a score, every occurrence), in text order."""
    text = state.text
    return [_hit(text, it.start, it.end, it.label, it.score, it.source, it.id, document)
            for it in sorted(items, key=lambda it: (it.start, it.end))]


def hits_for_spans(state: ReviewState, spans: Iterable[Span], document: Any = None) -> list[Hit]:
    """Hits for spans that are not items yet (unmasked copies), in text order."""
    text = state.text
    out = []
    for s in sorted(spans, key=lambda s: (s.start, s.end)):
        existing = state.find(s.start, s.end, s.label)
        out.append(_hit(text, s.start, s.end, s.label, s.score, s.source,
                        existing.id if existing else None, document))
    return out


def accept_above_hits(state: ReviewState, score: float, document: Any = None) -> list[Hit]:
    items = [it for it in state.visible_items() if it.status.value == "pending" and it.score >= score]
    return hits_for_items(state, items, document)


def occurrence_hits(state: ReviewState, items: Iterable[ReviewItem], document: Any = None) -> list[Hit]:
    """Every occurrence (same label, same text) of ``items``, visible or not."""
    seen: dict[int, ReviewItem] = {}
    for it in items:
        for o in state.occurrences(it):
            seen[o.id] = o
    return hits_for_items(state, seen.values(), document)


def copy_spans(hits: Iterable[Hit], *, whole_word_for_fragments: bool = True) -> list[Span]:
    """Spans to record for checked copy hits: a copy inside a word masks the whole word (no fragments
    such as ``****장``), unless ``whole_word_for_fragments`` is off."""
    out = []
    for h in hits:
        a, b = (h.start, h.end) if h.whole_word or not whole_word_for_fragments else (h.word_start, h.word_end)
        out.append(Span(a, b, h.label, h.score, h.source or "manual"))
    return out
