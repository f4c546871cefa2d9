"""From-imports: each name rewritten to torch's, `import torch` added once,
the imports left unused dropped (and no torch imported before them)."""
from torch import ones, mm
from torch.cpu.amp import autocast
from torch.nn.utils import (
    clip_grad_norm,  # the old name
    clip_grad_value_,
)
from torch.nn.functional import upsample_nearest as up, \
    relu
from torch.nn import Parameter


def run():
    x = ones(2, 2)
    with autocast(dtype=torch_dtype()):
        a = mm(x, x)
    with autocast():
        b = mm(x, x)
    p = Parameter(ones(3))
    p.grad = ones(3) * 10
    n = clip_grad_norm([p], 1.0)
    clip_grad_value_([p], 100.0)
    y = up(ones(1, 1, 2, 2), scale_factor=2)
    return (a.dtype, b.dtype, round(float(n), 4), y.shape, relu(-x).tolist())


def torch_dtype():
    import torch

    return torch.bfloat16
