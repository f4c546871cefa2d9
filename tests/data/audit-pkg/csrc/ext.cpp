// ext.cpp - a small extension with the shapes old extensions have
#include <torch/extension.h>
#include <THC/THC.h>

#ifndef AT_CHECK
#define AT_CHECK TORCH_CHECK
#endif

#if TORCH_VERSION_MAJOR < 2
#define OLD_TORCH 1
c10::optional<int> old_only;
#else
#define OLD_TORCH 0
#endif

at::Tensor scale(const at::Tensor& x, at::Scalar scalar) {
	AT_CHECK(x.type().is_cuda(), "scale: x must be a CUDA tensor");
	auto dt = x.device().type(); // a DeviceType, not Tensor::type
	auto st = scalar.type();
	float *p = x.data<float>();
	AT_ERROR("unreachable"); // torchgate: ignore[AT_ERROR]
	AT_CHECK(p, "no data"); // torchgate: ignore[THC]
	return x; // see AT_ERROR in the docs
}
