// A type that is no MMA atom at all in the atom's place. The check exists, but gemm_configuration.hpp
// evaluates WaveShape::kM % MmaAtom::kM before it, so the first error today is "type 'float' cannot
// be used prior to '::'": hence expect-error-later. Once the atom check comes first (and guards the
// checks that read the atom's members), this can become expect-error.
// expect-error-later: MmaAtom must be an MFMA atom (arch/mfma.hpp) or an mma.sync atom (arch/mma_sync.hpp)
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<half_t, RowMajor, half_t, ColumnMajor, half_t, RowMajor, float, arch::Gfx942, GemmShape<128, 128, 32>,
                 GemmShape<64, 64, 32>, float, LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
