import torch
from torch.cuda.amp import (
    autocast,
    GradScaler as Scaler,
)


def train():
    s = Scaler()  # café
    with autocast(enabled=False):
        return s, "été"
