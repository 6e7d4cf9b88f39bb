#pragma once
// The device the simulator reports to the runtime queries (DeviceInfo, compute units): an MI300X
// unless a test or user sets another. It changes no launch's results, only what an operator that
// sizes its grid to the device (stream-K, grouped), remaps tiles over XCDs or keys a tuning entry
// on the device sees.
//
//   hiptile::sim::set_device(hiptile::sim::kMi300aDevice);   // 228 CUs, 6 XCDs from now on
//   hiptile::sim::set_compute_units(100);              // the current device with another CU count
//
// Figures: ROCm's gpu-arch-specs and MI300 pages (MI300X 8 XCDs × 38 CUs at 2100 MHz, 192 GB;
// MI300A 6 × 38, 128 GB; docs/mi300_facts.md, "Devices");
// MI308X: 80 CUs (public MI308X benchmark pages) in 4 XCDs of 20 — its one-XCD (CPX) partition has
// 20 CUs (ROCm/rocMLIR pull request 2197, "MI308 CPX mode has 20 CU only").
#include <cstddef>
#include <mutex>

#include "hiptile/platform/xcd_count.hpp"

namespace hiptile::sim {

struct SimulatedDevice {
  char const* name = "";
  char const* arch = "gfx942";
  int compute_units = 0;
  int xcds = 1;
  int clock_mhz = 0;
  std::size_t memory_bytes = 0;
};

inline constexpr std::size_t kGiB = std::size_t(1) << 30;
inline constexpr SimulatedDevice kMi300xDevice{"AMD Instinct MI300X (simulated)", "gfx942", 304, 8, 2100, 192 * kGiB};
inline constexpr SimulatedDevice kMi300aDevice{"AMD Instinct MI300A (simulated)", "gfx942", 228, 6, 2100, 128 * kGiB};
inline constexpr SimulatedDevice kMi308xDevice{"AMD Instinct MI308X (simulated)", "gfx942", 80, 4, 2100, 192 * kGiB};

namespace detail {
struct DeviceSetting {
  std::mutex mutex;
  SimulatedDevice device = kMi300xDevice;
  unsigned generation = 0;  // changes with every set, so caches of device facts know to refresh
};
inline DeviceSetting& device_setting() {
  static DeviceSetting setting;
  return setting;
}
}  // namespace detail

// The simulated device now (a copy: another thread may set a new one).
inline SimulatedDevice device() {
  detail::DeviceSetting& s = detail::device_setting();
  std::lock_guard lock(s.mutex);
  return s.device;
}

inline unsigned device_generation() {
  detail::DeviceSetting& s = detail::device_setting();
  std::lock_guard lock(s.mutex);
  return s.generation;
}

// Process-wide, from the next query on. A count below 1 is taken as 1, XCDs too.
inline void set_device(SimulatedDevice d) {
  if (d.compute_units < 1) d.compute_units = 1;
  if (d.xcds < 1) d.xcds = 1;
  detail::DeviceSetting& s = detail::device_setting();
  std::lock_guard lock(s.mutex);
  s.device = d;
  ++s.generation;
}

// The current device with n compute units, its XCDs counted from them as for gfx942.
inline void set_compute_units(int n) {
  SimulatedDevice d = device();
  d.compute_units = n;
  d.xcds = gfx942_xcds_from_compute_units(n);
  set_device(d);
}

inline int compute_units() { return device().compute_units; }

}  // namespace hiptile::sim
