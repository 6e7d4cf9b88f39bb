#pragma once
// Buffer loads and stores: global memory reached through a resource that carries the buffer's size
// in bytes. A load whose byte range lies past the end returns zeros and a store there is dropped,
// on gfx942 by the hardware's range check, so tile edges need no branches (docs/mi300_facts.md,
// "Buffer loads"). The check is by whole access here: whether hardware checks a 64/128-bit access
// per dword is undocumented, so an access that straddles the end is an error in the simulator and
// must not happen — keep edges vector-aligned.
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "hiptile/platform/qualifiers.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/runtime.hpp"
#endif

namespace hiptile::arch {

template <class T>
concept BufferAccessible = std::is_trivially_copyable_v<T> &&
                           (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16);

struct BufferResource {
#if HIPTILE_BACKEND_AMD
  __amdgpu_buffer_rsrc_t descriptor;
#else
  std::byte* base;
  std::uint32_t num_bytes;
#endif
};

// Word 3 of a gfx9 raw buffer descriptor: 32-bit data format, no swizzle (composable_kernel's
// value for gfx9/gfx942, include/ck/ck.hpp; docs/mi300_facts.md, "Buffer loads").
inline constexpr int kGfx9BufferResourceWord3 = 0x00020000;

HIPTILE_DEVICE HIPTILE_INLINE BufferResource make_buffer_resource(void const* base, std::uint32_t num_bytes) {
#if HIPTILE_BACKEND_AMD
  return {__builtin_amdgcn_make_buffer_rsrc(const_cast<void*>(base), 0, static_cast<int>(num_bytes),
                                            kGfx9BufferResourceWord3)};
#else
  return {static_cast<std::byte*>(const_cast<void*>(base)), num_bytes};
#endif
}

#if HIPTILE_BACKEND_AMD
namespace detail {
typedef unsigned U32x2 __attribute__((ext_vector_type(2)));
typedef unsigned U32x4 __attribute__((ext_vector_type(4)));
}  // namespace detail
#endif

#if HIPTILE_BACKEND_SIM
namespace detail {
// True if the access is in range; false if wholly past the end; a launch error if it straddles.
inline bool buffer_access_in_range(BufferResource const& r, std::uint32_t offset, std::size_t bytes, bool write) {
  sim::Lane& lane = sim::this_lane();
  lane.group->record_global_access(lane, bytes, write);
  if (std::uint64_t(offset) + bytes <= r.num_bytes) return true;
  if (offset >= r.num_bytes) return false;
  lane.group->fail(Status::kErrorOutOfBoundsAccess,
                   std::string(write ? "buffer store" : "buffer load") + " of " + std::to_string(bytes) +
                       " bytes at offset " + std::to_string(offset) + " straddles the end of a " +
                       std::to_string(r.num_bytes) + "-byte buffer (thread " + std::to_string(lane.linear_id) +
                       "): keep edges vector-aligned");
}
}  // namespace detail
#endif

// Loads sizeof(T) bytes at byte `offset`; zeros if the access lies past the end of the buffer.
template <BufferAccessible T>
HIPTILE_DEVICE HIPTILE_INLINE T buffer_load(BufferResource const& r, std::uint32_t offset) {
#if HIPTILE_BACKEND_AMD
  int const o = static_cast<int>(offset);
  if constexpr (sizeof(T) == 1) {
    return __builtin_bit_cast(T, __builtin_amdgcn_raw_buffer_load_b8(r.descriptor, o, 0, 0));
  } else if constexpr (sizeof(T) == 2) {
    return __builtin_bit_cast(T, __builtin_amdgcn_raw_buffer_load_b16(r.descriptor, o, 0, 0));
  } else if constexpr (sizeof(T) == 4) {
    return __builtin_bit_cast(T, __builtin_amdgcn_raw_buffer_load_b32(r.descriptor, o, 0, 0));
  } else if constexpr (sizeof(T) == 8) {
    return __builtin_bit_cast(T, __builtin_amdgcn_raw_buffer_load_b64(r.descriptor, o, 0, 0));
  } else {
    return __builtin_bit_cast(T, __builtin_amdgcn_raw_buffer_load_b128(r.descriptor, o, 0, 0));
  }
#elif HIPTILE_BACKEND_NVIDIA
  if (std::uint64_t(offset) + sizeof(T) > r.num_bytes) return T{};
  return *reinterpret_cast<T const*>(r.base + offset);
#else
  T value{};
  if (detail::buffer_access_in_range(r, offset, sizeof(T), false)) std::memcpy(&value, r.base + offset, sizeof(T));
  return value;
#endif
}

// Stores sizeof(T) bytes at byte `offset`; dropped if the access lies past the end of the buffer.
template <BufferAccessible T>
HIPTILE_DEVICE HIPTILE_INLINE void buffer_store(BufferResource const& r, std::uint32_t offset, T const& value) {
#if HIPTILE_BACKEND_AMD
  int const o = static_cast<int>(offset);
  if constexpr (sizeof(T) == 1) {
    __builtin_amdgcn_raw_buffer_store_b8(__builtin_bit_cast(unsigned char, value), r.descriptor, o, 0, 0);
  } else if constexpr (sizeof(T) == 2) {
    __builtin_amdgcn_raw_buffer_store_b16(__builtin_bit_cast(unsigned short, value), r.descriptor, o, 0, 0);
  } else if constexpr (sizeof(T) == 4) {
    __builtin_amdgcn_raw_buffer_store_b32(__builtin_bit_cast(unsigned, value), r.descriptor, o, 0, 0);
  } else if constexpr (sizeof(T) == 8) {
    __builtin_amdgcn_raw_buffer_store_b64(__builtin_bit_cast(detail::U32x2, value), r.descriptor, o, 0, 0);
  } else {
    __builtin_amdgcn_raw_buffer_store_b128(__builtin_bit_cast(detail::U32x4, value), r.descriptor, o, 0, 0);
  }
#elif HIPTILE_BACKEND_NVIDIA
  if (std::uint64_t(offset) + sizeof(T) <= r.num_bytes) *reinterpret_cast<T*>(r.base + offset) = value;
#else
  if (detail::buffer_access_in_range(r, offset, sizeof(T), true)) std::memcpy(r.base + offset, &value, sizeof(T));
#endif
}

}  // namespace hiptile::arch
