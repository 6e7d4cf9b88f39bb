// A column-major A (M contiguous) with a 32-row tile: the transposing loader needs 64 rows
// (the loader checks it again for itself).
// expect-error: A is column-major (M-contiguous): its transposing loader needs TileShape::kM >= 64
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, ColumnMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<32, 128, 32>,
                 GemmShape<32, 64, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
