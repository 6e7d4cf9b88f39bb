#pragma once
// AsyncCopyMainloop: the K loop for NVIDIA sm_80+ over AsyncCopyLoaders (block/global_tile_loader.hpp):
// tiles go global → shared memory with cp.async, Stages - 1 tiles ahead of the math, so the copy
// engine — not the registers — holds the tiles in flight; the stages use the wave MMA's LDS layout
// (SwizzledLdsLayout, which cp.async fills a whole 128-byte line per wavefront).
//
// Fragments are double-buffered in registers: while step s of a stage multiplies, step s + 1's
// fragments load, and the last step of stage kt multiplies while the first fragments of stage
// kt + 1 load, so the tensor pipe has queued work across the one barrier per stage:
//
//   prologue: issue tiles 0 .. Stages-2 (one commit group each); wait for tile 0; barrier;
//             load step 0 of stage 0
//   stage kt, step s:
//     s = last: wait until tile kt + 1 has landed (at most Stages-2 newer groups pending); barrier
//     load the fragments of the next step (step 0 of stage kt + 1 after the last step)
//     s = 0:    issue tile kt + Stages - 1 into the stage tile kt - 1 used (every warp read its
//               last fragments before the barrier of stage kt - 1); commit (an empty group past
//               the end keeps the count)
//     multiply step s
//
// The A loader's k_tiles() is the block's K tile count; the B loader must agree. The block runs
// the share of those tiles its tile work says (KTileShare: all, a split-K slice or a stream-K
// range; gemm/tile_work.hpp); the loaders see consecutive tiles from the share's first.
#include <cstddef>
#include <type_traits>

#include "hiptile/arch/async_copy.hpp"
#include "hiptile/gemm/block/global_tile_loader.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/gemm/mainloop/async_stage_copies.hpp"
#include "hiptile/gemm/mainloop/stage_ring.hpp"
#include "hiptile/gemm/wave/wave_mma.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

// LoaderA / LoaderB: the operands' AsyncCopyLoaders, writing the wave MMA's LDS layouts.
template <block::AsyncCopyLoader LoaderA, block::AsyncCopyLoader LoaderB, class TileShape, class WaveShape,
          wave::FragmentWaveMma WaveMma_, int WaveSize, int Stages>
struct AsyncCopyMainloop : StageRing<WaveMma_, TileShape, WaveShape, WaveSize, Stages> {
  using WaveMma = WaveMma_;
  using Ring = StageRing<WaveMma, TileShape, WaveShape, WaveSize, Stages>;
  using Ring::kThreads;
  using typename Ring::ElementA;
  using typename Ring::ElementB;
  static_assert(std::is_same_v<typename Ring::LayoutA, typename LoaderA::LdsLayout> &&
                    std::is_same_v<typename Ring::LayoutB, typename LoaderB::LdsLayout>,
                "the loaders must write the LDS layouts the wave MMA reads");
  using Accumulators = typename WaveMma::Accumulators;
  static_assert(Stages >= 2, "the cp.async mainloop needs at least 2 stages (one computes while the next lands)");
  static constexpr int kSteps = WaveMma::kSteps;
  static_assert(kSteps >= 2,
                "the cp.async mainloop double-buffers fragments across a stage's K-steps: TileShape::kK must hold at "
                "least two MMA atom K-steps (32 for m16n8k16)");

  using Copies = AsyncStageCopies<LoaderA, LoaderB, Ring, Stages>;
  using Params = typename Copies::Params;
  using Problem = typename Copies::Problem;  // the kernel's shared problem its loaders read

  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators& acc, Params const& p, Problem const& problem,
                                                TileWork const& work, std::byte* lds, int thread) {
    int const lane = thread % WaveSize;
    auto const wave = Ring::wave_origin(thread);

    HIPTILE_UNROLL
    for (int i = 0; i < acc.size(); ++i) acc[i].fill(typename WaveMma::ElementAccumulator{});

    Copies copies(p, problem, work, lds, thread);
    int const k_tiles = copies.k_tiles();
    for (int tile = 0; tile < Stages - 1; ++tile) copies.issue(tile);
    arch::async_copy_wait<Stages - 2>();
    barrier();
    typename WaveMma::Fragments fragments[2];
    wave::load_fragments<WaveMma>(fragments[0], Ring::stage_a(lds, 0), Ring::stage_b(lds, 0), wave.m0, wave.n0, lane,
                                  0);
    int read_stage = 0;
    for (int kt = 0; kt < k_tiles; ++kt) {
      HIPTILE_UNROLL
      for (int step = 0; step < kSteps; ++step) {
        bool const last = step == kSteps - 1;
        if (last) {
          arch::async_copy_wait<Stages - 2>();
          barrier();
          read_stage = Ring::next_stage(read_stage);
        }
        if (!last || kt + 1 < k_tiles) {
          wave::load_fragments<WaveMma>(fragments[(step + 1) % 2], Ring::stage_a(lds, read_stage),
                                        Ring::stage_b(lds, read_stage), wave.m0, wave.n0, lane, (step + 1) % kSteps);
        }
        if (step == 0) copies.issue(kt + Stages - 1);
        WaveMma::multiply(acc, fragments[step % 2]);
      }
      // With an odd number of steps the next stage's first fragments sit in buffer 1.
      if constexpr (kSteps % 2 == 1) fragments[0] = fragments[1];
    }
    arch::async_copy_wait<0>();
  }
};

}  // namespace hiptile::gemm::mainloop
