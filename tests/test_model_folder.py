"""Loading and validating model folders: every error case names its problem; nothing is executed."""
import json
import shutil

import numpy as np
import pytest

from veil_desktop.detect.model_folder import (LabelScheme, ModelFolderError, load_model_folder,
                                              load_tokenizer)
from tests.fixtures.tiny_model import BIOES_LABELS, build_tiny_model

SMALL_ALPHABET = list("김철수가나다서울시에는은이")


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    return build_tiny_model(tmp_path_factory.mktemp("good") / "m", entities={"김철수": "PERSON"},
                            alphabet=SMALL_ALPHABET, tokenizer="both")


def _copy(good, tmp_path):
    dst = tmp_path / "copy"
    shutil.copytree(good, dst)
    return dst


def test_loads_a_good_folder(good):
    m = load_model_folder(good, threads=1)
    assert m.labels == BIOES_LABELS
    assert m.scheme.entity_types == ("PERSON", "ADDRESS", "ORGANIZATION")
    assert m.input_names == ("input_ids", "attention_mask", "token_type_ids")
    assert m.onnx_path.name == "model.fp32.onnx" and m.threads == 1
    assert (m.cls_id, m.sep_id, m.pad_id) == (2, 3, 0)


def test_any_bioes_label_set_is_accepted(tmp_path):
    labels = ["B-NAME", "I-NAME", "E-NAME", "S-NAME", "O"]
    m = load_model_folder(build_tiny_model(tmp_path / "m", labels=labels, alphabet=SMALL_ALPHABET), threads=1)
    assert m.scheme.entity_types == ("NAME",) and m.scheme.o_index == 4
    assert list(m.scheme.kinds) == [1, 2, 3, 4, 0]


def _error(folder, **kw) -> str:
    with pytest.raises(ModelFolderError) as ei:
        load_model_folder(folder, threads=1, **kw)
    return str(ei.value)


def test_missing_or_not_a_folder(tmp_path):
    assert "does not exist" in _error(tmp_path / "nope")
    f = tmp_path / "file.onnx"
    f.write_bytes(b"x")
    assert "is not a folder" in _error(f)


@pytest.mark.parametrize("remove,needle", [
    ("config.json", "config.json is missing"),
    ("model.fp32.onnx", "no ONNX file"),
])
def test_incomplete_folder(good, tmp_path, remove, needle):
    d = _copy(good, tmp_path)
    (d / remove).unlink()
    assert needle in _error(d)


def test_no_tokenizer(good, tmp_path):
    d = _copy(good, tmp_path)
    (d / "tokenizer.json").unlink()
    (d / "vocab.txt").unlink()
    assert "neither tokenizer.json nor vocab.txt" in _error(d)


def test_corrupt_tokenizer_json(good, tmp_path):
    d = _copy(good, tmp_path)
    (d / "tokenizer.json").write_text('{"model": {"type": "Nonsense"}}', encoding="utf-8")
    assert "tokenizer.json cannot be read" in _error(d)


@pytest.mark.parametrize("config,needle", [
    ("not json", "not valid UTF-8 JSON"),
    ({"model_type": "electra"}, "no id2label"),
    ({"id2label": {"0": "O", "2": "B-X"}}, "without gaps"),
    ({"id2label": {"a": "O"}}, "keys must be integers"),
    ({"id2label": {"0": "O", "1": "PERSON", "2": "ADDRESS"}}, "'PERSON' (id 1) is not a BIOES tag"),
    ({"id2label": {"0": "O", "1": "B-PER", "2": "I-PER", "3": "E-PER"}}, "lacks the BIOES tag(s) S-PER"),
    ({"id2label": {"0": "B-X", "1": "I-X", "2": "E-X", "3": "S-X"}}, "no 'O' label"),
    ({"id2label": {"0": "O", "1": "O"}}, "repeats a label"),
])
def test_bad_config(good, tmp_path, config, needle):
    d = _copy(good, tmp_path)
    (d / "config.json").write_text(config if isinstance(config, str) else json.dumps(config), encoding="utf-8")
    assert needle in _error(d)


def test_bio_labels_are_refused(tmp_path):
    d = build_tiny_model(tmp_path / "m", labels=["O", "B-PER", "I-PER"], alphabet=SMALL_ALPHABET)
    msg = _error(d)
    assert "lacks the BIOES tag(s) E-PER, S-PER" in msg and "config.json" in msg


def test_logits_width_disagrees_with_labels(tmp_path):
    d = build_tiny_model(tmp_path / "m", alphabet=SMALL_ALPHABET, logits_width=9)
    msg = _error(d)
    assert "produces 9 logits per token" in msg and "13 labels" in msg


def test_corrupt_onnx(good, tmp_path):
    d = _copy(good, tmp_path)
    (d / "model.fp32.onnx").write_bytes(b"\x08\x07garbage" * 100)
    msg = _error(d)
    assert "model.fp32.onnx is not a loadable ONNX model" in msg
    (d / "model.fp32.onnx").write_bytes(b"")
    assert "0 bytes" in _error(d)


def test_truncated_onnx(good, tmp_path):
    d = _copy(good, tmp_path)
    data = (d / "model.fp32.onnx").read_bytes()
    (d / "model.fp32.onnx").write_bytes(data[: len(data) // 2])
    assert "is not a loadable ONNX model" in _error(d)


def test_named_onnx_and_ambiguous_onnx(good, tmp_path):
    d = _copy(good, tmp_path)
    shutil.copy(d / "model.fp32.onnx", d / "model.int8.onnx")
    assert load_model_folder(d, onnx_file="model.int8.onnx", threads=1).onnx_path.name == "model.int8.onnx"
    assert "model.nope.onnx does not exist" in _error(d, onnx_file="model.nope.onnx")
    (d / "model.fp32.onnx").rename(d / "other.onnx")
    assert "several ONNX files" in _error(d)
    (d / "other.onnx").unlink()
    assert load_model_folder(d, threads=1).onnx_path.name == "model.int8.onnx"  # the only one


def test_graph_with_only_input_ids(tmp_path):
    m = load_model_folder(build_tiny_model(tmp_path / "m", inputs=("input_ids",), alphabet=SMALL_ALPHABET),
                          threads=1)
    assert m.input_names == ("input_ids",)


def test_unknown_graph_input_is_refused(tmp_path):
    from tests.fixtures.tiny_model import write_lookup_onnx

    d = build_tiny_model(tmp_path / "m", alphabet=SMALL_ALPHABET)
    write_lookup_onnx(d / "model.fp32.onnx", np.zeros((40, 13), np.float32),
                      inputs=("input_ids", "position_ids"))
    assert "needs input 'position_ids'" in _error(d)


def test_python_in_the_folder_is_never_executed(good, tmp_path):
    d = _copy(good, tmp_path)
    marker = tmp_path / "executed"
    code = f"open({str(marker)!r}, 'w').write('x')\n"
    (d / "veil3.py").write_text(code, encoding="utf-8")
    (d / "__init__.py").write_text(code, encoding="utf-8")
    (d / "modeling_veil.py").write_text(code, encoding="utf-8")
    cfg = json.loads((d / "config.json").read_text(encoding="utf-8"))
    cfg["auto_map"] = {"AutoModelForTokenClassification": "modeling_veil.Model"}
    (d / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    from veil_desktop.detect.engine import ModelDetector

    assert [s.label for s in ModelDetector(d, threads=1).detect("김철수")] == ["PERSON"]
    assert not marker.exists()


def test_wordpiece_vocab_tokenizer(good, tmp_path):
    d = _copy(good, tmp_path)
    (d / "tokenizer.json").unlink()
    tok = load_tokenizer(d)
    enc = tok.encode("김철수는 서울에", add_special_tokens=False)
    assert enc.tokens == ["김", "##철", "##수", "##는", "서", "##울", "##에"]
    assert enc.offsets == [(0, 1), (1, 2), (2, 3), (3, 4), (5, 6), (6, 7), (7, 8)]
    m = load_model_folder(d, threads=1)
    assert (m.cls_id, m.sep_id) == (2, 3)
    # no lower-casing (do_lower_case=false): an upper-case letter outside the vocabulary stays unknown
    assert tok.encode("A", add_special_tokens=False).tokens == ["[UNK]"]


def test_tokenizer_json_truncation_is_disabled(good, tmp_path):
    d = _copy(good, tmp_path)
    data = json.loads((d / "tokenizer.json").read_text(encoding="utf-8"))
    data["truncation"] = {"direction": "Right", "max_length": 8, "strategy": "LongestFirst", "stride": 0}
    (d / "tokenizer.json").write_text(json.dumps(data), encoding="utf-8")
    tok = load_tokenizer(d)
    assert len(tok.encode("가나다" * 20, add_special_tokens=False).ids) == 60


def test_label_scheme_arrays():
    s = LabelScheme.from_labels(BIOES_LABELS)
    assert list(s.kinds[:5]) == [0, 1, 2, 3, 4] and list(s.types[:6]) == [-1, 0, 0, 0, 0, 1]


def test_onnx_in_an_onnx_subfolder(good, tmp_path):
    d = _copy(good, tmp_path)
    (d / "onnx").mkdir()
    (d / "model.fp32.onnx").rename(d / "onnx" / "model.fp32.onnx")
    assert load_model_folder(d, threads=1).onnx_path == d / "onnx" / "model.fp32.onnx"
    (d / "onnx" / "model.fp32.onnx").rename(d / "onnx" / "model_quantized.onnx")
    assert load_model_folder(d, threads=1).onnx_path.name == "model_quantized.onnx"


def _looping_graph(path, trip_count: int):
    """A graph with the right inputs and a logits output whose value waits for a huge ``Loop``."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Add", ["acc_in", "one"], ["acc_out"])],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_in", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_out", TensorProto.FLOAT, [])],
        initializer=[numpy_helper.from_array(np.array(1.0, np.float32), "one")])
    N = helper.make_node
    nodes = [
        N("Loop", ["M", "cond", "acc0"], ["acc"], body=body),
        N("Shape", ["input_ids"], ["shape2"]),
        N("Concat", ["shape2", "n_labels"], ["shape3"], axis=0),
        N("Mul", ["acc", "zero"], ["acc0x"]),
        N("Expand", ["acc0x", "shape3"], ["logits"]),
    ]
    inits = [numpy_helper.from_array(np.array(trip_count, np.int64), "M"),
             numpy_helper.from_array(np.array(True), "cond"),
             numpy_helper.from_array(np.array(0.0, np.float32), "acc0"),
             numpy_helper.from_array(np.array(0.0, np.float32), "zero"),
             numpy_helper.from_array(np.array([13], np.int64), "n_labels")]
    graph = helper.make_graph(nodes, "loop", [helper.make_tensor_value_info("input_ids", TensorProto.INT64,
                                                                            ["batch", "seq"])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "seq", 13])],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.write_bytes(model.SerializeToString())


def test_a_graph_that_hangs_the_probe_is_refused_after_the_time_limit(good, tmp_path, monkeypatch):
    import time

    from veil_desktop.detect import model_folder as mf

    d = tmp_path / "loop"
    shutil.copytree(good, d)
    _looping_graph(d / "model.fp32.onnx", 10 ** 15)
    monkeypatch.setattr(mf, "PROBE_SECONDS", 1.0)
    t = time.monotonic()
    with pytest.raises(ModelFolderError, match="did not finish a 3-token test run within 1 s"):
        load_model_folder(d, threads=1)
    assert time.monotonic() - t < 60  # stopped, not run to the end (10**15 iterations)
    # the same graph with a small loop loads: the limit is about time, not about Loop nodes
    _looping_graph(d / "model.fp32.onnx", 10)
    assert load_model_folder(d, threads=1).scheme.labels[0] == "O"


@pytest.mark.parametrize("name", ["config.json", "special_tokens_map.json"])
def test_deeply_nested_json_is_a_model_folder_error(good, tmp_path, name):
    d = tmp_path / "deep"
    shutil.copytree(good, d)
    (d / name).write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    if name == "config.json":
        with pytest.raises(ModelFolderError, match="nested far too deeply"):
            load_model_folder(d, threads=1)
    else:  # an unreadable special-tokens map falls back to the defaults
        assert load_model_folder(d, threads=1).cls_id is not None
