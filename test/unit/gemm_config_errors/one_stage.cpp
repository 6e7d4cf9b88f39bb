// One stage on the cp.async path: the copy of the next tile has no stage to land in while the math
// reads the only one (the register-staged path holds it in registers instead).
// expect-error: Stages must be at least 1, and 2 on the cp.async path (one stage computes while the next lands)
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 32>, arch::MmaSync16x8x16F16, LinearCombination<half_t>, GroupedTileOrder<8>, 1>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
