import collections
import io

import torch


def run():
    buf = io.BytesIO()
    torch.save({"w": torch.arange(3), "meta": collections.OrderedDict(a=1)}, buf)
    buf.seek(0)
    a = torch.load(buf)
    buf.seek(0)
    b = torch.load(buf, map_location="cpu")
    buf.seek(0)
    c = torch.load(buf, weights_only=False)
    return (a["w"].tolist(), dict(a["meta"]), b["w"].tolist(), c["w"].tolist())
