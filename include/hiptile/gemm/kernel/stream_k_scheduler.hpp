#pragma once
// StreamKScheduler (tile_scheduler.hpp; stream_k.hpp): one problem's tiles on a grid sized to the
// device; data-parallel tiles and stream-K units run through the kernel's one loop over pieces, so
// it holds one mainloop and one epilogue (their registers, not twice). A unit's pieces of tiles it
// does not own go to its slot of the workspace's partial tiles; an owner adds its peers' and
// finishes.
#include "hiptile/core/status.hpp"
#include "hiptile/gemm/kernel/partial_tiles.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/kernel/stream_k.hpp"
#include "hiptile/gemm/kernel/tile_order.hpp"
#include "hiptile/gemm/kernel/tile_scheduler.hpp"
#include "hiptile/platform/indices.hpp"
#include "hiptile/platform/launch.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

template <TileOrderType TileOrder, class Accumulators, int Threads>
struct StreamKScheduler {
  static constexpr SplitKMode kMode = SplitKMode::kStreamK;
  using Partials = PartialTiles<Accumulators, Threads>;
  struct Params {
    typename TileOrder::Params order;
    typename Partials::Params partials;  // a slot per unit
    StreamKSchedule stream_k;
  };
  // The tile order's coordinates of tile `id`.
  HIPTILE_DEVICE HIPTILE_INLINE static TileCoord tile(Params const& p, int id) { return TileOrder::tile(p.order, id); }
  static Status make_params(ScheduleShape const& s, Params& p) noexcept {
    p.partials = {s.flags, static_cast<typename Partials::Element*>(s.partial_tiles)};
    p.stream_k = s.stream_k;
    return TileOrder::make_params(s.tiles_m, s.tiles_n, p.order);
  }
  static Dim3 grid(ScheduleShape const& s) noexcept { return {unsigned(s.stream_k.workgroups()), 1, 1}; }

  static constexpr bool kOneWork = false;
  // A workgroup's pieces (stream_k.hpp): its data-parallel tile, or its runs of shared tiles' K.
  class Walk {
   public:
    HIPTILE_DEVICE HIPTILE_INLINE Walk(Params const& p, int workgroup) : pieces_(p.stream_k, workgroup) {}
    HIPTILE_DEVICE HIPTILE_INLINE bool next(ScheduledWork& w) {
      if (!pieces_.next(piece_)) return false;
      w = {piece_.tile, 0, piece_.k, 0};
      return true;
    }
    HIPTILE_DEVICE HIPTILE_INLINE StreamKPieces const& pieces() const { return pieces_; }
    HIPTILE_DEVICE HIPTILE_INLINE StreamKPiece const& piece() const { return piece_; }

   private:
    StreamKPieces pieces_;
    StreamKPiece piece_;
  };
  // A piece of a tile the unit does not own goes to its slot; the owner adds its peers' in unit
  // order (the tile's K order) and finishes.
  HIPTILE_DEVICE HIPTILE_INLINE static bool fixup(Accumulators& acc, Params const& p, Walk const& walk,
                                                  ScheduledWork const&, int thread) {
    StreamKPieces const& pieces = walk.pieces();
    StreamKPiece const& piece = walk.piece();
    if (!piece.owner) {
      Partials::store(acc, p.partials, pieces.slot(), thread);
      Partials::publish(p.partials, pieces.slot(), 1, thread);
      return false;
    }
    for (int back = piece.peers; back >= 1; --back) {
      int const peer = pieces.peer_slot(back);
      Partials::await(p.partials, peer, 1, thread);
      Partials::add(acc, p.partials, peer, thread);
    }
    return true;
  }
};

}  // namespace hiptile::gemm::kernel
