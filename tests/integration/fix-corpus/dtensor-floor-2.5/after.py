import importlib

import torch


def run():
    # DTensor moved public in 2.5: the private module is a shim; both
    # are imported by name so that either spelling resolves
    for name in ("torch.distributed._tensor", "torch.distributed.tensor"):
        importlib.import_module(name)
    cls = torch.distributed.tensor.DTensor
    shard = torch.distributed.tensor.Shard(0)
    return (cls.__name__, shard)
