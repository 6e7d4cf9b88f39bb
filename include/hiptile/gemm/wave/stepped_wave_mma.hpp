#pragma once
// SteppedWaveMma: the interface every wave-level MMA offers its mainloop. A stage of K is kSteps
// steps; for each, load_fragments() reads the wave's operands of that step from the LDS stage into
// registers (Fragments) and multiply() accumulates their products. Splitting the two lets a
// mainloop load step s + 1 while step s multiplies; multiply_stage() is the plain sequence.
#include <concepts>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

// The types and constants a mainloop reads (the two functions are device code, which nvcc does
// not let a host-side constraint call).
template <class W>
concept SteppedWaveMma = requires {
  { W::kSteps } -> std::convertible_to<int>;
  typename W::Accumulators;
  typename W::Fragments;
  typename W::LdsLayoutA;
  typename W::LdsLayoutB;
};

// acc += the wave's share of one whole LDS stage, step after step.
template <SteppedWaveMma W>
HIPTILE_DEVICE HIPTILE_INLINE void multiply_stage(typename W::Accumulators& acc, typename W::ElementA const* stage_a,
                                                  typename W::ElementB const* stage_b, int wave_m0, int wave_n0,
                                                  int lane) {
  HIPTILE_UNROLL
  for (int step = 0; step < W::kSteps; ++step) {
    typename W::Fragments f;
    W::load_fragments(f, stage_a, stage_b, wave_m0, wave_n0, lane, step);
    W::multiply(acc, f);
  }
}

}  // namespace hiptile::gemm::wave
