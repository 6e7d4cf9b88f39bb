// A type that is no MMA atom at all in the atom's place: the atom-kind check is the first check of
// GemmConfiguration, so it is the first error.
// expect-error: MmaAtom must be an MFMA atom (arch/mfma.hpp), an mma.sync atom (arch/mma_sync.hpp), a warpgroup MMA atom
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 32>, float, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
