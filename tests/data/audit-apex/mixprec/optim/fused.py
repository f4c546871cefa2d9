import torch

from torch.cuda.amp import GradScaler


class FusedStep:
    """Run one optimizer step.

    Pass a torch.cuda.amp.GradScaler when the loss was scaled.
    """

    def __init__(self, scaler: torch.cuda.amp.GradScaler = None):
        self.scaler = scaler if scaler is not None else GradScaler(init_scale=2.0**16)

    def ready(self, opt):
        state = self.scaler._per_optimizer_states[id(opt)]
        return state["stage"] is torch.cuda.amp.grad_scaler.OptState.UNSCALED

    def cast(self, ts):
        return torch.cuda.amp.autocast_mode._cast(ts, torch.float16)
