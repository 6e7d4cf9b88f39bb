// A warpgroup MMA (wgmma) atom with 32-row wave tiles: each warp's share of the 64-row
// instruction is 16 rows.
// expect-error: the warpgroup MMA tile does not fit
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Sm90, GemmShape<128, 128, 64>,
                 GemmShape<32, 128, 64>, arch::WarpgroupMma<half_t>, LinearCombination<half_t>, GroupedTileOrder<8>, 4>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
