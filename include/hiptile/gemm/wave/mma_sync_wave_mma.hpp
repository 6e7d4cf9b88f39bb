#pragma once
// MmaSyncWaveMma: one NVIDIA warp's share of a block tile, with m16n8k16 mma.sync atoms. Fragments
// come from the PackedLdsLayout stage with ldmatrix.x4: a pack (8 k of one row, 16 bytes) is
// exactly one ldmatrix row, so four 8×8 matrices give an A fragment (rows 0-7 / 8-15 × packs
// 2s / 2s+1) or the B fragments of two neighbouring n8 atoms.
#include "hiptile/arch/ldmatrix.hpp"
#include "hiptile/arch/mma_sync.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/gemm/block/packed_lds_layout.hpp"
#include "hiptile/gemm/wave/wave_tile.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class Atom, int WaveM, int WaveN, int TileM, int TileN, int TileK>
struct MmaSyncWaveMma : WaveTile<Atom, WaveM, WaveN> {
  using Tile = WaveTile<Atom, WaveM, WaveN>;
  using typename Tile::Accumulators;
  using typename Tile::ElementA;
  using typename Tile::ElementB;
  using Tile::kAtomsM;
  using Tile::kAtomsN;
  static_assert(WaveN % (2 * Atom::kN) == 0, "WaveShape::kN must be a multiple of 16 for m16n8k16 atoms (B in pairs)");
  static_assert(TileK % Atom::kK == 0, "TileShape::kK must be a multiple of 16 for m16n8k16 atoms");
  static constexpr int kSteps = TileK / Atom::kK;

  using LayoutA = block::PackedLdsLayout<ElementA, TileM, TileK>;
  using LayoutB = block::PackedLdsLayout<ElementB, TileN, TileK>;
  static_assert(LayoutA::kPackElements == 8, "ldmatrix fragments need 2-byte elements");

  HIPTILE_DEVICE HIPTILE_INLINE static void run(Accumulators& acc, ElementA const* stage_a, ElementB const* stage_b,
                                                int wave_m0, int wave_n0, int lane) {
    // Each lane's ldmatrix row for atom 0 of step 0; atom mi adds 16 rows and step s two packs.
    // Sixteen rows (two groups of 8) are 18 chunks in the layout, whatever the first row.
    ElementA const* const a0 = stage_a + LayoutA::offset(wave_m0 + lane % 8 + 8 * ((lane / 8) % 2), (lane / 16) * 8);
    ElementB const* const b0 = stage_b + LayoutB::offset(wave_n0 + lane % 8 + 8 * (lane / 16), ((lane / 8) % 2) * 8);
    constexpr int kAtomRows = 18 * 8;  // elements between atoms 16 rows apart
    HIPTILE_UNROLL
    for (int s = 0; s < kSteps; ++s) {
      Array<typename Atom::FragmentA, kAtomsM> a;
      Array<typename Atom::FragmentB, kAtomsN> b;
      HIPTILE_UNROLL
      for (int mi = 0; mi < kAtomsM; ++mi) {
        auto const r = arch::ldmatrix_x4(a0 + mi * kAtomRows + s * 2 * LayoutA::kBlockStride * 8);
        a[mi] = __builtin_bit_cast(typename Atom::FragmentA, r);
      }
      HIPTILE_UNROLL
      for (int ni = 0; ni < kAtomsN; ni += 2) {
        auto const r = arch::ldmatrix_x4(b0 + (ni / 2) * kAtomRows + s * 2 * LayoutB::kBlockStride * 8);
        b[ni] = __builtin_bit_cast(typename Atom::FragmentB, Array<std::uint32_t, 2>{{r[0], r[1]}});
        b[ni + 1] = __builtin_bit_cast(typename Atom::FragmentB, Array<std::uint32_t, 2>{{r[2], r[3]}});
      }
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
