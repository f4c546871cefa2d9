import torch


def run():
    old = torch.get_autocast_gpu_dtype()
    torch.set_autocast_gpu_dtype(torch.bfloat16)
    new = torch.get_autocast_gpu_dtype(
    )
    torch.set_autocast_gpu_dtype(old)
    return (old, new)
