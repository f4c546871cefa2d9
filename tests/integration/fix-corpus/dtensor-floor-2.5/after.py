import torch


def run():
    # DTensor moved public in 2.5: the private module is a shim
    cls = torch.distributed.tensor.DTensor
    shard = torch.distributed.tensor.Shard(0)
    return (cls.__name__, shard)
