#pragma once
// Wave-collective instructions in the simulator: each of the 64 lanes deposits a pointer to its
// operands (its "slot") and suspends; the last lane to arrive runs the instruction over all 64
// slots at once, with the exact lane/register mapping of the ISA, and the wave goes on.
// Issuing one from a wave with fewer than 64 live lanes is a launch error (kErrorPartialWave).
#include <array>
#include <cstdint>

#include "hiptile/sim/runtime.hpp"

namespace hiptile::sim {

namespace detail {
// One address per instruction kind, so lanes that issue different collectives together are caught.
template <class Instruction>
inline constexpr char kCollectiveTag = 0;
}  // namespace detail

// `compute(std::array<Slot*, 64> const&)` runs once per wave-instruction, which is counted in
// Counters::wave_instructions and in the counter `kind` (&Counters::mfma, &Counters::cross_lane).
template <class Instruction, class Slot, class Compute>
void wave_collective(char const* name, std::uint64_t Counters::*kind, Slot& mine, Compute&& compute) {
  Lane& lane = this_lane();
  Counters& counters = lane.group->counters();
  lane.group->arrive_at_collective(lane, &detail::kCollectiveTag<Instruction>, name, &mine,
                                   [&](std::array<void*, kWaveSize> const& slots) {
                                     ++counters.wave_instructions;
                                     ++(counters.*kind);
                                     std::array<Slot*, kWaveSize> typed;
                                     for (int l = 0; l < kWaveSize; ++l) typed[l] = static_cast<Slot*>(slots[l]);
                                     compute(typed);
                                   });
}

}  // namespace hiptile::sim
