#pragma once
// Workgroup barrier: every thread of the workgroup waits here, and LDS writes made before it are
// visible to every thread after it.
#include "hiptile/platform/qualifiers.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/runtime.hpp"
#endif

namespace hiptile {

HIPTILE_DEVICE HIPTILE_INLINE void barrier() {
#if HIPTILE_BACKEND_AMD
  // What HIP's __syncthreads does, without the device library: release, s_barrier, acquire.
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
#elif HIPTILE_BACKEND_NVIDIA
  __syncthreads();
#else
  sim::Lane& lane = sim::this_lane();
  lane.group->arrive_at_barrier(lane);
#endif
}

}  // namespace hiptile
