"""From-imports: each name rewritten to torch's, `import torch` added once,
the imports left unused dropped (and no torch imported before them)."""
from torch import ones, mm
import torch
from torch.nn.utils import (
    # the old name
    clip_grad_value_,
)
from torch.nn.functional import \
    relu
from torch.nn import Parameter


def run():
    x = ones(2, 2)
    with torch.amp.autocast("cpu", dtype=torch_dtype()):
        a = mm(x, x)
    with torch.amp.autocast("cpu"):
        b = mm(x, x)
    p = Parameter(ones(3))
    p.grad = ones(3) * 10
    n = torch.nn.utils.clip_grad_norm_([p], 1.0)
    clip_grad_value_([p], 100.0)
    y = torch.nn.functional.interpolate(ones(1, 1, 2, 2), mode="nearest", scale_factor=2)
    return (a.dtype, b.dtype, round(float(n), 4), y.shape, relu(-x).tolist())


def torch_dtype():
    import torch

    return torch.bfloat16
