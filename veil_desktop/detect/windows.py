"""Own fixed-size windows over one encoding (PIPELINE.md "Windowing").

The whole text is encoded once, without truncation; the content tokens are sliced into windows of
``content`` tokens (126, plus ``[CLS]``/``[SEP]`` = 128) that start every ``step`` tokens (110), so
consecutive windows overlap by 16. In each overlap the left window decides the first half (8 tokens) and
the right window the second half, so **every token is decided by exactly one window**:
``keep_start``/``keep_end`` of consecutive windows tile ``[0, n_tokens)`` without gap or overlap.

We do not use the tokenizer's own overflow/stride feature: tokenizers 0.23.x returns incomplete overflow
windows (huggingface/tokenizers#2091).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CONTENT_TOKENS = 126
STEP = 110


@dataclass(frozen=True, slots=True)
class Window:
    """Content tokens ``[start, end)`` are fed; tokens ``[keep_start, keep_end)`` are decided here."""

    index: int
    start: int
    end: int
    keep_start: int
    keep_end: int

    @property
    def length(self) -> int:
        return self.end - self.start


def plan_windows(n_tokens: int, *, content: int = CONTENT_TOKENS, step: int = STEP) -> list[Window]:
    """Windows covering ``n_tokens`` content tokens; empty for 0 tokens."""
    if content <= 0 or not 0 < step <= content:
        raise ValueError(f"bad window geometry content={content} step={step}")
    if n_tokens <= 0:
        return []
    overlap = content - step
    left_keeps = overlap - overlap // 2  # 8 of 16: the left window decides the first half of the overlap
    if n_tokens <= content:
        return [Window(0, 0, n_tokens, 0, n_tokens)]
    count = -(-(n_tokens - content) // step) + 1  # ceil: the last window reaches the end
    out = []
    for i in range(count):
        start = i * step
        end = min(n_tokens, start + content)
        keep_start = 0 if i == 0 else start + left_keeps
        keep_end = n_tokens if i == count - 1 else start + step + left_keeps
        out.append(Window(i, start, end, keep_start, keep_end))
    return out


def windows_order(windows: list[Window], token_starts: np.ndarray, token_ends: np.ndarray,
                  first: tuple[int, int] | None) -> list[Window]:
    """``windows`` reordered so those deciding any token inside the character range ``first`` come first
    (in document order), then the rest in document order."""
    if not first or not windows:
        return list(windows)
    a, b = first
    if b <= a:
        return list(windows)
    # tokens overlapping [a, b): ends > a and starts < b
    lo = int(np.searchsorted(token_ends, a, side="right"))
    hi = int(np.searchsorted(token_starts, b, side="left"))
    if hi <= lo:
        return list(windows)
    front = [w for w in windows if w.keep_start < hi and lo < w.keep_end]
    chosen = {w.index for w in front}
    return front + [w for w in windows if w.index not in chosen]


def build_batch(ids: np.ndarray, windows: list[Window], *, cls_id: int, sep_id: int, pad_id: int,
                input_names: tuple[str, ...], input_dtypes: tuple) -> dict[str, np.ndarray]:
    """The feed for one batch: ``[CLS] tokens [SEP]`` rows padded to the longest window in the batch only.

    Only the inputs the graph declares are built (``attention_mask`` 1 on real positions incl. the
    special tokens, ``token_type_ids`` all 0).
    """
    seq = max(w.length for w in windows) + 2
    batch = np.full((len(windows), seq), pad_id, dtype=np.int64)
    mask = np.zeros((len(windows), seq), dtype=np.int64)
    for r, w in enumerate(windows):
        n = w.length
        batch[r, 0] = cls_id
        batch[r, 1:n + 1] = ids[w.start:w.end]
        batch[r, n + 1] = sep_id
        mask[r, :n + 2] = 1
    feed = {}
    for name, dt in zip(input_names, input_dtypes):
        if name == "input_ids":
            arr = batch
        elif name == "attention_mask":
            arr = mask
        else:  # token_type_ids
            arr = np.zeros_like(batch)
        feed[name] = arr if arr.dtype == dt else arr.astype(dt)
    return feed
