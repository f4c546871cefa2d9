import torch
from torch.cuda.amp import custom_fwd

@custom_fwd
def f(x):
    return x
