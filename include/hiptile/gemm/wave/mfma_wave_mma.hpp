#pragma once
// MfmaWaveMma: one wave's share of a block tile. It reads A and B fragments of one LDS stage in
// the MFMA atom's layout and runs the atoms that cover its WaveM × WaveN tile, accumulating in
// registers across the K loop.
//
// K order inside a stage: the lanes of an atom form G = 64 / AtomM groups along K, and lane group
// g of every atom row reads one contiguous run of TileK / G elements (whole 16-byte packs). K-step
// s of the atom then takes elements [s·P, s·P + P) of that run (P = elements per lane). So atom
// step s, lane group g, register r multiplies physical k = g·(TileK/G) + s·P + r of A with the
// same physical k of B: a permutation of K inside the stage, the same for both operands, which
// leaves A·B unchanged and turns every fragment read into ds_read_b128.
//
// WaveMma interface (wave/wave_mma.hpp) with one step per stage: each lane's runs cover all the
// atom K-steps at once, so load_a() and load_b() read the whole stage and multiply() runs them.
#include <cstdint>

#include "hiptile/arch/lds_access.hpp"
#include "hiptile/arch/mfma.hpp"
#include "hiptile/core/array.hpp"
#include "hiptile/gemm/wave/wave_tile.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
struct MfmaWaveMma : WaveTile<Atom, WaveM, WaveN, LayoutA, LayoutB> {
  using Tile = WaveTile<Atom, WaveM, WaveN, LayoutA, LayoutB>;
  using typename Tile::Accumulators;
  using typename Tile::ElementA;
  using typename Tile::ElementB;
  using Tile::kAtomsM;
  using Tile::kAtomsN;
  static constexpr int kTileK = LayoutA::kTileK;
  static constexpr int kGroups = 64 / Atom::kM;         // lane groups along K
  static constexpr int kRun = kTileK / kGroups;         // contiguous K elements one lane reads per row
  static constexpr int kAtomSteps = kTileK / Atom::kK;  // atom K-steps per stage
  static constexpr int kSteps = 1;                      // load_fragments() steps per stage
  static_assert(kTileK % Atom::kK == 0, "TileShape::kK must be a multiple of the MFMA atom's K");
  static_assert(kAtomSteps * Atom::kAPerLane == kRun, "MFMA atom layout and stage depth disagree");
  static constexpr int kPackA = LayoutA::kPackElements;
  static constexpr int kPackB = LayoutB::kPackElements;
  static_assert(kRun % kPackA == 0 && kRun % kPackB == 0,
                "TileShape::kK too small for the atom: each lane must read whole 16-byte packs (raise kK)");

  // Each lane's runs of the stage: kRun K elements of every atom row of A and column of B.
  using FragmentsA = Array<Array<ElementA, kRun>, kAtomsM>;
  using FragmentsB = Array<Array<ElementB, kRun>, kAtomsN>;
  struct Fragments {
    FragmentsA a;
    FragmentsB b;
  };

  // The lane's A and B runs of the stage for the wave tile at (wave_m0, wave_n0), and each alone
  // (an A operand may come from registers instead: ChainedWaveMma).
  HIPTILE_DEVICE HIPTILE_INLINE static void load_fragments(Fragments& f, ElementA const* stage_a,
                                                           ElementB const* stage_b, int wave_m0, int wave_n0,
                                                           int lane, int /*step*/) {
    int const group = lane / Atom::kM;
    int const row = lane % Atom::kM;
    load_runs<LayoutA>(f.a, stage_a, wave_m0, row, group);
    load_runs<LayoutB>(f.b, stage_b, wave_n0, row, group);
  }
  HIPTILE_DEVICE HIPTILE_INLINE static void load_a(FragmentsA& a, ElementA const* stage_a, int wave_m0, int lane,
                                                   int /*step*/) {
    load_runs<LayoutA>(a, stage_a, wave_m0, lane % Atom::kM, lane / Atom::kM);
  }
  HIPTILE_DEVICE HIPTILE_INLINE static void load_b(FragmentsB& b, ElementB const* stage_b, int wave_n0, int lane,
                                                   int /*step*/) {
    load_runs<LayoutB>(b, stage_b, wave_n0, lane % Atom::kM, lane / Atom::kM);
  }

  // acc += A_stage[wave_m0 .. +WaveM) · B_stage[wave_n0 .. +WaveN)ᵀ over the whole stage.
  HIPTILE_DEVICE HIPTILE_INLINE static void multiply(Accumulators& acc, Fragments const& f) {
    HIPTILE_UNROLL
    for (int s = 0; s < kAtomSteps; ++s) {
      HIPTILE_UNROLL
      for (int mi = 0; mi < kAtomsM; ++mi) {
        typename Atom::FragmentA fa;
        copy_run(fa, f.a[mi], s);
        HIPTILE_UNROLL
        for (int ni = 0; ni < kAtomsN; ++ni) {
          typename Atom::FragmentB fb;
          copy_run(fb, f.b[ni], s);
          auto& c = acc[mi * kAtomsN + ni];
          Atom::mma(c, fa, fb, c);
        }
      }
    }
  }

 private:
  // Atom K-step s's fragment out of a lane's run. 8-bit fragments move as whole 32-bit words:
  // element by element, every word became a byte split and re-pack.
  template <class Fragment, class Run>
  HIPTILE_DEVICE HIPTILE_INLINE static void copy_run(Fragment& fragment, Run const& run, int s) {
    constexpr int kElements = Fragment::size();
    if constexpr (sizeof(typename Run::value_type) == 1) {
      constexpr int kWords = int(sizeof(Fragment) / 4);
      auto const words = __builtin_bit_cast(Array<std::uint32_t, int(sizeof(Run) / 4)>, run);
      Array<std::uint32_t, kWords> part;
      HIPTILE_UNROLL
      for (int w = 0; w < kWords; ++w) part[w] = words[s * kWords + w];
      fragment = __builtin_bit_cast(Fragment, part);
    } else {
      HIPTILE_UNROLL
      for (int r = 0; r < kElements; ++r) fragment[r] = run[s * kElements + r];
    }
  }

  // The lane's runs of one operand: row `row` of every atom of the wave tile starting at mn0.
  template <class Layout, class Runs, class Element>
  HIPTILE_DEVICE HIPTILE_INLINE static void load_runs(Runs& runs, Element const* stage, int mn0, int row, int group) {
    HIPTILE_UNROLL
    for (int i = 0; i < Runs::size(); ++i) load_run<Layout>(runs[i], stage, mn0 + i * Atom::kM + row, group);
  }

  // The lane's run of kRun K elements of one row: kRun / pack 16-byte LDS reads.
  template <class Layout, class Element>
  HIPTILE_DEVICE HIPTILE_INLINE static void load_run(Array<Element, kRun>& run, Element const* stage, int row,
                                                     int group) {
    constexpr int kPack = Layout::kPackElements;
    using Pack = Array<Element, kPack>;
    HIPTILE_UNROLL
    for (int p = 0; p < kRun / kPack; ++p) {
      Pack const v = arch::lds_load(reinterpret_cast<Pack const*>(stage + Layout::offset(row, group * kRun + p * kPack)));
      HIPTILE_UNROLL
      for (int e = 0; e < kPack; ++e) run[p * kPack + e] = v[e];
    }
  }
};

}  // namespace hiptile::gemm::wave
