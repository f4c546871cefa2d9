import torch

from mixprec.amp.layers import Scale


def test_scale():
    x = torch.ones(2)
    with torch.cuda.amp.autocast_mode.autocast(dtype=torch.half):
        y = Scale.apply(x, 2.0)
    assert y.sum() == 4
