#pragma once
// SimtWaveMma: a wave's share of the block tile computed with SimtFma, one fp32 FMA per lane,
// output and k. Lane (lane / 8, lane % 8) owns rows wave_m0 + lane / 8 + i · (wave size / 8) and
// columns wave_n0 + lane % 8 + 8 · j. WaveMma interface (wave/wave_mma.hpp) with one k per step:
// load_a() and load_b() read the lane's A and B elements at that k, multiply() updates all its
// outputs.
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/arch/simt_fma.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/gemm/wave/wave_tile.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
struct SimtWaveMma : WaveTile<Atom, WaveM, WaveN, LayoutA, LayoutB> {
  using Tile = WaveTile<Atom, WaveM, WaveN, LayoutA, LayoutB>;
  using typename Tile::Accumulators;
  using typename Tile::ElementA;
  using typename Tile::ElementB;
  using Tile::kAtomsM;
  using Tile::kAtomsN;
  static constexpr int kSteps = LayoutA::kTileK;

  using typename Tile::Fragments;
  using FragmentsA = decltype(Fragments::a);
  using FragmentsB = decltype(Fragments::b);
  using Tile::multiply;  // acc += the products of one step's fragments

  HIPTILE_DEVICE HIPTILE_INLINE static void load_a(FragmentsA& a, ElementA const* stage_a, int wave_m0, int lane,
                                                   int k) {
    int const row = wave_m0 + Atom::c_row(lane, 0);
    HIPTILE_UNROLL
    for (int mi = 0; mi < kAtomsM; ++mi) a[mi][0] = arch::lds_load(stage_a + LayoutA::offset(row + mi * Atom::kM, k));
  }
  HIPTILE_DEVICE HIPTILE_INLINE static void load_b(FragmentsB& b, ElementB const* stage_b, int wave_n0, int lane,
                                                   int k) {
    int const col = wave_n0 + Atom::c_col(lane, 0);
    HIPTILE_UNROLL
    for (int ni = 0; ni < kAtomsN; ++ni) b[ni][0] = arch::lds_load(stage_b + LayoutB::offset(col + ni * Atom::kN, k));
  }
};

}  // namespace hiptile::gemm::wave
