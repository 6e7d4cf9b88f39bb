#pragma once
// WaveTile: what every wave-level MMA shares — a WaveM × WaveN tile of atoms, one accumulator
// fragment per atom, and where each accumulator register lands in the wave tile (the epilogue
// stores through accumulator_row / accumulator_col, whatever the atom family). Also the usual
// one-K-step operands (an A fragment per atom row, a B fragment per atom column) and their product.
#include "hiptile/core/array.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class Atom, int WaveM, int WaveN, class LayoutA, class LayoutB>
struct WaveTile {
  using AtomType = Atom;
  using LdsLayoutA = LayoutA;  // the LDS stage layouts the wave MMA reads
  using LdsLayoutB = LayoutB;
  using ElementA = typename Atom::ElementA;
  using ElementB = typename Atom::ElementB;
  using ElementAccumulator = typename Atom::ElementC;
  static_assert(WaveM % Atom::kM == 0 && WaveN % Atom::kN == 0,
                "WaveShape must be a multiple of the MMA atom's M and N");
  static constexpr int kWaveM = WaveM;
  static constexpr int kWaveN = WaveN;
  static constexpr int kAtomsM = WaveM / Atom::kM;
  static constexpr int kAtomsN = WaveN / Atom::kN;

  // Per-lane accumulators: fragment mi · kAtomsN + ni belongs to atom (mi, ni) of the wave tile.
  using Accumulators = Array<typename Atom::FragmentC, kAtomsM * kAtomsN>;
  static constexpr int kAccumulatorsPerAtom = Atom::kCPerLane;
  HIPTILE_HOST_DEVICE static constexpr int accumulator_row(int lane, int atom_m, int reg) {
    return atom_m * Atom::kM + Atom::c_row(lane, reg);
  }
  HIPTILE_HOST_DEVICE static constexpr int accumulator_col(int lane, int atom_n, int reg) {
    return atom_n * Atom::kN + Atom::c_col(lane, reg);
  }

  // One K-step's operands: an A fragment per atom row, a B fragment per atom column (a member
  // class, instantiated only by the wave MMAs that load fragments: warpgroup atoms have none).
  struct Fragments {
    Array<typename Atom::FragmentA, kAtomsM> a;
    Array<typename Atom::FragmentB, kAtomsN> b;
  };

  // acc += the product of every atom of the wave tile, for one K-step's fragments.
  HIPTILE_DEVICE HIPTILE_INLINE static void multiply(Accumulators& acc, Fragments const& f) {
    HIPTILE_UNROLL
    for (int mi = 0; mi < kAtomsM; ++mi) {
      HIPTILE_UNROLL
      for (int ni = 0; ni < kAtomsN; ++ni) {
        auto& c = acc[mi * kAtomsN + ni];
        Atom::mma(c, f.a[mi], f.b[ni], c);
      }
    }
  }
};

}  // namespace hiptile::gemm::wave
