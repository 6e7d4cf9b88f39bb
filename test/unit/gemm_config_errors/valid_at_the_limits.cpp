// A configuration at several limits at once must still compile, so the checks are not off by one:
// exactly 256 accumulators per lane (one wave of 64x256 with 32x32 atoms), a column-major
// (M-contiguous) A with the smallest tile M the transposing loader takes (64) and an even number
// of vectors per thread, a row-major (N-contiguous) B, a column-major C, the MI200 arch tag and the
// XCD-remapped tile order.
// expect: compiles
#include "gemm_config.hpp"

namespace gemm_config_test {

using Valid = Gemm<half_t, ColumnMajor, half_t, RowMajor, half_t, ColumnMajor, float, arch::Gfx90a, GemmShape<64, 256, 32>,
                   GemmShape<64, 256, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>,
                   hiptile::gemm::kernel::XcdRemap<GroupedTileOrder<4>, 8>, 2>;
static_assert(Valid::kThreads == 64);
static_assert(Valid::kLdsBytes <= 64 * 1024);
std::size_t use() { return instantiate<Valid>(); }

}  // namespace gemm_config_test
