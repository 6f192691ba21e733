"""Masking: turn accepted spans into replacement strings, per-label style. No Qt, no file formats.

Invariants:
- the same (label, value) is masked the same way everywhere in one plan (combining differently-masked
  copies could reveal the original); pseudonyms are numbered in order of first appearance;
- overlapping spans are merged into one replacement covering their union (the longest span's label wins),
  so nothing between two overlapping spans survives;
- a plan is a sorted list of non-overlapping ``Replacement``s over the original text; every document
  writer applies the same plan, so TXT, DOCX, HWPX and PDF exports agree;
- a style that keeps part of a value (PARTIAL) keeps it only where the characters are shown in the order
  they are stored in and are the plain characters its rule reads (issue 26): a value on a line whose
  display order may differ from its stored order (``detect.layout.reordered_lines``: a bidi control, a
  direction tag, a right-to-left character) or written in characters a detection view had to translate
  (Hanja or super/subscript digits, compatibility jamo, markup, invisible or combining characters, a value
  over a line break: ``_plain``) is masked whole, every character replaced. On such a line the direction
  marks inside a replacement are not masked: a pair opened and closed inside it is dropped, the others are
  kept beside the mask (closing ones before it, opening ones after it), so the rest of the line is shown
  exactly as before and the mask, one glyph throughout, has no order a reader could undo. A value masked
  whole on such a line and kept in part elsewhere shows no more than the partial copy does.
"""
from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Mapping

from .detect import layout
from .detect.span import Span
from .labels import info


class MaskStyle(str, Enum):
    TAG = "tag"              # [PERSON]
    STARS = "stars"          # every non-space character -> glyph
    PARTIAL = "partial"      # keep surname (김**), RRN birth date, region of an address, ...
    PSEUDONYM = "pseudonym"  # 인물1, 인물2 ... consistent per value

    @classmethod
    def parse(cls, value: "str | MaskStyle") -> "MaskStyle":
        try:
            return cls(value)
        except ValueError:
            raise ValueError(f"unknown masking style {value!r}; choose one of "
                             + ", ".join(s.value for s in cls)) from None


@dataclass(frozen=True, slots=True)
class Replacement:
    """Replace ``text[start:end]`` (half-open, original offsets) with ``text``."""

    start: int
    end: int
    text: str
    label: str


DEFAULT_STYLES: dict[str, MaskStyle] = {}

#: THE default masking style of every label, for the window (settings, export dialog, export all) and the
#: batch CLI (``veil-redact redact`` without ``--style``) alike
DEFAULT_MASK_STYLE = MaskStyle.TAG

#: tag languages: ``[주민등록번호]`` (Korean display name) or ``[RRN]`` (the label id)
TAG_LANGUAGES = ("ko", "en")

#: what a caller may ask for: ``"auto"`` (the default: follow the document, see ``resolve_tag_language``)
#: or one of ``TAG_LANGUAGES``
TAG_LANGUAGE_CHOICES = ("auto",) + TAG_LANGUAGES

#: labels whose PARTIAL style keeps something meaningful (surname, birth date, region, prefix, e-mail
#: domain); for every other label PARTIAL would just equal STARS, so it is not offered
_PARTIAL_LABELS = frozenset({"PERSON", "ADDRESS", "PHONE", "RRN", "FOREIGNER_RN", "EMAIL"})

#: example values for the style drop-downs (made up; the example shown is computed from them by the real
#: ``Masker``, so it can never disagree with what the export does)
EXAMPLE_VALUES: dict[str, str] = {
    "PERSON": "김민준",
    "ADDRESS": "서울특별시 강남구 테헤란로 123",
    "ORGANIZATION": "한빛상사",
    "PHONE": "010-1234-5678",
    "RRN": "900101-1234567",
    "FOREIGNER_RN": "900101-5234567",
    "EMAIL": "minjun@example.com",
    "CARD": "1234-5678-9012-3456",
    "ACCOUNT": "110-234-567890",
    "BUSINESS_REG": "123-45-67890",
    "CORP_REG": "110111-1234567",
    "PASSPORT": "M12345678",
    "DRIVER_LICENSE": "11-12-345678-90",
    "VEHICLE": "12가 3456",
    "IP": "192.168.0.1",
    "POSTAL_CODE": "06236",
}
_GENERIC_EXAMPLE = "AB-1234"

_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")


def tag_language(text: str) -> str:
    """``"ko"`` for a text with Hangul in it (Korean tags by default in Korean documents), else ``"en"``."""
    return "ko" if _HANGUL.search(text) else "en"


def resolve_tag_language(text: str, choice: str | None = None) -> str:
    """The language of the tags in an export of ``text``: ``choice`` when it is ``"ko"`` or ``"en"``;
    for ``None`` / ``"auto"`` the document's own (``tag_language``: Korean tags in a document with Hangul).

    The single place the default tag language is decided — the window's export dialog, export all, the
    export summary and ``veil-redact redact`` all ask here, so the same document with the same decisions
    is masked identically by both."""
    if choice is None or choice == "auto":
        return tag_language(text)
    if choice not in TAG_LANGUAGES:
        raise ValueError(f"unknown tag language {choice!r}; choose one of {', '.join(TAG_LANGUAGE_CHOICES)}")
    return choice


def export_masker(text: str, styles: Mapping[str, "MaskStyle | str"] | None = None,
                  default: "MaskStyle | str | None" = None, tag_lang: str | None = None) -> "Masker":
    """A fresh ``Masker`` for one export of ``text`` with the product defaults filled in: ``default``
    ``None`` -> ``DEFAULT_MASK_STYLE``, ``tag_lang`` ``None``/``"auto"`` -> ``resolve_tag_language(text)``.
    Used by ``review.export.build_plan`` (the window's planner) and by the batch CLI."""
    return Masker(styles, DEFAULT_MASK_STYLE if default is None else default,
                  lang=resolve_tag_language(text, tag_lang))


def styles_for_label(label: str) -> tuple["MaskStyle", ...]:
    """The styles that make sense for ``label``, in the order a drop-down offers them.

    PARTIAL only where it keeps something a reader may need and the rest hides the value (see
    ``Masker._partial``); an unknown label (a model folder may bring its own) gets the generic set."""
    if label in _PARTIAL_LABELS:
        return (MaskStyle.TAG, MaskStyle.STARS, MaskStyle.PARTIAL, MaskStyle.PSEUDONYM)
    return (MaskStyle.TAG, MaskStyle.STARS, MaskStyle.PSEUDONYM)


def tag_text(label: str, lang: str = "en") -> str:
    return f"[{info(label).ko}]" if lang == "ko" else f"[{label}]"


def example_value(label: str) -> str:
    return EXAMPLE_VALUES.get(label, _GENERIC_EXAMPLE)


def style_example(label: str, style: "MaskStyle | str", lang: str = "en") -> str:
    """What ``style`` makes of an example ``label`` value, e.g. ``900101-*******`` for an RRN."""
    return Masker({label: style}, lang=lang).mask_value(example_value(label), label)


_ADDRESS_KEEP = re.compile(r"(특별시|광역시|특별자치시|특별자치도|도|시|군|구)$")
_DIGIT = re.compile(r"\d")


def _stars(value: str, glyph: str) -> str:
    return "".join(ch if ch.isspace() else glyph for ch in value)


def _normalise_key(value: str) -> str:
    return re.sub(r"[\s\-.]", "", value)


# -- what PARTIAL may keep part of --------------------------------------------------------------------
#: characters no value is written with as a reader reads it: controls (a tab or line break inside a value:
#: a number broken over lines), format characters (zero-width, bidi, soft hyphen), combining and enclosing
#: marks (keycaps), private-use, unassigned, line/paragraph separators
_NOT_PLAIN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zl", "Zp"})
_NUMBER_SEPARATORS = frozenset(" -.()+\u2010\u2011\u2012\u2013\u2014\u2212\uff0d\uff0e\uff08\uff09\uff0b")
_NAME_PUNCTUATION = frozenset(" ·.-'\u00b7\u30fb")


def _plain_digit(ch: str) -> bool:
    """A decimal digit shown left to right (ASCII, full-width, mathematical): what ``_partial`` counts."""
    return ch.isdecimal() and unicodedata.bidirectional(ch) == "EN"


def _plain(value: str, label: str) -> bool:
    """Whether ``value`` is written in the characters ``Masker._partial``'s rule for ``label`` reads, one
    character for each character a reader sees. A value a detection view had to translate (Hanja numerals
    ``〇一〇``, superscript or circled digits, digits spelt as letters ``O1O-l234``, compatibility jamo
    ``ㅎㅗㅇ``, decomposed Hangul, markup, character references, an invisible or combining character, a line
    break) is not: the rule would keep what it does not recognise as the part to hide."""
    for ch in value:
        cat = unicodedata.category(ch)
        if cat in _NOT_PLAIN_CATEGORIES:
            return False
        if cat == "Zs":
            continue
        if label in ("PHONE", "RRN", "FOREIGNER_RN"):
            if not (_plain_digit(ch) or ch in _NUMBER_SEPARATORS):
                return False
        elif label == "PERSON":
            o = ord(ch)
            if not (0xAC00 <= o <= 0xD7A3 or 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF
                    or (ch.isascii() and ch.isalpha()) or ch in _NAME_PUNCTUATION):
                return False
        elif label == "EMAIL":
            if not (ch.isascii() and ch.isprintable()):
                return False
        elif cat.startswith("N") and not _plain_digit(ch):   # Hanja/superscript digits in an address
            return False
    return True


_EMBED_OPENERS = "\u202a\u202b\u202d\u202e"
_ISOLATE_OPENERS = "\u2066\u2067\u2068"
_PDF, _PDI = "\u202c", "\u2069"


def _direction_pieces(marks: list[tuple[str, str]]) -> tuple[str, str]:
    """The direction marks of a replacement (``(original text, control)`` in stored order) that must stay:
    ``(before the mask, after the mask)``. A closing mark right after the opening one it closes (once the
    value between them is gone) is dropped with it — the pair held only the value; every other mark is kept
    in order, so the line around the replacement keeps its embeddings and isolates."""
    stack: list[tuple[str, str]] = []
    for raw, c in marks:
        if stack and ((c == _PDF and stack[-1][1] in _EMBED_OPENERS)
                      or (c == _PDI and stack[-1][1] in _ISOLATE_OPENERS)):
            stack.pop()
        else:
            stack.append((raw, c))
    k = max((i + 1 for i, (_, c) in enumerate(stack) if c not in _EMBED_OPENERS + _ISOLATE_OPENERS), default=0)
    return "".join(r for r, _ in stack[:k]), "".join(r for r, _ in stack[k:])


class Masker:
    """Builds masking plans. One ``Masker`` per export keeps pseudonyms consistent within it."""

    def __init__(self, styles: Mapping[str, "MaskStyle | str"] | None = None,
                 default: "MaskStyle | str" = MaskStyle.TAG, glyph: str = "*", lang: str = "en") -> None:
        self.styles = {k: MaskStyle.parse(v) for k, v in (styles or {}).items()}
        self.default = MaskStyle.parse(default)
        if len(glyph) != 1:
            raise ValueError("mask glyph must be one character")
        if lang not in TAG_LANGUAGES:
            raise ValueError(f"unknown tag language {lang!r}; choose one of {', '.join(TAG_LANGUAGES)}")
        self.glyph = glyph
        self.lang = lang  # language of TAG replacements: "ko" -> [인명], "en" -> [PERSON]
        self._pseudonyms: dict[tuple[str, str], str] = {}
        self._counters: dict[str, int] = {}

    def style_for(self, label: str) -> MaskStyle:
        return self.styles.get(label, self.default)

    # -- one value -------------------------------------------------------------------------
    def mask_value(self, value: str, label: str) -> str:
        style = self.style_for(label)
        if style is MaskStyle.TAG:
            return tag_text(label, self.lang)
        if style is MaskStyle.STARS:
            return _stars(value, self.glyph)
        if style is MaskStyle.PSEUDONYM:
            key = (label, _normalise_key(value))
            if key not in self._pseudonyms:
                n = self._counters.get(label, 0) + 1
                self._counters[label] = n
                self._pseudonyms[key] = f"{info(label).pseudonym}{n}"
            return self._pseudonyms[key]
        return self._partial(value, label)

    def _partial(self, value: str, label: str) -> str:
        g = self.glyph
        if not _plain(value, label):
            return _stars(value, g)   # a translated spelling: the rule below cannot tell what to keep
        if label == "PERSON":
            core = value.strip()
            if len(core) <= 1:
                return g * len(value)
            # keep the surname syllable, mask the rest (김민준 -> 김**); spaces kept as spaces
            return value[0] + _stars(value[1:], g)
        if label in ("RRN", "FOREIGNER_RN"):
            # keep the birth date: 711231-*******
            digits = [i for i, ch in enumerate(value) if ch.isdigit()]
            keep = set(digits[:6]) if len(digits) >= 13 else set()  # a piece (split CSV cells): mask it all
            return "".join(ch if (i in keep or not ch.isdigit()) else g for i, ch in enumerate(value))
        if label == "EMAIL" and "@" in value:
            local, _, domain = value.partition("@")
            return local[:2] + g * max(0, len(local) - 2) + "@" + domain
        if label == "PHONE":
            # keep the first three digits (carrier/area prefix); 010-****-****; a piece of a number split
            # over cells (fewer than 9 digits: rules/tabular.py) is masked whole
            seen = 0 if sum(ch.isdigit() for ch in value) >= 9 else 3
            out = []
            for ch in value:
                if ch.isdigit():
                    seen += 1
                    out.append(ch if seen <= 3 else g)
                else:
                    out.append(ch)
            return "".join(out)
        if label == "ADDRESS":
            # keep leading region words down to 시/군/구, mask everything after
            words = re.split(r"(\s+)", value)
            out, keeping = [], True
            for w in words:
                if w.isspace() or not w:
                    out.append(w)
                    continue
                if keeping and _ADDRESS_KEEP.search(w) and not _DIGIT.search(w):
                    out.append(w)
                else:
                    keeping = False
                    out.append(_stars(w, g))
            return "".join(out)
        # other labels: digits and letters masked, separators kept
        return "".join(ch if (not ch.isalnum()) else g for ch in value)

    # -- a whole text ------------------------------------------------------------------------
    def plan(self, text: str, spans: Iterable[Span]) -> list[Replacement]:
        merged: list[tuple[int, int, Span]] = []
        for s in sorted(spans, key=lambda s: (s.start, -s.end)):
            if s.end > len(text):
                raise ValueError(f"span {s.start}..{s.end} outside text of length {len(text)}")
            if merged and s.start < merged[-1][1]:
                a, b, best = merged[-1]
                if (s.end - s.start) > (best.end - best.start):
                    best = s
                merged[-1] = (a, max(b, s.end), best)
            else:
                merged.append((s.start, s.end, s))
        if not merged:
            return []
        marks = layout.direction_marks(text)
        zones = layout.reordered_lines(text, marks)
        zone_starts = [z[0] for z in zones]
        mark_starts = [m[0] for m in marks]
        out = []
        for a, b, best in merged:
            z = bisect.bisect_right(zone_starts, b - 1) - 1
            if z >= 0 and zones[z][1] > a - 1 and zones[z][0] < b:   # on (or ending at) a reordered line
                out.append(Replacement(a, b, self._mask_reordered(text, a, b, best.label, marks, mark_starts),
                                       best.label))
            else:
                out.append(Replacement(a, b, self.mask_value(text[a:b], best.label), best.label))
        return out

    def _mask_reordered(self, text: str, a: int, b: int, label: str, marks: list[tuple[int, int, str]],
                        mark_starts: list[int]) -> str:
        """``text[a:b]`` on a line shown in another order than stored: masked whole (PARTIAL as STARS), its
        direction marks kept or dropped by ``_direction_pieces`` (see the module docstring)."""
        inside: list[tuple[int, int, str]] = []
        for k in range(bisect.bisect_left(mark_starts, a), len(marks)):
            s, e, c = marks[k]
            if s >= b:
                break
            if e <= b and (not inside or s >= inside[-1][1]):
                inside.append((s, e, c))
        value, pos = [], a
        for s, e, _ in inside:
            value.append(text[pos:s])
            pos = e
        value.append(text[pos:b])
        core = "".join(value)
        before, after = _direction_pieces([(text[s:e], c) for s, e, c in inside])
        style = self.style_for(label)
        if style in (MaskStyle.PARTIAL, MaskStyle.STARS) or not core.strip():
            mask = _stars(core, self.glyph)
        else:
            mask = self.mask_value(core, label)
        return before + mask + after


def apply_replacements(text: str, plan: Iterable[Replacement]) -> str:
    out, pos = [], 0
    for r in sorted(plan, key=lambda r: r.start):
        if r.start < pos:
            raise ValueError("overlapping replacements")
        out.append(text[pos:r.start])
        out.append(r.text)
        pos = r.end
    out.append(text[pos:])
    return "".join(out)


def mask_text(text: str, spans: Iterable[Span], styles: Mapping[str, "MaskStyle | str"] | None = None,
              default: "MaskStyle | str" = MaskStyle.TAG, lang: str = "en") -> str:
    """Convenience: mask ``spans`` in ``text`` with a fresh ``Masker``."""
    return apply_replacements(text, Masker(styles, default, lang=lang).plan(text, spans))
