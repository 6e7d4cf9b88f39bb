// The OCP e4m3 format (NVIDIA's, gfx950's) with gfx942, whose MFMA takes the FNUZ formats.
// expect-error: the fp8 formats do not match Arch: gfx942 takes the FNUZ formats
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<hiptile::float8_e4m3fn, RowMajor, hiptile::float8_e4m3fn, ColumnMajor, half_t, RowMajor, float,
                 arch::Gfx942, GemmShape<128, 128, 64>, GemmShape<64, 64, 64>, arch::Mfma32x32x16Fp8Fp8,
                 LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
