"""setup.py for ampext: gate a torch extension's build with torchgate.

This file never imports torch. Under pip, a build runs in an isolated
environment (PEP 517) that holds only [build-system] requires, so torch
is usually not importable here, and importing it would cost seconds
anyway. torchgate reads the target environment's files instead: the
torchgate package (pyproject.toml's [build-system] requires) runs the
torchgate binary its wheel installed.

Environment variables:
  TORCHGATE           the torchgate binary (default: the wheel's, see
                      torchgate.bin())
  TORCHGATE_ENV_ARGS  where the torch to build against is, as torchgate
                      arguments, for example
                        --python /opt/venv/bin/python
                        --prefix "$CONDA_PREFIX"
                        --site-packages /usr/lib/python3/dist-packages
                      (default: the interpreter that runs this file;
                      under pip, with or without build isolation, that
                      is the target environment's interpreter, and
                      torchgate works out its normal sys.path from
                      files, not the isolated one; under python -m
                      build it is build's throwaway venv, and torchgate
                      describes the interpreter that ran build)
"""

import importlib.util
import os
import shlex
import sys

from setuptools import Extension, setup

try:
    import torchgate
except ImportError:
    sys.exit("ampext: the torchgate package is not installed: pip install"
             " torchgate (pip's isolated build installs it, from"
             " [build-system] requires)")

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join("build", "ampext_torch_gate.h")  # for csrc/gate.c
MODULE = os.path.join("ampext", "_torch_gate.py")  # for setup.py and ampext

# The torch releases this source tree supports.
TORCH_SPEC = "torch>=1.13,<3"
# The APIs whose availability the code depends on (ids of torchgate's table).
APIS = ["torch.cuda.amp.custom_fwd", "torch.amp.custom_fwd", "torch.amp.autocast"]


def env_kw():
    """TORCHGATE_ENV_ARGS as keyword arguments of the torchgate calls
    (python=, prefix= or site_packages=); none: sys.executable."""
    args = shlex.split(os.environ.get("TORCHGATE_ENV_ARGS", ""))
    names = {"--python": "python", "--prefix": "prefix",
             "--site-packages": "site_packages"}
    kw = {}
    while args:
        opt = args.pop(0)
        if "=" in opt:  # --prefix=DIR
            opt, value = opt.split("=", 1)
            args.insert(0, value)
        if opt not in names or not args:
            sys.exit("ampext: TORCHGATE_ENV_ARGS: expected --python PATH,"
                     " --prefix DIR or --site-packages DIR..., not '%s'" % opt)
        if opt == "--site-packages":
            kw.setdefault("site_packages", []).append(args.pop(0))
        else:
            kw[names[opt]] = args.pop(0)
    return kw


def gate(call, *args, **kw):
    """Call torchgate.CALL on the target environment; stop the build,
    with torchgate's own message, when it fails."""
    try:
        return call(*args, **kw, **env_kw())
    except torchgate.TorchgateError as e:
        hint = ""
        if e.returncode == 3:  # no torch found there
            hint = ("\nampext: install torch first, or point torchgate at the"
                    " environment that has it with TORCHGATE_ENV_ARGS")
        sys.exit("ampext: %s%s" % (e.message, hint))


# 1. Refuse an unsupported torch before compiling anything. policy="base"
#    compares the release part only: Debian's 1.13.0a0 and nightlies such
#    as 2.5.0.dev20240801+cu121 carry the API of their release, but strict
#    PEP 440 orders them before 1.13 / 2.5 and would refuse them.
gate(torchgate.verify, TORCH_SPEC, policy="base")

# 2. Write the facts: a C header for the compiler and a Python module for
#    this file and for the installed package. Unchanged files are left
#    alone, so their timestamps do not force a rebuild.
os.makedirs(os.path.join(HERE, "build"), exist_ok=True)
gate(torchgate.emit, os.path.join(HERE, HEADER), os.path.join(HERE, MODULE),
     macro_prefix="AMPEXT", apis=APIS)

# 3. Read the module by file path: `import ampext` would run
#    ampext/__init__.py, which needs the compiled extension and the
#    installed torch.
spec = importlib.util.spec_from_file_location("_ampext_torch_gate",
                                              os.path.join(HERE, MODULE))
gate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gate)

# 4. The torch requirement of the built package. A compiled extension is
#    tied to the torch it was built against: a real one links libtorch,
#    whose C++ ABI changes with every minor release, and this one bakes the
#    version in. So the wheel needs that major.minor. "==X.Y.*" is
#    ">=X.Y,<X.Y+1" that also admits X.Y's own pre-releases and local
#    builds (Debian's 1.13.0a0, nightlies), which ">=X.Y" would not. At
#    import, ampext checks the same with check_runtime().
major, minor = gate.TORCH_VERSION_TUPLE[:2]
install_requires = ["torch==%d.%d.*" % (major, minor)]

# 5. Pick code paths from the facts, not from guesses about versions.
if gate.HAS_TORCH_AMP_CUSTOM_FWD:
    amp = "torch.amp.custom_fwd"
elif gate.HAS_TORCH_CUDA_AMP_CUSTOM_FWD:
    amp = "torch.cuda.amp.custom_fwd"
else:
    sys.exit("ampext: torch %s has neither torch.amp.custom_fwd nor"
             " torch.cuda.amp.custom_fwd" % gate.TORCH_VERSION)
# A CUDA extension would choose CUDAExtension and its -gencode flags from
# gate.TORCH_CUDA here, and a C++ one pass -std=c++{gate.TORCH_CXX_STANDARD}
# and -D_GLIBCXX_USE_CXX11_ABI={int(gate.TORCH_CXX11_ABI)} (when not None).
print("ampext: torch %s (CUDA %s), custom_fwd from %s, requires %s"
      % (gate.TORCH_VERSION, gate.TORCH_CUDA or "none", amp,
         install_requires[0]))

setup(
    packages=["ampext"],
    install_requires=install_requires,
    ext_modules=[
        Extension(
            "ampext._gate",
            sources=["csrc/gate.c"],
            include_dirs=["build"],
            depends=[HEADER],  # rebuild when the torch facts change
        ),
    ],
)
