#pragma once
// SimtWaveMma: a wave's share of the block tile computed with SimtFma, one fp32 FMA per lane,
// output and k. Lane (lane / 8, lane % 8) owns rows wave_m0 + lane / 8 + i · (wave size / 8) and
// columns wave_n0 + lane % 8 + 8 · j; for each k of the stage it reads its A and B elements from the
// PackedLdsLayout stage and updates all its outputs.
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/arch/simt_fma.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/gemm/block/packed_lds_layout.hpp"
#include "hiptile/gemm/wave/wave_tile.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class Atom, int WaveM, int WaveN, int TileM, int TileN, int TileK>
struct SimtWaveMma : WaveTile<Atom, WaveM, WaveN> {
  using Tile = WaveTile<Atom, WaveM, WaveN>;
  using typename Tile::Accumulators;
  using typename Tile::ElementA;
  using typename Tile::ElementB;
  using Tile::kAtomsM;
  using Tile::kAtomsN;
  using LayoutA = block::PackedLdsLayout<ElementA, TileM, TileK>;
  using LayoutB = block::PackedLdsLayout<ElementB, TileN, TileK>;

  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators& acc, ElementA const* stage_a, ElementB const* stage_b,
                                                int wave_m0, int wave_n0, int lane) {
    int const row = wave_m0 + Atom::c_row(lane, 0);
    int const col = wave_n0 + Atom::c_col(lane, 0);
    for (int k = 0; k < TileK; ++k) {
      Array<typename Atom::FragmentA, kAtomsM> a;
      Array<typename Atom::FragmentB, kAtomsN> b;
      HIPTILE_UNROLL
      for (int mi = 0; mi < kAtomsM; ++mi) a[mi][0] = arch::lds_load(stage_a + LayoutA::offset(row + mi * Atom::kM, k));
      HIPTILE_UNROLL
      for (int ni = 0; ni < kAtomsN; ++ni) b[ni][0] = arch::lds_load(stage_b + LayoutB::offset(col + ni * Atom::kN, k));
      HIPTILE_UNROLL
      for (int mi = 0; mi < kAtomsM; ++mi) {
        HIPTILE_UNROLL
        for (int ni = 0; ni < kAtomsN; ++ni) {
          auto& c = acc[mi * kAtomsN + ni];
          Atom::mma(c, a[mi], b[ni], c);
        }
      }
    }
  }
};

}  // namespace hiptile::gemm::wave
