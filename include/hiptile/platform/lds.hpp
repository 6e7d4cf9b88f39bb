#pragma once
// Dynamic LDS (shared memory): the only way kernels get LDS. Its size is set at launch
// (LaunchConfig::lds_bytes); the simulator gives each workgroup a buffer of exactly that size.
#include <cstddef>

#include "hiptile/platform/qualifiers.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/runtime.hpp"
#endif

namespace hiptile {

// Start of the workgroup's dynamic LDS, aligned to 16 bytes.
HIPTILE_DEVICE HIPTILE_INLINE std::byte* dynamic_lds() {
#if HIPTILE_BACKEND_SIM
  return sim::this_lane().group->lds();
#else
  extern __shared__ __attribute__((aligned(16))) std::byte hiptile_dynamic_lds[];
  return hiptile_dynamic_lds;
#endif
}

template <class T>
HIPTILE_DEVICE HIPTILE_INLINE T* dynamic_lds_as() {
  return reinterpret_cast<T*>(dynamic_lds());
}

}  // namespace hiptile
