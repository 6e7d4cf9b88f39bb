#pragma once
// GemmKernel: the kernel functor of every GEMM-like operator (GEMM, strided batched GEMM, the
// implicit-GEMM convolutions). Its tile scheduler (tile_scheduler.hpp) decides what each workgroup
// does — one tile, a split-K slice, stream-K pieces, a persistent walk over the tiles: for each
// piece of work the kernel runs the mainloop into register accumulators over the piece's share of
// K, lets the scheduler hand partial sums over (fixup), and runs the epilogue once a tile's sum is
// whole. LDS comes from the launch's dynamic LDS: the mainloop's stages, reused by the epilogue
// (kLdsBytesPerWave for each wave) once the mainloop is done. What the mainloop's loaders and the
// epilogue's output mapping read of the problem (a convolution's geometry) is in the Params once,
// as `problem` (gemm/shared_problem.hpp), handed to both.
#include <cstddef>
#include <type_traits>

#include "hiptile/epilogue/epilogue.hpp"
#include "hiptile/gemm/kernel/kernel_lds.hpp"
#include "hiptile/gemm/kernel/partial_tiles.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/gemm/mainloop/mainloop.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/lds.hpp"
#include "hiptile/platform/opaque_value.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <class TileShape, class WaveShape, mainloop::Mainloop Mainloop, epilogue::Epilogue Epilogue,
          TileScheduler Scheduler>
struct GemmKernel {
  using Accumulators = typename Mainloop::Accumulators;
  using Partials = PartialTiles<Accumulators, Mainloop::kThreads>;  // serial split-K's and stream-K's slots
  using Problem = SharedProblem<Mainloop, Epilogue>;
  struct Params {
    typename Mainloop::Params mainloop;
    typename Epilogue::Params epilogue;
    typename Scheduler::Params scheduler;
    [[no_unique_address]] Problem problem{};  // (NoProblem: no bytes)
  };
  static constexpr int kMaxThreadsPerBlock = Mainloop::kThreads;
  static constexpr std::size_t kLdsBytes = KernelLds<Mainloop, Epilogue>::kBytes;

  HIPTILE_DEVICE HIPTILE_INLINE void operator()(Params const& p) const {
    int const thread = static_cast<int>(thread_idx_x());
    std::byte* const lds = dynamic_lds();
    typename Scheduler::Walk walk(p.scheduler, static_cast<int>(block_idx_x()));
    ScheduledWork work;
    if constexpr (Scheduler::kOneWork) {
      walk.next(work);
      Accumulators acc;
      TileWork const placed = multiply(acc, p, work, lds, thread);
      if (Scheduler::fixup(acc, p.scheduler, walk, work, thread)) finish(acc, p, placed, work, lds, thread);
    } else {
      for (bool first = true; walk.next(work); first = false) {
        if (!first) barrier();  // the last piece's waves are done with the LDS the next one fills
        int const this_thread = opaque_value(thread);  // per-thread addresses: computed per piece
        // A persistent loop also computes what comes from the parameters per tile (gfx942: without
        // it the persistent Dgrad held its geometry in 134 spilled SGPRs; stream-K's small tiles
        // take more VGPRs with it, so they keep it hoisted).
        Params const& this_p = Scheduler::kMode == SplitKMode::kPersistent ? opaque_params(p) : p;
        Accumulators acc;
        TileWork const placed = multiply(acc, this_p, work, lds, this_thread);
        if (Scheduler::fixup(acc, this_p.scheduler, walk, work, this_thread)) {
          finish(acc, this_p, placed, work, lds, this_thread);
        }
      }
    }
  }

 private:
  // acc = the piece's share of its tile's K loop; where the piece was placed.
  HIPTILE_DEVICE HIPTILE_INLINE static TileWork multiply(Accumulators& acc, Params const& p, ScheduledWork const& w,
                                                         std::byte* lds, int thread) {
    TileWork const placed = place_work<TileShape, Scheduler>(p.scheduler, w);
    Mainloop::run(acc, p.mainloop, problem_for<Mainloop>(p.problem), placed, lds, thread);
    return placed;
  }
  // The epilogue of the tile whose whole sum acc holds.
  HIPTILE_DEVICE HIPTILE_INLINE static void finish(Accumulators const& acc, Params const& p, TileWork const& placed,
                                                   ScheduledWork const& w, std::byte* lds, int thread) {
    auto const wave = Mainloop::wave_origin(thread);
    int const wave_index = thread / Mainloop::kWaveSize;
    // (An epilogue that reads the shared problem gets an opaque batch: what it derives from the two
    // — a Dgrad row class — it derives again rather than sharing the loaders' values, which the
    // compiler would hold in scalar registers across the K loop: 16 more SGPRs, and spills.)
    constexpr bool kReadsProblem = !std::is_same_v<ProblemOf<Epilogue>, NoProblem>;
    int const batch = kReadsProblem ? opaque_uniform(w.output_batch) : w.output_batch;
    Epilogue::run(acc, p.epilogue, problem_for<Epilogue>(p.problem),
                  TileWork{placed.m0, placed.n0, batch}, wave.m0, wave.n0,
                  thread % Mainloop::kWaveSize, lds + wave_index * Epilogue::kLdsBytesPerWave);
  }
};

}  // namespace hiptile::gemm::kernel
