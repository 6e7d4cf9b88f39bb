#pragma once
// Cross-lane operations within one wave: every lane of the wave must execute them together.
#include <cstdint>

#include "hiptile/platform/qualifiers.hpp"
#include "hiptile/platform/wave_size.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/wave_collective.hpp"
#endif

namespace hiptile::arch {

#if HIPTILE_BACKEND_SIM
namespace detail {
struct ReadFirstLane {};
struct Shuffle {};
}  // namespace detail
#endif

// The value of the wave's first lane, made wave-uniform (v_readfirstlane_b32: lands in an SGPR).
HIPTILE_DEVICE HIPTILE_INLINE std::uint32_t readfirstlane(std::uint32_t value) {
#if HIPTILE_BACKEND_AMD
  return __builtin_amdgcn_readfirstlane(value);
#elif HIPTILE_BACKEND_NVIDIA
  return __shfl_sync(0xffffffffu, value, 0);
#else
  struct Slot {
    std::uint32_t value;
  } mine{value};
  sim::wave_collective<detail::ReadFirstLane>("v_readfirstlane_b32", &sim::Counters::cross_lane, mine,
                                              [](auto const& lanes) {
                                                std::uint32_t const first = lanes[0]->value;
                                                for (auto* lane : lanes) lane->value = first;
                                              });
  return mine.value;
#endif
}

// The value held by lane `source_lane` (0..kWaveSize-1) of this wave (ds_bpermute_b32 on gfx942).
HIPTILE_DEVICE HIPTILE_INLINE std::uint32_t shuffle(std::uint32_t value, int source_lane) {
#if HIPTILE_BACKEND_AMD
  // ds_bpermute addresses lanes in bytes.
  return static_cast<std::uint32_t>(__builtin_amdgcn_ds_bpermute(source_lane * 4, static_cast<int>(value)));
#elif HIPTILE_BACKEND_NVIDIA
  return __shfl_sync(0xffffffffu, value, source_lane);
#else
  struct Slot {
    std::uint32_t value;
    int source;
    std::uint32_t result;
  } mine{value, source_lane, 0};
  sim::wave_collective<detail::Shuffle>("ds_bpermute_b32", &sim::Counters::cross_lane, mine, [](auto const& lanes) {
    // ds_bpermute uses the low 6 bits of the lane index (bytes 2..7 of the address).
    for (auto* lane : lanes) lane->result = lanes[lane->source & (kWaveSize - 1)]->value;
  });
  return mine.result;
#endif
}

}  // namespace hiptile::arch
