#pragma once
// Facts of the current device that sizing a grid to it needs (stream-K's persistent grid), read
// from the runtime, never assumed: a grid sized for a wrong count leaves part of the device idle.
//
//   query_compute_units(n)                          CUs (amd), SMs (nvidia), the simulated device's:
//                                                   DeviceInfo::compute_units (device_info.hpp)
//   query_resident_workgroups<Kernel>(threads, lds, n)  workgroups of Kernel one of them holds at once
//   query_device_workgroups<Kernel>(threads, lds, n)    the whole device's: units × resident
//   workgroups_or_device<Kernel>(requested, threads, lds, n)  `requested`, or the device's when 0
//
// Each returns kErrorDeviceQuery when the runtime cannot say (no device, an error), never a guess.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "hiptile/core/status.hpp"
#include "hiptile/platform/device_info.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/runtime_api.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/device_limits.hpp"
#endif

namespace hiptile {

// The current device's CUs (SMs), from its DeviceInfo (read once per device and kept).
inline Status query_compute_units(int& units) noexcept {
  DeviceInfo const* device = nullptr;
  if (Status const q = current_device_info(device); !ok(q)) return q;
  units = device->compute_units;  // (>= 1: current_device_info refuses a device without CUs)
  return Status::kSuccess;
}

// Workgroups of `threads` threads and `lds_bytes` of dynamic LDS running Kernel that one compute
// unit holds at once. The simulator counts what an MI300 CU has (docs/mi300_facts.md, "Compute
// unit, registers and LDS") — 64 KiB of LDS and 32 waves (8 per SIMD) — and not registers, which
// it does not allocate.
template <KernelFunctor Kernel>
Status query_resident_workgroups(unsigned threads, std::size_t lds_bytes, int& workgroups) noexcept {
  int n = 0;
#if HIPTILE_BACKEND_AMD
  if (hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel_entry<Kernel>, int(threads), lds_bytes) != hipSuccess) {
    return Status::kErrorDeviceQuery;
  }
#elif HIPTILE_BACKEND_NVIDIA
  if ((lds_bytes > 48 * 1024 &&
       cudaFuncSetAttribute(kernel_entry<Kernel>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(lds_bytes)) !=
           cudaSuccess) ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel_entry<Kernel>, int(threads), lds_bytes) !=
          cudaSuccess) {
    return Status::kErrorDeviceQuery;
  }
#else
  constexpr int kWavesPerUnit = 32;
  constexpr std::size_t kLdsPerUnit = 64 * 1024;
  int const waves = int((threads + sim::kWaveSize - 1) / sim::kWaveSize);
  n = waves > 0 ? kWavesPerUnit / waves : 0;
  if (lds_bytes > 0) n = std::min<int>(n, int(kLdsPerUnit / lds_bytes));
#endif
  if (n < 1) return Status::kErrorDeviceQuery;
  workgroups = n;
  return Status::kSuccess;
}

// Workgroups of Kernel the whole device holds at once: compute units × resident per unit (a
// persistent grid's size, and the slots a tile count is measured against).
template <KernelFunctor Kernel>
Status query_device_workgroups(unsigned threads, std::size_t lds_bytes, std::int64_t& workgroups) noexcept {
  int units = 0;
  int resident = 0;
  if (Status const q = query_compute_units(units); !ok(q)) return q;
  if (Status const q = query_resident_workgroups<Kernel>(threads, lds_bytes, resident); !ok(q)) return q;
  workgroups = std::int64_t(units) * resident;
  return Status::kSuccess;
}

// A persistent grid's size from an argument that may leave it to the device: `requested`
// workgroups, or query_device_workgroups' count when it is 0.
template <KernelFunctor Kernel>
Status workgroups_or_device(std::int64_t requested, unsigned threads, std::size_t lds_bytes,
                            std::int64_t& workgroups) noexcept {
  if (requested != 0) {
    workgroups = requested;
    return Status::kSuccess;
  }
  return query_device_workgroups<Kernel>(threads, lds_bytes, workgroups);
}

}  // namespace hiptile
