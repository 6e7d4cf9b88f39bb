#pragma once
// Device memory: allocation and copies. In the simulator, device memory is host memory aligned
// as a GPU allocation is (256 bytes), so alignment checks behave the same.
#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "hiptile/core/status.hpp"
#include "hiptile/platform/runtime_api.hpp"
#include "hiptile/platform/stream.hpp"

namespace hiptile {

inline constexpr std::size_t kDeviceAllocationAlignment = 256;

inline Status device_allocate(void** ptr, std::size_t bytes) {
  *ptr = nullptr;
  if (bytes == 0) return Status::kSuccess;
#if HIPTILE_BACKEND_AMD
  return hipMalloc(ptr, bytes) == hipSuccess ? Status::kSuccess : Status::kErrorMemoryAllocation;
#elif HIPTILE_BACKEND_NVIDIA
  return cudaMalloc(ptr, bytes) == cudaSuccess ? Status::kSuccess : Status::kErrorMemoryAllocation;
#else
  std::size_t const rounded = (bytes + kDeviceAllocationAlignment - 1) / kDeviceAllocationAlignment *
                              kDeviceAllocationAlignment;
  *ptr = std::aligned_alloc(kDeviceAllocationAlignment, rounded);
  return *ptr ? Status::kSuccess : Status::kErrorMemoryAllocation;
#endif
}

inline void device_free(void* ptr) {
  if (ptr == nullptr) return;
#if HIPTILE_BACKEND_AMD
  (void)hipFree(ptr);
#elif HIPTILE_BACKEND_NVIDIA
  (void)cudaFree(ptr);
#else
  std::free(ptr);
#endif
}

enum class CopyKind { kHostToDevice, kDeviceToHost, kDeviceToDevice };

inline Status copy_memory(void* dst, void const* src, std::size_t bytes, CopyKind kind) {
  if (bytes == 0) return Status::kSuccess;
  if (dst == nullptr || src == nullptr) return Status::kErrorNullPointer;
#if HIPTILE_BACKEND_AMD
  hipMemcpyKind const k = kind == CopyKind::kHostToDevice   ? hipMemcpyHostToDevice
                          : kind == CopyKind::kDeviceToHost ? hipMemcpyDeviceToHost
                                                            : hipMemcpyDeviceToDevice;
  return hipMemcpy(dst, src, bytes, k) == hipSuccess ? Status::kSuccess : Status::kErrorLaunchFailed;
#elif HIPTILE_BACKEND_NVIDIA
  cudaMemcpyKind const k = kind == CopyKind::kHostToDevice   ? cudaMemcpyHostToDevice
                           : kind == CopyKind::kDeviceToHost ? cudaMemcpyDeviceToHost
                                                             : cudaMemcpyDeviceToDevice;
  return cudaMemcpy(dst, src, bytes, k) == cudaSuccess ? Status::kSuccess : Status::kErrorLaunchFailed;
#else
  (void)kind;
  std::memcpy(dst, src, bytes);
  return Status::kSuccess;
#endif
}

// Zeroes `bytes` of device memory, in order on `stream`.
inline Status zero_memory_async(void* ptr, std::size_t bytes, Stream stream) {
  if (bytes == 0) return Status::kSuccess;
  if (ptr == nullptr) return Status::kErrorNullPointer;
#if HIPTILE_BACKEND_AMD
  return hipMemsetAsync(ptr, 0, bytes, stream) == hipSuccess ? Status::kSuccess : Status::kErrorLaunchFailed;
#elif HIPTILE_BACKEND_NVIDIA
  return cudaMemsetAsync(ptr, 0, bytes, stream) == cudaSuccess ? Status::kSuccess : Status::kErrorLaunchFailed;
#else
  (void)stream;
  std::memset(ptr, 0, bytes);
  return Status::kSuccess;
#endif
}

// Wait for all device work.
inline Status device_synchronize() {
#if HIPTILE_BACKEND_AMD
  return hipDeviceSynchronize() == hipSuccess ? Status::kSuccess : Status::kErrorLaunchFailed;
#elif HIPTILE_BACKEND_NVIDIA
  return cudaDeviceSynchronize() == cudaSuccess ? Status::kSuccess : Status::kErrorLaunchFailed;
#else
  return Status::kSuccess;
#endif
}

}  // namespace hiptile
