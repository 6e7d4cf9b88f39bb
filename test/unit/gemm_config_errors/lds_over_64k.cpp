// Five stages of the default 128x128x32 f16 tile need 5 x 16384 bytes of LDS, above gfx942's 64 KiB
// (four fit exactly).
// expect-error: the LDS stages exceed the workgroup's LDS: reduce Stages, TileShape::kK or the tile
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 5>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
