// The persistent tile schedulers' walks, run by simulated workgroups: every piece of work is handed
// out exactly once, workgroup w takes work items w, w + grid, w + 2·grid, …, and each item names
// the sub-problem (grouped: the group) and tile that a host-side count of the same items gives.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "hiptile/gemm/kernel/grouped_scheduler.hpp"
#include "hiptile/gemm/kernel/persistent_scheduler.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/platform/platform.hpp"

namespace {

using hiptile::Dim3;
using hiptile::Status;
using namespace hiptile::gemm::kernel;

// One piece of work as the walk handed it out.
struct Piece {
  int workgroup = -1;
  int tile = -1;
  int batch = -1;
  int output_batch = -1;
};

// Each workgroup walks S and, from thread 0, appends what it was handed to its own row of `pieces`
// (`per_workgroup` slots; the count in `counts`). Every thread walks, as a kernel's do.
template <class S>
struct WalkRecorder {
  struct Params {
    typename S::Params scheduler;
    Piece* pieces;
    int* counts;
    int per_workgroup;
  };
  static constexpr int kMaxThreadsPerBlock = 64;
  HIPTILE_DEVICE void operator()(Params const& p) const {
    int const workgroup = static_cast<int>(hiptile::block_idx_x());
    typename S::Walk walk(p.scheduler, workgroup);
    ScheduledWork work;
    int n = 0;
    while (walk.next(work)) {
      if (hiptile::thread_idx_x() == 0 && n < p.per_workgroup) {
        p.pieces[workgroup * p.per_workgroup + n] = {workgroup, work.tile, work.batch, work.output_batch};
      }
      ++n;
    }
    if (hiptile::thread_idx_x() == 0) p.counts[workgroup] = n;
  }
};

// The pieces each workgroup of S's grid was handed, in order.
template <class S>
std::vector<std::vector<Piece>> walk(ScheduleShape const& shape, int per_workgroup) {
  typename WalkRecorder<S>::Params p{};
  REQUIRE(S::make_params(shape, p.scheduler) == Status::kSuccess);
  Dim3 const grid = S::grid(shape);
  std::vector<Piece> pieces(std::size_t(grid.x) * per_workgroup);
  std::vector<int> counts(grid.x, -1);
  p.pieces = pieces.data();
  p.counts = counts.data();
  p.per_workgroup = per_workgroup;
  REQUIRE(hiptile::launch<WalkRecorder<S>>({grid, Dim3{64}}, p) == Status::kSuccess);
  std::vector<std::vector<Piece>> by_workgroup(grid.x);
  for (unsigned w = 0; w < grid.x; ++w) {
    REQUIRE(counts[w] <= per_workgroup);
    by_workgroup[w].assign(pieces.begin() + std::ptrdiff_t(w) * per_workgroup,
                           pieces.begin() + std::ptrdiff_t(w) * per_workgroup + counts[w]);
  }
  return by_workgroup;
}

}  // namespace

TEST_CASE("the grouped scheduler hands each tile of every group to one workgroup, empty groups stepped over",
          "[sim][scheduler]") {
  // Tiles per group, empty ones among them (GroupedGemm leaves those out, the walk need not).
  std::vector<std::vector<int>> const group_tiles{{5}, {1}, {3, 0, 4, 0, 0, 9, 1}, {0, 2}, {7, 7, 7}, {1, 1, 1, 1, 1}};
  for (std::vector<int> const& tiles : group_tiles) {
    std::vector<int> ends;
    std::vector<int> group_of, tile_in_group;  // the reference: tile id → (group, tile)
    for (int g = 0; g < int(tiles.size()); ++g) {
      for (int t = 0; t < tiles[std::size_t(g)]; ++t) {
        group_of.push_back(g);
        tile_in_group.push_back(t);
      }
      ends.push_back(int(group_of.size()));
    }
    int const total = int(group_of.size());
    for (int workgroups : {1, 2, 3, total, total + 4}) {
      INFO(tiles.size() << " groups, " << total << " tiles, " << workgroups << " workgroups");
      ScheduleShape shape;
      shape.tiles_m = total;
      shape.batches = int(tiles.size());
      shape.workgroups = workgroups;
      shape.tile_ends = ends.data();
      unsigned const grid = GroupedScheduler::grid(shape).x;
      CHECK(grid == unsigned(std::max(1, std::min(workgroups, total))));
      std::vector<std::vector<Piece>> const pieces = walk<GroupedScheduler>(shape, total + 1);
      std::vector<int> seen(std::size_t(total), 0);
      for (unsigned w = 0; w < grid; ++w) {
        std::vector<Piece> const& mine = pieces[w];
        // Workgroup w: tiles w, w + grid, …, below the total.
        CHECK(int(mine.size()) == (total > int(w) ? (total - int(w) + int(grid) - 1) / int(grid) : 0));
        for (std::size_t i = 0; i < mine.size(); ++i) {
          int const id = int(w) + int(i) * int(grid);
          REQUIRE(id < total);
          ++seen[std::size_t(id)];
          CHECK(mine[i].batch == group_of[std::size_t(id)]);
          CHECK(mine[i].output_batch == group_of[std::size_t(id)]);
          CHECK(mine[i].tile == tile_in_group[std::size_t(id)]);
        }
      }
      for (int id = 0; id < total; ++id) CHECK(seen[std::size_t(id)] == 1);
    }
  }
}

TEST_CASE("the grouped scheduler refuses tile ids that could pass an int", "[sim][scheduler]") {
  // A workgroup's last tile id plus the grid must stay an int: tiles + grid <= kMaxTiles.
  GroupedScheduler::Params p;
  ScheduleShape shape;
  shape.tiles_m = int(kMaxTiles - 5);
  shape.workgroups = 5;
  CHECK(GroupedScheduler::make_params(shape, p) == Status::kSuccess);
  shape.workgroups = 6;
  CHECK(GroupedScheduler::make_params(shape, p) == Status::kErrorIndexOverflow);
  shape.tiles_m = int(kMaxTiles / 2) + 1;
  shape.tiles_n = 2;
  shape.workgroups = 1;
  CHECK(GroupedScheduler::make_params(shape, p) == Status::kErrorIndexOverflow);
  // More workgroups than tiles: the grid is the tiles, so any count the device reports is taken.
  shape.tiles_m = 10;
  shape.tiles_n = 1;
  shape.workgroups = int(kMaxTiles);
  CHECK(GroupedScheduler::make_params(shape, p) == Status::kSuccess);
  CHECK(GroupedScheduler::grid(shape).x == 10u);
}

TEST_CASE("the persistent scheduler hands each tile of every sub-problem to one workgroup, sub-problem-major",
          "[sim][scheduler]") {
  for (auto [tiles_m, tiles_n, batches] : {std::array{1, 1, 1}, std::array{3, 5, 1}, std::array{4, 2, 3}}) {
    int const items = tiles_m * tiles_n * batches;
    for (int workgroups : {1, 4, items, items + 3}) {
      INFO(tiles_m << "x" << tiles_n << " tiles, " << batches << " sub-problems, " << workgroups << " workgroups");
      ScheduleShape shape;
      shape.tiles_m = tiles_m;
      shape.tiles_n = tiles_n;
      shape.batches = batches;
      shape.workgroups = workgroups;
      using S = PersistentScheduler<RowMajorTileOrder>;
      unsigned const grid = S::grid(shape).x;
      CHECK(grid == unsigned(std::min(workgroups, items)));
      std::vector<std::vector<Piece>> const pieces = walk<S>(shape, items + 1);
      std::vector<int> seen(std::size_t(items), 0);
      for (unsigned w = 0; w < grid; ++w) {
        for (std::size_t i = 0; i < pieces[w].size(); ++i) {
          int const item = int(w) + int(i) * int(grid);
          REQUIRE(item < items);
          ++seen[std::size_t(item)];
          CHECK(pieces[w][i].batch == item / (tiles_m * tiles_n));
          CHECK(pieces[w][i].output_batch == item / (tiles_m * tiles_n));
          CHECK(pieces[w][i].tile == item % (tiles_m * tiles_n));
        }
      }
      for (int item = 0; item < items; ++item) CHECK(seen[std::size_t(item)] == 1);
    }
  }
}
