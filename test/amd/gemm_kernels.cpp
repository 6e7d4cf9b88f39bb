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

// What the ISA cannot show: the dynamic LDS a launch asks for fits one workgroup (64 KiB on
// gfx942 and gfx90a), and the entry's launch bound (the block size the compiler budgets registers
// for) is the block size Gemm::run() launches.
inline constexpr std::size_t kLdsLimit = 64 * 1024;

template <class Gemm>
struct LaunchBudget {
  static_assert(Gemm::kLdsBytes <= kLdsLimit, "the GEMM's dynamic LDS exceeds 64 KiB per workgroup");
  static_assert(Gemm::Kernel::kLdsBytes == Gemm::kLdsBytes, "the kernel and the operator disagree on LDS bytes");
  static_assert(Gemm::Kernel::kMaxThreadsPerBlock == Gemm::kThreads,
                "the kernel's launch bound is not the block size Gemm::run() launches");
};

template struct LaunchBudget<F16RR>;
template struct LaunchBudget<F16RC>;
template struct LaunchBudget<F16CR>;
template struct LaunchBudget<F16CC>;
template struct LaunchBudget<Bf16RR>;
template struct LaunchBudget<Bf16RC>;
template struct LaunchBudget<Bf16CR>;
template struct LaunchBudget<Bf16CC>;

}  // namespace gemm_isa

template __global__ void hiptile::kernel_entry<gemm_isa::F16RR::Kernel>(gemm_isa::F16RR::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::F16RC::Kernel>(gemm_isa::F16RC::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::F16CR::Kernel>(gemm_isa::F16CR::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::F16CC::Kernel>(gemm_isa::F16CC::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::Bf16RR::Kernel>(gemm_isa::Bf16RR::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::Bf16RC::Kernel>(gemm_isa::Bf16RC::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::Bf16CR::Kernel>(gemm_isa::Bf16CR::Kernel::Params);
template __global__ void hiptile::kernel_entry<gemm_isa::Bf16CC::Kernel>(gemm_isa::Bf16CC::Kernel::Params);
