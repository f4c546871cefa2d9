#include <ATen/core/Tensor.h>

template <typename T> T *first(const at::Tensor &x) { return x.data_ptr<T>(); }

at::ScalarType kind(const at::Tensor &x, const at::Tensor *y) {
  float *p = x.data_ptr<float>();
  (void)p;
  if (y->scalar_type() != x.scalar_type())
    return y->scalar_type();
  return x.scalar_type();
}
