"""``ModelDetector``: run a veil-layout model folder over a text, exactly as PIPELINE.md prescribes.

Pipeline per call: (optional) detection view — full-width folding, NFC, invisible characters dropped, with
an offset map back to the original (``normalize.detection_view``; identity for ordinary text) → one
tokenizer encoding
without truncation → (optional) hide ASCII identifier-like tokens → own 126+2 windows, step 110, 8/8
overlap split → batches of ``batch_size`` windows padded only to their longest row → ``session.run`` →
log-softmax (after the O-bias) → constrained BIOES Viterbi over the whole window incl. [CLS]/[SEP] → spans (maximal B…E runs / S tokens, score =
mean probability of the chosen tags) → post-processing (trim, cross-window merge, overlaps, particles,
ADDRESS merge).

Streaming: ``stream()`` yields :class:`Progress` after every batch and :class:`SpansFound` as soon as spans
are final. A span is final once every window that could still change it is done: post-processing is local
(:mod:`.postprocess`), so a run of finished windows whose outer edges no span touches can be finalised on its
own. The union of a complete stream therefore equals ``detect(text)`` (which is implemented on top of it).

Threading contract: a ``ModelDetector`` is immutable after construction and holds no per-call state, so
``stream``/``detect`` may run on any thread, including several at once (onnxruntime's ``run`` is
thread-safe and releases the GIL, the numba Viterbi kernel is ``nogil``). Concurrent calls share the
session's intra-op thread pool. Construct it (it builds the onnxruntime session, which holds the GIL) and
call :meth:`warm_up` off the GUI thread.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Iterator, Mapping

import numpy as np

from . import viterbi as _viterbi
from .encoding import encode_text, splits_at_whitespace
from .events import Cancelled, Event, Progress, SpansFound, never_cancelled
from .model_folder import DEFAULT_ONNX_NAMES, ModelFolder, ModelFolderError, load_model_folder
from .normalize import TextView, detection_view, id_like_ranges
from .postprocess import Piece, postprocess
from .span import Span, sort_spans
from .windows import Window, build_batch, plan_windows, windows_order

__all__ = ["ModelDetector", "ModelFolderError", "Encoded", "warm_up_in_background", "preload_native_libraries"]


def preload_native_libraries() -> None:
    """Import onnxruntime and numba now. On Windows they must be loaded *before* PySide6, or their DLL
    initialisation can fail (onnxruntime#26127, #16116, #25193): the GUI entry point calls this first.
    Harmless elsewhere; a missing numba is fine (the Viterbi falls back to numpy)."""
    import onnxruntime  # noqa: F401

    try:
        import numba  # noqa: F401
    except Exception:  # noqa: BLE001
        pass

_KIND_O, _KIND_B, _KIND_I, _KIND_E, _KIND_S = 0, 1, 2, 3, 4


@dataclass(frozen=True)
class Encoded:
    """A text as the model sees it: content token ids and character offsets (hidden tokens removed)."""

    text: str  # the detection view of the text (see ``normalize.detection_view``); offsets below are into it
    ids: np.ndarray  # int64 [n]
    starts: np.ndarray  # int64 [n]
    ends: np.ndarray  # int64 [n]
    windows: list[Window]
    view: TextView | None = None  # maps view offsets back to the original text (None: identity)


class ModelDetector:
    """Detector over a model folder (``config.json`` + tokenizer + ONNX). See the module docstring.

    :param folder: the model folder (HF layout).
    :param onnx_file: ONNX file inside (or outside) the folder; default ``model.fp32.onnx``.
    :param threads: onnxruntime intra-op threads; default = physical cores.
    :param batch_size: windows per ``session.run`` (16, as in the reference pipeline).
    :param o_bias: operating point, with the reference's sign: a float is **subtracted** from the ``O``
        logit before the log-softmax (positive → fewer O tags → more entities, more recall; negative →
        fewer entities). A mapping ``{"PERSON": b, ...}`` applies ``b`` to one entity type only
        (implemented as ``+b`` on that type's B/I/E/S logits, the same shift relative to ``O``).
    :param skip_ids: hide ASCII identifier-like tokens (6+ letters/digits mixing both) from the model
        (on by default: the model card's accuracy was measured with ``skip_ids=True``).
    :param normalize: read the detection view: full-width ASCII folded one-to-one, NFC, invisible characters
        (zero-width space/joiner, soft hyphen, BOM, bidi marks) dropped, spans mapped back to the original.
    :param model: an already loaded :class:`ModelFolder` to reuse (``folder``/``onnx_file``/``threads`` are
        then ignored), e.g. to build detectors with different operating points over one session.
    """

    def __init__(self, folder: str | os.PathLike, *, onnx_file: str | os.PathLike | None = None,
                 threads: int | None = None, batch_size: int = 16, o_bias: float | Mapping[str, float] = 0.0,
                 skip_ids: bool = True, normalize: bool = True, model: ModelFolder | None = None) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self.model: ModelFolder = model or load_model_folder(folder, onnx_file=onnx_file, threads=threads)
        scheme = self.model.scheme
        self.labels: tuple[str, ...] = scheme.entity_types
        onnx_name = self.model.onnx_path.name
        #: e.g. "veil-pii-ko-small-3", or "veil-pii-ko-small-3:model.int8.onnx" for a non-default file
        self.id: str = self.model.path.name + ("" if onnx_name in DEFAULT_ONNX_NAMES else f":{onnx_name}")
        self.batch_size = int(batch_size)
        self.o_bias = o_bias
        self.skip_ids = bool(skip_ids)
        self.normalize = bool(normalize)
        self._kinds = scheme.kinds.astype(np.int8)
        self._types = scheme.types.astype(np.int16)
        self._type_names = scheme.entity_types
        self._trans, self._start, self._end = _viterbi.transitions(self._kinds, self._types)
        self._bias = self._bias_vector(o_bias)
        # whitespace-chunked encoding gives the very same tokens for this tokenizer (see .encoding)
        self._chunked = splits_at_whitespace(self.model.tokenizer)

    # ------------------------------------------------------------------------------------------ setup
    def _bias_vector(self, o_bias: float | Mapping[str, float]) -> np.ndarray | None:
        scheme = self.model.scheme
        vec = np.zeros(len(scheme.labels), dtype=np.float32)
        if isinstance(o_bias, Mapping):
            for label, b in o_bias.items():
                if label not in scheme.entity_types:
                    raise ValueError(f"o_bias names {label!r}, which this model does not emit "
                                     f"({', '.join(scheme.entity_types)})")
                vec[scheme.types == scheme.entity_types.index(label)] = float(b)
        else:
            vec[scheme.o_index] = -float(o_bias)  # the reference SUBTRACTS o_bias from the O logit
        return vec if vec.any() else None

    @property
    def threads(self) -> int:
        return self.model.threads

    def warm_up(self) -> str:
        """Compile/load the Viterbi kernel and run one short text end to end. Safe on a background thread.
        Returns the Viterbi backend in use."""
        backend = _viterbi.warm_up()
        self.detect("김철수 서울")
        return backend

    # ------------------------------------------------------------------------------------------ encode
    def encode(self, text: str) -> Encoded:
        """Normalise, tokenise the whole text (no truncation, GIL released; see :mod:`.encoding`), hide
        ID-like tokens if asked, plan windows."""
        view = detection_view(text) if self.normalize else TextView(text, text)
        norm = view.text
        ids, starts, ends = encode_text(self.model.tokenizer, norm, chunked=self._chunked)
        if self.skip_ids and len(ids):
            ranges = id_like_ranges(norm)
            if ranges:
                r = np.asarray(ranges, dtype=np.int64)
                i = np.searchsorted(r[:, 0], starts, side="right") - 1
                hidden = (i >= 0) & (ends <= r[np.maximum(i, 0), 1]) & (starts >= r[np.maximum(i, 0), 0])
                keep = ~hidden
                ids, starts, ends = ids[keep], starts[keep], ends[keep]
        return Encoded(norm, ids, starts, ends, plan_windows(len(ids)), view if view.changed else None)

    # ------------------------------------------------------------------------------------------ decode
    def _pieces(self, tags: np.ndarray, probs: np.ndarray, tok: np.ndarray, seg: np.ndarray, n_seg: int,
                enc: Encoded) -> list[list[Piece]]:
        """Spans (maximal B…E runs, S tokens) in the decided tokens of a batch's windows.

        ``tags``/``probs``/``tok`` (global token index) are the windows' decided tokens concatenated;
        ``seg`` says which window (0..n_seg-1) each belongs to. Runs never cross windows here: a run cut
        by a window's edge becomes a span ending/starting there (post-processing step 2 joins it again).
        Vectorised over the whole batch; a span's probability sum depends only on its own tokens.
        """
        out: list[list[Piece]] = [[] for _ in range(n_seg)]
        kinds = self._kinds[tags]
        types = self._types[tags]
        n = len(tags)
        cont = np.zeros(n, dtype=bool)
        if n > 1:
            cont[1:] = (((kinds[1:] == _KIND_I) | (kinds[1:] == _KIND_E))
                        & ((kinds[:-1] == _KIND_B) | (kinds[:-1] == _KIND_I))
                        & (types[1:] == types[:-1]) & (seg[1:] == seg[:-1]))
        ent = kinds != _KIND_O
        s_idx = np.flatnonzero(ent & ~cont)
        if not len(s_idx):
            return out
        cont_next = np.zeros(n, dtype=bool)
        cont_next[:-1] = cont[1:]
        e_idx = np.flatnonzero(ent & ~cont_next)
        # per-span sums with reduceat over [s, e+1): independent of where the span sits in the batch
        padded = np.append(probs.astype(np.float64), 0.0)
        bounds = np.empty(2 * len(s_idx), dtype=np.int64)
        bounds[0::2], bounds[1::2] = s_idx, e_idx + 1
        sums = np.add.reduceat(padded, bounds)[0::2].tolist()
        tok_s = tok[s_idx]
        cs = enc.starts[tok_s].tolist()
        ce = enc.ends[tok[e_idx]].tolist()
        names = self._type_names
        for a, b, t, total, c, ts, r in zip(cs, ce, types[s_idx].tolist(), sums, (e_idx - s_idx + 1).tolist(),
                                            tok_s.tolist(), seg[s_idx].tolist()):
            if b > a:  # a span of zero-width tokens marks nothing
                out[r].append(Piece(a, b, names[t], total, c, ts, ts + c))
        return out

    def _run_batch(self, enc: Encoded, batch: list[Window]) -> list[list[Piece]]:
        m = self.model
        feed = build_batch(enc.ids, batch, cls_id=m.cls_id, sep_id=m.sep_id, pad_id=m.pad_id,
                           input_names=m.input_names, input_dtypes=m.input_dtypes)
        logits = m.session.run(None, feed)[0]
        return self._decode(logits, enc, batch)

    def _decode(self, logits: np.ndarray, enc: Encoded, batch: list[Window]) -> list[list[Piece]]:
        # The reference decodes the WHOLE window sequence, [CLS] and [SEP] included: the start/end
        # constraints apply at those positions, and only then are they (empty offsets) ignored.
        lengths = np.array([w.length + 2 for w in batch], dtype=np.int64)
        emis = _viterbi.log_softmax(logits, self._bias)
        tags = _viterbi.viterbi(emis, lengths, self._trans, self._start, self._end)
        probs = np.exp(np.take_along_axis(emis, tags[:, :, None], axis=2)[:, :, 0])
        # the decided tokens of every window, concatenated: row in the batch, column in the row, token
        keep = np.array([(w.keep_end - w.keep_start, w.keep_start - w.start, w.start) for w in batch],
                        dtype=np.int64)
        rows = np.repeat(np.arange(len(batch)), keep[:, 0])
        first = np.cumsum(keep[:, 0]) - keep[:, 0]  # position of each row's first decided token
        cols = np.arange(len(rows)) - first[rows] + keep[rows, 1]
        tok = cols + keep[rows, 2]
        cols += 1  # column 0 of every row is [CLS]
        t, p = tags[rows, cols], probs[rows, cols]
        real = enc.ends[tok] > enc.starts[tok]
        if not real.all():  # positions with empty offsets are ignored when spans are read off the path
            t, p, tok, rows = t[real], p[real], tok[real], rows[real]
        return self._pieces(t, p, tok, rows, len(batch), enc)

    # ------------------------------------------------------------------------------------------ API
    def stream(self, text: str, *, cancelled: Cancelled = never_cancelled,
               first: tuple[int, int] | None = None) -> Iterator[Event]:
        """Detect progressively (see :mod:`.events` for the contract).

        Yields ``Progress(done_windows, total_windows)`` first and after every batch, and ``SpansFound``
        with spans as soon as they are final. ``first=(a, b)``: the windows deciding characters ``a..b``
        run first. ``cancelled()`` is polled before every batch; once True, the generator returns.
        """
        enc = self.encode(text)
        if first is not None and enc.view is not None:
            first = (enc.view.to_view(first[0]), enc.view.to_view(first[1]))
        yield from self._stream_encoded(enc, cancelled=cancelled, first=first)

    def _stream_encoded(self, enc: Encoded, *, cancelled: Cancelled = never_cancelled,
                        first: tuple[int, int] | None = None) -> Iterator[Event]:
        windows = enc.windows
        total = len(windows)
        yield Progress(0, total)
        if not total:
            return
        final = _Finaliser(windows, enc.text, enc.view)
        order = windows_order(windows, enc.starts, enc.ends, first)
        done = 0
        for i in range(0, total, self.batch_size):
            if cancelled():
                return
            batch = order[i:i + self.batch_size]
            pieces = self._run_batch(enc, batch)
            spans = final.add(batch, pieces)
            done += len(batch)
            if spans:
                yield SpansFound(tuple(spans))
            yield Progress(done, total)

    def detect(self, text: str) -> list[Span]:
        """All spans of ``text``, sorted by start (non-overlapping, offsets into ``text``)."""
        spans: list[Span] = []
        for ev in self.stream(text):
            if isinstance(ev, SpansFound):
                spans.extend(ev.spans)
        return sort_spans(spans)


class _Finaliser:
    """Collects per-window pieces and post-processes each run of finished windows once it is closed.

    The boundary between windows ``b`` and ``b+1`` is *safe* when a finished side has no span touching
    it: nothing can then join across it (post-processing is local), so a maximal run of finished windows
    between two safe boundaries can be post-processed alone, and its result is the same as for the whole
    text. Each window is post-processed exactly once.
    """

    def __init__(self, windows: list[Window], text: str, view: TextView | None = None) -> None:
        self.windows = windows
        self.text = text
        self.view = view
        n = len(windows)
        self.done = [False] * n
        self.emitted = [False] * n
        self.pieces: list[list[Piece]] = [[] for _ in range(n)]
        self.touch_left = [False] * n
        self.touch_right = [False] * n

    def _safe(self, b: int) -> bool:
        """Is the boundary after window ``b`` safe? (-1 and the last window's end always are.)"""
        if b < 0 or b >= len(self.windows) - 1:
            return True
        return (self.done[b] and not self.touch_right[b]) or (self.done[b + 1] and not self.touch_left[b + 1])

    def add(self, batch: list[Window], pieces: list[list[Piece]]) -> list[Span]:
        for w, ps in zip(batch, pieces):
            i = w.index
            self.done[i] = True
            self.pieces[i] = ps
            self.touch_left[i] = bool(ps) and ps[0].tok_start == w.keep_start
            self.touch_right[i] = bool(ps) and ps[-1].tok_end == w.keep_end
        candidates = sorted({j for w in batch for j in (w.index - 1, w.index, w.index + 1)
                             if 0 <= j < len(self.windows)})
        # Closed runs are independent (nothing joins across their safe edges), so all runs closed by
        # this batch are post-processed in one call: same result, far fewer calls.
        ready: list[Piece] = []
        bounds: set[int] = set()
        for c in candidates:
            if not self.done[c] or self.emitted[c]:
                continue
            run = self._closed_run(c)
            if run is None:
                continue
            lo, hi = run
            for j in range(lo, hi + 1):
                ready.extend(self.pieces[j])
                self.emitted[j] = True
                self.pieces[j] = []
            bounds.update(self.windows[j].keep_end for j in range(lo, hi))
        if not ready:
            return []
        spans = [p.to_span() for p in postprocess(ready, self.text, bounds)]
        if self.view is not None:  # back to the original text (covering dropped invisibles inside a span;
            spans = self.view.spans_to_original(spans)  # a box-table cell over several lines: per line)
        return sort_spans(spans)

    def _closed_run(self, c: int) -> tuple[int, int] | None:
        lo = c
        while not self._safe(lo - 1):
            if not self.done[lo - 1]:
                return None
            lo -= 1
        hi = c
        while not self._safe(hi):
            if not self.done[hi + 1]:
                return None
            hi += 1
        return lo, hi


def warm_up_in_background(detector: "ModelDetector | None" = None) -> threading.Thread:
    """Start a daemon thread that compiles/loads the Viterbi kernel (and runs ``detector`` once, if
    given), so the first real detection does not pay for it. Errors are swallowed: the detection path
    compiles on demand anyway and has a numpy fallback. Join the thread to wait for it."""

    def run() -> None:
        try:
            if detector is not None:
                detector.warm_up()
            else:
                _viterbi.warm_up()
        except Exception:  # noqa: BLE001 - warm-up is an optimisation only
            pass

    t = threading.Thread(target=run, name="veil-warm-up", daemon=True)
    t.start()
    return t
