"""Imports kept: a name with a use that is not fixed (positional
arguments), a guarded import, a name bound otherwise too, a name a string
holds; the uses that can be fixed are."""
import torch
from torch.cpu.amp import autocast
from torch.nn.utils import clip_grad_norm
from torch.nn.functional import upsample_nearest
try:
    from torch.cuda.amp import autocast as guarded_autocast
except ImportError:
    guarded_autocast = None

__all__ = ["clip_grad_norm"]


def run():
    x = torch.ones(2, 2)
    with autocast(dtype=torch.bfloat16):
        a = torch.mm(x, x)
    with autocast(True):  # positional: left, so the import stays
        b = torch.mm(x, x)
    with guarded_autocast(enabled=False):
        c = torch.mm(x, x)
    p = torch.nn.Parameter(torch.ones(3))
    p.grad = torch.ones(3) * 10
    n = clip_grad_norm([p], 1.0)
    upsample = upsample_nearest
    y = upsample(torch.ones(1, 1, 2, 2), scale_factor=2)
    return (a.dtype, b.dtype, c.dtype, round(float(n), 4), y.shape, other())


def other():
    upsample_nearest = None  # a name bound otherwise too: never followed
    return upsample_nearest
