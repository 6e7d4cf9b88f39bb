// A 96-row tile cannot be split into 64-row wave tiles.
// expect-error: TileShape::kM must be a multiple of WaveShape::kM
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<96, 128, 32>,
                 GemmShape<64, 64, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
