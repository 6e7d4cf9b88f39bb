#pragma once
// AsyncCopyMainloop: the K loop for NVIDIA sm_80+ when both operands are K-contiguous. Tiles go
// global → shared memory with cp.async, Stages - 1 tiles ahead of the math, so the copy engine —
// not the registers — holds the tiles in flight; the stages use the wave MMA's LDS layout
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
// Edge vectors copy only their valid bytes; cp.async fills the rest of the 16 bytes with zeros.
#include <cstddef>
#include <cstdint>

#include "hiptile/arch/async_copy.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/mainloop/stage_ring.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/gemm/wave/stepped_wave_mma.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

template <class TileShape, class WaveShape, wave::SteppedWaveMma WaveMma, int WaveSize, int Stages>
struct AsyncCopyMainloop : StageRing<WaveMma, TileShape, WaveShape, WaveSize, Stages> {
  using Ring = StageRing<WaveMma, TileShape, WaveShape, WaveSize, Stages>;
  using Ring::kThreads;
  using typename Ring::ElementA;
  using typename Ring::ElementB;
  using typename Ring::LayoutA;
  using typename Ring::LayoutB;
  using Accumulators = typename WaveMma::Accumulators;
  static constexpr int kSteps = WaveMma::kSteps;
  static_assert(kSteps >= 2,
                "the cp.async mainloop double-buffers fragments across a stage's K-steps: TileShape::kK must hold at "
                "least two MMA atom K-steps (32 for m16n8k16)");

  struct Params {
    OperandView<ElementA> a;
    OperandView<ElementB> b;
  };

  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators& acc, Params const& p, int m0, int n0, std::byte* lds,
                                                int thread) {
    int const lane = thread % WaveSize;
    auto const wave = Ring::wave_origin(thread);

    HIPTILE_UNROLL
    for (int i = 0; i < acc.size(); ++i) acc[i].fill(typename WaveMma::ElementAccumulator{});

    // Kernel parameters are read once into registers: read through a reference in the loop, nvcc
    // reloads them from parameter memory every iteration and the warps wait on those loads.
    TileCopy<LayoutA, TileShape::kM, ElementA> const copy_a(p.a, m0, thread);
    TileCopy<LayoutB, TileShape::kN, ElementB> const copy_b(p.b, n0, thread);
    int const k_tiles = ceil_div(p.a.extent_k, TileShape::kK);
    int const full_k_tiles = p.a.extent_k / TileShape::kK;  // tiles with all of their K inside
    auto issue = [&](int tile) {
      if (tile < k_tiles) {
        int const stage = tile % Stages;
        bool const full_k = tile < full_k_tiles;
        copy_a(Ring::stage_a(lds, stage), tile * TileShape::kK, full_k);
        copy_b(Ring::stage_b(lds, stage), tile * TileShape::kK, full_k);
      }
      arch::async_copy_commit();
    };
    for (int tile = 0; tile < Stages - 1; ++tile) issue(tile);
    arch::async_copy_wait<Stages - 2>();
    barrier();
    typename WaveMma::Fragments fragments[2];
    WaveMma::load_fragments(fragments[0], Ring::stage_a(lds, 0), Ring::stage_b(lds, 0), wave.m0, wave.n0, lane, 0);
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
          WaveMma::load_fragments(fragments[(step + 1) % 2], Ring::stage_a(lds, read_stage),
                                  Ring::stage_b(lds, read_stage), wave.m0, wave.n0, lane, (step + 1) % kSteps);
        }
        if (step == 0) issue(kt + Stages - 1);
        WaveMma::multiply(acc, fragments[step % 2]);
      }
      // With an odd number of steps the next stage's first fragments sit in buffer 1.
      if constexpr (kSteps % 2 == 1) fragments[0] = fragments[1];
    }
    arch::async_copy_wait<0>();
  }

 private:
  // Copies one tile (TileMN rows × TileK) of a K-contiguous operand: vector v = thread + kThreads·i
  // is pack v % packs of row v / packs (a warp reads whole rows, and writes them to consecutive
  // chunks of the swizzled layout). Every vector of a thread has the same pack, and its rows are
  // kRowStep apart, so the addresses are set up once and each tile only adds its k0.
  template <class Layout, int TileMN, class Element>
  class TileCopy {
   public:
    static constexpr int kPack = Layout::kPackElements;
    static constexpr int kPacks = Layout::kPacks;
    static constexpr int kVectors = TileMN * kPacks;
    static_assert(kVectors % kThreads == 0 && kThreads % kPacks == 0,
                  "the tile's 16-byte vectors must divide evenly among the threads");
    static constexpr int kPerThread = kVectors / kThreads;
    static constexpr int kRowStep = kThreads / kPacks;
    static_assert(kPerThread == 1 || kRowStep % 8 == 0, "rows of one thread must be whole groups of 8 apart");

    HIPTILE_DEVICE HIPTILE_INLINE TileCopy(OperandView<Element> const& op, int mn0, int thread)
        : data_(op.data),
          row_step_(kRowStep * op.ld),
          rows_left_(op.extent_mn - mn0 - thread / kPacks),
          all_rows_(rows_left_ > (kPerThread - 1) * kRowStep),
          k_(op.extent_k - (thread % kPacks) * kPack),
          src_(op.data + (std::int64_t(mn0 + thread / kPacks) * op.ld + (thread % kPacks) * kPack)),
          dst_(Layout::offset(thread / kPacks, (thread % kPacks) * kPack)) {}

    // Copies the tile whose K starts at k0; full_k: all of its K lies inside the operand.
    HIPTILE_DEVICE HIPTILE_INLINE void operator()(Element* stage, int k0, bool full_k) const {
      // kRowStep rows, a multiple of 8, are whole row groups of the layout.
      constexpr int kDstStep = (kRowStep / 8) * Layout::kRowGroupElements;
      Element const* src = src_ + k0;
      if (all_rows_ && full_k) {
        // All of this thread's vectors lie inside the operand (every thread of an interior
        // tile): whole 16-byte copies, one pointer step apart, and nothing else in the loop.
        HIPTILE_UNROLL
        for (int i = 0; i < kPerThread; ++i) arch::async_copy_16(stage + dst_ + i * kDstStep, src + i * row_step_);
        return;
      }
      int const valid_k = k_ - k0;
      int const k_elements = valid_k <= 0 ? 0 : (valid_k < kPack ? valid_k : kPack);
      HIPTILE_UNROLL
      for (int i = 0; i < kPerThread; ++i) {
        int const elements = rows_left_ > i * kRowStep ? k_elements : 0;
        arch::async_copy_16(stage + dst_ + i * kDstStep, elements > 0 ? src + i * row_step_ : data_,
                            elements * int(sizeof(Element)));
      }
    }

   private:
    Element const* data_;
    std::int64_t row_step_;  // elements between a thread's consecutive vectors
    int rows_left_;          // rows of the operand from this thread's first row on
    bool all_rows_;          // every row this thread copies lies inside the operand
    int k_;                  // K minus this thread's offset within the tile
    Element const* src_;
    int dst_;
  };
};

}  // namespace hiptile::gemm::mainloop
