"""Syllable taggers: syllable + jamo + character-class embeddings -> width-3 convolutions (residual, dilated)
-> BiLSTM -> 13 logits (:class:`SyllableTagger`, ``arch="bilstm"``, the shipped one), or the same embeddings
-> residual dilated depthwise-separable convolutions, no recurrence (:class:`DSConvTagger`, ``arch="dsconv"``,
issue 27).

All per-token features are computed *inside* the network from ``input_ids`` with constant tables
(``syl_row``, ``jamo``, ``cls``), so the exported ONNX graph takes only ``input_ids`` and
``attention_mask`` and the project's unchanged engine runs it.

``syl_row[id]`` maps a token to its syllable-embedding row (only tokens seen in training have a row of
their own, which keeps the file small); tokens never seen in training map to the shared row 1
("unknown syllable"), so an unseen syllable is represented by its jamo alone. Training
applies *syllable dropout* (a Hangul syllable's row replaced by row 1 with probability ``syl_drop``) so
that row 1 + jamo is a meaningful representation.
"""
from __future__ import annotations

import numpy as np
import torch
from torch import nn

from .labels import N_LABELS
from .vocab import C_SYL, N_CLASSES


class _Embed(nn.Module):
    """The per-token input of both architectures: syllable row + initial/medial/final jamo + class."""

    def __init__(self, jamo: np.ndarray, cls: np.ndarray, syl_row: np.ndarray, d_syl: int, d_jamo: int,
                 d_cls: int, syl_drop: float) -> None:
        super().__init__()
        self.register_buffer("jamo", torch.as_tensor(jamo, dtype=torch.long))
        self.register_buffer("cls", torch.as_tensor(cls, dtype=torch.long))
        self.register_buffer("syl_row", torch.as_tensor(syl_row, dtype=torch.long))
        self.syl = nn.Embedding(int(syl_row.max()) + 1, d_syl)
        self.cho = nn.Embedding(20, d_jamo)
        self.jung = nn.Embedding(22, d_jamo)
        self.jong = nn.Embedding(29, d_jamo)
        self.ccls = nn.Embedding(N_CLASSES, d_cls)
        self.syl_drop = syl_drop
        self.dim = d_syl + 3 * d_jamo + d_cls

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        rows = self.syl_row[input_ids]
        cls = self.cls[input_ids]
        if self.training and self.syl_drop > 0:
            drop = (torch.rand(rows.shape, device=rows.device) < self.syl_drop) & (cls == C_SYL)
            rows = torch.where(drop, torch.ones_like(rows), rows)  # row 1 = unknown syllable
        j = self.jamo[input_ids]
        return torch.cat([self.syl(rows), self.cho(j[..., 0]), self.jung(j[..., 1]), self.jong(j[..., 2]),
                          self.ccls(cls)], dim=-1)


class DSConvTagger(nn.Module):
    """Recurrence-free tagger (issue 27): embeddings -> pointwise projection to ``d_conv`` -> one residual
    block per dilation (width-3 depthwise convolution at that dilation, pointwise ``d_conv -> d_conv``,
    BatchNorm, ReLU) -> linear to the 13 logits.

    Built for onnxruntime on a small CPU: in inference the BatchNorm and ReLU fuse into the pointwise
    convolution, and :meth:`for_export` folds embeddings + input projection (linear functions of the token
    id) into one ``[vocab, d_conv]`` table, so a block costs a depthwise conv, one GEMM, an add and the mask.
    With dilations (1, 2, 4, 8, 16, 1) each output sees 32 tokens either side. Positions outside the
    attention mask are zeroed after every block, so right-padding a window does not change the logits of its
    real tokens (the convolutions' zero padding sees the same zeros)."""

    def __init__(self, jamo: np.ndarray, cls: np.ndarray, syl_row: np.ndarray, *, d_syl: int = 96,
                 d_jamo: int = 24, d_cls: int = 8, d_conv: int = 128,
                 dilations: tuple[int, ...] = (1, 2, 4, 8, 16, 1), dropout: float = 0.15,
                 syl_drop: float = 0.1) -> None:
        super().__init__()
        self.embed = _Embed(jamo, cls, syl_row, d_syl, d_jamo, d_cls, syl_drop)
        self.in_proj = nn.Linear(self.embed.dim, d_conv)
        self.dws = nn.ModuleList([nn.Conv1d(d_conv, d_conv, kernel_size=3, padding=d, dilation=d, groups=d_conv)
                                  for d in dilations])
        self.pws = nn.ModuleList([nn.Conv1d(d_conv, d_conv, kernel_size=1) for _ in dilations])
        self.bns = nn.ModuleList([nn.BatchNorm1d(d_conv) for _ in dilations])
        self.drop = nn.Dropout(dropout)
        self.out = nn.Linear(d_conv, N_LABELS)
        self.config = dict(arch="dsconv", d_syl=d_syl, d_jamo=d_jamo, d_cls=d_cls, d_conv=d_conv,
                           dilations=list(dilations))

    def project(self, input_ids: torch.Tensor) -> torch.Tensor:
        return self.in_proj(self.drop(self.embed(input_ids)))

    def blocks(self, x: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """``x`` [B, T, d_conv] (projected embeddings) -> logits [B, T, 13]."""
        m = attention_mask.unsqueeze(1).to(x.dtype)  # [B, 1, T]
        c = x.transpose(1, 2) * m
        for dw, pw, bn in zip(self.dws, self.pws, self.bns):
            c = (c + self.drop(torch.relu(bn(pw(dw(c)))))) * m
        return self.out(self.drop(c.transpose(1, 2)))

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.blocks(self.project(input_ids), attention_mask)

    @torch.no_grad()
    def for_export(self) -> nn.Module:
        """The same function in eval mode with embeddings + input projection precomputed per token id."""
        self.eval()
        ids = torch.arange(self.embed.syl_row.shape[0])
        return _FoldedInput(self, self.project(ids).detach().clone())


class _FoldedInput(nn.Module):
    def __init__(self, model: DSConvTagger, table: torch.Tensor) -> None:
        super().__init__()
        self.model = model
        self.register_buffer("table", table)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.model.blocks(self.table[input_ids], attention_mask)


class SyllableTagger(nn.Module):
    def __init__(self, jamo: np.ndarray, cls: np.ndarray, syl_row: np.ndarray, *, d_syl: int = 96,
                 d_jamo: int = 24, d_cls: int = 8, d_conv: int = 192, dilations: tuple[int, ...] = (1, 2, 4),
                 hidden: int = 128, layers: int = 1, dropout: float = 0.25, syl_drop: float = 0.1) -> None:
        super().__init__()
        self.register_buffer("jamo", torch.as_tensor(jamo, dtype=torch.long))
        self.register_buffer("cls", torch.as_tensor(cls, dtype=torch.long))
        self.register_buffer("syl_row", torch.as_tensor(syl_row, dtype=torch.long))
        self.syl = nn.Embedding(int(syl_row.max()) + 1, d_syl)
        self.cho = nn.Embedding(20, d_jamo)
        self.jung = nn.Embedding(22, d_jamo)
        self.jong = nn.Embedding(29, d_jamo)
        self.ccls = nn.Embedding(N_CLASSES, d_cls)
        d_in = d_syl + 3 * d_jamo + d_cls
        self.conv = nn.Conv1d(d_in, d_conv, kernel_size=3, padding=1)
        # residual dilated convolutions widen the local context cheaply (CPU-friendly: no recurrence)
        self.dconvs = nn.ModuleList([nn.Conv1d(d_conv, d_conv, kernel_size=3, padding=d, dilation=d)
                                     for d in dilations[1:]])
        self.drop = nn.Dropout(dropout)
        self.lstm = nn.LSTM(d_conv, hidden, num_layers=layers, batch_first=True, bidirectional=True,
                            dropout=dropout if layers > 1 else 0.0)
        self.out = nn.Linear(2 * hidden, N_LABELS)
        self.syl_drop = syl_drop
        self.config = dict(d_syl=d_syl, d_jamo=d_jamo, d_cls=d_cls, d_conv=d_conv, dilations=list(dilations),
                           hidden=hidden, layers=layers)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        rows = self.syl_row[input_ids]
        cls = self.cls[input_ids]
        if self.training and self.syl_drop > 0:
            drop = (torch.rand(rows.shape, device=rows.device) < self.syl_drop) & (cls == C_SYL)
            rows = torch.where(drop, torch.ones_like(rows), rows)  # row 1 = unknown syllable
        j = self.jamo[input_ids]
        x = torch.cat([self.syl(rows), self.cho(j[..., 0]), self.jung(j[..., 1]), self.jong(j[..., 2]),
                       self.ccls(cls)], dim=-1)
        m = attention_mask.unsqueeze(-1).to(x.dtype)
        x = x * m
        c = torch.relu(self.conv(self.drop(x).transpose(1, 2)))
        for conv in self.dconvs:
            c = c + torch.relu(conv(self.drop(c)))
        h, _ = self.lstm(self.drop(c.transpose(1, 2)))
        return self.out(self.drop(h))


def allowed_nll(logits: torch.Tensor, allowed: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean over real tokens of ``-log Σ_{tag ∈ allowed} p(tag)``; ``allowed`` is a bool [B, T, 13]."""
    logp = torch.log_softmax(logits, dim=-1)
    ll = torch.logsumexp(logp.masked_fill(~allowed, -1e4), dim=-1)
    return -(ll * mask).sum() / mask.sum().clamp(min=1)


def distill_loss(logits: torch.Tensor, teacher_logits: torch.Tensor, allowed: torch.Tensor,
                 mask: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of the student against the teacher's distribution *restricted to the allowed tags* and
    renormalised (issue 27): where the target is one tag this is that tag; where several are allowed (soft
    pseudo-label ranges, ``O`` or ORGANIZATION outside ko-pii gold) the teacher decides between them."""
    t = torch.softmax(teacher_logits.masked_fill(~allowed, -1e4), dim=-1)
    ce = -(t * torch.log_softmax(logits, dim=-1)).sum(-1)
    return (ce * mask).sum() / mask.sum().clamp(min=1)
