#pragma once
// Stream-K (split_k.hpp; Osama et al., "Stream-K: Work-centric Parallel Decomposition for Dense
// Matrix Multiplication", PPoPP 2023): a grid of `units` persistent workgroups, sized by the
// operator to the device (compute units × resident workgroups per unit), shares the output tiles'
// K iterations evenly, so the last, partial wave of tiles no longer leaves most of the device idle.
//
// The hybrid schedule: tiles that fill whole waves of the grid run data-parallel, one per
// workgroup, first; the rest — the last partial wave plus one full wave, so that every unit gets
// between one and two tiles' worth of iterations and a tile is shared by few units — are shared.
// Sharing costs a loop around the tile's work, a partial tile stored and added per extra piece,
// and a pipeline filled per piece; it is chosen only where the data-parallel launch would leave
// at least half of its last wave idle (fewer tiles than half the grid, or a last wave less than
// half full). Measured on the H100 (docs/performance.md), sharing a last wave that was already
// more than half full gained at most 1–2% and lost up to 14% when K was short.
//
//   workgroup id   [0, dp_tiles)  data-parallel, tile id = workgroup id
//                  [dp_tiles, dp_tiles + units)  stream-K unit u = id − dp_tiles
//   tile id        [0, dp_tiles)  data-parallel;  [dp_tiles, dp_tiles + sk_tiles)  shared
//   (tile ids are the tile order's, so any TileOrder, XcdRemap included, places the tiles)
//
// Three units over four shared tiles of three K iterations each (4 iterations per unit):
//
//   shared tile     |  0     |  1     |  2     |  3     |
//   K iteration     |  0 1 2 |  0 1 2 |  0 1 2 |  0 1 2 |
//   unit            |  0 0 0 |  0 1 1 |  1 1 2 |  2 2 2 |
//   owner (epilogue)    0        1        2        2
//
// The unit holding a tile's last iteration owns it: it adds the other units' partial sums of the
// tile (PartialTiles, one slot per unit), in unit order, to its own and runs the epilogue; the
// others store theirs to their slot and raise its flag. A unit runs its pieces last tile first: the
// piece holding its own last iteration — the only one it may not own — first, so its partial sums
// are ready early; the piece holding its first iteration — a tile lower units began — last, when
// those units stored theirs long ago. A unit waits only for lower units, which hardware
// dispatches first: no deadlock whatever number of workgroups is resident.
//
// Partitions (the XCDs of gfx942): units and shared tiles are split into `partitions` groups by
// their ids modulo `partitions`: workgroup id w and tile id t belong to group w mod partitions and
// t mod partitions. MI300 deals workgroup w to XCD w mod 8 (docs/mi300_facts.md, "Workgroups and
// XCDs"), and XcdRemap gives tile ids of one residue one XCD's block of tiles, so a group's units,
// its tiles' operands and the
// partial sums they hand each other all stay in one XCD's L2. Used when the units divide evenly
// and every group has at least kMinTilesPerPartition tiles (the groups' work then differs by at
// most one tile in that many).
//
// The schedule depends only on (tiles, K iterations, units, partitions): with the same units every
// run adds the same partial sums in the same order, so the result is bitwise reproducible.
#include <cmath>
#include <cstdint>

#include "hiptile/core/status.hpp"
#include "hiptile/gemm/kernel/split_k.hpp"
#include "hiptile/gemm/tile_work.hpp"
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

// One contiguous run of a unit's K iterations within one tile.
struct StreamKPiece {
  int tile = 0;           // the tile order's tile id
  gemm::KTileShare k;     // which of the tile's K iterations
  bool owner = false;     // holds the tile's last iteration: adds the peers' sums, runs the epilogue
  int peers = 0;          // owner: lower units of its group holding the tile's earlier iterations
};

struct StreamKSchedule {
  static constexpr int kMinTilesPerPartition = 16;

  int dp_tiles = 0;    // data-parallel tiles (and workgroups)
  int sk_tiles = 0;    // tiles shared among the units
  int units = 0;       // stream-K workgroups; 0 when no tile is shared
  int partitions = 1;  // groups of units and shared tiles
  int k_tiles = 1;     // K iterations of every tile

  HIPTILE_HOST_DEVICE int workgroups() const { return dp_tiles + units; }

  // Host: the schedule of `tiles` output tiles of `k_tiles` iterations each on a grid of at most
  // `workgroups` resident workgroups, split into up to `partitions` groups. kErrorInvalidProblem
  // for a count below 1; kErrorIndexOverflow when a unit's iteration arithmetic (iterations ·
  // units, in 64 bits) would not fit.
  static Status make(int tiles, int k_tiles, int workgroups, int partitions, StreamKSchedule& out) noexcept {
    if (tiles < 1 || k_tiles < 1 || workgroups < 1 || partitions < 1) return Status::kErrorInvalidProblem;
    StreamKSchedule s;
    s.k_tiles = k_tiles;
    if (k_tiles == 1) {
      // One K iteration per tile: nothing to split, every tile data-parallel.
    } else if (tiles >= workgroups) {
      int const rest = tiles % workgroups;
      bool const share = rest > 0 && 2 * std::int64_t(rest) < workgroups;
      s.sk_tiles = share ? workgroups + rest : 0;  // the last partial wave and one full wave
      s.units = share ? workgroups : 0;
    } else if (2 * std::int64_t(tiles) <= workgroups) {
      // Fewer tiles than workgroups: each tile's owner adds one partial tile per extra piece, about
      // what one K iteration costs, so √k_tiles pieces per tile balance computing and adding.
      int const pieces = static_cast<int>(std::ceil(std::sqrt(double(k_tiles))));
      std::int64_t const units = std::int64_t(tiles) * pieces;
      s.sk_tiles = tiles;
      s.units = static_cast<int>(units < workgroups ? units : workgroups);
    }  // (else: more than half the grid busy in the one wave, every tile data-parallel)
    s.dp_tiles = tiles - s.sk_tiles;
    s.partitions = s.units > 0 && s.units % partitions == 0 && s.sk_tiles / partitions >= kMinTilesPerPartition &&
                           std::int64_t(s.sk_tiles / partitions) * k_tiles >= s.units / partitions
                       ? partitions
                       : 1;
    std::int64_t const iterations = std::int64_t(s.sk_tiles) * k_tiles;
    if (s.units > 0 && iterations + 1 > INT64_MAX / s.units) return Status::kErrorIndexOverflow;
    out = s;
    return Status::kSuccess;
  }
};

// The pieces of workgroup `workgroup`, in the order it runs them: a data-parallel workgroup's
// one piece is its whole tile; a unit's are its runs of iterations, its last tile first. The
// 64-bit arithmetic is done once, here; handing out a piece takes none (the loop around a whole
// tile's work keeps its registers for the tile).
class StreamKPieces {
 public:
  HIPTILE_HOST_DEVICE StreamKPieces(StreamKSchedule const& s, int workgroup) : k_tiles_(s.k_tiles) {
    if (workgroup < s.dp_tiles) {  // one tile, [0, k_tiles)
      first_tile_ = workgroup;
      end_k_ = s.k_tiles;
      return;
    }
    // Unit u and shared tile j (tile id dp_tiles + j) are in the same group when u ≡ j
    // (mod partitions), since workgroup and tile ids are then congruent too.
    slot_ = workgroup - s.dp_tiles;
    stride_ = s.partitions;
    int const residue = slot_ % s.partitions;
    int const local = slot_ / s.partitions;
    std::int64_t const units = s.units / s.partitions;
    first_tile_ = s.dp_tiles + residue;
    int const tiles = (s.sk_tiles - residue + s.partitions - 1) / s.partitions;
    std::int64_t const iterations = std::int64_t(tiles) * s.k_tiles;  // the group's
    std::int64_t const begin = iterations * local / units;
    std::int64_t const end = iterations * (local + 1) / units;
    begin_tile_ = static_cast<int>(begin / s.k_tiles);
    begin_k_ = static_cast<int>(begin % s.k_tiles);
    end_tile_ = static_cast<int>(end / s.k_tiles);
    end_k_ = static_cast<int>(end % s.k_tiles);
    // Only the unit's first iteration can lie in a tile lower units began. The unit holding that
    // tile's first iteration x is the last whose range begins at or before x: the largest l with
    // ⌊l · iterations / units⌋ <= x.
    std::int64_t const x = std::int64_t(begin_tile_) * s.k_tiles;
    last_peers_ = local - static_cast<int>(((x + 1) * units - 1) / iterations);
  }

  // The next piece into `piece`; false when the workgroup has no more.
  HIPTILE_HOST_DEVICE bool next(StreamKPiece& piece) {
    if (end_k_ == 0) {  // the end is a tile boundary: the last piece is in the tile before
      --end_tile_;
      end_k_ = k_tiles_;
    }
    if (end_tile_ < begin_tile_ || (end_tile_ == begin_tile_ && end_k_ <= begin_k_)) return false;
    bool const last = end_tile_ == begin_tile_;
    piece.tile = first_tile_ + end_tile_ * stride_;
    piece.k.first = last ? begin_k_ : 0;
    piece.k.last = end_k_;
    piece.owner = end_k_ == k_tiles_;
    piece.peers = piece.owner && last ? last_peers_ : 0;
    end_k_ = piece.k.first;
    return true;
  }

  // The PartialTiles slot this unit hands its non-owned piece on in, and that of the peer `back`
  // places below it in its group.
  HIPTILE_HOST_DEVICE int slot() const { return slot_; }
  HIPTILE_HOST_DEVICE int peer_slot(int back) const { return slot_ - back * stride_; }

 private:
  int k_tiles_;
  int slot_ = 0;         // the unit's index (workgroup id − dp_tiles)
  int stride_ = 1;       // between the tile ids, and the slots, of a group
  int first_tile_ = 0;   // tile id of the group's first tile
  int begin_tile_ = 0;   // the iterations not yet handed out, from (begin_tile_, begin_k_) to
  int begin_k_ = 0;      // (end_tile_, end_k_), tiles counted in the group
  int end_tile_ = 0;
  int end_k_ = 0;
  int last_peers_ = 0;   // lower units holding part of the tile of the unit's first iteration
};

}  // namespace hiptile::gemm::kernel
