# A package for torchgate require --format=html: a floor, a removal, a
# deprecation and a private API, each used in code.
import torch
from torch.cuda.amp.grad_scaler import OptState


def autocast():
    return torch.amp.autocast("cuda")


@torch.cuda.amp.custom_fwd
def forward(ctx, x):
    return x


def old(x):
    return torch.testonly.gone(x)


def state():
    return OptState.READY, torch.testonly.gone(1)
