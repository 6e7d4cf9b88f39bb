#pragma once
// check_device<Arch>(threads, lds_bytes): whether the current device can run a kernel built for
// Arch with workgroups of `threads` threads and `lds_bytes` of dynamic LDS, from its facts
// (platform/device_info.hpp). Every operator asks before it launches; a mismatch is its own Status
// and an error line in the log, never a launch and never a silent fallback:
//
//   kErrorDeviceQuery       the runtime could not report the device
//   kErrorArchMismatch      the device's architecture is not one Arch runs on (Arch::runs_on)
//   kErrorWaveSizeMismatch  the device's wave size is not Arch::kWaveSize
//   kErrorLdsOverflow       more LDS than one of the device's workgroups may have
//   kErrorInvalidLaunch     more threads than one of its workgroups may have
#include <cstddef>
#include <ostream>

#include "hiptile/arch/arch_tags.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/log/logger.hpp"
#include "hiptile/platform/device_info.hpp"

namespace hiptile::arch {

// The verdict for `device`, without logging.
template <class Arch>
Status device_verdict(DeviceInfo const& device, unsigned threads, std::size_t lds_bytes) noexcept {
  if (!Arch::runs_on(device.arch)) return Status::kErrorArchMismatch;
  if (device.wave_size != Arch::kWaveSize) return Status::kErrorWaveSizeMismatch;
  if (lds_bytes > device.lds_per_workgroup) return Status::kErrorLdsOverflow;
  if (device.max_threads_per_workgroup > 0 && threads > unsigned(device.max_threads_per_workgroup)) {
    return Status::kErrorInvalidLaunch;
  }
  return Status::kSuccess;
}

// The verdict for the current device; a refusal is logged (category error) with both sides' facts.
template <class Arch>
Status check_device(unsigned threads, std::size_t lds_bytes) noexcept {
  DeviceInfo const* device = nullptr;
  if (Status const q = current_device_info(device); !ok(q)) {
    logging::write(logging::Category::kError, [&](std::ostream& os) {
      os << "the runtime could not report the current device's facts; nothing launched";
    });
    return q;
  }
  Status const s = device_verdict<Arch>(*device, threads, lds_bytes);
  if (!ok(s)) {
    logging::write(logging::Category::kError, [&](std::ostream& os) {
      os << to_string(s) << ": kernel built for " << Arch::kName << " (wave" << Arch::kWaveSize << ", " << threads
         << " threads, " << lds_bytes << " bytes of LDS), device " << *device << "; nothing launched";
    });
  }
  return s;
}

}  // namespace hiptile::arch
