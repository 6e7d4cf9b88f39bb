// m16n8k16 warps 8 columns wide: ldmatrix loads B for pairs of atom columns.
// expect-error: the mma.sync or warpgroup MMA tile does not fit its copies: WaveShape::kN must be a multiple of 16
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90, GemmShape<64, 64, 32>,
                 GemmShape<64, 8, 32>, arch::MmaSync16x8x16F16, LinearCombination<half_t>, GroupedTileOrder<8>, 3>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
