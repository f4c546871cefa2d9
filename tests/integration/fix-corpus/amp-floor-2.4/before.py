# apex-like uses of torch.cuda.amp, fixed at floor 2.4 (not run: torch 1.13 lacks torch.amp.custom_fwd)
import torch
import torch.cuda.amp as amp
from torch.cuda.amp import custom_bwd


class F(torch.autograd.Function):
    @staticmethod
    @torch.cuda.amp.custom_fwd
    def forward(ctx, x):
        return x

    @staticmethod
    @torch.cuda.amp.custom_fwd(cast_inputs=torch.float32)
    def forward2(ctx, x):
        return x

    @staticmethod
    @torch.cuda.amp.custom_bwd
    def backward(ctx, g):
        return g


def f(x, **kw):
    s = torch.cuda.amp.GradScaler(init_scale=2.0**16, enabled=True)
    t = torch.cuda.amp.GradScaler(2.0**16)
    u = torch.cuda.amp.GradScaler(*kw)
    y = torch.cuda.amp.autocast_mode._cast(x, torch.half)
    z = torch.cuda.amp.autocast_mode._cast(x, dtype=torch.half)
    w = torch.cuda.amp.custom_fwd(f, **kw)
    v = torch.cuda.amp.custom_fwd(f, device_type="cuda")
    state = torch.cuda.amp.grad_scaler.OptState.READY
    with amp.autocast():
        pass
    try:
        g = torch.cuda.amp.GradScaler()
    except AttributeError:
        g = None
    return s, t, u, y, z, w, v, state, g, custom_bwd, "torch.cuda.amp.GradScaler()"
