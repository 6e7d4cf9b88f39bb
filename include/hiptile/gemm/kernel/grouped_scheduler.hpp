#pragma once
// GroupedScheduler (tile_scheduler.hpp): the walk of a grouped GEMM (grouped_gemm_kernel.hpp), many
// problems of different sizes in one launch. The groups' output tiles are numbered one after the
// other: group g owns the tile ids [tile_ends[g - 1], tile_ends[g]), tile_ends being an inclusive
// prefix sum of the groups' tile counts built on the host, in device memory. A grid of persistent
// workgroups walks them: workgroup w takes tiles w, w + grid, w + 2·grid, …, so each runs about the
// same number of tiles whatever the groups' sizes. Its group index only moves forward, so a
// workgroup reads each tile end once: the walk costs one load per group plus one per tile. Empty
// groups (no tiles) are stepped over.
//
// A piece of work names its group as its sub-problem (ScheduledWork::batch) and its tile id within
// the group; each group's own tile order places it (its Params are the group's, in memory), so this
// scheduler has no tile(): the kernel asks the group's order.
#include <algorithm>
#include <cstdint>

#include "hiptile/arch/cross_lane.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

struct GroupedScheduler {
  // No split of K; like PersistentScheduler a grid of resident workgroups walking the tiles.
  static constexpr SplitKMode kMode = SplitKMode::kPersistent;
  static constexpr bool kOneWork = false;
  struct Params {
    int const* tile_ends = nullptr;  // tile_ends[g]: the tiles of groups 0..g (device memory)
    int group_count = 0;
  };
  // The shape: tiles_m · tiles_n the tiles of all groups, batches the groups, tile_ends their ends.
  // kErrorIndexOverflow when a tile id plus the grid could pass an int.
  static Status make_params(ScheduleShape const& s, Params& p) noexcept {
    if (s.tiles() + grid(s).x > kMaxTiles) return Status::kErrorIndexOverflow;
    p = {s.tile_ends, s.batches};
    return Status::kSuccess;
  }
  // The shape's workgroups (the device's resident ones), at most one per tile.
  static Dim3 grid(ScheduleShape const& s) noexcept {
    return {unsigned(std::max<std::int64_t>(1, std::min<std::int64_t>(s.workgroups, s.tiles()))), 1, 1};
  }

  class Walk {
   public:
    HIPTILE_DEVICE HIPTILE_INLINE Walk(Params const& p, int workgroup)
        : p_(p), tile_(workgroup), grid_(static_cast<int>(grid_dim_x())) {}
    HIPTILE_DEVICE HIPTILE_INLINE bool next(ScheduledWork& w) {
      // (Tile ends read from memory are made wave-uniform: arch::wave_uniform.)
      while (group_ < p_.group_count && tile_ >= arch::wave_uniform(p_.tile_ends[group_])) {
        group_begin_ = arch::wave_uniform(p_.tile_ends[group_++]);
      }
      if (group_ == p_.group_count) return false;
      w = {tile_ - group_begin_, group_, KTileShare{}, group_};
      tile_ += grid_;  // (below the total plus the grid, which make_params keeps in an int)
      return true;
    }

   private:
    Params const& p_;
    int tile_;
    int grid_;
    int group_ = 0;
    int group_begin_ = 0;  // the first tile id of group_
  };
  template <class Accumulators>
  HIPTILE_DEVICE HIPTILE_INLINE static bool fixup(Accumulators&, Params const&, Walk const&, ScheduledWork const&,
                                                  int) {
    return true;
  }
};

}  // namespace hiptile::gemm::kernel
