#pragma once
// ChainedMfmaWaveMma: one wave's share of a block tile with MFMA atoms whose K runs in its natural
// order within every atom K-step — unlike MfmaWaveMma, which permutes K inside a stage so that each
// lane reads one long run. A chained GEMM's second product (wave/chained_operand.hpp) takes its A
// operand from the first product's accumulators, whose registers hold K-step s's elements in that
// natural order, so the B operand it meets must too: each lane reads, per step and atom column, its
// kBPerLane consecutive k (8 bytes of f16: ds_read_b64) at b_k(lane, 0).
//
// WaveMma interface (wave/wave_mma.hpp): a stage is kSteps = TileK / atom K steps; load_a() and
// load_b() read a step's fragments (A too, for a product with both operands in LDS), multiply() runs
// its atoms.
#include "hiptile/arch/lds_access.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/gemm/wave/wave_tile.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
struct ChainedMfmaWaveMma : WaveTile<Atom, WaveM, WaveN, LayoutA, LayoutB> {
  using Tile = WaveTile<Atom, WaveM, WaveN, LayoutA, LayoutB>;
  using typename Tile::Accumulators;
  using typename Tile::ElementA;
  using typename Tile::ElementB;
  using Tile::kAtomsM;
  using Tile::kAtomsN;
  static_assert(LayoutB::kTileK % Atom::kK == 0, "TileShape::kK must be a multiple of the MFMA atom's K");
  static constexpr int kSteps = LayoutB::kTileK / Atom::kK;

  using typename Tile::Fragments;
  using FragmentsA = decltype(Fragments::a);
  using FragmentsB = decltype(Fragments::b);
  using Tile::multiply;  // acc += the products of one step's fragments

  HIPTILE_DEVICE HIPTILE_INLINE static void load_a(FragmentsA& a, ElementA const* stage_a, int wave_m0, int lane,
                                                   int step) {
    HIPTILE_UNROLL
    for (int mi = 0; mi < kAtomsM; ++mi) {
      a[mi] = load_run<LayoutA, typename Atom::FragmentA>(stage_a, wave_m0 + mi * Atom::kM + Atom::a_row(lane, 0),
                                                           step * Atom::kK + Atom::a_k(lane, 0));
    }
  }
  HIPTILE_DEVICE HIPTILE_INLINE static void load_b(FragmentsB& b, ElementB const* stage_b, int wave_n0, int lane,
                                                   int step) {
    HIPTILE_UNROLL
    for (int ni = 0; ni < kAtomsN; ++ni) {
      b[ni] = load_run<LayoutB, typename Atom::FragmentB>(stage_b, wave_n0 + ni * Atom::kN + Atom::b_col(lane, 0),
                                                           step * Atom::kK + Atom::b_k(lane, 0));
    }
  }

 private:
  // A lane's fragment: its consecutive k from (mn, k), one LDS read (they share a 16-byte pack).
  template <class Layout, class Fragment, class Element>
  HIPTILE_DEVICE HIPTILE_INLINE static Fragment load_run(Element const* stage, int mn, int k) {
    static_assert(sizeof(Fragment) <= 16 && Layout::kPackElements % Fragment::size() == 0,
                  "a lane's fragment must lie within one 16-byte pack of the stage");
    return arch::lds_load(reinterpret_cast<Fragment const*>(stage + Layout::offset(mn, k)));
  }
};

}  // namespace hiptile::gemm::wave
