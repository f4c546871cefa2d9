#include <ATen/core/Tensor.h>

template <typename T> T *first(const at::Tensor &x) { return x.data<T>(); }

at::ScalarType kind(const at::Tensor &x, const at::Tensor *y) {
  float *p = x.data<float>();
  (void)p;
  if (y->type().scalarType() != x.type()
                                    .scalarType())
    return y->type().scalarType();
  return x.type().scalarType();
}
