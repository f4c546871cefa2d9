# setup.py - build tgext with the flags 'torchgate flags' gives
# SPDX-License-Identifier: MIT
#
# Plain setuptools: no torch import, no torch.utils.cpp_extension. The
# flags are those of the torch that sys.executable's environment would
# import (in a PEP 517 isolated build, torchgate looks through pip's build
# environment to the target interpreter). The torchgate package comes
# from [build-system] requires (the torchgate wheel, binary included).
#
# TGEXT_CUDA=1 builds the CUDA variant: csrc/tgext_cuda.cu is compiled
# by nvcc with 'torchgate flags --cuda' nvcc flags (the architectures
# from TORCH_CUDA_ARCH_LIST, e.g. 9.0) and linked in; tgext.has_cuda()
# then says True and tgext.add_one_cuda(t) runs a kernel.
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

import torchgate

NAME = "tgext"
CUDA = os.environ.get("TGEXT_CUDA", "") not in ("", "0")


def torchgate_flags():
    """torchgate flags' whole document for sys.executable's torch; a
    failure stops the build with torchgate's message (a missing
    pybind11-dev, no torch, a torch without CUDA, ...)."""
    try:
        return torchgate.flags(python=sys.executable, name=NAME, cuda=CUDA,
                               full=True)
    except torchgate.TorchgateError as e:
        sys.exit("tgext: %s" % e)


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
macros = [tuple(m) for m in FLAGS["extension"]["define_macros"]]
if CUDA:
    sources.append("csrc/tgext_cuda.cu")
    macros.append(("TGEXT_CUDA", "1"))
kw = dict(FLAGS["extension"])
kw["define_macros"] = macros
setup(ext_modules=[Extension(NAME, sources, **kw)], cmdclass={"build_ext": BuildExt})
