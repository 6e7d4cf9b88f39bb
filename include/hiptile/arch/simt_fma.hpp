#pragma once
// SimtFma: the SIMT "atom" — no matrix unit, one fp32 fused multiply-add per lane and k. The lanes
// of a wave form a (kWaveSize / 8) × 8 grid; the atom is that grid of outputs, one per lane, one
// k deep. Any element type that converts to float works, on every backend (the fallback where no
// matrix instruction fits, and a reference path for the matrix atoms).
#include "hiptile/core/array.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::arch {

template <class Element, int WaveSize>
struct SimtFma {
  static constexpr bool kIsSimt = true;
  using ElementA = Element;
  using ElementB = Element;
  using ElementC = float;
  static constexpr int kM = WaveSize / 8;
  static constexpr int kN = 8;
  static constexpr int kK = 1;
  static constexpr int kAPerLane = 1;
  static constexpr int kBPerLane = 1;
  static constexpr int kCPerLane = 1;
  using FragmentA = Array<Element, 1>;
  using FragmentB = Array<Element, 1>;
  using FragmentC = Array<float, 1>;

  HIPTILE_HOST_DEVICE static constexpr int c_row(int lane, int) { return lane / 8; }
  HIPTILE_HOST_DEVICE static constexpr int c_col(int lane, int) { return lane % 8; }

  HIPTILE_HOST_DEVICE HIPTILE_INLINE static void mma(FragmentC& d, FragmentA const& a, FragmentB const& b,
                                                     FragmentC const& c) {
    d[0] = static_cast<float>(a[0]) * static_cast<float>(b[0]) + c[0];
  }
};

}  // namespace hiptile::arch
