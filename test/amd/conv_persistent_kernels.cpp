// The f16 DefaultConvolutionConfiguration Fprop and Dgrad as persistent kernels (SplitKMode::kPersistent: a grid
// of resident workgroups walking the tiles around the same mainloop and epilogue), compiled for one
// AMD arch so that their ISA can be checked (test/amd/CMakeLists.txt). A translation unit of their
// own: beside the data-parallel kernels of conv_kernels.cpp they would change those kernels'
// inlining, and the ISA table's rows for them. HIPTILE_CONV_ARCH is the arch tag; the build sets it
// to match --offload-arch.
#include "hiptile/conv/device/default_convolution.hpp"
#include "hiptile/platform/launch.hpp"
#include "../common/launch_budget.hpp"

#ifndef HIPTILE_CONV_ARCH
#error "define HIPTILE_CONV_ARCH to the arch tag, e.g. -DHIPTILE_CONV_ARCH=hiptile::arch::Gfx942"
#endif

namespace conv_persistent_isa {

using hiptile::half_t;
using hiptile::conv::ConvOperator;

template <ConvOperator Op>
using Persistent = typename hiptile::conv::device::DefaultConvolutionConfiguration<Op, half_t, half_t, HIPTILE_CONV_ARCH>::
    template WithSplitK<hiptile::gemm::kernel::SplitKMode::kPersistent>;
using Fprop = Persistent<ConvOperator::kFprop>;
using Dgrad = Persistent<ConvOperator::kDgrad>;

}  // namespace conv_persistent_isa

template struct hiptile::test::LaunchBudget<conv_persistent_isa::Fprop>;
template struct hiptile::test::LaunchBudget<conv_persistent_isa::Dgrad>;

template __global__ void hiptile::kernel_entry<conv_persistent_isa::Fprop::Kernel>(
    conv_persistent_isa::Fprop::Kernel::Params);
template __global__ void hiptile::kernel_entry<conv_persistent_isa::Dgrad::Kernel>(
    conv_persistent_isa::Dgrad::Kernel::Params);
