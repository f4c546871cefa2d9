// tgext.cpp - the example extension: torch tensors through pybind11
// SPDX-License-Identifier: MIT
#include <torch/extension.h>

#ifdef TGEXT_CUDA
torch::Tensor tgext_add_one_cuda(torch::Tensor x);
#endif

// x * a + b, elementwise, on any device torch supports
static torch::Tensor
axpb(torch::Tensor x, double a, double b)
{
	return x * a + b;
}

static bool
has_cuda()
{
#ifdef TGEXT_CUDA
	return true;
#else
	return false;
#endif
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
	m.def("axpb", &axpb, "x * a + b");
	m.def("has_cuda", &has_cuda, "built with its CUDA kernel");
#ifdef TGEXT_CUDA
	m.def("add_one_cuda", &tgext_add_one_cuda,
	      "x + 1 by a CUDA kernel (float32, on a CUDA device)");
#endif
}
