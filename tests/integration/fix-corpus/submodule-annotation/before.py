"""The class through the submodule that defines it, and an annotation
(a type, no call: the name alone)."""
from typing import Optional

import torch


def make(ctx: Optional[torch.cuda.amp.autocast] = None):
    return ctx if ctx is not None else torch.cuda.amp.autocast_mode.autocast(enabled=False)


def run():
    with make():
        y = torch.mm(torch.ones(2, 2), torch.ones(2, 2))
    return y.dtype, y.tolist()
