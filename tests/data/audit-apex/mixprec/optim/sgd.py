import torch
from torch.cuda.amp.autocast_mode import _cast


def step_half(params):
    return [_cast(p, torch.half) for p in params]
