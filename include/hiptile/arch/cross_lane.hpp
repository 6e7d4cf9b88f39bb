#pragma once
// Cross-lane operations within one wave: every lane of the wave must execute them together.
#include <cstdint>
#include <type_traits>

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
struct WaveSync {};
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

// A copy of `value`, which every lane of the wave holds, that the compiler knows to be the same in
// every lane. On gfx9 each 32-bit word passes through v_readfirstlane_b32 into a scalar register,
// so what is computed from it (a buffer resource, a base address) stays scalar: a value loaded from
// memory the kernel also writes is otherwise kept per lane, and a buffer resource in vector
// registers costs a loop of v_readfirstlane around every buffer load. NVIDIA (no scalar registers)
// and the simulator: the value as it is.
template <class T>
  requires(std::is_trivially_copyable_v<T> && sizeof(T) % 4 == 0)
HIPTILE_DEVICE HIPTILE_INLINE T wave_uniform(T const& value) {
#if HIPTILE_BACKEND_AMD
  struct Words {
    std::uint32_t word[sizeof(T) / 4];
  };
  Words words = __builtin_bit_cast(Words, value);
  for (std::uint32_t& w : words.word) w = __builtin_amdgcn_readfirstlane(w);
  return __builtin_bit_cast(T, words);
#else
  return value;
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

// `value` as lane `source_lane` holds it, for any trivially copyable value (a word at a time).
template <class T>
  requires(std::is_trivially_copyable_v<T> && sizeof(T) % 4 == 0)
HIPTILE_DEVICE HIPTILE_INLINE T shuffle_value(T const& value, int source_lane) {
  std::uint32_t words[sizeof(T) / 4];
  __builtin_memcpy(words, &value, sizeof(T));
  for (std::uint32_t& w : words) w = shuffle(w, source_lane);
  T result;
  __builtin_memcpy(&result, words, sizeof(T));
  return result;
}

// The lanes of this wave meet: LDS writes a lane made before it are visible to the wave's other
// lanes after it (a wave that stages data in a region of LDS only it uses needs no block barrier).
// NVIDIA's lanes may run apart (__syncwarp); gfx9's run together, so only the compiler is held.
HIPTILE_DEVICE HIPTILE_INLINE void wave_sync() {
#if HIPTILE_BACKEND_AMD
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#elif HIPTILE_BACKEND_NVIDIA
  __syncwarp();
#else
  struct Slot {
  } mine;
  sim::wave_collective<detail::WaveSync>("wave_barrier", &sim::Counters::cross_lane, mine, [](auto const&) {});
#endif
}

}  // namespace hiptile::arch
