// gfx942's FNUZ e4m3 with the H100: NVIDIA's fp8 is the OCP format.
// expect-error: the fp8 formats do not match Arch: gfx942 takes the FNUZ formats
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<hiptile::float8_e4m3fnuz, RowMajor, hiptile::float8_e4m3fnuz, ColumnMajor, half_t, RowMajor, float,
                 arch::Sm90, GemmShape<128, 128, 64>, GemmShape<64, 64, 64>, arch::MmaSync16x8x16F16,
                 LinearCombination<half_t>, GroupedTileOrder<8>, 3>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
