# a file an earlier --fix gave its compat block, with a use added since:
# the block is reused, not added twice
import torch

try:  # torchgate: compat for torch < 2.3
    from torch.amp import GradScaler as _torchgate_new_GradScaler
except ImportError:
    from torch.cuda.amp import GradScaler as _torchgate_GradScaler
else:
    def _torchgate_GradScaler(*args, **kwargs):
        return _torchgate_new_GradScaler("cuda", *args, **kwargs)


def run():
    a = _torchgate_GradScaler(enabled=False)
    b = _torchgate_GradScaler(init_scale=4.0, enabled=False)
    return (a.is_enabled(), b.is_enabled(), b.get_scale())
