// Waves split M and N only: a wave tile must cover the tile's whole K.
// expect-error: WaveShape::kK must equal TileShape::kK (waves split M and N only)
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 16>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
