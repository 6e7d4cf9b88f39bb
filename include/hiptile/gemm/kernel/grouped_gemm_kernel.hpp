#pragma once
// GroupedGemmKernel: many GEMM problems of different sizes in one launch (a mixture-of-experts
// layer: one GEMM per expert, each with its own token count). Its tile scheduler, GroupedScheduler
// (grouped_scheduler.hpp), walks the groups' tiles with a grid of persistent workgroups.
//
// Each group's problem — its loaders' parameters (pointers, leading dimensions, extents) and its
// epilogue's (C, D, bias, scales, the output functor's parameters) — is a Group in device memory,
// read when a workgroup starts a tile of it and made wave-uniform (on gfx942, read per lane its
// buffer resources put a loop around every load: 84% modelled MFMA utilisation against the
// one-problem kernel's 91%). Within a group, the group's TileOrder places the tiles.
#include <cstddef>
#include <type_traits>

#include "hiptile/arch/cross_lane.hpp"
#include "hiptile/epilogue/epilogue.hpp"
#include "hiptile/gemm/kernel/grouped_scheduler.hpp"
#include "hiptile/gemm/kernel/kernel_lds.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/gemm/mainloop/mainloop.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/backend.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/platform/opaque_value.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <class TileShape, mainloop::Mainloop Mainloop, epilogue::Epilogue Epilogue, TileOrderType TileOrder>
struct GroupedGemmKernel {
  using Accumulators = typename Mainloop::Accumulators;
  static_assert(std::is_same_v<SharedProblem<Mainloop, Epilogue>, NoProblem>,
                "a grouped GEMM's groups carry all they read in their own parameters");
  // One problem, as the device reads it.
  struct Group {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    typename TileOrder::Params order;
  };
  using Scheduler = GroupedScheduler;
  static_assert(TileScheduler<Scheduler>);
  struct Params {
    Group const* groups = nullptr;  // the scheduler's group_count of them, in device memory
    typename Scheduler::Params scheduler;
  };
  static constexpr int kMaxThreadsPerBlock = Mainloop::kThreads;
  static constexpr std::size_t kLdsBytes = KernelLds<Mainloop, Epilogue>::kBytes;

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    int const thread = static_cast<int>(thread_idx_x());
    std::byte* const lds = dynamic_lds();
    typename Scheduler::Walk walk(p.scheduler, static_cast<int>(block_idx_x()));
    ScheduledWork work;
    for (bool first = true; walk.next(work); first = false) {
      if (!first) barrier();  // the last tile's waves are done with the LDS
      int const this_thread = opaque_value(thread);  // per-thread addresses: computed per tile
      Group const& in_memory = p.groups[work.batch];
      Group const g = arch::wave_uniform(in_memory);
      TileCoord const t = TileOrder::tile(g.order, work.tile);
      TileWork const tile{t.m * TileShape::kM, t.n * TileShape::kN, 0};
      Accumulators acc;
      // (On NVIDIA the loaders read their parameters where they lie, which wave_uniform does not
      // change there: a tensor map is read by address, from global memory, never from a copy.)
      Mainloop::run(acc, kBackend == Backend::kNvidia ? in_memory.mainloop : g.mainloop, NoProblem{}, tile, lds,
                    this_thread);
      auto const wave = Mainloop::wave_origin(this_thread);
      int const wave_index = this_thread / Mainloop::kWaveSize;
      Epilogue::run(acc, g.epilogue, NoProblem{}, tile, wave.m0, wave.n0, this_thread % Mainloop::kWaveSize,
                    lds + wave_index * Epilogue::kLdsBytesPerWave);
    }
  }
};

}  // namespace hiptile::gemm::kernel
