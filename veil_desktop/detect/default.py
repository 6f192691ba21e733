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

Spacing robustness (``spacing=True``, the default): the model reads a copy of the text in which split
syllables are joined (``rules.spacing.join_split_syllables``: ``김 민준`` -> ``김민준``, ``정 릉로`` -> ``정릉로``)
and its spans are mapped back to original offsets, covering the removed spaces. The copy differs from the
text only where a lone syllable was glued to a neighbour; when nothing is joined the model reads the text
itself. (The rule stage joins on its own for addresses.)

Hence the union of a full stream == ``detect(text)`` == ``merge_spans(model_spans(text),
rules.detect(text), text)`` (given the Detector contract: model spans never overlap each other), where
``model_spans(text)`` is ``model.detect(text)`` read through the joined copy (identical when nothing is joined).

Thread-safety: a ``CombinedDetector`` is as thread-safe as its model; the rule stage holds no state.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator, Sequence

from ..paths import default_model_dir
from .events import Cancelled, Event, Progress, SpansFound, never_cancelled
from .merge import StructuredIndex, is_structured, merge_spans, resolve_with_addresses, split_model_span
from .rules import RuleDetector, resolve_overlaps
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


class CombinedDetector:
    """Model + rule stage behind the ``Detector`` protocol (see the module docstring)."""

    def __init__(self, model, rules: RuleDetector, *, spacing: bool = True) -> None:
        self.model = model
        self.rules = rules
        self.spacing = spacing
        self.id = f"{model.id}+{rules.id}"
        self.labels: Sequence[str] = tuple(dict.fromkeys([*model.labels, *rules.labels]))

    def _model_view(self, text: str) -> JoinedText:
        return join_split_syllables(text) if self.spacing else JoinedText(text, text)

    def model_spans(self, text: str) -> list[Span]:
        """The model's spans over ``text`` (read through the joined copy when ``spacing``)."""
        jt = self._model_view(text)
        return [jt.span_to_original(s) for s in self.model.detect(jt.joined)]

    def detect(self, text: str) -> list[Span]:
        return merge_spans(self.model_spans(text), self.rules.detect(text), text)

    def stream(self, text: str, *, cancelled: Cancelled = never_cancelled,
               first: tuple[int, int] | None = None) -> Iterator[Event]:
        rule_spans = resolve_overlaps(self.rules.detect(text))
        structured = StructuredIndex(s for s in rule_spans if is_structured(s))
        addresses = [s for s in rule_spans if not is_structured(s)]
        address_index = StructuredIndex(addresses)
        if cancelled():
            return
        if structured.spans:
            yield SpansFound(tuple(structured.spans))
        held: list[Span] = []
        jt = self._model_view(text)
        if first is not None and jt.changed:
            first = (jt.to_joined(first[0]), jt.to_joined(first[1]))
        for ev in self.model.stream(jt.joined, cancelled=cancelled, first=first):
            if cancelled():
                return
            if isinstance(ev, Progress):
                yield ev
                continue
            ready: list[Span] = []
            for m in ev.spans:
                for piece in split_model_span(jt.span_to_original(m), structured, text):
                    (held if address_index.overlapping(piece.start, piece.end) else ready).append(piece)
            if ready:
                yield SpansFound(tuple(sort_spans(ready)))
        if cancelled():
            return
        rest = resolve_with_addresses(held, addresses, text)
        if rest:
            yield SpansFound(tuple(rest))


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
    :param spacing: let the model read a copy with split syllables joined (see the module docstring).
    :param kw: passed to ``ModelDetector`` (``skip_ids``, ``normalize``, ``batch_size`` …).
    :raises ModelFolderError: no folder there (message says how to get a model), or an invalid folder.
    """
    from .model_folder import ModelFolderError

    folder = Path(model_dir) if model_dir is not None else default_model_dir()
    if not folder.is_dir():
        raise ModelFolderError(missing_model_message(folder, embedded=model_dir is None))
    from .engine import ModelDetector

    model = ModelDetector(folder, threads=threads, o_bias=o_bias, onnx_file=onnx_file, **kw)
    if not rules:
        return model
    return CombinedDetector(model, RuleDetector(rule_labels, spacing=spacing), spacing=spacing)
