"""A detector wrapper that drops suggestions inside the user's ``keep`` terms (no Qt).

``TermFilteringDetector(inner, terms)``: ``terms()`` (a ``review.terms.TermList`` or None) is read at the
start of each run; spans lying inside an occurrence of a keep term are dropped on the worker thread, before
they reach the review. Everything else is the inner detector's.
"""
from __future__ import annotations

from dataclasses import is_dataclass, replace

from .events import SpansFound


class TermFilteringDetector:
    def __init__(self, inner, terms) -> None:
        self._inner = inner
        self._terms = terms

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def stream(self, text: str, *args, **kwargs):
        terms = self._terms()
        keep = terms.keep_ranges(text) if terms and terms.keep_terms else []
        for ev in self._inner.stream(text, *args, **kwargs):
            if keep and isinstance(ev, SpansFound):
                spans = [s for s in ev.spans if not terms.is_kept(s, keep)]
                if len(spans) != len(ev.spans):
                    ev = _replace_spans(ev, spans)
            yield ev

    def detect(self, text: str, *args, **kwargs):
        terms = self._terms()
        spans = list(self._inner.detect(text, *args, **kwargs))
        if terms and terms.keep_terms:
            keep = terms.keep_ranges(text)
            spans = [s for s in spans if not terms.is_kept(s, keep)]
        return spans


def _replace_spans(ev, spans):
    if is_dataclass(ev):
        return replace(ev, spans=spans)
    ev.spans = spans
    return ev
