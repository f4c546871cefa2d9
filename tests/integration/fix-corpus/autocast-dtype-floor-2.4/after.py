import torch


def run():
    old = torch.get_autocast_dtype("cuda")
    torch.set_autocast_dtype("cuda", torch.bfloat16)
    new = torch.get_autocast_dtype("cuda"
    )
    torch.set_autocast_dtype("cuda", old)
    return (old, new)
