#pragma once
// StageRing: the geometry every mainloop shares. The block tile is split into kWavesM × kWavesN
// wave tiles (wave w at row w % kWavesM, column w / kWavesM), and dynamic LDS holds a ring of
// `Stages` stages in the wave MMA's LDS layouts: all the A stages, then all the B stages.
#include <cstddef>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::mainloop {

template <class WaveMma, class TileShape, class WaveShape, int WaveSize, int Stages>
struct StageRing {
  static_assert(Stages >= 1, "a mainloop needs at least one LDS stage");
  static constexpr int kWaveSize = WaveSize;
  static constexpr int kWavesM = TileShape::kM / WaveShape::kM;
  static constexpr int kWavesN = TileShape::kN / WaveShape::kN;
  static constexpr int kThreads = kWavesM * kWavesN * WaveSize;
  using LayoutA = typename WaveMma::LdsLayoutA;
  using LayoutB = typename WaveMma::LdsLayoutB;
  using ElementA = typename LayoutA::ElementType;
  using ElementB = typename LayoutB::ElementType;
  static_assert(LayoutA::kTileMN == TileShape::kM && LayoutB::kTileMN == TileShape::kN &&
                LayoutA::kTileK == TileShape::kK && LayoutB::kTileK == TileShape::kK,
                "the wave MMA's LDS layouts must cover the block tile");
  static constexpr std::size_t kStageBytesA = LayoutA::kBytes;
  static constexpr std::size_t kStageBytesB = LayoutB::kBytes;
  static constexpr std::size_t kLdsBytes = Stages * (kStageBytesA + kStageBytesB);

  // The first element of stage s of each operand.
  HIPTILE_DEVICE HIPTILE_INLINE static ElementA* stage_a(std::byte* lds, int s) {
    return reinterpret_cast<ElementA*>(lds + s * kStageBytesA);
  }
  HIPTILE_DEVICE HIPTILE_INLINE static ElementB* stage_b(std::byte* lds, int s) {
    return reinterpret_cast<ElementB*>(lds + Stages * kStageBytesA + s * kStageBytesB);
  }

  // Where thread `thread`'s wave tile starts inside the block tile.
  struct WaveOrigin {
    int m0;
    int n0;
  };
  HIPTILE_HOST_DEVICE static constexpr WaveOrigin wave_origin(int thread) {
    int const wave = thread / WaveSize;
    return {(wave % kWavesM) * WaveShape::kM, (wave / kWavesM) * WaveShape::kN};
  }

  // The ring's next stage index.
  HIPTILE_HOST_DEVICE static constexpr int next_stage(int s) { return s + 1 == Stages ? 0 : s + 1; }
};

}  // namespace hiptile::gemm::mainloop
