// An NVIDIA mma.sync atom with the MI300 arch tag (wave64).
// expect-error: mma.sync atoms need an NVIDIA architecture (Sm80, Sm90)
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 32>, arch::MmaSync16x8x16F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
