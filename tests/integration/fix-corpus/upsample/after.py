import torch


def run():
    x = torch.arange(4.0).reshape(1, 1, 2, 2)
    a = torch.nn.functional.interpolate(x, scale_factor=2, mode="nearest")
    b = torch.nn.functional.interpolate(x, None, 2, "bilinear", False)
    c = torch.nn.functional.interpolate(x, mode="nearest", scale_factor=2)
    d = torch.nn.functional.interpolate(x, None, 3, mode="nearest")
    e = torch.nn.functional.interpolate(mode="nearest", input=x, size=(3, 3))
    f = torch.nn.functional.interpolate(x, mode="bilinear", align_corners=True, scale_factor=2)
    g = torch.nn.functional.interpolate(x, (3, 3), mode="bilinear", align_corners=True)
    h = torch.nn.functional.interpolate(mode="bilinear", align_corners=True, input=x, size=(4, 3))
    return [t.tolist() for t in (a, b, c, d, e, f, g, h)]
