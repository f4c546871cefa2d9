/* test_audit_py.c - unit tests for lib/audit/py: the Python analyzer
 * SPDX-License-Identifier: MIT
 *
 * Each case is a Python source and what the analyzer finds in it with
 * the built-in table, written one record per line:
 * "LINE:COL ID KIND IN GUARD" for a finding (IN code, comment or string;
 * GUARD -, G guarded or S soft, then "@LINE" and the guard's text in
 * brackets when guarded), "branch FIRST-LAST REQUIRES" for a version
 * branch, "ignore LINE IDS" for a suppression comment, "note LINE RULE"
 * for a note. Then where each shape of finding ends: the text
 * src[start..end) that names the entry, which starts at the finding's
 * line and column and ends at its end_line and end_column. Then the bad
 * inputs: none fails, each stays bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/audit/audit.h"

struct tcase {
	const char *name, *src, *want;
};

static const struct tcase cases[] = {
    /* imports of every form, then the uses through them */
    {"import-as", "import torch.cuda.amp as amp\namp.GradScaler()\n",
     "2:1 torch.cuda.amp.GradScaler call code -\n"},
    {"import-dotted",
     "import torch.distributed._tensor\n"
     "torch.distributed._tensor.DTensor\n",
     "1:8 torch.distributed._tensor import code -\n"
     "2:1 torch.distributed._tensor attribute code -\n"},
    {"from-as",
     "from torch.cuda.amp import GradScaler as GS\nGS()\nGradScaler()\n",
     "1:28 torch.cuda.amp.GradScaler import code -\n"
     "2:1 torch.cuda.amp.GradScaler call code -\n"},
    {"from-module", "from torch.cuda import amp\nx = amp.custom_fwd\n",
     "2:5 torch.cuda.amp.custom_fwd attribute code -\n"},
    {"from-parenthesized",
     "from torch.cuda.amp import (\n    custom_fwd,\n    custom_bwd,\n)\n",
     "2:5 torch.cuda.amp.custom_fwd import code -\n"
     "3:5 torch.cuda.amp.custom_bwd import code -\n"},
    {"from-star", "from torch.cuda.amp import *\n@custom_fwd\ndef f(): pass\n",
     "2:2 torch.cuda.amp.custom_fwd decorator code -\n"},
    {"relative-is-ours",
     "from .torch import cuda\nfrom . import torch\n"
     "torch.cuda.amp.GradScaler()\n",
     ""},
    {"not-torch", "import numpy as torch\ntorch.cuda.amp.GradScaler()\n", ""},
    {"import-in-function",
     "def f():\n    from torch.cuda.amp import autocast\n    return "
     "autocast()\n",
     "2:32 torch.cuda.amp.autocast import code -\n"
     "3:12 torch.cuda.amp.autocast call code -\n"},
    {"package-prefix-pattern-is-no-name",
     "import torch\nfrom torch import linalg\ntorch.linalg.norm(x)\n"
     "linalg.eigh(x)\ntorch.linalg.solve(a, b)\n",
     "5:1 torch.linalg.solve call code -\n"},
    {"module-alias", "import torch\nF = torch.nn.functional\nF.upsample(x)\n",
     "3:1 torch.nn.functional.upsample call code -\n"},
    {"rebinding-ends-alias",
     "from torch.cuda.amp import GradScaler\nGradScaler = object\n"
     "GradScaler()\ndef autocast(): pass\nimport torch.cuda.amp as a2\n"
     "a2 = None\na2.autocast()\n",
     "1:28 torch.cuda.amp.GradScaler import code -\n"},
    {"keyword-is-no-use",
     "from torch.cuda.amp import autocast\nf(autocast=1)\n",
     "1:28 torch.cuda.amp.autocast import code -\n"},
    /* references: longest prefix, kinds */
    {"longest-prefix",
     "import torch\ntorch.cuda.amp.GradScaler(init_scale=2)\n"
     "torch.distributed._tensor.foo.bar()\n",
     "2:1 torch.cuda.amp.GradScaler call code -\n"
     "3:1 torch.distributed._tensor attribute code -\n"},
    {"re-export",
     "import torch\nwith torch.cuda.amp.autocast_mode.autocast():\n"
     "    pass\ntorch.cuda.amp.grad_scaler.GradScaler\n"
     "torch.fft.rfft(x)\n",
     "2:6 torch.cuda.amp.autocast call code -\n"
     "4:1 torch.cuda.amp.GradScaler attribute code -\n"},
    {"usage-spelling",
     "import torch\ntorch.cuda.max_memory_cached()\n"
     "torch.cuda.HalfStorage\n",
     "2:1 torch.cuda.memory_cached call code -\n"
     "3:1 torch.FloatStorage attribute code -\n"},
    {"annotation",
     "import torch\nimport torch.cuda.amp as amp\n"
     "def f(s: torch.cuda.amp.GradScaler, t: \"amp.GradScaler\" = None)"
     " -> amp.GradScaler:\n    v: torch.cuda.amp.GradScaler = s\n",
     "3:10 torch.cuda.amp.GradScaler annotation code -\n"
     "3:41 torch.cuda.amp.GradScaler annotation code -\n"
     "3:68 torch.cuda.amp.GradScaler annotation code -\n"
     "4:8 torch.cuda.amp.GradScaler annotation code -\n"},
    {"method",
     "def f(x, y):\n    x.storage()\n    y.storage(1)\n"
     "    x.untyped_storage()\n    m.register_backward_hook(h)\n",
     "2:7 torch.TypedStorage method code -\n"
     "4:7 torch.Tensor.untyped_storage method code -\n"
     "5:7 torch.nn.Module.register_backward_hook method code -\n"},
    {"parameter",
     "import torch\nimport torch.nn.functional as F\n"
     "F.scaled_dot_product_attention(q, k, v, enable_gqa=True)\n"
     "m.load_state_dict(sd, assign=True)\n"
     "torch.load(p, weights_only=False)\n",
     "3:1 torch.nn.functional.scaled_dot_product_attention call code -\n"
     "3:41 torch.nn.functional.scaled_dot_product_attention.enable_gqa "
     "argument code -\n"
     "4:23 torch.nn.Module.load_state_dict.assign argument code -\n"
     "5:15 torch.load.weights_only argument code -\n"},
    /* a parameter of any function under a module (size_average= of
     * torch.nn.functional's losses): no rule names the function */
    {"parameter-under",
     "import torch\nimport torch.nn.functional as F\n"
     "F.mse_loss(x, y, size_average=False)\n"
     "torch.nn.functional.l1_loss(x, y, size_average=True)\n"
     "F.mse_loss(x, y, reduction='sum')\nG.mse_loss(x, size_average=1)\n",
     "3:18 torch.nn.functional.size_average argument code -\n"
     "4:35 torch.nn.functional.size_average argument code -\n"},
    /* the entry's other keyword (its pattern \breduce\s*=) and the loss
     * classes its third pattern names, each with either keyword; a
     * class it does not name, a keyword no pattern names and a value of
     * None alone (the patterns' (?!\s*None\b)) are not uses */
    {"parameter-keywords-classes",
     "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
     "F.l1_loss(x, y, reduce=False)\nnn.MSELoss(size_average=False)\n"
     "torch.nn.NLLLoss2d(weight=w, reduce=True)\n"
     "nn.HuberLoss(reduce=False)\nnn.MSELoss(reduction='sum')\n"
     "F.mse_loss(x, y, size_average=False, reduce=False)\n"
     "nn.L1Loss(average=False)\nF.l1_loss(x, y, reduces=1)\n"
     "F.mse_loss(x, y, size_average=None, reduce=None)\n"
     "nn.MSELoss(reduce=None if a else False)\n",
     "4:17 torch.nn.functional.size_average argument code -\n"
     "5:12 torch.nn.functional.size_average argument code -\n"
     "6:1 torch.nn.NLLLoss2d call code -\n"
     "6:30 torch.nn.functional.size_average argument code -\n"
     "9:18 torch.nn.functional.size_average argument code -\n"
     "9:38 torch.nn.functional.size_average argument code -\n"
     "13:12 torch.nn.functional.size_average argument code -\n"},
    {"behavior",
     "import torch\nimport torch.nn.functional as F\n"
     "from torch.utils.checkpoint import checkpoint\n"
     "torch.load(p)\ntorch.load(p, **kw)\nF.softmax(x)\n"
     "F.softmax(x, 1)\nF.log_softmax(x, dim=1)\n"
     "checkpoint(f, x)\ncheckpoint(f, x, use_reentrant=False)\n",
     "4:1 torch.load.weights_only_default_true call code -\n"
     "4:1 torch.load.weights_only_futurewarning call code -\n"
     "6:1 torch.nn.functional.softmax.implicit_dim call code -\n"
     "9:1 torch.utils.checkpoint.checkpoint.use_reentrant_implicit call "
     "code -\n"
     "10:18 torch.utils.checkpoint.checkpoint.use_reentrant argument code "
     "-\n"},
    /* issue 16: entries split off an entry that covered several names
     * (torch.jit.load is no longer torch.jit.script), and lookalikes
     * that are not the deprecated API */
    {"jit-split",
     "import torch\ntorch.jit.load(p)\ntorch.jit.script(m)\n"
     "torch.jit.fork(f)\ntorch.jit.trace_module(m, {})\n"
     "torch.jit.is_scripting()\n",
     "2:1 torch.jit.load call code -\n"
     "3:1 torch.jit.script call code -\n"
     "4:1 torch.jit.fork call code -\n"
     "5:1 torch.jit.trace_module call code -\n"},
    {"upsample-split",
     "import torch.nn.functional as F\nF.upsample_nearest(x, 2)\n"
     "F.upsample(x, 2)\nF.interpolate(x, 2)\n",
     "2:1 torch.nn.functional.upsample_nearest call code -\n"
     "3:1 torch.nn.functional.upsample call code -\n"
     "4:1 torch.nn.functional.interpolate call code -\n"},
    {"nn-init-underscore",
     "import torch\nimport torch.nn.init as init\n"
     "from torch.nn.init import normal, normal_\ninit.uniform(w)\n"
     "init.uniform_(w)\ntorch.nn.init.kaiming_normal_(w)\n"
     "torch.nn.init.kaiming_normal(w)\n",
     "3:27 torch.nn.init.normal import code -\n"
     "4:1 torch.nn.init.uniform call code -\n"
     "7:1 torch.nn.init.kaiming_normal call code -\n"},
    {"has-cuda",
     "import torch\nif torch.has_cuda: pass\n"
     "torch.backends.cuda.is_built()\ntorch.cuda.is_available()\n",
     "2:4 torch.has_cuda attribute code -\n"},
    {"parameter-16",
     "import torch\nimport torch.nn as nn\n"
     "torch.autograd.backward(t, grad_variables=g)\n"
     "torch.autograd.backward(t, grad_tensors=g)\n"
     "nn.Hardtanh(min_value=-2)\nnn.Hardtanh(min_val=-2)\n"
     "sched.step(epoch=3)\nsched.step()\n"
     "torch.nn.functional.gumbel_softmax(x, eps=1e-5)\n",
     "3:28 torch.autograd.backward.grad_variables argument code -\n"
     "5:13 torch.nn.Hardtanh.min_value argument code -\n"
     "7:12 torch.optim.lr_scheduler.LRScheduler.step.epoch argument code -\n"
     "9:39 torch.nn.functional.gumbel_softmax.eps argument code -\n"},
    {"method-16",
     "d.sample_n(3)\nd.sample((3,))\nctx.mark_shared_storage((a, b))\n"
     "t.resize_as(u)\nt.resize_as_(u)\n",
     "1:3 torch.distributions.Distribution.sample_n method code -\n"
     "3:5 torch.autograd.function.FunctionCtx.mark_shared_storage method code "
     "-\n"
     "4:3 torch.Tensor.resize_as method code -\n"},
    {"private-real-code",
     "from torch._utils import _flatten_dense_tensors\n"
     "import torch.distributed as dist\n"
     "dist.distributed_c10d._get_default_group()\n"
     "from mylib import _get_default_group\n_get_default_group()\n"
     "from torch.nn.modules.batchnorm import _BatchNorm\n"
     "from torch.optim.lr_scheduler import LRScheduler, _LRScheduler\n",
     "1:26 torch._utils._flatten_dense_tensors import code -\n"
     "3:1 torch.distributed.distributed_c10d._get_default_group call code -\n"
     "6:40 torch.nn.modules.batchnorm._BatchNorm import code -\n"
     "7:51 torch.optim.lr_scheduler._LRScheduler import code -\n"},
    {"private-default-collate",
     "from torch.utils.data._utils.collate import default_collate\n"
     "default_collate(batch)\n"
     "from torch.utils.data import default_collate as dc\ndc(batch)\n"
     "import torch\ntorch.utils.data._utils.collate.default_collate(b)\n",
     "1:45 torch.utils.data._utils.collate.default_collate import code -\n"
     "2:1 torch.utils.data._utils.collate.default_collate call code -\n"
     "6:1 torch.utils.data._utils.collate.default_collate call code -\n"},
    /* mentions */
    {"mentions",
     "def f():\n    \"\"\"Returns a\n    torch.cuda.amp.GradScaler.\"\"\"\n"
     "    # see torch.cuda.amp.custom_fwd\n    s = 'torch.cuda.amp'\n",
     "3:5 torch.cuda.amp.GradScaler reference string -\n"
     "4:11 torch.cuda.amp.custom_fwd reference comment -\n"},
    /* a mention of more components than a chain holds (CHAIN_MAX):
     * the first ones are matched */
    {"mention-40-components",
     "import torch\n"
     "# torch.cuda.amp.GradScaler.c0.c1.c2.c3.c4.c5.c6.c7.c8.c9."
     "c10.c11.c12.c13.c14.c15.c16.c17.c18.c19.c20.c21.c22.c23."
     "c24.c25.c26.c27.c28.c29.c30.c31.c32.c33.c34.c35.c36.c37."
     "c38.c39\n"
     "x = \"torch.cuda.amp.GradScaler.c0.c1.c2.c3.c4.c5.c6.c7.c8.c9."
     "c10.c11.c12.c13.c14.c15.c16.c17.c18.c19.c20.c21.c22.c23."
     "c24.c25.c26.c27.c28.c29.c30.c31.c32.c33.c34.c35.c36.c37."
     "c38.c39\"\n",
     "2:3 torch.cuda.amp.GradScaler reference comment -\n"
     "3:6 torch.cuda.amp.GradScaler reference string -\n"},
    /* guards */
    {"try-import",
     "try:\n    from torch.cuda.amp import custom_fwd\nexcept "
     "ImportError:\n    from torch.amp import custom_fwd\n",
     "2:32 torch.cuda.amp.custom_fwd import code G@1 [try/except "
     "ImportError]\n"
     "4:27 torch.amp.custom_fwd import code G@1 [try/except ImportError]\n"},
    /* a head bound to no torch (torch = None, twice in a try that
     * guards) resolves to nothing; its binding's guard is no later
     * import's (it stayed behind as the finding's, and pointed into the
     * bindings the import's own binding moved) */
    {"unresolved-head-guard",
     "try:\n    torch = None\nexcept ImportError:\n    torch = None\n"
     "x = torch.cuda\nfrom torch.cuda.amp import custom_fwd\n",
     "6:28 torch.cuda.amp.custom_fwd import code -\n"},
    /* a handler that binds a name again is the fallback of the body's
     * binding: later uses are the body's, guarded by the try */
    {"try-fallback-public",
     "try:\n    from torch.distributed.distributed_c10d import "
     "get_global_rank\nexcept ImportError:\n    from "
     "torch.distributed.distributed_c10d import _get_global_rank as "
     "get_global_rank\nget_global_rank(1, 2)\n",
     "4:52 torch.distributed.distributed_c10d._get_global_rank import code "
     "G@1 [try/except ImportError]\n"},
    {"try-fallback-uses",
     "try:\n    from torch.cuda.amp import custom_fwd\nexcept "
     "ImportError:\n    custom_fwd = None\n@custom_fwd\ndef f(): pass\n"
     "def g(custom_fwd):\n    return custom_fwd\ncustom_fwd(g)\n"
     "try:\n    from torch.cuda.amp import custom_bwd\nexcept "
     "Exception:\n    def custom_bwd(f): return f\ncustom_bwd(g)\n"
     "try:\n    from torch.cuda.amp import GradScaler\nexcept "
     "ImportError:\n    pass\nGradScaler()\n"
     "try:\n    from torch.cuda.amp import autocast\nexcept "
     "ImportError:\n    autocast = None\n"
     "from torch.cuda.amp import autocast\nautocast()\n",
     "2:32 torch.cuda.amp.custom_fwd import code G@1 [try/except "
     "ImportError]\n"
     "5:2 torch.cuda.amp.custom_fwd decorator code G@1 [try/except "
     "ImportError]\n"
     "9:1 torch.cuda.amp.custom_fwd call code G@1 [try/except "
     "ImportError]\n"
     "11:32 torch.cuda.amp.custom_bwd import code S@10 [try/except "
     "Exception]\n"
     "14:1 torch.cuda.amp.custom_bwd call code S@10 [try/except "
     "Exception]\n"
     "16:32 torch.cuda.amp.GradScaler import code G@15 [try/except "
     "ImportError]\n"
     "19:1 torch.cuda.amp.GradScaler call code -\n"
     "21:32 torch.cuda.amp.autocast import code G@20 [try/except "
     "ImportError]\n"
     "24:28 torch.cuda.amp.autocast import code -\n"
     "25:1 torch.cuda.amp.autocast call code -\n"},
    {"getattr",
     "import torch\nimport torch.cuda.amp as amp\n"
     "S = getattr(amp, \"GradScaler\")\n"
     "f = getattr(torch.cuda.amp, 'custom_fwd', None)\n"
     "getattr(torch.cuda.amp, name)\ngetattr(torch.cuda.amp, f\"GradScaler\")\n"
     "getattr(torch.cuda.amp, \"Grad Scaler\")\nobj.getattr(amp, "
     "\"GradScaler\")\n"
     "hasattr(amp, \"GradScaler\")\ngetattr(amp, \"GradScaler\").x\n",
     "3:5 torch.cuda.amp.GradScaler getattr code -\n"
     "4:5 torch.cuda.amp.custom_fwd getattr code G@4 [getattr with a "
     "default]\n"
     "10:1 torch.cuda.amp.GradScaler getattr code -\n"},
    {"try-fallback-alias",
     "import torch\ntry:\n    from torch.cuda.amp import custom_fwd\n"
     "except ImportError:\n    from torch.amp import custom_fwd\n"
     "@custom_fwd\ndef f(): pass\n",
     "3:32 torch.cuda.amp.custom_fwd import code G@2 [try/except "
     "ImportError]\n"
     "5:27 torch.amp.custom_fwd import code G@2 [try/except ImportError]\n"
     "6:2 torch.cuda.amp.custom_fwd decorator code G@2 [try/except "
     "ImportError]\n"},
    /* a body that binds the name otherwise (an import of another
     * package, an assignment, a def) keeps its meaning, whether or not
     * its line holds a string: the handler's import is the fallback */
    {"try-body-other",
     "try:\n    from apex.amp import custom_fwd\nexcept ImportError:\n"
     "    from torch.cuda.amp import custom_fwd\n@custom_fwd\ndef f(): "
     "pass\n"
     "try:\n    custom_bwd = mine; x = 1\nexcept ImportError:\n"
     "    from torch.cuda.amp import custom_bwd\ncustom_bwd(f)\n"
     "try:\n    GradScaler = 'mine'\nexcept ImportError:\n"
     "    from torch.cuda.amp import GradScaler\nGradScaler()\n"
     "def g():\n    try:\n        autocast = mine\n"
     "    except ImportError:\n        from torch.cuda.amp import "
     "autocast\n    autocast()\n",
     "4:32 torch.cuda.amp.custom_fwd import code G@1 [try/except "
     "ImportError]\n"
     "10:32 torch.cuda.amp.custom_bwd import code G@7 [try/except "
     "ImportError]\n"
     "15:32 torch.cuda.amp.GradScaler import code G@12 [try/except "
     "ImportError]\n"
     "21:36 torch.cuda.amp.autocast import code G@18 [try/except "
     "ImportError]\n"
     "22:5 torch.cuda.amp.autocast call code -\n"},
    {"try-fallback-removed-nested",
     "try:\n    from torch._six import inf\nexcept ModuleNotFoundError:\n"
     "    from torch import inf\nx == inf\n"
     "try:\n    from torch.compiler import is_compiling as tic\n"
     "except ImportError:\n    try:\n        from "
     "torch._dynamo.external_utils import is_compiling as tic\n"
     "    except ImportError:\n        tic = lambda: False\ntic()\n",
     "2:28 torch._six.inf import code G@1 [try/except "
     "ModuleNotFoundError]\n"
     "4:23 torch.inf import code G@1 [try/except ModuleNotFoundError]\n"
     "5:6 torch.inf reference code G@1 [try/except ModuleNotFoundError]\n"
     "7:32 torch.compiler.is_compiling import code G@6 [try/except "
     "ImportError]\n"
     "10:50 torch._dynamo.is_compiling import code G@6 [try/except "
     "ImportError]\n"
     "13:1 torch.compiler.is_compiling call code G@6 [try/except "
     "ImportError]\n"},
    /* the branches of an if that guards are alternatives too: the
     * branch a current torch takes */
    {"if-alternatives",
     "import torch\nif hasattr(torch.amp, 'custom_fwd'):\n"
     "    from torch.amp import custom_fwd\nelse:\n"
     "    from torch.cuda.amp import custom_fwd\ncustom_fwd(f)\n"
     "if TORCH_MAJOR < 2:\n    from torch.cuda.amp import custom_bwd\n"
     "elif TORCH_MINOR < 4:\n    pass\nelse:\n"
     "    from torch.amp import custom_bwd\ncustom_bwd(f)\n"
     "if hasattr(torch.cuda.amp, 'autocast'):\n"
     "    from torch.cuda.amp import autocast\nelse:\n"
     "    autocast = None\nautocast()\n"
     "if hasattr(torch.amp, 'GradScaler'):\n    pass\nelse:\n"
     "    from torch.cuda.amp import GradScaler\nGradScaler()\n"
     "if USE_OLD:\n    from torch.cuda.amp import GradScaler as G\n"
     "else:\n    from torch.amp import GradScaler as G\nG()\n",
     "3:27 torch.amp.custom_fwd import code G@2 [if hasattr(torch.amp, ...)]\n"
     "5:32 torch.cuda.amp.custom_fwd import code G@2 [if hasattr(torch.amp, "
     "...)]\n"
     "6:1 torch.amp.custom_fwd call code G@2 [if hasattr(torch.amp, ...)]\n"
     "8:32 torch.cuda.amp.custom_bwd import code G@7 [if torch version "
     "(TORCH_MAJOR)]\n"
     "12:27 torch.amp.custom_bwd import code G@7 [if torch version "
     "(TORCH_MAJOR)]\n"
     "13:1 torch.amp.custom_bwd call code G@7 [if torch version "
     "(TORCH_MAJOR)]\n"
     "15:32 torch.cuda.amp.autocast import code G@14 [if "
     "hasattr(torch.cuda.amp, ...)]\n"
     "18:1 torch.cuda.amp.autocast call code G@14 [if "
     "hasattr(torch.cuda.amp, ...)]\n"
     "22:32 torch.cuda.amp.GradScaler import code G@19 [if "
     "hasattr(torch.amp, ...)]\n"
     "23:1 torch.cuda.amp.GradScaler call code -\n"
     "25:32 torch.cuda.amp.GradScaler import code -\n"
     "27:27 torch.amp.GradScaler import code -\n"
     "28:1 torch.amp.GradScaler call code -\n"
     "branch 7-8 <2\nbranch 9-10 >=2\nbranch 11-12 >=2\n"},
    {"try-tuple-else",
     "import torch\ntry:\n    x = torch.cuda.amp.GradScaler\nexcept "
     "(KeyError, AttributeError):\n    pass\nelse:\n"
     "    torch.cuda.amp.autocast()\nfinally:\n    torch.cuda.amp.autocast()\n",
     "3:9 torch.cuda.amp.GradScaler attribute code G@2 [try/except "
     "AttributeError]\n"
     "7:5 torch.cuda.amp.autocast call code G@2 [try/except "
     "AttributeError]\n"
     "9:5 torch.cuda.amp.autocast call code -\n"},
    {"try-soft",
     "import torch\ntry:\n    torch.cuda.amp.autocast()\nexcept:\n    "
     "pass\ntry:\n    torch.cuda.amp.autocast()\nexcept Exception as e:\n"
     "    pass\ntry:\n    torch.cuda.amp.autocast()\nexcept KeyError:\n"
     "    pass\n",
     "3:5 torch.cuda.amp.autocast call code S@2 [try/bare except]\n"
     "7:5 torch.cuda.amp.autocast call code S@6 [try/except Exception]\n"
     "11:5 torch.cuda.amp.autocast call code -\n"},
    {"if-hasattr",
     "import torch\nif hasattr(torch.amp, 'GradScaler'):\n    s = "
     "torch.amp.GradScaler()\nelse:\n    s = torch.cuda.amp.GradScaler()\n"
     "torch.cuda.amp.GradScaler()\n",
     "3:9 torch.amp.GradScaler call code G@2 [if hasattr(torch.amp, ...)]\n"
     "5:9 torch.cuda.amp.GradScaler call code G@2 [if hasattr(torch.amp, "
     "...)]\n"
     "6:1 torch.cuda.amp.GradScaler call code -\n"},
    {"if-one-line",
     "import torch\nif TYPE_CHECKING: "
     "torch.cuda.amp.GradScaler\ntorch.cuda.amp.GradScaler\n",
     "2:19 torch.cuda.amp.GradScaler attribute code G@2 [if "
     "TYPE_CHECKING]\n"
     "3:1 torch.cuda.amp.GradScaler attribute code -\n"},
    {"if-dir-and-has",
     "import torch\nif 'amp' in dir(torch.cuda):\n    "
     "torch.cuda.amp.autocast()\nif HAS_TORCH_AMP:\n    "
     "torch.cuda.amp.autocast()\nif is_torch_min_version('2.4'):\n    "
     "torch.cuda.amp.autocast()\n",
     "3:5 torch.cuda.amp.autocast call code G@2 [if dir(torch.cuda)]\n"
     "5:5 torch.cuda.amp.autocast call code G@4 [if HAS_TORCH_AMP]\n"
     "7:5 torch.cuda.amp.autocast call code G@6 [if torch version "
     "(is_torch_min_version)]\n"
     "branch 6-7 >=2.4\n"},
    {"and-conditional",
     "import torch\nok = hasattr(torch, 'compile') and torch.compile(f)\n"
     "g = torch.compile(f) if hasattr(torch, 'compile') else f\n"
     "h = torch.compile(f) and hasattr(torch, 'compile')\n",
     "2:36 torch.compile call code G@2 [hasattr(torch, ...) and ...]\n"
     "3:5 torch.compile call code G@3 [if hasattr(torch, ...) "
     "(conditional expression)]\n"
     "4:5 torch.compile call code -\n"},
    {"nested-blocks",
     "import torch\nif TORCH_MAJOR >= 2:\n    def f():\n        "
     "torch.compile(g)\ndef h():\n    torch.compile(g)\n",
     "4:9 torch.compile call code G@2 [if torch version (TORCH_MAJOR)]\n"
     "6:5 torch.compile call code -\n"
     "branch 2-4 >=2\n"},
    /* version branches */
    {"branch-tuple",
     "import torch\nif TORCH_VERSION >= (2, 4):\n    a = 1\nelif "
     "TORCH_VERSION > (2, 0):\n    a = 2\nelse:\n    a = 3\n"
     "b = 1\n",
     "branch 2-3 >=2.4\nbranch 4-5 <2.4,>=2.1\nbranch 6-7 <2.4,<2.1\n"},
    {"branch-parse",
     "import torch\nfrom packaging import version\nif "
     "version.parse(torch.__version__) < version.parse(\"2.4\"):\n    "
     "x = 1\n    y = 2\nelse:\n    x = 2\n",
     "branch 3-5 <2.4\nbranch 6-7 >=2.4\n"},
    {"branch-flipped-and",
     "if (2, 1) <= TORCH_VERSION and TORCH_VERSION < (2, 4):\n    x = 1\n",
     "branch 1-2 >=2.1,<2.4\n"},
    {"branch-string-compare",
     "import torch\nif torch.__version__ >= '2.4':\n    x = 1\n",
     "note 2 audit-string-version\n"},
    /* suppressions */
    {"suppression",
     "import torch\ntorch.cuda.amp.autocast()  # torchgate: "
     "ignore[torch.cuda.amp.autocast, torch.compile]\nx = 1  # torchgate: "
     "ignore\ny = 1  # torchgate: ignored\n",
     "2:1 torch.cuda.amp.autocast call code -\n"
     "ignore 2 torch.cuda.amp.autocast,torch.compile\nignore 3 \n"},
    /* the apex shapes, in our own words */
    {"apex",
     "import torch\nfrom torch.cuda.amp import custom_fwd, custom_bwd\n"
     "from torch.cuda.amp import GradScaler\n\n"
     "def cast(x):\n    return torch.cuda.amp.autocast_mode._cast(x, "
     "torch.half)\n\n"
     "class Fn(torch.autograd.Function):\n    @staticmethod\n"
     "    @custom_fwd\n    def forward(ctx, x):\n        return x\n\n"
     "    @staticmethod\n    @custom_bwd\n    def backward(ctx, g):\n"
     "        return g\n\n"
     "def step(scaler: torch.cuda.amp.GradScaler):\n"
     "    \"\"\"scaler is a torch.cuda.amp.GradScaler.\"\"\"\n"
     "    state = torch.cuda.amp.grad_scaler.OptState.UNSCALED\n"
     "    return GradScaler(), state\n",
     "2:28 torch.cuda.amp.custom_fwd import code -\n"
     "2:40 torch.cuda.amp.custom_bwd import code -\n"
     "3:28 torch.cuda.amp.GradScaler import code -\n"
     "6:12 torch.cuda.amp.autocast_mode._cast call code -\n"
     "10:6 torch.cuda.amp.custom_fwd decorator code -\n"
     "15:6 torch.cuda.amp.custom_bwd decorator code -\n"
     "19:18 torch.cuda.amp.GradScaler annotation code -\n"
     "20:20 torch.cuda.amp.GradScaler reference string -\n"
     "21:13 torch.cuda.amp.grad_scaler.OptState attribute code -\n"
     "22:12 torch.cuda.amp.GradScaler call code -\n"},
};

static void
render(const struct tg_audit_result *r, char *out, size_t cap)
{
	static const char *const in[] = {"code", "comment", "string"};
	static const char *const g[] = {"-", "G", "S"};
	size_t k, j, n = 0;

	out[0] = '\0';
	for (k = 0; k < r->nfindings; k++) {
		const struct tg_audit_finding *f = &r->findings[k];

		n += (size_t)snprintf(out + n, cap - n, "%zu:%zu %s %s %s %s",
				      f->line, f->column, f->api->id, f->kind,
				      in[f->in], g[f->guard]);
		if (f->guard_text && n < cap)
			n += (size_t)snprintf(out + n, cap - n, "@%zu [%s]",
					      f->guard_line, f->guard_text);
		if (n < cap)
			n += (size_t)snprintf(out + n, cap - n, "\n");
	}
	for (k = 0; k < r->nbranches && n < cap; k++)
		n += (size_t)snprintf(out + n, cap - n, "branch %zu-%zu %s\n",
				      r->branches[k].first_line,
				      r->branches[k].last_line,
				      r->branches[k].requires);
	for (k = 0; k < r->nsuppressions && n < cap; k++) {
		n += (size_t)snprintf(out + n, cap - n, "ignore %zu ",
				      r->suppressions[k].line);
		for (j = 0; j < r->suppressions[k].nids && n < cap; j++)
			n += (size_t)snprintf(out + n, cap - n, "%s%s",
					      j ? "," : "",
					      r->suppressions[k].ids[j]);
		if (n < cap)
			n += (size_t)snprintf(out + n, cap - n, "\n");
	}
	for (k = 0; k < r->notes.n && n < cap; k++)
		n += (size_t)snprintf(
		    out + n, cap - n, "note %zu %s\n", r->notes.v[k].line,
		    r->notes.v[k].rule ? r->notes.v[k].rule : "-");
}

static void
test_cases(const struct tg_audit_py_index *ix)
{
	static char got[65536];
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
		struct tg_err err;
		int rc;

		rc = tg_audit_py_indexed(ix, cases[k].src, strlen(cases[k].src),
					 "t.py", &r, &err);
		CHECK(rc == 0, "%s: rc %d", cases[k].name, rc);
		render(&r, got, sizeof(got));
		CHECK(strcmp(got, cases[k].want) == 0,
		      "%s:\n--- got\n%s--- want\n%s", cases[k].name, got,
		      cases[k].want);
		tg_audit_result_release(&r);
	}
}

/* The lexical errors the analyzer counts as it reads a file are those
 * of its tokenizer over the whole buffer (what the fix check compares);
 * a file no entry may name is not read, and says so. */
static void
test_lex_errors(const struct tg_audit_py_index *ix)
{
	static const char *const srcs[] = {
	    "import torch\ntorch.cuda.amp.GradScaler()\n",
	    "import torch\nx = (1, $\ntorch.cuda.amp.autocast()\ny = ']\n",
	    "import torch\n)\n'''never\n",
	    "import torch\nf(torch.cuda.amp.autocast(\n",
	    "import torch\ns = 'a' ? `x` ) ] }\n"};
	size_t k;

	for (k = 0; k < sizeof(srcs) / sizeof(srcs[0]); k++) {
		struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
		struct tg_err err;
		size_t want = tg_audit_py_lex_errors(srcs[k], strlen(srcs[k]));

		CHECK(tg_audit_py_indexed(ix, srcs[k], strlen(srcs[k]), "t.py",
					  &r, &err) == 0,
		      "lex errors %zu", k);
		CHECK(r.lexed && r.lex_errors == want &&
			  (k == 0) == (want == 0),
		      "lex errors %zu: lexed %d, %zu, want %zu", k, r.lexed,
		      r.lex_errors, want);
		tg_audit_result_release(&r);
	}
	{
		struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
		struct tg_err err;

		CHECK(tg_audit_py_indexed(ix, "x = (\n", 6, "t.py", &r, &err) ==
			      0 &&
			  !r.lexed,
		      "a file not read is not lexed");
		tg_audit_result_release(&r);
	}
}

/* tg_audit_py builds its own index: the same answer. */
static void
test_unindexed(const struct tg_table *t)
{
	struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
	struct tg_err err;
	const char src[] = "import torch\ntorch.cuda.amp.GradScaler()\n";

	CHECK(tg_audit_py(t, src, strlen(src), "t.py", &r, &err) == 0,
	      "tg_audit_py");
	CHECK(r.nfindings == 1 && r.findings[0].line == 2 &&
		  strcmp(r.findings[0].api->id, "torch.cuda.amp.GradScaler") ==
		      0,
	      "tg_audit_py: %zu findings", r.nfindings);
	tg_audit_result_release(&r);
}

/* Where a finding ends: the first finding of entry id (and kind, when
 * not NULL) in src names it with the text want, which starts at its
 * line and column and ends at its end_line and end_column. */
struct scase {
	const char *name, *src, *id, *kind, *want;
	size_t end_line;
};

static const struct scase spans[] = {
    {"chain", "import torch\nx = torch.cuda.amp.autocast(enabled=True)\n",
     "torch.cuda.amp.autocast", "call", "torch.cuda.amp.autocast", 2},
    {"chain longer than the entry",
     "import torch\ntorch.distributed._tensor.foo.bar()\n",
     "torch.distributed._tensor", "attribute", "torch.distributed._tensor", 2},
    {"re-export through a submodule",
     "import torch\nwith torch.cuda.amp.autocast_mode.autocast():\n    pass\n",
     "torch.cuda.amp.autocast", "call", "torch.cuda.amp.autocast_mode.autocast",
     2},
    {"chain over two lines",
     "import torch\nx = (torch.cuda\n     .amp.autocast)\n",
     "torch.cuda.amp.autocast", NULL, "torch.cuda\n     .amp.autocast", 3},
    {"alias", "import torch.cuda.amp as amp\namp.GradScaler()\n",
     "torch.cuda.amp.GradScaler", "call", "amp.GradScaler", 2},
    {"alias of the entry itself",
     "from torch.cuda.amp import GradScaler as GS\nGS()\n",
     "torch.cuda.amp.GradScaler", "call", "GS", 2},
    {"import of a module", "import torch.distributed._tensor as dt\n",
     "torch.distributed._tensor", "import", "torch.distributed._tensor", 1},
    {"from-import", "from torch.cuda.amp import autocast\n",
     "torch.cuda.amp.autocast", "import", "autocast", 1},
    {"from-import, parenthesized",
     "from torch.cuda.amp import (\n    custom_fwd,\n)\n",
     "torch.cuda.amp.custom_fwd", "import", "custom_fwd", 2},
    {"decorator",
     "from torch.cuda.amp import custom_fwd\n@custom_fwd\ndef f(): pass\n",
     "torch.cuda.amp.custom_fwd", "decorator", "custom_fwd", 2},
    {"decorator chain", "import torch\n@torch.jit.script\ndef f(): pass\n",
     "torch.jit.script", "decorator", "torch.jit.script", 2},
    {"annotation",
     "import torch\ndef f(s: torch.cuda.amp.GradScaler = None): pass\n",
     "torch.cuda.amp.GradScaler", "annotation", "torch.cuda.amp.GradScaler", 2},
    {"string annotation",
     "import torch\ndef f(s: 'torch.cuda.amp.GradScaler'): pass\n",
     "torch.cuda.amp.GradScaler", "annotation", "torch.cuda.amp.GradScaler", 2},
    {"string annotation through an alias",
     "from torch.cuda import amp\ndef f(s: \"amp.GradScaler\"): pass\n",
     "torch.cuda.amp.GradScaler", "annotation", "amp.GradScaler", 2},
    {"getattr",
     "import torch\nf = getattr(torch.cuda.amp, 'custom_fwd', None)\n",
     "torch.cuda.amp.custom_fwd", "getattr",
     "getattr(torch.cuda.amp, 'custom_fwd'", 2},
    {"keyword argument", "import torch\ntorch.load(p, weights_only=False)\n",
     "torch.load.weights_only", "argument", "weights_only", 2},
    {"method", "def f(x):\n    x.untyped_storage()\n",
     "torch.Tensor.untyped_storage", "method", "untyped_storage", 2},
    {"behaviour", "import torch\ntorch.load (p)\n",
     "torch.load.weights_only_default_true", "call", "torch.load", 2},
    {"f-string field", "import torch\ns = f'{torch.cuda.amp.autocast()}'\n",
     "torch.cuda.amp.autocast", "call", "torch.cuda.amp.autocast", 2},
    {"mention in a comment", "# use torch.cuda.amp.autocast.foo here\n",
     "torch.cuda.amp.autocast", "reference", "torch.cuda.amp.autocast", 1},
    {"mention in a string, on its second line",
     "s = \"\"\"see\n  torch.cuda.amp.GradScaler.\"\"\"\n",
     "torch.cuda.amp.GradScaler", "reference", "torch.cuda.amp.GradScaler", 2},
};

/* The byte offset of line, column (1-based) in src. */
static size_t
offset_of(const char *src, size_t line, size_t column)
{
	size_t k = 0;

	for (; line > 1 && src[k]; k++)
		if (src[k] == '\n')
			line--;
	return k + column - 1;
}

static void
test_spans(const struct tg_audit_py_index *ix)
{
	size_t k, j;

	for (k = 0; k < sizeof(spans) / sizeof(spans[0]); k++) {
		const struct scase *c = &spans[k];
		struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
		const struct tg_audit_finding *f = NULL;
		struct tg_err err;
		size_t n = strlen(c->want);

		CHECK(tg_audit_py_indexed(ix, c->src, strlen(c->src), "t.py",
					  &r, &err) == 0,
		      "%s: rc", c->name);
		for (j = 0; j < r.nfindings && !f; j++)
			if (strcmp(r.findings[j].api->id, c->id) == 0 &&
			    (!c->kind ||
			     strcmp(r.findings[j].kind, c->kind) == 0))
				f = &r.findings[j];
		CHECK(f != NULL, "%s: no finding of %s", c->name, c->id);
		if (f) {
			CHECK(f->end - f->start == n &&
				  memcmp(c->src + f->start, c->want, n) == 0,
			      "%s: src[%zu..%zu) is '%.*s', want '%s'", c->name,
			      f->start, f->end, (int)(f->end - f->start),
			      c->src + f->start, c->want);
			CHECK(offset_of(c->src, f->line, f->column) == f->start,
			      "%s: %zu:%zu is not offset %zu", c->name, f->line,
			      f->column, f->start);
			CHECK(f->end_line == c->end_line &&
				  offset_of(c->src, f->end_line,
					    f->end_column) == f->end,
			      "%s: end %zu:%zu, want line %zu, offset %zu",
			      c->name, f->end_line, f->end_column, c->end_line,
			      f->end);
		}
		tg_audit_result_release(&r);
	}
}

/* Bad input: never an error, bounded. */
static void
run_bad(const struct tg_audit_py_index *ix, const char *name, const char *s,
	size_t n, size_t want_min, const char *want_rule)
{
	struct tg_audit_result r = TG_AUDIT_RESULT_INIT;
	struct tg_err err;
	size_t k;
	int rc, seen = want_rule == NULL;

	rc = tg_audit_py_indexed(ix, s, n, "bad.py", &r, &err);
	CHECK(rc == 0, "%s: rc %d", name, rc);
	CHECK(r.nfindings >= want_min, "%s: %zu findings, want >= %zu", name,
	      r.nfindings, want_min);
	for (k = 0; k < r.notes.n; k++)
		if (want_rule && r.notes.v[k].rule &&
		    strcmp(r.notes.v[k].rule, want_rule) == 0)
			seen = 1;
	CHECK(seen, "%s: no note %s", name, want_rule);
	tg_audit_result_release(&r);
}

static void
test_bad(const struct tg_audit_py_index *ix)
{
	static const char nul[] = "import torch\0\ntorch.cuda.amp.autocast()\n";
	static const char utf[] = "import torch\n\xff\xfe = 1\n"
				  "torch.cuda.amp.autocast() # \xc3\n";
	static const char unterminated[] = "import torch\ns = '''torch.cuda."
					   "amp.GradScaler\n";
	static const char deep_if[] = "if TORCH_VERSION >= (2,:\n  x\n";
	size_t n, k;
	char *s;

	run_bad(ix, "nul", nul, sizeof(nul) - 1, 1, "audit-nul");
	run_bad(ix, "utf8", utf, sizeof(utf) - 1, 1, NULL);
	run_bad(ix, "unterminated", unterminated, sizeof(unterminated) - 1, 1,
		NULL);
	run_bad(ix, "half-test", deep_if, sizeof(deep_if) - 1, 0, NULL);
	/* 100,000 nested brackets, then a use */
	n = 200000 + 64;
	s = malloc(n);
	CHECK(s != NULL, "malloc");
	if (!s)
		return;
	for (k = 0; k < 100000; k++)
		s[k] = '(';
	memcpy(s + 100000, "torch.cuda.amp.autocast()", 25);
	for (k = 100025; k < 200025; k++)
		s[k] = ')';
	s[200025] = '\n';
	run_bad(ix, "nested", s, 200026, 1, "audit-limit");
	free(s);
	/* 100 MB on one line: names and dots, a chain per 64 bytes */
	n = (size_t)100 * 1024 * 1024;
	s = malloc(n);
	CHECK(s != NULL, "malloc");
	if (!s)
		return;
	for (k = 0; k + 64 <= n; k += 64)
		memcpy(s + k,
		       "torch.cuda.amp.autocast();x=torch.compile+1;y=[1,"
		       "2,3,4,5,6,7,8];",
		       64);
	for (; k < n; k++)
		s[k] = ' ';
	run_bad(ix, "100MB-line", s, n, 1, "audit-limit");
	free(s);
}

int
main(void)
{
	struct tg_table t = TG_TABLE_INIT;
	struct tg_audit_py_index *ix = NULL;
	struct tg_err err;

	CHECK(tg_table_default(&t, &err) == 0, "table: %s", err.msg);
	CHECK(tg_audit_py_index_new(&ix, &t, &err) == 0, "index: %s", err.msg);
	if (ix) {
		test_cases(ix);
		test_spans(ix);
		test_bad(ix);
		test_lex_errors(ix);
	}
	test_unindexed(&t);
	tg_audit_py_index_free(ix);
	tg_table_release(&t);
	return check_result("test_audit_py");
}
