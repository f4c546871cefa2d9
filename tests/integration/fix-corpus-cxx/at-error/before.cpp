#include <ATen/core/Tensor.h>

void g(const at::Tensor &x, int mode) {
  if (mode < 0)
    AT_ERROR("bad mode ", mode);
  switch (mode) {
  case 0:
    break;
  default:
    AT_ERROR(
        "unknown mode: ", mode, " for a tensor of ", x.dim(), " dims");
  }
}
