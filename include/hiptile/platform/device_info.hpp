#pragma once
// DeviceInfo: the facts of the current device that choosing, sizing and checking a kernel needs,
// read from the runtime, never assumed. Frameworks on AMD GPUs have sized grids for half the
// machine from a CU count or wave size read wrong (docs/mi300_facts.md, "Device facts are read,
// not assumed"); every operator checks these facts against what its kernel was built for
// (arch/device_check.hpp).
//
//   DeviceInfo const* device = nullptr;
//   if (ok(current_device_info(device))) std::cout << *device;   // "gfx942, 304 CUs in 8 XCDs, ..."
//
// amd     hipGetDeviceProperties (name, gcnArchName up to its first ':', CUs, wave size, LDS,
//         clock, memory); XCDs from ROCm 7's hipDeviceAttributeNumberOfXccs where the runtime
//         has it, else counted from the CUs (platform/xcd_count.hpp)
// nvidia  cudaDeviceGetAttribute (SMs, warp size, opt-in shared memory, clock) and the name
// sim     the simulated device (sim/simulated_device.hpp): MI300X unless set
//
// current_device_info reads each device once per process (the runtime's property query costs
// microseconds) and keeps it; the simulator's facts are re-read when its device is set.
#include <cstddef>
#include <deque>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "hiptile/core/status.hpp"
#include "hiptile/platform/runtime_api.hpp"
#include "hiptile/platform/xcd_count.hpp"

#if HIPTILE_BACKEND_SIM
#include "hiptile/sim/device_limits.hpp"
#include "hiptile/sim/simulated_device.hpp"
#endif

namespace hiptile {

struct DeviceInfo {
  int ordinal = 0;                          // the runtime's device number
  std::string name;                         // "AMD Instinct MI300X", "NVIDIA H100 80GB HBM3"
  std::string arch;                         // "gfx942", "gfx90a", "sm_90"
  int compute_units = 0;                    // CUs (amd), SMs (nvidia)
  int xcds = 1;                             // dies with their own L2 (gfx942), 1 elsewhere
  int wave_size = 0;                        // 64 on gfx9, 32 on NVIDIA
  std::size_t lds_per_workgroup = 0;        // the most dynamic LDS one workgroup may ask for
  int max_threads_per_workgroup = 0;
  int clock_mhz = 0;                        // peak shader clock; 0 when the runtime does not say
  std::size_t memory_bytes = 0;             // 0 when the runtime does not say
};

inline std::ostream& operator<<(std::ostream& os, DeviceInfo const& d) {
  os << d.name << " (" << d.arch << ", " << d.compute_units << " CUs";
  if (d.xcds > 1) os << " in " << d.xcds << " XCDs";
  os << ", wave" << d.wave_size << ", " << d.lds_per_workgroup / 1024 << " KiB LDS per workgroup";
  if (d.clock_mhz > 0) os << ", " << d.clock_mhz << " MHz";
  if (d.memory_bytes > 0) os << ", " << d.memory_bytes / (std::size_t(1) << 30) << " GiB";
  return os << ")";
}

namespace detail {

// ROCm 7's hipDeviceAttributeNumberOfXccs (10018, after hipDeviceAttributeWallClockRate; ROCm/iris
// reads it so). Debian's HIP 5.2 headers do not name it; an older runtime refuses the query.
inline constexpr int kHipAttributeNumberOfXccs = 10018;

inline Status current_ordinal(int& ordinal) noexcept {
#if HIPTILE_BACKEND_AMD
  return hipGetDevice(&ordinal) == hipSuccess ? Status::kSuccess : Status::kErrorDeviceQuery;
#elif HIPTILE_BACKEND_NVIDIA
  return cudaGetDevice(&ordinal) == cudaSuccess ? Status::kSuccess : Status::kErrorDeviceQuery;
#else
  ordinal = 0;
  return Status::kSuccess;
#endif
}

}  // namespace detail

// The facts of device `ordinal`, read from the runtime now (no cache).
inline Status query_device_info(int ordinal, DeviceInfo& info) noexcept {
  DeviceInfo d;
  d.ordinal = ordinal;
#if HIPTILE_BACKEND_AMD
  hipDeviceProp_t p{};
  if (hipGetDeviceProperties(&p, ordinal) != hipSuccess) return Status::kErrorDeviceQuery;
  d.name = p.name;
  d.arch = p.gcnArchName;
  d.arch = d.arch.substr(0, d.arch.find(':'));  // "gfx942:sramecc+:xnack-": the features aside
  d.compute_units = p.multiProcessorCount;
  d.wave_size = p.warpSize;
  d.lds_per_workgroup = p.sharedMemPerBlock;
  d.max_threads_per_workgroup = p.maxThreadsPerBlock;
  d.clock_mhz = p.clockRate / 1000;
  d.memory_bytes = p.totalGlobalMem;
  int xccs = 0;
  if (hipDeviceGetAttribute(&xccs, hipDeviceAttribute_t(detail::kHipAttributeNumberOfXccs), ordinal) == hipSuccess &&
      xccs > 0) {
    d.xcds = xccs;
  } else {
    (void)hipGetLastError();  // the refused query is no error of the caller's
    d.xcds = d.arch == "gfx942" ? gfx942_xcds_from_compute_units(d.compute_units) : 1;
  }
#elif HIPTILE_BACKEND_NVIDIA
  cudaDeviceProp p{};
  int major = 0, minor = 0, lds = 0, clock_khz = 0;
  if (cudaGetDeviceProperties(&p, ordinal) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ordinal) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ordinal) != cudaSuccess ||
      cudaDeviceGetAttribute(&d.compute_units, cudaDevAttrMultiProcessorCount, ordinal) != cudaSuccess ||
      cudaDeviceGetAttribute(&d.wave_size, cudaDevAttrWarpSize, ordinal) != cudaSuccess ||
      cudaDeviceGetAttribute(&lds, cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal) != cudaSuccess ||
      cudaDeviceGetAttribute(&d.max_threads_per_workgroup, cudaDevAttrMaxThreadsPerBlock, ordinal) != cudaSuccess) {
    return Status::kErrorDeviceQuery;
  }
  d.name = p.name;
  d.arch = "sm_" + std::to_string(major * 10 + minor);
  d.lds_per_workgroup = std::size_t(lds);
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, ordinal) == cudaSuccess) d.clock_mhz = clock_khz / 1000;
  d.memory_bytes = p.totalGlobalMem;
#else
  sim::SimulatedDevice const s = sim::device();
  d.name = s.name;
  d.arch = s.arch;
  d.compute_units = s.compute_units;
  d.xcds = s.xcds;
  d.wave_size = sim::kWaveSize;
  d.lds_per_workgroup = sim::kMaxLdsBytesPerWorkgroup;
  d.max_threads_per_workgroup = int(sim::kMaxThreadsPerWorkgroup);
  d.clock_mhz = s.clock_mhz;
  d.memory_bytes = s.memory_bytes;
#endif
  if (d.compute_units < 1 || d.wave_size < 1 || d.arch.empty()) return Status::kErrorDeviceQuery;
  info = d;
  return Status::kSuccess;
}

// The current device's facts, read once and kept; `info` stays valid for the process.
inline Status current_device_info(DeviceInfo const*& info) noexcept {
  int ordinal = 0;
  if (Status const s = detail::current_ordinal(ordinal); !ok(s)) return s;
  if (ordinal < 0) return Status::kErrorDeviceQuery;
  struct Entry {
    DeviceInfo info;
    unsigned generation = 0;  // the simulator's device setting it was read under
  };
  static std::mutex mutex;
  static std::deque<Entry> readings;      // every reading, kept so that pointers handed out stay valid
  static std::vector<Entry*> entries;  // the newest reading by ordinal
#if HIPTILE_BACKEND_SIM
  unsigned const generation = sim::device_generation();
#else
  unsigned const generation = 0;
#endif
  std::lock_guard lock(mutex);
  if (std::size_t(ordinal) >= entries.size()) entries.resize(std::size_t(ordinal) + 1, nullptr);
  Entry*& e = entries[std::size_t(ordinal)];
  if (e != nullptr && e->generation == generation) {
    info = &e->info;
    return Status::kSuccess;
  }
  DeviceInfo d;
  if (Status const s = query_device_info(ordinal, d); !ok(s)) return s;
  e = &readings.emplace_back(Entry{d, generation});  // an older reading stays: a caller may hold it
  info = &e->info;
  return Status::kSuccess;
}

}  // namespace hiptile
