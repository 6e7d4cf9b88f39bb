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
#include "hiptile/gemm/block/packed_lds_layout.hpp"
#include "hiptile/gemm/operand.hpp"
#include "hiptile/platform/barrier.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

template <class ElementA, class ElementB, class TileShape, class WaveShape, class WaveMma, int WaveSize, int Stages>
struct AsyncCopyMainloop {
  static_assert(Stages >= 2, "the async-copy mainloop needs at least 2 LDS stages");
  static constexpr int kWaveSize = WaveSize;
  static constexpr int kWavesM = TileShape::kM / WaveShape::kM;
  static constexpr int kWavesN = TileShape::kN / WaveShape::kN;
  static constexpr int kThreads = kWavesM * kWavesN * WaveSize;
  using LayoutA = block::PackedLdsLayout<ElementA, TileShape::kM, TileShape::kK>;
  using LayoutB = block::PackedLdsLayout<ElementB, TileShape::kN, TileShape::kK>;
  static constexpr std::size_t kStageBytesA = LayoutA::kBytes;
  static constexpr std::size_t kStageBytesB = LayoutB::kBytes;
  static constexpr std::size_t kLdsBytes = Stages * (kStageBytesA + kStageBytesB);
  using Accumulators = typename WaveMma::Accumulators;

  struct Params {
    OperandView<ElementA> a;
    OperandView<ElementB> b;
  };

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

    HIPTILE_UNROLL
    for (int i = 0; i < acc.size(); ++i) acc[i].fill(typename WaveMma::ElementAccumulator{});

    int const k_tiles = ceil_div(p.a.extent_k, TileShape::kK);
    for (int s = 0; s < Stages - 1; ++s) {
      if (s < k_tiles) {
        copy_tile<LayoutA, TileShape::kM>(lds_a + s * kStageA, p.a, m0, s * TileShape::kK, thread);
        copy_tile<LayoutB, TileShape::kN>(lds_b + s * kStageB, p.b, n0, s * TileShape::kK, thread);
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
        copy_tile<LayoutA, TileShape::kM>(lds_a + write_stage * kStageA, p.a, m0, next * TileShape::kK, thread);
        copy_tile<LayoutB, TileShape::kN>(lds_b + write_stage * kStageB, p.b, n0, next * TileShape::kK, thread);
      }
      arch::async_copy_commit();
      WaveMma::run(acc, lds_a + read_stage * kStageA, lds_b + read_stage * kStageB, wave_m0, wave_n0, lane);
      read_stage = read_stage + 1 == Stages ? 0 : read_stage + 1;
      write_stage = write_stage + 1 == Stages ? 0 : write_stage + 1;
    }
    arch::async_copy_wait<0>();
  }

 private:
  // One tile (TileMN rows × TileK) of a K-contiguous operand: vector v = thread + kThreads·i is
  // pack v % packs of row v / packs, as TileLoader maps it (coalesced reads, conflict-free writes).
  template <class Layout, int TileMN, class Element>
  HIPTILE_DEVICE HIPTILE_INLINE static void copy_tile(Element* stage, OperandView<Element> const& op, int mn0, int k0,
                                                      int thread) {
    constexpr int kPack = Layout::kPackElements;
    constexpr int kPacks = Layout::kPacks;
    constexpr int kVectors = TileMN * kPacks;
    static_assert(kVectors % kThreads == 0, "the tile's 16-byte vectors must divide evenly among the threads");
    HIPTILE_UNROLL
    for (int i = 0; i < kVectors / kThreads; ++i) {
      int const v = thread + kThreads * i;
      int const row = v / kPacks;
      int const k = (v % kPacks) * kPack;
      int const valid_rows = op.extent_mn - (mn0 + row);
      int const valid_k = op.extent_k - (k0 + k);
      int const elements = valid_rows <= 0 || valid_k <= 0 ? 0 : (valid_k < kPack ? valid_k : kPack);
      Element const* src = elements > 0 ? op.data + (std::int64_t(mn0 + row) * op.ld + k0 + k) : op.data;
      arch::async_copy_16(stage + Layout::offset(row, k), src, elements * int(sizeof(Element)));
    }
  }
};

}  // namespace hiptile::gemm::mainloop
