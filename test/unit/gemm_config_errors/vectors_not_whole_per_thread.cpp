// A 64x64x16 f16 tile is 128 16-byte vectors per operand, for 256 threads: half a vector each.
// expect-error: each thread must load whole 16-byte vectors of A and B: grow the tile or shrink the waves
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<64, 64, 16>,
                 GemmShape<32, 32, 16>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
