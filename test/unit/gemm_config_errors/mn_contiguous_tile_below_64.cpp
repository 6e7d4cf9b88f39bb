// A column-major A (M contiguous) with a 32-row tile: the transposing loader needs 64 rows
// (the check lives in gemm/block/tile_loader.hpp).
// expect-error: an MN-contiguous operand needs a tile extent of at least 64 in M (A) or N (B)
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, ColumnMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<32, 128, 32>,
                 GemmShape<32, 64, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
