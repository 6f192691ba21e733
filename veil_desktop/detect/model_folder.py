"""Load and validate a Hugging Face-layout token-classification model folder (the veil model family).

A folder holds ``config.json`` (with ``id2label``), a tokenizer (``tokenizer.json``, or ``vocab.txt`` +
``tokenizer_config.json`` for a WordPiece/Electra tokenizer) and an ONNX file (``model.fp32.onnx`` by
default, or the one the user names). Anything else in it (``*.py`` helpers, safetensors, READMEs) is ignored:
a model folder is *data*, nothing in it is ever imported or executed.

Every problem is reported as one :class:`ModelFolderError` whose message names the folder, the file and
what is wrong with it, so the CLI and the UI can show it as is.

Threading: :func:`load_model_folder` builds the onnxruntime session, which holds the GIL for its duration
(onnxruntime#27063); call it once, preferably off the GUI thread. The returned :class:`ModelFolder` is
immutable; its session's ``run`` is thread-safe and releases the GIL.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

#: ONNX file names tried, in order, when the caller names none.
DEFAULT_ONNX_NAMES: tuple[str, ...] = ("model.fp32.onnx", "model.onnx")
#: Inputs this tool knows how to feed. A graph declaring anything else is refused.
KNOWN_INPUTS: tuple[str, ...] = ("input_ids", "attention_mask", "token_type_ids")
#: Refuse absurd files before reading them (a model folder comes from outside).
MAX_CONFIG_BYTES = 4 * 1024 * 1024
MAX_TOKENIZER_BYTES = 256 * 1024 * 1024
MAX_ONNX_BYTES = 2 * 1024 * 1024 * 1024
#: The 3-token probe run must finish within this many seconds (the real model needs milliseconds); a
#: graph that loops or computes far more is stopped (onnxruntime ``RunOptions.terminate``) and refused.
PROBE_SECONDS = 20.0

_BIOES = re.compile(r"^([BIES])-(.+)$")


class ModelFolderError(Exception):
    """A model folder cannot be used; ``str(error)`` is a complete English sentence (CLI, logs).

    ``code`` names the kind of problem and ``fields`` its arguments (``folder``, ``file``) so that the
    window can say it in its own language (``ui/i18n.model_error_text``) without parsing the English."""

    def __init__(self, message: str, *, code: str = "invalid", **fields: str) -> None:
        super().__init__(message)
        self.code = code
        self.fields = fields


@dataclass(frozen=True)
class LabelScheme:
    """A validated BIOES label set: ``labels[i]`` is the tag of logit ``i``.

    ``kinds[i]`` is 0 for ``O`` and 1..4 for B/I/E/S; ``types[i]`` indexes ``entity_types`` (-1 for ``O``).
    """

    labels: tuple[str, ...]
    entity_types: tuple[str, ...]
    kinds: np.ndarray = field(repr=False)
    types: np.ndarray = field(repr=False)
    o_index: int = 0

    KIND_O, KIND_B, KIND_I, KIND_E, KIND_S = 0, 1, 2, 3, 4

    @classmethod
    def from_labels(cls, labels: list[str] | tuple[str, ...], *, where: str = "config.json") -> "LabelScheme":
        labels = tuple(labels)
        if "O" not in labels:
            raise ModelFolderError(f"{where}: id2label has no 'O' label, so it is not a BIOES label set "
                                   f"(labels: {', '.join(labels)})", code="bad_labels", file=Path(where).name)
        if labels.count("O") != 1 or len(set(labels)) != len(labels):
            raise ModelFolderError(f"{where}: id2label repeats a label (labels: {', '.join(labels)})",
                                   code="bad_labels", file=Path(where).name)
        types: list[str] = []
        seen: dict[str, set[str]] = {}
        kinds = np.zeros(len(labels), dtype=np.int8)
        tix = np.full(len(labels), -1, dtype=np.int16)
        for i, lab in enumerate(labels):
            if lab == "O":
                continue
            m = _BIOES.match(lab)
            if not m:
                raise ModelFolderError(f"{where}: label {lab!r} (id {i}) is not a BIOES tag "
                                       f"(expected O, B-X, I-X, E-X or S-X)", code="bad_labels", file=Path(where).name)
            prefix, typ = m.groups()
            if typ not in seen:
                seen[typ] = set()
                types.append(typ)
            seen[typ].add(prefix)
            kinds[i] = "OBIES".index(prefix)
            tix[i] = types.index(typ)
        for typ, prefixes in seen.items():
            missing = [p for p in "BIES" if p not in prefixes]
            if missing:
                raise ModelFolderError(f"{where}: entity type {typ} lacks the BIOES tag(s) "
                                       f"{', '.join(p + '-' + typ for p in missing)}",
                                       code="bad_labels", file=Path(where).name)
        if not types:
            raise ModelFolderError(f"{where}: id2label has only 'O'; there is nothing to detect",
                                   code="bad_labels", file=Path(where).name)
        return cls(labels, tuple(types), kinds, tix, labels.index("O"))


@dataclass(frozen=True)
class ModelFolder:
    """A loaded model folder. Immutable; safe to share between threads."""

    path: Path
    onnx_path: Path
    scheme: LabelScheme
    tokenizer: Any  # tokenizers.Tokenizer (truncation and padding disabled)
    session: Any  # onnxruntime.InferenceSession
    input_names: tuple[str, ...]
    input_dtypes: tuple[Any, ...]  # numpy dtype per input, as the graph declares it
    cls_id: int
    sep_id: int
    pad_id: int
    threads: int

    @property
    def labels(self) -> tuple[str, ...]:
        return self.scheme.labels


def _read_json(path: Path, folder: Path) -> dict:
    try:
        size = path.stat().st_size
    except OSError as e:
        raise ModelFolderError(f"model folder {folder}: cannot read {path.name}: {e.strerror or e}",
                               code="unreadable", folder=str(folder), file=path.name) from None
    if size > MAX_CONFIG_BYTES:
        raise ModelFolderError(f"model folder {folder}: {path.name} is {size} bytes, far too large for a "
                               f"configuration file", code="too_large", folder=str(folder), file=path.name)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ModelFolderError(f"model folder {folder}: {path.name} is not valid UTF-8 JSON ({e})",
                               code="bad_json", folder=str(folder), file=path.name) from None
    except RecursionError:  # e.g. [[[[…]]]] nested deeper than Python's parser goes
        raise ModelFolderError(f"model folder {folder}: {path.name} is nested far too deeply to be a "
                               f"configuration file", code="bad_json", folder=str(folder), file=path.name) from None
    if not isinstance(data, dict):
        raise ModelFolderError(f"model folder {folder}: {path.name} must hold a JSON object",
                               code="bad_json", folder=str(folder), file=path.name)
    return data


def read_labels(folder: Path) -> LabelScheme:
    """``config.json`` ``id2label`` as a validated :class:`LabelScheme`."""
    cfg_path = folder / "config.json"
    if not cfg_path.is_file():
        raise ModelFolderError(f"model folder {folder} is incomplete: config.json is missing",
                               code="incomplete", folder=str(folder), file="config.json")
    cfg = _read_json(cfg_path, folder)
    id2label = cfg.get("id2label")
    if not isinstance(id2label, dict) or not id2label:
        raise ModelFolderError(f"model folder {folder}: config.json has no id2label mapping",
                               code="bad_labels", folder=str(folder), file="config.json")
    try:
        by_id = {int(k): v for k, v in id2label.items()}
    except (TypeError, ValueError):
        raise ModelFolderError(f"model folder {folder}: config.json id2label keys must be integers",
                               code="bad_labels", folder=str(folder), file="config.json") from None
    if sorted(by_id) != list(range(len(by_id))) or not all(isinstance(v, str) for v in by_id.values()):
        raise ModelFolderError(f"model folder {folder}: config.json id2label must map ids 0..{len(by_id) - 1} "
                               f"to label names without gaps",
                               code="bad_labels", folder=str(folder), file="config.json")
    return LabelScheme.from_labels([by_id[i] for i in range(len(by_id))], where=f"{folder / 'config.json'}")


def _special_token_name(folder: Path, key: str, default: str) -> str:
    for name in ("special_tokens_map.json", "tokenizer_config.json"):
        p = folder / name
        if p.is_file():
            try:
                value = _read_json(p, folder).get(key)
            except ModelFolderError:
                continue
            if isinstance(value, dict):
                value = value.get("content")
            if isinstance(value, str) and value:
                return value
    return default


def load_tokenizer(folder: Path):
    """The folder's tokenizer as a ``tokenizers.Tokenizer`` with truncation and padding disabled.

    ``tokenizer.json`` wins; otherwise ``vocab.txt`` is read as an Electra/BERT WordPiece vocabulary with
    the casing from ``tokenizer_config.json`` (``do_lower_case``, default false, as the veil models use).
    """
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    tj = folder / "tokenizer.json"
    vocab = folder / "vocab.txt"
    if tj.is_file():
        size = tj.stat().st_size
        if size > MAX_TOKENIZER_BYTES:
            raise ModelFolderError(f"model folder {folder}: tokenizer.json is {size} bytes, too large",
                                   code="too_large", folder=str(folder), file="tokenizer.json")
        try:
            tok = Tokenizer.from_file(str(tj))
        except Exception as e:  # the Rust side raises a plain Exception for any parse error
            raise ModelFolderError(f"model folder {folder}: tokenizer.json cannot be read by the tokenizers "
                                   f"library ({e})",
                                   code="bad_tokenizer", folder=str(folder), file="tokenizer.json") from None
    elif vocab.is_file():
        size = vocab.stat().st_size
        if size > MAX_TOKENIZER_BYTES:
            raise ModelFolderError(f"model folder {folder}: vocab.txt is {size} bytes, too large",
                                   code="too_large", folder=str(folder), file="vocab.txt")
        cfg = _read_json(folder / "tokenizer_config.json", folder) if (folder / "tokenizer_config.json").is_file() else {}
        lower = bool(cfg.get("do_lower_case", False))
        strip = cfg.get("strip_accents")
        unk = _special_token_name(folder, "unk_token", "[UNK]")
        try:
            lines = vocab.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise ModelFolderError(f"model folder {folder}: vocab.txt is not readable UTF-8 text ({e})",
                                   code="bad_tokenizer", folder=str(folder), file="vocab.txt") from None
        # BERT vocab: the line number is the id (a duplicate line keeps its first id)
        ids: dict[str, int] = {}
        for i, line in enumerate(lines):
            ids.setdefault(line.rstrip("\r\n"), i)
        if unk not in ids:
            raise ModelFolderError(f"model folder {folder}: vocab.txt has no unknown token {unk!r}",
                                   code="bad_tokenizer", folder=str(folder), file="vocab.txt")
        tok = Tokenizer(models.WordPiece(ids, unk_token=unk, max_input_chars_per_word=100))
        tok.normalizer = normalizers.BertNormalizer(
            clean_text=True, handle_chinese_chars=bool(cfg.get("tokenize_chinese_chars", True)),
            strip_accents=strip if isinstance(strip, bool) else None, lowercase=lower)
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    else:
        raise ModelFolderError(f"model folder {folder} is incomplete: it has neither tokenizer.json nor vocab.txt",
                               code="no_tokenizer", folder=str(folder))
    tok.no_truncation()
    tok.no_padding()
    return tok


def _token_id(tok, folder: Path, key: str, default: str, *, required: bool) -> int | None:
    name = _special_token_name(folder, key, default)
    tid = tok.token_to_id(name)
    if tid is None and name != default:
        tid = tok.token_to_id(default)
    if tid is None and required:
        raise ModelFolderError(f"model folder {folder}: the tokenizer has no {key.replace('_', ' ')} "
                               f"{name!r}; the model expects [CLS] … [SEP] windows",
                               code="bad_tokenizer", folder=str(folder), file="tokenizer")
    return tid


def find_onnx(folder: Path, onnx_file: str | os.PathLike | None = None) -> Path:
    """The ONNX file to run: ``onnx_file`` (relative to the folder or absolute), else ``model.fp32.onnx``,
    ``model.onnx`` (in the folder, then in its ``onnx/`` subfolder), else the only ``*.onnx`` there."""
    if onnx_file is not None:
        p = Path(onnx_file)
        if not p.is_absolute():
            p = folder / p
        if not p.is_file():
            raise ModelFolderError(f"model folder {folder}: ONNX file {p.name} does not exist",
                                   code="missing_file", folder=str(folder), file=p.name)
        return p
    # Hub folders sometimes keep their ONNX files in an onnx/ subfolder
    for sub in (folder, folder / "onnx"):
        for name in DEFAULT_ONNX_NAMES:
            if (sub / name).is_file():
                return sub / name
    found = sorted(folder.glob("*.onnx")) or sorted(folder.glob("onnx/*.onnx"))
    if len(found) == 1:
        return found[0]
    if not found:
        raise ModelFolderError(f"model folder {folder} is incomplete: no ONNX file (expected model.fp32.onnx)",
                               code="no_onnx", folder=str(folder))
    raise ModelFolderError(f"model folder {folder} has several ONNX files "
                           f"({', '.join(str(p.relative_to(folder)) for p in found)}) and none is "
                           f"model.fp32.onnx; name the one to use", code="several_onnx", folder=str(folder))


def default_threads() -> int:
    """Physical cores when psutil can tell, else logical cores; at least 1."""
    try:
        import psutil

        n = psutil.cpu_count(logical=False)
    except Exception:  # psutil is optional at run time
        n = None
    return max(1, n or os.cpu_count() or 1)


_ORT_DTYPES = {"tensor(int64)": np.int64, "tensor(int32)": np.int32}


def load_model_folder(folder: str | os.PathLike, *, onnx_file: str | os.PathLike | None = None,
                      threads: int | None = None) -> ModelFolder:
    """Validate ``folder`` and build its tokenizer and onnxruntime session.

    Checks: folder exists; ``config.json`` ``id2label`` is a BIOES set; a tokenizer is present and readable
    with ``[CLS]``/``[SEP]``; the ONNX file parses, declares only inputs we can feed (int64/int32
    ``[batch, seq]``) including ``input_ids``, and its logits width (output 0, probed with a real run)
    equals the number of labels.
    """
    import onnxruntime as ort

    folder = Path(folder)
    if not folder.exists():
        raise ModelFolderError(f"model folder {folder} does not exist", code="missing", folder=str(folder))
    if not folder.is_dir():
        raise ModelFolderError(f"{folder} is not a folder; pass the model folder (with config.json, the "
                               f"tokenizer and the .onnx file)", code="not_folder", folder=str(folder))
    scheme = read_labels(folder)
    tok = load_tokenizer(folder)
    cls_id = _token_id(tok, folder, "cls_token", "[CLS]", required=True)
    sep_id = _token_id(tok, folder, "sep_token", "[SEP]", required=True)
    pad_id = _token_id(tok, folder, "pad_token", "[PAD]", required=False)
    onnx_path = find_onnx(folder, onnx_file)
    size = onnx_path.stat().st_size
    if size == 0 or size > MAX_ONNX_BYTES:
        raise ModelFolderError(f"model folder {folder}: {onnx_path.name} is {size} bytes; that is not a "
                               f"usable ONNX model", code="bad_onnx", folder=str(folder), file=onnx_path.name)

    n_threads = int(threads) if threads else default_threads()
    so = ort.SessionOptions()
    so.intra_op_num_threads = n_threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(onnx_path), sess_options=so, providers=["CPUExecutionProvider"])
    except Exception as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ModelFolderError(f"model folder {folder}: {onnx_path.name} is not a loadable ONNX model "
                               f"(corrupt or unsupported): {first[:300]}",
                               code="bad_onnx", folder=str(folder), file=onnx_path.name) from None

    names, dtypes = [], []
    for inp in session.get_inputs():
        if inp.name not in KNOWN_INPUTS:
            raise ModelFolderError(f"model folder {folder}: {onnx_path.name} needs input {inp.name!r}; only "
                                   f"{', '.join(KNOWN_INPUTS)} can be fed",
                                   code="bad_onnx", folder=str(folder), file=onnx_path.name)
        if inp.type not in _ORT_DTYPES:
            raise ModelFolderError(f"model folder {folder}: {onnx_path.name} input {inp.name} has type "
                                   f"{inp.type}; expected int64 token ids",
                                   code="bad_onnx", folder=str(folder), file=onnx_path.name)
        if len(inp.shape) != 2:
            raise ModelFolderError(f"model folder {folder}: {onnx_path.name} input {inp.name} has shape "
                                   f"{inp.shape}; expected [batch, seq]",
                                   code="bad_onnx", folder=str(folder), file=onnx_path.name)
        names.append(inp.name)
        dtypes.append(_ORT_DTYPES[inp.type])
    if "input_ids" not in names:
        raise ModelFolderError(f"model folder {folder}: {onnx_path.name} has no input_ids input",
                               code="bad_onnx", folder=str(folder), file=onnx_path.name)

    n_labels = len(scheme.labels)
    out_shape = session.get_outputs()[0].shape
    if len(out_shape) != 3:
        raise ModelFolderError(f"model folder {folder}: {onnx_path.name} output 0 has shape {out_shape}; "
                               f"expected logits [batch, seq, {n_labels}]",
                               code="bad_onnx", folder=str(folder), file=onnx_path.name)
    if isinstance(out_shape[2], int) and out_shape[2] != n_labels:
        raise ModelFolderError(f"model folder {folder}: {onnx_path.name} produces {out_shape[2]} logits per "
                               f"token but config.json id2label has {n_labels} labels",
                               code="bad_onnx", folder=str(folder), file=onnx_path.name)
    vocab_size = tok.get_vocab_size(with_added_tokens=True)
    # Probe with a real 3-token run: catches dynamic widths and graphs that fail at run time, and warms
    # the session up (first run allocates the arena).
    probe_ids = np.array([[cls_id, min(5, vocab_size - 1), sep_id]], dtype=np.int64)
    feed = {}
    for name, dt in zip(names, dtypes):
        if name == "input_ids":
            feed[name] = probe_ids.astype(dt)
        elif name == "attention_mask":
            feed[name] = np.ones_like(probe_ids, dtype=dt)
        else:
            feed[name] = np.zeros_like(probe_ids, dtype=dt)
    import threading

    run_options = ort.RunOptions()
    timed_out = threading.Event()

    def stop() -> None:
        timed_out.set()
        run_options.terminate = True

    timer = threading.Timer(PROBE_SECONDS, stop)
    timer.daemon = True
    timer.start()
    try:
        out = session.run(None, feed, run_options)[0]
    except Exception as e:
        if timed_out.is_set():
            raise ModelFolderError(
                f"model folder {folder}: {onnx_path.name} did not finish a 3-token test run within "
                f"{PROBE_SECONDS:g} s (a token classifier needs milliseconds); the graph loops or computes far "
                f"more than a tagger would, so it is refused",
                code="bad_onnx", folder=str(folder), file=onnx_path.name) from None
        raise ModelFolderError(f"model folder {folder}: {onnx_path.name} fails on a 3-token input "
                               f"({str(e).splitlines()[0][:300] if str(e) else type(e).__name__})",
                               code="bad_onnx", folder=str(folder), file=onnx_path.name) from None
    finally:
        timer.cancel()
    if out.ndim != 3 or out.shape[:2] != (1, 3) or out.shape[2] != n_labels:
        raise ModelFolderError(f"model folder {folder}: {onnx_path.name} produces logits of shape "
                               f"{list(out.shape)} for a 3-token input; config.json id2label has {n_labels} "
                               f"labels, so expected [1, 3, {n_labels}]",
                               code="bad_onnx", folder=str(folder), file=onnx_path.name)
    return ModelFolder(folder, onnx_path, scheme, tok, session, tuple(names), tuple(dtypes),
                       int(cls_id), int(sep_id), int(pad_id if pad_id is not None else 0), n_threads)
