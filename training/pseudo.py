"""Pseudo-labelled KLUE train sentences for self-training (issue 17).

``../shared/data/klue-ner-v1.1-train-raw-sentences.tsv`` holds the 21,008 sentences of the KLUE-NER v1.1
*train* split as raw text, without labels (news, movie reviews, Wikipedia-like text; disjoint from the
dev split that every KLUE figure of this project is measured on). A *teacher* — the default detector
(compact model + rules + context refinement) over a given model folder — labels them twice:

1. at its operating point (``o_bias`` 0, spans scoring ≥ :data:`SURE` count) → **gold-like spans**
   (PERSON, ORGANIZATION; ADDRESS only when :func:`training.data.looks_like_address`);
2. at a high-recall point (``o_bias`` :data:`RECALL_BIAS`, every span) → every character the teacher
   *might* call an entity, but did not confidently, becomes **soft**: the loss accepts ``O`` or any entity
   tag there (``Example.soft``). Teacher spans of the operating point that score below :data:`SURE` are
   soft as well.

Everything else is ``O``. So the student learns the teacher's confident decisions in 21k new contexts,
is not pushed towards the teacher's borderline misses, and — through entity substitution
(:func:`training.data.substitute`, news-style names and organisations) — learns that a name is a name in
these contexts whatever its value (foreign, given-name-only, surname + title).

Several teachers (comma-separated folders) label by agreement (:func:`agree`). The labels are cached in
``training/runs/pseudo-<teacher digest>.jsonl`` (git-ignored). The shipped model's teachers are recorded in
its ``config.json`` (``compact_teacher_sha256``) and in the model card: round 1 was taught by the previous
embedded model (``git show 1eb2543:resources/models/veil-compact-ko/model.onnx``), round 2 by round 1's two
students (``training/rebuild.sh``).
"""
from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from veil_desktop.datasets import shared_data_dir

from .data import Example, looks_like_address

RAW = "klue-ner-v1.1-train-raw-sentences.tsv"
SURE = 0.75          # teacher spans scoring at least this are trained as gold
RECALL_BIAS = 2.0    # o_bias of the high-recall pass (subtracted from O: more entities)
BLOCK = 64           # sentences joined per detect() call (one per line)
LABELS = ("PERSON", "ORGANIZATION", "ADDRESS")


def raw_sentences(path: Path | None = None) -> list[tuple[str, str]]:
    """(id, sentence) pairs of the unlabelled KLUE train split."""
    p = path or shared_data_dir() / RAW
    out = []
    for line in p.read_text(encoding="utf-8").splitlines():
        sid, _, text = line.partition("\t")
        text = text.strip()
        if text:
            out.append((sid, text))
    return out


def teacher_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for name in ("model.onnx", "tokenizer.json", "config.json"):
        h.update((folder / name).read_bytes())
    return h.hexdigest()


def _spans_per_sentence(det, sentences: list[str]) -> list[list]:
    """Run ``det`` over blocks of sentences joined by newlines; return each sentence's spans (own offsets)."""
    out: list[list] = []
    for i in range(0, len(sentences), BLOCK):
        block = sentences[i:i + BLOCK]
        starts, pos = [], 0
        for s in block:
            starts.append(pos)
            pos += len(s) + 1
        spans = sorted(det.detect("\n".join(block)), key=lambda s: s.start)
        per = [[] for _ in block]
        k = 0
        for sp in spans:
            while k + 1 < len(block) and sp.start >= starts[k + 1]:
                k += 1
            a, b = sp.start - starts[k], sp.end - starts[k]
            if b <= len(block[k]):
                per[k].append((a, b, sp.label, float(sp.score)))
        out.extend(per)
    return out


def label_sentences(teacher: Path, threads: int = 2, limit: int | None = None) -> list[dict]:
    from veil_desktop.detect.default import build_default_detector

    sents = raw_sentences()[:limit]
    texts = [t for _, t in sents]
    t0 = time.time()
    sure = _spans_per_sentence(build_default_detector(teacher, threads=threads), texts)
    wide = _spans_per_sentence(build_default_detector(teacher, threads=threads, o_bias=RECALL_BIAS), texts)
    print(f"pseudo: teacher ran twice over {len(texts):,} sentences ({sum(map(len, texts)):,} chars) "
          f"in {time.time() - t0:.0f} s", flush=True)
    rows = []
    for (sid, text), sp, wd in zip(sents, sure, wide):
        gold, soft = [], []
        for a, b, lab, score in sp:
            if lab not in LABELS:
                continue
            if lab == "ADDRESS" and not looks_like_address(text[a:b]):
                soft.append((a, b))
            elif score >= SURE:
                gold.append((a, b, lab))
            else:
                soft.append((a, b))
        for a, b, lab, _ in wd:
            if lab in LABELS and not any(a < e and s < b for s, e, _ in gold):
                soft.append((a, b))
        rows.append({"id": sid, "text": text, "spans": sorted(gold), "soft": sorted(set(soft))})
    return rows


_PARTICLES = sorted("은 는 이 가 을 를 의 에 에게 에서 와 과 도 만 로 으로 께서 씨 측 이나 나 처럼 만큼 보다 까지 부터 "
                    "이다 였다 이었다 라는 이라는 랑 이랑 님".split(), key=len, reverse=True)
PROPAGATE_SHARE = 0.5  # ... and in at least this share of its word-bounded occurrences
PROPAGATE_MIN = 2  # a value confidently tagged in at least this many sentences is tagged wherever it recurs


def _word_bounded(text: str, a: int, b: int) -> bool:
    """``text[a:b]`` starts a word and ends one, or ends before a particle (then a word boundary)."""
    if a > 0 and (text[a - 1].isalnum()):
        return False
    if b >= len(text) or not text[b].isalnum():
        return True
    for p in _PARTICLES:
        if text.startswith(p, b) and (b + len(p) >= len(text) or not text[b + len(p)].isalnum()):
            return True
    return False


def propagate(rows: list[dict]) -> int:
    """Corpus-level consistency: a string the teacher tagged with one label (and never another) in at least
    :data:`PROPAGATE_MIN` sentences becomes a span of that label wherever it recurs word-bounded and
    untagged (the teacher saw 탕웨이 in one review but not in the next). Returns how many spans were added."""
    import re
    from collections import Counter, defaultdict

    seen: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        for a, b, lab in r["spans"]:
            v = r["text"][a:b]
            if len(v) >= 2:
                seen[v][lab] += 1
    values = {v: c.most_common(1)[0][0] for v, c in seen.items()
              if len(c) == 1 and sum(c.values()) >= PROPAGATE_MIN}
    if not values:
        return 0
    pat = re.compile("|".join(re.escape(v) for v in sorted(values, key=len, reverse=True)))
    # only values the teacher tags in most of their word-bounded occurrences: a common word the teacher
    # tagged by mistake a few times (이건, 이미지) must not spread
    occurs: Counter = Counter()
    for r in rows:
        for m in pat.finditer(r["text"]):
            if _word_bounded(r["text"], *m.span()):
                occurs[m.group()] += 1
    values = {v: lab for v, lab in values.items() if sum(seen[v].values()) >= PROPAGATE_SHARE * occurs[v]}
    if not values:
        return 0
    pat = re.compile("|".join(re.escape(v) for v in sorted(values, key=len, reverse=True)))
    added = 0
    for r in rows:
        text, spans = r["text"], [tuple(s) for s in r["spans"]]
        for m in pat.finditer(text):
            a, b = m.span()
            if any(a < e and s < b for s, e, _ in spans) or not _word_bounded(text, a, b):
                continue
            spans.append((a, b, values[m.group()]))
            added += 1
        r["spans"] = sorted(spans)
    return added


def agree(runs: list[list[dict]]) -> list[dict]:
    """Several teachers' rows for the same sentences -> one row each: spans every teacher produced (same
    offsets and label) stay gold; a span only some teachers produced, and every teacher's soft range, is soft."""
    out = []
    for rows in zip(*runs):
        sets = [{tuple(s) for s in r["spans"]} for r in rows]
        gold = set.intersection(*sets)
        soft = {tuple(x) for r in rows for x in r["soft"]}
        soft |= {(a, b) for s in sets for a, b, _ in s - gold}
        soft = {x for x in soft if not any(x[0] < e and a < x[1] for a, e, _ in gold)}
        out.append({"id": rows[0]["id"], "text": rows[0]["text"], "spans": sorted(gold), "soft": sorted(soft)})
    return out


def load(teacher: Path | str, cache_dir: Path, threads: int = 2) -> list[Example]:
    """Pseudo-labelled examples (cached per teacher digest). ``teacher``: a model folder, or several joined
    by commas (an agreement ensemble, :func:`agree`)."""
    teachers = [Path(t) for t in str(teacher).split(",") if t]
    digest = hashlib.sha256("".join(teacher_digest(t) for t in teachers).encode()).hexdigest() \
        if len(teachers) > 1 else teacher_digest(teachers[0])
    cache = cache_dir / f"pseudo-{digest[:16]}.jsonl"
    if not cache.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        rows = agree([label_sentences(t, threads) for t in teachers]) if len(teachers) > 1 \
            else label_sentences(teachers[0], threads)
        print(f"pseudo: {propagate(rows):,} spans added by corpus-level consistency", flush=True)
        tmp = cache.with_suffix(".tmp")
        tmp.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
        tmp.replace(cache)
    out = []
    for line in cache.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        spans = [tuple(s) for s in r["spans"]]
        soft = tuple(tuple(s) for s in r["soft"] if not any(s[0] < e and a < s[1] for a, e, _ in spans))
        out.append(Example(r["text"], spans, soft=soft, source="klue-pseudo"))
    return out


def stats(examples: list[Example]) -> dict:
    n = {lab: 0 for lab in LABELS}
    for ex in examples:
        for _, _, lab in ex.spans:
            n[lab] += 1
    return {"sentences": len(examples), "spans": n, "soft_ranges": sum(len(e.soft) for e in examples),
            "chars": sum(len(e.text) for e in examples)}


if __name__ == "__main__":  # python -m training.pseudo [--teacher DIR] : label, cache, print stats
    import argparse

    from veil_desktop.paths import default_model_dir

    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher", default=None)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    ex = load(a.teacher or default_model_dir(), Path(__file__).parent / "runs", a.threads)
    print(json.dumps(stats(ex), ensure_ascii=False))
