#include <ATen/core/Tensor.h>

#define MAX_DIMS 8

void h(const at::Tensor &x, int mode) {
  AT_ASSERT(x.defined());
  AT_ASSERT(x.dim() <= MAX_DIMS, "dims: ", x.dim());
  AT_ASSERTM(mode >= 0, "bad mode ", mode);
  if (mode > 2)
    AT_ASSERTM(
        x.numel() > 0,
        "an empty tensor in mode ", mode);
  for (int i = 0; i < mode; i++)
    AT_ASSERT(i < 4); // AT_ASSERT in a comment stays
}
