"""Replacements newer than the floor (1.13) used through imports: the
names from-imported (under an alias too) and the uses through module
aliases become compat names that one block binds to torch.amp's where
torch has them (2.3, 2.4); the imports left unused are dropped."""
import torch

try:  # torchgate: compat for torch < 2.3
    from torch.amp import GradScaler as _torchgate_new_GradScaler
except ImportError:
    from torch.cuda.amp import GradScaler as _torchgate_GradScaler
else:
    def _torchgate_GradScaler(*args, **kwargs):
        return _torchgate_new_GradScaler("cuda", *args, **kwargs)

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
    t = _torchgate_GradScaler(init_scale=2.0**8, enabled=False)
    return (x.grad.tolist(), s.is_enabled(), t.is_enabled(), t.get_scale())
