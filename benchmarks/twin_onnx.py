"""A random-weight twin of veil-pii-ko-small-3 written directly as an ONNX graph (numpy + onnx, no torch).

Same architecture as PIPELINE.md states (ElectraForTokenClassification: vocab 35,000, embedding 128,
projection to hidden 256, 8 layers of 4-head self-attention + FFN 256 with GELU, LayerNorm eps 1e-12,
13 labels; 7.7 M parameters), so the same compute and the same weight memory as the real FP32 file. Used
by ``bench_detect.build_twin`` when torch/transformers are not installed. The classifier's O bias is raised
by ``o_bias`` (as the torch twin does) so spans have a realistic density.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

VOCAB, EMB, HID, LAYERS, HEADS, FFN, N_LABELS, MAX_POS = 35_000, 128, 256, 8, 4, 256, 13, 512


def write_twin_onnx(path: Path, *, seed: int = 0, o_bias: float = 1.0) -> int:
    """Write the graph to ``path``; returns the parameter count."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    inits: list = []
    nodes: list = []
    n_params = 0

    def w(name: str, *shape: int, std: float = 0.02, value: float | None = None) -> str:
        nonlocal n_params
        arr = (np.full(shape, value, dtype=np.float32) if value is not None
               else (rng.standard_normal(shape) * std).astype(np.float32))
        n_params += arr.size
        inits.append(numpy_helper.from_array(arr, name))
        return name

    def c(name: str, arr) -> str:
        inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    def node(op: str, ins: list[str], out: str, **kw) -> str:
        nodes.append(helper.make_node(op, ins, [out], **kw))
        return out

    def linear(x: str, name: str, d_in: int, d_out: int) -> str:
        y = node("MatMul", [x, w(f"{name}.w", d_in, d_out)], f"{name}.mm")
        return node("Add", [y, w(f"{name}.b", d_out, value=0.0)], f"{name}.out")

    def layer_norm(x: str, name: str, d: int) -> str:
        return node("LayerNormalization", [x, w(f"{name}.g", d, value=1.0), w(f"{name}.beta", d, value=0.0)],
                    f"{name}.out", axis=-1, epsilon=1e-12)

    # embeddings
    ids, mask, types = "input_ids", "attention_mask", "token_type_ids"
    we = node("Gather", [w("word_emb", VOCAB, EMB), ids], "we", axis=0)
    shape = node("Shape", [ids], "ids_shape")
    seq = node("Gather", [shape, c("one_i", np.array(1, dtype=np.int64))], "seq", axis=0)
    pos = node("Range", [c("zero_i", np.array(0, dtype=np.int64)), seq, c("step_i", np.array(1, dtype=np.int64))],
               "pos")
    pe = node("Gather", [w("pos_emb", MAX_POS, EMB), pos], "pe", axis=0)
    te = node("Gather", [w("type_emb", 2, EMB), types], "te", axis=0)
    x = node("Add", [node("Add", [we, pe], "wpe"), te], "emb")
    x = layer_norm(x, "emb_ln", EMB)
    x = linear(x, "proj", EMB, HID)
    # attention mask bias [B, 1, 1, S]: 0 where attended, -10000 where padded
    mf = node("Cast", [mask], "mask_f", to=TensorProto.FLOAT)
    mb = node("Mul", [node("Sub", [c("one_f", np.array(1.0, np.float32)), mf], "inv_mask"),
                      c("neg", np.array(-10000.0, np.float32))], "mask_bias2")
    mb = node("Unsqueeze", [mb, c("axes12", np.array([1, 2], dtype=np.int64))], "mask_bias")
    head = HID // HEADS
    split_shape = c("split_shape", np.array([0, 0, HEADS, head], dtype=np.int64))
    merge_shape = c("merge_shape", np.array([0, 0, HID], dtype=np.int64))
    scale = c("scale", np.array(1.0 / np.sqrt(head), np.float32))
    for i in range(LAYERS):
        p = f"l{i}"

        def heads(t: str, perm: list[int], tag: str) -> str:
            r = node("Reshape", [t, split_shape], f"{p}.{tag}.r")
            return node("Transpose", [r], f"{p}.{tag}.t", perm=perm)

        q = heads(linear(x, f"{p}.q", HID, HID), [0, 2, 1, 3], "q")
        k = heads(linear(x, f"{p}.k", HID, HID), [0, 2, 3, 1], "k")
        v = heads(linear(x, f"{p}.v", HID, HID), [0, 2, 1, 3], "v")
        scores = node("Add", [node("Mul", [node("MatMul", [q, k], f"{p}.qk"), scale], f"{p}.qks"), "mask_bias"],
                      f"{p}.scores")
        probs = node("Softmax", [scores], f"{p}.probs", axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, v], f"{p}.ctx")], f"{p}.ctx.t", perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, merge_shape], f"{p}.ctx.r")
        x = layer_norm(node("Add", [linear(ctx, f"{p}.o", HID, HID), x], f"{p}.res1"), f"{p}.ln1", HID)
        h = linear(x, f"{p}.ff1", HID, FFN)
        # GELU (erf form), as in ELECTRA
        g = node("Mul", [node("Mul", [h, node("Add", [node("Erf", [node("Mul", [h, c(f"{p}.isq2", np.array(
            1 / np.sqrt(2), np.float32))], f"{p}.hs")], f"{p}.erf"), "one_f"], f"{p}.erf1")], f"{p}.gh"),
            c(f"{p}.half", np.array(0.5, np.float32))], f"{p}.gelu")
        x = layer_norm(node("Add", [linear(g, f"{p}.ff2", FFN, HID), x], f"{p}.res2"), f"{p}.ln2", HID)
    logits = linear(x, "cls", HID, N_LABELS)
    bias = np.zeros(N_LABELS, np.float32)
    bias[0] = o_bias
    node("Add", [logits, c("o_bias", bias)], "logits")
    graph = helper.make_graph(
        nodes, "veil_twin",
        [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "seq"]) for n in (ids, mask, types)],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "seq", N_LABELS])],
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="veil-bench")
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.write_bytes(model.SerializeToString())
    return n_params
