"""Replacements newer than the floor (1.13) used through imports: the
names from-imported (under an alias too) and the uses through module
aliases become compat names that one block binds to torch.amp's where
torch has them (2.3, 2.4); the imports left unused are dropped."""
import torch
import torch.cuda.amp as amp
from torch.cuda import amp as cuda_amp
from torch.cuda.amp import GradScaler, custom_fwd as cfwd
from torch.cuda.amp import custom_bwd


class Double(torch.autograd.Function):
    @staticmethod
    @cfwd
    def forward(ctx, x):
        return x * 2

    @staticmethod
    @custom_bwd
    def backward(ctx, g):
        return g * 2


class Half(torch.autograd.Function):
    @staticmethod
    @amp.custom_fwd(cast_inputs=torch.float32)
    def forward(ctx, x):
        return x / 2

    @staticmethod
    @cuda_amp.custom_bwd
    def backward(ctx, g):
        return g / 2


def run():
    x = torch.ones(2, requires_grad=True)
    (Double.apply(x).sum() + Half.apply(x).sum()).backward()
    s = GradScaler(enabled=False)
    t = amp.GradScaler(init_scale=2.0**8, enabled=False)
    return (x.grad.tolist(), s.is_enabled(), t.is_enabled(), t.get_scale())
