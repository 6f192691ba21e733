"""The compact model's character tokenizer (``tokenizer.json``) and its per-token feature tables.

Tokenizer (built with the ``tokenizers`` library; data only, no code):
* normaliser: any whitespace run containing a line break -> one ``\\n`` token, any other whitespace run
  -> one space token, and every CJK ideograph (hanja) -> ``一`` (one shared "hanja" token). These
  replacements are alignment-tracked, so ``Encoding.offsets`` still point into the *original* text;
* pre-tokeniser: every (normalised) character is its own token; WordLevel vocabulary, unknown -> ``[UNK]``;
* special tokens ``[PAD]`` 0, ``[UNK]`` 1, ``[CLS]`` 2, ``[SEP]`` 3, ``[MASK]`` 4 (the engine frames windows
  with ``[CLS]``/``[SEP]`` and pads with ``[PAD]``).

Vocabulary: specials, space, line break, the hanja token, printable ASCII, all 11,172 Hangul syllables,
compatibility jamo, and every other character seen at least twice in the training corpora.

Feature tables (constants inside the ONNX graph, gathered by token id): Hangul syllables decompose into
initial / medial / final jamo (0 = not a syllable); a character class per token (space, line break,
syllable, jamo, digit, upper, lower, hanja, bracket open/close, other, special).
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
HANJA_TOKEN = "一"
_HANJA_RE = "[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"

# character classes
C_SPECIAL, C_SPACE, C_NL, C_SYL, C_JAMO, C_DIGIT, C_UPPER, C_LOWER, C_HANJA, C_OPEN, C_CLOSE, C_OTHER, C_UNK = range(13)
N_CLASSES = 13


def char_class(tok: str) -> int:
    if tok in ("[PAD]", "[CLS]", "[SEP]", "[MASK]"):
        return C_SPECIAL
    if tok == "[UNK]":
        return C_UNK
    if tok == " ":
        return C_SPACE
    if tok == "\n":
        return C_NL
    o = ord(tok)
    if 0xAC00 <= o <= 0xD7A3:
        return C_SYL
    if 0x3131 <= o <= 0x318E:
        return C_JAMO
    if tok.isdigit():
        return C_DIGIT
    if tok.isalpha() and tok.isupper():
        return C_UPPER
    if tok.isalpha() and tok.islower():
        return C_LOWER
    if tok == HANJA_TOKEN:
        return C_HANJA
    if tok in "([{<〈《「『【（［":
        return C_OPEN
    if tok in ")]}>〉》」』】）］":
        return C_CLOSE
    return C_OTHER


def build_vocab(texts) -> list[str]:
    counts: Counter[str] = Counter()
    for t in texts:
        counts.update(t)
    base = SPECIALS + [" ", "\n", HANJA_TOKEN]
    base += [chr(c) for c in range(0x21, 0x7F)]
    base += [chr(c) for c in range(0xAC00, 0xD7A4)]
    base += [chr(c) for c in range(0x3131, 0x318F)]
    seen = set(base)
    extra = sorted(c for c, n in counts.items() if n >= 2 and c not in seen and not c.isspace()
                   and not (0x3400 <= ord(c) <= 0x9FFF or 0xF900 <= ord(c) <= 0xFAFF))
    return base + extra


def make_tokenizer(vocab: list[str]):
    from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers
    from tokenizers import AddedToken

    tok = Tokenizer(models.WordLevel({c: i for i, c in enumerate(vocab)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.Sequence([
        normalizers.Replace(Regex(r"[^\S\n]*\n\s*"), "\n"),
        normalizers.Replace(Regex(r"[^\S\n]+"), " "),
        normalizers.Replace(Regex(_HANJA_RE), HANJA_TOKEN),
    ])
    tok.pre_tokenizer = pre_tokenizers.Split(Regex(r"[\s\S]"), "isolated")
    tok.add_special_tokens([AddedToken(s, special=True) for s in SPECIALS])
    tok.no_truncation()
    tok.no_padding()
    return tok


def feature_tables(vocab: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``jamo[vocab, 3]`` (initial 1..19, medial 1..21, final 1..28; 0 = none) and ``cls[vocab]``."""
    jamo = np.zeros((len(vocab), 3), dtype=np.int64)
    cls = np.zeros(len(vocab), dtype=np.int64)
    for i, t in enumerate(vocab):
        cls[i] = char_class(t)
        if len(t) == 1 and 0xAC00 <= ord(t) <= 0xD7A3:
            c = ord(t) - 0xAC00
            jamo[i] = (c // 588 + 1, (c % 588) // 28 + 1, c % 28 + 1)
    return jamo, cls


def save_special_tokens_map(folder: Path) -> None:
    (folder / "special_tokens_map.json").write_text(json.dumps(
        {"pad_token": "[PAD]", "unk_token": "[UNK]", "cls_token": "[CLS]", "sep_token": "[SEP]",
         "mask_token": "[MASK]"}, indent=2), encoding="utf-8")
