#pragma once
// atomic_max_bits(address, bits): *address = max(*address, bits) as unsigned 32-bit integers,
// device-wide, relaxed. Non-negative floats order as their bit patterns do, so a float amax
// (|x| ≥ 0, and a NaN's magnitude above every number) is reduced through it without a
// compare-and-swap loop: global_atomic_umax on gfx9, atom.global.max.u32 on NVIDIA.
#include <cstdint>

#include "hiptile/platform/qualifiers.hpp"

#if HIPTILE_BACKEND_SIM
#include <atomic>
#endif

namespace hiptile {

HIPTILE_DEVICE HIPTILE_INLINE void atomic_max_bits(std::uint32_t* address, std::uint32_t bits) {
#if HIPTILE_BACKEND_AMD
  __hip_atomic_fetch_max(address, bits, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#elif HIPTILE_BACKEND_NVIDIA
  atomicMax(address, bits);
#else
  std::atomic_ref<std::uint32_t> value(*address);
  std::uint32_t seen = value.load(std::memory_order_relaxed);
  while (seen < bits && !value.compare_exchange_weak(seen, bits, std::memory_order_relaxed)) {
  }
#endif
}

}  // namespace hiptile
