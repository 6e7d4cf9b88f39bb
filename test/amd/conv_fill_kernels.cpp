// Dgrad's second kernel, TaplessClassFill (the rows of the row classes without filter taps),
// of DefaultConvolutionConfiguration's f16 and bf16 Dgrad, compiled for one AMD arch so that its ISA can be
// checked (test/amd/CMakeLists.txt): no scratch, no spills, no calls, 16-byte stores.
// HIPTILE_CONV_ARCH is the arch tag; the build sets it to match --offload-arch.
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/platform/launch.hpp"

#ifndef HIPTILE_CONV_ARCH
#error "define HIPTILE_CONV_ARCH to the arch tag, e.g. -DHIPTILE_CONV_ARCH=hiptile::arch::Gfx942"
#endif

namespace conv_fill_isa {

using Arch = HIPTILE_CONV_ARCH;
using hiptile::conv::ConvOperator;
using F16Dgrad = hiptile::conv::device::DefaultConvolutionConfiguration<ConvOperator::kDgrad, hiptile::half_t, hiptile::half_t, Arch>;
using Bf16Dgrad =
    hiptile::conv::device::DefaultConvolutionConfiguration<ConvOperator::kDgrad, hiptile::bfloat16_t, hiptile::bfloat16_t, Arch>;

}  // namespace conv_fill_isa

template __global__ void hiptile::kernel_entry<conv_fill_isa::F16Dgrad::TaplessFill>(
    conv_fill_isa::F16Dgrad::TaplessFill::Params);
template __global__ void hiptile::kernel_entry<conv_fill_isa::Bf16Dgrad::TaplessFill>(
    conv_fill_isa::Bf16Dgrad::TaplessFill::Params);
