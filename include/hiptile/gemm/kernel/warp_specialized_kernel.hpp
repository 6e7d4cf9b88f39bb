#pragma once
// WarpSpecializedKernel: the persistent kernel of NVIDIA sm_90 tensor-copy configurations
// (SplitKMode::kPersistent with IteratorAlgorithm::kTensorCopy), GemmKernel's counterpart for a
// WarpSpecializedMainloop (mainloop/warp_specialized_mainloop.hpp). The block is the tile's
// consumer warps (threads 0 .. kThreads-1, laid out as GemmKernel's, so wave origins and epilogue
// regions are the same) and a producer warpgroup after them, of which one thread issues every copy.
// Both sides walk the persistent scheduler's work in the same order:
//
//   producer thread:  for each piece of work: ask for its K tiles, each into the next free stage
//   consumer warps:   for each piece of work: multiply the stages as they land, handing each back;
//                     store the tile (the epilogue's regions lie after the ring: not the stages)
//
// so the next tiles' copies are in flight during a tile's epilogue. The other 127 producer threads
// leave at once; nothing after the ring's setup is a block barrier.
//
// On the H100 a per-tile kernel of 3×3/s2 Dgrad's short K loops (1 to 4 K tiles a tile) spends most
// of each tile waiting for its first copies; cuDNN's Dgrad is such a persistent producer/consumer
// kernel (docs/performance.md).
#include <cstddef>

#include "hiptile/epilogue/epilogue.hpp"
#include "hiptile/gemm/kernel/partial_tiles.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/gemm/mainloop/warp_specialized_mainloop.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/platform/opaque_value.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <class TileShape, class WaveShape, class Mainloop, epilogue::Epilogue Epilogue, TileScheduler Scheduler>
  requires(Scheduler::kMode == SplitKMode::kPersistent && !Scheduler::kOneWork)
struct WarpSpecializedKernel {
  using Accumulators = typename Mainloop::Accumulators;
  using Partials = PartialTiles<Accumulators, Mainloop::kThreads>;  // (none: no piece of work shares a tile)
  using Problem = SharedProblem<Mainloop, Epilogue>;
  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    typename Scheduler::Params scheduler;
    [[no_unique_address]] Problem problem{};
  };
  static constexpr int kConsumerThreads = Mainloop::kThreads;
  static constexpr int kMaxThreadsPerBlock = kConsumerThreads + Mainloop::kProducerThreads;
  // The ring and its barriers, then each consumer warp's epilogue region (16-byte aligned).
  static constexpr std::size_t kEpilogueOffset = (Mainloop::kLdsBytes + 127) / 128 * 128;
  static constexpr std::size_t kLdsBytes =
      kEpilogueOffset + std::size_t(Mainloop::kConsumerWarps) * Epilogue::kLdsBytesPerWave;

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    int const thread = static_cast<int>(thread_idx_x());
    std::byte* const lds = dynamic_lds();
    if (thread == 0) Mainloop::initialize(lds);
    barrier();
    typename Scheduler::Walk walk(p.scheduler, static_cast<int>(block_idx_x()));
    typename Mainloop::Position at;
    ScheduledWork work;
    if (thread >= kConsumerThreads) {
      if (thread != kConsumerThreads) return;
      while (walk.next(work)) {
        Mainloop::produce(p.mainloop, problem_for<Mainloop>(p.problem),
                          place_work<TileShape, Scheduler>(p.scheduler, work), lds, at);
      }
      return;
    }
    // The epilogue's parameters for the last tile's output sub-problem: bound again only when it
    // changes (the walk takes a sub-problem's tiles one after another; binding a Dgrad row class
    // took each consumer warp some 150 instructions a tile on the H200).
    typename Epilogue::Params bound{};
    int bound_batch = -1;
    while (walk.next(work)) {
      // (Per-thread addresses computed per tile, not held across the loop: gemm_kernel.hpp.)
      int const this_thread = opaque_value(thread);
      TileWork const tile = place_work<TileShape, Scheduler>(p.scheduler, work);
      Accumulators acc;
      Mainloop::consume(acc, lds, this_thread, at);
      if (work.output_batch != bound_batch) {
        bound = Epilogue::at_batch(p.epilogue, problem_for<Epilogue>(p.problem), work.output_batch);
        bound_batch = work.output_batch;
      }
      auto const wave = Mainloop::wave_origin(this_thread);
      Epilogue::run_bound(acc, bound, TileWork{tile.m0, tile.n0, work.output_batch}, wave.m0, wave.n0,
                          this_thread % 32, lds + kEpilogueOffset + (this_thread / 32) * Epilogue::kLdsBytesPerWave);
    }
  }
};

}  // namespace hiptile::gemm::kernel
