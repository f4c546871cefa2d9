import torch

try:  # torchgate: compat for torch < 2.4
    from torch.amp import custom_fwd as _torchgate_new_custom_fwd
except ImportError:
    from torch.cuda.amp import custom_fwd as _torchgate_custom_fwd
else:
    def _torchgate_custom_fwd(*args, **kwargs):
        return _torchgate_new_custom_fwd(*args, device_type="cuda", **kwargs)

try:  # torchgate: compat for torch < 2.3
    from torch.amp import GradScaler as _torchgate_new_GradScaler
except ImportError:
    from torch.cuda.amp import GradScaler as _torchgate_GradScaler
else:
    def _torchgate_GradScaler(*args, **kwargs):
        return _torchgate_new_GradScaler("cuda", *args, **kwargs)


@_torchgate_custom_fwd
def fwd(x):
    return x * 2


def run():
    x = torch.ones(2, 2)
    with torch.amp.autocast("cuda", enabled=False):
        y = torch.mm(x, x)
    ok = hasattr(torch.cuda.amp, "GradScaler")
    s = _torchgate_GradScaler(enabled=False)
    return (y.tolist(), ok, s.is_enabled(), fwd(x).tolist())
