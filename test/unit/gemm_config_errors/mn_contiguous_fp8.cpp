// A column-major fp8 A whose 64x64 tile is one 16-byte vector for each of 256 threads: the
// transposing loader then writes one k per LDS word (ds_write_b8) instead of four, and compiles.
// expect: compiles
#include "gemm_config.hpp"

namespace gemm_config_test {

using Good = Gemm<hiptile::float8_e4m3fnuz, ColumnMajor, hiptile::float8_e4m3fnuz, ColumnMajor, half_t, RowMajor, float,
                  arch::Gfx942, GemmShape<64, 64, 64>, GemmShape<32, 32, 64>, arch::Mfma32x32x16Fp8Fp8,
                  LinearCombination<half_t>, GroupedTileOrder<8>, 2>;
static_assert(Good::LoaderA::kKPerWord == 1);
std::size_t use() { return instantiate<Good>(); }

}  // namespace gemm_config_test
