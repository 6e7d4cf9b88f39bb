// A K stage of 24 is not a whole number of 16x16x16 atom K-steps.
// expect-error: TileShape::kK must be a multiple of the MMA atom's K
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 24>,
                 GemmShape<64, 64, 24>, arch::Mfma16x16x16F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
