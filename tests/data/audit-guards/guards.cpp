#include <torch/extension.h>
#if TORCH_VERSION_MAJOR < 2
#include <THC/THC.h>
#endif

#if defined(TORCH_VERSION_MINOR) && TORCH_VERSION_MINOR >= 4
#elif 1
void f(at::Tensor x) { AT_CHECK(x.defined(), "x"); }
#endif

#ifdef MYEXT_HAS_C10_OPTIONAL
c10::optional<int> a;
#else
c10::optional<int> b;
#endif

#ifndef AT_CHECK
#define AT_CHECK TORCH_CHECK
AT_CHECK(1);
#endif

#if MYEXT_HAS_AT_CUDA_ATOMIC
#include <THC/THCAtomics.cuh>
#endif

#ifdef __CUDACC__
#include <THC/THCAtomics.cuh>
#endif
void g(at::Tensor t) { AT_ERROR("bad"); }
