// A user's output functor with everything but `static constexpr bool kNeedsSource`: the message
// lists that member among what a functor needs.
// expect-error: static constexpr bool kNeedsSource
#include "gemm_config.hpp"

namespace gemm_config_test {

struct ScaleOnly {
  using ElementOutput = half_t;
  struct Params {
    float scale = 1.0f;
  };
  ScaleOnly() = default;
  explicit ScaleOnly(Params const& p) : scale(p.scale) {}
  bool is_source_needed() const { return false; }
  half_t operator()(float acc, float, float) const { return half_t(scale * acc); }
  float scale = 1.0f;
};

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 32>, arch::Mfma32x32x8F16, ScaleOnly, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
