#!/usr/bin/env python3
# warn-check.py - the table's warning facts against an imported torch
# SPDX-License-Identifier: MIT
#
# usage: warn-check.py [--table FILE] [--json FILE] [--only ID]...
#
# A research and test tool (torchgate itself never imports torch), run
# by the interpreter that has the torch. For every Python entry whose
# warning is a Python warning (category FutureWarning,
# DeprecationWarning, UserWarning or RuntimeWarning) and whose status in
# this torch is deprecated (the table's introduced, deprecated and
# removed versions against torch.__version__'s release, as torchgate
# compares them) and whose warning.since is this release or older, it
# touches the entry with warnings recorded (simplefilter "always"):
#
#   module     imports it in a fresh interpreter (an import torch did
#              before would hide the warning), the warnings of
#              `import torch` itself left out; a module with a recipe
#              (one whose functions warn, not its import) as below
#   otherwise  resolves the id (import of the longest module prefix,
#              then getattr: an attribute that warns on access warns
#              here) and then runs the entry's recipe below, if it has
#              one: a call with a harmless argument (a small tensor, a
#              throw-away module, a no-op function), a decoration, a
#              read of a property on an instance made for it. A recipe
#              may raise after warning (a CPU build asked for CUDA): the
#              warnings recorded up to there count.
#
# An entry without a recipe whose access did not warn is skipped, with
# the reason: no recipe (no call known to be harmless), or the one the
# SKIP table gives (needs CUDA, a process group, changes process-wide
# state...). A touch that recorded warnings is compared with the table:
# ok when one warning has the table's category (by name: a
# DeprecationWarning is no FutureWarning) and a message that starts
# with the table's message (blanks folded, backquotes ignored, a <name>
# of the table's message standing for any word); else
# differs, with what was recorded; silent when nothing was recorded
# (the warning may be once per process, or the recipe misses the path).
# Prints one line per entry and the counts; --json FILE writes them.
# Exit 0 when nothing differs, 1 when something does, 2 usage.
import argparse
import importlib
import json
import os
import re
import subprocess
import sys
import warnings

CATS = {"FutureWarning", "DeprecationWarning", "UserWarning", "RuntimeWarning"}

# id -> (what it does, code run with torch, t (a 2x2 float tensor), A (a
# 2x2 well-conditioned matrix), obj (the resolved object) in scope)
RECIPES = {
    "functorch.vmap": ("call", "obj(lambda x: x)(t)"),
    "torch._custom_op": ("call of the helper its APIs call", "torch._custom_op.impl.warn_deprecated()"),
    "torch.ao.quantization": ("call", "obj.prepare(torch.nn.Sequential(torch.nn.Linear(2, 2)))"),
    "torch._vmap_internals.vmap": ("call", "obj(lambda x: x)(t)"),
    "torch.FloatStorage": ("construct", "torch.storage._reset_warn_typed_storage_removal(); obj(2)"),
    "torch.TypedStorage": ("construct", "torch.storage._reset_warn_typed_storage_removal(); obj(2)"),
    "torch._streambase._EventBase": ("subclass", "type('E', (obj,), {})"),
    "torch._streambase._StreamBase": ("subclass", "type('S', (obj,), {})"),
    "torch._prims_common.check": ("call", "obj(True, lambda: 'x')"),
    "torch._utils.is_compiling": ("call", "obj()"),
    "torch.ao.nn.quantized.functional.upsample": ("call", "obj(torch.quantize_per_tensor(t.view(1, 1, 2, 2), 0.1, 0, torch.quint8), scale_factor=2)"),
    "torch.ao.nn.quantized.functional.upsample_bilinear": ("call", "obj(torch.quantize_per_tensor(t.view(1, 1, 2, 2), 0.1, 0, torch.quint8), scale_factor=2)"),
    "torch.ao.nn.quantized.functional.upsample_nearest": ("call", "obj(torch.quantize_per_tensor(t.view(1, 1, 2, 2), 0.1, 0, torch.quint8), scale_factor=2)"),
    "torch.ao.quantization.QConfigDynamic": ("construct", "obj()"),
    "torch.ao.quantization.get_default_qat_qconfig_dict": ("call", "obj()"),
    "torch.ao.quantization.get_default_qconfig_dict": ("call", "obj()"),
    "torch.autograd.function.FunctionCtx.mark_shared_storage": ("call", "torch.autograd.function.FunctionCtx().mark_shared_storage()"),
    "torch.autograd.profiler_util.FunctionEvent.metadata_json": ("read", "_event().metadata_json"),
    "torch.autograd.profiler_util.FunctionEvent.cuda_time_total": ("read", "_event().cuda_time_total"),
    "torch.autograd.profiler_util.FunctionEvent.self_cuda_time_total": ("read", "_event().self_cuda_time_total"),
    "torch.autograd.profiler_util.FunctionEvent.self_cuda_memory_usage": ("read", "_event().self_cuda_memory_usage"),
    "torch.autograd.profiler_util.FormattedTimesMixin.cuda_time": ("read", "_event().cuda_time"),
    "torch.backends.cuda.sdp_kernel": ("enter", "obj().__enter__()"),
    "torch.chain_matmul": ("call", "obj(A, A)"),
    "torch.cpu.amp.GradScaler": ("construct", "obj()"),
    "torch.cpu.amp.autocast": ("construct", "obj()"),
    "torch.cuda.amp.GradScaler": ("construct", "obj(enabled=False)"),
    "torch.cuda.amp.autocast": ("construct", "obj(enabled=False)"),
    "torch.cuda.amp.custom_bwd": ("decorate", "obj(lambda ctx, g: g)"),
    "torch.cuda.amp.custom_fwd": ("decorate", "obj(lambda ctx, x: x)"),
    "torch.distributions.Distribution.sample_n": ("call", "torch.distributions.Normal(0.0, 1.0).sample_n(2)"),
    "torch.fx.experimental.symbolic_shapes.ShapeEnv.size_hint": ("call", "torch.fx.experimental.symbolic_shapes.ShapeEnv().size_hint(__import__('sympy').Integer(3))"),
    "torch.jit.fork": ("call", "torch.jit.wait(obj(lambda x: x, t))"),
    "torch.jit.wait": ("call", "obj(torch.jit.fork(lambda x: x, t))"),
    "torch.jit.script": ("call", "obj(_f)"),
    "torch.jit.trace": ("call", "obj(_f, (t,))"),
    "torch.jit.trace_module": ("call", "obj(torch.nn.Identity(), {'forward': (t,)})"),
    "torch.jit.save": ("call", "obj(_scripted(), __import__('io').BytesIO())"),
    "torch.jit.load": ("call", "obj(_saved())"),
    "torch.jit.freeze": ("call", "obj(_scripted().eval())"),
    "torch.jit.interface": ("decorate", "obj(type('I', (torch.nn.Module,), {'forward': _fwd}))"),
    "torch.jit.script_method": ("decorate", "obj(_fwd)"),
    "torch.lu": ("call", "obj(A)"),
    "torch.lu_solve": ("call", "obj(t, *torch.linalg.lu_factor(A))"),
    "torch.nn.Container": ("construct", "obj()"),
    "torch.nn.NLLLoss2d": ("construct", "obj()"),
    "torch.nn.Module.register_backward_hook": ("call, then backward", "_backward_hooked()"),
    "torch.nn.functional.sigmoid": ("call", "obj(t)"),
    "torch.nn.functional.upsample": ("call", "obj(t.view(1, 1, 2, 2), scale_factor=2)"),
    "torch.nn.functional.upsample_bilinear": ("call", "obj(t.view(1, 1, 2, 2), scale_factor=2)"),
    "torch.nn.functional.upsample_nearest": ("call", "obj(t.view(1, 1, 2, 2), scale_factor=2)"),
    "torch.nn.init.constant": ("call", "obj(t.clone(), 0.5)"),
    "torch.nn.init.dirac": ("call", "obj(torch.empty(2, 2, 3))"),
    "torch.nn.init.eye": ("call", "obj(t.clone())"),
    "torch.nn.init.kaiming_normal": ("call", "obj(t.clone())"),
    "torch.nn.init.kaiming_uniform": ("call", "obj(t.clone())"),
    "torch.nn.init.normal": ("call", "obj(t.clone())"),
    "torch.nn.init.orthogonal": ("call", "obj(t.clone())"),
    "torch.nn.init.sparse": ("call", "obj(t.clone(), 0.5)"),
    "torch.nn.init.uniform": ("call", "obj(t.clone())"),
    "torch.nn.init.xavier_normal": ("call", "obj(t.clone())"),
    "torch.nn.init.xavier_uniform": ("call", "obj(t.clone())"),
    "torch.nn.utils.clip_grad_norm": ("call", "obj([torch.nn.Parameter(t.clone())], 1.0)"),
    "torch.nn.utils.stateless.functional_call": ("call", "obj(torch.nn.Identity(), {}, (t,))"),
    "torch.nn.utils.weight_norm": ("call", "__import__('torch.nn.utils.weight_norm', fromlist=['x']).weight_norm(torch.nn.Linear(2, 2))"),
    "torch.range": ("call", "obj(0, 1)"),
    "torch.get_autocast_gpu_dtype": ("call", "obj()"),
    "torch.cuda.memory_cached": ("call", "obj()"),
    "torch.cuda.reset_max_memory_allocated": ("call", "obj()"),
    "torch.cuda.amp.autocast_mode._cast": ("call", "obj(t, torch.float16)"),
    "torch.nn.parallel.scatter_gather.is_namedtuple": ("call", "obj(1)"),
    "torch.nn.modules.rnn.apply_permutation": ("call", "obj(t, torch.tensor([1, 0]))"),
    "torch.ao.nn.quantized.dynamic.modules.rnn.apply_permutation": ("call", "obj(t, torch.tensor([1, 0]))"),
    "torch.fx.experimental.symbolic_shapes.guard_size_oblivious": ("call", "obj(True)"),
    "torch.utils.cpp_extension._get_pybind11_abi_build_flags": ("call", "obj()"),
    "torch.utils._pytree._register_pytree_node": ("call", "obj(type('P', (), {}), lambda x: ([], None), lambda v, c: None)"),
    "torch.distributed.reduce_op": ("read", "obj.SUM"),
    "torch.qr": ("call", "obj(A)"),
    "torch.cholesky": ("call", "obj(A)"),
    "torch.symeig": ("call", "obj(A)"),
    "torch.Tensor.resize_as": ("call", "t.clone().resize_as(t)"),
    "torch.testing.assert_allclose": ("call", "obj(t, t)"),
    "torch.triangular_solve": ("call", "obj(t, A)"),
    "torch.utils._pytree.LeafSpec": ("construct", "obj()"),
    "torch.utils._pytree.TreeSpec.children_specs": ("read", "torch.utils._pytree.tree_flatten([1, 2])[1].children_specs"),
    "torch.utils._pytree._is_leaf": ("call", "obj(1)"),
    "torch.utils._pytree._is_namedtuple_instance": ("call", "obj(1)"),
    "torch.utils._pytree.pytree_to_str": ("call", "obj(torch.utils._pytree.tree_flatten([1])[1])"),
    "torch.utils._pytree.str_to_pytree": ("call", "obj(torch.utils._pytree.treespec_dumps(torch.utils._pytree.tree_flatten([1])[1]))"),
    "torch.utils.data.ConcatDataset.cummulative_sizes": ("read", "torch.utils.data.ConcatDataset([[1], [2]]).cummulative_sizes"),
    "torch.utils.data.backward_compatibility.worker_init_fn": ("call", "obj(0)"),
    "torch.utils.data.graph.traverse": ("call", "obj(__import__('torch.utils.data.datapipes', fromlist=['iter']).iter.IterableWrapper([1]))"),
    "torch.autograd.gradcheck.get_numerical_jacobian": ("call", "obj(lambda x: x, (t.double().requires_grad_(),))"),
    "torch.autograd.gradcheck.get_analytical_jacobian": ("call", "obj((t.double().requires_grad_(),), t.double().requires_grad_() * 1)"),
}

# id -> why no touch is made (checked before a recipe)
SKIP = {
    "torch.cuda.green_contexts.GreenContext.set_context": "needs a CUDA device (a GreenContext)",
    "torch.cuda.green_contexts.GreenContext.pop_context": "needs a CUDA device (a GreenContext)",
    "torch.set_default_tensor_type": "changes the process's default tensor type",
    "torch.set_autocast_gpu_dtype": "changes the process's autocast state",
    "torch.jit.set_fusion_strategy": "changes the process's JIT fusion strategy",
    "torch.cuda.memory._set_allocator_settings": "changes the CUDA allocator's settings",
    "torch.distributed.launch": "warns in main(), which launches processes",
    "torch.utils.model_dump": "warns in main(), the command-line tool, which reads a model file",
    "torch.distributed._shard.sharded_tensor": "warns in ShardedTensor's constructors, which need an initialized process group",
}
for _n in ("all_gather_into_tensor", "reduce_scatter_tensor", "gather_into_tensor", "all_gather_coalesced",
           "all_reduce_coalesced", "_all_gather_base", "distributed_c10d._get_global_rank",
           "distributed_c10d._get_pg_default_device", "nn.functional.all_gather", "nn.functional.all_reduce",
           "nn.functional.all_to_all_single", "nn.functional.broadcast", "nn.functional.reduce_scatter",
           "_symmetric_memory.enable_symm_mem_for_group", "checkpoint.load_state_dict",
           "checkpoint.save_state_dict", "tensor._api._shard_tensor",
           "fsdp.FSDPModule.set_reduce_scatter_divide_factor",
           "fsdp.FullyShardedDataParallel.set_state_dict_type",
           "checkpoint.staging.AsyncStager.synchronize_staging"):
    SKIP["torch.distributed." + _n] = "needs an initialized process group"
for _n in ("all_gather_tensor", "all_gather_tensor_autograd", "reduce_scatter_tensor",
           "reduce_scatter_tensor_autograd", "all_gather_into_tensor_coalesced",
           "reduce_scatter_tensor_coalesced"):
    SKIP["torch.distributed._functional_collectives." + _n] = "needs an initialized process group"


def _helpers(torch):
    """Names recipes use, besides torch, t, A and obj."""
    def _f(x):
        return x + 1

    def _fwd(self, x: torch.Tensor) -> torch.Tensor:
        return x

    def _scripted():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return torch.jit.script(torch.nn.Linear(2, 2))

    def _saved():
        import io
        b = io.BytesIO()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.jit.save(_scripted(), b)
        b.seek(0)
        return b

    def _event():
        from torch.autograd.profiler_util import FunctionEvent
        return FunctionEvent(id=0, name="x", thread=0, start_us=0, end_us=1)

    def _backward_hooked():
        m = torch.nn.Linear(2, 2)
        m.register_backward_hook(lambda *a: None)
        m(torch.ones(1, 2)).sum().backward()

    return {"_backward_hooked": _backward_hooked, "_f": _f, "_fwd": _fwd, "_scripted": _scripted, "_saved": _saved, "_event": _event}


def release(v):
    m = re.match(r"\d+(?:\.\d+)*", v or "")
    t = [int(x) for x in m.group(0).split(".")] if m else []
    while len(t) < 3:
        t.append(0)
    return tuple(t)


def status(e, v):
    tv = release(v)
    if e["introduced"]["version"] and tv < release(e["introduced"]["version"]):
        return "not-yet"
    if e["removed"]["version"] and tv >= release(e["removed"]["version"]):
        return "removed"
    d = e["deprecated"]
    if d["version"] and tv >= release(d["version"]) and \
            not (d.get("withdrawn") and tv >= release(d["withdrawn"])):
        return "deprecated"
    return "available"


def fold(s):
    return " ".join(s.replace("`", "").split())


def compare(e, recs):
    """ok, differs or silent. A <name> in the table's message stands for
    any word (functorch's `functorch.<api>`)."""
    w = e["warning"]
    if not recs:
        return "silent"
    want = re.compile(re.sub(r"<\w+>", r"\\S+", re.escape(fold(w["message"] or ""))))
    for cat, msg in recs:
        if cat == w["category"] and want.match(fold(msg)):
            return "ok"
    return "differs"


def resolve(ident):
    """(object or None, error): the longest importable prefix, then getattr."""
    parts = ident.split(".")
    err = None
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError as e:
            err = "%s: %s" % (type(e).__name__, e)
            continue
        except Exception as e:
            return None, "%s: %s" % (type(e).__name__, e)
        try:
            for p in parts[i:]:
                obj = getattr(obj, p)
        except Exception as e:
            return None, "%s: %s" % (type(e).__name__, e)
        return obj, None
    return None, err


def touch_module(ident):
    """Import ident in a fresh interpreter: its warnings, less torch's own."""
    code = (
        "import json, warnings, sys\n"
        "with warnings.catch_warnings(record=True) as base:\n"
        "    warnings.simplefilter('always')\n"
        "    import torch\n"
        "seen = {(w.category.__name__, str(w.message)) for w in base}\n"
        "with warnings.catch_warnings(record=True) as got:\n"
        "    warnings.simplefilter('always')\n"
        "    err = None\n"
        "    try:\n"
        "        __import__(sys.argv[1])\n"
        "    except Exception as e:\n"
        "        err = '%s: %s' % (type(e).__name__, e)\n"
        "print(json.dumps({'warnings': [(w.category.__name__, str(w.message)) for w in got\n"
        "                   if (w.category.__name__, str(w.message)) not in seen], 'error': err}))\n")
    p = subprocess.run([sys.executable, "-c", code, ident], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    try:
        r = json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return [], "the interpreter failed: %s" % p.stderr.strip()[-200:]
    return [tuple(x) for x in r["warnings"]], r["error"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(prog="warn-check.py")
    ap.add_argument("--table", default=os.path.join(here, "..", "..", "data", "apis.json"))
    ap.add_argument("--json")
    ap.add_argument("--only", action="append", default=[])
    a = ap.parse_args()
    try:
        table = json.load(open(a.table))
    except (OSError, ValueError) as e:
        print("warn-check.py: cannot read '%s': %s" % (a.table, e), file=sys.stderr)
        return 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torch
    v = torch.__version__
    scope = {"torch": torch, "t": torch.tensor([[1.0, 2.0], [3.0, 4.0]]),
             "A": torch.tensor([[4.0, 1.0], [1.0, 3.0]])}
    scope.update(_helpers(torch))
    rows = []
    for e in table["entries"]:
        w = e["warning"]
        if e["language"] != "python" or w["category"] not in CATS:
            continue
        if a.only and e["id"] not in a.only:
            continue
        if status(e, v) != "deprecated" or (w["since"] and release(v) < release(w["since"])):
            continue
        row = {"id": e["id"], "kind": e["kind"], "category": w["category"], "message": w["message"]}
        recs, err = [], None
        if e["kind"] in ("parameter", "behavior"):
            row.update(result="skipped", why="a %s entry: the warning needs a particular argument or use" % e["kind"])
        elif e["id"] in SKIP:
            row.update(result="skipped", why=SKIP[e["id"]])
        elif e["kind"] == "module" and e["id"] not in RECIPES:
            recs, err = touch_module(e["id"])
            row["how"] = "import in a fresh interpreter"
        else:
            with warnings.catch_warnings(record=True) as got:
                warnings.simplefilter("always")
                obj, err = resolve(e["id"])
                if obj is not None and e["id"] in RECIPES:
                    how, code = RECIPES[e["id"]]
                    row["how"] = "access, then %s: %s" % (how, code)
                    try:
                        exec(code, dict(scope, obj=obj))
                    except Exception as x:
                        err = "%s: %s" % (type(x).__name__, str(x)[:200])
                else:
                    row["how"] = "access"
            recs = [(x.category.__name__, str(x.message)) for x in got]
            if not recs and obj is not None and e["id"] not in RECIPES:
                row.update(result="skipped", why="access does not warn and no call is known to be harmless")
        if "result" not in row:
            if err:
                row["error"] = err
            row["recorded"] = recs
            row["result"] = compare(e, recs)
        rows.append(row)
        line = "%-8s %s" % (row["result"], e["id"])
        if row["result"] == "skipped":
            line += ": " + row["why"]
        elif row["result"] == "differs":
            line += ": table %s '%s'; recorded %s" % (w["category"], w["message"],
                                                      "; ".join("%s '%s'" % (c, m[:100]) for c, m in recs[:3]))
        elif row["result"] == "silent" and err:
            line += ": " + err[:160]
        print(line)
    counts = {}
    for r in rows:
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    print("torch %s, python %s: %d entries warn by the table: %s" % (
        v, sys.version.split()[0], len(rows),
        ", ".join("%s %d" % (k, counts.get(k, 0)) for k in ("ok", "differs", "silent", "skipped"))))
    if a.json:
        json.dump({"torch": v, "python": sys.version.split()[0], "entries": rows},
                  open(a.json, "w"), indent=1, sort_keys=True)
    return 1 if counts.get("differs") else 0


if __name__ == "__main__":
    sys.exit(main())
