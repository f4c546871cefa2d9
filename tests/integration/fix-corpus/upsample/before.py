import torch


def run():
    x = torch.arange(4.0).reshape(1, 1, 2, 2)
    a = torch.nn.functional.upsample(x, scale_factor=2, mode="nearest")
    b = torch.nn.functional.upsample(x, None, 2, "bilinear", False)
    c = torch.nn.functional.upsample_nearest(x, scale_factor=2)
    d = torch.nn.functional.upsample_nearest(x, None, 3)
    e = torch.nn.functional.upsample_nearest(input=x, size=(3, 3))
    f = torch.nn.functional.upsample_bilinear(x, scale_factor=2)
    g = torch.nn.functional.upsample_bilinear(x, (3, 3))
    h = torch.nn.functional.upsample_bilinear(input=x, size=(4, 3))
    return [t.tolist() for t in (a, b, c, d, e, f, g, h)]
