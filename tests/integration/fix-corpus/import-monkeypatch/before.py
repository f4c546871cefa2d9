"""A name the file assigns to (a monkeypatch) is left, its reads too;
an import left alone in its block is replaced by pass."""
import torch
import torch.nn.functional as F


def patch():
    saved = F.upsample
    F.upsample = lambda *a, **k: saved(*a, **k)
    F.upsample = saved
    return F.upsample is saved


def run():
    if True:
        from torch.nn.utils import clip_grad_norm
    p = torch.nn.Parameter(torch.ones(3))
    p.grad = torch.ones(3) * 10
    n = clip_grad_norm([p], 1.0)
    return patch(), round(float(n), 4)
