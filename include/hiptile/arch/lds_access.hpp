#pragma once
// LDS reads and writes. Kernels move data through LDS with these rather than plain pointer
// dereferences, so that the simulator sees every LDS instruction: it checks the access is inside
// the workgroup's LDS and costs its bank conflicts (sim/lds_bank_model.hpp). On GPUs they are a
// plain load/store, which the compiler emits as one ds_read/ds_write of sizeof(T) bytes.
#include <cstring>

#include "hiptile/platform/qualifiers.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/runtime.hpp"
#endif

namespace hiptile::arch {

// The widths one LDS instruction moves per lane (ds_read_u8 ... ds_read_b128).
template <class T>
concept LdsAccessible = std::is_trivially_copyable_v<T> &&
                        (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16);

template <LdsAccessible T>
HIPTILE_DEVICE HIPTILE_INLINE T lds_load(T const* address) {
#if HIPTILE_BACKEND_SIM
  sim::Lane& lane = sim::this_lane();
  lane.group->record_lds_access(lane, address, sizeof(T), false);
  T value;
  std::memcpy(&value, address, sizeof(T));
  return value;
#else
  return *address;
#endif
}

template <LdsAccessible T>
HIPTILE_DEVICE HIPTILE_INLINE void lds_store(T* address, T const& value) {
#if HIPTILE_BACKEND_SIM
  sim::Lane& lane = sim::this_lane();
  lane.group->record_lds_access(lane, address, sizeof(T), true);
  std::memcpy(address, &value, sizeof(T));
#else
  *address = value;
#endif
}

}  // namespace hiptile::arch
