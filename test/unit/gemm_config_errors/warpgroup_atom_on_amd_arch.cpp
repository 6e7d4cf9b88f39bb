// An NVIDIA warpgroup MMA (wgmma) atom with the MI300 arch tag.
// expect-error: warpgroup MMA (wgmma) atoms need Arch = Sm90
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 64>,
                 GemmShape<16, 128, 64>, arch::WarpgroupMma<half_t>, LinearCombination<half_t>, GroupedTileOrder<8>, 4>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
