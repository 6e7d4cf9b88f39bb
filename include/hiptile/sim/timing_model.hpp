#pragma once
// The MI300 timing model as a cost function: a kernel's predicted time for a problem, so run-time
// selection and a find-mode tuner can rank configurations where the simulator stands in for an
// MI300. The ISA replay stays offline (scripts/timing_model, which needs the compiled assembly);
// this is its device view — tile waves over the CUs, the schedules, L2 reuse per XCD, the HBM
// roofline, the launch — with the same formulas on the same replayed CU lines (timing_data.hpp),
// interpolated between the replayed load latencies as the Python does: it computes what
// scripts/timing_model predicts. A kernel is named by its type or by timing_model's label; one with
// no exported timing is "not modelled" (std::nullopt), never guessed.
//
//   auto t = hiptile::sim::predicted_time<Gemm>({.problem = {4096, 4096, 4096}}, hiptile::sim::kMi300x);
//   auto u = hiptile::sim::predicted_time("f16; A row, B col, C row; 128x128x32 / 64x64x32 / Mfma32x32x8F16 / 1",
//                                         {.problem = {4096, 4096, 4096}}, hiptile::sim::kMi300x);
//   if (t) use(t->seconds, t->bound);
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hiptile/core/coord.hpp"
#include "hiptile/gemm/kernel/stream_k.hpp"
#include "hiptile/sim/kernel_timing.hpp"
#include "hiptile/sim/timing_data.hpp"
#include "hiptile/sim/timing_device.hpp"
#include "hiptile/sim/timing_label.hpp"

namespace hiptile::sim {

// One launch: the problem and the schedule's run parameters (0 or 1: the operators' defaults).
struct TimingRun {
  GemmCoord problem;
  int slices = 1;      // split-K
  int workgroups = 0;  // stream-K's units and the grouped grid: 0 = every slot (CUs × workgroups per CU)
  int groups = 1;      // grouped: problems of this shape
};

// What limits the predicted time, as timing_model's "bound by" column says it.
enum class Bound { kHbm, kTileQuantisation, kMfma, kLds, kLatency };

constexpr char const* to_string(Bound b) noexcept {
  switch (b) {
    case Bound::kHbm: return "HBM";
    case Bound::kTileQuantisation: return "tile quantisation";
    case Bound::kMfma: return "MFMA";
    case Bound::kLds: return "LDS";
    case Bound::kLatency: return "latency";
  }
  return "unknown";
}

struct Prediction {
  double seconds = 0;
  Bound bound = Bound::kLatency;
  double compute_seconds = 0;
  double hbm_seconds = 0;
  std::int64_t grid_waves = 0;
  double l2_hit = 0;
  double mfma_busy = 0;  // of the matrix pipes' time, in the first wave of the grid
};

namespace detail {

// timing_model's l2_hit_rate: the workgroups resident on one XCD form a band of group_m tile rows;
// each A row panel and B column panel is fetched once per XCD.
inline double l2_hit_rate(int tile_m, int tile_n, std::int64_t tiles_m, std::int64_t tiles_n, std::int64_t per_xcd) {
  std::int64_t const resident = std::max<std::int64_t>(1, std::min(per_xcd, tiles_m * tiles_n));
  std::int64_t const rows = std::min<std::int64_t>({8, tiles_m, resident});
  std::int64_t const cols = std::min(tiles_n, (resident + rows - 1) / rows);
  double const requested = double(resident) * (tile_m + tile_n);
  return std::max(0.0, 1.0 - double(rows * tile_m + cols * tile_n) / requested);
}

// A kernel's line for `groups` workgroups on a CU at a load latency: linear between the two
// replayed latencies around it (held at the ends), as timing_model's interpolate, operation by
// operation, so that both round alike.
inline CuLine line(KernelTiming const& k, std::int64_t groups, double latency) {
  CuLine const* const lines = kCuLines + k.first_line + (groups - 1) * kLineLatencyCount;
  int i = 0;
  while (i + 2 < kLineLatencyCount && latency > kLineLatencies[i + 1]) ++i;
  double const t = std::clamp((latency - kLineLatencies[i]) / (kLineLatencies[i + 1] - kLineLatencies[i]), 0.0, 1.0);
  CuLine const &a = lines[i], &b = lines[i + 1];
  auto mix = [t](double x, double y) { return x + t * (y - x); };
  return {mix(a.fixed, b.fixed), mix(a.per_tile, b.per_tile), mix(a.mfma_fixed, b.mfma_fixed),
          mix(a.mfma_per_tile, b.mfma_per_tile), mix(a.lds_fixed, b.lds_fixed), mix(a.lds_per_tile, b.lds_per_tile)};
}

// One distinct part of the grid on one CU: its line, K tiles and passes, and the cycles it adds.
struct Span {
  CuLine line;
  double k_tiles = 0, passes = 1, cycles = 0;
};

}  // namespace detail

// The predicted time of kernel `k` for `run` on `device`: timing_model's device_view.
inline Prediction predicted_time(KernelTiming const& k, TimingRun const& run, TimingDevice const& device) {
  using detail::Span;
  std::int64_t const m = run.problem.m, n = run.problem.n, kk = run.problem.k;
  bool const split = k.schedule == KernelSchedule::kSerialSplitK || k.schedule == KernelSchedule::kParallelSplitK;
  std::int64_t const groups = k.schedule == KernelSchedule::kGrouped ? run.groups : 1;
  // A grid of at most the slots walking the tiles, round by round.
  bool const walks = k.schedule == KernelSchedule::kPersistent || k.schedule == KernelSchedule::kGrouped;
  std::int64_t const slices = split ? run.slices : 1;
  std::int64_t const tiles_m = (m + k.tile_m - 1) / k.tile_m, tiles_n = (n + k.tile_n - 1) / k.tile_n;
  std::int64_t const k_tiles = std::max<std::int64_t>(1, (kk + k.tile_k - 1) / k.tile_k);
  std::int64_t const tiles = tiles_m * tiles_n * groups;
  std::int64_t const per_cu = k.workgroups_per_cu, cus = device.cus;
  std::int64_t const slots = per_cu * cus;
  std::int64_t const workgroups = run.workgroups > 0 ? run.workgroups : slots;
  gemm::kernel::StreamKSchedule stream_k;
  std::int64_t launched = tiles * slices;
  if (k.schedule == KernelSchedule::kStreamK) {
    gemm::kernel::StreamKSchedule::make(int(tiles), int(k_tiles), int(workgroups), device.xcds, stream_k);
    launched = stream_k.workgroups();
  } else if (walks) {
    launched = std::min(workgroups, tiles);
  }
  // Memory: L2 reuse per XCD, the rest from the Infinity Cache (or HBM, for the first touch).
  std::int64_t const per_xcd = std::min(tiles, std::min(launched, slots) / slices) / device.xcds;
  double const hit = detail::l2_hit_rate(k.tile_m, k.tile_n, tiles_m, tiles_n, per_xcd);
  double const stores = k.schedule == KernelSchedule::kParallelSplitK ? double(slices) : 1.0;
  double const unique = double(m * kk + n * kk) * k.element_bytes * groups + double(m * n * groups) * k.output_bytes * stores;
  double const requested = double(tiles) * k_tiles * (k.tile_m + k.tile_n) * k.tile_k * k.element_bytes;
  double const hbm_fraction = std::min(1.0, unique / std::max(1.0, requested * (1 - hit)));
  double const beyond = hbm_fraction * device.hbm_latency + (1 - hbm_fraction) * device.mall_latency;
  double const latency = hit * device.l2_latency + (1 - hit) * beyond;
  auto line = [&](std::int64_t g) { return detail::line(k, g, latency); };
  // A fp32 partial tile through the CU's port, shared by its g workgroups: {store, add}.
  struct Fixup {
    double store, add;
  };
  auto fixup = [&](std::int64_t g) {
    double const transfer = double(k.tile_m) * k.tile_n * 4 * double(g) / device.vmem_bytes_per_cycle;
    return Fixup{transfer + device.store_latency, transfer + 2 * device.l2_latency};
  };
  Span spans[2];
  int count = 0;
  // count workgroups of tiles_each K tiles in waves of slots.
  auto waves = [&](std::int64_t workgroups_in_waves, double tiles_each) {
    std::int64_t const full = workgroups_in_waves / slots, rest = workgroups_in_waves % slots;
    if (full) spans[count++] = {line(per_cu), tiles_each, 1, double(full) * line(per_cu).cycles(tiles_each)};
    if (rest) spans[count++] = {line((rest + cus - 1) / cus), tiles_each, 1, line((rest + cus - 1) / cus).cycles(tiles_each)};
  };
  double quantisation = 1, extra_seconds = 0;
  std::int64_t grid_waves = 0;
  if (k.schedule == KernelSchedule::kStreamK) {
    waves(stream_k.dp_tiles, double(k_tiles));
    double worst_tiles = 0;
    if (stream_k.units > 0) {
      // (Units given past the device's slots cannot all be resident: a CU holds per_cu at most,
      // and kCuLines has lines for no more.)
      std::int64_t const g = std::min(per_cu, (stream_k.units + cus - 1) / cus);
      CuLine const unit_line = line(g);
      Fixup const f = fixup(g);
      Span worst{unit_line, 0, 0, -1};
      for (int u = 0; u < stream_k.units; ++u) {
        gemm::kernel::StreamKPieces pieces(stream_k, stream_k.dp_tiles + u);
        gemm::kernel::StreamKPiece piece;
        double iterations = 0, passes = 0, fix = 0;
        while (pieces.next(piece)) {
          iterations += piece.k.last - piece.k.first;
          passes += 1;
          fix += (piece.owner ? 0 : f.store) + piece.peers * f.add;
        }
        double const cycles = unit_line.cycles(iterations, passes) + fix;
        if (cycles > worst.cycles) worst = {unit_line, iterations, passes, cycles};
      }
      spans[count++] = worst;
      worst_tiles = worst.k_tiles;
    }
    std::int64_t const dp_waves = (stream_k.dp_tiles + slots - 1) / slots;
    quantisation = double(tiles) * k_tiles / (double(dp_waves) * slots * k_tiles + double(slots) * worst_tiles);
    grid_waves = dp_waves + (stream_k.units > 0 ? 1 : 0);
  } else if (walks) {
    std::int64_t const full = tiles / launched, rest = tiles % launched;
    std::int64_t const g = std::min(per_cu, (launched + cus - 1) / cus);
    if (full) spans[count++] = {line(g), double(k_tiles), 1, double(full) * line(g).cycles(double(k_tiles))};
    if (rest) spans[count++] = {line((rest + cus - 1) / cus), double(k_tiles), 1, line((rest + cus - 1) / cus).cycles(double(k_tiles))};
    grid_waves = (tiles + launched - 1) / launched;
    quantisation = double(tiles) / (double(grid_waves) * slots);
  } else {
    waves(launched, double((k_tiles + slices - 1) / slices));  // the longest slice
    grid_waves = (launched + slots - 1) / slots;
    quantisation = double(launched) / (double(grid_waves) * slots);
    if (k.schedule == KernelSchedule::kSerialSplitK && slices > 1) {
      // The last wave's tiles end in their slices' hand-over (docs/timing_model.md, "Schedules"):
      // a store, then the last slice's adds of the S − 1 slots, one after another.
      Fixup const f = fixup((launched - (grid_waves - 1) * slots + cus - 1) / cus);
      spans[count - 1].cycles += f.store + double(slices - 1) * f.add;
    }
    if (k.schedule == KernelSchedule::kParallelSplitK) {
      double const reduction_bytes = double(m * n) * (double(k.output_bytes) * slices + k.d_bytes);
      extra_seconds = reduction_bytes / (device.hbm_tbps * 1e12 * device.hbm_efficiency) + device.launch_us * 1e-6;
    }
  }
  double cycles = 0;
  for (int i = 0; i < count; ++i) cycles += spans[i].cycles;
  Prediction r;
  r.compute_seconds = cycles / (device.clock_mhz * 1e6);
  r.hbm_seconds = unique / (device.hbm_tbps * 1e12 * device.hbm_efficiency);
  r.seconds = std::max(r.compute_seconds, r.hbm_seconds) + device.launch_us * 1e-6 + extra_seconds;
  r.grid_waves = grid_waves;
  r.l2_hit = hit;
  Span const& first = spans[0];
  double const span = first.line.cycles(first.k_tiles, first.passes);
  r.mfma_busy = span > 0 ? first.line.mfma(first.k_tiles, first.passes) / (device.simds * span) : 0;
  double const lds_busy = span > 0 ? first.line.lds(first.k_tiles, first.passes) / span : 0;
  r.bound = r.hbm_seconds > r.compute_seconds ? Bound::kHbm
            : quantisation < 0.75           ? Bound::kTileQuantisation
            : r.mfma_busy >= 0.85           ? Bound::kMfma
            : lds_busy >= 0.85              ? Bound::kLds
                                            : Bound::kLatency;
  return r;
}

// The exported timing of the kernel labelled `label`, or nullopt: not modelled.
inline std::optional<KernelTiming> kernel_timing(std::string_view label) {
  for (KernelTiming const& k : kKernelTimings) {
    if (k.label == label) return k;
  }
  return std::nullopt;
}

// The predicted time of the kernel labelled `label`, or nullopt when it has no exported timing.
inline std::optional<Prediction> predicted_time(std::string_view label, TimingRun const& run,
                                                TimingDevice const& device) {
  std::optional<KernelTiming> const k = kernel_timing(label);
  if (!k) return std::nullopt;
  return predicted_time(*k, run, device);
}

// The exported timing of configuration Config (a device operator or its kernel, see
// timing_label.hpp), or nullopt: not modelled.
template <class Config>
std::optional<KernelTiming> kernel_timing() {
  return kernel_timing(timing_label<Config>());
}

// The predicted time of configuration Config, or nullopt when it has no exported timing.
template <class Config>
std::optional<Prediction> predicted_time(TimingRun const& run, TimingDevice const& device) {
  return predicted_time(timing_label<Config>(), run, device);
}

}  // namespace hiptile::sim
