"""Issue 27: the recurrence-free DSConvTagger option of training/ (architecture, export, distillation loss,
config plumbing). Needs torch (the `train` extra); skipped without it."""
from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from training.build_compact import apply_set  # noqa: E402
from training.export import export_onnx, write_config  # noqa: E402
from training.labels import N_LABELS  # noqa: E402
from training.model import DSConvTagger, SyllableTagger, allowed_nll, distill_loss  # noqa: E402
from training.train import TrainConfig, build_model  # noqa: E402
from training.vocab import build_vocab, feature_tables  # noqa: E402


def _tables():
    vocab = build_vocab(["홍길동은 서울특별시 종로구에 산다."])
    jamo, ccls = feature_tables(vocab)
    syl_row = np.minimum(np.arange(len(vocab)), 40)
    return vocab, jamo, ccls, syl_row


def _trained_like(model):
    # non-trivial BatchNorm statistics, so that eval mode is not the identity normalisation
    with torch.no_grad():
        for bn in model.bns:
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 2.0)
    return model.eval()


def test_config_selects_the_architecture_and_parses_tuple_fields():
    _, jamo, ccls, syl_row = _tables()
    cfg = TrainConfig()
    assert isinstance(build_model(cfg, jamo, ccls, syl_row), SyllableTagger)  # default stays the shipped one
    for kv in ("arch=dsconv", "d_conv=32", "dilations=1,2,4,8", "kd_weight=0.5"):
        apply_set(cfg, kv)
    assert (cfg.arch, cfg.d_conv, cfg.dilations, cfg.kd_weight) == ("dsconv", 32, (1, 2, 4, 8), 0.5)
    model = build_model(cfg, jamo, ccls, syl_row)
    assert isinstance(model, DSConvTagger)
    assert model.config == {"arch": "dsconv", "d_syl": 96, "d_jamo": 24, "d_cls": 8, "d_conv": 32,
                            "dilations": [1, 2, 4, 8]}
    assert [c.dilation[0] for c in model.dws] == [1, 2, 4, 8]
    with pytest.raises(ValueError):
        build_model(TrainConfig(arch="transformer"), jamo, ccls, syl_row)


def test_right_padding_leaves_real_token_logits_unchanged():
    _, jamo, ccls, syl_row = _tables()
    torch.manual_seed(0)
    model = _trained_like(DSConvTagger(jamo, ccls, syl_row, d_conv=32, dilations=(1, 2, 4)))
    ids = torch.randint(5, 200, (1, 20))
    bare = model(ids, torch.ones_like(ids))
    padded = torch.cat([ids, torch.zeros(1, 9, dtype=torch.long)], 1)
    mask = torch.cat([torch.ones(1, 20, dtype=torch.long), torch.zeros(1, 9, dtype=torch.long)], 1)
    out = model(padded, mask)
    assert out.shape == (1, 29, N_LABELS)
    assert torch.allclose(out[:, :20], bare, atol=1e-5)


def test_exported_onnx_with_folded_input_table_matches_torch(tmp_path):
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    _, jamo, ccls, syl_row = _tables()
    torch.manual_seed(1)
    model = _trained_like(DSConvTagger(jamo, ccls, syl_row, d_conv=32, dilations=(1, 2, 4, 1)))
    export_onnx(model, tmp_path / "model.onnx")
    write_config(tmp_path, model.config)
    cfg = json.loads((tmp_path / "config.json").read_text(encoding="utf-8"))
    assert cfg["model_type"] == "veil-compact-syllable-dsconv" and cfg["compact_d_conv"] == 32
    sess = ort.InferenceSession(str(tmp_path / "model.onnx"), providers=["CPUExecutionProvider"])
    assert [i.name for i in sess.get_inputs()] == ["input_ids", "attention_mask"]
    ids = np.random.default_rng(0).integers(5, len(syl_row), size=(3, 37)).astype(np.int64)
    mask = np.ones_like(ids)
    mask[2, 30:] = 0
    got = sess.run(None, {"input_ids": ids, "attention_mask": mask})[0]
    with torch.no_grad():
        want = model(torch.from_numpy(ids), torch.from_numpy(mask)).numpy()
    assert got.shape == (3, 37, N_LABELS)
    assert np.abs(got - want).max() < 1e-4


def test_distillation_targets_are_the_teacher_restricted_to_the_allowed_tags():
    logits = torch.randn(1, 3, N_LABELS)
    teacher = torch.randn(1, 3, N_LABELS)
    mask = torch.ones(1, 3)
    one_tag = torch.zeros(1, 3, N_LABELS, dtype=torch.bool)
    one_tag[0, :, 0] = True
    # one allowed tag: the teacher has no say, the term is the plain NLL of that tag
    assert torch.allclose(distill_loss(logits, teacher, one_tag, mask), allowed_nll(logits, one_tag, mask))
    # two allowed tags: the target splits between them as the teacher's probabilities do
    two = torch.zeros(1, 1, N_LABELS, dtype=torch.bool)
    two[0, 0, [0, 9]] = True
    t = torch.full((1, 1, N_LABELS), -5.0)
    t[0, 0, 0], t[0, 0, 9], t[0, 0, 4] = 0.0, float(np.log(3.0)), 10.0  # tag 4 is not allowed: ignored
    s = torch.log_softmax(logits[:, :1], -1)
    want = -(0.25 * s[0, 0, 0] + 0.75 * s[0, 0, 9])
    assert torch.allclose(distill_loss(logits[:, :1], t, two, mask[:, :1]), want, atol=1e-5)
