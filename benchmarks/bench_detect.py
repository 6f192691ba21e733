"""Benchmark of the detection engine on a random-weight twin of veil-pii-ko-small-3.

What it does (see docs/BENCHMARKS.md for results):

1. builds once, cached in ``.bench-cache/`` (git-ignored), a random-weight ``ElectraForTokenClassification``
   with the architecture in ../shared/docs/PIPELINE.md (8 layers, hidden 256, FFN 256, 4 heads, embedding
   128, vocab 35,000, 13 labels), exported to ONNX, in a model folder with the KoELECTRA v3 tokenizer from
   ``../shared/models/koelectra-v3-tokenizer/``; and a dynamic-INT8 copy (``veil-redact quantize``);
2. on realistic Korean text (the synthetic administrative documents in ``../shared/data/``, concatenated)
   at the model card's lengths, measures:
   - ``e2e``: ``ModelDetector.detect(text)`` wall time;
   - ``ort``: pure ``session.run`` time for exactly the same batches;
   - ``rest``: everything that is not ``session.run`` (encode, batches, log-softmax, Viterbi, spans,
     post-processing), measured by replaying the recorded logits through the real pipeline;
   - the same for a naive baseline: tokenizer-overflow windows (``enable_truncation(stride=16)``),
     per-window numpy Viterbi and Python span loops;
   - ``decode``: Viterbi + span building + post-processing only, engine vs naive, on the same text;
3. INT8 vs FP32; peak RSS for a 1,000,000-character text (fresh subprocess); process start → first
   result (fresh subprocess, warm numba cache).

Run: ``.venv/bin/python benchmarks/bench_detect.py`` (``--help`` for options). Needs torch + transformers
(``pip install -e '.[bench]'``) only to build the twin the first time.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHARED = Path(os.environ.get("VEIL_SHARED", ROOT.parent / "shared"))
TOKENIZER = SHARED / "models" / "koelectra-v3-tokenizer" / "tokenizer.json"
CORPUS = SHARED / "data" / "ko-pii-synthetic-1398.jsonl"
CACHE = ROOT / ".bench-cache"
TWIN = CACHE / "veil-twin"
TWIN_INT8 = CACHE / "veil-twin-int8"
O_BIAS = 1.0
SIZES = (100, 1_000, 5_000, 10_000, 50_000, 100_000, 200_000)
LABELS = ("O", "B-PERSON", "I-PERSON", "E-PERSON", "S-PERSON", "B-ADDRESS", "I-ADDRESS", "E-ADDRESS",
          "S-ADDRESS", "B-ORGANIZATION", "I-ORGANIZATION", "E-ORGANIZATION", "S-ORGANIZATION")


# ---------------------------------------------------------------------------------------------- twin
def build_twin(dest: Path = TWIN) -> Path:
    """The random-weight twin folder (built once; torch/transformers only needed here)."""
    onnx_path = dest / "model.fp32.onnx"
    if onnx_path.is_file() and (dest / "config.json").is_file() and (dest / "tokenizer.json").is_file():
        return dest
    try:
        import torch
        from transformers import ElectraConfig, ElectraForTokenClassification
    except ImportError:  # no torch: write the same architecture directly as ONNX (benchmarks/twin_onnx.py)
        return _build_twin_without_torch(dest)

    torch.manual_seed(0)
    cfg = ElectraConfig(vocab_size=35000, embedding_size=128, hidden_size=256, num_hidden_layers=8,
                        num_attention_heads=4, intermediate_size=256, max_position_embeddings=512,
                        num_labels=len(LABELS), id2label=dict(enumerate(LABELS)),
                        label2id={lab: i for i, lab in enumerate(LABELS)})
    model = ElectraForTokenClassification(cfg).eval()
    # A random classifier tags ~60% of tokens as entities, 40x the span density of real documents, which
    # would benchmark span handling at an unrealistic load. Raising the O logit's bias gives about one
    # span per 20 tokens (still ~3x the density of the PII-dense synthetic corpus). Same cost for the
    # forward pass; the unbiased worst case is measured separately (engine o_bias=+O_BIAS, which the engine
    # subtracts from the O logit, as the reference does).
    with torch.no_grad():
        model.classifier.bias[0] += O_BIAS
    n_params = sum(p.numel() for p in model.parameters())
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    ids = torch.randint(5, 35000, (2, 128))
    args = (ids, torch.ones_like(ids), torch.zeros_like(ids))
    names = ["input_ids", "attention_mask", "token_type_ids"]
    dyn = {n: {0: "batch", 1: "seq"} for n in names}
    dyn["logits"] = {0: "batch", 1: "seq"}
    with torch.no_grad():
        try:
            torch.onnx.export(model, args, str(tmp / "model.fp32.onnx"), input_names=names,
                              output_names=["logits"], dynamic_axes=dyn, opset_version=17, dynamo=False)
        except TypeError:  # older torch without the dynamo switch
            torch.onnx.export(model, args, str(tmp / "model.fp32.onnx"), input_names=names,
                              output_names=["logits"], dynamic_axes=dyn, opset_version=17)
    cfg_d = cfg.to_dict()
    cfg_d["id2label"] = {str(i): lab for i, lab in enumerate(LABELS)}
    (tmp / "config.json").write_text(json.dumps(cfg_d, indent=2), encoding="utf-8")
    shutil.copy(TOKENIZER, tmp / "tokenizer.json")
    (tmp / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "ElectraTokenizer",
                                                           "do_lower_case": False}), encoding="utf-8")
    (tmp / "special_tokens_map.json").write_text(json.dumps(
        {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]",
         "mask_token": "[MASK]"}), encoding="utf-8")
    (tmp / "TWIN.json").write_text(json.dumps({"parameters": n_params, "torch": torch.__version__,
                                                       "o_logit_bias": O_BIAS}), encoding="utf-8")
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return dest


def _build_twin_without_torch(dest: Path) -> Path:
    from twin_onnx import write_twin_onnx

    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    n_params = write_twin_onnx(tmp / "model.fp32.onnx", o_bias=O_BIAS)
    cfg = {"architectures": ["ElectraForTokenClassification"], "model_type": "electra", "vocab_size": 35000,
           "embedding_size": 128, "hidden_size": 256, "num_hidden_layers": 8, "num_attention_heads": 4,
           "intermediate_size": 256, "max_position_embeddings": 512,
           "id2label": {str(i): lab for i, lab in enumerate(LABELS)},
           "label2id": {lab: i for i, lab in enumerate(LABELS)}}
    (tmp / "config.json").write_text(json.dumps(cfg, indent=2), encoding="utf-8")
    shutil.copy(TOKENIZER, tmp / "tokenizer.json")
    (tmp / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "ElectraTokenizer",
                                                           "do_lower_case": False}), encoding="utf-8")
    (tmp / "special_tokens_map.json").write_text(json.dumps(
        {"unk_token": "[UNK]", "sep_token": "[SEP]", "pad_token": "[PAD]", "cls_token": "[CLS]",
         "mask_token": "[MASK]"}), encoding="utf-8")
    (tmp / "TWIN.json").write_text(json.dumps({"parameters": n_params, "builder": "benchmarks/twin_onnx.py",
                                               "o_logit_bias": O_BIAS}), encoding="utf-8")
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return dest


def build_int8(src: Path = TWIN, dest: Path = TWIN_INT8) -> Path:
    if (dest / "model.int8.onnx").is_file():
        return dest
    from veil_desktop.cli import quantize_folder

    shutil.rmtree(dest, ignore_errors=True)
    quantize_folder(src, dest)
    return dest


# ---------------------------------------------------------------------------------------------- kernel
def use_viterbi(kind: str) -> None:
    """Choose the Viterbi kernel before ``veil_desktop.detect.viterbi`` compiles one: ``jit`` (what a source
    checkout or wheel runs: numba JIT), ``aot`` (what the offline bundle ships: the ``numba.pycc`` module
    built by ``packaging/build_aot.py`` into ``build/aot/``, registered as
    ``veil_desktop.detect._viterbi_aot`` exactly where the bundle puts it) or ``numpy``."""
    if kind == "numpy":
        os.environ["VEIL_NO_NUMBA"] = "1"
    elif kind == "aot":
        import importlib.util

        import veil_desktop.detect as pkg

        so = sorted((ROOT / "build" / "aot").glob("_viterbi_aot*.so")) + sorted(
            (ROOT / "build" / "aot").glob("_viterbi_aot*.pyd"))
        if not so:
            raise SystemExit("no build/aot/_viterbi_aot*: run  .venv/bin/python packaging/build_aot.py  first")
        name = "veil_desktop.detect._viterbi_aot"
        spec = importlib.util.spec_from_file_location(name, so[0])
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.modules[name] = mod
        pkg._viterbi_aot = mod
    elif kind != "jit":
        raise SystemExit(f"--viterbi {kind!r}: jit, aot or numpy")


# ---------------------------------------------------------------------------------------------- text
def korean_text(n_chars: int) -> str:
    """``n_chars`` characters of realistic Korean administrative text (documents joined by blank lines)."""
    docs = [json.loads(line)["text"] for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    out, total, i = [], 0, 0
    while total < n_chars:
        d = docs[i % len(docs)]
        out.append(d)
        total += len(d) + 2
        i += 1
    return "\n\n".join(out)[:n_chars]


# ---------------------------------------------------------------------------------------------- helpers
class ReplaySession:
    """Stands in for the onnxruntime session: returns recorded logits instantly (measures the rest)."""

    def __init__(self, outputs: list[np.ndarray]) -> None:
        self.outputs = outputs
        self.i = 0

    def run(self, _names, _feed):
        out = self.outputs[self.i]
        self.i += 1
        return [out]


def _batches(det, enc):
    from veil_desktop.detect.windows import build_batch

    m = det.model
    ws = enc.windows
    for i in range(0, len(ws), det.batch_size):
        b = ws[i:i + det.batch_size]
        yield b, build_batch(enc.ids, b, cls_id=m.cls_id, sep_id=m.sep_id, pad_id=m.pad_id,
                             input_names=m.input_names, input_dtypes=m.input_dtypes)


def measure_engine(det, text: str, reps: int) -> dict:
    """End-to-end and pure-ORT times, interleaved (e2e, ORT, e2e, ORT, ...) so that load from other
    processes hits both alike; the minimum of each is reported."""
    from veil_desktop.detect.engine import ModelDetector, _Finaliser

    enc = det.encode(text)
    feeds = list(_batches(det, enc))
    e2e, ort, outputs = [], [], []
    for _ in range(reps):
        t = time.perf_counter()
        spans = det.detect(text)
        e2e.append(time.perf_counter() - t)
        outputs = []
        t = time.perf_counter()
        for _, feed in feeds:
            outputs.append(det.model.session.run(None, feed)[0])
        ort.append(time.perf_counter() - t)
    # everything but session.run, through the real pipeline with recorded logits
    rest, rest_cpu = [], []
    for _ in range(max(reps, 3)):
        replay = ModelDetector(det.model.path, model=replace(det.model, session=ReplaySession(outputs)),
                               batch_size=det.batch_size, o_bias=det.o_bias, skip_ids=det.skip_ids,
                               normalize=det.normalize)
        t, c = time.perf_counter(), time.process_time()
        replayed = replay.detect(text)
        rest.append(time.perf_counter() - t)
        rest_cpu.append(time.process_time() - c)
    assert replayed == spans, "replay must reproduce the spans"
    # decode only: log-softmax + Viterbi + spans + post-processing
    dec, dec_cpu = [], []
    for _ in range(max(reps, 3)):
        fin = _Finaliser(enc.windows, enc.text)
        t, c = time.perf_counter(), time.process_time()
        for (b, _), logits in zip(feeds, outputs):
            fin.add(b, det._decode(logits, enc, b))
        dec.append(time.perf_counter() - t)
        dec_cpu.append(time.process_time() - c)
    ratios = [a / b for a, b in zip(e2e, ort)]
    return {"e2e": min(e2e), "ort": min(ort), "e2e_all": e2e, "ort_all": ort, "rest": min(rest),
            "e2e_median": statistics.median(e2e), "ort_median": statistics.median(ort),
            "ratio_median": statistics.median(e2e) / statistics.median(ort),
            "ratio_pair_min": min(ratios), "ratio_pair_max": max(ratios),
            "rest_cpu": min(rest_cpu), "decode": min(dec), "decode_cpu": min(dec_cpu),
            "decode_median": statistics.median(dec), "decode_cpu_median": statistics.median(dec_cpu), "windows": len(enc.windows),
            "tokens": int(len(enc.ids)), "spans": len(spans)}


class TimedSession:
    """Wraps an onnxruntime session and adds up the wall and CPU time spent inside ``run``."""

    def __init__(self, session) -> None:
        self.session = session
        self.wall = self.cpu = 0.0

    def run(self, names, feed):
        t, c = time.perf_counter(), time.process_time()
        try:
            return self.session.run(names, feed)
        finally:
            self.wall += time.perf_counter() - t
            self.cpu += time.process_time() - c


def _stats(xs: list[float]) -> dict:
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "all": xs}


def measure_default(full, text: str, reps: int) -> dict:
    """What users get: the default detector (embedded compact model + rule stage + spacing pass + context
    refinement + merge) end to end, against the bare ``session.run`` time of its own model over exactly
    the main pass's batches of the same text, and against the engine alone (``ModelDetector.detect``).
    The three are interleaved (e2e, engine, ORT, e2e, …) with the same number of repeats; medians and
    min–max are reported, and the ratio both as median ÷ median and as the min–max of per-round ratios.
    ``ort_inside_e2e`` is the ``session.run`` time inside the end-to-end calls (main pass + spacing pass),
    measured through a timing wrapper around the same session."""
    from veil_desktop.detect.default import CombinedDetector
    from veil_desktop.detect.engine import ModelDetector

    eng = full.model
    timed = TimedSession(eng.model.session)
    eng_t = ModelDetector(eng.model.path, model=replace(eng.model, session=timed), batch_size=eng.batch_size,
                          o_bias=eng.o_bias, skip_ids=eng.skip_ids, normalize=eng.normalize)
    full_t = CombinedDetector(eng_t, full.rules, spacing=full.spacing)
    assert full_t.detect(text[:20_000]) == full.detect(text[:20_000]), "wrapped detector must give the same spans"
    enc = eng.encode(text)
    feeds = [f for _, f in _batches(eng, enc)]
    sess = eng.model.session
    w: dict[str, list[float]] = {k: [] for k in ("e2e", "engine", "ort", "e2e_cpu", "engine_cpu", "ort_cpu",
                                                  "ort_inside_e2e", "ort_inside_e2e_cpu")}
    n_spans = n_model = 0
    for _ in range(reps):
        timed.wall = timed.cpu = 0.0
        t, c = time.perf_counter(), time.process_time()
        n_spans = len(full_t.detect(text))
        w["e2e"].append(time.perf_counter() - t)
        w["e2e_cpu"].append(time.process_time() - c)
        w["ort_inside_e2e"].append(timed.wall)
        w["ort_inside_e2e_cpu"].append(timed.cpu)
        t, c = time.perf_counter(), time.process_time()
        n_model = len(eng.detect(text))
        w["engine"].append(time.perf_counter() - t)
        w["engine_cpu"].append(time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        for f in feeds:
            sess.run(None, f)
        w["ort"].append(time.perf_counter() - t)
        w["ort_cpu"].append(time.process_time() - c)
    out = {k: _stats(v) for k, v in w.items()}
    for a, b in (("e2e", "ort"), ("engine", "ort"), ("e2e", "engine"), ("e2e_cpu", "ort_cpu")):
        pair = [x / y for x, y in zip(w[a], w[b])]
        out[f"{a}/{b}"] = {"median_of_medians": statistics.median(w[a]) / statistics.median(w[b]),
                           "pair_min": min(pair), "pair_max": max(pair)}
    out.update(chars=len(text), tokens=int(len(enc.ids)), windows=len(enc.windows), spans=n_spans,
               model_spans=n_model, reps=reps)
    return out


def print_default(n: int, r: dict) -> None:
    def f(k, scale=1.0, fmt="{:.3f}"):
        s = r[k]
        return (fmt.format(s["median"] * scale) + " (" + fmt.format(s["min"] * scale) + "–"
                + fmt.format(s["max"] * scale) + ")")

    def q(k):
        s = r[k]
        return f"{s['median_of_medians']:.3f} ({s['pair_min']:.3f}–{s['pair_max']:.3f})"

    print(f"| {n:,} | {r['tokens']:,} | {r['windows']} | {r['spans']:,} | {f('e2e')} | {f('engine')} | {f('ort')} | "
          f"{f('ort_inside_e2e')} | {q('e2e/ort')} | {q('engine/ort')} | {q('e2e/engine')} | {q('e2e_cpu/ort_cpu')} | "
          f"{n / r['e2e']['median']:,.0f} |", flush=True)


def gil_gaps(det, text: str) -> dict:
    """Largest gap between 5 ms ticks of the main thread while ``stream`` runs on a worker thread
    (what a GUI event loop would feel)."""
    import threading

    done = threading.Event()
    th = threading.Thread(target=lambda: (list(det.stream(text)), done.set()))
    gaps = []
    last = time.perf_counter()
    th.start()
    while not done.is_set():
        time.sleep(0.005)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    th.join()
    return {"max_gap_ms": 1000 * max(gaps), "median_gap_ms": 1000 * statistics.median(gaps), "ticks": len(gaps)}


# ---------------------------------------------------------------------------------------------- naive
def naive_viterbi(lp: np.ndarray, trans: np.ndarray, start: np.ndarray, end: np.ndarray) -> list[int]:
    """Per-window Viterbi with one numpy step per token (the usual straightforward implementation)."""
    score = start + lp[0]
    back = []
    for t in range(1, len(lp)):
        cand = score[:, None] + trans
        back.append(cand.argmax(0))
        score = cand.max(0) + lp[t]
    best = int((score + end).argmax())
    path = [best]
    for bp in reversed(back):
        best = int(bp[best])
        path.append(best)
    return path[::-1]


class NaiveDetector:
    """Baseline: tokenizer overflow windows + per-window numpy Viterbi + Python span loops."""

    def __init__(self, det) -> None:
        from tokenizers import Tokenizer

        self.session = det.model.session
        self.names = det.model.input_names
        self.tok = Tokenizer.from_file(str(det.model.path / "tokenizer.json"))
        self.tok.enable_truncation(max_length=128, stride=16)
        self.labels = det.model.scheme.labels
        self.trans, self.start, self.end = det._trans, det._start, det._end

    def detect(self, text: str, timings: dict) -> list[tuple[int, int, str, float]]:
        enc = self.tok.encode(text)
        encs = [enc] + list(enc.overflowing)
        spans = []
        ort = dec = dec_cpu = 0.0
        for i in range(0, len(encs), 16):
            chunk = encs[i:i + 16]
            width = max(len(e.ids) for e in chunk)
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            for r, e in enumerate(chunk):
                ids[r, :len(e.ids)] = e.ids
                mask[r, :len(e.ids)] = 1
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            t = time.perf_counter()
            logits = self.session.run(None, {k: v for k, v in feed.items() if k in self.names})[0]
            t1, c1 = time.perf_counter(), time.process_time()
            ort += t1 - t
            for r, e in enumerate(chunk):
                spans.extend(self._decode_window(logits[r, :len(e.ids)], e))
            dec += time.perf_counter() - t1
            dec_cpu += time.process_time() - c1
        t, c = time.perf_counter(), time.process_time()
        # overlapping windows report the same entity twice: keep the best of overlapping spans
        spans.sort(key=lambda s: (-s[3], s[0]))
        kept = []
        for s in spans:
            if all(s[1] <= k[0] or k[1] <= s[0] for k in kept):
                kept.append(s)
        kept.sort()
        dec += time.perf_counter() - t
        dec_cpu += time.process_time() - c
        timings.update(ort=ort, decode=dec, decode_cpu=dec_cpu, windows=len(encs))
        return kept

    def _decode_window(self, logits: np.ndarray, e) -> list:
        x = logits - logits.max(-1, keepdims=True)
        lp = x - np.log(np.exp(x).sum(-1, keepdims=True))
        path = naive_viterbi(lp, self.trans, self.start, self.end)
        out, cur = [], None
        for t, tag in enumerate(path):
            if e.special_tokens_mask[t]:
                continue
            lab = self.labels[tag]
            p = float(np.exp(lp[t, tag]))
            s, f = e.offsets[t]
            if lab == "O":
                cur = None
            elif lab[0] == "S":
                out.append((s, f, lab[2:], p))
                cur = None
            elif lab[0] == "B":
                cur = [s, f, lab[2:], [p]]
            elif cur is not None and cur[2] == lab[2:]:
                cur[1] = f
                cur[3].append(p)
                if lab[0] == "E":
                    out.append((cur[0], cur[1], cur[2], sum(cur[3]) / len(cur[3])))
                    cur = None
        return out


def measure_naive(det, text: str, reps: int = 1) -> dict:
    """The naive baseline, ``reps`` runs; the minimum of each timing (as the engine's ``decode``) and the
    median (``*_median``, to compare with the engine's median over as many runs)."""
    naive = NaiveDetector(det)
    runs = []
    for _ in range(reps):
        timings: dict = {}
        t = time.perf_counter()
        naive.detect(text, timings)
        timings["e2e"] = time.perf_counter() - t
        runs.append(timings)
    out = {k: min(r[k] for r in runs) for k in runs[0]}
    out.update({f"{k}_median": statistics.median(r[k] for r in runs) for k in ("decode", "decode_cpu", "e2e", "ort")})
    out["reps"] = reps
    return out


# ---------------------------------------------------------------------------------------------- subprocesses
_RSS_CHILD = r"""
import resource, sys, time
sys.path.insert(0, {root!r})
from veil_desktop.detect.engine import ModelDetector
sys.path.insert(0, {bench!r})
from bench_detect import korean_text, use_viterbi
use_viterbi({viterbi!r})
text = korean_text({n})
if {default!r}:
    from veil_desktop.detect.default import build_default_detector
    det = build_default_detector(threads={threads})
else:
    det = ModelDetector({folder!r}, threads={threads})
t = time.perf_counter()
spans = det.detect(text)
dt = time.perf_counter() - t
from veil_desktop.detect import viterbi
print("RESULT", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, dt, len(spans), len(text), viterbi.kernel_name())
"""

_START_CHILD = r"""
import sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {bench!r})
from bench_detect import use_viterbi
use_viterbi({viterbi!r})
if {default!r}:
    from veil_desktop.detect.default import build_default_detector
    det = build_default_detector(threads={threads})
else:
    from veil_desktop.detect.engine import ModelDetector
    det = ModelDetector({folder!r}, threads={threads})
spans = det.detect("안녕하세요. 저는 서울특별시 강남구 테헤란로 152에 사는 김민준입니다. 연락은 한빛은행 본점으로 주세요.")
print("FIRST", len(spans), flush=True)
"""


def peak_rss(folder: Path, n: int, threads: int, default: bool = False, viterbi: str = "jit") -> dict:
    code = _RSS_CHILD.format(root=str(ROOT), bench=str(Path(__file__).parent), n=n, folder=str(folder),
                             threads=threads, default=default, viterbi=viterbi)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=3600)
    line = next((x for x in r.stdout.splitlines() if x.startswith("RESULT")), None)
    if line is None:
        raise RuntimeError(r.stderr[-2000:])
    _, kb, dt, n_spans, n_chars, kern = line.split()
    return {"peak_rss_mb": int(kb) / 1024, "seconds": float(dt), "chars": int(n_chars), "spans": int(n_spans),
            "viterbi": kern}


def start_to_first(folder: Path, threads: int, runs: int = 3, default: bool = False,
                   viterbi: str = "jit") -> list[float]:
    """Seconds from spawning a fresh interpreter to its first detection result on stdout."""
    code = _START_CHILD.format(root=str(ROOT), bench=str(Path(__file__).parent), folder=str(folder),
                               threads=threads, default=default, viterbi=viterbi)
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        line = p.stdout.readline()
        dt = time.perf_counter() - t
        _, err = p.communicate(timeout=600)
        if not line.startswith("FIRST"):
            raise RuntimeError(err[-2000:])
        out.append(dt)
    return out


def ort_grid(folders: dict[str, Path], runs: int = 8) -> list[dict]:
    """Pure ``session.run`` per 128-token window (batch 16 x 128), FP32/INT8 x 1/2 threads: wall and CPU."""
    import onnxruntime as ort

    from veil_desktop.detect.model_folder import find_onnx

    rng = np.random.default_rng(0)
    ids = rng.integers(5, 35000, (16, 128)).astype(np.int64)
    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
    rows = []
    for name, folder in folders.items():
        for threads in (1, 2):
            so = ort.SessionOptions()
            so.intra_op_num_threads = threads
            so.inter_op_num_threads = 1
            s = ort.InferenceSession(str(find_onnx(folder)), so, providers=["CPUExecutionProvider"])
            s.run(None, feed)
            t, c = time.perf_counter(), time.process_time()
            for _ in range(runs):
                s.run(None, feed)
            rows.append({"model": name, "threads": threads,
                         "wall_ms_per_window": (time.perf_counter() - t) / runs / 16 * 1000,
                         "cpu_ms_per_window": (time.process_time() - c) / runs / 16 * 1000})
    return rows


# ---------------------------------------------------------------------------------------------- main
def machine() -> str:
    try:
        import onnxruntime as ort

        ort_v = ort.__version__
    except Exception:
        ort_v = "?"
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}, onnxruntime {ort_v}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--int8-sizes", default="10000,100000,200000")
    ap.add_argument("--rss-chars", type=int, default=1_000_000)
    ap.add_argument("--worst-size", type=int, default=200_000)
    ap.add_argument("--engine-sizes", default="5000,50000",
                    help="--detector default: sizes for the engine-alone / naive-decode table ('' to skip)")
    ap.add_argument("--naive-equal", action="store_true",
                    help="run the naive baseline as often as the engine's decode (max(reps, 3)) and also print "
                         "the median ÷ median decode speed-up")
    ap.add_argument("--skip", default="", help="comma list of: naive,worst,gil,int8,rss,start")
    ap.add_argument("--ort-grid", action="store_true", help="also time bare session.run, FP32/INT8 x 1/2 threads")
    ap.add_argument("--out", default=None, help="JSON results (default .bench-cache/results[-default].json)")
    ap.add_argument("--detector", choices=("twin", "default"), default="twin",
                    help="twin = the random-weight twin of veil-pii-ko-small-3, engine alone (the historical "
                         "tables); default = what users get: the embedded compact model + rule stage "
                         "(build_default_detector), measured end to end against its own session.run")
    ap.add_argument("--default-repeat", type=int, default=5,
                    help="--detector default: interleaved rounds per size (e2e, engine, ORT each once a round)")
    ap.add_argument("--viterbi", choices=("jit", "aot", "numpy"), default="jit",
                    help="Viterbi kernel: jit (source checkout), aot (what the bundle ships; needs build/aot/), "
                         "numpy")
    args = ap.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    sizes = [int(x) for x in args.sizes.split(",") if x]
    default = args.detector == "default"
    if args.out is None:
        args.out = str(CACHE / ("results-default.json" if default else "results.json"))
    use_viterbi(args.viterbi)

    from veil_desktop.detect import viterbi
    from veil_desktop.detect.engine import ModelDetector

    print(f"# machine: {machine()}")
    results: dict = {"machine": machine(), "threads": args.threads, "sizes": {}, "command": " ".join(sys.argv),
                     "detector": args.detector}
    if default:
        from veil_desktop.detect.default import build_default_detector

        full = build_default_detector(threads=args.threads)
        det = full.model
        folder = det.model.path
        results["viterbi"] = viterbi.warm_up()
        print(f"# detector: {full.id} (default: embedded {folder.name} + rule stage); threads={args.threads}; "
              f"viterbi backend: {results['viterbi']}")
        full.detect(korean_text(5_000))  # warm-up outside the timings
        skip |= {"worst", "int8", "gil"}  # twin-only (the window's responsiveness: benchmarks/bench_ui.py)
    else:
        folder = build_twin()
        twin_info = json.loads((folder / "TWIN.json").read_text())
        results["viterbi"] = viterbi.warm_up()
        print(f"# twin: {folder} ({twin_info['parameters'] / 1e6:.2f}M parameters, "
              f"{(folder / 'model.fp32.onnx').stat().st_size / 1e6:.1f} MB ONNX); threads={args.threads}; "
              f"viterbi backend: {results['viterbi']}")
        det = ModelDetector(folder, threads=args.threads)
    det.warm_up()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    results["load_before"] = load
    print(f"# load average before the run: {load:.2f}")
    if default:
        results["default"] = {}
        print(f"\n## default detector end to end vs its own session.run ({args.default_repeat} interleaved rounds; "
              "median (min–max) seconds; ratios: median ÷ median (min–max of per-round ratios))")
        print("| chars | tokens | windows | spans | e2e s | engine alone s | session.run s (main-pass batches) | "
              "session.run inside e2e s | e2e ÷ session.run | engine ÷ session.run | e2e ÷ engine | "
              "e2e CPU ÷ session.run CPU | e2e chars/s |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for n in sizes:
            r = measure_default(full, korean_text(n), args.default_repeat)
            results["default"][n] = r
            print_default(n, r)
        results["load_after_default"] = os.getloadavg()[0]
        print(f"# load average after the default-detector table: {results['load_after_default']:.2f}")
        sizes = [int(x) for x in args.engine_sizes.split(",") if x]
        if sizes:
            print(f"\n## engine alone ({folder.name}, no rule stage), e2e vs ORT min of each (historical method) "
                  "+ median ÷ median, and decode vs the naive baseline")
    if sizes:
        print("\n| chars | tokens | windows | spans | e2e s | ORT s | e2e/ORT (min ÷ min) | e2e/ORT median ÷ median "
          "(per-round min–max) | rest s (replay) | rest % of ORT |"
          " naive e2e s | naive ORT s | naive e2e/ORT | decode ms | naive decode ms | decode speed-up |"
          " rest CPU ms | decode CPU ms | naive decode CPU ms | CPU speed-up |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        text = korean_text(n)
        reps = 5 if n <= 10_000 else (3 if n <= 50_000 else 2)
        r = measure_engine(det, text, reps)
        nv = measure_naive(det, text, max(reps, 3) if args.naive_equal else 1) if "naive" not in skip else {}
        r["naive"] = nv
        results["sizes"][n] = r
        nd = nv.get("decode")
        print(f"| {n:,} | {r['tokens']:,} | {r['windows']} | {r['spans']:,} | {r['e2e']:.3f} | {r['ort']:.3f} | "
              f"{r['e2e'] / r['ort']:.3f} | {r['ratio_median']:.3f} ({r['ratio_pair_min']:.3f}–{r['ratio_pair_max']:.3f}) | "
              f"{r['rest']:.4f} | {100 * r['rest'] / r['ort']:.1f} | "
              + (f"{nv['e2e']:.3f} | {nv['ort']:.3f} | {nv['e2e'] / nv['ort']:.3f} | " if nv else "– | – | – | ")
              + f"{1000 * r['decode']:.1f} | " + (f"{1000 * nd:.1f} | {nd / r['decode']:.0f}× |" if nv else "– | – |")
              + f" {1000 * r['rest_cpu']:.1f} | {1000 * r['decode_cpu']:.1f} | "
              + (f"{1000 * nv['decode_cpu']:.1f} | {nv['decode_cpu'] / r['decode_cpu']:.0f}× |" if nv else "– | – |"),
              flush=True)
        if nv and args.naive_equal:
            print(f"|   ↳ medians over {nv['reps']} runs each: decode {1000 * r['decode_median']:.1f} ms vs naive "
                  f"{1000 * nv['decode_median']:.1f} ms = {nv['decode_median'] / r['decode_median']:.0f}× wall; CPU "
                  f"{1000 * r['decode_cpu_median']:.1f} vs {1000 * nv['decode_cpu_median']:.1f} ms = "
                  f"{nv['decode_cpu_median'] / r['decode_cpu_median']:.0f}× |", flush=True)

    if "worst" not in skip and args.worst_size:
        # the unbiased random twin: ~60% of tokens in entities, the worst case for span handling
        worst = ModelDetector(folder, model=det.model, o_bias=O_BIAS)
        text = korean_text(args.worst_size)
        r = measure_engine(worst, text, 1)
        results["worst_case"] = r
        print(f"\nworst case (unbiased random classifier), {args.worst_size:,} chars: {r['spans']:,} spans, "
              f"e2e {r['e2e']:.3f} s, ORT {r['ort']:.3f} s, e2e/ORT {r['e2e'] / r['ort']:.3f}, "
              f"rest {r['rest']:.3f} s = {100 * r['rest'] / r['ort']:.1f}% of ORT, decode {1000 * r['decode']:.0f} ms",
              flush=True)

    if "gil" not in skip:
        g = gil_gaps(det, korean_text(200_000))
        results["gil"] = g
        print(f"\nmain-thread responsiveness while a 200,000-character stream runs on a worker thread: largest "
              f"gap between 5 ms ticks {g['max_gap_ms']:.0f} ms (median {g['median_gap_ms']:.1f} ms)", flush=True)

    if "int8" not in skip:
        int8 = ModelDetector(build_int8(folder), threads=args.threads)
        int8.warm_up()
        print("\n| chars | FP32 e2e s | INT8 e2e s | e2e speed-up | FP32 ORT s | INT8 ORT s | ORT speed-up |")
        print("|---|---|---|---|---|---|---|")
        results["int8"] = {}
        for n in [int(x) for x in args.int8_sizes.split(",") if x]:
            text = korean_text(n)
            reps = 3 if n <= 10_000 else 1
            a = results["sizes"].get(n) or measure_engine(det, text, reps)
            b = measure_engine(int8, text, reps)
            results["int8"][n] = b
            print(f"| {n:,} | {a['e2e']:.3f} | {b['e2e']:.3f} | {a['e2e'] / b['e2e']:.2f}× | {a['ort']:.3f} | "
                  f"{b['ort']:.3f} | {a['ort'] / b['ort']:.2f}× |", flush=True)

    if args.ort_grid:
        grid = ort_grid({"FP32": folder, "INT8": build_int8(folder)})
        results["ort_grid"] = grid
        print("\n| model | threads | ms per 128-token window (wall) | CPU ms per window |\n|---|---|---|---|")
        for g in grid:
            print(f"| {g['model']} | {g['threads']} | {g['wall_ms_per_window']:.1f} | {g['cpu_ms_per_window']:.1f} |")

    if "start" not in skip:
        times = start_to_first(folder, args.threads, default=default, viterbi=args.viterbi)
        results["start_to_first"] = times
        print(f"\nprocess start → first result ({'default detector' if default else 'twin engine alone'}, "
              f"viterbi {args.viterbi}, fresh interpreter, numba cache warm after run 1): "
              + ", ".join(f"{t:.2f} s" for t in times))

    if "rss" not in skip:
        rss = peak_rss(folder, args.rss_chars, args.threads, default=default, viterbi=args.viterbi)
        results["rss"] = rss
        print(f"\npeak RSS, {rss['chars']:,} characters, "
              f"{'default detector (model + rules)' if default else 'twin engine alone'}, no window, fresh "
              f"process: {rss['peak_rss_mb']:.0f} MB (detect took {rss['seconds']:.1f} s, {rss['spans']:,} spans, "
              f"viterbi {rss['viterbi']}, load average now {os.getloadavg()[0]:.2f})")

    results["load_after"] = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    print(f"# load average after the run: {results['load_after']:.2f}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2), encoding="utf-8")
    print(f"\n# results written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
