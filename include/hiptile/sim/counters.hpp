#pragma once
// What a simulated launch did, counted per wave-level instruction. These counters are how
// hiptile measures a kernel's MI300 efficiency without the hardware (docs/simulator.md).
#include <cstdint>

namespace hiptile::sim {

struct Counters {
  std::uint64_t wave_instructions = 0;     // sum of the instruction counts below
  std::uint64_t mfma = 0;                  // MFMA wave-instructions
  std::uint64_t cross_lane = 0;            // readfirstlane, bpermute and other wave collectives
  std::uint64_t lds_instructions = 0;      // LDS reads and writes, one per wave
  std::uint64_t lds_conflict_cycles = 0;   // extra LDS cycles from bank conflicts (lds_bank_model.hpp)
  std::uint64_t barriers = 0;              // workgroup barriers completed, one per workgroup
  std::uint64_t global_instructions = 0;   // global and buffer loads/stores, one per wave
  std::uint64_t global_bytes_read = 0;     // bytes the lanes asked for, out-of-range buffer reads included
  std::uint64_t global_bytes_written = 0;
  std::uint64_t workgroups = 0;

  Counters& operator+=(Counters const& o) {
    wave_instructions += o.wave_instructions;
    mfma += o.mfma;
    cross_lane += o.cross_lane;
    lds_instructions += o.lds_instructions;
    lds_conflict_cycles += o.lds_conflict_cycles;
    barriers += o.barriers;
    global_instructions += o.global_instructions;
    global_bytes_read += o.global_bytes_read;
    global_bytes_written += o.global_bytes_written;
    workgroups += o.workgroups;
    return *this;
  }
};

}  // namespace hiptile::sim
