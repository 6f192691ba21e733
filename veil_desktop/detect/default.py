"""The default detector: a model (the embedded compact model, or a user's veil folder) plus the rule stage.

``build_default_detector()`` is what the app, ``veil-redact detect`` and ``python -m veil_desktop.evaluate
--detector default`` use. ``CombinedDetector`` merges model and rule spans with ``merge.merge_spans``'s
priority, and streams faithfully:

- the rule stage runs first over the whole text (≥1 M chars/s, so milliseconds); its structured spans
  (PHONE, RRN, …) are final at once — they always win over model spans — and are yielded first;
- each model ``SpansFound`` batch is cut by those structured spans; a cut piece that overlaps no rule
  ADDRESS span can no longer change and is yielded at once;
- pieces that overlap a rule ADDRESS (and the rule ADDRESS spans themselves) may still merge with model
  spans that have not arrived yet, so they are held back and resolved when the model stream ends;
- ``Progress`` events of the model are forwarded; ``cancelled()`` is polled between events; ``first`` is
  passed to the model.

The model always reads the text as written (its detection view: NFC, invisibles dropped; identity for
ordinary text). Spacing robustness (``spacing=True``, the default) is an *extra* pass, as the masking
guidance prescribes: only where the text shows split patterns (``rules.spacing.join_split_syllables``:
``김 민준``, ``정 릉로``), a window of context around each join (``SPACING_CONTEXT`` characters each side,
cut at whitespace) is joined and tagged again; its spans that cover a joined space are mapped back and
unioned with the main pass (:func:`union_spacing`): a span overlapping no model span of the main pass is
added; of one that overlaps, only the parts the main pass left uncovered are added — the main pass's spans are
never changed (``김 민준`` is found when the main pass found nothing there; when it found only ``김`` of
``김 민 준``, ``김`` stays as it is and ``민 준`` is added, so no two syllables of the name stay readable).

The rule stage reads a detection view too (``normalize.detection_view(spaced_digits=True)``: NFC,
invisibles dropped, letter-spaced digit runs joined …), its spans mapped back to the original; where a line
was read in its bidi display order, the rules also read the stored order and both are kept.

Hence the union of a full stream == ``detect(text)`` == ``merge_spans(model_spans(text),
rule_spans(text), text)`` (given the Detector contract: model spans never overlap each other).

Thread-safety: a ``CombinedDetector`` is as thread-safe as its model; the rule stage holds no state.
"""
from __future__ import annotations

import bisect
from pathlib import Path
from typing import Iterator, Sequence

from ..paths import default_model_dir
from .events import Cancelled, Event, Progress, SpansFound, never_cancelled
from .merge import StructuredIndex, is_structured, merge_spans, resolve_with_addresses, split_model_span
from .rules import RuleDetector, resolve_overlaps
from .rules.refine import refine_model_span, refine_model_spans
from .normalize import detection_view
from .rules.spacing import JoinedText, join_split_syllables
from .span import Span, sort_spans

__all__ = ["CombinedDetector", "build_default_detector", "missing_model_message"]


def missing_model_message(folder: Path, embedded: bool) -> str:
    """The user-facing explanation when no model folder is there (a complete instruction, not a trace)."""
    if embedded:
        return (f"The embedded model is missing: there is no model folder at {folder}. "
                "Release builds ship it; in a source checkout build it with "
                "`.venv/bin/python -m training.build_compact --out resources/models/veil-compact-ko`, "
                "or point the tool at a downloaded veil model folder (config.json, tokenizer.json or vocab.txt, "
                "and an .onnx file — e.g. kakao1513/veil-pii-ko-small-3 fetched on a connected machine) "
                "with --model DIR / Settings ▸ Model folder.")
    return (f"There is no model folder at {folder}. Choose a folder that holds config.json, a tokenizer "
            "(tokenizer.json or vocab.txt) and an .onnx model — e.g. kakao1513/veil-pii-ko-small-3 downloaded on "
            "a connected machine — or omit the folder to use the embedded compact model.")


#: characters of context on each side of a join for the spacing pass
SPACING_CONTEXT = 80


def spacing_regions(jt: JoinedText, context: int = SPACING_CONTEXT) -> list[tuple[int, int]]:
    """Original ranges around the joins of ``jt``, widened to whitespace, merged when they overlap."""
    text = jt.original
    n = len(text)
    out: list[tuple[int, int]] = []
    for r in jt.removed:
        a = max(0, r - context)
        while a > 0 and not text[a - 1].isspace():
            a -= 1
        b = min(n, r + 1 + context)
        while b < n and not text[b].isspace():
            b += 1
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def spacing_remainders(extra: Span, mains: Sequence[Span], text: str | None = None) -> list[Span]:
    """The parts of a spacing-pass span that the overlapping main-pass spans ``mains`` leave uncovered, with
    the extra span's label and score (whitespace trimmed when ``text`` is given). A part with fewer than two
    letters or digits is dropped: alone it cannot make a leak (the leak rule counts two syllables of a name),
    and it would only add a one-syllable item for the reviewer.

    The main pass's spans are never changed; but where it found only part of a letter-spaced value
    (``[김] 민 준``: the surname alone) and the spacing pass found the whole (``김 민 준``), the rest is added
    so that no part of the value stays readable (the leak rule: two syllables of a name)."""
    out: list[Span] = []
    pos = extra.start
    for m in sorted(mains, key=lambda m: m.start):
        if m.start > pos:
            out.append((pos, min(m.start, extra.end)))
        pos = max(pos, m.end)
    if pos < extra.end:
        out.append((pos, extra.end))
    spans = []
    for a, b in out:
        if text is not None:
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
        if a < b and (text is None or sum(c.isalnum() for c in text[a:b]) >= 2):
            spans.append(Span(a, b, extra.label, extra.score, extra.source))
    return spans


def spacing_additions(extra: Sequence[Span], overlapping, text: str | None = None) -> list[Span]:
    """What the spacing pass adds, in order: an extra span that overlaps no main-pass span whole, one that
    does only by its :func:`spacing_remainders`; of a piece that overlaps the piece added before it, only what
    reaches beyond it. ``overlapping(span)`` returns the main-pass spans overlapping ``span``."""
    added: list[Span] = []
    for e in sort_spans(extra):
        mains = overlapping(e)
        for piece in (spacing_remainders(e, mains, text) if mains else [e]):
            if added and added[-1].end > piece.start:
                added.extend(spacing_remainders(piece, [added[-1]], text))
            else:
                added.append(piece)
    return added


def union_spacing(main: list[Span], extra: list[Span], text: str | None = None) -> list[Span]:
    """The union of the main pass's model spans and the spacing pass's: an extra span is added where it
    overlaps no main span (nor a piece added before it); where it overlaps main spans, only the parts they
    leave uncovered are added (:func:`spacing_remainders`). The main pass's spans are never changed (see the
    module docstring)."""
    if not extra:
        return main
    out = sort_spans(main)
    starts = [m.start for m in out]

    def overlapping(e: Span) -> list[Span]:
        i = bisect.bisect_left(starts, e.end)  # main spans [0, i) start before e ends; their ends ascend
        j = i
        while j > 0 and out[j - 1].end > e.start:
            j -= 1
        return out[j:i]

    return sort_spans([*out, *spacing_additions(extra, overlapping, text)])


class CombinedDetector:
    """Model + rule stage behind the ``Detector`` protocol (see the module docstring)."""

    def __init__(self, model, rules: RuleDetector, *, spacing: bool = True) -> None:
        self.model = model
        self.rules = rules
        self.spacing = spacing
        self.id = f"{model.id}+{rules.id}"
        self.labels: Sequence[str] = tuple(dict.fromkeys([*model.labels, *rules.labels]))

    def rule_spans(self, text: str) -> list[Span]:
        """The rule stage over the detection view of ``text`` (spans in original offsets)."""
        view = detection_view(text, spaced_digits=True)
        if not view.changed:
            return self.rules.detect(view.text if view.text is not text else text)
        spans = view.spans_to_original(self.rules.detect(view.text))
        if view.reordered:  # a line read in its bidi display order: the order it is stored in is read too
            stored = detection_view(text, spaced_digits=True, bidi=False)
            spans = resolve_overlaps([*spans, *stored.spans_to_original(self.rules.detect(stored.text))])
        return sort_spans(spans)

    def spacing_spans(self, text: str, cancelled: Cancelled = never_cancelled) -> list[Span]:
        """Spans of the extra pass over joined copies of the split regions, in original offsets; only
        spans that cover a joined space (elsewhere the main pass has read the same text)."""
        if not self.spacing:
            return []
        jt = join_split_syllables(text)
        if not jt.changed:
            return []
        out: list[Span] = []
        removed = jt.removed
        for a, b in spacing_regions(jt):
            if cancelled():
                return []
            sub = join_split_syllables(text[a:b])
            if not sub.changed:
                continue
            for s in self.model.detect(sub.joined):
                o = sub.span_to_original(s)
                lo = bisect.bisect_left(removed, a + o.start)
                if lo < len(removed) and removed[lo] < a + o.end:  # covers a joined space
                    out.append(o.shifted(a))
        return out

    def model_spans(self, text: str) -> list[Span]:
        """The model's spans over ``text``: the main pass unioned with the spacing pass."""
        return refine_model_spans(text, union_spacing(list(self.model.detect(text)), self.spacing_spans(text), text))

    def detect(self, text: str) -> list[Span]:
        return merge_spans(self.model_spans(text), self.rule_spans(text), text)

    def stream(self, text: str, *, cancelled: Cancelled = never_cancelled,
               first: tuple[int, int] | None = None) -> Iterator[Event]:
        rule_spans = resolve_overlaps(self.rule_spans(text))
        structured = StructuredIndex(s for s in rule_spans if is_structured(s))
        addresses = [s for s in rule_spans if not is_structured(s)]
        address_index = StructuredIndex(addresses)
        if cancelled():
            return
        if structured.spans:
            yield SpansFound(tuple(structured.spans))
        extra = self.spacing_spans(text, cancelled)
        extra_index = StructuredIndex(extra)
        if cancelled():
            return
        held: list[Span] = []      # pieces that may still merge with a rule ADDRESS
        met: dict[Span, list[Span]] = {}  # spacing-pass span -> the main-pass spans it meets

        def pieces(m: Span) -> list[Span]:
            ready = []
            for piece in split_model_span(m, structured, text):
                (held if address_index.overlapping(piece.start, piece.end) else ready).append(piece)
            return ready

        for ev in self.model.stream(text, cancelled=cancelled, first=first):
            if cancelled():
                return
            if isinstance(ev, Progress):
                yield ev
                continue
            ready: list[Span] = []
            for m in ev.spans:
                if extra:
                    for e in extra_index.overlapping(m.start, m.end):
                        met.setdefault(e, []).append(m)
                # rules/refine.py (local): relabel or demote, never drop or reshape
                ready.extend(pieces(refine_model_span(text, m)))
            if ready:
                yield SpansFound(tuple(sort_spans(ready)))
        if cancelled():
            return
        ready = []
        if extra:  # the main pass's spans are out: add what the spacing pass found beyond them
            added = spacing_additions(extra, lambda e: met.get(e, []), text)
            for m in refine_model_spans(text, added):
                ready.extend(pieces(m))
        rest = resolve_with_addresses(held, addresses, text)
        if ready or rest:
            yield SpansFound(tuple(sort_spans([*ready, *rest])))


def build_default_detector(model_dir: Path | str | None = None, threads: int | None = None, *,
                           rules: bool = True, o_bias: float = 0.0, onnx_file: str | None = None,
                           rule_labels: set[str] | None = None, spacing: bool = True, **kw):
    """The default detector.

    :param model_dir: a model folder; ``None`` = the embedded compact model (``paths.default_model_dir()``).
    :param threads: onnxruntime intra-op threads (``None`` = physical cores).
    :param rules: add the rule stage (``False`` returns the bare ``ModelDetector``).
    :param o_bias: the model's operating point (see ``ModelDetector``).
    :param onnx_file: which ONNX file of the folder to run (default: the folder's model file).
    :param rule_labels: labels the rule stage reports (``None`` = all).
    :param spacing: add the spacing pass over joined copies of split regions (see the module docstring).
    :param kw: passed to ``ModelDetector`` (``skip_ids``, ``normalize``, ``batch_size`` …).
    :raises ModelFolderError: no folder there (message says how to get a model), or an invalid folder.
    """
    from .model_folder import ModelFolderError

    folder = Path(model_dir) if model_dir is not None else default_model_dir()
    if not folder.is_dir():
        raise ModelFolderError(missing_model_message(folder, embedded=model_dir is None),
                               code="embedded_missing" if model_dir is None else "missing", folder=str(folder))
    from .engine import ModelDetector

    model = ModelDetector(folder, threads=threads, o_bias=o_bias, onnx_file=onnx_file, **kw)
    if not rules:
        return model
    return CombinedDetector(model, RuleDetector(rule_labels, spacing=spacing, entities=True), spacing=spacing)
