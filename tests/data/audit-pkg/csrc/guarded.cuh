#if defined(MYEXT_HAS_AT_CUDA_ATOMIC)
#include <THC/THCAtomics.cuh>
#endif
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
using opt = std::optional<int>;
#else
using opt = c10::optional<int>;
#endif
