"""autocast on the CPU: torch.cpu.amp.autocast becomes torch.amp.autocast("cpu")."""
import torch


def run():
    x = torch.ones(2, 2)
    with torch.amp.autocast("cpu", dtype=torch.bfloat16):
        a = torch.mm(x, x)
    with torch.amp.autocast("cpu"):  # a comment: torch.cpu.amp.autocast()
        b = torch.mm(x, x)
    with torch.amp.autocast("cpu",
        enabled=True,
        cache_enabled=False,
    ):
        c = torch.mm(x, x)
    # positional: torch.amp.autocast reads them in another order, left
    with torch.cpu.amp.autocast(True):
        d = torch.mm(x, x)
    s = "torch.cpu.amp.autocast()"
    return (a.dtype, b.dtype, c.dtype, d.dtype, a.tolist(), s)
