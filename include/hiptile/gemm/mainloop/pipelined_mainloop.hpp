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

#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/core/ceil_div.hpp"
#include "hiptile/gemm/block/tile_loader.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

// TileShape / WaveShape: GemmShape-like (kM, kN, kK); WaveMma: the wave-level MMA over one stage.
template <class ElementA, OperandMajor MajorA, class ElementB, OperandMajor MajorB, class TileShape,
          class WaveShape, class WaveMma, int WaveSize, int Stages>
struct PipelinedMainloop {
  static_assert(Stages >= 2, "the pipelined mainloop needs at least 2 LDS stages");
  static constexpr int kWavesM = TileShape::kM / WaveShape::kM;
  static constexpr int kWavesN = TileShape::kN / WaveShape::kN;
  static constexpr int kWaveSize = WaveSize;
  static constexpr int kThreads = kWavesM * kWavesN * WaveSize;
  using LoaderA = block::TileLoader<ElementA, MajorA, TileShape::kM, TileShape::kK, kThreads>;
  using LoaderB = block::TileLoader<ElementB, MajorB, TileShape::kN, TileShape::kK, kThreads>;
  static constexpr std::size_t kStageBytesA = LoaderA::LdsLayout::kBytes;
  static constexpr std::size_t kStageBytesB = LoaderB::LdsLayout::kBytes;
  static constexpr std::size_t kLdsBytes = Stages * (kStageBytesA + kStageBytesB);
  using Accumulators = typename WaveMma::Accumulators;

  struct Params {
    OperandView<ElementA> a;
    OperandView<ElementB> b;
  };

  // acc = A[m0 .. m0+TileM) · B[n0 .. n0+TileN)ᵀ over all of K, for this thread's wave.
  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators& acc, Params const& p, int m0, int n0, std::byte* lds,
                                                int thread) {
    int const wave = thread / WaveSize;
    int const lane = thread % WaveSize;
    int const wave_m0 = (wave % kWavesM) * WaveShape::kM;
    int const wave_n0 = (wave / kWavesM) * WaveShape::kN;
    auto* const lds_a = reinterpret_cast<ElementA*>(lds);
    auto* const lds_b = reinterpret_cast<ElementB*>(lds + Stages * kStageBytesA);
    constexpr int kStageA = static_cast<int>(kStageBytesA / sizeof(ElementA));
    constexpr int kStageB = static_cast<int>(kStageBytesB / sizeof(ElementB));
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
      LoaderA::store(regs_a, lds_a + s * kStageA, thread);
      LoaderB::store(regs_b, lds_b + s * kStageB, thread);
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
      WaveMma::run(acc, lds_a + read_stage * kStageA, lds_b + read_stage * kStageB, wave_m0, wave_n0, lane);
      if (next < k_tiles) {
        LoaderA::store(regs_a, lds_a + write_stage * kStageA, thread);
        LoaderB::store(regs_b, lds_b + write_stage * kStageB, thread);
      }
      barrier();
      read_stage = read_stage + 1 == Stages ? 0 : read_stage + 1;
      write_stage = write_stage + 1 == Stages ? 0 : write_stage + 1;
    }
  }
};

}  // namespace hiptile::gemm::mainloop
