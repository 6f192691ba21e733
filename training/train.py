"""Train the compact syllable tagger. Torch only here (the ``train`` extra); nothing of this runs in the app.

``train(cfg, work_dir)`` builds the vocabulary and tokenizer, the training chunks (see :mod:`training.data`),
trains with AdamW + warm-up + cosine decay for ``cfg.steps`` steps, scores the dev split every
``cfg.eval_every`` steps (greedy tag decoding on dev chunks, span F1) and keeps the best state.
The held-out *test* split is never read here.
"""
from __future__ import annotations

import json
import math
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from . import data as D
from . import synth
from .labels import LABELS, N_LABELS
from .model import DSConvTagger, SyllableTagger, allowed_nll, distill_loss
from .vocab import build_vocab, feature_tables, make_tokenizer


@dataclass
class TrainConfig:
    seed: int = 13
    steps: int = 6000            # upper bound; on the shared 2-core machine max_minutes binds first
    batch: int = 32
    lr: float = 4e-3
    warmup: int = 100
    weight_decay: float = 0.01
    eval_every: int = 200
    n_synth: int = 2500          # synthetic training documents
    klue_sub_copies: int = 2     # entity-substituted copies of KLUE training sentences
    pii_sub_copies: int = 2      # entity-substituted copies of ko-pii training documents
    hidden: int = 128
    layers: int = 1
    dilations: tuple = (1, 2, 4)
    d_syl: int = 96
    d_conv: int = 192
    dropout: float = 0.25
    syl_drop: float = 0.1
    threads: int = 1             # 1 beats 2 on this shared 2-core machine (OpenMP spin under contention)
    max_minutes: float = 38.0    # hard wall-clock stop (keeps the best state so far)
    init_from: str = ""          # optional best.pt of an earlier run with the same data config (continue training)
    # issue 17: self-training on the unlabelled KLUE train sentences (training/pseudo.py) and news-style text
    teacher: str = ""            # teacher model folder(s), comma-separated = agreement ensemble ("" = none)
    pseudo_copies: int = 1       # pseudo-labelled sentences as labelled by the teacher
    pseudo_sub_copies: int = 1   # ... and copies with news-style entity substitution
    n_news: int = 0              # news-style synthetic documents (synth.generate_news)
    # issue 27: architecture and distillation
    arch: str = "bilstm"         # "bilstm" (SyllableTagger, shipped) | "dsconv" (DSConvTagger: no recurrence)
    kd_teacher: str = ""         # model folder whose ONNX logits are distilled (its vocabulary is used as is)
    kd_weight: float = 0.0       # weight of the distillation term (teacher restricted to the allowed tags)

    @classmethod
    def smoke(cls) -> "TrainConfig":
        return cls(steps=150, eval_every=75, n_synth=200, klue_sub_copies=1, pii_sub_copies=1, warmup=50,
                   max_minutes=4.0)


def build_model(cfg: TrainConfig, jamo, ccls, syl_row):
    if cfg.arch == "bilstm":
        return SyllableTagger(jamo, ccls, syl_row, d_syl=cfg.d_syl, d_conv=cfg.d_conv, hidden=cfg.hidden,
                              layers=cfg.layers, dilations=tuple(cfg.dilations), dropout=cfg.dropout,
                              syl_drop=cfg.syl_drop)
    if cfg.arch == "dsconv":
        return DSConvTagger(jamo, ccls, syl_row, d_syl=cfg.d_syl, d_conv=cfg.d_conv,
                            dilations=tuple(cfg.dilations), dropout=cfg.dropout, syl_drop=cfg.syl_drop)
    raise ValueError(f"unknown arch {cfg.arch!r} (bilstm | dsconv)")


def teacher_vocab(folder: Path) -> list[str]:
    """The id-ordered vocabulary of a model folder's character-level ``tokenizer.json``."""
    table = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))["model"]["vocab"]
    vocab = [""] * len(table)
    for tok, i in table.items():
        vocab[i] = tok
    return vocab


def log(msg: str, fh=None) -> None:
    line = f"[{time.strftime('%H:%M:%S')}] {msg}"
    print(line, flush=True)
    if fh:
        fh.write(line + "\n")
        fh.flush()


def build_examples(cfg: TrainConfig, rng: random.Random):
    klue_tr = D.klue_examples("train")
    pii_tr = D.ko_pii_examples("train")
    syn_tr = D.synth_examples(cfg.n_synth, seed=cfg.seed * 1000 + 1)
    g = synth.Generator(cfg.seed * 1000 + 2)
    subs = []
    news = cfg.teacher != "" or cfg.n_news > 0  # issue-17 data: news-style values in KLUE-like text
    for _ in range(cfg.klue_sub_copies):
        subs += [D.substitute(e, g, p_person=0.9, p_other=0.4, news=news) for e in klue_tr if e.spans]
    if cfg.teacher:
        from . import pseudo

        ps = pseudo.load(cfg.teacher, Path(__file__).parent / "runs", threads=2)
        subs += ps * cfg.pseudo_copies
        for _ in range(cfg.pseudo_sub_copies):
            subs += [D.substitute(e, g, p_person=0.9, p_other=0.5, news=True) for e in ps if e.spans]
    if cfg.n_news:
        subs += [D.Example(d.text, list(d.spans), source="klue-news") for d in
                 synth.generate_news(cfg.n_news, seed=cfg.seed * 1000 + 4)]
    for _ in range(cfg.pii_sub_copies):
        subs += [D.substitute(e, g, p_person=0.95, p_other=0.7) for e in pii_tr if e.spans]
    klue_like = D.pack_short(klue_tr + [s for s in subs if s.source.startswith("klue")], rng)
    docs = klue_like + pii_tr + [s for s in subs if s.source.startswith("ko-pii")] + syn_tr
    return docs


def dev_examples(cfg: TrainConfig) -> dict[str, list]:
    return {"klue": D.klue_examples("dev"), "ko-pii": D.ko_pii_examples("dev"),
            "synth": D.synth_examples(150, seed=cfg.seed * 1000 + 3)}


def to_batch(chunks, pad_id: int):
    L = max(len(c.ids) for c in chunks)
    ids = np.full((len(chunks), L), pad_id, dtype=np.int64)
    allowed = np.zeros((len(chunks), L, N_LABELS), dtype=bool)
    mask = np.zeros((len(chunks), L), dtype=np.int64)
    bits = 1 << np.arange(N_LABELS)
    for i, c in enumerate(chunks):
        n = len(c.ids)
        ids[i, :n] = c.ids
        mask[i, :n] = 1
        allowed[i, :n] = (c.allowed[:, None] & bits) != 0
    allowed[mask == 0, 0] = True
    return torch.from_numpy(ids), torch.from_numpy(allowed), torch.from_numpy(mask)


def spans_from_tags(tags) -> set[tuple[int, int, str]]:
    out, start, typ = set(), None, None
    for i, t in enumerate(tags):
        lab = LABELS[t]
        if lab == "O":
            start = None
            continue
        p, ty = lab.split("-", 1)
        if p == "S":
            out.add((i, i + 1, ty))
            start = None
        elif p == "B":
            start, typ = i, ty
        elif p == "E" and start is not None and typ == ty:
            out.add((start, i + 1, ty))
            start = None
        elif p == "I" and typ != ty:
            start = None
    return out


def gold_from_allowed(allowed_bits) -> set[tuple[int, int, str]]:
    tags = []
    for b in allowed_bits:
        single = [k for k in range(N_LABELS) if b >> k & 1]
        tags.append(single[0] if len(single) == 1 else 0)
    return spans_from_tags(tags)


@torch.no_grad()
def evaluate_chunks(model, chunk_sets: dict[str, list], pad_id: int) -> dict[str, float]:
    """Greedy-decoded span F1 (exact) per corpus and label on dev chunks (model selection only)."""
    model.eval()
    res = {}
    for name, chunks in chunk_sets.items():
        tp, fp, fn = {}, {}, {}
        for i in range(0, len(chunks), 64):
            part = chunks[i:i + 64]
            ids, allowed, mask = to_batch(part, pad_id)
            pred = model(ids, mask).argmax(-1).numpy()
            for k, c in enumerate(part):
                n = len(c.ids)
                p = spans_from_tags(pred[k, :n])
                gset = gold_from_allowed(c.allowed)
                if name == "ko-pii":
                    p = {s for s in p if s[2] != "ORGANIZATION"}
                for lab in ("PERSON", "ADDRESS", "ORGANIZATION"):
                    ps = {s for s in p if s[2] == lab}
                    gs = {s for s in gset if s[2] == lab}
                    tp[lab] = tp.get(lab, 0) + len(ps & gs)
                    fp[lab] = fp.get(lab, 0) + len(ps - gs)
                    fn[lab] = fn.get(lab, 0) + len(gs - ps)
        for lab in tp:
            if tp[lab] + fn[lab] == 0:
                continue
            f1 = 2 * tp[lab] / max(1, 2 * tp[lab] + fp[lab] + fn[lab])
            res[f"{name}/{lab}"] = round(f1, 4)
    model.train()
    return res


def selection_score(r: dict[str, float]) -> float:
    keys = ["ko-pii/PERSON", "ko-pii/ADDRESS", "klue/PERSON", "klue/ORGANIZATION", "synth/ORGANIZATION"]
    return sum(r.get(k, 0.0) for k in keys) / len(keys)


def train(cfg: TrainConfig, work: Path) -> dict:
    work.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    np.random.seed(cfg.seed)
    logf = open(work / "train.log", "a", encoding="utf-8")
    t0 = time.time()
    log(f"config {json.dumps(asdict(cfg))}", logf)

    docs = build_examples(cfg, rng)
    init = torch.load(cfg.init_from, map_location="cpu") if cfg.init_from else None
    if init is not None:
        # continuing: keep the earlier run's vocabulary and syllable rows, so the weights line up
        vocab = json.loads((Path(cfg.init_from).parent / "vocab.json").read_text(encoding="utf-8"))
    elif cfg.kd_teacher:
        # distilling: the teacher's vocabulary, so that the same input_ids feed both networks
        vocab = teacher_vocab(Path(cfg.kd_teacher))
    else:
        vocab = build_vocab(d.text for d in docs)
    tok = make_tokenizer(vocab)
    (work / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    tok.save(str(work / "tokenizer.json"))
    cls_id, sep_id, pad_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]"), tok.token_to_id("[PAD]")
    D.set_whitespace_ids({tok.token_to_id(" "), tok.token_to_id("\n")})

    chunks = [c for d in docs for c in D.example_chunks(d, tok, cls_id, sep_id, rng)]
    dev = {k: [c for d in v for c in D.example_chunks(d, tok, cls_id, sep_id, random.Random(0))]
           for k, v in dev_examples(cfg).items()}
    seen = np.zeros(len(vocab), dtype=bool)
    for c in chunks:
        seen[c.ids] = True
    seen[:5] = True  # specials keep rows 0..4; row 1 ([UNK]) doubles as "unknown syllable"
    syl_row = np.where(seen, np.cumsum(seen) - 1, 1)
    if init is not None:
        syl_row = init["state"]["syl_row"].numpy()
    jamo, ccls = feature_tables(vocab)
    by_src: dict[str, int] = {}
    for c in chunks:
        by_src[c.source] = by_src.get(c.source, 0) + 1
    log(f"data: {len(docs)} docs -> {len(chunks)} chunks {by_src}; vocab {len(vocab)} "
        f"({int(seen.sum())} seen); dev chunks { {k: len(v) for k, v in dev.items()} }; "
        f"{time.time() - t0:.0f}s", logf)

    model = build_model(cfg, jamo, ccls, syl_row)
    teacher = None
    if cfg.kd_teacher and cfg.kd_weight > 0:
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = cfg.threads
        so.inter_op_num_threads = 1
        teacher = ort.InferenceSession(str(Path(cfg.kd_teacher) / "model.onnx"), so,
                                       providers=["CPUExecutionProvider"])
        log(f"distilling from {cfg.kd_teacher} (weight {cfg.kd_weight})", logf)
    if init is not None:
        model.load_state_dict(init["state"])
        log(f"initialised from {cfg.init_from}", logf)
    decay = [p for n, p in model.named_parameters() if p.dim() > 1 and "syl." not in n]
    no_decay = [p for n, p in model.named_parameters() if not (p.dim() > 1 and "syl." not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": cfg.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=cfg.lr)

    def lr_at(step):
        # cosine decay over whichever budget runs out first: steps or wall-clock minutes (the machine is
        # shared, so the wall clock is the binding limit; the decay still completes)
        if step < cfg.warmup:
            return cfg.lr * (step + 1) / cfg.warmup
        frac = max((step - cfg.warmup) / max(1, cfg.steps - cfg.warmup),
                   (time.time() - t_train) / 60 / cfg.max_minutes)
        return cfg.lr * (0.03 + 0.97 * 0.5 * (1 + math.cos(math.pi * min(1.0, frac))))

    t_train = time.time()
    order: list[int] = []
    best, best_state, best_step, history = -1.0, None, 0, []
    t_train = time.time()
    run_loss = 0.0
    model.train()
    step = 0
    for step in range(1, cfg.steps + 1):
        if len(order) < cfg.batch:
            order = list(range(len(chunks)))
            rng.shuffle(order)
        idx, order = order[:cfg.batch], order[cfg.batch:]
        ids, allowed, mask = to_batch([chunks[i] for i in idx], pad_id)
        for gparam in opt.param_groups:
            gparam["lr"] = lr_at(step)
        logits = model(ids, mask)
        loss = allowed_nll(logits, allowed, mask.float())
        if teacher is not None:
            t_logits = torch.from_numpy(teacher.run(None, {"input_ids": ids.numpy(), "attention_mask": mask.numpy()})[0])
            loss = loss + cfg.kd_weight * distill_loss(logits, t_logits, allowed, mask.float())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        run_loss += loss.item()
        out_of_time = (time.time() - t_train) / 60 > cfg.max_minutes
        if step % 50 == 0:
            log(f"step {step} lr {lr_at(step):.5f} loss {loss.item():.4f} "
                f"({(time.time() - t_train) / 60:.1f} min)", logf)
        if step % cfg.eval_every == 0 or step == cfg.steps or out_of_time:
            r = evaluate_chunks(model, dev, pad_id)
            s = selection_score(r)
            history.append({"step": step, "loss": run_loss / cfg.eval_every, "dev": r, "score": s,
                            "minutes": (time.time() - t_train) / 60})
            log(f"step {step} loss {run_loss / cfg.eval_every:.4f} dev {r} score {s:.4f} "
                f"({(time.time() - t_train) / 60:.1f} min)", logf)
            run_loss = 0.0
            if s > best:
                best, best_step = s, step
                best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        if out_of_time:
            log(f"stopping at step {step}: wall-clock budget of {cfg.max_minutes} min reached", logf)
            break
    model.load_state_dict(best_state)
    torch.save({"state": best_state, "config": model.config, "train_config": asdict(cfg)}, work / "best.pt")
    summary = {"best_score": best, "best_step": best_step, "steps_run": step,
               "train_minutes": round((time.time() - t_train) / 60, 2),
               "total_minutes": round((time.time() - t0) / 60, 2), "history": history,
               "n_chunks": len(chunks), "vocab": len(vocab), "params": sum(p.numel() for p in model.parameters())}
    (work / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    log(f"best dev score {best:.4f} at step {best_step}; {summary['total_minutes']} min total", logf)
    return {"model": model, "tokenizer": tok, "vocab": vocab, "summary": summary}
