#pragma once
// PersistentScheduler (tile_scheduler.hpp): a grid of at most the workgroups the device holds at
// once, each walking the tiles of every sub-problem — workgroup w takes work items w, w + grid,
// w + 2·grid, … of the tiles × sub-problems, sub-problem-major — instead of one short-lived
// workgroup per tile. A long-lived workgroup pays its launch and set-up once, and the next tile's
// loads can be issued while the last one's epilogue stores (what cuDNN's faster Dgrad kernels do:
// 132 workgroups on the H100 against one per tile). Tiles are placed by the tile order, work item
// i being tile i mod tiles of sub-problem i / tiles (one FastDivmod per item).
#include <algorithm>
#include <cstdint>

#include "hiptile/core/fast_divmod.hpp"
#include "hiptile/core/status.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <TileOrderType TileOrder>
struct PersistentScheduler {
  static constexpr SplitKMode kMode = SplitKMode::kPersistent;
  struct Params {
    typename TileOrder::Params order;
    FastDivmod divide_tiles;  // work item → (sub-problem, tile)
    int items = 0;            // tiles × sub-problems
  };
  // The tile order's coordinates of tile `id`.
  HIPTILE_DEVICE HIPTILE_INLINE static TileCoord tile(Params const& p, int id) { return TileOrder::tile(p.order, id); }
  // kErrorIndexOverflow when the work items do not fit an int.
  static Status make_params(ScheduleShape const& s, Params& p) noexcept {
    std::int64_t const items = s.tiles() * s.batches;
    if (items > kMaxTiles) return Status::kErrorIndexOverflow;
    Params q;
    q.items = static_cast<int>(items);
    if (Status const d = FastDivmod::make(static_cast<int>(s.tiles()), q.divide_tiles); !ok(d)) return d;
    if (Status const o = TileOrder::make_params(s.tiles_m, s.tiles_n, q.order); !ok(o)) return o;
    p = q;
    return Status::kSuccess;
  }
  // The grid: the shape's workgroups (the device's resident ones), at most one per work item.
  static Dim3 grid(ScheduleShape const& s) noexcept {
    std::int64_t const items = s.tiles() * s.batches;
    return {unsigned(std::max<std::int64_t>(1, std::min<std::int64_t>(s.workgroups, items))), 1, 1};
  }

  static constexpr bool kOneWork = false;
  class Walk {
   public:
    HIPTILE_DEVICE HIPTILE_INLINE Walk(Params const& p, int workgroup)
        : p_(p), item_(workgroup), grid_(static_cast<int>(grid_dim_x())) {}
    HIPTILE_DEVICE HIPTILE_INLINE bool next(ScheduledWork& w) {
      if (item_ >= p_.items) return false;
      auto const [batch, id] = p_.divide_tiles.divmod(item_);
      w = {id, batch, KTileShare{}, batch};
      item_ += grid_;
      return true;
    }

   private:
    Params const& p_;
    int item_;
    int grid_;
  };
  template <class Accumulators>
  HIPTILE_DEVICE HIPTILE_INLINE static bool fixup(Accumulators&, Params const&, Walk const&, ScheduledWork const&,
                                                  int) {
    return true;
  }
};

}  // namespace hiptile::gemm::kernel
