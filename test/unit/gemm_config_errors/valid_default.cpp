// The harness's control: DefaultGemmConfiguration<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor,
// Gfx942> spelled out with all 14 parameters must compile, or every expect-error test in this
// folder could pass for the wrong reason.
// expect: compiles
#include "gemm_config.hpp"

namespace gemm_config_test {

using Valid = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 32>,
                   GemmShape<64, 64, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
static_assert(Valid::kThreads == 256);
static_assert(Valid::kLdsBytes <= 64 * 1024);
std::size_t use() { return instantiate<Valid>(); }

}  // namespace gemm_config_test
