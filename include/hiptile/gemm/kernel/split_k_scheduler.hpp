#pragma once
// SplitKScheduler (tile_scheduler.hpp; split_k.hpp): DataParallelScheduler's tiles with each
// tile's K loop divided among the workgroups of grid z, slice z of `slices`.
//   kSerial    every slice but the last stores its sum to its slot of the workspace's partial tiles
//              and raises the flag; the last adds them in slice order and finishes (serial_split_k.hpp)
//   kParallel  every slice finishes its own partial sums into output batch batch · slices + slice
//              (the workspace's fp32 matrices), which SplitKReduction adds in slice order
// Partials: the PartialTiles of the kernel's accumulators and threads (serial only).
#include <cstdint>

#include "hiptile/core/status.hpp"
#include "hiptile/gemm/kernel/serial_split_k.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <TileOrderType TileOrder, SplitKMode Mode, class Accumulators, int Threads>
  requires(Mode == SplitKMode::kSerial || Mode == SplitKMode::kParallel)
struct SplitKScheduler {
  static constexpr SplitKMode kMode = Mode;
  using Partials = PartialTiles<Accumulators, Threads>;
  struct Params {
    typename TileOrder::Params order;
    int slices = 1;
    typename Partials::Params partials;  // serial: a slot per slice but the last of every tile
  };
  // The tile order's coordinates of tile `id`.
  HIPTILE_DEVICE HIPTILE_INLINE static TileCoord tile(Params const& p, int id) { return TileOrder::tile(p.order, id); }
  static Status make_params(ScheduleShape const& s, Params& p) noexcept {
    p.slices = s.slices;
    p.partials = {s.flags, static_cast<typename Partials::Element*>(s.partial_tiles)};
    return TileOrder::make_params(s.tiles_m, s.tiles_n, p.order);
  }
  static Dim3 grid(ScheduleShape const& s) noexcept { return {unsigned(s.tiles()), unsigned(s.batches), unsigned(s.slices)}; }

  static constexpr bool kOneWork = true;
  class Walk {
   public:
    HIPTILE_DEVICE HIPTILE_INLINE Walk(Params const& p, int workgroup) : p_(p), id_(workgroup) {}
    HIPTILE_DEVICE HIPTILE_INLINE bool next(ScheduledWork& w) {
      int const batch = static_cast<int>(block_idx_y());
      int const slice = static_cast<int>(block_idx_z());
      w = {id_, batch, KTileShare{slice, p_.slices}, Mode == SplitKMode::kParallel ? batch * p_.slices + slice : batch};
      return true;
    }
    HIPTILE_DEVICE HIPTILE_INLINE int id() const { return id_; }

   private:
    Params const& p_;
    int id_;
  };
  // Serial: hands this slice's sum to the tile's last slice, which adds the others' (true there).
  // Parallel: every slice finishes its own partial sums.
  HIPTILE_DEVICE HIPTILE_INLINE static bool fixup(Accumulators& acc, Params const& p, Walk const& walk,
                                                  ScheduledWork const& w, int thread) {
    if constexpr (Mode == SplitKMode::kSerial) {
      std::int64_t const tile_index = std::int64_t(w.batch) * grid_dim_x() + walk.id();
      return SerialSplitK<Accumulators, Threads>::finish_slice(acc, p.partials, tile_index, w.k.slice, p.slices,
                                                                thread);
    } else {
      return true;
    }
  }
};

}  // namespace hiptile::gemm::kernel
