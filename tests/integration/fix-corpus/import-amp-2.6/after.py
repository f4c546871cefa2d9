# apex's shapes at its floor (2.6): from-imports of custom_fwd, custom_bwd
# and GradScaler, an alias of torch.cuda.amp; no torch imported before
import os
from typing import Optional

import torch
# noqa: F401
from torch.cuda.amp import GradScaler


class Fn(object):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cuda")
    def forward(ctx, x):
        return x

    @staticmethod
    @torch.amp.custom_fwd(device_type="cuda", cast_inputs=None)
    def forward2(ctx, x):
        return x

    @staticmethod
    @torch.amp.custom_bwd(device_type="cuda")
    def backward(ctx, g):
        return g


def train(enabled=True, scaler: Optional[torch.amp.GradScaler] = None):
    if scaler is None:
        scaler = torch.amp.GradScaler("cuda", init_scale=2.0**16, enabled=enabled)
    with torch.amp.autocast("cuda", dtype=None):
        pass
    return scaler, os.sep, isinstance(scaler, GradScaler)
