#pragma once
// MmaSyncWaveMma: one NVIDIA warp's share of a block tile, with m16n8k16 mma.sync atoms. Fragments
// come from an LDS stage with ldmatrix.x4: 16 bytes (8 k of one row) are one ldmatrix row, so four
// 8×8 matrices give an A fragment (rows 0-7 / 8-15 × k 0-7 / 8-15) or the B fragments of two
// neighbouring n8 atoms. Works with any LDS layout (PackedLdsLayout, SwizzledLdsLayout) that keeps
// 16-byte runs of a row together and repeats every 8 rows (kRowGroupElements).
//
// Stepped interface (wave/stepped_wave_mma.hpp): a stage is kSteps K-steps of 16; load_fragments()
// reads one step's fragments and multiply() runs its atoms, so a mainloop can load step s + 1
// while step s multiplies.
#include "hiptile/arch/ldmatrix.hpp"
#include "hiptile/arch/mma_sync.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/gemm/wave/wave_tile.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
struct MmaSyncWaveMma : WaveTile<Atom, WaveM, WaveN, LayoutA, LayoutB> {
  using Tile = WaveTile<Atom, WaveM, WaveN, LayoutA, LayoutB>;
  using typename Tile::Accumulators;
  using typename Tile::ElementA;
  using typename Tile::ElementB;
  using Tile::kAtomsM;
  using Tile::kAtomsN;
  static_assert(WaveN % (2 * Atom::kN) == 0, "WaveShape::kN must be a multiple of 16 for m16n8k16 atoms (B in pairs)");
  static_assert(LayoutA::kTileK % Atom::kK == 0, "TileShape::kK must be a multiple of 16 for m16n8k16 atoms");
  static_assert(LayoutA::kPackElements == 8, "ldmatrix fragments need 2-byte elements");
  static constexpr int kSteps = LayoutA::kTileK / Atom::kK;

  using typename Tile::Fragments;
  using Tile::multiply;  // acc += the products of one step's fragments

  // The fragments of K-step `step` of the stage for the warp tile at (wave_m0, wave_n0). Lane l
  // gives ldmatrix row l % 8 of matrix l / 8; atoms 16 rows apart are two row groups apart.
  HIPTILE_DEVICE HIPTILE_INLINE static void load_fragments(Fragments& f, ElementA const* stage_a,
                                                           ElementB const* stage_b, int wave_m0, int wave_n0,
                                                           int lane, int step) {
    ElementA const* const a0 =
        stage_a + LayoutA::offset(wave_m0 + lane % 8 + 8 * ((lane / 8) % 2), (lane / 16) * 8 + step * Atom::kK);
    ElementB const* const b0 =
        stage_b + LayoutB::offset(wave_n0 + lane % 8 + 8 * (lane / 16), ((lane / 8) % 2) * 8 + step * Atom::kK);
    HIPTILE_UNROLL
    for (int mi = 0; mi < kAtomsM; ++mi) {
      auto const r = arch::ldmatrix_x4(a0 + mi * 2 * LayoutA::kRowGroupElements);
      f.a[mi] = __builtin_bit_cast(typename Atom::FragmentA, r);
    }
    HIPTILE_UNROLL
    for (int ni = 0; ni < kAtomsN; ni += 2) {
      auto const r = arch::ldmatrix_x4(b0 + (ni / 2) * 2 * LayoutB::kRowGroupElements);
      f.b[ni] = __builtin_bit_cast(typename Atom::FragmentB, Array<std::uint32_t, 2>{{r[0], r[1]}});
      f.b[ni + 1] = __builtin_bit_cast(typename Atom::FragmentB, Array<std::uint32_t, 2>{{r[2], r[3]}});
    }
  }
};

}  // namespace hiptile::gemm::wave
