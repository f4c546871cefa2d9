#pragma once
#define C10_DEPRECATED_MESSAGE(message) [[deprecated(message)]]
#define C10_DEFINE_X(T) \
  using T [[deprecated]] = int;
C10_CLANG_DIAGNOSTIC_PUSH()
namespace at {
namespace autocast {
// deprecated CUDA-specific autocast APIs
C10_DEPRECATED_MESSAGE(
    "at::autocast::is_enabled() is deprecated. Please use "
    "at::autocast::is_autocast_enabled(at::kCUDA) instead.")
inline bool is_enabled() {
  TORCH_WARN_DEPRECATION(
      "at::autocast::",
      __func__,
      "() is deprecated.")
  return is_autocast_enabled(at::kCUDA);
}
} // namespace autocast
class TORCH_API Tensor : public TensorBase {
 public:
  C10_DEPRECATED_MESSAGE("Tensor.type() is deprecated. Instead use Tensor.options().")
  DeprecatedTypeProperties & type() const {
    return x;
  }
  /* C10_DEPRECATED_MESSAGE("commented out") */
  // [[deprecated("commented")]]
  const char *s = "[[deprecated(\"in a string\")]]";
  C10_DEPRECATED_MESSAGE(R"x(raw "quoted" text)x")
  bool operator==(const Tensor &o) const;
};
} // namespace at
namespace c10 {
template <class T>
using optional [[deprecated("Use std::optional instead.")]] =
    std::optional<T>;
struct [[deprecated("use Bar instead")]] Foo {};
enum class E { A [[deprecated]] = 1, B };
[[deprecated]] constexpr int kOld = 3'000;
} // namespace c10
