import torch
from torch.cuda.amp import custom_fwd, custom_bwd


class Scale(torch.autograd.Function):
    @staticmethod
    @custom_fwd
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    @custom_bwd
    def backward(ctx, g):
        return g * ctx.k, None


def cast_inputs(xs):
    return torch.cuda.amp.autocast_mode._cast(xs, torch.half)
