// A 48-column wave tile is not a whole number of 32x32 MFMA atoms.
// expect-error: WaveShape::kN must be a multiple of the MMA atom's N
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 96, 32>,
                 GemmShape<64, 48, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
