import inspect

import torch
import torch.distributed


def gather(out, inp):
    # torch.distributed._all_gather_base in a comment stays
    return torch.distributed.all_gather_into_tensor(out, inp, group=None, async_op=False)


def run():
    x = torch.arange(4.0)
    out = torch.empty(4)
    try:
        gather(out, x)
        err = None
    except RuntimeError as e:  # no process group: the same error from both
        err = str(e)
    return (err, str(inspect.signature(torch.distributed.all_gather_into_tensor)))
