import torch


def run():
    p = torch.nn.Parameter(torch.ones(3))
    p.grad = torch.full((3,), 10.0)
    n = torch.nn.utils.clip_grad_norm([p], 1.0)
    q = torch.nn.Parameter(torch.ones(2))
    q.grad = torch.full((2,), 3.0)
    m = torch.nn.utils.clip_grad_norm(parameters=[q], max_norm=1.0, norm_type=1.0)
    f = torch.nn.utils.clip_grad_norm
    return (round(float(n), 4), [round(v, 4) for v in p.grad.tolist()],
            round(float(m), 4), callable(f))
