"""Uses inside f-string fields: a rename is fixed; an inserted string is
left, since before Python 3.12 a field holds no quote of its string's kind."""
import torch


def run():
    p = torch.nn.Parameter(torch.ones(3))
    p.grad = torch.full((3,), 10.0)
    a = f"{torch.nn.utils.clip_grad_norm([p], 1.0):.4f}"
    x = torch.arange(4.0).reshape(1, 1, 2, 2)
    b = f"{torch.nn.functional.upsample_nearest(x, scale_factor=2).shape}"
    c = f'{torch.nn.functional.upsample_nearest(x, scale_factor=2).shape}'
    d = torch.nn.functional.upsample_nearest(x, scale_factor=2).shape
    return a, b, c, d
