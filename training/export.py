"""Export a trained :class:`~training.model.SyllableTagger` to ONNX (and optionally INT8) + write the folder.

The graph: inputs ``input_ids`` and ``attention_mask`` (int64 ``[batch, seq]``), output ``logits``
(float32 ``[batch, seq, 13]``). Feature tables are graph constants; no custom ops.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import torch

from .labels import LABELS


class _Wrapped(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask):
        return self.model(input_ids, attention_mask)


def export_onnx(model, path: Path, opset: int = 17) -> Path:
    model = model.eval()
    if hasattr(model, "for_export"):  # DSConvTagger: embeddings + input projection folded into one table
        model = model.for_export()
    ids = torch.randint(5, 1000, (2, 128), dtype=torch.long)
    mask = torch.ones_like(ids)
    tmp = Path(str(path) + ".tmp")
    with torch.no_grad():
        # the wrapper in eval mode too: the exporter restores the wrapper's mode on every submodule afterwards
        torch.onnx.export(_Wrapped(model).eval(), (ids, mask), str(tmp), input_names=["input_ids", "attention_mask"],
                          output_names=["logits"], opset_version=opset, dynamo=False,
                          dynamic_axes={"input_ids": {0: "batch", 1: "seq"},
                                        "attention_mask": {0: "batch", 1: "seq"},
                                        "logits": {0: "batch", 1: "seq"}})
    os.replace(tmp, path)
    return path


def quantize_int8(src: Path, dst: Path) -> Path:
    """onnxruntime dynamic quantisation (weights INT8, activations quantised at run time)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = Path(str(dst) + ".tmp.onnx")
    quantize_dynamic(str(src), str(tmp), weight_type=QuantType.QInt8)
    os.replace(tmp, dst)
    return dst


def write_config(folder: Path, model_config: dict, extra: dict | None = None) -> None:
    dsconv = model_config.get("arch") == "dsconv"
    cfg = {
        "model_type": "veil-compact-syllable-dsconv" if dsconv else "veil-compact-syllable-bilstm",
        "architectures": ["DSConvTagger" if dsconv else "SyllableTagger"],
        "id2label": {str(i): t for i, t in enumerate(LABELS)},
        "label2id": {t: i for i, t in enumerate(LABELS)},
        "max_position_embeddings": 128,
        "tokenizer": "character-level tokenizer.json (tokenizers library)",
        **{f"compact_{k}": v for k, v in model_config.items()},
        **(extra or {}),
    }
    (folder / "config.json").write_text(json.dumps(cfg, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
