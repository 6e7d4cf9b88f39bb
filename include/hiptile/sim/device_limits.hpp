#pragma once
// The limits of the simulated device: those of one MI300X compute unit (the ROCm gpu-arch-specs
// tables; docs/mi300_facts.md, "Compute unit, registers and LDS"): wave64, 64 KiB LDS per
// workgroup, 1024 threads per workgroup.
#include <cstddef>

namespace hiptile::sim {

inline constexpr int kWaveSize = 64;
inline constexpr std::size_t kMaxLdsBytesPerWorkgroup = 64 * 1024;
inline constexpr unsigned kMaxThreadsPerWorkgroup = 1024;
inline constexpr int kLdsBanks = 32;
inline constexpr int kLdsBankBytes = 4;

}  // namespace hiptile::sim
