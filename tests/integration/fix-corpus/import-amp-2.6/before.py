# apex's shapes at its floor (2.6): from-imports of custom_fwd, custom_bwd
# and GradScaler, an alias of torch.cuda.amp; no torch imported before
import os
from typing import Optional

from torch.cuda.amp import custom_fwd, custom_bwd  # noqa: F401
from torch.cuda.amp import GradScaler
import torch.cuda.amp as amp


class Fn(object):
    @staticmethod
    @custom_fwd
    def forward(ctx, x):
        return x

    @staticmethod
    @custom_fwd(cast_inputs=None)
    def forward2(ctx, x):
        return x

    @staticmethod
    @custom_bwd
    def backward(ctx, g):
        return g


def train(enabled=True, scaler: Optional[GradScaler] = None):
    if scaler is None:
        scaler = GradScaler(init_scale=2.0**16, enabled=enabled)
    with amp.autocast(dtype=None):
        pass
    return scaler, os.sep, isinstance(scaler, GradScaler)
