"""Replacements newer than the floor (1.13): written as compat names that
one block binds to torch.amp's where torch has them (2.3, 2.4)."""
from __future__ import annotations

import torch
import torch.nn as nn  # after the last leading import: the block


class Double(torch.autograd.Function):
    @staticmethod
    @torch.cuda.amp.custom_fwd
    def forward(ctx, x):
        return x * 2

    @staticmethod
    @torch.cuda.amp.custom_bwd
    def backward(ctx, g):
        return g * 2


class Half(torch.autograd.Function):
    @staticmethod
    @torch.cuda.amp.custom_fwd(cast_inputs=torch.float32)
    def forward(ctx, x):
        return x / 2

    @staticmethod
    @torch.cuda.amp.custom_bwd
    def backward(ctx, g):
        return g / 2


def run():
    x = torch.ones(2, requires_grad=True)
    (Double.apply(x).sum() + Half.apply(x).sum()).backward()
    s = torch.cuda.amp.GradScaler(enabled=False)
    c = torch.cuda.amp.autocast_mode._cast(torch.ones(2), torch.float64)
    torch.set_autocast_gpu_dtype(torch.float16)
    d = torch.get_autocast_gpu_dtype()
    lin = nn.Linear(2, 2)
    return (x.grad.tolist(), s.is_enabled(), c.dtype, d, lin.in_features)
