"""Module aliases: a use through an alias of torch's own package keeps
the alias (F.interpolate, th.nn...); one through an alias of the old
module becomes the replacement's whole name, and the alias goes when
nothing else uses it."""
import torch
import torch.cuda.amp as amp
import torch.nn.functional as F
import torch as th
from torch.cuda import amp as camp
from torch.cpu import amp as cpu_amp


def run():
    x = torch.ones(1, 1, 2, 2)
    with cpu_amp.autocast(dtype=torch.bfloat16):
        a = torch.mm(x[0, 0], x[0, 0])
    with amp.autocast(enabled=False):
        b = torch.mm(x[0, 0], x[0, 0])
    with camp.autocast(enabled=False):
        c = torch.mm(x[0, 0], x[0, 0])
    ok = hasattr(camp, "GradScaler")  # camp is still used: kept
    y = F.upsample(x, scale_factor=2, mode="nearest")
    p = th.nn.Parameter(th.ones(3))
    p.grad = th.ones(3) * 10
    n = th.nn.utils.clip_grad_norm([p], 1.0)
    return (a.dtype, b.dtype, c.dtype, ok, y.shape, round(float(n), 4))
