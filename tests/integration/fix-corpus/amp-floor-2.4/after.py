# apex-like uses of torch.cuda.amp, fixed at floor 2.4 (not run: torch 1.13 lacks torch.amp.custom_fwd)
import torch
import torch.cuda.amp as amp
from torch.cuda.amp import custom_bwd


class F(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cuda")
    def forward(ctx, x):
        return x

    @staticmethod
    @torch.amp.custom_fwd(device_type="cuda", cast_inputs=torch.float32)
    def forward2(ctx, x):
        return x

    @staticmethod
    @torch.amp.custom_bwd(device_type="cuda")
    def backward(ctx, g):
        return g


def f(x, **kw):
    s = torch.amp.GradScaler("cuda", init_scale=2.0**16, enabled=True)
    t = torch.amp.GradScaler("cuda", 2.0**16)
    u = torch.cuda.amp.GradScaler(*kw)
    y = torch.amp.autocast_mode._cast(x, "cuda", torch.half)
    z = torch.amp.autocast_mode._cast(x, "cuda", dtype=torch.half)
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
