"""torch bound to something else in the file: no use is rewritten to a
torch. name there (only the use spelled torch's way, where torch is the
module, is fixed)."""
import torch
from torch.cpu.amp import autocast


def helper(torch=None):
    return torch


def run():
    x = torch.ones(2, 2)
    with autocast():
        a = torch.mm(x, x)
    p = torch.nn.Parameter(torch.ones(3))
    p.grad = torch.ones(3) * 10
    n = torch.nn.utils.clip_grad_norm_([p], 1.0)
    return (a.dtype, round(float(n), 4), helper())
