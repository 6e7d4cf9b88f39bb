// A 256x256 tile of 32x32 wave tiles is 64 waves: 4096 threads. (K = 16 keeps the LDS within 64 KiB.)
// expect-error: TileShape / WaveShape gives more than 1024 threads: use larger wave tiles
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<256, 256, 16>,
                 GemmShape<32, 32, 16>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
