// A column-major fp8 A: the MN-contiguous loader transposes 2-byte elements only
// (the loader checks it again for itself).
// expect-error: A is column-major (M-contiguous): its transposing loader takes 2-byte elements only (f16, bf16): make A row-major
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<hiptile::float8_e4m3fnuz, ColumnMajor, hiptile::float8_e4m3fnuz, ColumnMajor, half_t, RowMajor, float,
                 arch::Gfx942, GemmShape<128, 128, 64>, GemmShape<64, 64, 64>, arch::Mfma32x32x16Fp8Fp8,
                 LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
