// An f16 accumulator with an MFMA atom that accumulates in fp32.
// expect-error: ElementAccumulator must be the MMA atom's accumulator type
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, half_t, arch::Gfx942, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 32>, arch::Mfma32x32x8F16, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
