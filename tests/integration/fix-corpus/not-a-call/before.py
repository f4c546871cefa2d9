# uses that are no calls: a '(' on the next line starts another statement,
# and a decorator that goes on after the name is no bare decorator
# (not run: torch 1.13 lacks torch.amp.GradScaler)
import torch

S = torch.cuda.amp.GradScaler
(a, b) = 1, 2
T = torch.cuda.amp.GradScaler
(S)


@torch.cuda.amp.custom_fwd.__call__
def f(x):
    return x


@torch.cuda.amp.custom_fwd  # a comment after a bare decorator
def g(x):
    return x


h = torch.cuda.amp.GradScaler(enabled=False)
