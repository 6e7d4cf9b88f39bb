#pragma once
// TimingDevice: the MI300-family facts the timing model's device view uses (scripts/timing_model's
// DEVICES and PARAMETERS, where each figure's source is cited). The shipped devices are generated
// into timing_data.hpp (kMi300x, kMi300a, kMi325x); a user may copy one and change a figure (a
// measured clock, say) as timing_model's --set does.
namespace hiptile::sim {

struct TimingDevice {
  int cus = 0;
  int xcds = 0;
  int simds = 4;                     // per CU
  double clock_mhz = 0;
  double hbm_tbps = 0;
  double hbm_efficiency = 0;         // fraction of the peak streaming reaches
  double l2_latency = 0;             // cycles
  double mall_latency = 0;
  double hbm_latency = 0;
  double store_latency = 0;          // a store's acknowledgement
  double vmem_bytes_per_cycle = 0;   // a CU's vector memory port
  double launch_us = 0;              // one kernel launch
};

}  // namespace hiptile::sim
