import torch


def cast_args(args, dtype):
    # the private helper, called through its full module path
    return torch.cuda.amp.autocast_mode._cast(args, dtype)
