// Dgrad with a 64 x 64 x 32 tile of four 32 x 32 waves fails: its channel-contiguous tiles have one
// 16-byte vector per thread (two needed) (docs/conv.md).
// expect-error: Dgrad's filter and Wgrad's operands are channel-contiguous: their tiles need TileShape::kN
#include "gemm_config.hpp"
#include "hiptile/conv/device/implicit_gemm_convolution.hpp"

namespace gemm_config_test {

using Conv = hiptile::conv::device::ImplicitGemmConvolution<
    hiptile::conv::ConvOperator::kDgrad, half_t, half_t, float, arch::Gfx942, GemmShape<64, 64, 32>, GemmShape<32, 32, 32>,
    arch::Mfma32x32x8F16, LinearCombination<half_t>, hiptile::conv::IteratorAlgorithm::kPrecomputed, 8, 2>;
std::size_t use() { return instantiate<Conv>(); }

}  // namespace gemm_config_test
