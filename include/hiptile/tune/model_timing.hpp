#pragma once
// model_device(device): the MI300 timing model's device view for the device the simulator reports
// (DeviceInfo): MI300X's figures (sim/timing_data.hpp) with the device's CUs, XCDs and clock, so
// that find mode in the simulator ranks candidates as the model predicts them on an MI300X, an
// MI300A or an MI308X.
#include "hiptile/platform/device_info.hpp"
#include "hiptile/sim/timing_data.hpp"
#include "hiptile/sim/timing_device.hpp"

namespace hiptile::tune {

inline sim::TimingDevice model_device(DeviceInfo const& device) {
  sim::TimingDevice t = sim::kMi300x;
  t.cus = device.compute_units;
  t.xcds = device.xcds;
  if (device.clock_mhz > 0) t.clock_mhz = device.clock_mhz;
  return t;
}

}  // namespace hiptile::tune
