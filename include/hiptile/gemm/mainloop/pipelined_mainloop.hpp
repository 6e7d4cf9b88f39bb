#pragma once
// PipelinedMainloop: the K loop of one block tile, over a ring of `Stages` LDS stages.
//
//   prologue:  tiles 0 .. Stages-2 go global → registers → LDS; barrier
//   iteration kt:
//     load tile kt + Stages - 1 from global into registers   (its latency hides behind the math)
//     every wave multiplies its fragments of stage kt % Stages
//     store the registers into stage (kt + Stages - 1) % Stages
//     barrier
//
// One barrier per iteration suffices for any Stages >= 2: the stage written in iteration kt was
// last read in iteration kt - 1, which every wave finished before that iteration's barrier; the
// stage read in iteration kt was written in iteration kt - Stages + 1 <= kt - 1, before a barrier.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/block/tile_loader.hpp"
#include "hiptile/gemm/mainloop/stage_ring.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/gemm/wave/stepped_wave_mma.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

// TileShape / WaveShape: GemmShape-like (kM, kN, kK); WaveMma: the wave-level MMA, reading stages
// in the PackedLdsLayout the tile loaders write.
template <class ElementA, OperandMajor MajorA, class ElementB, OperandMajor MajorB, class TileShape,
          class WaveShape, wave::SteppedWaveMma WaveMma, int WaveSize, int Stages>
struct PipelinedMainloop : StageRing<WaveMma, TileShape, WaveShape, WaveSize, Stages> {
  using Ring = StageRing<WaveMma, TileShape, WaveShape, WaveSize, Stages>;
  using Ring::kThreads;
  using LoaderA = block::TileLoader<ElementA, MajorA, TileShape::kM, TileShape::kK, kThreads>;
  using LoaderB = block::TileLoader<ElementB, MajorB, TileShape::kN, TileShape::kK, kThreads>;
  static_assert(std::is_same_v<typename Ring::LayoutA, typename LoaderA::LdsLayout> &&
                    std::is_same_v<typename Ring::LayoutB, typename LoaderB::LdsLayout>,
                "the register-staged mainloop needs the wave MMA to read the tile loaders' PackedLdsLayout");
  // Instantiates the loaders with the mainloop, so their configuration checks fire wherever the
  // GEMM type is used, not only where a kernel is compiled.
  static_assert(sizeof(LoaderA) > 0 && sizeof(LoaderB) > 0);
  using Accumulators = typename WaveMma::Accumulators;

  struct Params {
    OperandView<ElementA> a;
    OperandView<ElementB> b;
  };

  // acc = A[m0 .. m0+TileM) · B[n0 .. n0+TileN)ᵀ over all of K, for this thread's wave.
  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators& acc, Params const& p, int m0, int n0, std::byte* lds,
                                                int thread) {
    int const lane = thread % WaveSize;
    auto const wave = Ring::wave_origin(thread);
    arch::BufferResource const buffer_a = arch::make_buffer_resource(p.a.data, p.a.num_bytes);
    arch::BufferResource const buffer_b = arch::make_buffer_resource(p.b.data, p.b.num_bytes);

    HIPTILE_UNROLL
    for (int i = 0; i < acc.size(); ++i) acc[i].fill(typename WaveMma::ElementAccumulator{});

    int const k_tiles = ceil_div(p.a.extent_k, TileShape::kK);
    typename LoaderA::Registers regs_a;
    typename LoaderB::Registers regs_b;
    for (int s = 0; s < Stages - 1 && s < k_tiles; ++s) {
      LoaderA::load(regs_a, p.a, buffer_a, m0, s * TileShape::kK, thread);
      LoaderB::load(regs_b, p.b, buffer_b, n0, s * TileShape::kK, thread);
      LoaderA::store(regs_a, Ring::stage_a(lds, s), thread);
      LoaderB::store(regs_b, Ring::stage_b(lds, s), thread);
    }
    barrier();

    int read_stage = 0;
    int write_stage = Stages - 1;
    for (int kt = 0; kt < k_tiles; ++kt) {
      int const next = kt + Stages - 1;
      if (next < k_tiles) {
        LoaderA::load(regs_a, p.a, buffer_a, m0, next * TileShape::kK, thread);
        LoaderB::load(regs_b, p.b, buffer_b, n0, next * TileShape::kK, thread);
      }
      wave::multiply_stage<WaveMma>(acc, Ring::stage_a(lds, read_stage), Ring::stage_b(lds, read_stage), wave.m0,
                                    wave.n0, lane);
      if (next < k_tiles) {
        LoaderA::store(regs_a, Ring::stage_a(lds, write_stage), thread);
        LoaderB::store(regs_b, Ring::stage_b(lds, write_stage), thread);
      }
      barrier();
      read_stage = Ring::next_stage(read_stage);
      write_stage = Ring::next_stage(write_stage);
    }
  }
};

}  // namespace hiptile::gemm::mainloop
