#pragma once
// Split-K: the K loop of every output tile divided among `slices` workgroups (grid z), so a problem
// with few tiles and a long K — a convolution's weight gradient, whose K is every output pixel —
// still fills the device. Two ways to add the slices up, both in one order (the last slice's sum,
// then the others in slice order), so the result does not depend on which slice finished first
// and is the same bitwise in both:
//   kParallel: each slice writes its partial sums (fp32) to a workspace, and SplitKReduction
//              (split_k_reduction.hpp) adds them and applies the epilogue: a second kernel, and
//              slices · M · N floats of workspace;
//   kSerial:   every slice of a tile but the last stores its sum and raises a flag; the last
//              waits for them, adds them and applies the epilogue (serial_split_k.hpp): one kernel
//              and slices − 1 tiles of floats per output tile, but the last slice waits for all.

namespace hiptile::gemm::kernel {

//   kStreamK:  not slices of every tile but a persistent grid sized to the device, whose workgroups
//              each take an even share of all the tiles' K iterations (stream_k.hpp): a GEMM whose
//              tile count is not a multiple of the device keeps every compute unit busy to the end.
//   kPersistent: no split either: each tile's whole K loop, but a grid of the workgroups the device
//              holds at once walking the tiles one after another (persistent_scheduler.hpp), so a
//              problem of many short tiles pays a workgroup's launch and set-up once per slot, not
//              once per tile.
enum class SplitKMode { kNone, kSerial, kParallel, kStreamK, kPersistent };

// Whether a schedule divides a tile's K over workgroups with split_k_slices (serial or parallel).
constexpr bool splits_k(SplitKMode mode) noexcept { return mode == SplitKMode::kSerial || mode == SplitKMode::kParallel; }

// How a schedule reads in a report: "data-parallel", "serial split-K", "parallel split-K", "stream-K",
// "persistent".
constexpr char const* to_string(SplitKMode mode) noexcept {
  switch (mode) {
    case SplitKMode::kNone: return "data-parallel";
    case SplitKMode::kSerial: return "serial split-K";
    case SplitKMode::kParallel: return "parallel split-K";
    case SplitKMode::kStreamK: return "stream-K";
    case SplitKMode::kPersistent: return "persistent";
  }
  return "unknown";
}

}  // namespace hiptile::gemm::kernel
