// K = 8 is one 32x32x8 atom step, but its two lane groups would each read half a 16-byte pack
// (the wave MMA checks it again for itself). 128 threads, so the loaders' checks pass.
// expect-error: TileShape::kK is too small for the MFMA atom: each lane reads kK / (64 / atom M) elements of a row, which must be whole 16-byte packs
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 8>,
                 GemmShape<128, 64, 8>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
