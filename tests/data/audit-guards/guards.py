import torch
from typing import TYPE_CHECKING

try:
    from torch.cuda.amp import GradScaler
except ImportError:
    GradScaler = None

try:
    from torch.cuda.amp import custom_fwd
except ModuleNotFoundError:
    custom_fwd = None

try:
    A = torch.cuda.amp.custom_bwd
except AttributeError:
    A = None

if hasattr(torch.amp, "custom_fwd"):
    B = torch.amp.custom_fwd
else:
    B = torch.cuda.amp.custom_fwd

C = torch.amp.GradScaler if getattr(torch.amp, "GradScaler", None) else torch.cuda.amp.GradScaler

if "GradScaler" in dir(torch.amp):
    D = None
else:
    D = torch.cuda.amp.GradScaler

if torch.__version__ < "2.3":
    E = torch.cuda.amp.GradScaler

from packaging import version
if version.parse(torch.__version__) < version.parse("2.4"):
    F = torch.cuda.amp.custom_bwd

TORCH_MAJOR, TORCH_MINOR = map(int, torch.__version__.split(".")[:2])
if TORCH_MAJOR < 2 or (TORCH_MAJOR == 2 and TORCH_MINOR < 4):
    G = torch.cuda.amp.custom_fwd

if tuple(int(x) for x in torch.__version__.split(".")[:2]) < (2, 4):
    H = torch.cuda.amp.custom_bwd

if is_torch_min_version("2.4"):
    I = None
else:
    I = torch.cuda.amp.custom_fwd

from mytorch_compat import TORCH_VERSION_TUPLE, HAS_TORCH_AMP_CUSTOM_FWD
if TORCH_VERSION_TUPLE < (2, 3):
    J = torch.cuda.amp.GradScaler
if not HAS_TORCH_AMP_CUSTOM_FWD:
    K = torch.cuda.amp.custom_fwd

if TYPE_CHECKING:
    from torch.cuda.amp import GradScaler as GS

ok = hasattr(torch, "amp") and torch.cuda.amp.GradScaler

try:
    L = torch.cuda.amp.custom_bwd
except:
    L = None

try:
    M = torch.cuda.amp.custom_bwd
except Exception:
    M = None

N = torch.cuda.amp.GradScaler
