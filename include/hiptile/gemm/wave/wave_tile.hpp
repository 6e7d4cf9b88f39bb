#pragma once
// WaveTile: what every wave-level MMA shares — a WaveM × WaveN tile of atoms, one accumulator
// fragment per atom, and where each accumulator register lands in the wave tile (the epilogue
// stores through accumulator_row / accumulator_col, whatever the atom family).
#include "hiptile/core/array.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class Atom, int WaveM, int WaveN>
struct WaveTile {
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
};

}  // namespace hiptile::gemm::wave
