#pragma once
// Stream-K (split_k.hpp; Osama et al., "Stream-K: Work-centric Parallel Decomposition for Dense
// Matrix Multiplication", PPoPP 2023): a grid of `units` persistent workgroups, sized by the
// operator to the device (compute units × resident workgroups per unit), shares the output tiles'
// K iterations evenly, so the last, partial wave of tiles no longer leaves most of the device idle.
//
// The hybrid schedule: tiles that fill whole waves of the grid run data-parallel, one per
// workgroup, first; the rest — the last partial wave plus one full wave, so that every unit gets
// between one and two tiles' worth of iterations and a tile is shared by few units — are shared:
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
// t mod partitions. MI300 deals workgroup w to XCD w mod 8 (FACTS.md), and XcdRemap gives tile
// ids of one residue one XCD's block of tiles, so a group's units, its tiles' operands and the
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
#include "hiptile/platform/qualifiers.hpp"

namespace hiptile::gemm::kernel {

// One contiguous run of a unit's K iterations within one tile.
struct StreamKPiece {
  int tile = 0;           // the tile order's tile id
  KTileShare k;           // which of the tile's K iterations
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
      s.sk_tiles = rest == 0 ? 0 : workgroups + rest;  // the last partial wave and one full wave
      s.units = rest == 0 ? 0 : workgroups;
    } else {
      // Fewer tiles than workgroups: each tile's owner adds one partial tile per extra piece, about
      // what one K iteration costs, so √k_tiles pieces per tile balance computing and adding.
      int const pieces = static_cast<int>(std::ceil(std::sqrt(double(k_tiles))));
      std::int64_t const units = std::int64_t(tiles) * pieces;
      s.sk_tiles = tiles;
      s.units = static_cast<int>(units < workgroups ? units : workgroups);
    }
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

// The pieces of stream-K unit `unit`, in the order it runs them (its last tile first).
class StreamKPieces {
 public:
  HIPTILE_HOST_DEVICE StreamKPieces(StreamKSchedule const& s, int unit) : s_(s) {
    // Unit u and shared tile j (tile id dp_tiles + j) are in the same group when u ≡ j
    // (mod partitions), since workgroup and tile ids are then congruent too.
    residue_ = unit % s.partitions;
    local_ = unit / s.partitions;
    group_units_ = s.units / s.partitions;
    int const tiles = (s.sk_tiles - residue_ + s.partitions - 1) / s.partitions;
    iterations_ = std::int64_t(tiles) * s.k_tiles;
    begin_ = iterations_ * local_ / group_units_;
    end_ = iterations_ * (local_ + 1) / group_units_;
  }

  // The next piece into `piece`; false when the unit has no more.
  HIPTILE_HOST_DEVICE bool next(StreamKPiece& piece) {
    if (end_ <= begin_) return false;
    int const tile = static_cast<int>((end_ - 1) / s_.k_tiles);  // of the group
    std::int64_t const tile_begin = std::int64_t(tile) * s_.k_tiles;
    std::int64_t const begin = begin_ > tile_begin ? begin_ : tile_begin;
    piece.tile = s_.dp_tiles + residue_ + tile * s_.partitions;
    piece.k.first = static_cast<int>(begin - tile_begin);
    piece.k.last = static_cast<int>(end_ - tile_begin);
    piece.owner = piece.k.last == s_.k_tiles;
    // The unit holding the tile's first iteration x: the last one whose range begins at or
    // before x, i.e. the largest l with ⌊l · iterations / units⌋ <= x.
    int const first_unit = static_cast<int>(((tile_begin + 1) * group_units_ - 1) / iterations_);
    piece.peers = piece.owner ? local_ - first_unit : 0;
    end_ = begin;
    return true;
  }

  // The unit id of the peer `back` places below this unit in its group.
  HIPTILE_HOST_DEVICE int peer(int unit, int back) const { return unit - back * s_.partitions; }

 private:
  StreamKSchedule s_;
  int residue_ = 0;          // the group's unit and shared-tile ids modulo partitions
  int local_ = 0;            // place among the group's units
  int group_units_ = 1;
  std::int64_t iterations_ = 0;  // the group's K iterations
  std::int64_t begin_ = 0;   // the unit's iterations not yet handed out: [begin_, end_)
  std::int64_t end_ = 0;
};

}  // namespace hiptile::gemm::kernel
