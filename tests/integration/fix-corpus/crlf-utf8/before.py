import torch


def run():
    # café: a UTF-8 comment, CRLF line ends
    p = torch.nn.Parameter(torch.ones(3))
    p.grad = torch.full((3,), 10.0)
    return float(torch.nn.utils.clip_grad_norm([p], 1.0)), "été"
