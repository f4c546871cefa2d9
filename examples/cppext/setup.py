# setup.py - build tgext with the flags 'torchgate flags' gives
# SPDX-License-Identifier: MIT
#
# Plain setuptools: no torch import, no torch.utils.cpp_extension. The
# flags are those of the torch that sys.executable's environment would
# import (in a PEP 517 isolated build, torchgate looks through pip's build
# environment to the target interpreter).
#
# TGEXT_CUDA=1 builds the CUDA variant: csrc/tgext_cuda.cu is compiled
# by nvcc with 'torchgate flags --cuda' nvcc flags (the architectures
# from TORCH_CUDA_ARCH_LIST, e.g. 9.0) and linked in; tgext.has_cuda()
# then says True and tgext.add_one_cuda(t) runs a kernel.
import json
import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NAME = "tgext"
CUDA = os.environ.get("TGEXT_CUDA", "") not in ("", "0")


def torchgate_flags():
    cmd = ["torchgate", "flags", "--python", sys.executable, "--name", NAME,
           "--format=json"]
    if CUDA:
        cmd.append("--cuda")
    try:
        out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE)
    except FileNotFoundError:
        sys.exit("tgext: torchgate is not on PATH")
    except subprocess.CalledProcessError as e:
        # torchgate printed why (a missing pybind11-dev, no torch, ...)
        sys.exit("tgext: '%s' failed (exit status %d)" % (" ".join(cmd), e.returncode))
    return json.loads(out.stdout)


FLAGS = torchgate_flags()


class BuildExt(build_ext):
    """Compiles .cu sources with nvcc first, then links their objects."""

    def build_extension(self, ext):
        cu = [s for s in ext.sources if s.endswith(".cu")]
        ext.sources = [s for s in ext.sources if not s.endswith(".cu")]
        nvcc = os.path.join(FLAGS["cuda_home"] or "", "bin", "nvcc")
        for src in cu:
            obj = os.path.join(self.build_temp, os.path.basename(src) + ".o")
            os.makedirs(self.build_temp, exist_ok=True)
            self.spawn([nvcc, "-c", src, "-o", obj] + FLAGS["nvcc"])
            ext.extra_objects.append(obj)
        super().build_extension(ext)


sources = ["csrc/tgext.cpp"]
macros = list(map(tuple, FLAGS["extension"]["define_macros"]))
if CUDA:
    sources.append("csrc/tgext_cuda.cu")
    macros.append(("TGEXT_CUDA", "1"))
kw = dict(FLAGS["extension"])
kw["define_macros"] = macros
setup(ext_modules=[Extension(NAME, sources, **kw)], cmdclass={"build_ext": BuildExt})
