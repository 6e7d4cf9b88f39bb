// One wave owning a 128x256 tile is 4 x 8 atoms of 32x32, 16 fp32 accumulators each: 512 per lane.
// (128x128 would be exactly 256, which the check allows: see valid_at_the_limits.cpp.)
// expect-error: the wave tile needs more than 256 accumulator registers per lane: use a smaller WaveShape
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 256, 32>,
                 GemmShape<128, 256, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
