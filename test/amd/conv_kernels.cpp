// The shipped convolution configurations, compiled for one AMD arch so that their ISA can be
// checked (test/amd/CMakeLists.txt): DefaultConvolutionConfiguration (precomputed iterators) for Fprop, Dgrad
// and Wgrad in f16 and bf16, DefaultAnalyticConvolution (any channel count) for f16, and the f16
// Dgrad with the other three RowDivision choices of its epilogue (plain `/` and `%` in the source
// load and/or the store), whose instruction counts docs/performance.md compares; the depthwise
// direct convolution (DepthwiseConvolution), f16 Fprop and Dgrad (the same kernels: the one for every
// layer and those unrolled for filters 3, 5 and 7 wide), bf16 Fprop and f16 Wgrad;
// the few-channel Fprop (FewChannelConvolution: packed taps) with one-channel accesses in f16 and
// bf16 and four-channel accesses in f16; Fprop and Dgrad on packed groups (PackedGroupConvolution:
// grouped layers of few channels a group) in f16, Fprop in bf16, and f16 Fprop with half-vector
// filter accesses (4-channel groups), Dgrad too; f16 Wgrad on packed groups.
// HIPTILE_CONV_ARCH is the arch tag; the build sets it to match --offload-arch.
#include <cstddef>
#include <type_traits>

#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/conv/device/depthwise_convolution.hpp"
#include "hiptile/platform/launch.hpp"
#include "../common/launch_budget.hpp"

#ifndef HIPTILE_CONV_ARCH
#error "define HIPTILE_CONV_ARCH to the arch tag, e.g. -DHIPTILE_CONV_ARCH=hiptile::arch::Gfx942"
#endif

namespace conv_isa {

using Arch = HIPTILE_CONV_ARCH;
using hiptile::bfloat16_t;
using hiptile::half_t;
using hiptile::conv::ConvOperator;

template <ConvOperator Op, class Element>
using Default = hiptile::conv::device::DefaultConvolutionConfiguration<Op, Element, Element, Arch>;
template <ConvOperator Op>
using Analytic = hiptile::conv::device::DefaultAnalyticConvolution<Op, half_t, half_t, Arch>;

using F16Fprop = Default<ConvOperator::kFprop, half_t>;
using F16Dgrad = Default<ConvOperator::kDgrad, half_t>;
using F16Wgrad = Default<ConvOperator::kWgrad, half_t>;
using Bf16Fprop = Default<ConvOperator::kFprop, bfloat16_t>;
using Bf16Dgrad = Default<ConvOperator::kDgrad, bfloat16_t>;
using Bf16Wgrad = Default<ConvOperator::kWgrad, bfloat16_t>;
using AnalyticFprop = Analytic<ConvOperator::kFprop>;
using AnalyticDgrad = Analytic<ConvOperator::kDgrad>;
using AnalyticWgrad = Analytic<ConvOperator::kWgrad>;

template <hiptile::conv::RowDivision Load, hiptile::conv::RowDivision Store>
using DgradDivision = hiptile::conv::device::ImplicitGemmConvolution<
    ConvOperator::kDgrad, half_t, half_t, float, Arch, F16Dgrad::TileShapeType, F16Dgrad::WaveShapeType,
    F16Dgrad::MmaAtomType, F16Dgrad::OutputOpType, hiptile::conv::IteratorAlgorithm::kPrecomputed, 8, F16Dgrad::kStages,
    Load, Store>;
using hiptile::conv::RowDivision;
using DgradPlainPlain = DgradDivision<RowDivision::kPlain, RowDivision::kPlain>;
using DgradFastPlain = DgradDivision<RowDivision::kFast, RowDivision::kPlain>;
using DgradPlainFast = DgradDivision<RowDivision::kPlain, RowDivision::kFast>;
static_assert(std::is_same_v<DgradDivision<RowDivision::kFast, RowDivision::kFast>, F16Dgrad>);

// The direct convolution of depthwise layers (DefaultConvolution's pick for them).
template <ConvOperator Op, class Element>
using Depthwise = hiptile::conv::device::DepthwiseConvolution<Op, Element, Element, Arch>;
using DepthwiseF16Fprop = Depthwise<ConvOperator::kFprop, half_t>;
using DepthwiseF16Dgrad = Depthwise<ConvOperator::kDgrad, half_t>;
using DepthwiseBf16Fprop = Depthwise<ConvOperator::kFprop, bfloat16_t>;
using DepthwiseF16Wgrad = Depthwise<ConvOperator::kWgrad, half_t>;

// The packed-taps Fprop of RGB stems (DefaultConvolution's pick for them), and four-channel accesses.
template <class Element, int Access = 1>
using FewChannel = hiptile::conv::device::FewChannelConvolution<Element, Element, Arch,
                                                                 hiptile::epilogue::LinearCombination<Element>, Access>;
using FewChannelF16 = FewChannel<half_t>;
using FewChannelBf16 = FewChannel<bfloat16_t>;
using FewChannelF16x4 = FewChannel<half_t, 4>;

// Several groups a GEMM batch with a block-diagonal filter (DefaultConvolution's pick for grouped
// layers of few channels a group).
template <ConvOperator Op, class Element>
using PackedGroups = hiptile::conv::device::PackedGroupConvolution<Op, Element, Element, Arch>;
using PackedF16Fprop = PackedGroups<ConvOperator::kFprop, half_t>;
using PackedF16Dgrad = PackedGroups<ConvOperator::kDgrad, half_t>;
using PackedBf16Fprop = PackedGroups<ConvOperator::kFprop, bfloat16_t>;
using PackedF16Wgrad = PackedGroups<ConvOperator::kWgrad, half_t>;
using PackedF16DgradHalf = hiptile::conv::device::PackedGroupConvolution<
    ConvOperator::kDgrad, half_t, half_t, Arch, hiptile::epilogue::LinearCombination<half_t>, 4>;
using PackedF16FpropHalf = hiptile::conv::device::PackedGroupConvolution<
    ConvOperator::kFprop, half_t, half_t, Arch, hiptile::epilogue::LinearCombination<half_t>, 4>;

}  // namespace conv_isa

// What the ISA cannot show (the LDS budget and launch bound), checked and recorded
// (test/common/launch_budget.hpp).
template struct hiptile::test::LaunchBudget<conv_isa::F16Fprop>;
template struct hiptile::test::LaunchBudget<conv_isa::F16Dgrad>;
template struct hiptile::test::LaunchBudget<conv_isa::F16Wgrad>;
template struct hiptile::test::LaunchBudget<conv_isa::Bf16Fprop>;
template struct hiptile::test::LaunchBudget<conv_isa::Bf16Dgrad>;
template struct hiptile::test::LaunchBudget<conv_isa::Bf16Wgrad>;
template struct hiptile::test::LaunchBudget<conv_isa::AnalyticFprop>;
template struct hiptile::test::LaunchBudget<conv_isa::AnalyticDgrad>;
template struct hiptile::test::LaunchBudget<conv_isa::AnalyticWgrad>;
template struct hiptile::test::LaunchBudget<conv_isa::DgradPlainPlain>;
template struct hiptile::test::LaunchBudget<conv_isa::DgradFastPlain>;
template struct hiptile::test::LaunchBudget<conv_isa::DgradPlainFast>;
template struct hiptile::test::LaunchBudget<conv_isa::DepthwiseF16Fprop>;
template struct hiptile::test::LaunchBudget<conv_isa::DepthwiseF16Dgrad>;
template struct hiptile::test::LaunchBudget<conv_isa::DepthwiseBf16Fprop>;
template struct hiptile::test::LaunchBudget<conv_isa::DepthwiseF16Wgrad>;
template struct hiptile::test::LaunchBudget<conv_isa::FewChannelF16>;
template struct hiptile::test::LaunchBudget<conv_isa::FewChannelBf16>;
template struct hiptile::test::LaunchBudget<conv_isa::FewChannelF16x4>;
template struct hiptile::test::LaunchBudget<conv_isa::PackedF16Fprop>;
template struct hiptile::test::LaunchBudget<conv_isa::PackedF16Dgrad>;
template struct hiptile::test::LaunchBudget<conv_isa::PackedBf16Fprop>;
template struct hiptile::test::LaunchBudget<conv_isa::PackedF16FpropHalf>;
template struct hiptile::test::LaunchBudget<conv_isa::PackedF16Wgrad>;
template struct hiptile::test::LaunchBudget<conv_isa::PackedF16DgradHalf>;

template __global__ void hiptile::kernel_entry<conv_isa::F16Fprop::Kernel>(conv_isa::F16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::F16Dgrad::Kernel>(conv_isa::F16Dgrad::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::F16Wgrad::Kernel>(conv_isa::F16Wgrad::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::Bf16Fprop::Kernel>(conv_isa::Bf16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::Bf16Dgrad::Kernel>(conv_isa::Bf16Dgrad::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::Bf16Wgrad::Kernel>(conv_isa::Bf16Wgrad::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::AnalyticFprop::Kernel>(conv_isa::AnalyticFprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::AnalyticDgrad::Kernel>(conv_isa::AnalyticDgrad::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::AnalyticWgrad::Kernel>(conv_isa::AnalyticWgrad::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DgradPlainPlain::Kernel>(conv_isa::DgradPlainPlain::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DgradFastPlain::Kernel>(conv_isa::DgradFastPlain::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DgradPlainFast::Kernel>(conv_isa::DgradPlainFast::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DepthwiseF16Fprop::Kernel>(conv_isa::DepthwiseF16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DepthwiseBf16Fprop::Kernel>(conv_isa::DepthwiseBf16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DepthwiseF16Fprop::WindowKernel<3>>(
    conv_isa::DepthwiseF16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DepthwiseF16Fprop::WindowKernel<5>>(
    conv_isa::DepthwiseF16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DepthwiseF16Fprop::WindowKernel<7>>(
    conv_isa::DepthwiseF16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DepthwiseBf16Fprop::WindowKernel<3>>(
    conv_isa::DepthwiseBf16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DepthwiseBf16Fprop::WindowKernel<5>>(
    conv_isa::DepthwiseBf16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DepthwiseBf16Fprop::WindowKernel<7>>(
    conv_isa::DepthwiseBf16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::DepthwiseF16Wgrad::Kernel>(conv_isa::DepthwiseF16Wgrad::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::FewChannelF16::Kernel>(conv_isa::FewChannelF16::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::FewChannelBf16::Kernel>(conv_isa::FewChannelBf16::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::FewChannelF16x4::Kernel>(conv_isa::FewChannelF16x4::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::PackedF16Fprop::Kernel>(conv_isa::PackedF16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::PackedF16Dgrad::Kernel>(conv_isa::PackedF16Dgrad::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::PackedBf16Fprop::Kernel>(conv_isa::PackedBf16Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::PackedF16FpropHalf::Kernel>(conv_isa::PackedF16FpropHalf::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::PackedF16Wgrad::Kernel>(conv_isa::PackedF16Wgrad::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_isa::PackedF16DgradHalf::Kernel>(conv_isa::PackedF16DgradHalf::Kernel::Params);
