"""torch._six (removed in 2.0): its inf and nan are math's floats, as
torch.inf and torch.nan are; the from-import left unused is dropped, and
`import torch._six`, every use through it rewritten, becomes `import
torch` (which it bound too)."""
import math

import torch


def run():
    x = torch.tensor([1.0, torch.inf, -torch.inf, torch.nan])
    n = torch.linalg.vector_norm(torch.tensor([3.0, -4.0]), ord=torch.inf)
    return (torch.isinf(x).tolist(), math.isnan(torch.nan), torch.inf == math.inf,
            float(n), repr(torch.inf), repr(torch.nan), torch.inf == math.inf,
            math.isnan(torch.nan))
