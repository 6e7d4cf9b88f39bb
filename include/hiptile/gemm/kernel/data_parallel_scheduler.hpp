#pragma once
// DataParallelScheduler (tile_scheduler.hpp): one output tile per workgroup, the whole K loop:
// workgroup x of grid row y computes tile x (of the tile order) of sub-problem y. kBatched: one
// grid row per sub-problem (a strided batched GEMM's batches, a convolution's groups and row
// classes); otherwise a single problem.
#include "hiptile/core/status.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <TileOrderType TileOrder, bool kBatched>
struct DataParallelScheduler {
  static constexpr SplitKMode kMode = SplitKMode::kNone;
  static constexpr bool kOneWork = true;
  struct Params {
    typename TileOrder::Params order;
  };
  // The tile order's coordinates of tile `id`.
  HIPTILE_DEVICE HIPTILE_INLINE static TileCoord tile(Params const& p, int id) { return TileOrder::tile(p.order, id); }
  static Status make_params(ScheduleShape const& s, Params& p) noexcept {
    return TileOrder::make_params(s.tiles_m, s.tiles_n, p.order);
  }
  static Dim3 grid(ScheduleShape const& s) noexcept {
    return {unsigned(s.tiles()), unsigned(kBatched ? s.batches : 1), 1};
  }

  class Walk {
   public:
    HIPTILE_DEVICE HIPTILE_INLINE Walk(Params const&, int workgroup) : id_(workgroup) {}
    HIPTILE_DEVICE HIPTILE_INLINE bool next(ScheduledWork& w) {
      int const batch = kBatched ? static_cast<int>(block_idx_y()) : 0;
      w = {id_, batch, KTileShare{}, batch};
      return true;
    }

   private:
    int id_;
  };
  template <class Accumulators>
  HIPTILE_DEVICE HIPTILE_INLINE static bool fixup(Accumulators&, Params const&, Walk const&, ScheduledWork const&,
                                                  int) {
    return true;
  }
};

}  // namespace hiptile::gemm::kernel
