import torch


def state():
    return torch.cuda.amp.grad_scaler.OptState.READY
