#pragma once
// Architecture tags: template arguments that say which GPU a configuration targets.
//
// xcds(compute_units): the dies with their own L2 that workgroups are dealt round-robin over, for
// schedules that keep related work on one (stream-K); 1 where the L2 is shared.
// runs_on(device_arch): whether a kernel built for the tag runs on a device that reports
// device_arch (DeviceInfo::arch, "gfx942", "sm_90"): the same instruction set, or on NVIDIA a
// later compute capability (mma.sync and cp.async stay).
// Family: the architecture family whose builder (gemm/collective/) assembles its kernels.
#include <string_view>

#include "hiptile/platform/xcd_count.hpp"

namespace hiptile::arch {

// "sm_90" → 90; 0 for a name that is not "sm_" and digits.
constexpr int compute_capability(std::string_view a) {
  if (a.size() < 4 || a.substr(0, 3) != "sm_") return 0;
  int v = 0;
  for (char c : a.substr(3)) {
    if (c < '0' || c > '9') return 0;
    v = v * 10 + (c - '0');
  }
  return v;
}

// The families: gfx9 (CDNA: MFMA, wave64, buffer loads) and NVIDIA (mma.sync, wgmma, cp.async).
struct Gfx9Family {};
struct NvidiaFamily {};

struct Gfx942 {  // MI300 (CDNA3)
  using Family = Gfx9Family;
  static constexpr int kWaveSize = 64;
  static constexpr int kLdsBytesPerWorkgroup = 64 * 1024;
  static constexpr char const* kName = "gfx942";
  // Counted from the CUs where the runtime does not report XCDs (DeviceInfo reads them where it can).
  static constexpr int xcds(int compute_units) { return gfx942_xcds_from_compute_units(compute_units); }
  // gfx940 and gfx941 are the earlier MI300 steppings of the same CDNA3 instruction set.
  static constexpr bool runs_on(std::string_view a) { return a == "gfx942" || a == "gfx941" || a == "gfx940"; }
};
struct Gfx90a {  // MI200 (CDNA2): one L2 per GCD, and HIP sees each GCD as a device
  using Family = Gfx9Family;
  static constexpr int kWaveSize = 64;
  static constexpr int kLdsBytesPerWorkgroup = 64 * 1024;
  static constexpr char const* kName = "gfx90a";
  static constexpr int xcds(int) { return 1; }
  static constexpr bool runs_on(std::string_view a) { return a == "gfx90a"; }
};
struct Sm80 {  // A100
  using Family = NvidiaFamily;
  static constexpr int kWaveSize = 32;
  static constexpr int kLdsBytesPerWorkgroup = 163 * 1024;
  static constexpr char const* kName = "sm_80";
  static constexpr int xcds(int) { return 1; }
  static constexpr bool runs_on(std::string_view a) { return compute_capability(a) >= 80; }
};
struct Sm90 {  // H100
  using Family = NvidiaFamily;
  static constexpr int kWaveSize = 32;
  static constexpr int kLdsBytesPerWorkgroup = 227 * 1024;
  static constexpr char const* kName = "sm_90";
  static constexpr int xcds(int) { return 1; }
  static constexpr bool runs_on(std::string_view a) { return compute_capability(a) >= 90; }
};

}  // namespace hiptile::arch
