"""Module docstring: @deprecated("not this") and
warnings.warn("nor this is deprecated", FutureWarning)."""
import warnings
from typing_extensions import deprecated

# warnings.warn("a comment is deprecated", FutureWarning)

@deprecated(
    "`torch.cuda.amp.custom_fwd(args...)` is deprecated. "
    "Please use `torch.amp.custom_fwd(args..., device_type='cuda')` instead.",
    category=FutureWarning,
)
def custom_fwd(fwd=None, *, cast_inputs=None):
    return fwd


class autocast(torch.amp.autocast_mode.autocast):
    r"""Docstring with warnings.warn('x is deprecated')."""

    @deprecated(
        "`torch.cuda.amp.autocast(args...)` is deprecated. "
        "Please use `torch.amp.autocast(\"cuda\", args...)` instead.",
        category=FutureWarning,
    )
    def __init__(self, enabled=True):
        super().__init__("cuda", enabled=enabled)

    @staticmethod
    @typing_extensions.deprecated(f"{__name__}.helper is deprecated")
    @functools.wraps(g)
    def helper():
        def inner():
            warnings.warn(
                'inner', DeprecationWarning)
        return inner


def old(x):
    warnings.warn(f"{x!r} is deprecated, use {new} instead")
    warnings.warn("a user warning", UserWarning)
    warnings.warn("no category")
    warnings.warn(message="kw message", category=FutureWarning)
    warnings.warn("""triple
        quoted, deprecated""")
    warnings.warn(r"raw \d " + name + ' and more',
                  FutureWarning)
    warnings.warn(MSG.format(x), category=torch.jit.FutureWarning)
    return a @ deprecated(x)


MSG = ("old() is deprecated; "
       "it was replaced by `new()`")
warnings.warn("this module is deprecated in favor of torch.nn", stacklevel=2)

@_deprecation.deprecated(
    "1.13",
    "1.14",
    "remove its usage",
)
def _set_opset(v):
    pass

@_deprecation.deprecated(
    since="1.12.0", removed_in="1.14", instructions="use `torch.onnx.export` instead"
)
def _export(*args, **kwargs):
    pass
