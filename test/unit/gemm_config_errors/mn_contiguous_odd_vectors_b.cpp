// A row-major B (N contiguous) whose 64x32 f16 tile is one 16-byte vector for each of 256
// threads: the transposing loader pairs vectors along K, so the message names B and what to grow.
// expect-error: B is row-major (N-contiguous): each thread must load an even number of 16-byte vectors of B
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, RowMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<64, 64, 32>,
                 GemmShape<32, 32, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
