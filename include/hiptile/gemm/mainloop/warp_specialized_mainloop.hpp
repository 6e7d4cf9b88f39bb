#pragma once
// WarpSpecializedMainloop: the K loop of NVIDIA sm_90's warp-specialised persistent kernel
// (kernel/warp_specialized_kernel.hpp), split between a producer and the consumers. One producer
// thread asks the copy engine for every K tile of every piece of work its workgroup is handed,
// in order, as soon as a stage of the ring is free; the consumer warps (the tile's warpgroup-MMA
// warps, as in WarpgroupMainloop) multiply each stage once it has landed and hand it back. The two
// sides meet only at two shared barriers per stage:
//
//   landed[s]  completes a phase when the producer has announced the tile's bytes and the copies
//              have written them (one arrival)
//   free[s]    completes a phase when every consumer warp is done reading stage s (one arrival
//              per consumer warp, its lane 0, after the warp's MMAs of that stage have retired)
//
// Both sides walk the same sequence of K tiles, so a position in the ring — stage s and the parity
// of its use — is all each keeps. Only the producer works out how many K tiles a piece of work has
// (from its loaders: for a Dgrad row class, class taps × channel blocks, which took each consumer
// warp some 190 instructions a tile on the H200); it writes beside each stage whether that stage
// holds its tile's last K tile (or stands for a tile without any), before announcing it. The producer
// waits on free[s] for the parity before its own (a fresh barrier's "previous" phase counts as
// complete, so the first pass over the ring does not wait). No block barrier is met after the
// ring is set up, so while the consumers run an epilogue the producer is already filling the ring
// with the next tiles: what the per-tile and the plain persistent kernels leave idle (their
// prologue waits for each tile's first loads).
//
// The consumers keep one stage's MMAs in flight (wgmma wait<1>) and hand a stage back one K tile
// late, when the MMAs that read it have retired. The block needs tensor-copy loaders
// (block::TensorCopyLoader): cp.async would need the producer's 128 threads to copy and to wait.
//
// The pattern is CUTLASS 3's warp-specialised TMA pipeline (KernelTmaWarpSpecializedCooperative)
// and cuDNN's persistent convolution kernels; PTX ISA: mbarrier.arrive, mbarrier.try_wait.parity.
#include <cstddef>
#include <type_traits>

#include "hiptile/arch/cross_lane.hpp"
#include "hiptile/arch/tensor_copy.hpp"
#include "hiptile/arch/warpgroup_mma.hpp"
#include "hiptile/gemm/block/global_tile_loader.hpp"
#include "hiptile/gemm/mainloop/stage_loaders.hpp"
#include "hiptile/gemm/mainloop/stage_ring.hpp"
#include "hiptile/gemm/shared_problem.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/gemm/wave/wave_mma.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

template <block::TensorCopyLoader LoaderA, block::TensorCopyLoader LoaderB, class TileShape, class WaveShape,
          wave::WaveMma WaveMma_, int Stages>
struct WarpSpecializedMainloop : StageRing<WaveMma_, TileShape, WaveShape, /*WaveSize=*/32, Stages> {
  using WaveMma = WaveMma_;
  using Ring = StageRing<WaveMma, TileShape, WaveShape, 32, Stages>;
  using Ring::kThreads;  // the consumers: the block tile's warps
  static_assert(std::is_same_v<typename Ring::LayoutA, typename LoaderA::LdsLayout> &&
                    std::is_same_v<typename Ring::LayoutB, typename LoaderB::LdsLayout>,
                "the loaders must write the LDS layouts the wave MMA reads");
  static_assert(Stages >= 2, "the warp-specialised mainloop needs at least 2 stages (one read, one landing)");
  static_assert(Ring::kWavesM % 4 == 0, "warpgroups are four warps along M: TileShape::kM must be a multiple of 64");
  static_assert(!WaveMma::kPromotes, "the warp-specialised mainloop accumulates in place (no fp8 promotion)");
  using Accumulators = typename WaveMma::Accumulators;
  using Loaders = StageLoaders<LoaderA, LoaderB>;
  using Params = typename Loaders::Params;
  using Problem = typename Loaders::Problem;

  static constexpr int kProducerThreads = 128;  // a warpgroup of its own; one thread issues
  static constexpr int kConsumerWarps = kThreads / 32;
  static constexpr int kTileBytes = LoaderA::kTileBytes + LoaderB::kTileBytes;
  // The ring, then its barriers, landed[Stages] and free[Stages], then what each stage holds (Holds).
  static constexpr std::size_t kLdsBytes =
      Ring::kLdsBytes + 2 * Stages * sizeof(arch::SharedBarrier) + Stages * sizeof(int);
  enum Holds : int { kKTile = 0, kLastKTile = 1, kNoKTiles = 2 };

  // A side's place in the ring: the stage of its next K tile and the parity of that stage's use.
  struct Position {
    int stage = 0;
    int parity = 0;
    HIPTILE_DEVICE HIPTILE_INLINE void advance() {
      if (++stage == Stages) {
        stage = 0;
        parity ^= 1;
      }
    }
  };

  // One thread sets the barriers up; the kernel's block barrier then makes them visible to all.
  HIPTILE_DEVICE HIPTILE_INLINE static void initialize(std::byte* lds) {
    for (int s = 0; s < Stages; ++s) {
      arch::shared_barrier_init(landed(lds) + s, 1);
      arch::shared_barrier_init(freed(lds) + s, kConsumerWarps);
    }
    arch::shared_barriers_initialized();
  }

  // The producer thread: asks for every K tile of `work`'s share, each into the next free stage.
  HIPTILE_DEVICE HIPTILE_INLINE static void produce(Params const& p, Problem const& problem, TileWork const& work,
                                                    std::byte* lds, Position& at) {
    Copies copies(p, problem, work, lds, 0);
    int const k_tiles = copies.k_tiles();
    if (k_tiles == 0) {  // a stage that holds nothing, so the consumers still meet the tile
      claim(lds, at, kNoKTiles);
      arch::shared_barrier_arrive(landed(lds) + at.stage);
      at.advance();
    }
    for (int kt = 0; kt < k_tiles; ++kt) {
      claim(lds, at, kt + 1 == k_tiles ? kLastKTile : kKTile);
      copies.issue(kt, at.stage);
      at.advance();
    }
  }

  // A consumer thread: acc = its wave's part of the next piece of work's product (the producer's
  // stages say where it ends), each stage handed back once read.
  HIPTILE_DEVICE HIPTILE_INLINE static void consume(Accumulators& acc, std::byte* lds, int thread, Position& at) {
    auto const wave = Ring::wave_origin(thread);
    bool const signals = thread % 32 == 0;
    HIPTILE_UNROLL
    for (int i = 0; i < acc.size(); ++i) acc[i].fill(typename WaveMma::ElementAccumulator{});
    int reading = -1;  // the stage whose MMAs may still run
    for (bool last = false; !last;) {
      arch::shared_barrier_wait(landed(lds) + at.stage, at.parity);
      int const held = holds(lds)[at.stage];
      if (held == kNoKTiles) {
        hand_back(lds, at.stage, signals);
        at.advance();
        break;
      }
      arch::warpgroup_fence();
      WaveMma::issue_stage(acc, Ring::stage_a(lds, at.stage), Ring::stage_b(lds, at.stage), wave.m0, wave.n0);
      arch::warpgroup_commit();
      arch::warpgroup_wait<1>();  // the previous stage's MMAs have retired
      if (reading >= 0) hand_back(lds, reading, signals);
      reading = at.stage;
      last = held == kLastKTile;
      at.advance();
    }
    arch::warpgroup_wait<0>();
    if (reading >= 0) hand_back(lds, reading, signals);
  }

 private:
  // The producer's side of the loaders: a K tile into a given stage, counted against its barrier.
  class Copies : public Loaders {
   public:
    using Loaders::Loaders;
    HIPTILE_DEVICE HIPTILE_INLINE void issue(int kt, int stage) {
      arch::SharedBarrier* const done = landed(this->lds_) + stage;
      arch::shared_barrier_arrive_expect_bytes(done, kTileBytes);
      this->loader_a_.copy(Ring::stage_a(this->lds_, stage), this->range_.begin + kt, done);
      this->loader_b_.copy(Ring::stage_b(this->lds_, stage), this->range_.begin + kt, done);
    }
  };

  HIPTILE_DEVICE HIPTILE_INLINE static arch::SharedBarrier* landed(std::byte* lds) {
    return reinterpret_cast<arch::SharedBarrier*>(lds + Ring::kLdsBytes);
  }
  HIPTILE_DEVICE HIPTILE_INLINE static arch::SharedBarrier* freed(std::byte* lds) { return landed(lds) + Stages; }
  HIPTILE_DEVICE HIPTILE_INLINE static int volatile* holds(std::byte* lds) {
    return reinterpret_cast<int volatile*>(freed(lds) + Stages);
  }
  // The producer takes the stage at `at` once the consumers have handed it back, and writes what it
  // will hold (the arrival that then announces the stage releases this write to the consumers).
  HIPTILE_DEVICE HIPTILE_INLINE static void claim(std::byte* lds, Position const& at, Holds what) {
    arch::shared_barrier_wait(freed(lds) + at.stage, at.parity ^ 1);
    holds(lds)[at.stage] = what;
  }
  // A warp is done reading `stage` (every lane has passed its MMA wait): its lane 0 says so.
  HIPTILE_DEVICE HIPTILE_INLINE static void hand_back(std::byte* lds, int stage, bool signals) {
    arch::wave_sync();
    if (signals) arch::shared_barrier_arrive(freed(lds) + stage);
  }
};

}  // namespace hiptile::gemm::mainloop
