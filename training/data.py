"""Training data: corpora + synthetic documents -> 128-position chunks with per-token *allowed-tag sets*.

Sources (all through ``veil_desktop.datasets`` so the held-out split is the team's, by text hash):

* **KLUE-NER** (CC BY-SA 4.0), train split only. ``PS`` -> PERSON, ``OG`` -> ORGANIZATION.
  ``LC`` -> ADDRESS **only when it looks like a postal address** (:func:`looks_like_address`: it holds
  a digit, or at least two words ending in administrative/road units such as 시/도/구/군/동/읍/면/리/로/길);
  every other ``LC`` (countries, cities, landmarks: 미국, 서울, 해운대) is ``O``. Mapping all LC to
  ADDRESS taught a trial model to tag bare place names that an address gold never marks (see
  ``../shared/docs/COMPACT_MODEL_NOTES.md``); the target model's ADDRESS is a person's address.
  ``DT``/``TI``/``QT`` -> ``O``.
* **ko-pii synthetic** (MIT, Marker Inc.), train split only. PERSON and ADDRESS gold as is; characters of
  other gold types (phones, RRNs, ...) are strictly ``O``; every other character is *unlabelled for
  ORGANIZATION* (the corpus has no such label), so the loss accepts ``O`` **or any ORGANIZATION tag** there.
* **Synthetic documents** from :mod:`training.synth` (train templates only).
* **Entity substitution**: copies of KLUE / ko-pii training documents with PERSON (and ADDRESS /
  ORGANIZATION) values replaced by gazetteer values, consistently within a document, with the following
  particle re-agreed (이/가, 은/는, ...).

Each example becomes token ids (the shipped ``tokenizer.json``) framed as ``[CLS] … [SEP]`` in chunks of at
most 126 content tokens (the engine's window), cut outside entities where possible, with a BIOES-valid
target: an entity cut by a chunk edge is re-tagged as a complete entity inside the chunk.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

import numpy as np

from veil_desktop.datasets import is_heldout, load_klue, load_ko_pii

from . import synth
from .labels import ALL_ORG_MASK, ANY_MASK, LABELS, O_MASK, tag_mask

WINDOW = 126  # content tokens per window; [CLS] and [SEP] make 128

_ADDR_UNIT = re.compile(r"(특별시|광역시|특별자치시|특별자치도|[시도구군동읍면리로길가])$")


def looks_like_address(s: str) -> bool:
    """LC -> ADDRESS decision: a postal-address-like location (digits, or ≥2 admin/road-unit words)."""
    if any(c.isdigit() for c in s):
        return any("가" <= c <= "힣" for c in s)
    words = s.split()
    return len(words) >= 2 and sum(bool(_ADDR_UNIT.search(w)) for w in words) >= 2


@dataclass
class Example:
    """A labelled text. ``spans``: (start, end, label) gold; ``soft_org``: characters outside gold spans
    may also be ORGANIZATION (corpus does not annotate it); ``strict``: (start, end) ranges that are O;
    ``soft``: ranges where any tag is accepted (see :mod:`training.pseudo`)."""

    text: str
    spans: list[tuple[int, int, str]]
    soft_org: bool = False
    strict: tuple[tuple[int, int], ...] = ()
    source: str = ""
    #: (start, end) ranges where the loss accepts O or any entity tag (pseudo labels: the teacher was unsure)
    soft: tuple[tuple[int, int], ...] = ()


def klue_examples(split: str) -> list[Example]:
    out = []
    for d in load_klue(keep_location=True):
        if d.split != split:
            continue
        spans = []
        for s in d.spans:
            if s.label == "LOCATION":
                if looks_like_address(d.text[s.start:s.end]):
                    spans.append((s.start, s.end, "ADDRESS"))
            else:
                spans.append((s.start, s.end, s.label))
        out.append(Example(d.text, _trim(d.text, spans), source="klue"))
    return out


def ko_pii_examples(split: str) -> list[Example]:
    out = []
    for d in load_ko_pii():
        if d.split != split or is_heldout(d):
            continue  # held-out domains (datasets.HELDOUT_DOMAINS) are the disjoint evaluation split
        spans = [(s.start, s.end, s.label) for s in d.spans if s.label in ("PERSON", "ADDRESS")]
        strict = tuple((s.start, s.end) for s in d.spans if s.label not in ("PERSON", "ADDRESS"))
        out.append(Example(d.text, _trim(d.text, spans), soft_org=True, strict=strict, source="ko-pii"))
    return out


def synth_examples(n: int, seed: int, heldout: bool = False) -> list[Example]:
    docs = synth.generate(n, seed, heldout=heldout)
    synth.sanity(docs)
    return [Example(d.text, list(d.spans), source="synth") for d in docs]


def _trim(text: str, spans):
    out = []
    for s, e, lab in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            out.append((s, e, lab))
    return sorted(out)


# --- entity substitution ------------------------------------------------------------------------

_PAIR_OF = {}
for _a, _b in synth._PAIRS:
    _PAIR_OF[_a] = (_a, _b)
    _PAIR_OF[_b] = (_a, _b)


def substitute(ex: Example, g: synth.Generator, p_person=0.9, p_other=0.5, news: bool = False) -> Example:
    """A copy of ``ex`` with entity values replaced by generated ones (same value -> same replacement).

    ``news``: draw news-style values (:meth:`synth.Generator.news_person` / ``news_org``: transliterated and
    given-only names, abbreviations, teams). A one-syllable PERSON (the
    surname in ``장 회장``, ``김모(32)씨``) is replaced by another surname. ``strict`` and ``soft`` ranges
    outside the replaced spans move with the text."""
    r = g.r
    person = g.news_person if news else g.person
    org = g.news_org if news else g.org
    memo: dict[tuple[str, str], str] = {}
    parts, spans = [], []
    shifts: list[tuple[int, int]] = []  # (original offset from which it applies, cumulative delta)
    pos = n = 0
    for s, e, lab in sorted(ex.spans):
        parts.append(ex.text[pos:s])
        n += s - pos
        old = ex.text[s:e]
        p = p_person if lab == "PERSON" else p_other
        key = (lab, old)
        if key not in memo:
            if r.random() < p:
                if lab == "PERSON" and len(old) == 1 and "가" <= old <= "힣":
                    memo[key] = r.choices(g._surnames, g._sweights)[0]
                else:
                    memo[key] = {"PERSON": person, "ADDRESS": g.address, "ORGANIZATION": org}[lab]()
            else:
                memo[key] = old
        new = memo[key]
        parts.append(new)
        spans.append((n, n + len(new), lab))
        n += len(new)
        pos = e
        # re-agree a following one-syllable particle (이/가, 은/는, ...) with the new final syllable
        if new != old and lab == "PERSON" and e < len(ex.text) and ex.text[e] in _PAIR_OF:
            after = ex.text[e + 1:e + 2]
            if not ("가" <= after <= "힣"):
                want = synth.particle_for(new, _PAIR_OF[ex.text[e]])
                parts.append(want)
                n += len(want)
                pos = e + 1
        shifts.append((pos, n - pos))
    parts.append(ex.text[pos:])
    text = "".join(parts)

    def moved(ranges):
        out = []
        for a, b in ranges:
            if any(a < e and s < b for s, e, _ in ex.spans):
                continue  # inside a replaced value: its text is gone
            delta = 0
            for at, d in shifts:
                if a >= at:
                    delta = d
            out.append((a + delta, b + delta))
        return tuple(out)

    return Example(text, spans, ex.soft_org, moved(ex.strict), ex.source + "+sub", moved(ex.soft))


# --- chunking + targets -------------------------------------------------------------------------


def char_masks(ex: Example) -> np.ndarray:
    """Per-character allowed-tag bitmask (13 bits) for a whole example."""
    n = len(ex.text)
    base = (O_MASK | ALL_ORG_MASK) if ex.soft_org else O_MASK
    m = np.full(n, base, dtype=np.int32)
    for s, e in ex.strict:
        m[s:e] = O_MASK
    for s, e in ex.soft:
        m[s:e] = ANY_MASK
    return m  # entity tokens get their exact BIOES tag per chunk (example_chunks)


@dataclass
class Chunk:
    ids: np.ndarray     # int64 [L] incl. [CLS]/[SEP]
    allowed: np.ndarray  # int32 [L] bitmask over the 13 labels
    source: str


def tokenize(tok, text: str):
    enc = tok.encode(text, add_special_tokens=False)
    return np.array(enc.ids, dtype=np.int64), enc.offsets


def example_chunks(ex: Example, tok, cls_id: int, sep_id: int, rng: random.Random,
                   window: int = WINDOW) -> list[Chunk]:
    ids, offsets = tokenize(tok, ex.text)
    T = len(ids)
    if T == 0:
        return []
    masks = char_masks(ex)
    base = np.array([masks[a] if a < len(masks) else O_MASK for a, _ in offsets], dtype=np.int32)
    # entity id per token (-1 = none) so we can cut outside entities and re-tag cut pieces
    ent = np.full(T, -1, dtype=np.int32)
    starts = np.array([a for a, _ in offsets])
    ends = np.array([b for _, b in offsets])
    for k, (s, e, lab) in enumerate(ex.spans):
        sel = (starts >= s) & (ends <= e) & (ends > starts)
        ent[sel] = k
    chunks = []
    pos = 0
    # random first cut so documents are not always seen from the same window phase
    while pos < T:
        end = min(T, pos + window)
        if end < T:
            # prefer a cut at whitespace outside an entity, else anywhere outside an entity
            best = None
            for c in range(end, max(pos + window // 2, pos + 1), -1):
                if ent[c - 1] < 0 or ent[c] != ent[c - 1]:
                    if best is None:
                        best = c
                    if ids[c - 1] in _WS_IDS or ids[c] in _WS_IDS:
                        best = c
                        break
            end = best or end
        seg = slice(pos, end)
        allowed = base[seg].copy()
        e_seg = ent[seg]
        for k in np.unique(e_seg[e_seg >= 0]):
            idx = np.nonzero(e_seg == k)[0]
            lab = ex.spans[k][2]
            if len(idx) == 1:
                allowed[idx[0]] = tag_mask("S", lab)
            else:
                allowed[idx[0]] = tag_mask("B", lab)
                allowed[idx[1:-1]] = tag_mask("I", lab)
                allowed[idx[-1]] = tag_mask("E", lab)
        cid = np.concatenate([[cls_id], ids[seg], [sep_id]]).astype(np.int64)
        cal = np.concatenate([[O_MASK], allowed, [O_MASK]]).astype(np.int32)
        chunks.append(Chunk(cid, cal, ex.source))
        # overlap a little sometimes, like the engine's windows
        step = end - pos
        pos = end if step < window or rng.random() < 0.5 else end - rng.randint(0, 16)
    return chunks


_WS_IDS: set[int] = set()


def set_whitespace_ids(ids: set[int]) -> None:
    _WS_IDS.clear()
    _WS_IDS.update(ids)


def pack_short(examples: list[Example], rng: random.Random, limit: int = WINDOW) -> list[Example]:
    """Join short examples (KLUE sentences) into ~window-sized texts, so chunks look like documents."""
    out, cur = [], None
    for ex in examples:
        if cur is not None and len(cur.text) + 1 + len(ex.text) <= limit:
            sep = rng.choice([" ", " ", "\n"])
            off = len(cur.text) + 1
            cur = Example(cur.text + sep + ex.text,
                          cur.spans + [(s + off, e + off, l) for s, e, l in ex.spans],
                          cur.soft_org, cur.strict + tuple((s + off, e + off) for s, e in ex.strict), cur.source,
                          cur.soft + tuple((s + off, e + off) for s, e in ex.soft))
        else:
            if cur is not None:
                out.append(cur)
            cur = ex
    if cur is not None:
        out.append(cur)
    return out


def label_id(tag: str) -> int:
    return LABELS.index(tag)
