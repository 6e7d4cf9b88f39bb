#pragma once
// KernelTiming: what the MI300 timing model (scripts/timing_model) knows of one compiled gfx942
// kernel once its instruction stream has been replayed on a compute unit — the facts the device
// view (timing_model.hpp) needs, exported to C++ because the replay needs the assembly and stays
// offline. The data is generated (timing_data.hpp).
#include <string_view>

namespace hiptile::sim {

// How a kernel shares the output tiles' K work (gemm/kernel/split_k.hpp, grouped_gemm_kernel.hpp).
enum class KernelSchedule { kDataParallel, kSerialSplitK, kParallelSplitK, kStreamK, kPersistent, kGrouped };

// One CU's cycles with a number of the kernel's workgroups on it: a fixed cost per pass through the
// kernel (prologue and epilogue) and a steady cost per K tile, the line through two replays; the
// matrix pipes' and the LDS port's busy cycles likewise.
struct CuLine {
  double fixed = 0, per_tile = 0;
  double mfma_fixed = 0, mfma_per_tile = 0;
  double lds_fixed = 0, lds_per_tile = 0;

  constexpr double cycles(double k_tiles, double passes = 1) const { return passes * fixed + k_tiles * per_tile; }
  constexpr double mfma(double k_tiles, double passes = 1) const { return passes * mfma_fixed + k_tiles * mfma_per_tile; }
  constexpr double lds(double k_tiles, double passes = 1) const { return passes * lds_fixed + k_tiles * lds_per_tile; }
};

// The number of load latencies each line is replayed at (the L2's, the Infinity Cache's, HBM's).
inline constexpr int kLineLatencyCount = 3;

struct KernelTiming {
  std::string_view label;  // timing_model's label(): "f16; A row, B col, C row; 128x128x32 / ..."
  KernelSchedule schedule = KernelSchedule::kDataParallel;
  int tile_m = 0, tile_n = 0, tile_k = 0;
  int workgroups_per_cu = 0;  // occupancy on a CDNA3 CU (registers, LDS, waves)
  int element_bytes = 0;      // of A and B
  int output_bytes = 0;       // what the epilogue stores per element (parallel split-K: fp32 partials)
  int d_bytes = 0;            // of D (parallel split-K's reduction writes it)
  int first_line = 0;         // kCuLines[first_line + (groups - 1) · kLineLatencyCount + latency]
};

}  // namespace hiptile::sim
