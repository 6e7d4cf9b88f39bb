#pragma once
// MmaSyncWaveMma: one NVIDIA warp's share of a block tile, with mma.sync atoms whose K is two
// 16-byte columns (m16n8k16 for f16/bf16, m16n8k32 for 8-bit types). Fragments come from an LDS
// stage with ldmatrix.x4: 16 bytes of one row (8 k of f16, 16 of int8) are one ldmatrix row, so
// four 8×8 matrices give an A fragment (rows 0-7 / 8-15 × the two 16-byte halves of K) or the B
// fragments of two neighbouring n8 atoms. Works with any LDS layout that keeps 16-byte runs
// together: of a row (PackedLdsLayout, SwizzledLdsLayout), or of 8 consecutive MN at one k
// (SwizzledMnLdsLayout, read with ldmatrix.trans).
//
// WaveMma interface (wave/wave_mma.hpp): a stage is kSteps K-steps of 16; load_a() and load_b()
// read one step's fragments and multiply() runs its atoms, so a mainloop can load step s + 1 while
// step s multiplies.
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
  static_assert(WaveN % (2 * Atom::kN) == 0, "WaveShape::kN must be a multiple of 16 for mma.sync atoms (B in pairs)");
  static_assert(LayoutA::kTileK % Atom::kK == 0, "TileShape::kK must be a multiple of the mma.sync atom's K");
  static constexpr int kPack = LayoutA::kPackElements;  // K elements in 16 bytes
  static_assert(Atom::kK == 2 * kPack && LayoutB::kPackElements == kPack,
                "ldmatrix fragments: the atom's K must be two 16-byte columns of A and of B");
  static constexpr int kSteps = LayoutA::kTileK / Atom::kK;

  using typename Tile::Fragments;
  using FragmentsA = decltype(Fragments::a);
  using FragmentsB = decltype(Fragments::b);
  using Tile::multiply;  // acc += the products of one step's fragments

  // The fragments of K-step `step` of the stage for the warp tile at wave_m0 (A) or wave_n0 (B).
  // Lane l gives row l % 8 of matrix l / 8: a row of MN (K-contiguous stage) or, transposed, a row
  // of k (MN-contiguous stage). An A fragment's matrices are (m 0-7, k 0-7), (m 8-15, k 0-7),
  // (m 0-7, k 8-15), (m 8-15, k 8-15); those of a pair of B atoms (n 0-7, k 0-7), (n 0-7, k 8-15),
  // (n 8-15, k 0-7), (n 8-15, k 8-15).
  HIPTILE_DEVICE HIPTILE_INLINE static void load_a(FragmentsA& a, ElementA const* stage_a, int wave_m0, int lane,
                                                   int step) {
    int const matrix = lane / 8;
    HIPTILE_UNROLL
    for (int mi = 0; mi < kAtomsM; ++mi) {
      int const m = wave_m0 + 8 * (matrix % 2);
      int const k = step * Atom::kK + kPack * (matrix / 2);
      a[mi] = __builtin_bit_cast(typename Atom::FragmentA, fragment_load<LayoutA>(stage_a, m, k, lane % 8, mi));
    }
  }
  HIPTILE_DEVICE HIPTILE_INLINE static void load_b(FragmentsB& b, ElementB const* stage_b, int wave_n0, int lane,
                                                   int step) {
    int const matrix = lane / 8;
    HIPTILE_UNROLL
    for (int ni = 0; ni < kAtomsN; ni += 2) {
      int const n = wave_n0 + 8 * (matrix / 2);
      int const k = step * Atom::kK + kPack * (matrix % 2);
      auto const r = fragment_load<LayoutB>(stage_b, n, k, lane % 8, ni / 2);
      b[ni] = __builtin_bit_cast(typename Atom::FragmentB, Array<std::uint32_t, 2>{{r[0], r[1]}});
      b[ni + 1] = __builtin_bit_cast(typename Atom::FragmentB, Array<std::uint32_t, 2>{{r[2], r[3]}});
    }
  }

 private:
  template <class Layout>
  static constexpr bool kMnContiguous = requires { requires Layout::kMnContiguous; };
  // Whether rows 8 apart sit kRowGroupElements apart (SwizzledLdsLayout; not PackedLdsLayout).
  template <class Layout>
  static constexpr bool kRowGroupsRepeat = requires { Layout::kRowGroupElements; };

  // ldmatrix.x4 with this lane's row `row` (0..7) of its 8×8 matrix at (mn + 16·atom, k): the
  // `atom`-th A atom, or pair of B atoms, of the wave tile.
  template <class Layout, class Element>
  HIPTILE_DEVICE HIPTILE_INLINE static Array<std::uint32_t, 4> fragment_load(Element const* stage, int mn, int k,
                                                                            int row, int atom) {
    if constexpr (kMnContiguous<Layout>) {
      return arch::ldmatrix_x4_trans(stage + Layout::offset(mn + 16 * atom, k + row));
    } else if constexpr (kRowGroupsRepeat<Layout>) {
      // offset(mn + 16·atom, k) = offset(mn, k) + 2·atom·kRowGroupElements: the atoms' addresses
      // differ by constants, which the loads take as immediates.
      return arch::ldmatrix_x4(stage + Layout::offset(mn + row, k) + atom * 2 * Layout::kRowGroupElements);
    } else {
      return arch::ldmatrix_x4(stage + Layout::offset(mn + 16 * atom + row, k));
    }
  }
};

}  // namespace hiptile::gemm::wave
