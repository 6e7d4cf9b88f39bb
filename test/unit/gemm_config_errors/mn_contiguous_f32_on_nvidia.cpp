// A column-major f32 A on NVIDIA with the SIMT atom: MN-contiguous operands take the transposing
// register-staged loader there too, which serves 4-byte elements (one k per LDS word).
// expect: compiles
#include "gemm_config.hpp"

namespace gemm_config_test {

using Good = Gemm<float, ColumnMajor, float, ColumnMajor, float, RowMajor, float, arch::Sm90, GemmShape<128, 128, 16>,
                  GemmShape<32, 64, 16>, arch::SimtFma<float, 32>, LinearCombination<float>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Good>(); }

}  // namespace gemm_config_test
