import torch


def state():
    return torch.amp.grad_scaler.OptState.READY
