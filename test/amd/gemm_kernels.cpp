// The default GEMM configurations, compiled for one AMD arch so that their ISA can be checked
// (test/amd/CMakeLists.txt): DefaultGemmConfiguration for f16 and bf16 and every layout of A and B, C/D
// row-major. HIPTILE_GEMM_ARCH is the arch tag (hiptile::arch::Gfx942 or Gfx90a); the build sets
// it to match --offload-arch.
//
// Each configuration is an explicit instantiation of the __global__ entry that Gemm::run()
// launches, so the device pass emits exactly these eight kernels. Dynamic LDS is not visible in
// the ISA (isa_report sees static LDS only), so its budget is checked here, at compile time.
#include <cstddef>

#include "hiptile/gemm/device/default_gemm.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/platform/launch.hpp"
#include "../common/launch_budget.hpp"

#ifndef HIPTILE_GEMM_ARCH
#error "define HIPTILE_GEMM_ARCH to the arch tag, e.g. -DHIPTILE_GEMM_ARCH=hiptile::arch::Gfx942"
#endif

namespace gemm_isa {

using Arch = HIPTILE_GEMM_ARCH;
using hiptile::bfloat16_t;
using hiptile::half_t;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;

template <class Element, class LayoutA, class LayoutB>
using Default = hiptile::gemm::device::DefaultGemmConfiguration<Element, LayoutA, Element, LayoutB, Element, RowMajor, Arch>;

// Named F16/Bf16 + layout of A + layout of B (R row-major, C column-major).
using F16RR = Default<half_t, RowMajor, RowMajor>;
using F16RC = Default<half_t, RowMajor, ColumnMajor>;
using F16CR = Default<half_t, ColumnMajor, RowMajor>;
using F16CC = Default<half_t, ColumnMajor, ColumnMajor>;
using Bf16RR = Default<bfloat16_t, RowMajor, RowMajor>;
using Bf16RC = Default<bfloat16_t, RowMajor, ColumnMajor>;
using Bf16CR = Default<bfloat16_t, ColumnMajor, RowMajor>;
using Bf16CC = Default<bfloat16_t, ColumnMajor, ColumnMajor>;


}  // namespace gemm_isa

// What the ISA cannot show (the LDS budget and launch bound), checked and recorded
// (test/common/launch_budget.hpp).
template struct hiptile::test::LaunchBudget<gemm_isa::F16RR>;
template struct hiptile::test::LaunchBudget<gemm_isa::F16RC>;
template struct hiptile::test::LaunchBudget<gemm_isa::F16CR>;
template struct hiptile::test::LaunchBudget<gemm_isa::F16CC>;
template struct hiptile::test::LaunchBudget<gemm_isa::Bf16RR>;
template struct hiptile::test::LaunchBudget<gemm_isa::Bf16RC>;
template struct hiptile::test::LaunchBudget<gemm_isa::Bf16CR>;
template struct hiptile::test::LaunchBudget<gemm_isa::Bf16CC>;

template __global__ void hiptile::kernel_entry<gemm_isa::F16RR::Kernel>(gemm_isa::F16RR::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::F16RC::Kernel>(gemm_isa::F16RC::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::F16CR::Kernel>(gemm_isa::F16CR::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::F16CC::Kernel>(gemm_isa::F16CC::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::Bf16RR::Kernel>(gemm_isa::Bf16RR::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::Bf16RC::Kernel>(gemm_isa::Bf16RC::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::Bf16CR::Kernel>(gemm_isa::Bf16CR::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::Bf16CC::Kernel>(gemm_isa::Bf16CC::Kernel::Params);
