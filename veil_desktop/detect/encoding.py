"""One encoding of a whole text: content token ids and character offsets as numpy arrays.

The pipeline needs the encoding of the *whole* text without truncation (never the tokenizer's overflow
windows, huggingface/tokenizers#2091). For tokenizers whose pre-tokenizer splits at whitespace and whose
normaliser works character by character (BERT/ELECTRA WordPiece, the compact model's character
tokenizer), encoding the text in whitespace-delimited chunks yields exactly the same tokens and offsets
as one call; :func:`splits_at_whitespace` decides this from the tokenizer's own configuration and
``tests/test_engine.py`` checks the equality. Chunking matters for two reasons:

- ``Tokenizer.encode_batch`` releases the GIL and encodes the chunks in parallel, while ``encode`` holds
  the GIL throughout (a GUI thread would freeze for the whole tokenisation of a long document);
- converting the offsets of one huge encoding to numpy is a single long GIL-holding call; per chunk it is
  short, so the GUI thread keeps getting turns.

Other tokenizers are encoded in one ``encode_batch`` call with a single input (still GIL-free).
"""
from __future__ import annotations

import json
import re

import numpy as np

#: Characters per chunk (the split point moves forward to the next whitespace).
CHUNK_CHARS = 16_384

_SAFE_PRE = {"BertPreTokenizer", "Whitespace", "WhitespaceSplit"}
_SAFE_NORM = {"BertNormalizer", "Lowercase", "NFC", "NFD", "NFKC", "NFKD", "StripAccents", "Strip"}
_WS = re.compile(r"\s")


def _state(component) -> dict | None:
    if component is None:
        return None
    try:
        return json.loads(component.__getstate__())
    except Exception:  # noqa: BLE001 - unknown component: treat as unsafe
        return {"type": "?"}


def splits_at_whitespace(tokenizer) -> bool:
    """True when encoding whitespace-delimited chunks separately gives the same tokens as one call:
    the pre-tokenizer (or the first step of a sequence) splits at whitespace and the normaliser is
    absent or character-wise."""
    pre = _state(tokenizer.pre_tokenizer)
    if pre is None:
        return False
    if pre.get("type") == "Sequence":
        steps = pre.get("pretokenizers") or []
        if not steps:
            return False
        pre = steps[0]
    if pre.get("type") not in _SAFE_PRE:
        return False
    norm = _state(tokenizer.normalizer)
    if norm is None:
        return True
    parts = norm.get("normalizers", []) if norm.get("type") == "Sequence" else [norm]
    return all(p.get("type") in _SAFE_NORM for p in parts)


def chunk_bounds(text: str, size: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """``[(a, b), ...]`` covering ``text``; every cut is at a whitespace character."""
    bounds, a, n = [], 0, len(text)
    while n - a > size:
        m = _WS.search(text, a + size)
        if m is None:
            break
        cut = m.start()
        bounds.append((a, cut))
        a = cut
    bounds.append((a, n))
    return bounds


def _arrays(enc, shift: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ids = np.asarray(enc.ids, dtype=np.int64)
    offsets = enc.offsets
    if not offsets:
        empty = np.zeros(0, dtype=np.int64)
        return ids, empty, empty
    s, e = zip(*offsets)  # faster than numpy's conversion of a list of pairs
    starts, ends = np.array(s, dtype=np.int64), np.array(e, dtype=np.int64)
    if shift:
        starts += shift
        ends += shift
    return ids, starts, ends


def encode_text(tokenizer, text: str, *, chunked: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ids, starts, ends)`` of ``text``'s content tokens (no special tokens), offsets into ``text``."""
    bounds = chunk_bounds(text) if chunked else [(0, len(text))]
    encs = tokenizer.encode_batch([text[a:b] for a, b in bounds], add_special_tokens=False)
    parts = [_arrays(enc, a) for enc, (a, _) in zip(encs, bounds)]
    del encs
    if len(parts) == 1:
        return parts[0]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))  # type: ignore[return-value]
