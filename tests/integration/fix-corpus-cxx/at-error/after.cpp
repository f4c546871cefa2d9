#include <ATen/core/Tensor.h>

void g(const at::Tensor &x, int mode) {
  if (mode < 0)
    TORCH_CHECK(false, "bad mode ", mode);
  switch (mode) {
  case 0:
    break;
  default:
    TORCH_CHECK(
        false, "unknown mode: ", mode, " for a tensor of ", x.dim(), " dims");
  }
}
