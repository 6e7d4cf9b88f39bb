#pragma once
// Flags in global memory that order one workgroup's writes before another's reads, device-wide:
// what serial split-K's per-tile semaphores are made of.
//
//   writer: its global stores; device_fence_release(); barrier(); one thread: flag_store_release()
//   reader: one thread: flag_wait_until_equal(); barrier(); device_fence_acquire(); global loads
//
// Every thread fences, not only the one that touches the flag: the fences are device (agent)
// scope, the barrier only workgroup scope. A waiter spins on hardware (with a short sleep), so it
// may only wait for workgroups started before it (a lower linear workgroup index), which hardware
// dispatches first. In the simulator a wait that no other workgroup can end fails the launch with
// kErrorDeadlock (after a second without progress) instead of hanging.
#include "hiptile/platform/qualifiers.hpp"

#if HIPTILE_BACKEND_SIM
#include <atomic>

#include "hiptile/sim/runtime.hpp"
#endif

namespace hiptile {

// This thread's global writes before it are visible device-wide to whoever acquires after it.
HIPTILE_DEVICE HIPTILE_INLINE void device_fence_release() {
#if HIPTILE_BACKEND_AMD
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent");
#elif HIPTILE_BACKEND_NVIDIA
  __threadfence();
#else
  std::atomic_thread_fence(std::memory_order_release);
#endif
}

// Global reads after it see what was released before the flag this workgroup waited for.
HIPTILE_DEVICE HIPTILE_INLINE void device_fence_acquire() {
#if HIPTILE_BACKEND_AMD
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent");
#elif HIPTILE_BACKEND_NVIDIA
  __threadfence();
#else
  std::atomic_thread_fence(std::memory_order_acquire);
#endif
}

HIPTILE_DEVICE HIPTILE_INLINE int flag_load_acquire(int const* flag) {
#if HIPTILE_BACKEND_AMD
  return __hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
#elif HIPTILE_BACKEND_NVIDIA
  int value;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(value) : "l"(flag) : "memory");
  return value;
#else
  return std::atomic_ref<int>(*const_cast<int*>(flag)).load(std::memory_order_acquire);
#endif
}

HIPTILE_DEVICE HIPTILE_INLINE void flag_store_release(int* flag, int value) {
#if HIPTILE_BACKEND_AMD
  __hip_atomic_store(flag, value, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
#elif HIPTILE_BACKEND_NVIDIA
  asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
#else
  std::atomic_ref<int>(*flag).store(value, std::memory_order_release);
  sim::this_lane().group->note_progress();
#endif
}

// A store that orders nothing: for a flag no other workgroup of the launch touches again (the
// reader re-arming the flag it consumed, for the next launch).
HIPTILE_DEVICE HIPTILE_INLINE void flag_store_relaxed(int* flag, int value) {
#if HIPTILE_BACKEND_AMD
  __hip_atomic_store(flag, value, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
#elif HIPTILE_BACKEND_NVIDIA
  asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
#else
  std::atomic_ref<int>(*flag).store(value, std::memory_order_relaxed);
#endif
}

// Returns once *flag == value (an acquire of the store that set it).
HIPTILE_DEVICE HIPTILE_INLINE void flag_wait_until_equal(int const* flag, int value) {
#if HIPTILE_BACKEND_SIM
  sim::Lane& lane = sim::this_lane();
  lane.group->wait_until(lane, "flag_wait_until_equal", [&] { return flag_load_acquire(flag) == value; });
#else
  while (flag_load_acquire(flag) != value) {
#if HIPTILE_BACKEND_AMD
    __builtin_amdgcn_s_sleep(1);
#else
    __nanosleep(32);
#endif
  }
#endif
}

}  // namespace hiptile
