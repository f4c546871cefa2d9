#include <ATen/core/Tensor.h>

#define CHECK_CONTIGUOUS(x) \
  TORCH_CHECK((x).is_contiguous(), #x " must be contiguous")

// AT_CHECK in a comment stays
void f(const at::Tensor &x) {
  CHECK_CONTIGUOUS(x);
  TORCH_CHECK(x.dim() == 2,
           "x must be 2-D, got ", x.dim()); /* AT_CHECK */
  const char *s = "AT_CHECK(";
  (void)s;
}
