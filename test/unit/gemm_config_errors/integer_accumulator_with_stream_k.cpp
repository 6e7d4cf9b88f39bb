// An int8 GEMM with stream-K: partial sums travel in fp32, which would round int32 sums.
// expect-error: split-K and stream-K add partial sums in fp32: an integer GEMM (int32 accumulators) needs SplitKMode::kNone
#include "gemm_config.hpp"

#include <cstdint>

#include "hiptile/epilogue/integer_output.hpp"

namespace gemm_config_test {

using Bad = Gemm<std::int8_t, RowMajor, std::int8_t, ColumnMajor, std::int32_t, RowMajor, std::int32_t, arch::Gfx942,
                 GemmShape<128, 128, 64>, GemmShape<64, 64, 64>, arch::Mfma32x32x16I8,
                 hiptile::epilogue::IntegerOutput<std::int32_t>, GroupedTileOrder<8>, 2,
                 hiptile::gemm::kernel::SplitKMode::kStreamK>;
std::size_t use() { return instantiate<Bad>(); }

}  // namespace gemm_config_test
