#pragma once
// What every configuration in this folder needs: the device-level Gemm and the pieces its 14
// template parameters are spelled from. Each .cpp names one configuration, states on a
// `// expect-error:` line the diagnostic the headers must give for it (or `// expect: compiles`),
// and makes the compiler instantiate it through instantiate<Gemm>().
#include <cstddef>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/arch/mma_sync.hpp"
#include "hiptile/arch/simt_fma.hpp"
#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/core/coord.hpp"
#include "hiptile/epilogue/linear_combination.hpp"
#include "hiptile/gemm/device/gemm.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/layout/matrix_layout.hpp"
#include "hiptile/numeric/bfloat16.hpp"
#include "hiptile/numeric/float8.hpp"
#include "hiptile/numeric/half.hpp"
#include "hiptile/nvidia.hpp"  // the NVIDIA configurations, read on the host

namespace gemm_config_test {

using hiptile::bfloat16_t;
using hiptile::GemmShape;
using hiptile::half_t;
using hiptile::epilogue::LinearCombination;
using hiptile::gemm::device::Gemm;
using hiptile::gemm::kernel::GroupedTileOrder;
using hiptile::layout::ColumnMajor;
using hiptile::layout::RowMajor;
namespace arch = hiptile::arch;

// Instantiates the operator the way a user's code does: its size, its launch shape, its kernel and
// every entry point (can_implement, get_workspace_size, initialize, run and operator(), whose
// run instantiates the kernel's body).
template <class G>
std::size_t instantiate() {
  typename G::Arguments const args{};
  G g;
  std::size_t const calls = std::size_t(G::can_implement(args)) + G::get_workspace_size(args) +
                            std::size_t(g.initialize(args)) + std::size_t(g.run()) + std::size_t(g(args));
  return sizeof(G) + std::size_t(G::kThreads) + G::kLdsBytes + sizeof(typename G::Kernel::Params) + calls;
}

}  // namespace gemm_config_test
