#pragma once
// AsyncCopyMainloop: the K loop for NVIDIA sm_80+ when both operands are K-contiguous. Tiles go
// global → LDS with cp.async, Stages - 1 tiles ahead of the math, so the copy engine — not the
// registers — holds the tiles in flight:
//
//   prologue:  issue tiles 0 .. Stages-2, one commit group each
//   iteration kt:
//     wait until tile kt has landed (at most Stages-2 newer groups pending); barrier
//     issue tile kt + Stages - 1 into the stage iteration kt - 1 read (every warp has passed the
//     barrier, so none still reads it); commit (an empty group past the end keeps the count)
//     every warp multiplies its fragments of stage kt % Stages
//
// Same LDS layout (PackedLdsLayout) and wave MMA interface as PipelinedMainloop. Edge vectors copy
// only their valid bytes; cp.async fills the rest of the 16 bytes with zeros.
#include <cstddef>
#include <cstdint>

#include "hiptile/arch/async_copy.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/mainloop/stage_ring.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

template <class ElementA, class ElementB, class TileShape, class WaveShape, class WaveMma, int WaveSize, int Stages>
struct AsyncCopyMainloop : StageRing<ElementA, ElementB, TileShape, WaveShape, WaveSize, Stages> {
  using Ring = StageRing<ElementA, ElementB, TileShape, WaveShape, WaveSize, Stages>;
  using Ring::kThreads;
  using typename Ring::LayoutA;
  using typename Ring::LayoutB;
  using Accumulators = typename WaveMma::Accumulators;

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
    for (int s = 0; s < Stages - 1; ++s) {
      if (s < k_tiles) {
        copy_a(Ring::stage_a(lds, s), s * TileShape::kK);
        copy_b(Ring::stage_b(lds, s), s * TileShape::kK);
      }
      arch::async_copy_commit();
    }
    int read_stage = 0;
    int write_stage = Stages - 1;
    for (int kt = 0; kt < k_tiles; ++kt) {
      arch::async_copy_wait<Stages - 2>();
      barrier();
      int const next = kt + Stages - 1;
      if (next < k_tiles) {
        copy_a(Ring::stage_a(lds, write_stage), next * TileShape::kK);
        copy_b(Ring::stage_b(lds, write_stage), next * TileShape::kK);
      }
      arch::async_copy_commit();
      WaveMma::run(acc, Ring::stage_a(lds, read_stage), Ring::stage_b(lds, read_stage), wave.m0, wave.n0, lane);
      read_stage = Ring::next_stage(read_stage);
      write_stage = Ring::next_stage(write_stage);
    }
    arch::async_copy_wait<0>();
  }

 private:
  // Copies one tile (TileMN rows × TileK) of a K-contiguous operand: vector v = thread + kThreads·i
  // is pack v % packs of row v / packs, as TileLoader maps it (coalesced reads, conflict-free
  // writes). Every vector of a thread has the same pack, and its rows are kRowStep apart, so the
  // addresses are set up once and each tile only adds its k0.
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
          ld_(op.ld),
          rows_left_(op.extent_mn - mn0 - thread / kPacks),
          k_(op.extent_k - (thread % kPacks) * kPack),
          src_(op.data + (std::int64_t(mn0 + thread / kPacks) * op.ld + (thread % kPacks) * kPack)),
          dst_(Layout::offset(thread / kPacks, (thread % kPacks) * kPack)) {}

    HIPTILE_DEVICE HIPTILE_INLINE void operator()(Element* stage, int k0) const {
      int const valid_k = k_ - k0;
      int const k_elements = valid_k <= 0 ? 0 : (valid_k < kPack ? valid_k : kPack);
      HIPTILE_UNROLL
      for (int i = 0; i < kPerThread; ++i) {
        int const elements = rows_left_ > i * kRowStep ? k_elements : 0;
        Element const* src = elements > 0 ? src_ + (std::int64_t(i) * kRowStep * ld_ + k0) : data_;
        // kRowStep rows, a multiple of 8, are kRowStep + kRowStep / 8 chunks in the layout.
        arch::async_copy_16(stage + dst_ + i * (kRowStep + kRowStep / 8) * kPack, src,
                            elements * int(sizeof(Element)));
      }
    }

   private:
    Element const* data_;
    std::int64_t ld_;
    int rows_left_;  // rows of the operand from this thread's first row on
    int k_;          // K minus this thread's offset within the tile
    Element const* src_;
    int dst_;
  };
};

}  // namespace hiptile::gemm::mainloop
