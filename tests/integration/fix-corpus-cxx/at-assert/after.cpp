#include <ATen/core/Tensor.h>

#define MAX_DIMS 8

void h(const at::Tensor &x, int mode) {
  TORCH_INTERNAL_ASSERT(x.defined());
  TORCH_INTERNAL_ASSERT(x.dim() <= MAX_DIMS, "dims: ", x.dim());
  TORCH_INTERNAL_ASSERT(mode >= 0, "bad mode ", mode);
  if (mode > 2)
    TORCH_INTERNAL_ASSERT(
        x.numel() > 0,
        "an empty tensor in mode ", mode);
  for (int i = 0; i < mode; i++)
    TORCH_INTERNAL_ASSERT(i < 4); // AT_ASSERT in a comment stays
}
