#pragma once
// Plain global-memory loads and stores. On GPUs a dereference; in the simulator they also count
// instructions and bytes, so a launch reports how much memory traffic a kernel made.
#include <cstring>
#include <type_traits>

#include "hiptile/platform/qualifiers.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/runtime.hpp"
#endif

namespace hiptile::arch {

template <class T>
  requires std::is_trivially_copyable_v<T>
HIPTILE_DEVICE HIPTILE_INLINE T global_load(T const* address) {
#if HIPTILE_BACKEND_SIM
  sim::Lane& lane = sim::this_lane();
  lane.group->record_global_access(lane, sizeof(T), false);
  T value;
  std::memcpy(&value, address, sizeof(T));
  return value;
#else
  return *address;
#endif
}

template <class T>
  requires std::is_trivially_copyable_v<T>
HIPTILE_DEVICE HIPTILE_INLINE void global_store(T* address, T const& value) {
#if HIPTILE_BACKEND_SIM
  sim::Lane& lane = sim::this_lane();
  lane.group->record_global_access(lane, sizeof(T), true);
  std::memcpy(address, &value, sizeof(T));
#else
  *address = value;
#endif
}

}  // namespace hiptile::arch
