#pragma once
// The XCDs (dies with their own L2) of a gfx942 device that does not report them, from its CUs:
// 38 active CUs per XCD on MI300X (8 × 38 = 304) and MI300A (6 × 38 = 228), 20 on MI308X
// (4 × 20 = 80), one for a CPX partition (docs/mi300_facts.md, "Devices";
// sim/simulated_device.hpp cites MI308X's).
// Any other count is read as one L2.
namespace hiptile {

constexpr int gfx942_xcds_from_compute_units(int cus) {
  return cus > 0 && cus % 38 == 0 ? cus / 38 : cus > 0 && cus % 20 == 0 ? cus / 20 : 1;
}

}  // namespace hiptile
