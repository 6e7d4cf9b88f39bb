#pragma once
// Amax: the largest magnitude among the values an epilogue produced, reduced over the whole
// launch into one float in global memory (fp8's "amax" output, from which the next step's scale
// is chosen).
//
// Each lane keeps the magnitude's bits (|x| as float bits: the sign cleared); non-negative floats
// order as unsigned integers do, and a NaN's magnitude orders above infinity, so a NaN anywhere
// makes the amax NaN. At the end of a wave tile the wave takes the maximum across its lanes
// (log2(wave size) shuffles) and its first lane applies it to global memory with one atomic max.
#include <cstdint>

#include "hiptile/arch/cross_lane.hpp"
#include "hiptile/platform/atomic_max.hpp"
#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/wave_size.hpp"

namespace hiptile::epilogue {

class Amax {
 public:
  HIPTILE_HOST_DEVICE HIPTILE_INLINE void observe(float x) {
    std::uint32_t const magnitude = __builtin_bit_cast(std::uint32_t, x) & 0x7fffffffu;
    if (magnitude > bits_) bits_ = magnitude;
  }

  // Every lane of the wave calls it; *amax becomes at least the wave's largest magnitude.
  HIPTILE_DEVICE HIPTILE_INLINE void publish(float* amax, int lane) const {
    std::uint32_t bits = bits_;
    HIPTILE_UNROLL
    for (int offset = kWaveSize / 2; offset > 0; offset /= 2) {
      std::uint32_t const other = arch::shuffle(bits, lane ^ offset);
      if (other > bits) bits = other;
    }
    if (lane == 0) atomic_max_bits(reinterpret_cast<std::uint32_t*>(amax), bits);
  }

 private:
  std::uint32_t bits_ = 0;  // +0.0f
};

}  // namespace hiptile::epilogue
