// K = 8 is one 32x32x8 atom step, but its two lane groups would each read half a 16-byte pack
// (the check lives in gemm/wave/mfma_wave_mma.hpp). 128 threads, so the loaders' checks pass.
// expect-error: TileShape::kK too small for the atom: each lane must read whole 16-byte packs (raise kK)
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 8>,
                 GemmShape<128, 64, 8>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
