// THC's checks, each with its one-to-one replacement (torch 1.11 removed
// THC): the CUDA runtime's and cuBLAS's status checked and thrown.
#include <ATen/cuda/CUDAContext.h>

void sync_and_bind(cudaStream_t s) {
  C10_CUDA_CHECK(cudaStreamSynchronize(s));
  cublasHandle_t h = at::cuda::getCurrentCUDABlasHandle();
  TORCH_CUDABLAS_CHECK(cublasSetStream(h, s));
  C10_CUDA_CHECK(cudaGetLastError()); // THCudaCheck in a comment stays
}
