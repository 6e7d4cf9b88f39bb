// Back-to-back GEMM kernels compiled for one AMD arch so that their ISA can be checked
// (test/amd/CMakeLists.txt): DefaultB2bGemm f16 and bf16 with K-contiguous A and B0 and a
// row-major B1 (an MLP's weights, attention's V), and f16 with every operand MN-contiguous.
// Whatever the layouts, the first product's accumulators must become the second's A operand in
// registers: no scratch, no spills. HIPTILE_B2B_ARCH is the arch tag; the build sets it to match
// --offload-arch.
#include "hiptile/epilogue/activation.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/default_b2b_gemm.hpp"
#include "hiptile/platform/launch.hpp"

#ifndef HIPTILE_B2B_ARCH
#error "define HIPTILE_B2B_ARCH to the arch tag, e.g. -DHIPTILE_B2B_ARCH=hiptile::arch::Gfx942"
#endif

namespace b2b_isa {

using Arch = HIPTILE_B2B_ARCH;
using hiptile::bfloat16_t;
using hiptile::half_t;
using hiptile::epilogue::LinearCombination;
using hiptile::epilogue::ReLU;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
template <class E, class LA, class LB0, class LB1>
using B2b = hiptile::gemm::device::DefaultB2bGemm<E, LA, E, LB0, E, LB1, E, RowMajor, Arch, LinearCombination<E, ReLU>>;

using F16 = B2b<half_t, RowMajor, ColumnMajor, RowMajor>;
using Bf16 = B2b<bfloat16_t, RowMajor, ColumnMajor, RowMajor>;
using F16Mn = B2b<half_t, ColumnMajor, RowMajor, RowMajor>;

}  // namespace b2b_isa

template __global__ void hiptile::kernel_entry<b2b_isa::F16::Kernel>(b2b_isa::F16::Kernel::Params);
template __global__ void hiptile::kernel_entry<b2b_isa::Bf16::Kernel>(b2b_isa::Bf16::Kernel::Params);
template __global__ void hiptile::kernel_entry<b2b_isa::F16Mn::Kernel>(b2b_isa::F16Mn::Kernel::Params);
