"""A lazy import in a function, no torch at module level: `import torch`
is added in the function, where the name was bound."""
import math


def run():
    import torch
    from torch import ones, mm

    x = ones(2, 2)
    with torch.amp.autocast("cpu", cache_enabled=False):
        a = mm(x, x)
    return (a.dtype, math.floor(float(a.sum())))
