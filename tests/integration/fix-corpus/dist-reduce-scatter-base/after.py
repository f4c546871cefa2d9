"""torch.distributed._reduce_scatter_base (private, warns in 1.13):
reduce_scatter_tensor takes the same arguments and 1.13's
_reduce_scatter_base only calls it. A one-process gloo group: gloo has
no reduce-scatter of one tensor, so both raise the same error."""
import os
import tempfile

import torch
import torch.distributed as dist


def scatter(out, inp):
    # torch.distributed._reduce_scatter_base in a comment stays
    try:
        torch.distributed.reduce_scatter_tensor(out, inp, group=None, async_op=False)
    except RuntimeError as e:
        return str(e)
    return out.tolist()


def run():
    if not dist.is_available():
        return None
    # the loopback interface: no hostname to resolve (a chroot may have
    # none, and gloo then warns on stderr)
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    tmp = tempfile.TemporaryDirectory()
    name = os.path.join(tmp.name, "store")
    dist.init_process_group("gloo", init_method="file://" + name, rank=0, world_size=1)
    try:
        x = torch.arange(4.0)
        a = scatter(torch.empty(4), x)
        try:
            dist.reduce_scatter_tensor(torch.empty(4), x)
            b = None
        except RuntimeError as e:
            b = str(e)
        try:
            torch.distributed.reduce_scatter_tensor(torch.empty(4), x, dist.ReduceOp.SUM)
            c = None
        except RuntimeError as e:
            c = str(e)
        return (a, b, c)
    finally:
        dist.destroy_process_group()
        tmp.cleanup()
