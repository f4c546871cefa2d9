"""Replacements newer than the floor (1.13): written as compat names that
one block binds to torch.amp's where torch has them (2.3, 2.4)."""
from __future__ import annotations

import torch
import torch.nn as nn  # after the last leading import: the block

try:  # torchgate: compat for torch < 2.4
    from torch.amp import custom_fwd as _torchgate_new_custom_fwd
except ImportError:
    from torch.cuda.amp import custom_fwd as _torchgate_custom_fwd
else:
    def _torchgate_custom_fwd(*args, **kwargs):
        return _torchgate_new_custom_fwd(*args, device_type="cuda", **kwargs)

try:  # torchgate: compat for torch < 2.4
    from torch.amp import custom_bwd as _torchgate_new_custom_bwd
except ImportError:
    from torch.cuda.amp import custom_bwd as _torchgate_custom_bwd
else:
    def _torchgate_custom_bwd(*args, **kwargs):
        return _torchgate_new_custom_bwd(*args, device_type="cuda", **kwargs)

try:  # torchgate: compat for torch < 2.3
    from torch.amp import GradScaler as _torchgate_new_GradScaler
except ImportError:
    from torch.cuda.amp import GradScaler as _torchgate_GradScaler
else:
    def _torchgate_GradScaler(*args, **kwargs):
        return _torchgate_new_GradScaler("cuda", *args, **kwargs)

try:  # torchgate: compat for torch < 2.4
    from torch.amp.autocast_mode import _cast as _torchgate_new__cast
except ImportError:
    from torch.cuda.amp.autocast_mode import _cast as _torchgate__cast
else:
    def _torchgate__cast(*args, **kwargs):
        return _torchgate_new__cast(*args[:1], "cuda", *args[1:], **kwargs)

try:  # torchgate: compat for torch < 2.4
    from torch import set_autocast_dtype as _torchgate_new_set_autocast_gpu_dtype
except ImportError:
    from torch import set_autocast_gpu_dtype as _torchgate_set_autocast_gpu_dtype
else:
    def _torchgate_set_autocast_gpu_dtype(*args, **kwargs):
        return _torchgate_new_set_autocast_gpu_dtype("cuda", *args, **kwargs)

try:  # torchgate: compat for torch < 2.4
    from torch import get_autocast_dtype as _torchgate_new_get_autocast_gpu_dtype
except ImportError:
    from torch import get_autocast_gpu_dtype as _torchgate_get_autocast_gpu_dtype
else:
    def _torchgate_get_autocast_gpu_dtype(*args, **kwargs):
        return _torchgate_new_get_autocast_gpu_dtype("cuda", *args, **kwargs)


class Double(torch.autograd.Function):
    @staticmethod
    @_torchgate_custom_fwd
    def forward(ctx, x):
        return x * 2

    @staticmethod
    @_torchgate_custom_bwd
    def backward(ctx, g):
        return g * 2


class Half(torch.autograd.Function):
    @staticmethod
    @_torchgate_custom_fwd(cast_inputs=torch.float32)
    def forward(ctx, x):
        return x / 2

    @staticmethod
    @_torchgate_custom_bwd
    def backward(ctx, g):
        return g / 2


def run():
    x = torch.ones(2, requires_grad=True)
    (Double.apply(x).sum() + Half.apply(x).sum()).backward()
    s = _torchgate_GradScaler(enabled=False)
    c = _torchgate__cast(torch.ones(2), torch.float64)
    _torchgate_set_autocast_gpu_dtype(torch.float16)
    d = _torchgate_get_autocast_gpu_dtype()
    lin = nn.Linear(2, 2)
    return (x.grad.tolist(), s.is_enabled(), c.dtype, d, lin.in_features)
