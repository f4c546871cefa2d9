"""ampext: a tiny extension whose build was gated on torch by torchgate.

`import ampext` does not import torch; custom_fwd() does, when called.
"""

from . import _torch_gate  # written at build time by `torchgate emit`

# Built for one torch major.minor: refuse any other now, with a clear
# message, rather than fail obscurely later (a real extension that links
# libtorch would die on undefined symbols). check_runtime() reads torch's
# installed metadata; it does not import torch. It runs before the
# compiled module is loaded, for the same reason.
TORCH_RUNTIME_VERSION = _torch_gate.check_runtime()

from ._gate import amp_module, at_least, cxx11_abi, has_amp_custom_fwd, torch_version  # noqa: E402

TORCH_VERSION = _torch_gate.TORCH_VERSION  # the torch ampext was built for

__all__ = ["custom_fwd", "torch_version", "has_amp_custom_fwd", "amp_module",
           "at_least", "cxx11_abi", "TORCH_VERSION", "TORCH_RUNTIME_VERSION"]


def custom_fwd(fwd=None, *, cast_inputs=None):
    """torch's custom_fwd decorator for CUDA autocast, from wherever this
    torch has it: @ampext.custom_fwd or @ampext.custom_fwd(cast_inputs=...).

    The choice uses the build-time facts, which hold at run time because
    check_runtime() above made sure the major.minor is the same. torch is
    imported here, on first use, not when ampext is imported.
    """
    if _torch_gate.HAS_TORCH_AMP_CUSTOM_FWD:
        # torch >= 2.4: the device-generic one (torch.cuda.amp's is
        # deprecated there)
        from torch.amp import custom_fwd as torch_custom_fwd
        return torch_custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)
    from torch.cuda.amp import custom_fwd as torch_custom_fwd
    return torch_custom_fwd(fwd, cast_inputs=cast_inputs)
