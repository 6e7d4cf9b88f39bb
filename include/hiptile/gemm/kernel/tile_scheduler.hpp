#pragma once
// TileScheduler: which work each workgroup of a GEMM-like kernel does, how large the grid is, and
// how the workgroups that share an output tile's K hand their partial sums over. The kernel
// (gemm_kernel.hpp) only multiplies and finishes what its scheduler hands it; the K shares and the
// partial tiles in the workspace are the scheduler's. Models:
//
//   DataParallelScheduler   one output tile per workgroup (grid x), a sub-problem per grid row
//   SplitKScheduler         the same, each tile's K split over grid z: serial (the last slice adds
//                           the others' partial tiles) or parallel (every slice stores its own)
//   StreamKScheduler        a grid sized to the device sharing the tiles' K iterations evenly
//   PersistentScheduler     a grid of at most the device's resident workgroups, each walking the
//                           tiles of every sub-problem
//   GroupedScheduler        the same walk over the tiles of many problems of different sizes (a
//                           grouped GEMM's groups), each placed by its group's own tile order
//
// A scheduler S has
//  - S::Params, trivially copyable, built on the host by S::make_params(ScheduleShape, Params&)
//    (a Status: the tile order's own checks) and read by the kernel;
//  - S::grid(ScheduleShape): the launch's grid;
//  - S::kMode: the K decomposition (SplitKMode: data-parallel, serial or parallel split-K,
//    stream-K), which sizes the workspace (gemm/device/split_k_workspace.hpp);
//  - device code every thread of a workgroup runs, handing out ScheduledWork — a tile of the tile
//    order, its sub-problem, the share of its K to multiply, the output sub-problem to store it in:
//    S::Walk(params, workgroup), whose next(work) gives the workgroup's pieces of work one after
//    another (kOneWork: exactly one, so the kernel runs no loop); S::tile(params, id), the tile
//    order's coordinates of tile id (GroupedScheduler has none: each group has its own order); and
//    S::fixup(acc, params, walk, work, thread) after each piece's multiply: hands partial sums
//    over (stores them for another workgroup, or waits for others' and adds them) and says whether
//    acc now holds the tile's whole sum, so that the kernel runs the epilogue.
#include <concepts>
#include <cstdint>

#include "hiptile/core/concepts.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/gemm/kernel/partial_tiles.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/stream_k.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/launch.hpp"

namespace hiptile::gemm::kernel {

// What a scheduler's host side is built from: the output tiles of one sub-problem, the
// sub-problems, and the K decomposition's settings where it has one.
struct ScheduleShape {
  int tiles_m = 1;
  int tiles_n = 1;
  int batches = 1;                 // grid rows: batches, convolution groups × Dgrad row classes
  int slices = 1;                  // split-K: K slices (grid z)
  StreamKSchedule stream_k{};      // stream-K: how its units share the tiles
  int workgroups = 0;              // persistent and grouped: the grid (the device's resident workgroups)
  int const* tile_ends = nullptr;  // grouped: the groups' tile ends (device memory); tiles_m · tiles_n
                                   // then counts all groups' tiles and batches the groups
  int* flags = nullptr;            // serial split-K and stream-K: the workspace's partial tiles
  void* partial_tiles = nullptr;   // (the accumulators' element type)
  std::int64_t tiles() const noexcept { return std::int64_t(tiles_m) * tiles_n; }
};

// One piece of work of a workgroup: S::tile(params, tile) places the tile.
struct ScheduledWork {
  int tile = 0;          // the tile order's tile id
  int batch = 0;         // the sub-problem the loaders read
  KTileShare k{};        // which of the tile's K tiles
  int output_batch = 0;  // the sub-problem the epilogue stores it in
};

// Where the mainloop starts a piece of work: its tile placed by S's tile order, in tiles of
// TileShape, with its sub-problem and share of K (the epilogue's is the same tile in
// work.output_batch). Every kernel over a tile order places its work through this one function.
template <class TileShape, class S>
  requires requires(typename S::Params const& p) { { S::tile(p, 0) } -> std::same_as<TileCoord>; }
HIPTILE_DEVICE HIPTILE_INLINE TileWork place_work(typename S::Params const& p, ScheduledWork const& w) {
  TileCoord const tile = S::tile(p, w.tile);
  return {tile.m * TileShape::kM, tile.n * TileShape::kN, w.batch, w.k};
}

template <class S>
concept TileScheduler = DeviceCopyable<typename S::Params> && requires(ScheduleShape const& shape, typename S::Params& p) {
  { S::kMode } -> std::convertible_to<SplitKMode>;
  { S::make_params(shape, p) } noexcept -> std::same_as<Status>;
  { S::grid(shape) } noexcept -> std::same_as<Dim3>;
  { S::kOneWork } -> std::convertible_to<bool>;
  typename S::Walk;
};

}  // namespace hiptile::gemm::kernel
