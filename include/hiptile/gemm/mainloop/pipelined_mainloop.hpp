#pragma once
// PipelinedMainloop: the K loop of one block tile over a ring of `Stages` LDS stages, fed by two
// RegisterStagedLoaders (block/global_tile_loader.hpp): the matrix TileLoader for GEMM, the
// convolution iterators for implicit GEMM. The A loader's k_tiles() is the block's K tile count;
// the B loader must agree. The block runs the share of those tiles its tile work says (KTileShare:
// all, a split-K slice or a stream-K range; gemm/tile_work.hpp); the loaders see consecutive tiles
// from the share's first.
//
//   prologue:  tiles 0 .. A-1 go global → registers → LDS; barrier   (A = max(Stages - 1, 1) tiles ahead)
//   iteration kt:
//     load tile kt + A from global into registers            (its latency hides behind the math)
//     every wave multiplies its fragments of stage kt % Stages
//     (Stages = 1: barrier, so that no wave still reads the one stage)
//     store the registers into stage (kt + A) % Stages
//     barrier
//
// One barrier per iteration suffices for any Stages >= 2: the stage written in iteration kt was
// last read in iteration kt - 1, which every wave finished before that iteration's barrier; the
// stage read in iteration kt was written in iteration kt - Stages + 1 <= kt - 1, before a barrier.
// With one stage the tile in flight waits in registers while the math reads the stage, and a second
// barrier lets the store in: half the LDS, so twice the workgroups share a compute unit (gfx942:
// four of the 128×128×32 f16 tile, 16 KiB each), at one more barrier per K tile.
#include <cstddef>
#include <type_traits>

#include "hiptile/gemm/block/global_tile_loader.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/gemm/mainloop/stage_ring.hpp"
#include "hiptile/gemm/wave/wave_mma.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

// LoaderA / LoaderB: the operands' loaders, writing the LDS layouts WaveMma reads; TileShape /
// WaveShape: GemmShape-like (kM, kN, kK).
template <block::RegisterStagedLoader LoaderA, block::RegisterStagedLoader LoaderB, class TileShape, class WaveShape,
          wave::FragmentWaveMma WaveMma_, int WaveSize, int Stages>
struct PipelinedMainloop : StageRing<WaveMma_, TileShape, WaveShape, WaveSize, Stages> {
  using WaveMma = WaveMma_;
  using Ring = StageRing<WaveMma, TileShape, WaveShape, WaveSize, Stages>;
  using Ring::kThreads;
  static_assert(std::is_same_v<typename Ring::LayoutA, typename LoaderA::LdsLayout> &&
                    std::is_same_v<typename Ring::LayoutB, typename LoaderB::LdsLayout>,
                "the loaders must write the LDS layouts the wave MMA reads");
  using Accumulators = typename WaveMma::Accumulators;
  static constexpr int kAhead = Stages > 1 ? Stages - 1 : 1;  // K tiles loaded ahead of the one multiplied

  struct Params {
    typename LoaderA::Params a;
    typename LoaderB::Params b;
  };
  using Problem = SharedProblem<LoaderA, LoaderB>;  // the kernel's shared problem its loaders read

  // acc = A[m0 .. m0+TileM) · B[n0 .. n0+TileN)ᵀ over the K tiles work.k picks of sub-problem
  // work.batch, for this thread's wave.
  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators& acc, Params const& p, Problem const& problem,
                                                TileWork const& work, std::byte* lds, int thread) {
    int const lane = thread % WaveSize;
    auto const wave = Ring::wave_origin(thread);
    HIPTILE_UNROLL
    for (int i = 0; i < acc.size(); ++i) acc[i].fill(typename WaveMma::ElementAccumulator{});

    LoaderA loader_a = block::make_loader<LoaderA>(p.a, problem, work.m0, work.batch, thread);
    LoaderB loader_b = block::make_loader<LoaderB>(p.b, problem, work.n0, work.batch, thread);
    KTileRange const range = work.k.of(loader_a.k_tiles());
    int const k_tiles = range.end - range.begin;
    for (int s = 0; s < kAhead && s < k_tiles; ++s) {
      loader_a.load(range.begin + s);
      loader_b.load(range.begin + s);
      loader_a.store(Ring::stage_a(lds, s));
      loader_b.store(Ring::stage_b(lds, s));
    }
    barrier();

    int read_stage = 0;
    int write_stage = kAhead % Stages;
    for (int kt = 0; kt < k_tiles; ++kt) {
      int const next = kt + kAhead;
      if (next < k_tiles) {
        loader_a.load(range.begin + next);
        loader_b.load(range.begin + next);
      }
      wave::multiply_stage<WaveMma>(acc, Ring::stage_a(lds, read_stage), Ring::stage_b(lds, read_stage), wave.m0,
                                    wave.n0, lane);
      if (next < k_tiles) {
        if constexpr (Stages == 1) barrier();
        loader_a.store(Ring::stage_a(lds, write_stage));
        loader_b.store(Ring::stage_b(lds, write_stage));
      }
      barrier();
      read_stage = Ring::next_stage(read_stage);
      write_stage = Ring::next_stage(write_stage);
    }
  }
};

}  // namespace hiptile::gemm::mainloop
