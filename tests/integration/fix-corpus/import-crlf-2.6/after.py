import torch


def train():
    s = torch.amp.GradScaler("cuda")  # café
    with torch.amp.autocast("cuda", enabled=False):
        return s, "été"
