#pragma once
// WaveMma: what every wave-level MMA offers the layers around it — one wave's WaveM × WaveN share
// of a block tile, its accumulators, and where each accumulator register lands in the wave tile
// (an epilogue stores through accumulator_row / accumulator_col, whatever the atom family). Models:
// MfmaWaveMma (gfx9), MmaSyncWaveMma and WarpgroupWaveMma (NVIDIA), SimtWaveMma (any).
//
// FragmentWaveMma: a WaveMma whose operands pass through registers. A stage of K is kSteps steps;
// for each, load_a() and load_b() read the wave's A and B fragments of that step from the LDS stage
// (separately: an A operand may come from registers instead, ChainedWaveMma), and multiply()
// accumulates their products. Splitting loads from the math lets a mainloop load step s + 1 while
// step s multiplies; multiply_stage() is the plain sequence. WarpgroupWaveMma is a WaveMma but not
// a FragmentWaveMma: its instructions read the stage themselves (issue_stage()).
//
// The members are device code, which nvcc does not let a host-side constraint call, so the concepts
// name them without calling them.
#include <concepts>

#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::wave {

template <class W>
concept WaveMma = requires {
  typename W::ElementA;
  typename W::ElementB;
  typename W::ElementAccumulator;
  typename W::Accumulators;  // per lane: fragment mi · kAtomsN + ni belongs to atom (mi, ni)
  typename W::LdsLayoutA;    // the LDS stage layouts it reads
  typename W::LdsLayoutB;
  { W::kWaveM } -> std::convertible_to<int>;
  { W::kWaveN } -> std::convertible_to<int>;
  { W::kAtomsM } -> std::convertible_to<int>;
  { W::kAtomsN } -> std::convertible_to<int>;
  { W::kAccumulatorsPerAtom } -> std::convertible_to<int>;
  &W::accumulator_row;  // (lane, atom_m, register) -> row in the wave tile
  &W::accumulator_col;  // (lane, atom_n, register) -> column in the wave tile
};

template <class W>
concept FragmentWaveMma = WaveMma<W> && requires {
  { W::kSteps } -> std::convertible_to<int>;
  typename W::FragmentsA;  // one step's A operand of the wave tile
  typename W::FragmentsB;
  typename W::Fragments;   // both: {FragmentsA a; FragmentsB b;}
  &W::load_a;              // (FragmentsA&, stage_a, wave_m0, lane, step)
  &W::load_b;              // (FragmentsB&, stage_b, wave_n0, lane, step)
  &W::multiply;            // (Accumulators&, Fragments const&): acc += their products
};

// One step's fragments of both operands: W's own load_fragments where it has one (which may share
// the lane's indexing between the two), else load_a and load_b.
template <FragmentWaveMma W>
HIPTILE_DEVICE HIPTILE_INLINE void load_fragments(typename W::Fragments& f, typename W::ElementA const* stage_a,
                                                  typename W::ElementB const* stage_b, int wave_m0, int wave_n0,
                                                  int lane, int step) {
  if constexpr (requires { &W::load_fragments; }) {
    W::load_fragments(f, stage_a, stage_b, wave_m0, wave_n0, lane, step);
  } else {
    W::load_a(f.a, stage_a, wave_m0, lane, step);
    W::load_b(f.b, stage_b, wave_n0, lane, step);
  }
}

// acc += the wave's share of one whole LDS stage, step after step.
template <FragmentWaveMma W>
HIPTILE_DEVICE HIPTILE_INLINE void multiply_stage(typename W::Accumulators& acc, typename W::ElementA const* stage_a,
                                                  typename W::ElementB const* stage_b, int wave_m0, int wave_n0,
                                                  int lane) {
  HIPTILE_UNROLL
  for (int step = 0; step < W::kSteps; ++step) {
    typename W::Fragments f;
    load_fragments<W>(f, stage_a, stage_b, wave_m0, wave_n0, lane, step);
    W::multiply(acc, f);
  }
}

}  // namespace hiptile::gemm::wave
