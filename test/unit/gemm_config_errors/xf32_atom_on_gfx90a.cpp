// xf32 MFMA exists on gfx940-942 only (docs/mi300_facts.md, "MFMA instructions"): MI200 has no
// such instruction.
// expect-error: this MFMA instruction does not exist on gfx90a (MI200)
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<float, RowMajor, float, ColumnMajor, float, RowMajor, float, arch::Gfx90a, GemmShape<128, 128, 16>,
                 GemmShape<64, 64, 16>, arch::Mfma32x32x4Xf32, LinearCombination<float>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
