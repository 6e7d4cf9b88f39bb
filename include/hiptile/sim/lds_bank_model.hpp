#pragma once
// The simulator's LDS bank-conflict model for gfx942.
//
// LDS has 32 banks of 4 bytes; a dword at byte offset a lives in bank (a / 4) mod 32 (ROCm's
// gpu-arch-specs; docs/mi300_facts.md, "Compute unit, registers and LDS").
// A wave's LDS instruction is served in phases of 128 bytes, one bank access per lane-dword:
// 32 lanes per phase for accesses of up to 4 bytes, 16 lanes for 8-byte and 8 lanes for 16-byte
// accesses, lanes in order (lanes 0-7, 8-15, ... for ds_read/ds_write_b128). Source: the
// composable_kernel (ck_tile) conceptual documentation "Understanding AMD GPU LDS and Bank
// Conflicts", which gives these phases for ds_write_b128.
// Within a phase a bank serves one distinct dword per cycle; lanes touching the same dword share
// it (broadcast). A phase therefore takes as many cycles as its busiest bank has distinct dwords,
// and every cycle above one is a conflict cycle.
#include <array>
#include <cstdint>

#include "hiptile/sim/device_limits.hpp"

namespace hiptile::sim {

// One wave's LDS instruction: each active lane's byte offset into LDS.
struct LdsWaveAccess {
  std::array<std::uint32_t, kWaveSize> offset{};
  std::uint64_t active_mask = 0;  // bit l set: lane l executed the instruction
  int bytes_per_lane = 4;         // 1, 2, 4, 8 or 16
};

constexpr int lds_lanes_per_phase(int bytes_per_lane) {
  return bytes_per_lane <= 4 ? 32 : (kLdsBanks * kLdsBankBytes) / bytes_per_lane;
}

// Extra cycles the instruction spends on bank conflicts (0 when conflict-free).
constexpr int lds_conflict_cycles(LdsWaveAccess const& access) {
  int const lanes_per_phase = lds_lanes_per_phase(access.bytes_per_lane);
  int const dwords_per_lane = access.bytes_per_lane <= 4 ? 1 : access.bytes_per_lane / 4;
  int extra = 0;
  for (int first = 0; first < kWaveSize; first += lanes_per_phase) {
    // Distinct dword addresses seen by each bank in this phase (at most 32 lane-dwords each).
    std::array<std::array<std::uint32_t, 32>, kLdsBanks> seen{};
    std::array<int, kLdsBanks> count{};
    for (int lane = first; lane < first + lanes_per_phase; ++lane) {
      if (!((access.active_mask >> lane) & 1)) continue;
      for (int d = 0; d < dwords_per_lane; ++d) {
        std::uint32_t const dword = access.offset[lane] / kLdsBankBytes + d;
        int const bank = static_cast<int>(dword % kLdsBanks);
        bool fresh = true;
        for (int i = 0; i < count[bank]; ++i) fresh = fresh && seen[bank][i] != dword;
        if (fresh) seen[bank][count[bank]++] = dword;
      }
    }
    int busiest = 0;
    for (int c : count) busiest = c > busiest ? c : busiest;
    if (busiest > 1) extra += busiest - 1;
  }
  return extra;
}

}  // namespace hiptile::sim
