#pragma once
// Asynchronous global → shared copies (cp.async, sm_80+): 16 bytes per thread go straight to shared
// memory without passing through registers; the copies a thread issued are grouped by commit(),
// and wait<N>() blocks until at most N of its newest groups are still in flight.
// A copy with fewer than 16 valid source bytes fills the rest of its destination with zeros, so
// edge tiles need no branches (PTX ISA, cp.async: "src-size").
#include <cstdint>

#include "hiptile/arch/buffer_memory.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::arch {

template <class T>
HIPTILE_DEVICE HIPTILE_INLINE void async_copy_16(T* shared_dst, T const* global_src, int src_bytes) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  auto const dst = static_cast<std::uint32_t>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(global_src), "r"(src_bytes));
#elif HIPTILE_BACKEND_NVIDIA
  (void)shared_dst, (void)global_src, (void)src_bytes;  // host pass of nvcc: never called
#else
  (void)shared_dst, (void)global_src, (void)src_bytes;
  static_assert(sizeof(T) == 0, "cp.async exists on NVIDIA GPUs only");
#endif
}

// A whole 16-byte copy (no source size, so no zero-fill bookkeeping).
template <class T>
HIPTILE_DEVICE HIPTILE_INLINE void async_copy_16(T* shared_dst, T const* global_src) {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  auto const dst = static_cast<std::uint32_t>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(global_src));
#elif HIPTILE_BACKEND_NVIDIA
  (void)shared_dst, (void)global_src;  // host pass of nvcc: never called
#else
  (void)shared_dst, (void)global_src;
  static_assert(sizeof(T) == 0, "cp.async exists on NVIDIA GPUs only");
#endif
}

// Copies the 16 bytes at byte `offset` of a buffer (buffer_memory.hpp) to shared memory; an access
// that does not lie wholly inside the buffer copies zeros, as buffer_load reads them.
template <class T>
HIPTILE_DEVICE HIPTILE_INLINE void buffer_async_copy_16(T* shared_dst, BufferResource const& r, std::uint32_t offset) {
#if HIPTILE_BACKEND_NVIDIA
  bool const inside = std::uint64_t(offset) + 16 <= r.num_bytes;
  async_copy_16(shared_dst, reinterpret_cast<T const*>(inside ? r.base + offset : r.base), inside ? 16 : 0);
#else
  (void)shared_dst, (void)r, (void)offset;
  static_assert(sizeof(T) == 0, "cp.async exists on NVIDIA GPUs only");
#endif
}

HIPTILE_DEVICE HIPTILE_INLINE void async_copy_commit() {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int N>
HIPTILE_DEVICE HIPTILE_INLINE void async_copy_wait() {
#if HIPTILE_BACKEND_NVIDIA && HIPTILE_DEVICE_PASS
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

}  // namespace hiptile::arch
