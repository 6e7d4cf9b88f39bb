// One LDS stage leaves nothing to load while the math runs.
// expect-error: Stages must be at least 2 (one stage computes while the next loads)
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 1>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
