import torch


def run():
    # DTensor moved public in 2.5: the private module is a shim
    cls = torch.distributed._tensor.DTensor
    shard = torch.distributed._tensor.Shard(0)
    return (cls.__name__, shard)
