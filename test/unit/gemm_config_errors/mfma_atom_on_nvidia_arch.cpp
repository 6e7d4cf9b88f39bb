// An MFMA atom with the H100 arch tag (wave32).
// expect-error: MFMA atoms need a wave64 architecture (Gfx942, Gfx90a)
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
