// THC's checks, each with its one-to-one replacement (torch 1.11 removed
// THC): the CUDA runtime's and cuBLAS's status checked and thrown.
#include <ATen/cuda/CUDAContext.h>

void sync_and_bind(cudaStream_t s) {
  THCudaCheck(cudaStreamSynchronize(s));
  cublasHandle_t h = at::cuda::getCurrentCUDABlasHandle();
  THCublasCheck(cublasSetStream(h, s));
  THCudaCheck(cudaGetLastError()); // THCudaCheck in a comment stays
}
