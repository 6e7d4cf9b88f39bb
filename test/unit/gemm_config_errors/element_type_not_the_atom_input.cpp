// bf16 operands with the f16 MFMA atom.
// expect-error: ElementA and ElementB must be the MMA atom's input types
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<bfloat16_t, RowMajor, bfloat16_t, ColumnMajor, bfloat16_t, RowMajor, float, arch::Gfx942,
                 GemmShape<128, 128, 32>, GemmShape<64, 64, 32>, arch::Mfma32x32x8F16, LinearCombination<bfloat16_t>,
                 GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
