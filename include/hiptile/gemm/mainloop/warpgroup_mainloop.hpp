#pragma once
// WarpgroupMainloop: the K loop for NVIDIA sm_90a with warpgroup MMAs (wave/warpgroup_wave_mma.hpp)
// over either the same cp.async loaders as AsyncCopyMainloop (AsyncStageCopies) or tensor-copy
// loaders (TensorStageCopies; block/global_tile_loader.hpp), which differ only in how a tile is
// asked for and waited on. The MMAs read
// their stage from shared memory while they run, so a stage is free again only when the MMAs that
// read it have finished in every warp: each warp keeps one stage's MMAs in flight (wait<1>), and
// a stage is refilled one barrier after the wait that retired it everywhere — Stages - 2 tiles are
// in flight ahead of the one computing:
//
//   prologue: issue tiles 0 .. Stages-3 (cp.async: one commit group each)
//   tile kt:  wait until tile kt has landed (cp.async: at most Stages-3 newer groups pending, then
//             made visible to the MMAs' async proxy; tensor copies: its stage's shared barrier);
//             barrier (every warp has also retired the MMAs of tile kt-2)
//             issue tile kt + Stages - 2 into the stage tile kt - 2 used
//             issue tile kt's MMAs; commit them; wait until at most one MMA group is running
//   end:      wait for the last MMA group
//
// With fp8 inputs (WaveMma::kPromotes) a stage's MMAs write a fresh partial sum, which the
// warp waits for and adds into the f32 accumulators before the next stage: no MMAs stay in flight
// across the barrier, at the cost of that wait and the additions.
//
// The block runs the share of the K tiles the kernel hands it (kernel/split_k.hpp), as every
// mainloop does.
#include <cstddef>
#include <type_traits>

#include "hiptile/arch/async_copy.hpp"
#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/gemm/block/global_tile_loader.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/gemm/mainloop/async_stage_copies.hpp"
#include "hiptile/gemm/mainloop/stage_ring.hpp"
#include "hiptile/gemm/mainloop/tensor_stage_copies.hpp"
#include "hiptile/gemm/wave/wave_mma.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

// The copies of a pair of loaders of one kind.
template <class LoaderA, class LoaderB, class Ring, int Stages>
struct StageCopiesOf;
template <block::AsyncCopyLoader LoaderA, block::AsyncCopyLoader LoaderB, class Ring, int Stages>
struct StageCopiesOf<LoaderA, LoaderB, Ring, Stages> {
  using type = AsyncStageCopies<LoaderA, LoaderB, Ring, Stages>;
};
template <block::TensorCopyLoader LoaderA, block::TensorCopyLoader LoaderB, class Ring, int Stages>
struct StageCopiesOf<LoaderA, LoaderB, Ring, Stages> {
  using type = TensorStageCopies<LoaderA, LoaderB, Ring, Stages>;
};

template <class LoaderA, class LoaderB, class TileShape, class WaveShape, wave::WaveMma WaveMma_, int WaveSize,
          int Stages>
  requires(block::AsyncCopyLoader<LoaderA> && block::AsyncCopyLoader<LoaderB>) ||
          (block::TensorCopyLoader<LoaderA> && block::TensorCopyLoader<LoaderB>)
struct WarpgroupMainloop : StageRing<WaveMma_, TileShape, WaveShape, WaveSize, Stages> {
  using WaveMma = WaveMma_;
  using Ring = StageRing<WaveMma, TileShape, WaveShape, WaveSize, Stages>;
  using Ring::kThreads;
  static_assert(std::is_same_v<typename Ring::LayoutA, typename LoaderA::LdsLayout> &&
                    std::is_same_v<typename Ring::LayoutB, typename LoaderB::LdsLayout>,
                "the loaders must write the LDS layouts the wave MMA reads");
  static_assert(Stages >= 3, "the warpgroup mainloop needs at least 3 stages (one read by running MMAs, one "
                             "computing, one landing)");
  static_assert(Ring::kWavesM % 4 == 0, "warpgroups are four warps along M: TileShape::kM must be a multiple of 64");
  using Accumulators = typename WaveMma::Accumulators;

  using Copies = typename StageCopiesOf<LoaderA, LoaderB, Ring, Stages>::type;
  using Params = typename Copies::Params;
  using Problem = typename Copies::Problem;  // the kernel's shared problem its loaders read
  static constexpr std::size_t kLdsBytes = Ring::kLdsBytes + Copies::kLdsBytes;

  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators& acc, Params const& p, Problem const& problem,
                                                TileWork const& work, std::byte* lds, int thread) {
    auto const wave = Ring::wave_origin(thread);
    HIPTILE_UNROLL
    for (int i = 0; i < acc.size(); ++i) acc[i].fill(typename WaveMma::ElementAccumulator{});

    Copies copies(p, problem, work, lds, thread);
    int const k_tiles = copies.k_tiles();
    for (int tile = 0; tile < Stages - 2; ++tile) copies.issue(tile);
    int stage = 0;
    for (int kt = 0; kt < k_tiles; ++kt) {
      copies.template await<Stages - 3>(kt);
      barrier();
      copies.issue(kt + Stages - 2);
      arch::warpgroup_fence();
      if constexpr (WaveMma::kPromotes) {
        Accumulators partial;  // this stage's sum
        WaveMma::template issue_stage<true>(partial, Ring::stage_a(lds, stage), Ring::stage_b(lds, stage), wave.m0,
                                            wave.n0);
        arch::warpgroup_commit();
        arch::warpgroup_wait<0>();
        HIPTILE_UNROLL
        for (int i = 0; i < acc.size(); ++i) {
          HIPTILE_UNROLL
          for (int j = 0; j < acc[i].size(); ++j) acc[i][j] += partial[i][j];
        }
      } else {
        WaveMma::issue_stage(acc, Ring::stage_a(lds, stage), Ring::stage_b(lds, stage), wave.m0, wave.n0);
        arch::warpgroup_commit();
        arch::warpgroup_wait<1>();
      }
      stage = Ring::next_stage(stage);
    }
    arch::warpgroup_wait<0>();
    copies.finish();
  }
};

}  // namespace hiptile::gemm::mainloop
