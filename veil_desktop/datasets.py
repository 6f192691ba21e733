"""Readers for the evaluation/training corpora and the project's fixed held-out split.

Used by ``veil_desktop.evaluate``, ``training/`` and ``benchmarks/`` only (the app never reads these).
The corpora live in ``../shared/data`` beside the repository and are never copied into it.

The split is a pure function of the document text (SHA-1), so every script agrees on it without
shipping an index file: ``split_of(text)`` is ``"test"`` for ~20 % of documents (never trained or
tuned on), ``"dev"`` for ~10 % (tuning), ``"train"`` for the rest.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from .detect.span import Span

#: ko-pii-synthetic type -> project label (types not listed are not scored).
KO_PII_LABELS = {
    "PERSON": "PERSON", "ADDRESS": "ADDRESS", "PHONE": "PHONE", "EMAIL": "EMAIL", "RRN": "RRN",
    "FRN": "FOREIGNER_RN", "ACCOUNT": "ACCOUNT", "CARD": "CARD", "BUSINESS_REG": "BUSINESS_REG",
    "CORP_REG": "CORP_REG", "PASSPORT": "PASSPORT", "DRIVER_LICENSE": "DRIVER_LICENSE",
    "VEHICLE": "VEHICLE", "IP": "IP", "POSTAL_CODE": "POSTAL_CODE",
    # other identifiers (rules/identifiers.py)
    "URL": "URL", "MEDICAL_INSURANCE": "HEALTH_INSURANCE", "PRESCRIPTION_ID": "MEDICAL_ID", "DT_BIRTH": "BIRTH_DATE",
}

#: ko-pii domains held out as a whole: the disjoint evaluation split (``--split heldout``). Chosen before
#: looking at them (legal, medical, HR, local-government, civil-petition, chat and insurance documents, the
#: kinds the audited sets contain); the rules of issue 17 were written and tuned on the other 21 domains
#: only. The shipped compact model *did* train on the train-hash documents of these domains (it predates the
#: split), so for the model only ``heldout-test`` (these domains AND the hash test split) is unseen.
#: Training code must drop these domains (``is_heldout``) in any new build.
HELDOUT_DOMAINS = frozenset({
    "법원 판결문/소장", "처방전·약국 조제 기록", "인사 발령·인사평가서", "지자체 고시·공고문", "민원 처리결과 통보서",
    "메신저(카톡류) 대화 로그", "보험 청구서·보험증권",
})
KLUE_LABELS = {"PS": "PERSON", "OG": "ORGANIZATION", "LC": "LOCATION"}  # LC: see docs (not ADDRESS)


def shared_data_dir() -> Path:
    env = os.environ.get("VEIL_SHARED_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def split_of(text: str) -> str:
    h = int(hashlib.sha1(text.encode("utf-8")).hexdigest()[:8], 16) % 10
    return "test" if h < 2 else ("dev" if h < 3 else "train")


@dataclass
class Doc:
    id: str
    text: str
    spans: list[Span]                 # gold, non-overlapping, sorted
    domain: str = ""
    corpus: str = ""
    unlabelled: set[str] = field(default_factory=set)  # labels this corpus never annotates

    @property
    def split(self) -> str:
        return split_of(self.text)


def _find_all(text: str, needle: str) -> list[int]:
    out, i = [], text.find(needle)
    while i >= 0 and needle:
        out.append(i)
        i = text.find(needle, i + len(needle))
    return out


def load_ko_pii(path: Path | None = None) -> list[Doc]:
    """ko-pii-synthetic: gold gives surface strings; every occurrence in the text is gold.
    Longer gold strings are placed first; an occurrence overlapping an already placed one is skipped."""
    path = path or shared_data_dir() / "ko-pii-synthetic-1398.jsonl"
    docs = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            o = json.loads(line)
            text = o["text"]
            placed: list[Span] = []
            items = sorted(o["pii"], key=lambda p: -len(p["text"]))
            for p in items:
                label = KO_PII_LABELS.get(p["type"])
                val = p["text"].strip()
                if not label or not val:
                    continue
                for i in _find_all(text, val):
                    s = Span(i, i + len(val), label, 1.0, "model")
                    if not any(s.overlaps(q) for q in placed):
                        placed.append(s)
            docs.append(Doc(f"ko-pii-{n:04d}", text, sorted(placed), o.get("domain", ""), "ko-pii",
                            {"ORGANIZATION"}))
    return docs


def load_klue(path: Path | None = None, keep_location: bool = False) -> list[Doc]:
    """KLUE-NER character TSV -> sentences with PERSON / ORGANIZATION spans (and LOCATION if asked)."""
    path = path or shared_data_dir() / "klue-ner-v1.1-dev-first4000.tsv"
    docs: list[Doc] = []
    cur_id, chars, tags = None, [], []

    def flush():
        if cur_id is None or not chars:
            return
        text = "".join(chars)
        spans, start, lab = [], None, None
        for i, t in enumerate(tags + ["O"]):
            if t.startswith("B-") or t == "O" or (t.startswith("I-") and lab != t[2:]):
                if start is not None and lab in KLUE_LABELS:
                    mapped = KLUE_LABELS[lab]
                    if mapped != "LOCATION" or keep_location:
                        spans.append(Span(start, i, mapped, 1.0, "model"))
                start, lab = (i, t[2:]) if t != "O" else (None, None)
        source = cur_id.rsplit("-", 1)[-1] if "-" in cur_id else "klue"  # wikitree (news) / nsmc (reviews)
        docs.append(Doc(cur_id, text, spans, source, "klue", set()))

    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            line = raw.rstrip("\n")
            if line.startswith("## "):
                if "\t" in line and line[3:].startswith("klue"):
                    flush()
                    cur_id, chars, tags = line[3:].split("\t", 1)[0], [], []
                continue
            if not line.strip("\t") and "\t" not in line:
                continue
            if "\t" in line:
                ch, tag = line.rsplit("\t", 1)
                chars.append(ch if ch else " ")
                tags.append(tag)
        flush()
    return docs


def is_heldout(doc: Doc) -> bool:
    """A document of a held-out ko-pii domain (never used for rule tuning or, from now on, training)."""
    return doc.corpus == "ko-pii" and doc.domain in HELDOUT_DOMAINS


#: splits beyond the hash split: ``heldout`` (whole held-out domains), ``heldout-test`` (those AND the hash
#: test split: unseen by the shipped model too), ``tuning`` (every other domain, all hash splits)
SPLITS = ("test", "dev", "train", "all", "heldout", "heldout-test", "tuning", "tuning-dev")


def in_split(doc: Doc, split: str) -> bool:
    if split == "all":
        return True
    if doc.corpus != "ko-pii" and split in ("heldout", "heldout-test", "tuning", "tuning-dev"):
        # KLUE has two sources only (news, movie reviews) and the shipped model needed both: its
        # held-out part is the hash test split, its tuning part the rest
        return (doc.split == "test") == split.startswith("heldout")
    if split == "heldout":
        return is_heldout(doc)
    if split == "heldout-test":
        return is_heldout(doc) and doc.split == "test"
    if split == "tuning":
        return not is_heldout(doc)
    if split == "tuning-dev":
        return not is_heldout(doc) and doc.split in ("train", "dev")
    return doc.split == split


def iter_split(docs: list[Doc], split: str) -> Iterator[Doc]:
    return (d for d in docs if in_split(d, split))
