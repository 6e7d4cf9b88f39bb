// A column-major f32 A on NVIDIA with the SIMT atom: MN-contiguous operands take the transposing
// register-staged loader there too, and it transposes 2-byte elements only.
// expect-error: A is column-major (M-contiguous): its transposing loader takes 2-byte elements only (f16, bf16): make A row-major
#include "gemm_config.hpp"

namespace gemm_config_test {

using Bad = Gemm<float, ColumnMajor, float, ColumnMajor, float, RowMajor, float, arch::Sm90, GemmShape<128, 128, 16>,
                 GemmShape<32, 64, 16>, arch::SimtFma<float, 32>, LinearCombination<float>, GroupedTileOrder<8>, 2>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
