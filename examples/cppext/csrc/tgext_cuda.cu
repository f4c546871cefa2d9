// tgext_cuda.cu - one CUDA kernel for the example's CUDA variant
// SPDX-License-Identifier: MIT
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>

__global__ void
add_one_kernel(const float *in, float *out, int64_t n)
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = in[i] + 1.0f;
}

torch::Tensor
tgext_add_one_cuda(torch::Tensor x)
{
	TORCH_CHECK(x.is_cuda(), "add_one_cuda: x must be on a CUDA device");
	TORCH_CHECK(x.scalar_type() == torch::kFloat32,
		    "add_one_cuda: x must be float32");
	auto in = x.contiguous();
	auto out = torch::empty_like(in);
	int64_t n = in.numel();
	int threads = 256;
	int blocks = (int)((n + threads - 1) / threads);

	if (n)
		add_one_kernel<<<blocks, threads>>>(in.data_ptr<float>(),
						    out.data_ptr<float>(), n);
	C10_CUDA_KERNEL_LAUNCH_CHECK();
	return out;
}
